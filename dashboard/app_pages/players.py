"""Players: the league of each rated pool (people, bots, simulations): the leaderboard, each player's
rating and review accuracy over time, their best and worst suggestions, and head-to-head."""

from __future__ import annotations

import shlex
from typing import Any
from urllib.parse import urlencode

import altair as alt
import polars as pl
import streamlit as st

from clue_stats.analysis.league import SETTLED_SIGMA, settle_words
from clue_stats.analysis.ratings import duplicate_words
from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.common import help_link, page_context, read, replay_links, require_games
from clue_stats.dashboard.app_pages.tables import cards, rows, show
from clue_stats.dashboard.app_pages.words import md
from clue_stats.dashboard.pages import page

POOL_NAMES = {"people": "People", "bots": "Bots", "simulations": "Simulations"}
CHART_PLAYERS = 25  # players in the ratings chart
COURSE_PLAYERS = 3  # players drawn over time by default
MATRIX_PLAYERS = 10  # players in the head-to-head matrix


def _column(table: pl.DataFrame, name: str, fmt: str, help: str) -> Any:
    """A number column's configuration, or a text one where blanks made the column text."""
    if table[name].dtype == pl.Utf8:
        return st.column_config.TextColumn(name, help=help)
    return st.column_config.NumberColumn(name, format=fmt, help=help)


def _games(n: int) -> str:
    return f"{n:,} game" + ("" if n == 1 else "s")


ctx = page_context()
st.title(page("players").title)
# one read for the pools and the leaderboard of the pool asked for (the switch below sets it)
view = read(queries.league_view, ctx.path, ctx.version, ctx.filters, st.session_state.get("league_pool"))
require_games(view["selected"], ctx, "players")
pools = view["pools"]
if pools.height == 0:
    st.info(
        "No rated game in the selection yet: ratings need games with two players or more, each person "
        "once at the table (" + help_link("league", "Help: the league") + ")."
    )
    st.stop()
options = pools["pool"].to_list()
if st.session_state.get("league_pool") not in options:
    st.session_state.pop("league_pool", None)  # a pool the filters no longer select
pool = st.segmented_control(
    "League", options, default=view["pool"], key="league_pool", format_func=lambda p: POOL_NAMES.get(p, p)
)
if pool is None:  # the switch clicked off: the pool shown stays
    pool = view["pool"]
board = view["board"] if pool == view["pool"] else read(queries.league_board, ctx.path, ctx.version, ctx.filters, pool)

size = pools.filter(pl.col("pool") == pool).row(0, named=True)
row = st.columns(4)
row[0].metric("Players", f"{board.height:,}")
row[1].metric("Rated games", f"{size['games']:,}")
row[2].metric("Most games", f"{board['games'].max():,}")
row[3].metric(
    "Missed wins",
    f"{int(board['missed_wins'].sum()):,}" if board["missed_wins"].is_not_null().any() else "not reviewed",
    help="games in which the player was certain of the solution, could still accuse, and did not win",
)

# ---------------------------------------------------------------- the leaderboard
st.subheader("Leaderboard")
st.caption(
    "Sorted by the rating: the skill the model is very sure a player is above (skill minus three times its "
    "uncertainty; everyone starts at 0). Skill is written with its uncertainty, 24 ± 6: after a few games "
    f"the uncertainty is wide (it starts at 8), and a rating is provisional until it is down to {SETTLED_SIGMA:.0f}, "
    "about a dozen games; close ratings with wide uncertainties do not tell two players apart. "
    "Win rate with its 95 % interval. " + help_link("league", "Help: the league")
)
table = board.with_columns(
    pl.int_range(1, pl.len() + 1).alias("#"),
    pl.format(
        "{}% – {}%",
        (pl.col("win_low") * 100).round(0).cast(pl.Int64),
        (pl.col("win_high") * 100).round(0).cast(pl.Int64),
    ).alias("win rate interval"),
    pl.col("games_to_settle").map_elements(settle_words, return_dtype=pl.Utf8).alias("settled"),
).select(
    "#",
    pl.col("player"),
    pl.col("rating"),
    pl.col("skill"),
    "settled",
    pl.col("rating_change").alias("change"),
    "games",
    "wins",
    pl.col("win_rate").alias("win rate"),
    "win rate interval",
    pl.col("review_accuracy").alias("review accuracy"),
    pl.col("missed_wins").alias("missed wins"),
    pl.col("mean_turns_waited").alias("turns waited"),
    pl.col("last_played").alias("last played"),
    pl.col("player").map_elements(lambda n: "person?" + urlencode({"player": n}), return_dtype=pl.Utf8).alias("page"),
)
not_reviewed = [c for c in ("review accuracy", "missed wins", "turns waited") if table[c].is_null().all()]
# a player who never accused has no turns waited: a blank cell, not "None" (the column becomes text)
for column, fmt in (("review accuracy", "{:.0%}"), ("turns waited", "{:.2f}")):
    if column not in not_reviewed and table[column].null_count():
        table = table.with_columns(
            pl.col(column).map_elements(fmt.format, return_dtype=pl.Utf8, skip_nulls=True).fill_null("")
        )
