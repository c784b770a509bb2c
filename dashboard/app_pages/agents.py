"""Agents: the programs and models that played (LLM agents, contest bots; games of the digital and
contest kinds) compared on what the analysis measured, each figure with its count and 95 % interval."""

from __future__ import annotations

import polars as pl
import streamlit as st

from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.common import help_link, page_context, read, require_games
from clue_stats.dashboard.app_pages.words import md

GROUPS = {"strategy": "Program or model", "name": "Player name"}


def _figure(value: float | None, low: float | None, high: float | None, count: str) -> str:
    """ "82% (73% to 90%), 12 rated": the figure, its interval and what it counts."""
    if value is None:
        return f"– ({count})"
    spread = "" if low is None or high is None else f" ({low:.0%} to {high:.0%})"
    return f"{value:.0%}{spread}, {count}"


ctx = page_context()
st.title("Agents")
by = st.segmented_control(
    "Compare by", list(GROUPS), default="strategy", format_func=lambda g: GROUPS[g], key="agents_by"
)
by = by or "strategy"
data = read(queries.agent_summary, ctx.path, ctx.version, ctx.filters, by)
require_games(data["games"], ctx, "agents")
table = data["table"]
st.caption(
    "Games played by programs (kinds digital and contest: LLM agents, contest bots), whatever the kinds "
    "chosen in the sidebar. Each figure with its count and a 95 % interval ("
    + help_link("analysis", "Help: agents compared", "agents-compared")
    + ")."
)
if table.height == 0:
    st.info(
        "No games played by programs in the selection. Ingest an agents' transcript (`llm-transcript`) "
        "or a SpeedClue server's (`speedclue`, `speedclue-py`)."
    )
    st.stop()

rows = []
for r in table.iter_rows(named=True):
    rows.append(
        {
            GROUPS[by]: r["agent"],
            "Player-games": r["player_games"],
            "Review accuracy": _figure(
                r["review_accuracy"], r["review_low"], r["review_high"], f"{r['rated_suggestions']} rated"
            ),
            "Accusations at p < 1": _figure(
                r["unsure_rate"], r["unsure_low"], r["unsure_high"], f"{r['unsure_accusations']} of {r['accusations']}"
            ),
            "Missed wins": _figure(
                r["missed_rate"], r["missed_low"], r["missed_high"], f"{r['missed_wins']} of {r['reviewed_games']}"
            ),
            "Rule breaks": _figure(
                r["break_rate"],
                r["break_low"],
                r["break_high"],
                f"{r['rule_breaks']} in {r['games_with_breaks']} of {r['player_games']}",
            ),
            "Stated precision": _figure(
                r["stated_precision"],
                r["stated_precision_low"],
                r["stated_precision_high"],
                f"{r['proven_units']} of {r['stated_units']}",
            ),
            "Stated recall": _figure(
                r["stated_recall"],
                r["stated_recall_low"],
                r["stated_recall_high"],
                f"{r['proven_units']} of {r['proven_units'] + r['missed_units']}",
            ),
        }
    )
st.dataframe(pl.DataFrame(rows), hide_index=True, width="stretch")
st.markdown(
    md(
        "Review accuracy: expected over best available gain of the rated suggestions (sum over sum). "
        "Accusations at p < 1: accusations made while the accuser's own view left other solutions possible. "
        "Missed wins: player-games in which they were certain, could still accuse, and did not win. "
        "Rule breaks: the rule_break findings of the transcripts (a rule of play broken), and the share of "
        "player-games with one. Stated precision and recall: of what the agents said they knew (their STATUS "
        "lines), how much their own view proved, and how much of what it proved they said."
    )
)
