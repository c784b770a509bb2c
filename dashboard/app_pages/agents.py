"""Agents: the programs and models that played (LLM agents, contest bots; games of the digital and
contest kinds) compared on what the analysis measured, each figure with its count and 95 % interval."""

from __future__ import annotations

import polars as pl
import streamlit as st

from clue_stats.analysis.words import N_, _, n_, number, percent
from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.common import help_link, page_context, read, require_games
from clue_stats.dashboard.app_pages.words import md
from clue_stats.dashboard.pages import page


def _figure(value: float | None, low: float | None, high: float | None, count: str) -> str:
    """ "82% (73% to 90%), 12 rated": the figure, its interval and what it counts."""
    if value is None:
        return f"– ({count})"
    if low is None or high is None:
        return _("{figure}, {count}").format(figure=percent(value), count=count)
    return _("{figure} ({low} to {high}), {count}").format(
        figure=percent(value), low=percent(low), high=percent(high), count=count
    )


def _of(part: int, whole: int) -> str:
    return _("{part} of {whole}").format(part=number(part), whole=number(whole))


ctx = page_context()
st.title(page("agents").name)
groups = {"strategy": _("Program or model"), "name": _("Player name")}  # the options' words, before the widget
by = st.segmented_control(
    _("Compare by"), list(groups), default="strategy", format_func=groups.__getitem__, key="agents_by"
)
by = by or "strategy"
data = read(queries.agent_summary, ctx.path, ctx.version, ctx.filters, by)
require_games(data["games"], ctx, N_("agents"))
table = data["table"]
st.caption(
    _(
        "Games played by programs (kinds digital and contest: LLM agents, contest bots), whatever the kinds "
        "chosen in the sidebar. Each figure with its count and its interval (95 %; {link})."
    ).format(link=help_link("analysis", _("Help: agents compared"), "agents-compared"))
)
if table.height == 0:
    st.info(
        _(
            "No games played by programs in the selection. Ingest an agents' transcript (`llm-transcript`) "
            "or a SpeedClue server's (`speedclue`, `speedclue-py`)."
        )
    )
    st.stop()

rows = []
for r in table.iter_rows(named=True):
    rows.append(
        {
            "agent": r["agent"],
            "player_games": r["player_games"],
            "review_accuracy": _figure(
                r["review_accuracy"],
                r["review_low"],
                r["review_high"],
                n_(r["rated_suggestions"], "{n} rated", "{n} rated"),
            ),
            "unsure": _figure(
                r["unsure_rate"], r["unsure_low"], r["unsure_high"], _of(r["unsure_accusations"], r["accusations"])
            ),
            "missed_wins": _figure(
                r["missed_rate"], r["missed_low"], r["missed_high"], _of(r["missed_wins"], r["reviewed_games"])
            ),
            "rule_breaks": _figure(
                r["break_rate"],
                r["break_low"],
                r["break_high"],
                _("{breaks} in {part} of {whole}").format(
                    breaks=number(r["rule_breaks"]),
                    part=number(r["games_with_breaks"]),
                    whole=number(r["player_games"]),
                ),
            ),
            "stated_precision": _figure(
                r["stated_precision"],
                r["stated_precision_low"],
                r["stated_precision_high"],
                _of(r["proven_units"], r["stated_units"]),
            ),
            "stated_recall": _figure(
                r["stated_recall"],
                r["stated_recall_low"],
                r["stated_recall_high"],
                _of(r["proven_units"], r["proven_units"] + r["missed_units"]),
            ),
        }
    )
headers = {
    "agent": groups[by],
    "player_games": _("Player-games"),
    "review_accuracy": _("Review accuracy"),
    "unsure": _("Accusations while unsure (p < 1)"),
    "missed_wins": _("Missed wins"),
    "rule_breaks": _("Rule breaks"),
    "stated_precision": _("Stated precision"),
    "stated_recall": _("Stated recall"),
}
st.dataframe(
    pl.DataFrame(rows).to_pandas().style.format({"player_games": number}),
    hide_index=True,
    width="stretch",
    column_config={column: st.column_config.Column(header) for column, header in headers.items()},
)
st.markdown(
    md(
        _(
            "Review accuracy: expected over best available gain of the rated suggestions (sum over sum). "
            "Accusations while unsure: accusations made while the accuser's own view left other solutions "
            "possible (their chance of being right, p, below 1). Missed wins: player-games in which they were "
            "certain, could still accuse, and did not win. Rule breaks: the rule_break findings of the "
            "transcripts (a rule of play broken), and the share of player-games with one. Stated precision and "
            "recall: of what the agents said they knew (their STATUS lines), how much their own view proved, and "
            "how much of what it proved they said."
        )
    )
)