st.dataframe(
    table.drop(not_reviewed),
    hide_index=True,
    width="stretch",
    column_config={
        "#": st.column_config.NumberColumn("#", pinned=True),
        "page": st.column_config.LinkColumn("page", display_text="open", help="the player's own page"),
        "player": st.column_config.TextColumn("player", width="medium", pinned=True),
        "rating": st.column_config.NumberColumn(
            "rating",
            format="%.1f",
            help="the skill the model is very sure the player is above: skill minus 3 times its uncertainty "
            "(openskill's ordinal, mu - 3 sigma), after the player's last selected game",
        ),
        "skill": st.column_config.TextColumn(
            "skill ± uncertainty", help="the model's estimate of the player's skill and its uncertainty (mu ± sigma)"
        ),
        "settled": st.column_config.TextColumn(
            "settled",
            help=f"provisional while the uncertainty is above {SETTLED_SIGMA:.0f}; the games it still needs, about",
        ),
        "change": st.column_config.NumberColumn(
            "change", format="%+.1f", help="rating after the last selected game minus before the first"
        ),
        "win rate": st.column_config.NumberColumn(format="percent"),
        "review accuracy": _column(
            table,
            "review accuracy",
            "percent",
            "the expected information of all their rated suggestions over the most the best suggestions "
            "could have had (summed over the games, not a mean of games)",
        ),
        "turns waited": _column(
            table, "turns waited", "%.2f", "own turns that ended after the player was certain, before accusing (mean)"
        ),
    },
)

if pool == "people":
    for pair in view["duplicates"]:
        st.caption(
            f"Maybe one person: **{md(pair['keep'])}** and **{md(pair['other'])}** ({duplicate_words(pair)}). "
            f"If so, merge the names: clue\\-stats players merge {md(shlex.quote(pair['keep']))} "
            f"{md(shlex.quote(pair['other']))} ("
            + help_link("league", "Help: names and merging", "names-and-merging")
            + ")."
        )

if not_reviewed:
    st.caption(
        f"No {', '.join(not_reviewed)} yet: the games were stored without the review (`clue-stats analyse`), "
        "or without the players' hands."
    )

top = board.head(CHART_PLAYERS).with_columns(
    (pl.col("mu") - 2 * pl.col("sigma")).alias("low"), (pl.col("mu") + 2 * pl.col("sigma")).alias("high")
)
order = top["player"].to_list()
base = alt.Chart(top).encode(y=alt.Y("player:N", sort=order, title=None))
st.altair_chart(
    (
        base.mark_rule(strokeWidth=2, opacity=0.5).encode(
            x=alt.X("low:Q", title="skill, ± 2 × its uncertainty (the dot: the rating)"),
            x2="high:Q",
        )
        + base.mark_tick(thickness=2, size=14).encode(x="mu:Q")
        + base.mark_point(filled=True, size=60).encode(
            x="rating:Q",
            tooltip=[
                "player:N",
                alt.Tooltip("rating:Q", format=".1f", title="rating (skill - 3 × uncertainty)"),
                alt.Tooltip("skill:N", title="skill ± uncertainty"),
                alt.Tooltip("games:Q", title="games"),
            ],
        )
    ).properties(height=90 + 26 * top.height),  # the axes take about 90 px of the height given
    width="stretch",
)
st.caption(
    f"The {top.height} highest rated. A bar is the range the player's skill is likely in (the skill ± twice "
    "its uncertainty; openskill's mu ± 2 sigma), the tick its centre, the dot the rating the table sorts by."
)

# ---------------------------------------------------------------- below the leaderboard
# the widgets first, each in its section; then one read for everything they ask for
players = board["player"].to_list()
leaders = board.head(MATRIX_PLAYERS)["player"].to_list()
over_time, one_player, matrix_box = st.container(), st.container(), st.container()
with over_time:
    st.subheader("Over time")
    chosen = st.multiselect(
        "Players", players, default=players[: min(COURSE_PLAYERS, len(players))], key="league_course_players"
    )
with one_player:
    st.subheader("One player")
    player = st.selectbox("Player", players, key="league_player")
details = read(queries.league_details, ctx.path, ctx.version, ctx.filters, pool, tuple(chosen), player, tuple(leaders))

