"""Tables as people read them: headers in words, blanks where nothing is known, percentages and
bits formatted, the key column first. UI only: every page shows its tables through :func:`show`.

The frames the queries return keep the stored columns (``game_id``, ``p_correct``, ...); this
module is the one place that turns those into words, so that one name always means one thing.
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime
from functools import partial
from typing import Any

import polars as pl
import streamlit as st

from clue_stats.analysis.words import N_, _, decimal, number, percent, significant, when
from clue_stats.dashboard.app_pages.common import NARROW_PX, replay_column
from clue_stats.ingest.store.schema import HEADERS as STORED_HEADERS
from clue_stats.ingest.store.schema import IN_BITS, SHARES

# column -> header (in English, said with _() where shown): a stored column's is declared with it
# (ingest.store.schema); these are the columns the queries compute; a column in neither keeps its
# name with "_" as spaces, in English (the tests ask every page's columns to have a header)
HEADERS: dict[str, str] = {
    **STORED_HEADERS,
    "suggestion": N_("suggestion"),
    "best_suggestion": N_("best suggestion at that moment"),
    "accusation": N_("accusation"),
    "outcome": N_("outcome"),
    "accused_at": N_("accused at record"),
    "accused_correct": N_("accusation right"),
    "mean_expected_gain": N_("mean expected gain (bits)"),
    "mean_accuracy": N_("mean accuracy"),
    "rated": N_("rated suggestions"),
    "suggestions": N_("suggestions"),
    "games": N_("games"),
    "players": N_("players"),
    "replay": N_("replay"),
    "wins": N_("wins"),
    "win_rate": N_("win rate"),
    "ci_low": N_("interval from (95 %)"),
    "ci_high": N_("interval to (95 %)"),
    "expected_rate": N_("win rate with no effect"),
    "p_value": N_("p-value"),
    "start_square": N_("start square"),
    "problems": N_("problems"),
    "times": N_("times found"),
    "first_played": N_("first played"),
    "last_played": N_("last played"),
    "analysed": N_("analysed"),
    "won": N_("won"),
    "missed_win": N_("missed win"),
    "certain_at": N_("at that record"),
    "hand_not_in_the_log": N_("not rated: hand not in the log"),
}

# stored columns by their declared unit (ingest.store.schema), and the columns the queries compute
PERCENT = SHARES | {
    "chance it was right",
    "mean_accuracy",
    "win_rate",
    "ci_low",
    "ci_high",
    "expected_rate",
    "share_ahead",
}
BITS = IN_BITS | {"mean_expected_gain", "given_away_bits"}
STYLED_CELLS = 200_000  # number cells formatted in the reader's language; a bigger table keeps the grid's


def header(column: str) -> str:
    """A column's header in the reader's language."""
    return _(HEADERS[column]) if column in HEADERS else column.replace("_", " ")


def _number(value: Any, column: str) -> str:
    """A number as the reader's language writes it: a share as a percentage, bits with two decimals."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int):
        return number(value)
    if value != value:  # NaN
        return ""
    if column in PERCENT:
        return percent(value) if abs(value) >= 0.995 or value == 0 else percent(value, 1)
    if column in BITS:
        return decimal(round(value, 2) + 0.0)
    return significant(value)


def _moment(value: datetime | date) -> str:
    """A stored time (an ingest's, a rejection's) to the minute, as the reader's language writes it."""
    if isinstance(value, datetime):
        text = value.isoformat(timespec="minutes")
    else:
        text = value.isoformat()
    return (when(text) or text).replace("T", " ")


def _text(value: Any, column: str) -> str:
    if value is None:
        return ""
    if isinstance(value, (datetime, date)):
        return _moment(value)
    if isinstance(value, (bool, int, float)):
        return _number(value, column)
    return str(value)


def readable(
    frame: pl.DataFrame, first: Sequence[str] = ()
) -> tuple[pl.DataFrame, dict[str, Any], dict[str, Callable[[Any], str]]]:
    """The frame with the ``first`` columns leading, null cells blank, how to show each column, and
    how to write each number column's values in the reader's language.

    Columns wholly blank are left out, unless asked for first. A column without blanks keeps its
    type (so that it sorts as numbers), its cells written by the formats; a column with blanks
    becomes text, written here, since a grid shows a missing number as "None"."""
    order = [c for c in first if c in frame.columns] + [c for c in frame.columns if c not in first]
    frame = frame.with_columns(pl.col(pl.Float32, pl.Float64).fill_nan(None))  # 0/0 is "nothing to say" too
    # bits show two decimals: what rounds to zero is 0, never "-0.00"
    frame = frame.with_columns(
        [pl.when(pl.col(c).abs() < 0.005).then(0.0).otherwise(pl.col(c)).alias(c) for c in frame.columns if c in BITS]
    )
    # a column with nothing in it says nothing (e.g. accuracy before `analyse --deep`): left out
    frame = frame.select([c for c in order if c in first or frame.height == 0 or frame[c].null_count() < frame.height])
    config: dict[str, Any] = {}
    formats: dict[str, Callable[[Any], str]] = {}
    converted = []
    for column in frame.columns:
        series = frame[column]
        title = header(column)
        if column == "replay":
            config[column] = replay_column()
            continue
        if series.null_count() or series.dtype == pl.Boolean or series.dtype.is_temporal():
            converted.append(
                pl.Series(column, [_text(v, column) for v in series.to_list()], dtype=pl.Utf8),
            )
            config[column] = st.column_config.TextColumn(title)
        elif series.dtype.is_numeric():
            config[column] = st.column_config.NumberColumn(title)
            formats[column] = partial(_number, column=column)
        else:
            config[column] = st.column_config.Column(title)
    if converted:
        frame = frame.with_columns(converted)
    return frame, config, formats


