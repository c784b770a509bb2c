"""Game night: one night of the club (the latest by default, any to choose), as the night report
has it: the games in played order with their winners, the night's best suggestion and biggest
blunder (or largest loss), the longest wait after certainty, and each player's rating before and
after the night. UI only: the night is analysis.night's, read through dashboard.queries."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import polars as pl
import streamlit as st

from clue_stats.analysis.computers.suggestions import WORST_LABEL
from clue_stats.analysis.words import N_, _, decimal, label_word, language, n_, number, percent, when
from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.common import help_link, page_context, read, replay_url, require_games
from clue_stats.dashboard.app_pages.page_text import md
from clue_stats.dashboard.app_pages.tables import rows, said
from clue_stats.dashboard.pages import page


def _where(pick: dict[str, Any], numbers: dict[str, int]) -> str:
    """Where a moment happened, as the club typed it: the game's number that night and the line."""
    link = "[{words}]({url})".format(words=_("open the replay"), url=replay_url(pick["game_id"], pick["seq"]))
    if pick.get("line") is not None:
        return _("game {number} ({game}, line {line} of its file; {link})").format(
            number=number(numbers[pick["game_id"]]), game=md(pick["game_id"]), line=number(pick["line"]), link=link
        )
    return _("game {number} ({game}; {link})").format(
        number=number(numbers[pick["game_id"]]), game=md(pick["game_id"]), link=link
    )


def _rating(value: float | None, signed: bool = False) -> str:
    if value is None:
        return ""
    value = round(value, 1) + 0.0  # never "-0.0"
    return ("+" if signed and value > 0 else "") + decimal(value, 1)


ctx = page_context()
st.title(page("night").name)
require_games(read(queries.selection_size, ctx.path, ctx.version, queries.GameFilter()), ctx, N_("game nights"))
nights = read(queries.nights, ctx.path, ctx.version)
if not nights:
    st.info(
        _(
            "No game night yet: a night is the games whose played date falls on it (until 06:00 the next "
            "morning). Games stored without a date (`played` in the notation, `played_at` in clue-log/1) "
            "belong to no night."
        )
    )
    st.stop()
asked = st.query_params.get("night")
if asked in nights and st.session_state.get("night_choice") is None:
    st.session_state["night_choice"] = asked
night_names = {n: when(n) or n for n in nights}  # the options' words made before the widget
night = st.selectbox(
    _("Night"), nights, key="night_choice", help=_("the latest first"), format_func=night_names.__getitem__
)
data = read(queries.night_view, ctx.path, ctx.version, night)
games: pl.DataFrame = data["games"]
numbers = {g: i for i, g in enumerate(games["game_id"].to_list(), 1)}
places = sorted({p for p in games["place"].to_list() if p})
report = f"`clue-stats report --night {night}`"
summary = (
    n_(
        games.height,
        "{n} game at {places}, in the order they were played. The same summary as {report}.",
        "{n} games at {places}, in the order they were played. The same summary as {report}.",
        places=md(", ".join(places)),
        report=report,
    )
    if places
    else n_(
        games.height,
        "{n} game, in the order they were played. The same summary as {report}.",
        "{n} games, in the order they were played. The same summary as {report}.",
        report=report,
    )
)
st.caption(summary + " " + help_link("league", _("Help: the night's summary"), "the-nights-summary"))

st.subheader(_("The games"))
rows(
    games.with_columns(
        pl.Series("#", list(range(1, games.height + 1)), dtype=pl.Int64),
        said(games, "played_at", when),
        pl.col("winner").fill_null(_("nobody")),
        pl.Series("edition", [queries.edition_name(e) for e in games["edition"]], dtype=pl.Utf8),
        pl.Series("replay", [replay_url(g, None) for g in games["game_id"]], dtype=pl.Utf8),
    ).select("#", "winner", "players", "edition", "played_at", "game_id", "replay"),
    first=("#", "winner"),
    links={"replay": _("open replay")},
    headers={"game_id": _("game")},
)

# the club's order: a game moved up is recorded as `clue-stats night` records it (the ratings rated again)
with st.expander(_("Played in another order?"), expanded=bool(data["ordered"])):
    st.caption(
        _(
            "Games without a time are listed as they were typed and stored. Move a game up to its place; "
            "the league's ratings are computed again. In a terminal: {command}"
        ).format(command="`clue-stats night {night} {game} {game} ...`".format(night=night, game=_("GAME")))
    )
    ids = games["game_id"].to_list()
    order: list[str] | None = None
    for i in range(1, len(ids)):
        if st.button(
            _("Move game {n} up: {game}").format(n=number(i + 1), game=ids[i]),
            key=f"night_up_{i}",
            use_container_width=True,
        ):
            order = [*ids[: i - 1], ids[i], ids[i - 1], *ids[i + 1 :]]
    if data["ordered"] and st.button(_("Order by the games' times again"), key="night_order_clear"):
        order = []
    if order is not None:
        done = subprocess.run(
            # the ids after "--": an id from a log may start with "-"
            [sys.executable, "-m", "clue_stats", "--lang", language(), "night", "--db", ctx.path]
            + (["--", night, *order] if order else ["--clear", "--", night]),
            capture_output=True,
            text=True,
            timeout=600,
        )
        if done.returncode != 0:
            st.error(md(done.stderr.strip() or done.stdout.strip()))
        else:
            st.cache_data.clear()
            st.rerun()

