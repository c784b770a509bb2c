"""Suggestions: how much the selection's suggestions learned, how close to the best they came, by
strategy and by player; the best and worst of them, each a link to its replay."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from clue_stats.analysis.computers.suggestions import LABEL_ORDER
from clue_stats.analysis.review.charts import label_scale
from clue_stats.analysis.words import N_, _, decimal, label_word, n_, number, percent
from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.charts import altair_chart
from clue_stats.dashboard.app_pages.common import (
    NO_ANALYSIS,
    count_axis,
    help_link,
    kinds_caption,
    page_context,
    read,
    replay_links,
    require_games,
)
from clue_stats.dashboard.app_pages.tables import cards, show
from clue_stats.dashboard.pages import page

NOT_GIVEN = "(not given)"  # a seat whose log names no strategy: a person (analysis.corpus.summaries' value)

ctx = page_context()
st.title(page("suggestions").name)
data = read(queries.suggestion_stats, ctx.path, ctx.version, ctx.filters)
totals = data["totals"]
require_games(totals["games"], ctx, N_("suggestions"))
kinds_caption(ctx)
if totals["suggestions"] == 0:
    st.info(_("The selected games hold no suggestion."))
    st.stop()
if totals["with_expected"] == 0:
    if totals["hand_not_in_the_log"] == totals["suggestions"]:
        st.info(
            n_(
                totals["suggestions"],
                "{n} suggestion, not rated: hand not in the log (a suggestion is rated only when the log holds its "
                "suggester's hand).",
                "{n} suggestions, none rated: hand not in the log (a suggestion is rated only when the log holds its "
                "suggester's hand).",
            )
        )
    else:
        st.info(
            n_(
                totals["suggestions"],
                "{n} suggestion, but {state} (gains and accuracy are computed by it).",
                "{n} suggestions, but {state} (gains and accuracy are computed by it).",
                state=_(NO_ANALYSIS),
            )
        )
    st.stop()


def strategy_words(frame: pl.DataFrame) -> pl.DataFrame:
    """The frame with a person's "(not given)" strategy and the labels in the reader's language."""
    said = {NOT_GIVEN: _("(not given)")}
    out = frame
    if "strategy" in frame.columns:
        out = out.with_columns(pl.col("strategy").replace(said))
    if "label" in frame.columns:
        out = out.with_columns(pl.col("label").replace({x: label_word(x) for x in LABEL_ORDER}))
    return out


by_strategy = data["by_strategy"]
# strategies are the programs of simulated and bot games; people's games have none to compare
programs = by_strategy.filter(pl.col("strategy") != NOT_GIVEN)
row = st.columns(4)
row[0].metric(_("Suggestions"), number(totals["suggestions"]))
row[1].metric(_("Rated"), number(totals["with_expected"]), help=_("suggestions whose suggester's hand is in the log"))
row[2].metric(
    _("Not rated"),
    number(totals["hand_not_in_the_log"]),
    help=_("hand not in the log: the suggester's knowledge is not known, so the suggestion is not judged"),
)
row[3].metric(
    _("Review accuracy"),
    percent(totals["review_accuracy"], 1) if totals["review_accuracy"] is not None else _("not reviewed"),
    help=_("the expected gain of the rated suggestions over their best available gain"),
)
cut = totals["games_cut"]
pending = [
    (
        n_(
            totals["not_analysed"],
            "{n} more is in a game stored without analysis or whose expected gain the counting budget left out",
            "{n} more are in games stored without analysis or whose expected gain the counting budget left out",
        )
        if cut
        else n_(
            totals["not_analysed"],
            "{n} more is in a game stored without analysis",
            "{n} more are in games stored without analysis",
        )
    )
    if totals["not_analysed"]
    else "",
    (
        n_(
            totals["awaiting_review"],
            "{n} of the rated awaits the review (stored with `--light`, or left out over the counting budget)",
            "{n} of the rated await the review (stored with `--light`, or left out over the counting budget)",
        )
        if cut
        else n_(
            totals["awaiting_review"],
            "{n} of the rated awaits the review (stored with `--light`)",
            "{n} of the rated await the review (stored with `--light`)",
        )
    )
    if totals["awaiting_review"]
    else "",
    n_(
        cut,
        "{n} game is only partly analysed: the counting budget left part of the analysis out (the replay of each "
        "says what)",
        "{n} games are only partly analysed: the counting budget left part of the analysis out (the replay of each "
        "says what)",
    )
    if cut
    else "",
]
if any(pending):
    st.caption(_("{pending}: `clue-stats analyse` completes them.").format(pending="; ".join(p for p in pending if p)))

st.subheader(_("Expected gain of the suggestions"))
gains = data["gains"].with_columns((pl.col("bin_start") + 0.25).alias("bin_end"))
altair_chart(
    alt.Chart(gains)
    .mark_bar()
    .encode(
        x=alt.X("bin_start:Q", title=_("expected gain (bits)"), bin="binned"),
        x2="bin_end:Q",
        y=alt.Y("suggestions:Q", axis=count_axis(_("suggestions"))),
        tooltip=[
            alt.Tooltip("bin_start:Q", title=_("from (bits)")),
            alt.Tooltip("bin_end:Q", title=_("to (bits)")),
            alt.Tooltip("suggestions:Q", title=_("suggestions")),
        ],
    )
    .properties(height=260),
)
st.caption(
    _(
        "How to read this: a bit is one yes/no question answered; the solution starts about 8.3 bits away (324 "
        "possible solutions with the classic deck). The expected gain is what the suggester could expect to learn, "
        "averaged over the answers they might get: {mean} bits on average here. A gain can be below 0: an answer "
        "rules out deals, and what is left can make the possible solutions more evenly likely than before, so the "
        "uncertainty grows although the player knows more (the replay page shows what each player learned, "
        "suggestion by suggestion)."
    ).format(mean=decimal(totals["mean_expected_gain"]))
)

st.subheader(_("Accuracy by strategy") if programs.height else _("Accuracy"))
if totals["with_accuracy"] == 0:
    st.info(_("The review (best available gain) is not computed yet: run `clue-stats analyse`."))
else:
    acc = strategy_words(data["accuracy"].with_columns((pl.col("bin_start") + 0.05).alias("bin_end")))
    altair_chart(
        alt.Chart(acc)
        .mark_bar()
        .encode(
            x=alt.X(
                "bin_start:Q",
                title=_("accuracy (expected gain / best available gain)"),
                bin="binned",
                scale=alt.Scale(domain=[0, 1]),
            ),
            x2="bin_end:Q",
            y=alt.Y("suggestions:Q", axis=count_axis(_("suggestions"))),
            **({"color": alt.Color("strategy:N", title=_("strategy (person: not given)"))} if programs.height else {}),
            tooltip=[
                alt.Tooltip("strategy:N", title=_("strategy")),
                alt.Tooltip("bin_start:Q", format=".0%", title=_("from")),
                alt.Tooltip("suggestions:Q", title=_("suggestions")),
            ],
        )
        .properties(height=260),
    )
    st.caption(
        _(
            "How to read this: accuracy is the expected gain of a suggestion divided by the best expected gain any "
            "suggestion could have had at that moment; the best possible is 100 %. Each bar counts the suggestions "
            "whose accuracy falls in its range."
        )
    )
if programs.height and totals["with_accuracy"]:
    altair_chart(
        alt.Chart(strategy_words(by_strategy.filter(pl.col("review_accuracy").is_not_null())))
        .mark_bar()
        .encode(
            x=alt.X(
                "review_accuracy:Q",
                title=_("review accuracy"),
                scale=alt.Scale(domain=[0, 1]),
                axis=alt.Axis(format="%"),
            ),
            y=alt.Y("strategy:N", title=None, sort="-x", axis=alt.Axis(labelOverlap=False, labelLimit=200)),
            tooltip=[
                alt.Tooltip("strategy:N", title=_("strategy")),
                alt.Tooltip("suggestions:Q", title=_("suggestions")),
                alt.Tooltip("rated:Q", title=_("rated suggestions")),
                alt.Tooltip("review_accuracy:Q", format=".1%", title=_("review accuracy")),
                alt.Tooltip("mean_expected_gain:Q", format=".2f", title=_("mean expected gain (bits)")),
            ],
        )
        .properties(height=60 + 26 * by_strategy.height),
    )
    st.caption(
        _(
            "How to read this: each bar is a strategy's review accuracy, the expected gain of all its rated "
            "suggestions over the best gain open to them; the longer, the closer to the best every time."
        )
    )
if data["labels"].height:
    ranks = {label_word(word): i for i, word in enumerate(LABEL_ORDER)}
    labelled = strategy_words(data["labels"])
    altair_chart(
        alt.Chart(labelled.with_columns(pl.col("label").replace_strict(ranks, default=len(ranks)).alias("rank")))
        .mark_bar()
        .encode(
            x=alt.X("suggestions:Q", stack="normalize", title=_("share of suggestions"), axis=alt.Axis(format="%")),
            **(
                {"y": alt.Y("strategy:N", title=None, axis=alt.Axis(labelOverlap=False, labelLimit=200))}
                if programs.height
                else {}
            ),
            color=alt.Color(
                "label:N",
                sort=[label_word(x) for x in LABEL_ORDER],
                title=_("label"),
                scale=label_scale(words=True),
                legend=alt.Legend(orient="bottom", columns=5),  # one row below: never cut by a short chart
            ),
            order=alt.Order("rank:Q"),  # stacked best first, blunder last: the scale's order
            tooltip=[
                alt.Tooltip("strategy:N", title=_("strategy")),
                alt.Tooltip("label:N", title=_("label")),
                alt.Tooltip("suggestions:Q", title=_("suggestions")),
            ],
        )
        # one bar per strategy, or one bar of everyone's suggestions: never a strip too thin to see
        .properties(
            height=70 + 34 * (data["labels"]["strategy"].n_unique() if programs.height else 1),
            autosize=alt.AutoSizeParams(type="fit-x", contains="padding"),
        ),
    )
    st.caption(
        _(
            "How to read this: each suggestion's label says how many bits of information it gave up against the "
            "best suggestion open to the player at that moment, from best (nothing lost) through good (up to 0.2 "
            "bits), inaccuracy (0.5), mistake (1) to blunder (more than 1 bit), coloured on one scale from the best "
            "to the worst."
        )
    )
# one accuracy across games, the review accuracy (a mean of per-suggestion accuracies would be a second)
if programs.height:
    show(strategy_words(by_strategy.drop("mean_accuracy")))

st.subheader(_("By player"))
show(strategy_words(data["by_player"].drop("mean_accuracy")))
st.caption(_("The 50 players with the most suggestions in the selection."))


def ranked(frame: pl.DataFrame) -> pl.DataFrame:
    """A best/worst list as people read it: the suggestion and the best one in words, the key numbers first."""
    frame = cards(frame, "suggestion", ("suspect", "weapon", "room"))
    frame = cards(frame, "best_suggestion", ("best_suspect", "best_weapon", "best_room"))
    if not programs.height:
        frame = frame.drop("strategy")
    return strategy_words(replay_links(frame).drop("seq", "edition"))


# who and what lead (pinned by show: on a phone they stay in view while the numbers scroll)
first = ("player", "suggestion", "label", "bits_lost", "accuracy", "expected_gain_bits", "best_suggestion", "replay")
st.subheader(_("Best suggestions"))
show(ranked(data["best"]), first)
st.subheader(_("Worst suggestions"))
show(ranked(data["worst"]), first)
st.caption(
    _(
        "Best: the most accurate, and among equally accurate ones the most informative; worst: the most bits lost "
        "against the best available suggestion. Labels by bits lost: best, good, inaccuracy, mistake, blunder "
        "({help}). Each link opens the game at that suggestion."
    ).format(help=help_link("analysis", _("Help: the analysis")))
)
