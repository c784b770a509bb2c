"""Charts drawn often: a chart's Vega-Lite spec built by Altair once, its data given anew each time.

Altair checks a whole chart against the Vega-Lite schema every time it turns one into a spec: on
the replay, three charts redrawn at every step, that was three quarters of a click. A chart here is
built by a function of what shapes it (the names on its axes, the observer it marks, the language
of its words) from named datasets (``alt.NamedData``), its spec kept for those arguments, and each
draw only puts the frames of the moment into the spec's ``datasets``. Every chart of the dashboard
writes its axes' numbers as the reader's language does (``altair_chart``, ``draw``). UI only.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Hashable
from typing import Any

import altair as alt
import polars as pl
import streamlit as st

from clue_stats.analysis import words
from clue_stats.analysis.report.svg_charts import NUMBER_LOCALES
from clue_stats.analysis.review.charts import READABLE, readable

Chart = alt.Chart | alt.LayerChart | alt.ConcatChart | alt.HConcatChart | alt.VConcatChart | alt.FacetChart
Builder = Callable[..., Chart]


@functools.lru_cache(maxsize=512)
def _spec(build: Builder, args: tuple[Hashable, ...], language: str) -> dict[str, Any]:
    with words.speaking(language):
        spec: dict[str, Any] = build(*args).to_dict()  # checked against the schema: once
    # the default theme's 300 x 300 view: Streamlit's own chart sizing applies instead (as st.altair_chart does)
    view = spec.get("config", {}).get("view", {})
    for key in ("continuousWidth", "continuousHeight"):
        view.pop(key, None)
    return spec


def localised(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec with its numbers written as the reader's language writes them ("0,4" in German)."""
    readable(spec)
    number = NUMBER_LOCALES.get(words.language())
    if number is not None:
        spec.setdefault("config", {})["locale"] = {"number": number}
    return spec


def altair_chart(chart: Chart, **kwargs: Any) -> None:
    """``st.altair_chart`` across the page's width, the numbers in the reader's language."""
    number = NUMBER_LOCALES.get(words.language())
    chart = chart.copy()  # the chart's own configuration kept, the locale and text sizes added to it
    if chart.config is alt.Undefined:
        chart.config = alt.Config()
    if number is not None:
        chart.config.locale = alt.Locale(number=alt.NumberLocale(**number))
    for part, sizes in READABLE.items():
        own: Any = getattr(chart.config, part, alt.Undefined)
        given = {} if own is alt.Undefined else own.to_dict()
        setattr(chart.config, part, {**sizes, **given})
    st.altair_chart(chart, **{"width": "stretch", **kwargs})


def draw(build: Builder, args: tuple[Hashable, ...], data: dict[str, pl.DataFrame]) -> None:
    """Draw ``build(*args)`` (a chart of ``alt.NamedData`` sources, built once for these ``args`` and
    the reader's language) with ``data``: each named source's frame, across the page's width."""
    spec = copy.deepcopy(_spec(build, args, words.language()))
    spec["datasets"] = dict(data)
    st.vega_lite_chart(spec=localised(spec), width="stretch")
