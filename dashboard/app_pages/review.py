"""Game review: one game as a chess site reviews one: each player's game in figures, the race to the
solution, and every suggestion in one list with its label, each a link into the replay at its record.

Opened at a game by its address (``review?game=ID``), as the other pages link to it.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from clue_stats.analysis.computers.suggestions import LABEL_COLOURS, NOT_RATED, NOT_RATED_COLOUR
from clue_stats.analysis.report.sections import negative_gain
from clue_stats.analysis.review.charts import race_chart
from clue_stats.analysis.review.rows import race_caption
from clue_stats.analysis.words import N_, _, decimal, label_word, language, when
from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.charts import altair_chart
from clue_stats.dashboard.app_pages.common import (
    NO_ANALYSIS,
    choose_game,
    help_link,
    no_such_game,
    page_context,
    read,
    replay_url,
)
from clue_stats.dashboard.app_pages.page_text import md
from clue_stats.dashboard.app_pages.tables import rows
from clue_stats.dashboard.pages import page
from clue_stats.ingest.store.schema import REVIEW_COLUMNS

ctx = page_context()
st.title(page("review").name)

game_id = choose_game(ctx, "review", N_("games to review"))
try:
    review = read(queries.game_review, ctx.path, ctx.version, game_id, language())
except queries.GameNotFound:
    no_such_game(game_id)
brief = review["brief"]
places = review["places"]
facts = [brief.edition, when(brief.played_at) or _("undated"), ", ".join(p.name for p in brief.players)]
won = _("**{winner}** won").format(winner=md(brief.winner)) if brief.winner else md(_("nobody won"))
open_replay = _("open the replay")
st.markdown(" · ".join([md(" · ".join(facts)), won, f"[{md(open_replay)}]({replay_url(game_id, None)})"]))
if not brief.analysed:
    st.info(_("This game was stored without analysis: `clue-stats analyse` computes its review."))
for cut in brief.over_budget:
    st.warning(_("Left out over the counting budget: {what}.").format(what=md(cut)))


def label_words(label: str | None) -> str | None:
    """A stored label (or "not rated") in the reader's language."""
    if label is None:
        return None
    return _("not rated") if label == NOT_RATED else label_word(label)


# each label's dot in its colour on the one scale, by its word in the reader's language
LABEL_DOTS = {label_words(label) or label: colour for label, colour in LABEL_COLOURS.items()}
LABEL_DOTS[_("not rated")] = NOT_RATED_COLOUR

# ---------------------------------------------------------------- each player's game
st.subheader(_("The players"))
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
        "labels": _("suggestions by label"),
        "gained_vs_expected_bits": _("learned − expected (bits)"),
        "given_away_bits": _("gave away (bits)"),
        "missed_win": _("missed win"),
    },
)
st.caption(
    _(
        "How to read this: **review accuracy** is the information the player's suggestions could expect to gain "
        "over the most the best suggestions open to them could have (100 % = the best every time); then how many "
        "of their suggestions earned each label. **Learned − expected**: the bits their answers actually taught "
        "them less the bits they could expect (above 0: lucky answers). **Gave away**, as a refuter: the bits they "
        "let others learn by showing a more telling card than they had to, when they held two of the named cards. "
        "A **missed win**: certain of the solution, with a turn to accuse, and did not win. Blank: the log does not "
        "hold the player's hand, so their suggestions are not rated ({help})."
    ).format(help=help_link("analysis", _("Help: the analysis")))
)

# ---------------------------------------------------------------- the race to the solution
st.subheader(_("The race to the solution"))
race = review["race"]
if not race.lines:
    st.info(
        _("The uncertainty over the game was not computed: {reason}.").format(
            reason=md(review["missing"] or _("not analysed"))
        )
    )
else:
    altair_chart(race_chart(race))
    st.caption(race_caption())

# ---------------------------------------------------------------- key moments (the report's, as computed)
st.subheader(_("Key moments"))
moments = review["moments"]
if not moments:
    st.caption(_("No record changed what the players knew.") if brief.analysed else _(NO_ANALYSIS))
