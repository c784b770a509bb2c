"""Information: each observer's envelope entropy before and after every record that can teach
anyone something about the solution during play (suggestions, wrong accusations, reveals, peeks).

The computer is a pure function of the game and its entropy table (``engine.deduction.entropy_table``:
observer -> entropy after each seq). Gains telescope: between two such records nothing else changes
an observer's knowledge (turns, moves and clue-card draws teach nothing; the deals come before play),
so an observer's gains over a game add up to their entropy before the first row minus after the last.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from clue_stats.engine.game import Accuse, Event, Game, Peek, Reveal, Suggest

Observer = str | None  # a player's name, or None for the table


def is_informative(game: Game, record: Event) -> bool:
    """Suggestions, wrong accusations, reveals and peeks: the records that get an information row."""
    if isinstance(record, (Suggest, Reveal, Peek)):
        return True
    if isinstance(record, Accuse):
        if record.correct is not None:
            return not record.correct
        solution = game.solution()
        return solution is not None and tuple(solution) != record.cards
    return False


def informative_records(game: Game) -> list[Event]:
    return [r for r in game.records if is_informative(game, r)]


def information_rows(
    game: Game,
    entropies: Mapping[Observer, Sequence[float]],
    partial: Mapping[Observer, bool] | None = None,
) -> list[dict[str, Any]]:
    """One row per informative record and observer: entropy_before (after seq - 1), entropy_after
    (after seq) and gain_bits = before - after (signed; it can be negative)."""
    rows = []
    partial = partial or {}
    for record in informative_records(game):
        for observer, series in entropies.items():
            before, after = series[record.seq - 1], series[record.seq]
            rows.append(
                {
                    "game_id": game.game_id,
                    "seq": record.seq,
                    "observer": observer,
                    "type": record.type,
                    "entropy_before": before,
                    "entropy_after": after,
                    "gain_bits": before - after,
                    "partial_view": bool(partial.get(observer, False)),
                }
            )
    return rows
