"""Accusations: how sure accusers were (p_correct), how long they waited once certain, the wins
players missed, and the guesses that won and lost."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.common import LINK, NO_ANALYSIS, page_context, read, replay_links, require_games

ctx = page_context()
st.title("Accusations")
data = read(queries.accusation_stats, ctx.path, ctx.version, ctx.filters)
totals = data["totals"]
require_games(totals["games"], ctx, "accusations")
if totals["accusations"] == 0:
    st.info("The selected games hold no accusation.")
    st.stop()

row = st.columns(5)
row[0].metric("Accusations", f"{totals['accusations']:,}")
row[1].metric("Correct", f"{totals['correct']:,}")
row[2].metric("Wrong", f"{totals['wrong']:,}")
row[3].metric(
    "Guesses (p_correct < 1)",
    f"{totals['guesses']:,}",
    help=f"{totals['guesses_won']:,} won, {totals['guesses_lost']:,} lost",
)
row[4].metric(
    "Missed wins",
    f"{totals['missed_wins']:,}",
    help="players who were certain of the solution at some record and did not win",
)
if totals["with_p_correct"] == 0:
    st.info(f"p_correct, turns waited and missed wins: {NO_ANALYSIS}.")
    st.stop()

left, right = st.columns(2)
with left:
    st.subheader("How sure were accusers?")
    pc = data["p_correct"].with_columns((pl.col("bin_start") + 0.1).alias("bin_end"))
    st.altair_chart(
        alt.Chart(pc)
        .mark_bar()
        .encode(
            x=alt.X(
                "bin_start:Q", bin="binned", title="p_correct just before accusing", scale=alt.Scale(domain=[0, 1])
            ),
            x2="bin_end:Q",
            y=alt.Y("accusations:Q", title="accusations"),
            color=alt.Color(
                "outcome:N", scale=alt.Scale(domain=["won", "lost", "unknown"], range=["#2ca02c", "#d62728", "#999999"])
            ),
            tooltip=["outcome:N", alt.Tooltip("bin_start:Q", format=".1f", title="from"), "accusations:Q"],
        ),
        width="stretch",
    )
with right:
    st.subheader("Turns waited once certain")
    if data["waited"].height:
        st.altair_chart(
            alt.Chart(data["waited"])
            .mark_bar()
            .encode(
                x=alt.X("turns_waited:O", title="own turns waited (10 = 10 or more)", axis=alt.Axis(labelAngle=0)),
                y=alt.Y("accusations:Q", title="accusations"),
                color=alt.Color(
                    "outcome:N",
                    scale=alt.Scale(domain=["won", "lost", "unknown"], range=["#2ca02c", "#d62728", "#999999"]),
                ),
                tooltip=["turns_waited:O", "outcome:N", "accusations:Q"],
            ),
            width="stretch",
        )
        if totals["mean_turns_waited"] is not None:
            st.caption(
                f"On average {totals['mean_turns_waited']:.2f} own turns passed between being certain and accusing."
            )
    else:
        st.caption("No accuser of the selection was ever certain before accusing, so no wait is measured.")

st.subheader("Missed wins")
st.caption(
    f"{totals['missed_wins']:,} of {totals['certain_players']:,} players who became certain did not win. "
    "The newest 200 are listed; each link opens the game at the record that made the player certain."
)
if data["missed"].height:
    st.dataframe(
        replay_links(data["missed"], "first_certain_seq"),
        hide_index=True,
        width="stretch",
        column_config={"replay": LINK},
    )

left, right = st.columns(2)
with left:
    st.subheader("Guesses that won")
    st.caption("Correct accusations made without certainty, least likely first.")
    if data["lucky"].height:
        st.dataframe(replay_links(data["lucky"]), hide_index=True, width="stretch", column_config={"replay": LINK})
    else:
        st.caption("None in the selection.")
with right:
    st.subheader("Guesses that lost")
    st.caption("Wrong accusations, the most likely (the unluckiest) first.")
    if data["unlucky"].height:
        st.dataframe(replay_links(data["unlucky"]), hide_index=True, width="stretch", column_config={"replay": LINK})
    else:
        st.caption("None in the selection.")
