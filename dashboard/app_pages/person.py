"""Player: one person of the people's league, from their first game: games and wins, the rating and
its history, review accuracy over time, how often each label, their best and worst suggestions
(linked into the game) and head-to-head. UI only: every figure is analysis.league's, read through
dashboard.queries; ``?player=Name`` opens a person."""

from __future__ import annotations

from urllib.parse import urlencode

import altair as alt
import polars as pl
import streamlit as st

from clue_stats.analysis.league import settle_words
from clue_stats.analysis.review_charts import label_scale
from clue_stats.analysis.suggestions import LABEL_ORDER
from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.common import help_link, page_context, read, replay_links, replay_url, require_games
from clue_stats.dashboard.app_pages.tables import cards, rows
from clue_stats.dashboard.app_pages.words import md
from clue_stats.dashboard.pages import PAGES, page

ctx = page_context()
st.title(page("person").title)
require_games(read(queries.selection_size, ctx.path, ctx.version, ctx.filters), ctx, "players")
first = read(queries.person_view, ctx.path, ctx.version, ctx.filters, st.session_state.get("person_choice") or "")
players = first["players"]
if not players:
    st.info(
        "No person has a rated game in the selection yet: the league rates people's games of two players or "
        "more (" + help_link("league", "Help: the league") + ")."
    )
    st.stop()
asked = st.query_params.get("player")
if st.session_state.get("person_choice") not in players:
    st.session_state["person_choice"] = asked if asked in players else players[0]
player = st.selectbox("Player", players, key="person_choice", help="the people of the league, highest rated first")
data = (
    first
    if first["row"] is not None and first["row"]["player"] == player
    else read(queries.person_view, ctx.path, ctx.version, ctx.filters, player)
)
me = data["row"]

row = st.columns(4)
row[0].metric("Games", f"{me['games']:,}")
row[1].metric("Wins", f"{me['wins']:,}", help=f"win rate {me['win_rate']:.0%}")
row[2].metric(
    "Rating", f"{me['rating']:.1f}", help="the skill the league is very sure they are above (skill - 3 × uncertainty)"
)
row[3].metric(
    "Review accuracy",
    "not reviewed" if me["review_accuracy"] is None else f"{me['review_accuracy']:.0%}",
    help="expected over best available information of all their rated suggestions",
)
st.caption(
    f"Skill {me['skill']} (the league's estimate and its uncertainty), {settle_words(me['games_to_settle'])}. "
    + help_link("league", "Help: the league")
)

# ---------------------------------------------------------------- over time
history: pl.DataFrame = data["history"]
st.subheader("Rating and review accuracy over time")
x = alt.X("game:Q", title="their n-th game", axis=alt.Axis(tickMinStep=1, format="d"))
course = history.with_columns(
    (pl.col("mu") - 2 * pl.col("sigma")).alias("low"), (pl.col("mu") + 2 * pl.col("sigma")).alias("high")
)
tooltip = [
    alt.Tooltip("game:Q", title="game"),
    alt.Tooltip("game_id:N", title="game id"),
    alt.Tooltip("rating:Q", format=".1f", title="rating"),
    alt.Tooltip("mu:Q", format=".1f", title="skill"),
    alt.Tooltip("sigma:Q", format=".1f", title="uncertainty"),
]
st.altair_chart(
    (
        alt.Chart(course).mark_area(opacity=0.15).encode(x=x, y="low:Q", y2="high:Q")
        + alt.Chart(course)
        .mark_line(point=True)
        .encode(x=x, y=alt.Y("mu:Q", title="skill (band: ± 2 × uncertainty)"), tooltip=tooltip)
        + alt.Chart(course).mark_line(strokeDash=[4, 3], color="#888").encode(x=x, y="rating:Q", tooltip=tooltip)
    ).properties(height=260),
    width="stretch",
)
st.caption(
    "The line is the skill after each game, the band twice its uncertainty either side, the dashed line the rating."
)
reviewed = history.filter(pl.col("review_accuracy").is_not_null())
if reviewed.height:
    st.altair_chart(
        alt.Chart(reviewed)
        .mark_line(point=True)
        .encode(
            x=x,
            y=alt.Y(
                "review_accuracy:Q", title="review accuracy", axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])
            ),
            tooltip=[
                alt.Tooltip("game:Q", title="game"),
                alt.Tooltip("review_accuracy:Q", format=".0%", title="review accuracy"),
            ],
        )
        .properties(height=200),
        width="stretch",
    )
    st.caption(
        "Review accuracy of each game: what their suggestions could expect to learn, over the most the best ones could (1 = the best every time)."
    )

# ---------------------------------------------------------------- labels and suggestions
labels: pl.DataFrame = data["labels"]
if labels.height:
    st.subheader("Their suggestions by label")
    st.altair_chart(
        alt.Chart(labels)
        .mark_bar()
        .encode(
            x=alt.X("label:N", sort=list(LABEL_ORDER), title=None, axis=alt.Axis(labelAngle=0)),
            y=alt.Y("suggestions:Q", title="suggestions", axis=alt.Axis(tickMinStep=1, format="d")),
            color=alt.Color("label:N", scale=label_scale(), legend=None),
            tooltip=["label:N", "suggestions:Q"],
        )
        .properties(height=220),
        width="stretch",
    )
    st.caption(
        "Each rated suggestion labelled by the bits it lost against the best one available then (best green … blunder red)."
    )
    slugs = {p.slug for p in PAGES}
    target = "review" if "review" in slugs else "replay"
    for key, title in (("best", "Best suggestions"), ("worst", "Worst suggestions")):
        st.markdown(f"**{title}** of {md(player)}")
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
            links.with_columns(pl.col("played_at").str.replace("T", " ")).select(
                "suggestion", "label", "bits_lost", "best_suggestion", "played_at", "edition", "line", "replay"
            ),
            first=("suggestion", "label", "bits_lost"),
            links={"replay": "open the game"},
            headers={"line": "line in the file"},
        )
else:
    st.caption(
        f"No rated suggestion of {md(player)}: a suggestion is rated when the log holds the suggester's hand and the game was analysed."
    )

# ---------------------------------------------------------------- head-to-head and games
st.subheader("Head-to-head")
versus: pl.DataFrame = data["versus"]
rows(
    versus.drop("player").with_columns(
        pl.col("share_ahead").map_elements(lambda v: f"{v:.0%}", return_dtype=pl.Utf8, skip_nulls=True)
    ),
    first=("opponent", "games"),
    headers={
        "ahead": "they finished ahead",
        "behind": "behind",
        "level": "level",
        "share ahead": "ahead, of the games not level",
    },
)
st.caption(
    "Games at one table with each opponent, and who finished ahead (by the ranks the league rates: the winner first, the eliminated last)."
)

st.subheader("Games")
games: pl.DataFrame = data["games"]
rows(
    games.with_columns(
        pl.col("played_at").str.replace("T", " "),
        pl.when(pl.col("won"))
        .then(pl.lit("won"))
        .when(pl.col("rank") == 2)
        .then(pl.lit("still in at the end"))
        .otherwise(pl.lit("out: a wrong accusation"))
        .alias("result"),
        (pl.col("rating_after") - pl.col("rating_before"))
        .map_elements(lambda v: f"{v:+.1f}", return_dtype=pl.Utf8)
        .alias("rating change"),
        pl.Series("replay", [replay_url(g, None) for g in games["game_id"]], dtype=pl.Utf8),
    ).select("played_at", "result", "edition", "players", "rating change", "game_id", "replay"),
    first=("played_at", "result"),
    links={"replay": "open replay"},
    headers={"game_id": "game", "players": "players at the table"},
)
