"""The exact deduction engine: the public names others code against.

For any observer of a game (each player, and the table: a spectator who holds no cards) and any point
in the game, the engine counts every deal consistent with what that observer has seen: the joint
distribution over solutions, each card's chance per place, the envelope entropy. See
docs/deduction.md for what is counted and why it is exact.

- knowledge: :func:`observers`, :func:`knowledge_timeline`, :func:`knowledge_at`, :func:`partial_view`
- counting: :func:`count`, :func:`solution_counts`, :func:`envelope_entropy`, :func:`entropy_table`
- suggestions: :func:`answers`, :func:`expected_gain` (the definition, one count per refuter);
  :func:`candidate_gains` (every candidate of a moment counted together: engine.gains),
  :func:`best_suggestion` and :func:`best_of` (the best of them), :func:`suggestion_gain` (one
  candidate counted as :func:`candidate_gains` counts it, to the last bit)
- the validator: :func:`first_inconsistent`
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from clue_stats.engine.answers import Answer, answers, expected_gain
from clue_stats.engine.consistency import first_inconsistent
from clue_stats.engine.counting import (
    Counts,
    clear_caches,
    count,
    entropy_of,
    envelope_entropy,
    solution_counts,
    total_count,
)
from clue_stats.engine.gains import best_of, best_suggestion, candidate_gains, suggestion_gain
from clue_stats.engine.game import Game
from clue_stats.engine.knowledge import (
    ENVELOPE,
    ROOM_CARDS,
    TABLE,
    Knowledge,
    knowledge_at,
    knowledge_timeline,
    observers,
    partial_view,
)

__all__ = [
    "TABLE",
    "ENVELOPE",
    "ROOM_CARDS",
    "Answer",
    "Counts",
    "Knowledge",
    "answers",
    "clear_caches",
    "best_of",
    "best_suggestion",
    "candidate_gains",
    "count",
    "entropy_of",
    "entropy_table",
    "envelope_entropy",
    "expected_gain",
    "first_inconsistent",
    "knowledge_at",
    "knowledge_timeline",
    "observers",
    "partial_view",
    "solution_counts",
    "suggestion_gain",
    "total_count",
]


def entropy_table(
    game: Game, timeline: Callable[[str | None], Sequence[Knowledge]] | None = None
) -> dict[str | None, list[float]]:
    """Observer -> envelope entropy after each record (index = seq, 0 the game record).

    ``timeline``: observer -> :func:`knowledge_timeline`, when the caller has built them (they are
    built here otherwise). Work is shared: equal knowledge (the closed, canonical form) is counted
    once, across observers and records.
    """
    table: dict[str | None, list[float]] = {}
    for observer in observers(game):
        row: list[float] = []
        last: Knowledge | None = None
        h = math.nan
        for k in timeline(observer) if timeline is not None else knowledge_timeline(game, observer):
            if k is not last:
                h, last = envelope_entropy(k), k
            row.append(h)
        table[observer] = row
    return table
