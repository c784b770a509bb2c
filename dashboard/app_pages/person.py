"""Player: one person of the people's league, from their first game: games and wins, the rating and
its history, review accuracy over time, how often each label, their best and worst suggestions
(linked into the game) and head-to-head. UI only: every figure is analysis.league's, read through
dashboard.queries; ``?player=Name`` opens a person."""

from __future__ import annotations

from urllib.parse import urlencode

import altair as alt
import polars as pl
import streamlit as st

from clue_stats.analysis.computers.suggestions import LABEL_ORDER
from clue_stats.analysis.corpus.league import settle_words
from clue_stats.analysis.review.charts import label_scale
from clue_stats.analysis.words import N_, _, decimal, label_word, number, percent, when
from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.charts import altair_chart
from clue_stats.dashboard.app_pages.common import help_link, page_context, read, replay_links, replay_url, require_games
from clue_stats.dashboard.app_pages.page_text import md
from clue_stats.dashboard.app_pages.tables import cards, rows, said
from clue_stats.dashboard.pages import PAGES, page

ctx = page_context()
st.title(page("person").name)
require_games(read(queries.selection_size, ctx.path, ctx.version, ctx.filters), ctx, N_("players"))
first = read(queries.person_view, ctx.path, ctx.version, ctx.filters, st.session_state.get("person_choice") or "")
players = first["players"]
if not players:
    st.info(
        _(
            "No person has a rated game in the selection yet: the league rates people's games of two players or "
            "more ({link})."
        ).format(link=help_link("league", _("Help: the league")))
    )
    st.stop()
asked = st.query_params.get("player")
if st.session_state.get("person_choice") not in players:
    st.session_state["person_choice"] = asked if asked in players else players[0]
player = st.selectbox(
    _("Person"), players, key="person_choice", help=_("the people of the league, highest rated first")
)
data = (
    first
    if first["row"] is not None and first["row"]["player"] == player
    else read(queries.person_view, ctx.path, ctx.version, ctx.filters, player)
)
me = data["row"]

row = st.columns(4)
row[0].metric(_("Games"), number(me["games"]))
row[1].metric(_("Wins"), number(me["wins"]), help=_("win rate {rate}").format(rate=percent(me["win_rate"])))
row[2].metric(
    _("Rating"),
    decimal(me["rating"], 1),
    help=_("the skill the league is very sure they are above (skill - 3 × uncertainty)"),
)
row[3].metric(
    _("Review accuracy"),
    "–" if me["review_accuracy"] is None else percent(me["review_accuracy"]),
    help=_("expected over best available information of all their rated suggestions")
    if me["review_accuracy"] is not None
    else _("not reviewed: no suggestion of theirs is rated (no log holds their hand, or the games were not analysed)"),
)
st.caption(
    _("Skill {skill} (the league's estimate and its uncertainty), {settled}.").format(
        skill=me["skill"], settled=settle_words(me["games_to_settle"])
    )
    + " "
    + help_link("league", _("Help: the league"))
)

# ---------------------------------------------------------------- over time
history: pl.DataFrame = data["history"]
st.subheader(_("Rating and review accuracy over time"))
x = alt.X("game:Q", title=_("their n-th game"), axis=alt.Axis(tickMinStep=1, format="d"))
course = history.with_columns(
    (pl.col("mu") - 2 * pl.col("sigma")).alias("low"), (pl.col("mu") + 2 * pl.col("sigma")).alias("high")
)
tooltip = [
    alt.Tooltip("game:Q", title=_("their n-th game")),
    alt.Tooltip("game_id:N", title=_("game")),
    alt.Tooltip("rating:Q", format=".1f", title=_("rating")),
    alt.Tooltip("mu:Q", format=".1f", title=_("skill")),
    alt.Tooltip("sigma:Q", format=".1f", title=_("uncertainty")),
]
altair_chart(
    (
        alt.Chart(course).mark_area(opacity=0.15).encode(x=x, y="low:Q", y2="high:Q")
        + alt.Chart(course)
        .mark_line(point=True)
        .encode(x=x, y=alt.Y("mu:Q", title=_("skill")), tooltip=tooltip)  # the caption says the band
        + alt.Chart(course).mark_line(strokeDash=[4, 3], color="#888").encode(x=x, y="rating:Q", tooltip=tooltip)
    ).properties(height=260)
)
st.caption(
    _(
        "How to read this: the line is the skill after each game, the band twice its uncertainty either side, "
        "the dashed line the rating."
    )
)
reviewed = history.filter(pl.col("review_accuracy").is_not_null())
if reviewed.height:
    altair_chart(
        alt.Chart(reviewed)
        .mark_line(point=True)
        .encode(
            x=x,
            y=alt.Y(
                "review_accuracy:Q",
                title=_("review accuracy"),
                axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1]),
            ),
            tooltip=[
                alt.Tooltip("game:Q", title=_("their n-th game")),
                alt.Tooltip("review_accuracy:Q", format=".0%", title=_("review accuracy")),
            ],
        )
        .properties(height=200)
    )
    st.caption(
        _(
            "How to read this: the review accuracy of each game, what their suggestions could expect to learn over "
            "the most the best ones could (100 % = the best every time)."
        )
    )

