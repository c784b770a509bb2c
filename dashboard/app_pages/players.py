"""Players: the league of each rated pool (people, bots, simulations): the leaderboard, each player's
rating and review accuracy over time, their best and worst suggestions, and head-to-head."""

from __future__ import annotations

import shlex
from urllib.parse import urlencode

import altair as alt
import polars as pl
import streamlit as st

from clue_stats.analysis.corpus.league import SETTLED_SIGMA, settle_words
from clue_stats.analysis.corpus.ratings import duplicate_words
from clue_stats.analysis.words import N_, _, decimal, label_word, n_, number, percent, pool_words, when
from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.charts import altair_chart
from clue_stats.dashboard.app_pages.common import help_link, page_context, read, replay_links, require_games
from clue_stats.dashboard.app_pages.page_text import md
from clue_stats.dashboard.app_pages.tables import cards, rows, said, show
from clue_stats.dashboard.pages import page

CHART_PLAYERS = 25  # players in the ratings chart
COURSE_PLAYERS = 3  # players drawn over time by default
MATRIX_PLAYERS = 10  # players in the head-to-head matrix


ctx = page_context()
st.title(page("players").name)
# one read for the pools and the leaderboard of the pool asked for (the switch below sets it)
view = read(queries.league_view, ctx.path, ctx.version, ctx.filters, st.session_state.get("league_pool"))
require_games(view["selected"], ctx, N_("players"))
pools = view["pools"]
if pools.height == 0:
    st.info(
        _(
            "No rated game in the selection yet: ratings need games with two players or more, each person "
            "once at the table ({link})."
        ).format(link=help_link("league", _("Help: the league")))
    )
    st.stop()
options = pools["pool"].to_list()
if st.session_state.get("league_pool") not in options:
    st.session_state.pop("league_pool", None)  # a pool the filters no longer select
pool_names = {p: pool_words(p) for p in options}  # before the widget (docs/translating.md)
pool = st.segmented_control(
    _("League"), options, default=view["pool"], key="league_pool", format_func=lambda p: pool_names.get(p, p)
)
if pool is None:  # the switch clicked off: the pool shown stays
    pool = view["pool"]
board = view["board"] if pool == view["pool"] else read(queries.league_board, ctx.path, ctx.version, ctx.filters, pool)

size = pools.filter(pl.col("pool") == pool).row(0, named=True)
row = st.columns(4)
row[0].metric(_("Players"), number(board.height))
row[1].metric(_("Rated games"), number(size["games"]))
most = board["games"].max()
row[2].metric(_("Most games"), number(most if isinstance(most, int) else 0))
row[3].metric(
    _("Missed wins"),
    number(int(board["missed_wins"].sum())) if board["missed_wins"].is_not_null().any() else _("not reviewed"),
    help=_("games in which the player was certain of the solution, could still accuse, and did not win"),
)