PHONE_ROWS = 100  # rows a phone shows as cards (a grid's longer table is for a wider screen)
_SHOWN_TABLES = itertools.count()  # each table's containers a key of their own

PINNED = 2  # key columns kept in view; more would leave a phone no width to scroll the rest in


def show(frame: pl.DataFrame, first: Sequence[str] = (), **kwargs: Any) -> None:
    """``st.dataframe`` of a readable frame: words for headers, blanks for nothing, numbers as the
    reader's language writes them (sorting as numbers), key columns first, the first PINNED of them
    pinned (on a phone they stay in view while the rest of the row scrolls)."""
    shown, config, formats = readable(frame, first)
    data: Any = shown
    if formats and shown.height * len(formats) <= STYLED_CELLS:
        data = shown.to_pandas().style.format(formats)  # the grid shows these words, sorts by the values
    else:  # too many cells to write one by one: the grid's own formats
        for column in formats:
            grid = "percent" if column in PERCENT else "%.2f" if column in BITS else None
            if grid is None and shown[column].dtype.is_float():
                grid = "%.3g"
            config[column] = st.column_config.NumberColumn(header(column), format=grid)
    config.update(kwargs.pop("column_config", {}) or {})
    for column in [c for c in first if c in shown.columns][:PINNED]:
        config[column] = {**(config.get(column) or {}), "pinned": True}
    # the grid on a wide screen; on a phone, the first PHONE_ROWS rows a card each (page_layout's CSS
    # shows one of the two): a grid there showed two columns and cut the rest
    n = next(_SHOWN_TABLES)
    with st.container(key=f"cs-grid-{n}"):
        st.dataframe(data, hide_index=True, width="stretch", column_config=config, **kwargs)
    with st.container(key=f"cs-cards-{n}"):
        links = {c: _("open replay") for c in frame.columns if c == "replay"}
        # a card's headers are the grid's: a page's own label for a column where it gives one
        labels = {c: v["label"] for c, v in config.items() if isinstance(v, dict) and v.get("label")}
        st.html(rows_html(frame.head(PHONE_ROWS), first, links=links, headers=labels))
        if frame.height > PHONE_ROWS:
            st.caption(
                _("The first {shown} of {rows} rows; a wider screen shows them all, sortable.").format(
                    shown=number(PHONE_ROWS), rows=number(frame.height)
                )
            )


# The rows of :func:`rows`: a table on a wide screen; under 640 px wide each row a card of its own,
# every cell on a line with its header beside it, so that nothing is cut or hidden off to the right.
MANY_COLUMNS = 7
MOST_COLUMNS = 12
ROWS_CSS = f"""<style>
div.cs-rows-box {{ overflow-x: auto; max-width: 100%; }}
table.cs-rows {{ width: 100%; border-collapse: collapse; font-size: 0.9rem; line-height: 1.35; }}
table.cs-rows th {{ text-align: left; font-weight: 600; padding: 0.35rem 0.4rem;
  border-bottom: 2px solid rgba(128,128,128,0.35); vertical-align: bottom; }}
table.cs-rows td {{ padding: 0.3rem 0.4rem; border-bottom: 1px solid rgba(128,128,128,0.2);
  vertical-align: top; overflow-wrap: break-word; word-break: normal; }}
table.cs-rows td.cs-link, table.cs-rows td.cs-tag {{ white-space: nowrap; }}
table.cs-rows.cs-many {{ font-size: 0.75rem; }}
table.cs-rows.cs-most {{ font-size: 0.7rem; }}
table.cs-rows.cs-many th, table.cs-rows.cs-many td {{ padding-left: 0.25rem; padding-right: 0.25rem; }}
table.cs-rows.cs-many td.cs-link, table.cs-rows.cs-many td.cs-tag {{ white-space: normal; }}
table.cs-rows span.cs-dot {{ display: inline-block; width: 0.75em; height: 0.75em; border-radius: 50%;
  margin-right: 0.35em; vertical-align: -0.05em; }}
table.cs-rows td.cs-num, table.cs-rows th.cs-num {{ text-align: right; font-variant-numeric: tabular-nums; }}
table.cs-rows td.cs-num {{ white-space: nowrap; }}
@media (max-width: {NARROW_PX}px) {{
  table.cs-rows thead {{ display: none; }}
  table.cs-rows, table.cs-rows tbody, table.cs-rows tr, table.cs-rows td {{ display: block; width: 100%; }}
  table.cs-rows tr {{ padding: 0.4rem 0; border-bottom: 1px solid rgba(128,128,128,0.35); }}
  table.cs-rows td {{ display: grid; grid-template-columns: 38% minmax(0, 1fr); gap: 0.6rem; border: none;
    padding: 0.1rem 0; text-align: left; }}
  table.cs-rows td.cs-num {{ text-align: left; white-space: normal; }}
  table.cs-rows td::before {{ content: attr(data-label); font-weight: 600; opacity: 0.75; }}
  table.cs-rows td.cs-key {{ font-weight: 600; }}
}}
</style>"""


