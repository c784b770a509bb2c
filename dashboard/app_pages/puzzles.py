"""Puzzles: learn from your mistakes, as lichess offers. Each puzzle is a mistake or blunder of a
stored game: the player's notebook just before it; choose a suggestion and see how much it would
have lost against the best, and why. By player and night; a player's own last night comes first."""

from __future__ import annotations

from urllib.parse import urlencode

import polars as pl
import streamlit as st

from clue_stats.analysis.puzzles import candidate_rooms
from clue_stats.analysis.suggestions import LABEL_COLOURS
from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.common import page_context, read, replay_url, require_games
from clue_stats.dashboard.app_pages.tables import rows
from clue_stats.dashboard.app_pages.words import md, percent
from clue_stats.dashboard.pages import page

ANY = "any"

ctx = page_context()
st.title(page("puzzles").title)
st.caption(
    "Each puzzle is a suggestion a player made that lost much information against the best one open to them (a "
    "mistake: up to 1 bit lost; a blunder: more). You see what that player knew just before it; choose the "
    "suggestion you would have made."
)
require_games(read(queries.selection_size, ctx.path, ctx.version, queries.GameFilter()), ctx, "puzzles")
everyone = read(queries.puzzle_list, ctx.path, ctx.version, None, None)
if not everyone["players"]:
    st.info(
        "No puzzle yet: puzzles are the mistakes and blunders of games whose logs hold the players' hands, "
        "reviewed by `clue-stats ingest` or `clue-stats analyse`."
    )
    st.stop()
left, right = st.columns(2)
player = left.selectbox("Player", everyone["players"], key="puzzle_player")
night = right.selectbox("Night", [ANY, *everyone["nights"]], key="puzzle_night", format_func=lambda n: n)
data = read(queries.puzzle_list, ctx.path, ctx.version, player, None if night == ANY else night)
found = data["puzzles"]
if found.height == 0:
    st.info(f"No mistake or blunder of {md(player)} on that night.")
    st.stop()
choices = list(range(found.height))


def _title(i: int) -> str:
    r = found.row(i, named=True)
    return f"{r['night'] or 'undated'} · {r['game_id']} · record {r['seq']} · {r['label']}"


which = st.selectbox(
    f"Puzzle ({found.height:,} of {md(player)}, the latest night first)", choices, format_func=_title, key="puzzle"
)
puzzle = found.row(which, named=True)
game_id, seq = puzzle["game_id"], int(puzzle["seq"])
where = f"record {seq}" + (f" (line {puzzle['line']} of its file)" if puzzle["line"] is not None else "")
st.markdown(
    f"**{md(player)}** is to suggest at {md(where)} of {md(game_id)} "
    f"({md(queries.edition_name(puzzle['edition']))}). What would you ask?"
)

# ---- what the player knew
notebook, missing = read(queries.notebook, ctx.path, ctx.version, game_id, player, seq - 1)
st.subheader(f"{player}'s notebook")
if notebook is None:
    st.warning(f"The notebook was not counted: {md(missing or '')}.")
else:
    known = (
        notebook.filter(pl.col("probability") >= 1 - 1e-12)
        .group_by("card")
        .agg(pl.col("place").first().alias("known place"))
    )
    table = (
        notebook.filter(pl.col("place") == "envelope")
        .select("card", "name", "category", pl.col("probability").alias("chance in the envelope"))
        .join(known, on="card", how="left")
        .with_columns(pl.col("known place").replace({"envelope": "the envelope", "room_cards": "room cards"}))
    )
    for category in ("suspects", "weapons", "rooms"):  # notebook_frame's categories
        part = table.filter(pl.col("category") == category).sort("chance in the envelope", descending=True)
        st.markdown(f"**{category.capitalize()}**")
        rows(
            part.select(
                pl.col("name").alias("card"),
                pl.col("chance in the envelope").map_elements(percent, return_dtype=pl.Utf8),
                pl.col("known place").fill_null("not known"),
            ),
            first=("card",),
        )
    st.caption(
        "How to read this: the chance, for this player with what they had seen, that the card is in the envelope "
        "(the solution), and where it surely is when they knew that (their own cards, cards shown to them, or deduced)."
    )

# ---- the reader's suggestion
st.subheader("Your suggestion")
game = read(queries.replay_game, ctx.path, ctx.version, game_id).game
deck = game.deck
rooms = candidate_rooms(game, seq)
cols = st.columns(3)
suspect = cols[0].selectbox("Suspect", deck.suspects, format_func=deck.name, key=f"puzzle_s_{game_id}_{seq}")
weapon = cols[1].selectbox("Weapon", deck.weapons, format_func=deck.name, key=f"puzzle_w_{game_id}_{seq}")
room = cols[2].selectbox(
    "Room", rooms, format_func=deck.name, key=f"puzzle_r_{game_id}_{seq}", disabled=len(rooms) == 1,
    help="the room the player stood in" if len(rooms) == 1 else None,
)  # fmt: skip
if st.button("Rate my suggestion", key="puzzle_rate"):
    best = (puzzle["best_suspect_id"], puzzle["best_weapon_id"], puzzle["best_room_id"])
    tried, too_costly = read(
        queries.puzzle_attempt, ctx.path, ctx.version, game_id, seq, (suspect, weapon, room), best, puzzle["best_gain_bits"]
    )  # fmt: skip
    if tried is None:
        st.warning(f"Not counted: {md(too_costly or '')}.")
    else:
        colour = LABEL_COLOURS.get(tried.label, "#999999")
        st.markdown(
            f"Yours: **{md(', '.join(deck.name(c) for c in tried.cards))}**: {tried.expected_gain:.2f} bits expected, "
            f"{tried.bits_lost:.2f} bits lost against the best, "
            f"<span style='color:{colour}'>●</span> **{md(tried.label)}**.",
            unsafe_allow_html=True,
        )
        st.markdown(md(tried.reason))
        played = ", ".join((puzzle["suspect"], puzzle["weapon"], puzzle["room"]))
        st.markdown(
            f"{md(player)} played {md(played)}: {puzzle['bits_lost']:.2f} bits lost, a {md(puzzle['label'])} "
            f"([see it in the replay]({replay_url(game_id, seq)}), [the game's review](review?{urlencode({'game': game_id})}))."
        )
