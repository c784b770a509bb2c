"""Agents: the programs and models that played (LLM agents, contest bots; games of the digital and
contest kinds) compared on what the analysis measured, each figure with its count and 95 % interval."""

from __future__ import annotations

import polars as pl
import streamlit as st

from clue_stats.analysis.corpus.agents import agent_cells
from clue_stats.analysis.words import N_, _, number
from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.common import help_link, page_context, read, require_games
from clue_stats.dashboard.app_pages.page_text import md
from clue_stats.dashboard.pages import page

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

rows = [{"agent": r["agent"], "player_games": r["player_games"], **agent_cells(r)} for r in table.iter_rows(named=True)]
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
