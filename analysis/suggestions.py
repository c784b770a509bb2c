"""Suggestions: expected gain, best available gain, accuracy and a word for each, as a chess engine
labels moves (analysis.md, "Expected gain of a suggestion").

All from the suggester's knowledge just before the suggestion (after seq - 1). The expected gain is
never more than the best available gain: the suggestion made is one of the candidates.

Candidates: where the suggestion's room is where the suggester stands (board editions, flag
``suggest_room = "current"``), every suspect and weapon in that room; where the room is chosen
(``suggest_room = "chosen"``), every suspect, weapon and room.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clue_stats.analysis.accusations import is_certain
from clue_stats.engine import deduction
from clue_stats.engine.game import Game, Suggest
from clue_stats.engine.knowledge import Knowledge

Triple = tuple[str, str, str]

# Labels by accuracy (docs/analysis.md): the lowest accuracy that earns each word, best first.
LABELS: tuple[tuple[str, float], ...] = (("best", 0.999), ("good", 0.8), ("inaccurate", 0.5), ("poor", 0.0))
# Below this many bits no suggestion could teach anything: every candidate is as good as any.
NOTHING_TO_LEARN = 1e-9
# Gains closer than this are equal (they are sums of floats over the same exact counts).
TIE = 1e-12


def label(accuracy: float) -> str:
    for word, threshold in LABELS:
        if accuracy >= threshold:
            return word
    return LABELS[-1][0]


def candidate_rooms(game: Game, record: Suggest) -> tuple[str, ...]:
    """The rooms the suggester could have named: their own, unless the variant lets them choose."""
    if game.flags.get("suggest_room") == "chosen":
        return game.deck.rooms
    return (record.room,)


def accuracy(expected_gain: float, best_gain: float) -> float:
    """expected / best, 1 when nothing could be learned; capped at 1 against rounding (the gains
    come from sums of floats, and the suggestion made is itself a candidate)."""
    if best_gain <= NOTHING_TO_LEARN:
        return 1.0
    return max(0.0, min(1.0, expected_gain / best_gain))


def score(game: Game, record: Suggest, before: Knowledge, deep: bool) -> dict[str, Any]:
    """The analysis columns of one suggestion, given the suggester's knowledge before it; without
    ``deep`` only the expected gain (the best available gain is the costly part)."""
    # a suggester who already knows the solution can learn nothing from any suggestion: every
    # candidate gains exactly 0, so none needs to be counted
    certain = is_certain(before)
    gain = 0.0 if certain else deduction.expected_gain(before, record.player, record.cards)
    out: dict[str, Any] = {
        "expected_gain_bits": gain,
        "best_gain_bits": None,
        "best_suspect": None,
        "best_weapon": None,
        "best_room": None,
        "accuracy": None,
        "label": None,
    }
    if not deep:
        return out
    if certain:
        best_gain, best = 0.0, record.cards
    else:
        best_gain, best = deduction.best_suggestion(before, record.player, candidate_rooms(game, record))
    if best_gain <= gain + TIE:
        # the suggestion made is itself a candidate: when it is as good as the best (up to rounding
        # between equal candidates), it is the one named best
        best_gain, best = max(best_gain, gain), record.cards
    acc = accuracy(gain, best_gain)
    out.update(
        best_gain_bits=best_gain,
        best_suspect=best[0],
        best_weapon=best[1],
        best_room=best[2],
        accuracy=acc,
        label=label(acc),
    )
    return out


def suggestion_columns(
    game: Game, knowledge_before: Callable[[str | None, int], Knowledge], deep: bool = True
) -> dict[int, dict[str, Any]]:
    """seq -> analysis columns, for every suggestion of the game."""
    return {
        r.seq: score(game, r, knowledge_before(r.player, r.seq), deep) for r in game.records if isinstance(r, Suggest)
    }
