"""Starting positions: win rate by seat in turn order, character and start square, with 95 % Wilson
intervals, the rate expected with no effect and the tests in words; one player count and one of the
three at a time."""

from __future__ import annotations

import math
from dataclasses import replace

import altair as alt
import polars as pl
import streamlit as st

from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.common import page_context, read, require_games
from clue_stats.dashboard.app_pages.words import cells_words, md, seat_test_words

DIMENSIONS = {
    "turn_order": ("Seat in turn order", "seat", "0 is the first to play"),
    "character": ("Character", "character", None),
    "start_square": ("Start square", "start square", "the character's start square on the edition's board"),
}
WHY_EMPTY = {
    "turn_order": "no game of this group says who played first (no turn records and no suggestions)",
    "character": "the logs of this group name no characters",
    "start_square": "this group's edition has no board, or its logs name no characters",
}

ctx = page_context()
st.title("Starting positions")
sizes = read(queries.games_by_players, ctx.path, ctx.version, ctx.filters)
require_games(sum(sizes.values()), ctx, "starting positions")
st.caption(
    "Does where a player starts change how often they win? Per cell: games, wins, the win rate with its "
    "95 % Wilson interval (line), and the rate expected with no effect (tick): the share of the cell's "
    "games that someone won, divided by the number of players."
)


def effect_chart(frame: pl.DataFrame, dimension: str, title: str) -> alt.LayerChart | alt.FacetChart:
    y = alt.Y(f"{dimension}:N", title=title, sort=None)
    frame = frame.with_columns(pl.col(dimension).cast(pl.Utf8))
    base = alt.Chart(frame)
    tooltip = [
        f"{dimension}:N",
        "games:Q",
        "wins:Q",
        alt.Tooltip("win_rate:Q", format=".1%"),
        alt.Tooltip("ci_low:Q", format=".1%"),
        alt.Tooltip("ci_high:Q", format=".1%"),
        alt.Tooltip("expected_rate:Q", format=".1%"),
        alt.Tooltip("p_value:Q", format=".3g"),
    ]
    return alt.layer(
        base.mark_rule(strokeWidth=2).encode(
            y=y, x=alt.X("ci_low:Q", title="win rate", axis=alt.Axis(format="%")), x2="ci_high:Q"
        ),
        base.mark_tick(color="#d62728", thickness=2, size=18).encode(y=y, x="expected_rate:Q"),
        base.mark_point(filled=True, size=70).encode(y=y, x="win_rate:Q", tooltip=tooltip),
    ).properties(height=60 + 30 * frame.height)  # autosize "fit": the height holds the axis too


counts = sorted(sizes)
left, right = st.columns([3, 2])
with left:
    # one player count at a time: a seat means something else at 3 players than at 6
    n = (
        st.segmented_control(
            "Players", counts, default=counts[-1], format_func=lambda c: f"{c} players", key="positions_players"
        )
        or counts[-1]
    )
with right:
    key = (
        st.segmented_control(
            "Compare",
            list(DIMENSIONS),
            default="turn_order",
            key="positions_dimension",
            format_func=lambda d: DIMENSIONS[d][0],
        )
        or "turn_order"
    )
if n not in counts:
    n = counts[-1]
title, label, note = DIMENSIONS[key]
data = read(queries.position_effects, ctx.path, ctx.version, replace(ctx.filters, n_players=n), key)
effects = data["effects"]
st.markdown(f"**{title} at {n} players**" + (f" ({note})" if note else "") + f": {sizes[n]:,} games")
if effects.height == 0:
    st.info(f"Nothing to show: {WHY_EMPTY[key]}.")
    st.stop()
editions = sorted(set(effects["edition"].to_list()))
for edition in editions:
    if len(editions) > 1:
        st.subheader(f"Edition {md(edition)}")
    cells = effects.filter(pl.col("edition") == edition).sort(key)
    if key == "turn_order":
        test = data["seat_test"].filter(pl.col("edition") == edition).to_dicts()
        t = test[0] if test else {"games_won": 0, "chi2": math.nan, "df": 0, "p_value": math.nan}
        st.write(md(seat_test_words(int(t["games_won"]), n, t["chi2"], int(t["df"]), t["p_value"])))
    st.write(md(cells_words(cells.to_dicts(), key, label)))
    st.altair_chart(effect_chart(cells, key, title), width="stretch")
    with st.expander(f"{title}: the numbers"):
        st.dataframe(cells, hide_index=True, width="stretch")
