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
from clue_stats.dashboard.app_pages.common import kinds_caption, page_context, read, require_games
from clue_stats.dashboard.app_pages.tables import show
from clue_stats.dashboard.app_pages.words import cells_words, md, seat_test_words
from clue_stats.dashboard.pages import page

DIMENSIONS = {
    "turn_order": ("Seat in turn order", "seat", "the 1st seat plays first"),
    "character": ("Character", "character", None),
    "start_square": ("Start square", "start square", "the character's start square on the edition's board"),
}
THIN = 20  # an edition with fewer games than this is folded away: too few to show an effect


def ordinal(seat: int) -> str:
    n = seat + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


WHY_EMPTY = {
    "turn_order": "no game of this group says who played first (no turn records and no suggestions)",
    "character": "the logs of this group name no characters",
    "start_square": "this group's edition has no board, or its logs name no characters",
}

ctx = page_context()
st.title(page("positions").title)
sizes = read(queries.games_by_players, ctx.path, ctx.version, ctx.filters)
require_games(sum(sizes.values()), ctx, "starting positions")
kinds_caption(ctx)
st.caption(
    "Does where a player starts change how often they win? Per cell: games, wins, the win rate with its "
    "95 % Wilson interval (line), and the rate expected with no effect (tick): the share of the cell's "
    "games that someone won, divided by the number of players."
)


def effect_chart(frame: pl.DataFrame, dimension: str, title: str) -> alt.LayerChart | alt.FacetChart:
    y = alt.Y(f"{dimension}:N", title=title, sort=None, axis=alt.Axis(labelLimit=260, labelOverlap=False))
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
most = max(counts, key=lambda c: (sizes[c], c))  # open on the player count with the most games
left, right = st.container(), st.container()  # one above the other: every player count fits
with left:
    # one player count at a time: a seat means something else at 3 players than at 6
    n = (
        st.segmented_control(
            "Players",
            counts,
            default=most,
            format_func=lambda c: f"{c} players ({sizes[c]:,} game{'s' if sizes[c] != 1 else ''})",
            key="positions_players",
        )
        or most
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
    n = most
title, label, note = DIMENSIONS[key]
data = read(queries.position_effects, ctx.path, ctx.version, replace(ctx.filters, n_players=n), key)
effects = data["effects"]
st.markdown(f"**{title} at {n} players**" + (f" ({note})" if note else "") + f": {sizes[n]:,} games")
if effects.height == 0:
    st.info(f"Nothing to show: {WHY_EMPTY[key]}.")
    st.stop()
if key == "turn_order":
    effects = effects.sort("edition", key).with_columns(
        pl.col(key).map_elements(ordinal, return_dtype=pl.Utf8).alias(key)
    )
games_of = dict(zip(*read(queries.games_by_edition, ctx.path, ctx.version, replace(ctx.filters, n_players=n))))
editions = sorted(set(effects["edition"].to_list()), key=lambda e: (-games_of.get(e, 0), e))


def section(edition: str) -> None:
    cells = effects.filter(pl.col("edition") == edition)
    if key != "turn_order":
        cells = cells.sort(key)
    if key == "turn_order":
        test = data["seat_test"].filter(pl.col("edition") == edition).to_dicts()
        t = test[0] if test else {"games_won": 0, "chi2": math.nan, "df": 0, "p_value": math.nan}
        st.write(md(seat_test_words(int(t["games_won"]), n, t["chi2"], int(t["df"]), t["p_value"])))
    st.write(md(cells_words(cells.to_dicts(), key, label)))
    st.altair_chart(effect_chart(cells, key, title), width="stretch")
    with st.expander(f"{title}: the numbers"):
        show(cells.drop("edition"), (key, "win_rate", "games", "wins"))


thin = [e for e in editions if games_of.get(e, 0) < THIN]
for edition in editions:
    games = games_of.get(edition, 0)
    heading = f"{queries.edition_name(edition)}: {games:,} game{'s' if games != 1 else ''}"
    if edition in thin:
        with st.expander(f"{heading} (too few to show an effect; folded)"):
            st.caption(
                f"With fewer than {THIN} games a win rate moves by whole tens of percent with one game; "
                "open it to see the counts anyway."
            )
            section(edition)
    else:
        if len(editions) > 1:
            st.subheader(md(heading))
        section(edition)
