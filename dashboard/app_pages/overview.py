"""Overview: the club first (the latest games with their winners, the latest nights), then what the
selection holds (games, players, editions, sources) and how it is made up."""

from __future__ import annotations

from urllib.parse import urlencode

import altair as alt
import polars as pl
import streamlit as st

from clue_stats.analysis.words import N_, _, kind_words, n_, number, variant_words, when
from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.charts import altair_chart
from clue_stats.dashboard.app_pages.common import (
    NO_ANALYSIS,
    count_axis,
    help_link,
    kinds_caption,
    page_context,
    read,
    require_games,
)
from clue_stats.dashboard.app_pages.tables import rows, said, show
from clue_stats.dashboard.pages import PAGES, page

ctx = page_context()
st.title(page("overview").name)
data = read(queries.overview, ctx.path, ctx.version, ctx.filters)
totals = data["totals"]
require_games(totals["games"], ctx, N_("games"))
kinds_caption(ctx)

# ---------------------------------------------------------------- the club first: latest games and nights
club = read(queries.club_latest, ctx.path, ctx.version, ctx.filters)
slugs = {p.slug for p in PAGES}
review = "review" if "review" in slugs else "replay"  # the game's review where the dashboard has one
st.subheader(_("Latest games"))
latest = club["games"]
rows(
    latest.with_columns(
        said(latest, "played_at", when),
        pl.col("winner").fill_null(_("nobody")),
        pl.Series("open", [f"{review}?{urlencode({'game': g})}" for g in latest["game_id"]], dtype=pl.Utf8),
    ).select("played_at", "winner", "players", "edition", "game_id", "open"),
    first=("played_at", "winner"),
    links={"open": _("open the review") if review == "review" else _("open the replay")},
    headers={"game_id": _("game"), "open": _("review") if review == "review" else _("replay")},
)
if club["nights"]:
    st.subheader(_("Latest nights"))
    night_rows = pl.DataFrame(
        [
            {
                "night": when(n["night"]),
                "games": n["games"],
                "winners": ", ".join(n["winners"]) or _("nobody"),
                "open": "night?" + urlencode({"night": n["night"]}),
            }
            for n in club["nights"]
        ]
    )
    rows(
        night_rows,
        first=("night", "games"),
        links={"open": _("open the night")},
        headers={"night": _("night"), "winners": _("winners"), "open": _("summary")},
    )
st.subheader(_("In numbers"))

row = st.columns(4)
row[0].metric(
    _("Games"), number(totals["games"]), help=_("{count} stored in all").format(count=number(totals["stored_total"]))
)
row[1].metric(
    _("Players"), number(totals["players"]), help=_("distinct people (names merged with `players merge` as one)")
)
row[2].metric(_("Editions"), number(totals["editions"]))
row[3].metric(_("Sources"), number(totals["sources"]))
row = st.columns(4)
row[0].metric(_("Analysed"), number(totals["analysed"]), help=_("games whose analysis columns are filled"))
row[1].metric(
    _("Hands not all known"),
    number(totals["hands_unknown"]),
    help=_("games whose log does not hold every hand: their notebooks are partial views"),
)
row[2].metric(_("With a winner"), number(totals["won"]))
row[3].metric(
    _("Rejected"),
    number(totals["rejected"]),
    help=_("games set apart by ingest (see {page})").format(page=page("quality").name),
)
if totals["analysed"] == 0:
    st.info(
        _("These games have {state}: suggestions and accusations pages stay empty until then.").format(
            state=_(NO_ANALYSIS)
        )
    )

left, right = st.columns(2)
with left:
    st.subheader(_("Games by edition"))
    altair_chart(
        alt.Chart(data["by_edition"].with_columns(said(data["by_edition"], "variant", variant_words)))
        .mark_bar()
        .encode(
            x=alt.X("games:Q", axis=count_axis(_("games"))),
            y=alt.Y("edition:N", sort="-x", title=None, axis=alt.Axis(labelLimit=260, labelOverlap=False)),
            color=alt.Color("variant:N", title=_("variant")),
            tooltip=[
                alt.Tooltip("edition:N", title=_("edition")),
                alt.Tooltip("variant:N", title=_("variant")),
                alt.Tooltip("games:Q", title=_("games")),
            ],
        ),
    )
    st.caption(_("How to read this: one bar per edition, as long as its games, coloured by the rules' variant."))
with right:
    st.subheader(_("Games by player count"))
    altair_chart(
        alt.Chart(data["by_players"])
        .mark_bar()
        .encode(
            x=alt.X("n_players:O", title=_("players at the table"), axis=alt.Axis(labelAngle=0)),
            y=alt.Y("games:Q", axis=count_axis(_("games"))),
            tooltip=[
                alt.Tooltip("n_players:O", title=_("players")),
                alt.Tooltip("games:Q", title=_("games")),
            ],
        ),
    )
    st.caption(_("How to read this: the games of each number of players at the table."))

st.subheader(_("Games played by month"))
if data["by_month"].height:
    altair_chart(
        alt.Chart(data["by_month"])
        .mark_bar()
        .encode(
            x=alt.X("month:O", title=None, axis=alt.Axis(labelAngle=0)),
            y=alt.Y("games:Q", axis=count_axis(_("games"))),
            tooltip=[alt.Tooltip("month:O", title=_("month")), alt.Tooltip("games:Q", title=_("games"))],
        ),
    )
    st.caption(_("How to read this: one bar per month (year-month) in which games were played, as high as its games."))
    if totals["undated"]:
        st.caption(
            n_(
                totals["undated"],
                "{n} game has no date and is not in this chart.",
                "{n} games have no date and are not in this chart.",
            )
        )
else:
    st.caption(_("No game of the selection says when it was played."))

st.subheader(_("Sources"))
show(
    data["by_source"].with_columns(
        pl.col("source").replace("(not given)", _("(not given)")),
        said(data["by_source"], "first_played", when),
        said(data["by_source"], "last_played", when),
    )
)

st.subheader(_("Kinds of game in the database"))
kinds = data["by_kind"].with_columns(said(data["by_kind"], "kind", kind_words))
show(kinds)
st.caption(
    _(
        "Every stored game, whatever the filters: who played it, as its source says ({link}). Statistics of "
        "people and of programs are kept apart unless you ask for both."
    ).format(link=help_link("analysis", _("Help: the analysis, kinds of game")))
)
