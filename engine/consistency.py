"""Is a log consistent as a whole? The first record after which no deal fits everything logged.

This is the validator's view, not any player's: every record counts with all it says (all deals,
every shown card the log names, reveals to anyone, peeks, the set-aside room cards, and the
solution from a correct accusation or the end record). When a record leaves no deal, the earlier
records it contradicts are found by dropping, one at a time, every earlier record the contradiction
does not need: what is left is a minimal set (no record of it can go).
"""

from __future__ import annotations

from collections.abc import Iterable

from clue_stats.engine import budget
from clue_stats.engine.counting import total_count
from clue_stats.engine.game import Accuse, End, Event, Game, Reveal, RoomCards
from clue_stats.engine.knowledge import ROOM_CARDS, Knowledge, Lessons, Update, initial_knowledge


class _AllItSays(Lessons):
    """Everything a record says about the deal, given the knowledge ``k`` before it (set before each
    record), as arguments for :meth:`Knowledge.updated` (None: nothing): the validator's view, an
    observer who sees every hand and every card shown, and the solution where the log gives it."""

    def __init__(self, game: Game, k: Knowledge):
        super().__init__(game, None, k)

    def sees(self, player: str | None) -> bool:
        return True

    def told(self, r: Reveal) -> bool:
        return True

    def visit_accuse(self, r: Accuse) -> Update | None:
        cards = self.k.card_index
        if not all(c in cards for c in r.cards):
            return None
        triple = tuple(cards[c] for c in r.cards)
        if r.correct:
            return {"holds": [(0, c) for c in triple]}
        solution = self.game.solution()
        if r.correct is False or (solution is not None and tuple(solution) != r.cards):
            return {"excluded": [triple]}
        return None

    def visit_end(self, r: End) -> Update | None:
        cards = self.k.card_index
        if r.solution is None or not all(c in cards for c in r.solution):
            return None
        return {"holds": [(0, cards[c]) for c in r.solution]}

    def visit_room_cards(self, r: RoomCards) -> Update | None:
        cards, places = self.k.card_index, self.k.places
        if not r.cards or ROOM_CARDS not in places:
            return None
        where = places.index(ROOM_CARDS)
        return {"holds": [(where, cards[c]) for c in r.cards.values() if c in cards]}


def _consistent(k: Knowledge) -> bool:
    return k.consistent and total_count(k) > 0


def _knowledge_of(game: Game, base: Knowledge, records: Iterable[Event]) -> Knowledge:
    says = _AllItSays(game, base)
    for record in records:
        update = says.visit(record)
        if update:
            says.k = says.k.updated(**update)
            if not says.k.consistent:
                break
    return says.k


def first_inconsistent(game: Game) -> tuple[int, list[int] | None] | None:
    """The first seq after which no deal is consistent with the log, and a minimal set of earlier
    seqs that together with it leave no deal (empty when the record contradicts the hand sizes
    alone); None if the whole log is consistent.

    Under a budget (engine.budget): when counting stops before the contradiction is found, the
    BudgetExceeded is raised with its ``seq``, the record whose consistency was being checked;
    when it stops while the earlier records are searched, the set is None (the budget's
    ``exceeded`` says why)."""
    try:
        base = initial_knowledge(game)
    except ValueError:
        return None  # the deck and hand sizes disagree: the rules engine reports that, not this
    says = _AllItSays(game, base)
    informative: list[Event] = []
    for record in game.records:
        update = says.visit(record)
        if not update:
            continue
        says.k = says.k.updated(**update)
        # the closure catches most contradictions; counting settles the rest
        try:
            consistent = _consistent(says.k)
        except budget.BudgetExceeded as exc:
            exc.seq = record.seq
            raise
        if not consistent:
            try:
                return record.seq, _culprits(game, base, informative, record)
            except budget.BudgetExceeded:
                return record.seq, None
        informative.append(record)
    return None


def _culprits(game: Game, base: Knowledge, earlier: list[Event], last: Event) -> list[int]:
    # try the latest records first, so that among several minimal sets the one kept leans on the
    # earliest records (a deal rather than the passes that came after it)
    kept = list(earlier)
    for record in reversed(earlier):
        trial = [r for r in kept if r is not record]
        if not _consistent(_knowledge_of(game, base, [*trial, last])):
            kept = trial
    return [r.seq for r in kept]
