"""Overview: the club first (the latest games with their winners, the latest nights), then what the
selection holds (games, players, editions, sources) and how it is made up."""

from __future__ import annotations

from urllib.parse import urlencode

import altair as alt
import polars as pl
import streamlit as st

from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.common import (
    NO_ANALYSIS,
    count_axis,
    help_link,
    kinds_caption,
    page_context,
    read,
    require_games,
)
from clue_stats.dashboard.app_pages.tables import rows, show
from clue_stats.dashboard.pages import PAGES, page

ctx = page_context()
st.title(page("overview").title)
data = read(queries.overview, ctx.path, ctx.version, ctx.filters)
totals = data["totals"]
require_games(totals["games"], ctx, "games")
kinds_caption(ctx)

# ---------------------------------------------------------------- the club first: latest games and nights
club = read(queries.club_latest, ctx.path, ctx.version, ctx.filters)
slugs = {p.slug for p in PAGES}
review = "review" if "review" in slugs else "replay"  # the game's review where the dashboard has one
st.subheader("Latest games")
latest = club["games"]
rows(
    latest.with_columns(
        pl.col("played_at").str.replace("T", " "),
        pl.col("winner").fill_null("nobody"),
        pl.Series("open", [f"{review}?{urlencode({'game': g})}" for g in latest["game_id"]], dtype=pl.Utf8),
    ).select("played_at", "winner", "players", "edition", "game_id", "open"),
    first=("played_at", "winner"),
    links={"open": "open the review" if review == "review" else "open the replay"},
    headers={"game_id": "game", "open": "review" if review == "review" else "replay"},
)
if club["nights"]:
    st.subheader("Latest nights")
    night_rows = pl.DataFrame(
        [
            {
                "night": n["night"],
                "games": n["games"],
                "winners": ", ".join(n["winners"]) or "nobody",
                "open": "night?" + urlencode({"night": n["night"]}),
            }
            for n in club["nights"]
        ]
    )
    rows(night_rows, first=("night", "games"), links={"open": "open the night"}, headers={"open": "summary"})
st.subheader("In numbers")

row = st.columns(4)
row[0].metric("Games", f"{totals['games']:,}", help=f"{totals['stored_total']:,} stored in all")
row[1].metric("Players", f"{totals['players']:,}", help="distinct people (names merged with `players merge` as one)")
row[2].metric("Editions", f"{totals['editions']:,}")
row[3].metric("Sources", f"{totals['sources']:,}")
row = st.columns(4)
row[0].metric("Analysed", f"{totals['analysed']:,}", help="games whose analysis columns are filled")
row[1].metric(
    "Hands not all known",
    f"{totals['hands_unknown']:,}",
    help="games whose log does not hold every hand: their notebooks are partial views",
)
row[2].metric("With a winner", f"{totals['won']:,}")
row[3].metric("Rejected", f"{totals['rejected']:,}", help="games set apart by ingest (see Data quality)")
if totals["analysed"] == 0:
    st.info(f"These games have {NO_ANALYSIS}: suggestions and accusations pages stay empty until then.")

left, right = st.columns(2)
with left:
    st.subheader("Games by edition")
    st.altair_chart(
        alt.Chart(data["by_edition"])
        .mark_bar()
        .encode(
            x=alt.X("games:Q", axis=count_axis("games")),
            y=alt.Y("edition:N", sort="-x", title=None, axis=alt.Axis(labelLimit=260, labelOverlap=False)),
            color=alt.Color("variant:N", title="variant"),
            tooltip=["edition", "variant", "games"],
        ),
        width="stretch",
    )
with right:
    st.subheader("Games by player count")
    st.altair_chart(
        alt.Chart(data["by_players"])
        .mark_bar()
        .encode(
            x=alt.X("n_players:O", title="players at the table", axis=alt.Axis(labelAngle=0)),
            y=alt.Y("games:Q", axis=count_axis("games")),
            tooltip=[alt.Tooltip("n_players:O", title="players"), "games"],
        ),
        width="stretch",
    )

st.subheader("Games played by month")
if data["by_month"].height:
    st.altair_chart(
        alt.Chart(data["by_month"])
        .mark_bar()
        .encode(
            x=alt.X("month:O", title=None, axis=alt.Axis(labelAngle=0)),
            y=alt.Y("games:Q", axis=count_axis("games")),
            tooltip=["month", "games"],
        ),
        width="stretch",
    )
    if totals["undated"]:
        st.caption(f"{totals['undated']:,} games have no date and are not in this chart.")
else:
    st.caption("No game of the selection says when it was played.")

st.subheader("Sources")
show(data["by_source"])

st.subheader("Kinds of game in the database")
kinds = data["by_kind"].with_columns(pl.col("kind").replace_strict(queries.KINDS, default=pl.col("kind")))
show(kinds)
st.caption(
    "Every stored game, whatever the filters: who played it, as its source says ("
    + help_link("analysis", "Help: the analysis, kinds of game")
    + "). Statistics of people and of programs are kept apart unless you ask for both."
)
