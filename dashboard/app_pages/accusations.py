"""Accusations: how sure accusers were (p_correct), how long they waited once certain, the wins
players missed, and the guesses that won and lost."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from clue_stats.analysis.words import N_, _, decimal, number, when
from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.charts import altair_chart
from clue_stats.dashboard.app_pages.common import (
    NO_ANALYSIS,
    count_axis,
    kinds_caption,
    page_context,
    read,
    replay_links,
    require_games,
)
from clue_stats.dashboard.app_pages.tables import cards, said, show
from clue_stats.dashboard.pages import page


def outcome_words() -> dict[str, str]:
    """An accusation's outcome (the query's won, lost, unknown) in the reader's language."""
    return {"won": _("won"), "lost": _("lost"), "unknown": _("unknown")}


def outcome_colour(words: dict[str, str]) -> alt.Color:
    """Won green, lost red, unknown grey, the legend in words."""
    return alt.Color(
        "outcome:N",
        title=_("outcome"),
        scale=alt.Scale(domain=list(words.values()), range=["#2ca02c", "#d62728", "#999999"]),
    )


ctx = page_context()
st.title(page("accusations").name)
data = read(queries.accusation_stats, ctx.path, ctx.version, ctx.filters)
totals = data["totals"]
require_games(totals["games"], ctx, N_("accusations"))
kinds_caption(ctx)
if totals["accusations"] == 0:
    st.info(_("The selected games hold no accusation."))
    st.stop()

row = st.columns(5)
row[0].metric(_("Accusations"), number(totals["accusations"]))
row[1].metric(_("Correct"), number(totals["correct"]))
row[2].metric(_("Wrong"), number(totals["wrong"]))
row[3].metric(
    _("Guesses"),
    number(totals["guesses"]),
    help=_("accusations made without being certain: {won} won, {lost} lost").format(
        won=number(totals["guesses_won"]), lost=number(totals["guesses_lost"])
    ),
)
row[4].metric(
    _("Missed wins"),
    number(totals["missed_wins"]),
    help=_("players who were certain of the solution, had a turn of their own to accuse, and did not win"),
)
if totals["with_p_correct"] == 0:
    st.info(_("How sure accusers were, turns waited and missed wins: {state}.").format(state=_(NO_ANALYSIS)))
    st.stop()

outcomes = outcome_words()
left, right = st.columns(2)
with left:
    st.subheader(_("How sure were accusers?"))
    pc = data["p_correct"].with_columns(
        (pl.col("bin_start") + 0.1).alias("bin_end"),
        pl.col("outcome").replace_strict(outcomes, default=pl.col("outcome")),
    )
    altair_chart(
        alt.Chart(pc)
        .mark_bar()
        .encode(
            x=alt.X(
                "bin_start:Q",
                bin="binned",
                title=_("chance it was right"),
                scale=alt.Scale(domain=[0, 1]),
                axis=alt.Axis(format="%"),
            ),
            x2="bin_end:Q",
            y=alt.Y("accusations:Q", axis=count_axis(_("accusations"))),
            color=outcome_colour(outcomes),
            tooltip=[
                alt.Tooltip("outcome:N", title=_("outcome")),
                alt.Tooltip("bin_start:Q", format=".0%", title=_("from")),
                alt.Tooltip("accusations:Q", title=_("accusations")),
            ],
        ),
    )
    st.caption(
        _(
            "How to read this: the chance, just before accusing, is the accuser's own, from what they had seen (the exact share of the "
            "deals still possible for them). At 100 % they were certain; below, the accusation was a guess."
        )
    )
with right:
    st.subheader(_("Turns waited once certain"))
    if data["waited"].height:
        altair_chart(
            alt.Chart(
                data["waited"].with_columns(pl.col("outcome").replace_strict(outcomes, default=pl.col("outcome")))
            )
            .mark_bar()
            .encode(
                x=alt.X("turns_waited:O", title=_("own turns waited (10 = 10 or more)"), axis=alt.Axis(labelAngle=0)),
                y=alt.Y("accusations:Q", axis=count_axis(_("accusations"))),
                color=outcome_colour(outcomes),
                tooltip=[
                    alt.Tooltip("turns_waited:O", title=_("own turns waited")),
                    alt.Tooltip("outcome:N", title=_("outcome")),
                    alt.Tooltip("accusations:Q", title=_("accusations")),
                ],
            ),
        )
        st.caption(
            _(
                "How to read this: one bar per number of the accuser's own turns that ended after they were "
                "certain and before they accused (0: they accused on the turn they became certain)."
            )
        )
        if totals["mean_turns_waited"] is not None:
            st.caption(
                _("On average {turns} own turns passed between being certain and accusing.").format(
                    turns=decimal(totals["mean_turns_waited"])
                )
            )
    else:
        st.caption(_("No accuser of the selection was ever certain before accusing, so no wait is measured."))

st.subheader(_("Missed wins"))
st.caption(
    _(
        "{missed} of {certain} players who became certain missed a win: certain, not eliminated, a turn of their "
        "own to accuse after it, and not the winner (a player certain just before another's winning accusation, "
        "with no turn between, missed nothing). The newest 200 are listed; each link opens the game at the "
        "record that made the player certain."
    ).format(missed=number(totals["missed_wins"]), certain=number(totals["certain_players"]))
)
if data["missed"].height:
    show(
        replay_links(data["missed"], "first_certain_seq").with_columns(said(data["missed"], "played_at", when)),
        ("replay", "player", "first_certain_seq"),
    )


def guesses(frame: pl.DataFrame) -> pl.DataFrame:
    """Lucky and unlucky guesses as people read them: the chance first, the accusation in words."""
    frame = cards(frame, "accusation", ("suspect", "weapon", "room"))
    return replay_links(frame).drop("seq", "edition", "first_certain_seq", "turns_waited", "outcome")


GUESS_FIRST = ("player", "accusation", "p_correct", "replay")  # who and what kept in view on a phone

st.subheader(_("Guesses that won"))
st.caption(_("Correct accusations made without certainty, least likely first."))
if data["lucky"].height:
    show(guesses(data["lucky"]), GUESS_FIRST)
else:
    st.caption(_("No such accusation in the selection."))
st.subheader(_("Guesses that lost"))
st.caption(_("Wrong accusations, the most likely (the unluckiest) first."))
if data["unlucky"].height:
    show(guesses(data["unlucky"]), GUESS_FIRST)
else:
    st.caption(_("No such accusation in the selection."))
