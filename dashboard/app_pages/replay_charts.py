"""The replay's charts, each built once for what shapes it (charts.draw gives them their data at
every step): the observer's notebook, the uncertainty of every observer over the game, and what the
current suggestion taught each one. UI only."""

from __future__ import annotations

from typing import TYPE_CHECKING

import altair as alt
import polars as pl

from clue_stats.analysis.review.charts import player_scale
from clue_stats.analysis.words import _, place_words
from clue_stats.dashboard.app_pages.common import category_word

if TYPE_CHECKING:
    from clue_stats.engine.game import Game

NOTEBOOK = "notebook"  # card_name, category, place, probability, shown: a row per card and place
ENTROPY = "entropy"  # observer, seq, entropy: every observer's bits left after each record
MARKS = "marks"  # seq: the records that are suggestions
NOW = "now"  # seq: the current record
GAINS = "gains"  # observer, before, after, gain_bits: the current suggestion


def notebook_shape(game: Game) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What shapes a game's notebook chart: its cards by name in deck order, then its places (the
    envelope, the players, the room cards), in the reader's language."""
    return tuple(game.deck.name(c) for c in game.deck.cards), (_("envelope"), *game.names, _("room cards"))


def notebook_cells(notebook: pl.DataFrame) -> pl.DataFrame:
    """A notebook (analysis.review.timeline.notebook_frame: card, name, category, place, probability) as
    the chart's cells: the card by name, the places and kinds of card in words, and the chance as
    the cell shows it (✔ certain, blank impossible, else whole percent)."""
    return notebook.with_columns(
        pl.col("name").alias("card_name"),
        pl.col("place").replace({p: place_words(p) for p in ("envelope", "room_cards")}),
        pl.col("category").replace({c: category_word(c) for c in ("suspects", "weapons", "rooms")}),
        pl.when(pl.col("probability") >= 1)
        .then(pl.lit("✔"))
        .when(pl.col("probability") <= 0)
        .then(pl.lit(""))
        .otherwise((pl.col("probability") * 100).round(0).cast(pl.Int64).cast(pl.Utf8))
        .alias("shown"),
    )


def notebook(card_order: tuple[str, ...], place_order: tuple[str, ...]) -> alt.LayerChart:
    """A cell per card and place, the chance that the card is there."""
    base = alt.Chart(alt.NamedData(NOTEBOOK)).encode(
        x=alt.X(
            "place:N",
            sort=list(place_order),
            title=None,
            # slanted, so that every player's name fits above its narrow column
            axis=alt.Axis(orient="top", labelAngle=-35, labelOverlap=False, labelLimit=110),
        ),
        y=alt.Y("card_name:N", sort=list(card_order), title=None),
    )
    heat = base.mark_rect().encode(
        color=alt.Color(
            "probability:Q",
            scale=alt.Scale(domain=[0, 1], scheme="blues"),
            title=_("chance"),
            legend=alt.Legend(format="%"),
        ),
        tooltip=[
            alt.Tooltip("card_name:N", title=_("card")),
            alt.Tooltip("category:N", title=_("kind of card")),
            alt.Tooltip("place:N", title=_("place")),
            alt.Tooltip("probability:Q", format=".1%", title=_("chance")),
        ],
    )
    text = base.mark_text(fontSize=10).encode(
        text="shown:N",
        color=alt.condition(alt.datum.probability > 0.6, alt.value("white"), alt.value("black")),
    )
    # autosize "fit" counts the slanted labels in the height: room for them, then a row per card
    chart: alt.LayerChart = (heat + text).properties(height=100 + 22 * len(card_order))
    return chart


def uncertainty(n_records: int, observer: str, seats: tuple[str, ...], table: str) -> alt.LayerChart:
    """A line per observer of the bits left after each record, ``observer``'s drawn thick, each
    player in their colour of the game (``seats``, the table grey: analysis.review.charts); dotted
    rules at the suggestions and a black one at the current record."""
    lines = (
        alt.Chart(alt.NamedData(ENTROPY))
        .mark_line(interpolate="step-after")
        .encode(
            x=alt.X("seq:Q", title=_("record"), scale=alt.Scale(domain=[0, max(n_records, 1)])),
            y=alt.Y("entropy:Q", title=_("uncertainty left (bits)")),
            # below the plot, so that on a phone the lines keep the width
            color=alt.Color(
                "observer:N",
                title=_("observer"),
                scale=player_scale(seats, table),
                legend=alt.Legend(orient="bottom", columns=3, labelLimit=180),
            ),
            strokeWidth=alt.condition(alt.datum.observer == observer, alt.value(3.5), alt.value(1.2)),
            tooltip=[
                alt.Tooltip("observer:N", title=_("observer")),
                alt.Tooltip("seq:Q", title=_("after record")),
                alt.Tooltip("entropy:Q", format=".3f", title=_("bits left")),
            ],
        )
    )
    ticks = alt.Chart(alt.NamedData(MARKS)).mark_rule(color="#bbbbbb", strokeDash=[2, 3]).encode(x="seq:Q")
    now = alt.Chart(alt.NamedData(NOW)).mark_rule(color="black", size=2).encode(x="seq:Q")
    fit = alt.AutoSizeParams(type="fit-x", contains="padding")  # the height is the plot's, the legend below it
    chart: alt.LayerChart = (ticks + lines + now).properties(height=320, autosize=fit)
    return chart


def gains(observers: tuple[str, ...]) -> alt.Chart:
    """A bar per observer of the bits the current suggestion took from their uncertainty (red: it grew)."""
    chart: alt.Chart = (
        alt.Chart(alt.NamedData(GAINS))
        .mark_bar()
        .encode(
            x=alt.X("gain_bits:Q", title=_("information gained (bits)")),
            y=alt.Y("observer:N", title=None, sort=list(observers), axis=alt.Axis(labelLimit=220, labelOverlap=False)),
            color=alt.condition(alt.datum.gain_bits < 0, alt.value("#d62728"), alt.value("#1f77b4")),
            tooltip=[
                alt.Tooltip("observer:N", title=_("observer")),
                alt.Tooltip("before:Q", format=".3f", title=_("bits left before")),
                alt.Tooltip("after:Q", format=".3f", title=_("bits left after")),
                alt.Tooltip("gain_bits:Q", format=".3f", title=_("information gained (bits)")),
            ],
        )
        .properties(height=60 + 28 * len(observers))
    )
    return chart
