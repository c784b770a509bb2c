"""Learn from your mistakes (issue 23.5): puzzles made from stored games, as lichess makes them.

A puzzle is a rated suggestion labelled mistake or blunder: the player's notebook just before it,
and the question "which suggestion would you make?". :func:`puzzles` lists them from the stored
columns (filtered by player and night, the player's own last night first); :func:`attempt` rates a
suggestion the reader chooses against the stored best one, exactly as the review rated the one
made (analysis.review.why counts its answers).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

import polars as pl

from clue_stats.analysis.computers import suggestions as review
from clue_stats.analysis.review import why
from clue_stats.engine import budget, deduction
from clue_stats.engine.game import Game, Suggest
from clue_stats.ingest.store import Store
from clue_stats.ingest.store.queries import puzzles as reads

PUZZLE_LABELS = ("mistake", "blunder")
LIMIT = 500  # puzzles listed for one choice


def puzzles(con: Store, player: str | None = None, night: str | None = None) -> pl.DataFrame:
    """The mistakes and blunders of the stored games as puzzles: game_id, seq, line, night,
    played_at, edition, player, the cards named and the best ones, bits lost, label, expected and
    best gain. A player's own last night first (when a player is given and no night), then newest
    night first, in record order."""
    return reads.labelled_suggestions(con, PUZZLE_LABELS, player, night, LIMIT)


@dataclass(frozen=True)
class Attempt:
    cards: tuple[str, str, str]  # ids
    expected_gain: float
    bits_lost: float  # against the stored best available gain
    label: str
    reason: str  # analysis.why's sentence: this suggestion's answers against the best one's


def candidate_rooms(game: Game, seq: int) -> tuple[str, ...]:
    """The rooms the suggester could name at record ``seq`` (their own, unless the room is chosen)."""
    record = game.records[seq - 1]
    assert isinstance(record, Suggest)
    return review.candidate_rooms(game, record)


def attempt(
    game: Game,
    seq: int,
    cards: tuple[str, str, str],
    best: tuple[str, str, str],
    best_gain: float,
    limits: budget.Limits | None = None,
) -> Attempt:
    """The reader's suggestion at the puzzle's moment, rated as the review rates: its expected gain
    from the suggester's knowledge just before record ``seq``, the bits it loses against the stored
    best available gain, its label, and why (may raise budget.BudgetExceeded)."""
    record = game.records[seq - 1]
    assert isinstance(record, Suggest)
    with budget.limited(limits) if limits is not None else contextlib.nullcontext():
        k = deduction.knowledge_timeline(game, record.player)[seq - 1]
        mine = why.asked(k, record.player, cards)
        theirs = why.asked(k, record.player, best)
    lost = max(0.0, best_gain - mine.expected_gain)
    sentence = why.sentence(game, why.Why(seq, record.player, mine, theirs))
    return Attempt(cards, mine.expected_gain, lost, review.label(lost), sentence)
