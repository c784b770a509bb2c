"""Game night: one night of the club (the latest by default, any to choose), as the night report
has it: the games in played order with their winners, the night's best suggestion and biggest
blunder (or largest loss), the longest wait after certainty, and each player's rating before and
after the night. UI only: the night is analysis.night's, read through dashboard.queries."""

from __future__ import annotations

from typing import Any

import polars as pl
import streamlit as st

from clue_stats.analysis.suggestions import WORST_LABEL
from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.common import help_link, page_context, read, replay_url, require_games
from clue_stats.dashboard.app_pages.tables import rows
from clue_stats.dashboard.app_pages.words import md
from clue_stats.dashboard.pages import page


def _where(pick: dict[str, Any], numbers: dict[str, int]) -> str:
    """Where a moment happened, as the club typed it: the game's number that night and the line."""
    line = f", line {pick['line']} of its file" if pick.get("line") is not None else ""
    return f"game {numbers[pick['game_id']]} ({md(pick['game_id'])}{line}; [open the replay]({replay_url(pick['game_id'], pick['seq'])}))"


def _rating(value: float | None, signed: bool = False) -> str:
    return "" if value is None else (f"{value:+.1f}" if signed else f"{value:.1f}")


ctx = page_context()
st.title(page("night").title)
require_games(read(queries.selection_size, ctx.path, ctx.version, queries.GameFilter()), ctx, "game nights")
nights = read(queries.nights, ctx.path, ctx.version)
if not nights:
    st.info(
        "No game night yet: a night is the games whose played date falls on it (until 06:00 the next "
        "morning). Games stored without a date (`played` in the notation, `played_at` in clue-log/1) "
        "belong to no night."
    )
    st.stop()
asked = st.query_params.get("night")
if asked in nights and st.session_state.get("night_choice") is None:
    st.session_state["night_choice"] = asked
night = st.selectbox("Night", nights, key="night_choice", help="the latest first")
data = read(queries.night_view, ctx.path, ctx.version, night)
games: pl.DataFrame = data["games"]
numbers = {g: i for i, g in enumerate(games["game_id"].to_list(), 1)}
places = sorted({p for p in games["place"].to_list() if p})
st.caption(
    f"{games.height} game{'s' if games.height != 1 else ''}"
    + (f" at {md(', '.join(places))}" if places else "")
    + ", in the order they were played. The same summary as `clue-stats report --night "
    + f"{night}`. "
    + help_link("league", "Help: the night's summary", "the-nights-summary")
)

st.subheader("The games")
rows(
    games.with_columns(
        pl.Series("#", list(range(1, games.height + 1)), dtype=pl.Int64),
        pl.col("played_at").str.replace("T", " ").alias("played_at"),
        pl.Series("replay", [replay_url(g, None) for g in games["game_id"]], dtype=pl.Utf8),
    ).select("#", "winner", "players", "edition", "played_at", "game_id", "replay"),
    first=("#", "winner"),
    links={"replay": "open replay"},
    headers={"game_id": "game"},
)

st.subheader("The night's moments")
moments = []
best = data["best"]
if best is not None:
    v = best["values"]
    moments.append(
        f"**Best suggestion**: {md(best['player'])} asked {md(', '.join(best['cards']))} in {_where(best, numbers)}: "
        f"expected to learn {v['expected_gain_bits']:.2f} bits, {v['accuracy']:.0%} of the most any suggestion could."
    )
worst = data["blunder"]
if worst is not None:
    v = worst["values"]
    title = "Biggest blunder" if v["label"] == WORST_LABEL else "Largest loss"
    instead = f"; {md(', '.join(v['best_cards']))} was best" if v.get("best_cards") else ""
    moments.append(
        f"**{title}**: {md(worst['player'])} asked {md(', '.join(worst['cards']))} in {_where(worst, numbers)}: "
        f"{v['bits_lost']:.2f} bits lost (labelled {md(v['label'])}){instead}."
    )
wait = data["longest_wait"]
if wait is not None:
    v = wait["values"]
    result = "and won" if v.get("correct") else "and was wrong" if v.get("correct") is False else ""
    moments.append(
        f"**Longest wait after certainty**: {md(wait['player'])} was certain after record {v['first_certain_seq']} "
        f"and waited {v['turns_waited']} own turn{'s' if v['turns_waited'] != 1 else ''} before accusing {result} "
        f"in {_where(wait, numbers)}."
    )
if moments:
    st.markdown("\n".join(f"- {m}" for m in moments))
else:
    st.caption(
        "No rated suggestion this night: a suggestion is rated when the log holds the suggester's hand "
        "and the game was analysed."
    )

st.subheader("The players")
players: pl.DataFrame = data["players"]
rows(
    players.with_columns(
        pl.col("rating_before").map_elements(_rating, return_dtype=pl.Utf8),
        pl.struct("rating_after", "sigma_after")
        .map_elements(
            lambda r: "" if r["rating_after"] is None else f"{r['rating_after']:.1f} (± {r['sigma_after']:.1f})",
            return_dtype=pl.Utf8,
        )
        .alias("rating_after"),
        pl.col("rating_change").map_elements(lambda v: _rating(v, True), return_dtype=pl.Utf8),
    ).select("player", "games", "wins", "review_accuracy", "rating_before", "rating_after", "rating_change"),
    first=("player",),
    headers={
        "rating_before": "rating before the night",
        "rating_after": "rating after (± uncertainty)",
        "rating_change": "change",
        "review_accuracy": "review accuracy",
    },
)
st.caption(
    "Review accuracy: the information their rated suggestions could expect, over the most the best ones could "
    "(over all their rated suggestions of the night). Rating: the skill the league is very sure they are above, "
    "before their first game of the night and after their last."
)
