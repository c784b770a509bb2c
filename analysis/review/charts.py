"""The review's charts as Altair specifications, one definition for the dashboard (which draws them)
and the report (which renders them to SVG: analysis.report_charts): the labels' colour scale and the
race to the solution. Data is inline; nothing is loaded from anywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import altair as alt

from clue_stats.analysis.computers.suggestions import LABEL_COLOURS, LABEL_ORDER, NOT_RATED, NOT_RATED_COLOUR
from clue_stats.analysis.review.rows import BLUNDER, CERTAIN, MARK_KINDS, MISSED_WIN, MISTAKE, RIGHT, WRONG, Race
from clue_stats.analysis.words import _, label_word

# text a phone can read, in the dashboard and the report (Vega's defaults are 10 px labels, 11 px
# titles): a chart's own sizes win where it says them
CHART_FONT_PX = 12
READABLE: dict[str, dict[str, Any]] = {
    "axis": {"labelFontSize": CHART_FONT_PX, "titleFontSize": CHART_FONT_PX},
    "legend": {"labelFontSize": CHART_FONT_PX, "titleFontSize": CHART_FONT_PX, "labelLimit": 260},
    "header": {"labelFontSize": CHART_FONT_PX, "titleFontSize": CHART_FONT_PX},
    "title": {"fontSize": CHART_FONT_PX + 2, "subtitleFontSize": CHART_FONT_PX},
    "text": {"fontSize": CHART_FONT_PX},
}


def readable(spec: dict[str, Any]) -> dict[str, Any]:
    """A Vega-Lite spec with text of at least CHART_FONT_PX where the chart says no size of its own."""
    config = spec.setdefault("config", {})
    for part, sizes in READABLE.items():
        config[part] = {**sizes, **config.get(part, {})}
    return spec


def label_scale(words: bool = False) -> alt.Scale:
    """The labels' one colour scale (analysis.computers.suggestions.LABEL_COLOURS), for every chart; ``words``:
    of data holding the labels in the reader's language (analysis.words.label_word), as the report's."""
    domain = [*map(label_word, LABEL_ORDER), _("not rated")] if words else [*LABEL_ORDER, NOT_RATED]
    return alt.Scale(domain=domain, range=[*LABEL_COLOURS.values(), NOT_RATED_COLOUR])


# A player's colour, the same wherever the game draws them (the review's race, the replay's lines, the
# report): by seat, from a palette that keeps clear of the marks' and the labels' reds and greens; the
# table (a spectator's view) grey. Chosen once per game, from its seats, by :func:`player_colours`.
PLAYER_PALETTE = (
    "#1f77b4",  # blue
    "#ff7f0e",  # orange
    "#9467bd",  # purple
    "#17becf",  # cyan
    "#8c564b",  # brown
    "#e377c2",  # pink
    "#bcbd22",  # olive
    "#393b79",  # indigo
    "#7f7f7f",  # grey
    "#637939",  # moss
)
TABLE_COLOUR = "#555555"


def player_colours(seats: Sequence[str], table: str | None = None) -> dict[str, str]:
    """Each player of a game (``seats``, in seat order) their colour, and ``table`` (the spectator's
    view, when drawn) grey; a game of more seats than the palette reuses it from the start."""
    colours = {name: PLAYER_PALETTE[k % len(PLAYER_PALETTE)] for k, name in enumerate(seats)}
    if table is not None:
        colours[table] = TABLE_COLOUR
    return colours


def player_scale(seats: Sequence[str], table: str | None = None) -> alt.Scale:
    """The colour scale of a chart with a line or bar a player: :func:`player_colours`."""
    colours = player_colours(seats, table)
    return alt.Scale(domain=list(colours), range=list(colours.values()))


# each mark's shape and colour: mistakes and blunders in their labels' colours
MARK_STYLE = {
    MISTAKE: ("triangle-down", LABEL_COLOURS["mistake"]),
    BLUNDER: ("triangle-down", LABEL_COLOURS["blunder"]),
    CERTAIN: ("circle", "#222222"),
    MISSED_WIN: ("square", "#7b3294"),
    RIGHT: ("diamond", "#1a9850"),
    WRONG: ("cross", "#d73027"),
}


def mark_words() -> dict[str, str]:
    """Each kind of mark of the race in the reader's language (its legend)."""
    return {
        MISTAKE: label_word("mistake"),
        BLUNDER: label_word("blunder"),
        CERTAIN: _("first certain"),
        MISSED_WIN: _("missed win"),
        RIGHT: _("accused rightly"),
        WRONG: _("accused wrongly"),
    }


