"""Players: games, wins, suggestion accuracy, turns waited and missed wins of every player (or
strategy) across the selection."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.common import NO_ANALYSIS, page_context, read, require_games
from clue_stats.dashboard.app_pages.words import percent

CHART_PLAYERS = 25

ctx = page_context()
st.title("Players")
require_games(read(queries.selection_size, ctx.path, ctx.version, ctx.filters), ctx, "players")
by = st.segmented_control(
    "Group by",
    ["name", "strategy"],
    default="name",
    key="players_by",
    format_func=lambda v: "player name" if v == "name" else "strategy (simulated and client games)",
)
by = by or "name"
summary = read(queries.player_summary, ctx.path, ctx.version, ctx.filters, by)
if summary.height == 0:
    st.info(
        "No player of the selection has a strategy recorded: only simulated games and some clients' logs "
        "say which program played a seat."
        if by == "strategy"
        else "The selected games name no players."
    )
    st.stop()

row = st.columns(4)
row[0].metric("Players" if by == "name" else "Strategies", f"{summary.height:,}")
row[1].metric("Seats played", f"{summary['games'].sum():,}")
row[2].metric("Wins", f"{summary['wins'].sum():,}")
row[3].metric(
    "Missed wins",
    f"{summary['missed_wins'].sum():,}",
    help="games in which the player was certain of the solution at some record but did not win",
)
if summary["mean_accuracy"].is_null().all():
    st.caption(f"Suggestion accuracy and turns waited: {NO_ANALYSIS} (`--deep` for accuracy).")

top = summary.head(CHART_PLAYERS).with_columns(pl.col(by).cast(pl.Utf8))
st.subheader(f"Win rate of the {min(CHART_PLAYERS, summary.height)} with the most games")
st.altair_chart(
    alt.Chart(top)
    .mark_bar()
    .encode(
        x=alt.X("win_rate:Q", title="win rate", axis=alt.Axis(format="%")),
        y=alt.Y(f"{by}:N", sort="-x", title=None),
        tooltip=[
            f"{by}:N",
            "games:Q",
            "wins:Q",
            alt.Tooltip("win_rate:Q", format=".1%"),
            alt.Tooltip("mean_accuracy:Q", format=".3f"),
            alt.Tooltip("mean_turns_waited:Q", format=".2f"),
            "missed_wins:Q",
        ],
    )
    .properties(height=60 + 22 * top.height),
    width="stretch",
)
st.subheader("Every player" if by == "name" else "Every strategy")
st.dataframe(
    summary,
    hide_index=True,
    width="stretch",
    column_config={
        "win_rate": st.column_config.NumberColumn(format="percent"),
        "mean_accuracy": st.column_config.NumberColumn(format="%.3f"),
        "mean_turns_waited": st.column_config.NumberColumn(format="%.2f"),
    },
)
best = summary.filter(pl.col("games") >= 10).sort("win_rate", descending=True).head(1).to_dicts()
if best:
    st.caption(
        f"Highest win rate over at least 10 games: {percent(best[0]['win_rate'], 1)} "
        f"({best[0]['wins']} of {best[0]['games']})."
    )