st.subheader(_("The night's moments"))
moments = []
best = data["best"]
if best is not None:
    v = best["values"]
    moments.append(
        _(
            "**Best suggestion**: {player} asked {cards} in {where}: expected to learn {bits} bits, {share} of "
            "the most any suggestion could."
        ).format(
            player=md(best["player"]),
            cards=md(", ".join(best["cards"])),
            where=_where(best, numbers),
            bits=decimal(v["expected_gain_bits"]),
            share=md(percent(v["accuracy"])),
        )
    )
worst = data["blunder"]
if worst is not None:
    v = worst["values"]
    fields = {
        "player": md(worst["player"]),
        "cards": md(", ".join(worst["cards"])),
        "where": _where(worst, numbers),
        "bits": decimal(v["bits_lost"]),
        "label": md(label_word(v["label"])),
    }
    if v["label"] == WORST_LABEL:
        text = _("**Biggest blunder**: {player} asked {cards} in {where}: {bits} bits lost (labelled {label})")
    else:
        text = _("**Largest loss**: {player} asked {cards} in {where}: {bits} bits lost (labelled {label})")
    text = text.format(**fields)
    if v.get("best_cards"):
        text += _("; {cards} was best").format(cards=md(", ".join(v["best_cards"])))
    moments.append(text + ".")
wait = data["longest_wait"]
if wait is not None:
    v = wait["values"]
    fields = {
        "player": md(wait["player"]),
        # the record that made them certain, as the club typed it: "line 14 (turn 3)"
        "certain": wait["places"](v["first_certain_seq"]),
        "where": _where(wait, numbers),
    }
    turns = v["turns_waited"]
    if v.get("correct"):
        text = n_(
            turns,
            "**Longest wait after certainty**: {player} was certain after {certain} and waited {n} own turn "
            "before accusing and won in {where}.",
            "**Longest wait after certainty**: {player} was certain after {certain} and waited {n} own turns "
            "before accusing and won in {where}.",
            **fields,
        )
    elif v.get("correct") is False:
        text = n_(
            turns,
            "**Longest wait after certainty**: {player} was certain after {certain} and waited {n} own turn "
            "before accusing and was wrong in {where}.",
            "**Longest wait after certainty**: {player} was certain after {certain} and waited {n} own turns "
            "before accusing and was wrong in {where}.",
            **fields,
        )
    else:
        text = n_(
            turns,
            "**Longest wait after certainty**: {player} was certain after {certain} and waited {n} own turn "
            "before accusing in {where}.",
            "**Longest wait after certainty**: {player} was certain after {certain} and waited {n} own turns "
            "before accusing in {where}.",
            **fields,
        )
    moments.append(text)
if moments:
    st.markdown("\n".join(f"- {m}" for m in moments))
else:
    st.caption(
        _(
            "No rated suggestion this night: a suggestion is rated when the log holds the suggester's hand "
            "and the game was analysed."
        )
    )

st.subheader(_("The players"))
players: pl.DataFrame = data["players"]
rows(
    players.with_columns(
        said(players, "rating_before", _rating),
        pl.Series(
            "rating_after",
            [
                ""
                if after is None
                else _("{rating} (± {uncertainty})").format(rating=decimal(after, 1), uncertainty=decimal(sigma, 1))
                for after, sigma in zip(players["rating_after"].to_list(), players["sigma_after"].to_list())
            ],
            dtype=pl.Utf8,
        ),
        said(players, "rating_change", lambda v: _rating(v, True)),
    ).select("player", "games", "wins", "review_accuracy", "rating_before", "rating_after", "rating_change"),
    first=("player",),
    headers={
        "rating_before": _("rating before the night"),
        "rating_after": _("rating after (± uncertainty)"),
        "rating_change": _("change"),
        "review_accuracy": _("review accuracy"),
    },
)
st.caption(
    _(
        "Review accuracy: the information their rated suggestions could expect, over the most the best ones could "
        "(over all their rated suggestions of the night). Rating: the skill the league is very sure they are "
        "above, before their first game of the night and after their last."
    )
)