with over_time:
    if chosen:
        course = details["history"].with_columns(
            (pl.col("mu") - 2 * pl.col("sigma")).alias("low"), (pl.col("mu") + 2 * pl.col("sigma")).alias("high")
        )
        colour = alt.Color("player:N", title="player", sort=chosen)
        x = alt.X("game:Q", title="the player's n-th game", axis=alt.Axis(tickMinStep=1, format="d"))
        band = alt.Chart(course).mark_area(opacity=0.15).encode(x=x, y="low:Q", y2="high:Q", color=colour)
        line = (
            alt.Chart(course)
            .mark_line(point=course.height <= 200)
            .encode(
                x=x,
                y=alt.Y("mu:Q", title="skill (band: ± 2 × uncertainty)"),
                color=colour,
                tooltip=[
                    "player:N",
                    alt.Tooltip("game:Q", title="game"),
                    alt.Tooltip("game_id:N", title="game"),
                    alt.Tooltip("played_at:N", title="played"),
                    alt.Tooltip("mu:Q", format=".1f", title="skill"),
                    alt.Tooltip("sigma:Q", format=".1f", title="uncertainty"),
                    alt.Tooltip("rating:Q", format=".1f", title="rating"),
                ],
            )
        )
        st.altair_chart((band + line).properties(height=300), width="stretch")
        reviewed = course.filter(pl.col("review_accuracy").is_not_null())
        if reviewed.height:
            st.altair_chart(
                alt.Chart(reviewed)
                .mark_line(point=reviewed.height <= 200)
                .encode(
                    x=x,
                    y=alt.Y("review_accuracy:Q", title="review accuracy", axis=alt.Axis(format="%")),
                    color=colour,
                    tooltip=[
                        "player:N",
                        alt.Tooltip("game:Q", title="game"),
                        alt.Tooltip("game_id:N", title="game"),
                        alt.Tooltip("review_accuracy:Q", format=".1%"),
                    ],
                )
                .properties(height=220),
                width="stretch",
            )
            st.caption(
                "Review accuracy of each game: the information the player's suggestions could expect to gain, "
                "over the most the best suggestions could have (1 = the best every time)."
            )
        else:
            st.caption(
                "No review accuracy for these players: their games were stored without their hands or not analysed."
            )

with one_player:
    if player is not None:
        if details["best"].height == 0:
            st.caption(
                f"No rated suggestion of {md(player)}: a suggestion is rated when the log holds the suggester's hand "
                "and the game was analysed."
            )
        else:
            for key, title in (("best", "Best suggestions"), ("worst", "Worst suggestions")):
                st.markdown(f"**{title}** of {md(player)}")
                picks = cards(
                    cards(details[key], "suggestion", ("suspect", "weapon", "room")),
                    "best_suggestion",
                    ("best_suspect", "best_weapon", "best_room"),
                )
                rows(
                    replay_links(picks)
                    .with_columns(pl.col("played_at").str.replace("T", " "))
                    .select(
                        "suggestion", "label", "bits_lost", "best_suggestion", "played_at", "edition", "line", "replay"
                    ),
                    first=("suggestion", "label", "bits_lost"),
                    links={"replay": "open replay"},
                    headers={"line": "line in the file"},
                )
        versus = details["versus"]
        st.markdown(f"**Head-to-head** of {md(player)}: games at one table, and who finished ahead")
        st.dataframe(
            versus.drop("player"),
            hide_index=True,
            width="stretch",
            column_config={
                "opponent": st.column_config.TextColumn("opponent", width="medium"),
                "ahead": st.column_config.NumberColumn(help="games in which the player finished ahead of the opponent"),
                "level": st.column_config.NumberColumn(help="games in which both ranked the same (both still in)"),
                "share_ahead": st.column_config.NumberColumn("ahead, of the games not level", format="percent"),
            },
        )

with matrix_box:
    if len(leaders) >= 2:
        st.subheader(f"Head-to-head of the {len(leaders)} highest rated")
        matrix = details["matrix"]
        st.altair_chart(
            alt.Chart(matrix)
            .mark_rect()
            .encode(
                x=alt.X("opponent:N", sort=leaders, title="opponent", axis=alt.Axis(labelAngle=-30, labelLimit=140)),
                y=alt.Y("player:N", sort=leaders, title="player", axis=alt.Axis(labelLimit=160)),
                color=alt.Color(
                    "share_ahead:Q",
                    title="ahead",
                    scale=alt.Scale(domain=[0, 1], scheme="redblue"),
                    legend=alt.Legend(format="%"),
                ),
                tooltip=[
                    "player:N",
                    "opponent:N",
                    "games:Q",
                    "ahead:Q",
                    "behind:Q",
                    "level:Q",
                    alt.Tooltip("share_ahead:Q", format=".0%", title="ahead, of the games not level"),
                ],
            )
            .properties(height=150 + 32 * len(leaders)),  # the rotated names under it take about 150 px
            width="stretch",
        )
        st.caption(
            "Each cell: of the games the two played together in which one finished ahead of the other, the share "
            "the row's player finished ahead (blue: mostly ahead, red: mostly behind; blank: never met)."
        )

# ---------------------------------------------------------------- strategies
# read only when asked: a scan of every seat, which the league above does not need
if st.toggle("Show the table by strategy (simulated and client games)", key="league_by_strategy"):
    by_strategy = read(queries.player_summary, ctx.path, ctx.version, ctx.filters, "strategy")
    if by_strategy.height == 0:
        st.caption("No player of the selection has a strategy recorded.")
    else:
        show(by_strategy.drop("mean_accuracy"))  # one accuracy: the review accuracy
