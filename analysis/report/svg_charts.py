"""The post-mortem's charts: Altair specifications rendered to SVG by vl-convert, in process.

The SVG is inlined into the HTML report, so the file needs no network and no script to show its
charts. Data is always given inline (``alt.InlineData``), never as a URL, and vl-convert is told
to load nothing from anywhere (``allowed_base_urls=[]``). Vega escapes the text it draws (player
names in legends), so the SVG carries no markup from user strings.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Any, Literal

import altair as alt
import vl_convert as vlc
from babel.numbers import format_percent

from clue_stats.analysis.computers.suggestions import LABEL_ORDER
from clue_stats.analysis.review.charts import label_scale, readable
from clue_stats.analysis.review.post_mortem import SuggestionLine
from clue_stats.analysis.words import _, label_word, language, number

WIDTH = 640  # a chart on a desktop
NARROW_WIDTH = 330  # on a phone (390 px, less the page's margins): drawn at its size, its text >= 11 px
LABELS = LABEL_ORDER  # best, good, inaccuracy, mistake, blunder
# Inline SVG in HTML needs no namespace declarations (the HTML parser puts <svg> in the SVG
# namespace); dropping them leaves the report without a single http(s) address in it.
_NAMESPACES = re.compile(r'\s+xmlns(?::xlink)?="[^"]*"')


# A chart 640 pixels wide shows no more than this: a longer game's lines and bars are drawn per
# window of records or suggestions (docs/report.md), so that a game of 100,000 records draws in
# the time of a short one
MAX_BARS = 150  # bars of the suggestions' chart


def suggestion_window(rated: int) -> int:
    """How many consecutive rated suggestions one bar of the suggestions' chart draws (1: each its own)."""
    return max(1, math.ceil(rated / MAX_BARS))


def suggestion_chart(lines: list[SuggestionLine], width: int = WIDTH) -> alt.LayerChart | alt.FacetChart | None:
    """Expected gain of each suggestion (a bar, coloured by its label) against the best available (a
    tick); with more than MAX_BARS rated suggestions, a bar per run of consecutive ones instead
    (:func:`_suggestion_windows`)."""
    rated = [s for s in lines if s.expected_gain is not None]
    if not rated:
        return None
    window = suggestion_window(len(rated))
    if window > 1:
        return _suggestion_windows(rated, window, width)
    not_rated = _("not rated")
    values = [
        {
            "seq": s.seq,
            "player": s.player,
            "expected": round(s.expected_gain, 6),  # type: ignore[arg-type]
            "best": round(s.best_gain, 6) if s.best_gain is not None else None,
            "label": label_word(s.label) if s.label else not_rated,
        }
        for s in rated
    ]
    base = alt.Chart(alt.InlineData(values=values))
    x = alt.X("seq:O", title=_("suggestion at record"), axis=alt.Axis(labelAngle=0))
    layers: list[Any] = [base.mark_bar().encode(x=x, y=alt.Y("expected:Q", title=_("bits")), color=_label_colour())]
    if any(v["best"] is not None for v in values):
        layers.append(base.mark_tick(color="black", thickness=2).encode(x=x, y="best:Q"))
    return alt.layer(*layers).properties(
        width=width,
        height=220,
        title=alt.Title(_("Expected gain of each suggestion (bar) and the best available (tick)"), limit=width),
    )


def _label_colour() -> alt.Color:
    return alt.Color(
        "label:N",
        title=_("label"),
        scale=label_scale(words=True),
    )


def _suggestion_windows(rated: list[SuggestionLine], window: int, width: int) -> alt.LayerChart | alt.FacetChart:
    """A bar per run of ``window`` consecutive rated suggestions, from the first one's record to the
    last one's: their mean expected gain, coloured by the label most of them got (the better on a
    tie), and a line at their mean best available gain."""
    order = [*LABELS, None]  # None: not rated
    values = []
    for start in range(0, len(rated), window):
        run = rated[start : start + window]
        best = [s.best_gain for s in run if s.best_gain is not None]
        labels = Counter(s.label or None for s in run)
        label = max(labels, key=lambda label: (labels[label], -order.index(label)))
        values.append(
            {
                "seq": run[0].seq,
                "to": run[-1].seq + 1,
                "expected": round(sum(s.expected_gain or 0.0 for s in run) / len(run), 6),
                "best": round(sum(best) / len(best), 6) if best else None,
                "label": label_word(label) if label else _("not rated"),
            }
        )
    base = alt.Chart(alt.InlineData(values=values))
    x = alt.X("seq:Q", title=_("suggestion at record"), scale=alt.Scale(nice=False))
    layers: list[Any] = [
        base.mark_bar().encode(x=x, x2="to:Q", y=alt.Y("expected:Q", title=_("bits (mean)")), color=_label_colour())
    ]
    if any(v["best"] is not None for v in values):
        layers.append(base.mark_rule(color="black", strokeWidth=2).encode(x=x, x2="to:Q", y="best:Q"))
    return alt.layer(*layers).properties(
        width=width,
        height=220,
        title=alt.Title(
            _("Mean expected gain of each run of {n} suggestions (bar) and the mean best available (line)").format(
                n=number(window)
            ),
            limit=width,
        ),
    )


def _number_locale(code: str, d3: Literal["de-DE", "sv-SE"]) -> dict[str, Any]:
    """How a language writes numbers on an axis: d3's locale as vl-convert has it, with the percent
    sign as Babel writes it (d3 leaves it "%": "100 %" in German and Swedish, with a no-break space)."""
    return {**vlc.get_format_locale(d3), "percent": format_percent(1, locale=code).replace("100", "")}


# how each language writes numbers on an axis; English: d3's default
NUMBER_LOCALES: dict[str, dict[str, Any]] = {"de": _number_locale("de", "de-DE"), "sv": _number_locale("sv", "sv-SE")}


def to_svg(chart: alt.TopLevelMixin) -> str:
    """The chart as an SVG element for inlining in HTML (no namespace URLs, no external resources)."""
    # the axes' numbers as the reader's language writes them ("0,4" in German and Swedish)
    locale = NUMBER_LOCALES.get(language())
    spec = readable(chart.to_dict())
    svg = vlc.vegalite_to_svg(spec, allowed_base_urls=[], format_locale=locale)
    return _NAMESPACES.sub("", svg, count=2)
