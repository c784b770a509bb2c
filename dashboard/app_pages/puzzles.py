"""Puzzles: learn from your mistakes, as lichess offers. Each puzzle is a mistake or blunder of a
stored game: the player's notebook just before it; choose a suggestion and see how much it would
have lost against the best, and why. By player and night; a player's own last night comes first."""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from clue_stats.analysis.computers.suggestions import LABEL_COLOURS
from clue_stats.analysis.corpus.puzzles import candidate_rooms
from clue_stats.analysis.words import N_, _, decimal, label_word, language, number, when
from clue_stats.analysis.words.records import Places
from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages import replay_charts
from clue_stats.dashboard.app_pages.charts import draw
from clue_stats.dashboard.app_pages.common import page_context, read, replay_url, require_games
from clue_stats.dashboard.app_pages.page_text import md
from clue_stats.dashboard.pages import page

ANY = "any"

ctx = page_context()
st.title(page("puzzles").name)
st.caption(
    _(
        "Each puzzle is a suggestion a player made that lost much information against the best one open to them "
        "(a mistake: up to 1 bit lost; a blunder: more). You see what that player knew just before it; choose the "
        "suggestion you would have made."
    )
)
require_games(read(queries.selection_size, ctx.path, ctx.version, queries.GameFilter()), ctx, N_("puzzles"))
everyone = read(queries.puzzle_list, ctx.path, ctx.version, None, None)
if not everyone["players"]:
    st.info(
        _(
            "No puzzle yet: puzzles are the mistakes and blunders of games whose logs hold the players' hands, "
            "reviewed by `clue-stats ingest` or `clue-stats analyse`."
        )
    )
    st.stop()
left, right = st.columns(2)
player = left.selectbox(_("Player"), everyone["players"], key="puzzle_player")
night_words = {ANY: _("any night"), **{n: when(n) or n for n in everyone["nights"]}}
night = right.selectbox(_("Night"), [ANY, *everyone["nights"]], key="puzzle_night", format_func=night_words.__getitem__)
data = read(queries.puzzle_list, ctx.path, ctx.version, player, None if night == ANY else night)
found = data["puzzles"]
if found.height == 0:
    st.info(_("No mistake or blunder of {player} on that night.").format(player=md(player)))
    st.stop()
choices = list(range(found.height))
titles = [
    " · ".join(
        [
            when(r["night"]) or _("undated"),
            r["game_id"],
            _("line {line}").format(line=r["line"])
            if r["line"] is not None
            else _("record {seq}").format(seq=r["seq"]),
            label_word(r["label"]),
        ]
    )
    for r in found.iter_rows(named=True)
]
which = st.selectbox(
    _("Puzzle ({count} of {player}, the latest night first)").format(count=number(found.height), player=md(player)),
    choices,
    format_func=titles.__getitem__,
    key="puzzle",
)
puzzle = found.row(which, named=True)
game_id, seq = puzzle["game_id"], int(puzzle["seq"])
game = read(queries.replay_game, ctx.path, ctx.version, game_id).game
places = Places.of(game)
st.markdown(
    _("**{player}** is to suggest at {where} of {game} ({edition}). What would you ask?").format(
        player=md(player),
        where=md(places(seq)),
        game=md(game_id),
        edition=md(queries.edition_name(puzzle["edition"])),
    )
)

# ---- what the player knew
notebook, missing = read(queries.notebook, ctx.path, ctx.version, game_id, player, seq - 1)
st.subheader(_("What {player} knew").format(player=md(player)))
if notebook is None:
    st.warning(_("The notebook was not counted: {reason}.").format(reason=md(missing or "")))
else:
    # the replay's notebook: a cell per card and place, the chance that the card is there
    cells = replay_charts.notebook_cells(notebook)
    draw(replay_charts.notebook, replay_charts.notebook_shape(game), {replay_charts.NOTEBOOK: cells})
    st.caption(
        _(
            "How to read this: each cell is the chance, in percent, that the card is in that place, for this "
            "player with what they had seen just before this suggestion (✔: certain; blank: impossible). The "
            "envelope's column is the solution: the cards still open there are what a suggestion can ask about."
        )
    )

# ---- the reader's suggestion
st.subheader(_("Your suggestion"))
deck = game.deck
rooms = candidate_rooms(game, seq)
cols = st.columns(3)
suspect = cols[0].selectbox(_("Suspect"), deck.suspects, format_func=deck.name, key=f"puzzle_s_{game_id}_{seq}")
weapon = cols[1].selectbox(_("Weapon"), deck.weapons, format_func=deck.name, key=f"puzzle_w_{game_id}_{seq}")
room = cols[2].selectbox(
    _("Room"), rooms, format_func=deck.name, key=f"puzzle_r_{game_id}_{seq}", disabled=len(rooms) == 1,
    help=_("the room the player stood in") if len(rooms) == 1 else None,
)  # fmt: skip
if st.button(_("Rate my suggestion"), key="puzzle_rate"):
    best = (puzzle["best_suspect_id"], puzzle["best_weapon_id"], puzzle["best_room_id"])
    tried, too_costly = read(
        queries.puzzle_attempt, ctx.path, ctx.version, game_id, seq, (suspect, weapon, room), best, puzzle["best_gain_bits"], language()
    )  # fmt: skip
    if tried is None:
        st.warning(_("Not counted: {reason}.").format(reason=md(too_costly or "")))
    else:
        colour = LABEL_COLOURS.get(tried.label, "#999999")
        st.markdown(
            _("Yours: **{cards}**: {expected} bits expected, {lost} bits lost against the best, {label}.").format(
                cards=md(", ".join(deck.name(c) for c in tried.cards)),
                expected=decimal(tried.expected_gain),
                lost=decimal(round(tried.bits_lost, 2) + 0.0),
                label=f"<span style='color:{colour}'>●</span> **{md(label_word(tried.label))}**",
            ),
            unsafe_allow_html=True,
        )
        st.markdown(md(tried.reason))
        played = ", ".join((puzzle["suspect"], puzzle["weapon"], puzzle["room"]))
        see_replay, see_review = _("see it in the replay"), _("the game’s review")
        st.markdown(
            _("{player} played {cards}: {lost} bits lost, {label} ({replay}, {review}).").format(
                player=md(player),
                cards=md(played),
                lost=decimal(round(puzzle["bits_lost"], 2) + 0.0),
                label=md(label_word(puzzle["label"])),
                replay=f"[{md(see_replay)}]({replay_url(game_id, seq)})",
                review=f"[{md(see_review)}](review?{urlencode({'game': game_id})})",
            )
        )