# ---------------------------------------------------------------- the leaderboard
st.subheader(_("Leaderboard"))
st.caption(
    _(
        "Sorted by the rating: the skill the model is very sure a player is above (skill minus three times its "
        "uncertainty; everyone starts at 0). Skill is written with its uncertainty, 24 ± 6: after a few games "
        "the uncertainty is wide (it starts at 8), and a rating is provisional until it is down to {settled}, "
        "about a dozen games; close ratings with wide uncertainties do not tell two players apart. "
        "Win rate with its interval (95 %)."
    ).format(settled=number(round(SETTLED_SIGMA)))
    + " "
    + help_link("league", _("Help: the league"))
)
table = board.with_columns(
    pl.int_range(1, pl.len() + 1).alias("#"),
    pl.Series(
        "win rate interval",
        [
            _("{low} – {high}").format(low=percent(lo), high=percent(hi))
            for lo, hi in zip(board["win_low"].to_list(), board["win_high"].to_list())
        ],
        dtype=pl.Utf8,
    ),
    said(board, "games_to_settle", settle_words, "settled"),
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
table = table.drop(not_reviewed)
# a player who never accused has no turns waited: a blank cell, not "None" (the column becomes text)
for column, fmt in (("review accuracy", percent), ("turns waited", decimal)):
    if column in table.columns and table[column].null_count():
        table = table.with_columns(said(table, column, fmt).fill_null(""))
# the last game's date in words ("November 19, 2026"), as every date the pages show
table = table.with_columns(said(table, "last played", lambda v: when(str(v))))


def _signed(value: float) -> str:
    value = round(value, 1) + 0.0  # never "-0.0"
    return ("+" if value > 0 else "") + decimal(value, 1)


# every number as the reader's language writes it (the grid sorts by the values); a player who never
# accused has no turns waited: a blank cell
formats = {
    "#": number,
    "rating": lambda v: decimal(v, 1),
    "change": _signed,
    "games": number,
    "wins": number,
    "win rate": percent,
    "review accuracy": percent,
    "missed wins": number,
    "turns waited": decimal,
}
# the whole league, every column whole: a table on a wide screen, a card a player on a phone (a grid
# showed 10 of 16 rows in a box and cut the columns after "wins")
shown = table.with_columns(
    [
        pl.Series(c, [f(v) if v is not None else "" for v in table[c].to_list()], dtype=pl.Utf8)
        for c, f in formats.items()
        if c in table.columns and table[c].dtype.is_numeric()
    ]
)
rows(
    shown,
    ("#", "player"),
    links={"page": _("open")},
    headers={
        "#": "#",
        "player": _("player"),
        "rating": _("rating"),
        "skill": _("skill ± uncertainty"),
        "settled": _("settled"),
        "change": _("change"),
        "games": _("games"),
        "wins": _("wins"),
        "win rate": _("win rate"),
        "win rate interval": _("win rate interval"),
        "review accuracy": _("review accuracy"),
        "missed wins": _("missed wins"),
        "turns waited": _("turns waited"),
        "last played": _("last played"),
        "page": _("page"),
    },
    numeric=[c for c in formats if c in table.columns],
)

if pool == "people":
    for pair in view["duplicates"]:
        st.caption(
            _(
                "Maybe one person: **{keep}** and **{other}** ({why}). If so, merge the names: {command} ({link})."
            ).format(
                keep=md(pair["keep"]),
                other=md(pair["other"]),
                why=md(duplicate_words(pair)),
                command=md(f"clue-stats players merge {shlex.quote(pair['keep'])} {shlex.quote(pair['other'])}"),
                link=help_link("league", _("Help: names and merging"), "names-and-merging"),
            )
        )

if not_reviewed:
    missing = {
        "review accuracy": _("review accuracy"),
        "missed wins": _("missed wins"),
        "turns waited": _("turns waited"),
    }
    st.caption(
        _(
            "No {what} yet: the games were stored without the review (`clue-stats analyse`), or without the "
            "players' hands."
        ).format(what=", ".join(missing[c] for c in not_reviewed))
    )

top = board.head(CHART_PLAYERS).with_columns(
    (pl.col("mu") - 2 * pl.col("sigma")).alias("low"), (pl.col("mu") + 2 * pl.col("sigma")).alias("high")
)
order = top["player"].to_list()
base = alt.Chart(top).encode(y=alt.Y("player:N", sort=order, title=None))
altair_chart(
    (
        base.mark_rule(strokeWidth=2, opacity=0.5).encode(
            x=alt.X("low:Q", title=_("skill, ± 2 × its uncertainty (the dot: the rating)")),
            x2="high:Q",
        )
        + base.mark_tick(thickness=2, size=14).encode(x="mu:Q")
        + base.mark_point(filled=True, size=60).encode(
            x="rating:Q",
            tooltip=[
                alt.Tooltip("player:N", title=_("player")),
                alt.Tooltip("rating:Q", format=".1f", title=_("rating (skill - 3 × uncertainty)")),
                alt.Tooltip("skill:N", title=_("skill ± uncertainty")),
                alt.Tooltip("games:Q", title=_("games")),
            ],
        )
    ).properties(height=90 + 26 * top.height)  # the axes take about 90 px of the height given
)
st.caption(
    n_(
        top.height,
        "How to read this: the {n} highest rated. A bar is the range the player's skill is likely in (the skill "
        "± twice its uncertainty; openskill's mean mu ± 2 spreads sigma), the tick its centre, the dot the rating "
        "the table sorts by.",
        "How to read this: the {n} highest rated. A bar is the range the player's skill is likely in (the skill "
        "± twice its uncertainty; openskill's mean mu ± 2 spreads sigma), the tick its centre, the dot the rating "
        "the table sorts by.",
    )
)

# ---------------------------------------------------------------- below the leaderboard
# the widgets first, each in its section; then one read for everything they ask for
players = board["player"].to_list()
leaders = board.head(MATRIX_PLAYERS)["player"].to_list()
over_time, one_player, matrix_box = st.container(), st.container(), st.container()
with over_time:
    st.subheader(_("Over time"))
    chosen = st.multiselect(
        _("Players"), players, default=players[: min(COURSE_PLAYERS, len(players))], key="league_course_players"
    )
with one_player:
    st.subheader(_("One player"))
    player = st.selectbox(_("Player"), players, key="league_player")
details = read(queries.league_details, ctx.path, ctx.version, ctx.filters, pool, tuple(chosen), player, tuple(leaders))

with over_time:
    if chosen:
        course = details["history"].with_columns(
            (pl.col("mu") - 2 * pl.col("sigma")).alias("low"), (pl.col("mu") + 2 * pl.col("sigma")).alias("high")
        )
        colour = alt.Color("player:N", title=_("player"), sort=chosen)
        x = alt.X("game:Q", title=_("the player's n-th game"), axis=alt.Axis(tickMinStep=1, format="d"))
        band = alt.Chart(course).mark_area(opacity=0.15).encode(x=x, y="low:Q", y2="high:Q", color=colour)
        line = (
            alt.Chart(course)
            .mark_line(point=course.height <= 200)
            .encode(
                x=x,
                y=alt.Y("mu:Q", title=_("skill (band: ± 2 × uncertainty)")),
                color=colour,
                tooltip=[
                    alt.Tooltip("player:N", title=_("player")),
                    alt.Tooltip("game:Q", title=_("their n-th game")),
                    alt.Tooltip("game_id:N", title=_("game")),
                    alt.Tooltip("played_at:N", title=_("played on")),
                    alt.Tooltip("mu:Q", format=".1f", title=_("skill")),
                    alt.Tooltip("sigma:Q", format=".1f", title=_("uncertainty")),
                    alt.Tooltip("rating:Q", format=".1f", title=_("rating")),
                ],
            )
        )
        altair_chart((band + line).properties(height=300))
        st.caption(
            _(
                "How to read this: one line per player, their skill after each of their games, the band twice "
                "its uncertainty either side; the band narrows as the league learns more about them."
            )
        )
        reviewed = course.filter(pl.col("review_accuracy").is_not_null())
        if reviewed.height:
            altair_chart(
                alt.Chart(reviewed)
                .mark_line(point=reviewed.height <= 200)
                .encode(
                    x=x,
                    y=alt.Y("review_accuracy:Q", title=_("review accuracy"), axis=alt.Axis(format="%")),
                    color=colour,
                    tooltip=[
                        alt.Tooltip("player:N", title=_("player")),
                        alt.Tooltip("game:Q", title=_("their n-th game")),
                        alt.Tooltip("game_id:N", title=_("game")),
                        alt.Tooltip("review_accuracy:Q", format=".1%", title=_("review accuracy")),
                    ],
                )
                .properties(height=220)
            )
            st.caption(
                _(
                    "How to read this: the review accuracy of each game, the information the player's suggestions "
                    "could expect to gain over the most the best suggestions could have (100 % = the best every "
                    "time)."
                )
            )
        else:
            st.caption(
                _("No review accuracy for these players: their games were stored without their hands or not analysed.")
            )

with one_player:
    if player is not None:
        if details["best"].height == 0:
            st.caption(
                _(
                    "No rated suggestion of {player}: a suggestion is rated when the log holds the suggester's "
                    "hand and the game was analysed."
                ).format(player=md(player))
            )
        else:
            for key, title in (
                ("best", _("**Best suggestions** of {player}")),
                ("worst", _("**Worst suggestions** of {player}")),
            ):
                st.markdown(title.format(player=md(player)))
                picks = cards(
                    cards(details[key], "suggestion", ("suspect", "weapon", "room")),
                    "best_suggestion",
                    ("best_suspect", "best_weapon", "best_room"),
                )
                rows(
                    replay_links(picks)
                    .with_columns(said(picks, "played_at", when), said(picks, "label", label_word))
                    .select(
                        "suggestion", "label", "bits_lost", "best_suggestion", "played_at", "edition", "line", "replay"
                    ),
                    first=("suggestion", "label", "bits_lost"),
                    links={"replay": _("open replay")},
                    headers={"line": _("line in the file")},
                )
        versus = details["versus"]
        st.markdown(
            _("**Head-to-head** of {player}: games at one table, and who finished ahead").format(player=md(player))
        )
        show(
            versus.drop("player"),
            ("opponent",),
            column_config={
                "opponent": st.column_config.TextColumn(_("opponent"), width="medium", pinned=True),
                "ahead": st.column_config.NumberColumn(
                    _("they finished ahead"), help=_("games in which the player finished ahead of the opponent")
                ),
                "behind": st.column_config.NumberColumn(_("behind")),
                "level": st.column_config.NumberColumn(
                    _("level"), help=_("games in which both ranked the same (both still in)")
                ),
                "share_ahead": st.column_config.NumberColumn(_("ahead, of the games not level")),
            },
        )

with matrix_box:
    if len(leaders) >= 2:
        st.subheader(_("Head-to-head of the {n} highest rated").format(n=number(len(leaders))))
        matrix = details["matrix"]
        altair_chart(
            alt.Chart(matrix)
            .mark_rect()
            .encode(
                x=alt.X("opponent:N", sort=leaders, title=_("opponent"), axis=alt.Axis(labelAngle=-30, labelLimit=140)),
                y=alt.Y("player:N", sort=leaders, title=_("player"), axis=alt.Axis(labelLimit=160)),
                color=alt.Color(
                    "share_ahead:Q",
                    title=_("ahead"),
                    scale=alt.Scale(domain=[0, 1], scheme="redblue"),
                    legend=alt.Legend(format="%"),
                ),
                tooltip=[
                    alt.Tooltip("player:N", title=_("player")),
                    alt.Tooltip("opponent:N", title=_("opponent")),
                    alt.Tooltip("games:Q", title=_("games")),
                    alt.Tooltip("ahead:Q", title=_("they finished ahead")),
                    alt.Tooltip("behind:Q", title=_("behind")),
                    alt.Tooltip("level:Q", title=_("level")),
                    alt.Tooltip("share_ahead:Q", format=".0%", title=_("ahead, of the games not level")),
                ],
            )
            .properties(height=150 + 32 * len(leaders))  # the rotated names under it take about 150 px
        )
        st.caption(
            _(
                "How to read this: each cell, of the games the two played together in which one finished ahead of "
                "the other, the share the row's player finished ahead (blue: mostly ahead, red: mostly behind; "
                "blank: never met)."
            )
        )

# ---------------------------------------------------------------- strategies
# read only when asked: a scan of every seat, which the league above does not need
if st.toggle(_("Show the table by strategy (simulated and client games)"), key="league_by_strategy"):
    by_strategy = read(queries.player_summary, ctx.path, ctx.version, ctx.filters, "strategy")
    if by_strategy.height == 0:
        st.caption(_("No player of the selection has a strategy recorded."))
    else:
        show(by_strategy.drop("mean_accuracy"))  # one accuracy: the review accuracy
