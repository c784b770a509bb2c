"""Accusations: how sure accusers were (p_correct), how long they waited once certain, the wins
players missed, and the guesses that won and lost."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.common import (
    NO_ANALYSIS,
    count_axis,
    kinds_caption,
    page_context,
    read,
    replay_links,
    require_games,
)
from clue_stats.dashboard.app_pages.tables import cards, show
from clue_stats.dashboard.pages import page

ctx = page_context()
st.title(page("accusations").title)
data = read(queries.accusation_stats, ctx.path, ctx.version, ctx.filters)
totals = data["totals"]
require_games(totals["games"], ctx, "accusations")
kinds_caption(ctx)
if totals["accusations"] == 0:
    st.info("The selected games hold no accusation.")
    st.stop()

row = st.columns(5)
row[0].metric("Accusations", f"{totals['accusations']:,}")
row[1].metric("Correct", f"{totals['correct']:,}")
row[2].metric("Wrong", f"{totals['wrong']:,}")
row[3].metric(
    "Guesses",
    f"{totals['guesses']:,}",
    help=f"accusations made without being certain: {totals['guesses_won']:,} won, {totals['guesses_lost']:,} lost",
)
row[4].metric(
    "Missed wins",
    f"{totals['missed_wins']:,}",
    help="players who were certain of the solution, had a turn of their own to accuse, and did not win",
)
if totals["with_p_correct"] == 0:
    st.info(f"How sure accusers were, turns waited and missed wins: {NO_ANALYSIS}.")
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
                "bin_start:Q",
                bin="binned",
                title="chance the accusation was right, just before making it",
                scale=alt.Scale(domain=[0, 1]),
                axis=alt.Axis(format="%"),
            ),
            x2="bin_end:Q",
            y=alt.Y("accusations:Q", axis=count_axis("accusations")),
            color=alt.Color(
                "outcome:N", scale=alt.Scale(domain=["won", "lost", "unknown"], range=["#2ca02c", "#d62728", "#999999"])
            ),
            tooltip=["outcome:N", alt.Tooltip("bin_start:Q", format=".0%", title="from"), "accusations:Q"],
        ),
        width="stretch",
    )
    st.caption(
        "How to read this: the chance is the accuser's own, from what they had seen (the exact share of the "
        "deals still possible for them). At 100 % they were certain; below, the accusation was a guess."
    )
with right:
    st.subheader("Turns waited once certain")
    if data["waited"].height:
        st.altair_chart(
            alt.Chart(data["waited"])
            .mark_bar()
            .encode(
                x=alt.X("turns_waited:O", title="own turns waited (10 = 10 or more)", axis=alt.Axis(labelAngle=0)),
                y=alt.Y("accusations:Q", axis=count_axis("accusations")),
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
    f"{totals['missed_wins']:,} of {totals['certain_players']:,} players who became certain missed a win: "
    "certain, not eliminated, a turn of their own to accuse after it, and not the winner (a player certain "
    "just before another's winning accusation, with no turn between, missed nothing). The newest 200 are "
    "listed; each link opens the game at the record that made the player certain."
)
if data["missed"].height:
    show(replay_links(data["missed"], "first_certain_seq"), ("replay", "player", "first_certain_seq"))


def guesses(frame: pl.DataFrame) -> pl.DataFrame:
    """Lucky and unlucky guesses as people read them: the chance first, the accusation in words."""
    frame = cards(frame, "accusation", ("suspect", "weapon", "room"))
    return replay_links(frame).drop("seq", "edition", "first_certain_seq", "turns_waited", "outcome")


GUESS_FIRST = ("player", "accusation", "p_correct", "replay")  # who and what kept in view on a phone

st.subheader("Guesses that won")
st.caption("Correct accusations made without certainty, least likely first.")
if data["lucky"].height:
    show(guesses(data["lucky"]), GUESS_FIRST)
else:
    st.caption("No such accusation in the selection.")
st.subheader("Guesses that lost")
st.caption("Wrong accusations, the most likely (the unluckiest) first.")
if data["unlucky"].height:
    show(guesses(data["unlucky"]), GUESS_FIRST)
else:
    st.caption("No such accusation in the selection.")