# ---------------------------------------------------------------- labels and suggestions
labels: pl.DataFrame = data["labels"]
if labels.height:
    st.subheader(_("Their suggestions by label"))
    altair_chart(
        alt.Chart(labels.with_columns(said(labels, "label", label_word)))
        .mark_bar()
        .encode(
            x=alt.X("label:N", sort=[label_word(x) for x in LABEL_ORDER], title=None, axis=alt.Axis(labelAngle=0)),
            y=alt.Y("suggestions:Q", title=_("suggestions"), axis=alt.Axis(tickMinStep=1, format="d")),
            color=alt.Color("label:N", scale=label_scale(words=True), legend=None),
            tooltip=[
                alt.Tooltip("label:N", title=_("label")),
                alt.Tooltip("suggestions:Q", title=_("suggestions")),
            ],
        )
        .properties(height=220)
    )
    st.caption(
        _(
            "How to read this: each rated suggestion labelled by the bits it lost against the best one available "
            "then (best green … blunder red)."
        )
    )
    slugs = {p.slug for p in PAGES}
    target = "review" if "review" in slugs else "replay"
    for key, title in (
        ("best", _("**Best suggestions** of {player}")),
        ("worst", _("**Worst suggestions** of {player}")),
    ):
        st.markdown(title.format(player=md(player)))
        picks = cards(
            cards(data[key], "suggestion", ("suspect", "weapon", "room")),
            "best_suggestion",
            ("best_suspect", "best_weapon", "best_room"),
        )
        links = (
            replay_links(picks)
            if target == "replay"
            else picks.with_columns(
                pl.Series(
                    "replay",
                    [f"review?{urlencode({'game': g, 'seq': int(s)})}" for g, s in zip(picks["game_id"], picks["seq"])],
                    dtype=pl.Utf8,
                )
            )
        )
        rows(
            links.with_columns(said(links, "played_at", when), said(links, "label", label_word)).select(
                "suggestion", "label", "bits_lost", "best_suggestion", "played_at", "edition", "line", "replay"
            ),
            first=("suggestion", "label", "bits_lost"),
            links={"replay": _("open the game")},
            headers={"line": _("line in the file")},
        )
else:
    st.caption(
        _(
            "No rated suggestion of {player}: a suggestion is rated when the log holds the suggester's hand and the "
            "game was analysed."
        ).format(player=md(player))
    )

# ---------------------------------------------------------------- head-to-head and games
st.subheader(_("Head-to-head"))
versus: pl.DataFrame = data["versus"]
rows(
    versus.drop("player").with_columns(said(versus, "share_ahead", percent)),
    first=("opponent", "games"),
    headers={
        "opponent": _("opponent"),
        "ahead": _("they finished ahead"),
        "behind": _("behind"),
        "level": _("level"),
        "share_ahead": _("ahead, of the games not level"),
    },
)
st.caption(
    _(
        "Games at one table with each opponent, and who finished ahead (by the ranks the league rates: the winner "
        "first, the eliminated last)."
    )
)

st.subheader(_("Games"))
games: pl.DataFrame = data["games"]
results = [
    _("won") if won else _("still in at the end") if rank == 2 else _("out: a wrong accusation")
    for won, rank in zip(games["won"].to_list(), games["rank"].to_list())
]
changes = [
    None if a is None or b is None else ("+" if round(a - b, 1) > 0 else "") + decimal(round(a - b, 1) + 0.0, 1)
    for a, b in zip(games["rating_after"].to_list(), games["rating_before"].to_list())
]
rows(
    games.with_columns(
        said(games, "played_at", when),
        pl.Series("result", results, dtype=pl.Utf8),
        pl.Series("rating_change", changes, dtype=pl.Utf8),
        pl.Series("replay", [replay_url(g, None) for g in games["game_id"]], dtype=pl.Utf8),
    ).select("played_at", "result", "edition", "players", "rating_change", "game_id", "replay"),
    first=("played_at", "result"),
    links={"replay": _("open replay")},
    headers={
        "game_id": _("game"),
        "players": _("players at the table"),
        "result": _("result"),
        "rating_change": _("rating change"),
    },
)
