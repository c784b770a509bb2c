"""Data quality: the games ingest set apart, with every problem found in them and their original
text, the warnings kept with stored games, and the history of ingest runs."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from clue_stats.analysis.words import _, number, said, severity_words
from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.common import count_axis, page_context, read
from clue_stats.dashboard.app_pages.tables import said as said_column
from clue_stats.dashboard.app_pages.tables import show
from clue_stats.dashboard.pages import page

RAW_SHOWN = 100_000  # characters of a rejected game's text shown on the page

ctx = page_context()
st.title(page("quality").name)
data = read(queries.data_quality, ctx.path, ctx.version, ctx.filters)
rejected = data["rejected"]

row = st.columns(3)
row[0].metric(_("Rejected games and files"), number(data["rejected_total"]))
row[1].metric(
    _("Warnings on stored games"),
    number(int(data["warnings"]["times"].sum()) if data["warnings"].height else 0),
    help=_("of the games the filters select"),
)
row[2].metric(_("Ingest runs"), number(data["runs"].height))

st.subheader(_("Rejected games"))
if data["rejected_total"] == 0:
    st.caption(_("No game has been rejected: every game read so far passed the checks."))
else:
    st.caption(
        _("Rejected games are listed whatever the filters: their edition and date could not be trusted.")
        + (" " + _("The newest 500 are shown.") if data["rejected_total"] > rejected.height else "")
    )
    st.altair_chart(
        alt.Chart(data["rejected_codes"])
        .mark_bar()
        .encode(
            x=alt.X("rejected:Q", axis=count_axis(_("rejected games"))),
            y=alt.Y("code:N", sort="-x", title=_("first error"), axis=alt.Axis(labelLimit=260, labelOverlap=False)),
            tooltip=[
                alt.Tooltip("code:N", title=_("problem")),
                alt.Tooltip("rejected:Q", title=_("rejected games")),
            ],
        ),
        width="stretch",
    )
    show(rejected.drop("raw_sha256"), ("source_file", "line", "game_id", "code", "message"))
    rows = rejected.to_dicts()
    pick = st.selectbox(
        _("Every problem of one rejected game"),
        range(len(rows)),
        key="quality_rejected",
        format_func=[
            _("{file}, line {line}: {code}").format(
                file=r["source_file"] or _("(no file)"), line=r["line"], code=r["code"]
            )
            for r in rows
        ].__getitem__,
    )
    if pick is not None:
        problems, raw = read(
            queries.rejected_problems, ctx.path, ctx.version, rows[pick]["raw_sha256"], rows[pick]["source_file"]
        )
        # each message in the reader's language: its stored template said with its values
        messages = [said(*row) for row in problems.select("message", "template", "fields").iter_rows()]
        problems = problems.drop("template", "fields").with_columns(message=pl.Series(messages, dtype=pl.String))
        show(
            problems.with_columns(said_column(problems, "severity", severity_words))
            if "severity" in problems.columns
            else problems
        )
        if raw:
            with st.expander(_("The game as it was read")):
                st.code(raw[:RAW_SHOWN], language=None)
                if len(raw) > RAW_SHOWN:
                    st.caption(
                        _("The first {shown} of {total} characters.").format(
                            shown=number(RAW_SHOWN), total=number(len(raw))
                        )
                    )

st.subheader(_("Warnings kept with stored games"))
if data["warnings"].height:
    show(data["warnings"].with_columns(said_column(data["warnings"], "severity", severity_words)))
else:
    st.caption(_("The selected games carry no warning."))

if data["history"].height:
    with st.expander(_("Earlier versions of stored games ({count})").format(count=number(data["history"].height))):
        st.caption(
            _(
                "Rejected versions of games stored since in a valid version, and stored versions replaced with "
                "`ingest --replace`: kept as history, no longer current problems."
            )
        )
        show(data["history"])

st.subheader(_("Ingest history"))
if data["runs"].height:
    show(data["runs"])
else:
    st.caption(_("No ingest has run on this database."))
