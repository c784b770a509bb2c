"""Accusation timing: how sure the accuser was, since when, and how many of their turns they let go
by (docs/analysis.md, "Accusations"); and, for every player, the first record after which they
were certain, accused or not.

Certainty is exact: one solution left among the observer's consistent deals. It is monotone (knowledge
only grows, so the set of consistent deals only shrinks), which lets the first certain record be
found with few exact counts: the entropy table rules out every record whose entropy is clearly above
0, and exact counts confirm the rest by bisection.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from clue_stats.engine import deduction
from clue_stats.engine.game import Accuse, Game, Suggest, Turn
from clue_stats.engine.knowledge import Knowledge

# An entropy above this is certainly not 0: one solution left gives 0 up to rounding (~1e-15).
NOT_CERTAIN_ABOVE = 1e-9


def is_certain(k: Knowledge) -> bool:
    """One solution left. The entropy (counted once per knowledge, and kept) rules out most
    knowledge without the count of every solution."""
    if deduction.envelope_entropy(k) > NOT_CERTAIN_ABOVE:
        return False
    return len(deduction.solution_counts(k)) == 1


def first_certain_seq(timeline: Sequence[Knowledge], entropies: Sequence[float] | None = None) -> int | None:
    """The first seq after which the knowledge (timeline[seq]) leaves one solution; None if never."""
    lo = 0
    if entropies is not None:
        lo = next((i for i, h in enumerate(entropies) if h <= NOT_CERTAIN_ABOVE), len(timeline))
    hi = len(timeline)
    if lo >= hi or not is_certain(timeline[hi - 1]):
        return None
    hi -= 1  # timeline[hi] is certain; find the first certain index in [lo, hi]
    while lo < hi:
        mid = (lo + hi) // 2
        if is_certain(timeline[mid]):
            hi = mid
        else:
            lo = mid + 1
    return lo


def p_correct(before: Knowledge, triple: tuple[str, str, str]) -> Fraction:
    """The accuser's probability of the accused solution, exactly (knowledge just before accusing)."""
    counts = deduction.solution_counts(before)
    total = sum(counts.values())
    return Fraction(counts.get(triple, 0), total) if total else Fraction(0)


def own_turns(game: Game, player: str) -> list[tuple[int, int]]:
    """The player's turns as [start, end) seq ranges. Turns are the ``turn`` records; in logs without
    them each suggestion starts a turn. A turn lasts until the next turn of anyone starts (or the
    game's records run out)."""
    kind = Turn if any(isinstance(r, Turn) for r in game.records) else Suggest
    starts = [(r.seq, r.player) for r in game.records if isinstance(r, kind)]
    last = len(game.records) + 1
    return [
        (seq, starts[i + 1][0] if i + 1 < len(starts) else last) for i, (seq, who) in enumerate(starts) if who == player
    ]


def turns_waited(game: Game, player: str, certain_seq: int | None, accusation_seq: int) -> int | None:
    """The accuser's own turns, other than the accusing one, that ended after ``certain_seq``
    (a turn ends where the next begins, so a turn whose last record made them certain counts: they
    could still have accused in it). None when they were not certain before accusing."""
    if certain_seq is None:
        return None
    waited = 0
    for start, end in own_turns(game, player):
        if start <= accusation_seq < end or start >= accusation_seq:
            continue  # the accusing turn, and anything after it
        if end > certain_seq:
            waited += 1
    return waited


def certainty(
    game: Game,
    timelines: Callable[[str], Sequence[Knowledge]],
    entropies: Mapping[str | None, Sequence[float]] | None = None,
) -> dict[str, int | None]:
    """player -> the first seq after which they were certain of the solution (None if never)."""
    return {name: first_certain_seq(timelines(name), entropies.get(name) if entropies else None) for name in game.names}


def accusation_columns(
    game: Game,
    timelines: Callable[[str], Sequence[Knowledge]],
    certain: dict[str, int | None],
) -> dict[int, dict[str, Any]]:
    """seq -> p_correct, first_certain_seq, turns_waited for every accusation. first_certain_seq
    here is the accuser's first certain record before the accusation (None if they accused unsure)."""
    out = {}
    for r in game.records:
        if not isinstance(r, Accuse):
            continue
        first = certain.get(r.player)
        if first is not None and first >= r.seq:
            first = None
        out[r.seq] = {
            "p_correct": float(p_correct(timelines(r.player)[r.seq - 1], r.cards)),
            "first_certain_seq": first,
            "turns_waited": turns_waited(game, r.player, first, r.seq),
        }
    return out


def missed_win(game: Game, player: str, certain_seq: int | None, won: bool, eliminated_seq: int | None) -> bool:
    """Whether the player missed a win (analysis.md, "Missed win"): certain at some record, not
    eliminated before it, with one of their own turns ending after it (a chance to accuse; a turn
    still running when the log ends counts as ended then), and not the winner."""
    if certain_seq is None or won:
        return False
    if eliminated_seq is not None and eliminated_seq <= certain_seq:
        return False
    return any(end > certain_seq for _, end in own_turns(game, player))
