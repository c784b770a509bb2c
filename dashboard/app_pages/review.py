"""Game review: one game as a chess site reviews one: each player's game in figures, the race to the
solution, and every suggestion in one list with its label, each a link into the replay at its record.

Opened at a game by its address (``review?game=ID``), as the other pages link to it.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from clue_stats.analysis.game_review import race_caption
from clue_stats.analysis.review_charts import race_chart
from clue_stats.analysis.suggestions import LABEL_COLOURS, NOT_RATED, NOT_RATED_COLOUR
from clue_stats.analysis.words import N_
from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.common import choose_game, help_link, no_such_game, page_context, read, replay_url
from clue_stats.dashboard.app_pages.tables import rows
from clue_stats.dashboard.app_pages.words import md
from clue_stats.dashboard.pages import page

LABEL_DOTS = {**LABEL_COLOURS, NOT_RATED: NOT_RATED_COLOUR}

ctx = page_context()
st.title(page("review").title)

game_id = choose_game(ctx, "review", N_("games to review"))
try:
    review = read(queries.game_review, ctx.path, ctx.version, game_id)
except queries.GameNotFound:
    no_such_game(game_id)
brief = review["brief"]
facts = [brief.edition, brief.played_at or "undated", ", ".join(p.name for p in brief.players)]
st.markdown(
    md(" · ".join(facts))
    + " · "
    + (f"**{md(brief.winner)}** won" if brief.winner else "nobody won")
    + f" · [open the replay]({replay_url(game_id, None)})"
)
if not brief.analysed:
    st.info("This game was stored without analysis: `clue-stats analyse` computes its review.")
for cut in brief.over_budget:
    st.warning(f"Left out over the counting budget: {md(cut)}.")

# ---------------------------------------------------------------- each player's game
st.subheader("The players")
players = review["players"]
rows(
    players.select(
        "player",
        "review_accuracy",
        "labels",
        "gained_vs_expected_bits",
        "given_away_bits",
        "missed_win",
    ),
    first=("player", "review_accuracy"),
    headers={
        "labels": "suggestions by label",
        "gained_vs_expected_bits": "learned − expected (bits)",
        "given_away_bits": "gave away (bits)",
        "missed_win": "missed win",
    },
)
st.caption(
    "How to read this: **review accuracy** is the information the player's suggestions could expect to gain over "
    "the most the best suggestions open to them could have (100 % = the best every time); then how many of their "
    "suggestions earned each label. **Learned − expected**: the bits their answers actually taught them less "
    "the bits they could expect (above 0: lucky answers). **Gave away**, as a refuter: the bits they let others learn "
    "by showing a more telling card than they had to, when they held two of the named cards. A **missed win**: "
    "certain of the solution, with a turn to accuse, and did not win. Blank: the log does not hold the player's "
    "hand, so their suggestions are not rated (" + help_link("analysis", "Help: the analysis") + ")."
)

# ---------------------------------------------------------------- the race to the solution
st.subheader("The race to the solution")
race = review["race"]
if not race.lines:
    st.info(f"The uncertainty over the game was not computed: {md(review['missing'] or 'not analysed')}.")
else:
    st.altair_chart(race_chart(race), width="stretch")
    st.caption(race_caption())

# ---------------------------------------------------------------- every suggestion
st.subheader("Every suggestion")
suggestions = review["suggestions"]
if suggestions.height == 0:
    st.caption("No suggestion in this game.")
else:
    listed = suggestions.with_columns(
        pl.Series("replay", [replay_url(game_id, s) for s in suggestions["seq"].to_list()], dtype=pl.Utf8),
        pl.format("{} (line {})", "seq", "line").fill_null(pl.col("seq").cast(pl.Utf8)).alias("record"),
    )
    rows(
        listed.select("player", "suggestion", "label", "bits_lost", "answer", "best_instead", "record", "replay"),
        first=("player", "suggestion", "label"),
        links={"replay": "open in the replay"},
        headers={"best_instead": "best suggestion instead", "record": "record (line in the file)"},
        colours={"label": LABEL_DOTS},
    )
    st.caption(
        "How to read this: the label says how much information a suggestion gave up against the best one open to the "
        "player at that moment, in bits: best (nothing), good (up to 0.2), inaccuracy (0.5), mistake (1), blunder "
        "(more). It judges the choice, by what the answers could be expected to teach, not the luck of the answer "
        "it got: a suggestion nobody could answer may win the game and still be an inaccuracy, when another would "
        "have been expected to teach more. Each link opens the replay at that record."
    )

# ---------------------------------------------------------------- why, in words
whys = review["whys"]
if whys or review["whys_missing"]:
    st.subheader("Why the best was better")
    lost = suggestions.filter(pl.col("seq").is_in(list(whys))).sort("seq")
    for row in lost.iter_rows(named=True):
        where = f"record {row['seq']}" + (f" (line {row['line']})" if row["line"] is not None else "")
        st.markdown(
            f"- [{md(where)}]({replay_url(game_id, row['seq'])}), **{md(row['label'])}**, "
            f"{row['bits_lost']:.2f} bits lost: {md(whys[row['seq']])}"
        )
    if review["whys_missing"]:
        st.caption(f"Not every reason was counted: {md(review['whys_missing'])}.")
    st.caption(
        "How to read this: every chance is exact, the share of the deals the player could not yet rule out that give "
        "that answer. A card whose place the player already knew teaches nothing when it is shown; naming one of "
        "your own cards asks only about the other two."
    )