def rows_html(
    frame: pl.DataFrame,
    first: Sequence[str] = (),
    links: Mapping[str, str] | None = None,
    headers: Mapping[str, str] | None = None,
    colours: Mapping[str, Mapping[str, str]] | None = None,
    numeric: Sequence[str] = (),
) -> str:
    """The HTML of :func:`rows` (a ``<table class="cs-rows">``), every value escaped.

    ``links`` maps a column of addresses to the words its link shows ("open replay"); ``headers``
    overrides a column's header; ``colours`` maps a column to the CSS colour of each of its values
    (a label's on its scale), shown as a dot before the word. The ``first`` columns lead and are the
    row's key (bold on a phone)."""
    colours = dict(colours or {})
    links = dict(links or {})
    right = set(numeric)  # columns of numbers already written as words: aligned as numbers
    headers = dict(headers or {})
    order = [c for c in first if c in frame.columns] + [c for c in frame.columns if c not in first]
    aligned = {c for c in order if (frame.schema[c].is_numeric() or c in right) and c not in links}
    titles = {c: headers.get(c) or header(c) for c in order}

    def cell_class(column: str) -> str:
        classes = (
            (["cs-key"] if column in first else [])
            + (["cs-num"] if column in aligned else [])
            + (["cs-link"] if column in links else [])
            + (["cs-tag"] if column in colours else [])
        )
        return f' class="{" ".join(classes)}"' if classes else ""

    num = ' class="cs-num"'
    head = "".join(f"<th{num if c in aligned else ''}>{html.escape(titles[c])}</th>" for c in order)
    body = []
    for row in frame.select(order).iter_rows(named=True):
        cells = []
        for column in order:
            value = row[column]
            if column in links and value:
                text = f'<a href="{html.escape(str(value))}" target="_self">{html.escape(links[column])}</a>'
            else:
                text = html.escape(_text(value, column))
                # a path or an address may break after each "/" (a file's name is not cut inside)
                text = text.replace("/", "/<wbr>")
                colour = colours.get(column, {}).get(value) if value is not None else None
                if colour is not None:
                    text = f'<span class="cs-dot" style="background:{html.escape(colour)}"></span>{text}'
            cells.append(f'<td data-label="{html.escape(titles[column])}"{cell_class(column)}>{text}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    # a wide table: smaller type, so it fits 1280 px (never under 11 px)
    many = " cs-many cs-most" if len(order) >= MOST_COLUMNS else " cs-many" if len(order) >= MANY_COLUMNS else ""
    # a table still wider than the page scrolls inside its own box; words are never broken to fit it
    return (
        f'{ROWS_CSS}<div class="cs-rows-box"><table class="cs-rows{many}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def rows(
    frame: pl.DataFrame,
    first: Sequence[str] = (),
    links: Mapping[str, str] | None = None,
    headers: Mapping[str, str] | None = None,
    colours: Mapping[str, Mapping[str, str]] | None = None,
    numeric: Sequence[str] = (),
) -> None:
    """A short table that reads on a phone (a list of games, a player's best suggestions): every
    column shown whole, as a table on a wide screen and as stacked rows, header beside value, under
    640 px. For long tables (hundreds of rows, sorting) use :func:`show`, whose key columns stay pinned."""
    st.html(rows_html(frame, first, links, headers, colours, numeric))


def said(frame: pl.DataFrame, column: str, words: Callable[[Any], str | None], alias: str | None = None) -> pl.Series:
    """A column's values through ``words`` (a function of analysis.words: dates, numbers), in this
    thread: polars may run a ``map_elements`` in a thread of its own, where the reader's language is
    not set. Blanks stay blank."""
    values = [None if v is None else words(v) for v in frame[column].to_list()]
    return pl.Series(alias or column, values, dtype=pl.Utf8)


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
