"""Suggestions: how much the selection's suggestions learned, how close to the best they came, by
strategy and by player; the best and worst of them, each a link to its replay."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.common import LINK, NO_ANALYSIS, page_context, read, replay_links, require_games
from clue_stats.dashboard.app_pages.words import percent

ctx = page_context()
st.title("Suggestions")
data = read(queries.suggestion_stats, ctx.path, ctx.version, ctx.filters)
totals = data["totals"]
require_games(totals["games"], ctx, "suggestions")
if totals["suggestions"] == 0:
    st.info("The selected games hold no suggestion.")
    st.stop()
if totals["with_expected"] == 0:
    st.info(f"{totals['suggestions']:,} suggestions, but {NO_ANALYSIS} (gains and accuracy are computed by it).")
    st.stop()


by_strategy = data["by_strategy"]
row = st.columns(4)
row[0].metric("Suggestions", f"{totals['suggestions']:,}")
row[1].metric("With expected gain", f"{totals['with_expected']:,}")
row[2].metric("Rated for accuracy", f"{totals['with_accuracy']:,}")
row[3].metric("Mean accuracy", percent(totals["mean_accuracy"], 1))

st.subheader("Expected gain of the suggestions")
gains = data["gains"].with_columns((pl.col("bin_start") + 0.25).alias("bin_end"))
st.altair_chart(
    alt.Chart(gains)
    .mark_bar()
    .encode(
        x=alt.X("bin_start:Q", title="expected gain (bits)", bin="binned"),
        x2="bin_end:Q",
        y=alt.Y("suggestions:Q", title="suggestions"),
        tooltip=[
            alt.Tooltip("bin_start:Q", title="from (bits)"),
            alt.Tooltip("bin_end:Q", title="to (bits)"),
            "suggestions:Q",
        ],
    )
    .properties(height=260),
    width="stretch",
)
st.caption(
    f"The entropy the suggester could expect to lose, before the answers; {totals['mean_expected_gain']:.3f} "
    "bits on average. What each player really learned from each suggestion is on the replay page."
)

st.subheader("Accuracy by strategy")
if totals["with_accuracy"] == 0:
    st.info("The best available gain is not computed yet: run `clue-stats analyse --deep`.")
else:
    acc = data["accuracy"].with_columns((pl.col("bin_start") + 0.05).alias("bin_end"))
    st.altair_chart(
        alt.Chart(acc)
        .mark_bar()
        .encode(
            x=alt.X(
                "bin_start:Q",
                title="accuracy (expected gain / best available gain)",
                bin="binned",
                scale=alt.Scale(domain=[0, 1]),
            ),
            x2="bin_end:Q",
            y=alt.Y("suggestions:Q", title="suggestions"),
            color=alt.Color("strategy:N", title="strategy"),
            tooltip=["strategy:N", alt.Tooltip("bin_start:Q", format=".2f", title="from"), "suggestions:Q"],
        )
        .properties(height=260),
        width="stretch",
    )
    st.altair_chart(
        alt.Chart(by_strategy.filter(pl.col("mean_accuracy").is_not_null()))
        .mark_bar()
        .encode(
            x=alt.X("mean_accuracy:Q", title="mean accuracy", scale=alt.Scale(domain=[0, 1])),
            y=alt.Y("strategy:N", title=None, sort="-x"),
            tooltip=[
                "strategy:N",
                "suggestions:Q",
                "rated:Q",
                alt.Tooltip("mean_accuracy:Q", format=".3f"),
                alt.Tooltip("mean_expected_gain:Q", format=".3f"),
            ],
        )
        .properties(height=60 + 26 * by_strategy.height),
        width="stretch",
    )
if data["labels"].height:
    st.altair_chart(
        alt.Chart(data["labels"])
        .mark_bar()
        .encode(
            x=alt.X("suggestions:Q", stack="normalize", title="share of suggestions"),
            y=alt.Y("strategy:N", title=None),
            color=alt.Color("label:N", sort=["best", "good", "inaccurate", "poor"], title="label"),
            tooltip=["strategy:N", "label:N", "suggestions:Q"],
        ),
        width="stretch",
    )
st.dataframe(by_strategy, hide_index=True, width="stretch")

st.subheader("By player")
st.dataframe(data["by_player"], hide_index=True, width="stretch")
st.caption("The 50 players with the most suggestions in the selection.")

best, worst = st.columns(2)
with best:
    st.subheader("Best suggestions")
    st.dataframe(replay_links(data["best"]), hide_index=True, width="stretch", column_config={"replay": LINK})
with worst:
    st.subheader("Worst suggestions")
    st.dataframe(replay_links(data["worst"]), hide_index=True, width="stretch", column_config={"replay": LINK})
st.caption(
    "Best: the most accurate, and among equally accurate ones the most informative; worst: the least "
    "accurate, then the least informative."
)