else:
    names = list(review["names"])
    table = pl.DataFrame(
        [
            {
                "record": places(m.seq),
                "what": m.what + (f" “{m.note}”" if m.note else ""),
                **{f"gain {k}": m.gains.get(n) for k, n in enumerate(names)},
                "table": m.table_gain,
                "moved": m.moved,
                "replay": replay_url(game_id, m.seq),
            }
            for m in moments
        ],
        infer_schema_length=None,
    )
    bits_columns = [f"gain {k}" for k in range(len(names))] + ["table", "moved"]
    shown = table.with_columns(
        [
            pl.Series(c, ["" if v is None else decimal(round(v, 2) + 0.0) for v in table[c].to_list()], dtype=pl.Utf8)
            for c in bits_columns
        ]
    )
    rows(
        shown,
        first=("record", "what"),
        links={"replay": _("open")},
        headers={
            "record": _("in the file"),
            "what": _("what happened"),
            **{f"gain {k}": n for k, n in enumerate(names)},
            "table": _("table"),
            "moved": _("moved"),
            "replay": _("replay"),
        },
        numeric=bits_columns,
    )
    st.caption(
        _(
            "The records that moved the players’ entropies the most (sum of every player’s change, in bits; "
            "positive = learned)."
        )
        + " "
        + negative_gain()
    )

# ---------------------------------------------------------------- every suggestion
st.subheader(_("Every suggestion"))
suggestions = review["suggestions"]
if suggestions.height == 0:
    st.caption(_("No suggestion in this game."))
else:
    listed = suggestions.with_columns(
        pl.Series("replay", [replay_url(game_id, s) for s in suggestions["seq"].to_list()], dtype=pl.Utf8),
        pl.Series("record", [places(s) for s in suggestions["seq"].to_list()], dtype=pl.Utf8),
        pl.Series("label", [label_words(x) for x in suggestions["label"].to_list()], dtype=pl.Utf8),
    )
    rows(
        # every column the review shows with a suggestion is declared once (ingest.store.schema.REVIEW_COLUMNS)
        listed.select("player", "suggestion", "label", *REVIEW_COLUMNS, "answer", "best_instead", "record", "replay"),
        first=("player", "suggestion", "label"),
        links={"replay": _("open")},
        headers={
            "answer": _("answer"),
            "best_instead": _("best suggestion instead"),
            "record": _("where in the file"),
            "replay": _("replay"),
        },
        colours={"label": LABEL_DOTS},
    )
    st.caption(
        _(
            "How to read this: the label says how much information a suggestion gave up against the best one open "
            "to the player at that moment, in bits: best (nothing), good (up to 0.2), inaccuracy (0.5), mistake (1), "
            "blunder (more). **Answer**: who showed a card, and which when the log's writer saw it (the suggester "
            "and the one who showed it see it; the others see only that a card was shown). Each link opens the "
            "replay at that record."
        )
    )
    st.caption(
        _(
            "Why a lucky suggestion can still be an inaccuracy: the label judges the choice, by what its answers "
            "could be expected to teach before anyone answered, not by the answer it happened to get. A suggestion "
            "nobody could answer may tell the player the solution and win the game, and still be an inaccuracy "
            "when another suggestion would, on average over the answers it could get, have taught more."
        )
    )

# ---------------------------------------------------------------- why, in words
whys = review["whys"]
if whys or review["whys_missing"]:
    st.subheader(_("Why the best was better"))
    lost = suggestions.filter(pl.col("seq").is_in(list(whys))).sort("seq")
    for row in lost.iter_rows(named=True):
        st.markdown(
            "- "
            + _("{where}, **{label}**, {bits} bits lost: {why}").format(
                where=f"[{md(places(row['seq'], start=True))}]({replay_url(game_id, row['seq'])})",
                label=md(label_words(row["label"])),
                bits=md(decimal(row["bits_lost"])),
                why=md(whys[row["seq"]]),
            )
        )
    if review["whys_missing"]:
        st.caption(_("Not every reason was counted: {reason}.").format(reason=md(review["whys_missing"])))
    st.caption(
        _(
            "How to read this: every chance is exact, the share of the deals the player could not yet rule out "
            "that give that answer. A card whose place the player already knew teaches nothing when it is shown; "
            "naming one of your own cards asks only about the other two."
        )
    )