def race_chart(data: Race, width: int | None = None, height: int = 300) -> alt.LayerChart:
    """Each observer's remaining uncertainty (bits) over the records, a step line each (the table
    dashed), with the key moments marked; legends below the chart, so that it keeps its width on a
    phone. ``width`` None: as wide as its container."""
    observers = data.observers
    table = next((line["observer"] for line in data.lines if line["is_table"]), None)
    colour = alt.Color(
        "observer:N",
        title=_("whose view"),
        scale=player_scale([o for o in observers if o != table], table),
        sort=observers,
        legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=130),
    )
    x = alt.X("seq:Q", title=_("record of the game"), scale=alt.Scale(nice=False), axis=alt.Axis(tickMinStep=1))
    y = alt.Y("bits:Q", title=_("uncertainty left (bits)"), scale=alt.Scale(domainMin=0))
    lines = (
        alt.Chart(alt.InlineData(values=data.lines))
        .mark_line(interpolate="step-after", strokeWidth=2)
        .encode(
            x=x,
            y=y,
            color=colour,
            strokeDash=alt.StrokeDash(
                "is_table:N", legend=None, scale=alt.Scale(domain=[False, True], range=[[1, 0], [4, 3]])
            ),
            tooltip=[
                alt.Tooltip("observer:N", title=_("whose view")),
                alt.Tooltip("seq:Q", title=_("after record")),
                alt.Tooltip("bits:Q", format=".2f", title=_("bits left")),
            ],
        )
    )
    layers: list[Any] = [lines]
    if data.marks:
        words = mark_words()
        kinds = [words[k] for k in MARK_KINDS if any(m["kind"] == k for m in data.marks)]
        style = {words[k]: v for k, v in MARK_STYLE.items()}
        marks = [{**m, "moment": words[m["kind"]]} for m in data.marks]
        layers.append(
            alt.Chart(alt.InlineData(values=marks))
            # large enough to see on a phone, with a thin white edge where it sits on a line
            .mark_point(size=150, filled=True, opacity=1, strokeWidth=1)
            .encode(
                x=x,
                y=y,
                shape=alt.Shape(
                    "moment:N",
                    title=_("moment"),
                    scale=alt.Scale(domain=kinds, range=[style[k][0] for k in kinds]),
                    # each kind's own mark in the legend, drawn whole (a white edge hid the thin cross
                    # of "accused wrongly" on the legend's white)
                    legend=alt.Legend(
                        orient="bottom", direction="vertical", symbolSize=150, symbolStrokeWidth=0, symbolOpacity=1
                    ),
                ),
                fill=alt.Fill(
                    "moment:N",
                    title=_("moment"),
                    scale=alt.Scale(domain=kinds, range=[style[k][1] for k in kinds]),
                    legend=alt.Legend(
                        orient="bottom", direction="vertical", symbolSize=150, symbolStrokeWidth=0, symbolOpacity=1
                    ),
                ),
                stroke=alt.value("white"),
                tooltip=[alt.Tooltip("what:N", title=_("moment"))],
            )
        )
    chart = alt.layer(*layers).resolve_scale(color="independent", shape="independent", fill="independent")
    # fit the width only: fitted whole, a page's chart squeezes its plot to make room for the legends below
    fit = alt.AutoSizeParams(type="fit-x", contains="padding")
    shown: alt.LayerChart = chart.properties(
        height=height, autosize=fit, **({"width": width} if width is not None else {})
    )
    return shown
