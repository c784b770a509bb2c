"""Starting positions: win rate by seat in turn order, character and start square, with 95 % Wilson
intervals, the rate expected with no effect and the tests in words; one player count and one of the
three at a time."""

from __future__ import annotations

import math
from dataclasses import replace

import altair as alt
import polars as pl
import streamlit as st

from clue_stats.analysis import words
from clue_stats.analysis.words import N_, _, n_, number
from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.charts import altair_chart
from clue_stats.dashboard.app_pages.common import kinds_caption, page_context, read, require_games
from clue_stats.dashboard.app_pages.page_text import cells_words, md, seat_test_words
from clue_stats.dashboard.app_pages.tables import said as said_column
from clue_stats.dashboard.app_pages.tables import show
from clue_stats.dashboard.pages import page


def dimensions() -> dict[str, tuple[str, str, str | None]]:
    """What a win rate is compared by: its title, its word in a sentence, a note (in the reader's language)."""
    return {
        "turn_order": (_("Seat in turn order"), _("seat"), _("the 1st seat plays first")),
        "character": (_("Character"), _("character"), None),
        "start_square": (
            _("Start square"),
            _("start square"),
            _("the character's start square on the edition's board"),
        ),
    }


THIN = 20  # an edition with fewer games than this is folded away: too few to show an effect


def ordinal(seat: int) -> str:
    return words.ordinal(seat + 1)


def why_empty(key: str) -> str:
    said = {
        "turn_order": _("no game of this group says who played first (no turn records and no suggestions)"),
        "character": _("the logs of this group name no characters"),
        "start_square": _("this group's edition has no board, or its logs name no characters"),
    }
    return said[key]


ctx = page_context()
st.title(page("positions").name)
sizes = read(queries.games_by_players, ctx.path, ctx.version, ctx.filters)
require_games(sum(sizes.values()), ctx, N_("starting positions"))
kinds_caption(ctx)
st.caption(
    _(
        "Does where a player starts change how often they win? Per cell: games, wins, the win rate with its "
        "95 % Wilson interval (line), and the rate expected with no effect (tick): the share of the cell's "
        "games that someone won, divided by the number of players."
    )
)


def effect_chart(frame: pl.DataFrame, dimension: str, title: str) -> alt.LayerChart | alt.FacetChart:
    y = alt.Y(f"{dimension}:N", title=title, sort=None, axis=alt.Axis(labelLimit=260, labelOverlap=False))
    frame = frame.with_columns(pl.col(dimension).cast(pl.Utf8))
    base = alt.Chart(frame)
    tooltip = [
        alt.Tooltip(f"{dimension}:N", title=title),
        alt.Tooltip("games:Q", title=_("games")),
        alt.Tooltip("wins:Q", title=_("wins")),
        alt.Tooltip("win_rate:Q", format=".1%", title=_("win rate")),
        alt.Tooltip("ci_low:Q", format=".1%", title=_("interval from (95 %)")),
        alt.Tooltip("ci_high:Q", format=".1%", title=_("interval to (95 %)")),
        alt.Tooltip("expected_rate:Q", format=".1%", title=_("win rate with no effect")),
        alt.Tooltip("p_value:Q", format=".3g", title=_("p-value")),
    ]
    return alt.layer(
        base.mark_rule(strokeWidth=2).encode(
            y=y, x=alt.X("ci_low:Q", title=_("win rate"), axis=alt.Axis(format="%")), x2="ci_high:Q"
        ),
        base.mark_tick(color="#d62728", thickness=2, size=18).encode(y=y, x="expected_rate:Q"),
        base.mark_point(filled=True, size=70).encode(y=y, x="win_rate:Q", tooltip=tooltip),
    ).properties(height=60 + 30 * frame.height)  # autosize "fit": the height holds the axis too


counts = sorted(sizes)
most = max(counts, key=lambda c: (sizes[c], c))  # open on the player count with the most games
left, right = st.container(), st.container()  # one above the other: every player count fits
count_words = {
    c: n_(sizes[c], "{players} players ({n} game)", "{players} players ({n} games)", players=c) for c in counts
}
said = dimensions()
with left:
    # one player count at a time: a seat means something else at 3 players than at 6
    n = (
        st.segmented_control(
            _("Players"),
            counts,
            default=most,
            format_func=count_words.__getitem__,
            key="positions_players",
        )
        or most
    )
with right:
    key = (
        st.segmented_control(
            _("Compare"),
            list(said),
            default="turn_order",
            key="positions_dimension",
            format_func=lambda d: said[d][0],
        )
        or "turn_order"
    )
if n not in counts:
    n = most
title, label, note = said[key]
data = read(queries.position_effects, ctx.path, ctx.version, replace(ctx.filters, n_players=n), key)
effects = data["effects"]
heading = _("{what} at {players} players").format(what=title, players=number(n))
# each game is a row of every cell it has a player in: its n players' rows, where its log says this
known = int(effects["games"].sum()) // n if effects.height else 0
told = "" if known >= sizes[n] else "; " + n_(known, "the log of {n} of them says it", "the logs of {n} of them say it")
st.markdown(
    f"**{md(heading)}**" + (f" ({md(note)})" if note else "") + ": " + md(n_(sizes[n], "{n} game", "{n} games") + told)
)
if effects.height == 0:
    st.info(_("Nothing to show: {why}.").format(why=why_empty(key)))
    st.stop()
if key == "turn_order":
    effects = effects.sort("edition", key)
    effects = effects.with_columns(said_column(effects, key, ordinal))
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
    altair_chart(effect_chart(cells, key, title))
    st.caption(
        _(
            "How to read this: per {label}, the dot is its win rate, the line its interval (95 %, where the "
            "true rate likely is), the red tick the rate expected if where one starts made no difference. A "
            "line that crosses the tick is no evidence of an effect."
        ).format(label=label)
    )
    with st.expander(_("{what}: the numbers").format(what=title)):
        show(cells.drop("edition"), (key, "win_rate", "games", "wins"))


thin = [e for e in editions if games_of.get(e, 0) < THIN]
for edition in editions:
    games = games_of.get(edition, 0)
    heading = _("{edition}: {games}").format(
        edition=queries.edition_name(edition), games=n_(games, "{n} game", "{n} games")
    )
    if edition in thin:
        with st.expander(_("{heading} (too few to show an effect; folded)").format(heading=heading)):
            st.caption(
                _(
                    "With fewer than {games} games a win rate moves by whole tens of percent with one game; "
                    "open it to see the counts anyway."
                ).format(games=number(THIN))
            )
            section(edition)
    else:
        if len(editions) > 1:
            st.subheader(md(heading))
        section(edition)
