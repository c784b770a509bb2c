"""Is a log consistent as a whole? The first record after which no deal fits everything logged.

This is the validator's view, not any player's: every record counts with all it says (all deals,
every shown card the log names, reveals to anyone, peeks, the set-aside room cards, and the
solution from a correct accusation or the end record). When a record leaves no deal, the earlier
records it contradicts are found by dropping, one at a time, every earlier record the contradiction
does not need: what is left is a minimal set (no record of it can go).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from clue_stats.engine import budget
from clue_stats.engine.counting import total_count
from clue_stats.engine.game import UNSEEN, Accuse, Deal, End, Game, Peek, Record, Reveal, RoomCards, Suggest
from clue_stats.engine.knowledge import ROOM_CARDS, Knowledge, initial_knowledge


def omniscient_update(game: Game, k: Knowledge, record: Record) -> dict[str, list[Any]] | None:
    """Everything the record says about the deal, as arguments for :meth:`Knowledge.updated`."""
    cards = k.card_index
    places = k.places
    if isinstance(record, Deal):
        if record.player not in places:
            return None
        p = places.index(record.player)
        hand = [cards[c] for c in record.cards if c in cards]
        rest = ((1 << len(cards)) - 1) & ~sum(1 << c for c in hand)
        return {"holds": [(p, c) for c in hand], "lacks": [(p, rest)]}
    if isinstance(record, Suggest):
        mask = sum(1 << cards[c] for c in set(record.cards) if c in cards)
        out: dict[str, list[Any]] = {"lacks": [], "holds": [], "clauses": []}
        for response in record.responses:
            if response.player not in places:
                continue
            q = places.index(response.player)
            if response.passed:
                out["lacks"].append((q, mask))
            elif response.shows != UNSEEN and response.shows in cards:
                out["holds"].append((q, cards[response.shows]))
            else:
                out["clauses"].append((q, mask))
        return out
    if isinstance(record, Accuse):
        if not all(c in cards for c in record.cards):
            return None
        triple = tuple(cards[c] for c in record.cards)
        if record.correct:
            return {"holds": [(0, c) for c in triple]}
        solution = game.solution()
        if record.correct is False or (solution is not None and tuple(solution) != record.cards):
            return {"excluded": [triple]}
        return None
    if isinstance(record, End):
        if record.solution is None or not all(c in cards for c in record.solution):
            return None
        return {"holds": [(0, cards[c]) for c in record.solution]}
    if isinstance(record, Reveal):
        if record.card == UNSEEN or record.card not in cards:
            return None
        c = cards[record.card]
        if record.player is None:
            nobody = {0} | ({places.index(ROOM_CARDS)} if ROOM_CARDS in places else set())
            return {"lacks": [(p, 1 << c) for p in range(len(places)) if p not in nobody]}
        if record.player not in places:
            return None
        return {"holds": [(places.index(record.player), c)]}
    if isinstance(record, Peek):
        if record.card in (None, UNSEEN) or record.card not in cards or ROOM_CARDS not in places:
            return None
        return {"holds": [(places.index(ROOM_CARDS), cards[record.card])]}
    if isinstance(record, RoomCards):
        if not record.cards or ROOM_CARDS not in places:
            return None
        where = places.index(ROOM_CARDS)
        return {"holds": [(where, cards[c]) for c in record.cards.values() if c in cards]}
    return None


def _consistent(k: Knowledge) -> bool:
    return k.consistent and total_count(k) > 0


def _knowledge_of(game: Game, base: Knowledge, records: Iterable[Record]) -> Knowledge:
    k = base
    for record in records:
        update = omniscient_update(game, k, record)
        if update:
            k = k.updated(**update)
            if not k.consistent:
                break
    return k


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
    k = base
    informative: list[Record] = []
    for record in game.records:
        update = omniscient_update(game, k, record)
        if not update:
            continue
        k = k.updated(**update)
        # the closure catches most contradictions; counting settles the rest
        try:
            consistent = _consistent(k)
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


def _culprits(game: Game, base: Knowledge, earlier: list[Record], last: Record) -> list[int]:
    # try the latest records first, so that among several minimal sets the one kept leans on the
    # earliest records (a deal rather than the passes that came after it)
    kept = list(earlier)
    for record in reversed(earlier):
        trial = [r for r in kept if r is not record]
        if not _consistent(_knowledge_of(game, base, [*trial, last])):
            kept = trial
    return [r.seq for r in kept]
