"""Tables as people read them: headers in words, blanks where nothing is known, percentages and
bits formatted, the key column first. UI only: every page shows its tables through :func:`show`.

The frames the queries return keep the stored columns (``game_id``, ``p_correct``, ...); this
module is the one place that turns those into words, so that one name always means one thing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl
import streamlit as st

from clue_stats.dashboard.app_pages.common import LINK
from clue_stats.ingest.store.schema import HEADERS as STORED_HEADERS
from clue_stats.ingest.store.schema import IN_BITS, SHARES

# column -> header: a stored column's is declared with it (ingest.store.schema); these are the columns
# the queries compute; a column in neither keeps its name with "_" as spaces
HEADERS: dict[str, str] = {
    **STORED_HEADERS,
    "suggestion": "suggestion",
    "best_suggestion": "best suggestion at that moment",
    "accusation": "accusation",
    "outcome": "outcome",
    "accused_at": "accused at record",
    "accused_correct": "accusation right",
    "mean_expected_gain": "mean expected gain (bits)",
    "mean_accuracy": "mean accuracy",
    "rated": "rated suggestions",
    "suggestions": "suggestions",
    "games": "games",
    "wins": "wins",
    "win_rate": "win rate",
    "ci_low": "95 % interval from",
    "ci_high": "95 % interval to",
    "expected_rate": "win rate with no effect",
    "p_value": "p-value",
    "start_square": "start square",
    "problems": "problems",
    "first_played": "first played",
    "last_played": "last played",
    "analysed": "analysed",
}

# stored columns by their declared unit (ingest.store.schema), and the columns the queries compute
PERCENT = SHARES | {
    "chance it was right",
    "mean_accuracy",
    "win_rate",
    "ci_low",
    "ci_high",
    "expected_rate",
}
BITS = IN_BITS | {"mean_expected_gain"}


def header(column: str) -> str:
    return HEADERS.get(column, column.replace("_", " "))


def _text(value: Any, column: str) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if value != value:  # NaN
            return ""
        if column in PERCENT:
            return f"{value:.0%}" if abs(value) >= 0.995 or value == 0 else f"{value:.1%}"
        if column in BITS:
            return f"{round(value, 2) + 0.0:.2f}"
        return f"{value:.3g}"
    return str(value)


def readable(frame: pl.DataFrame, first: Sequence[str] = ()) -> tuple[pl.DataFrame, dict[str, Any]]:
    """The frame with the ``first`` columns leading, null cells blank, and how to show each column.

    Columns wholly blank are left out, unless asked for first. A column without blanks keeps its type (so that it sorts as numbers), formatted by the column
    configuration; a column with blanks becomes text, formatted here, since a grid shows a missing
    number as "None"."""
    order = [c for c in first if c in frame.columns] + [c for c in frame.columns if c not in first]
    frame = frame.with_columns(pl.col(pl.Float32, pl.Float64).fill_nan(None))  # 0/0 is "nothing to say" too
    # bits show two decimals: what rounds to zero is 0, never "-0.00"
    frame = frame.with_columns(
        [pl.when(pl.col(c).abs() < 0.005).then(0.0).otherwise(pl.col(c)).alias(c) for c in frame.columns if c in BITS]
    )
    # a column with nothing in it says nothing (e.g. accuracy before `analyse --deep`): left out
    frame = frame.select([c for c in order if c in first or frame.height == 0 or frame[c].null_count() < frame.height])
    config: dict[str, Any] = {}
    converted = []
    for column in frame.columns:
        series = frame[column]
        title = header(column)
        if column == "replay":
            config[column] = LINK
            continue
        if series.null_count() or series.dtype == pl.Boolean:
            converted.append(
                pl.Series(column, [_text(v, column) for v in series.to_list()], dtype=pl.Utf8),
            )
            config[column] = st.column_config.TextColumn(title)
        elif column in PERCENT:
            config[column] = st.column_config.NumberColumn(title, format="percent")
        elif column in BITS:
            config[column] = st.column_config.NumberColumn(title, format="%.2f")
        elif series.dtype.is_float():
            config[column] = st.column_config.NumberColumn(title, format="%.3g")
        else:
            config[column] = st.column_config.Column(title)
    if converted:
        frame = frame.with_columns(converted)
    return frame, config


def show(frame: pl.DataFrame, first: Sequence[str] = (), **kwargs: Any) -> None:
    """``st.dataframe`` of a readable frame: words for headers, blanks for nothing, key columns first."""
    shown, config = readable(frame, first)
    config.update(kwargs.pop("column_config", {}) or {})
    st.dataframe(shown, hide_index=True, width="stretch", column_config=config, **kwargs)


def cards(frame: pl.DataFrame, into: str, columns: Sequence[str], joiner: str = ", ") -> pl.DataFrame:
    """Three card columns (already named) joined into one ("Mrs White, Rope, Hall"), put where the first was."""
    present = [c for c in columns if c in frame.columns]
    if not present:
        return frame
    position = frame.columns.index(present[0])
    joined = frame.select(pl.concat_str([pl.col(c) for c in present], separator=joiner, ignore_nulls=True).alias(into))
    rest = frame.drop(present)
    order = rest.columns[:position] + [into] + rest.columns[position:]
    return rest.with_columns(joined.to_series()).select(order)
