"""What one observer of a game knows: the deals still possible, as facts, clauses and ruled-out solutions.

Knowledge is kept in a closed, canonical form: every fact that follows from the others without any
assumption about behaviour is applied (a clause with one possible card left names it, a full hand
excludes every other card, a category with one possible envelope card puts it there, ...). Two
observers who can tell the same deals apart therefore hold equal (and equally hashed) knowledge,
which is what lets the counting engine cache by knowledge.

Cards are indexed in deck order (suspects, weapons, rooms); places are indexed with the envelope at
0, then the players in seat order, then the duel's set-aside room cards. A card's possible places are
a bit mask over place indices; a clause is (player index, mask of cards), "that player holds at
least one of these cards". The closure (the rules applied until nothing changes) is compiled code:
engine/_kernels.pyx, ``close``, says the rules.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from clue_stats.engine import _kernels
from clue_stats.engine.editions import Deck
from clue_stats.engine.game import (
    ALL,
    UNSEEN,
    Accuse,
    Deal,
    Event,
    Game,
    Peek,
    Reveal,
    SomeRecordsVisitor,
    Suggest,
)

TABLE = None  # the table observer: a spectator who holds no cards
ENVELOPE = "envelope"
ROOM_CARDS = "room_cards"


def _bits(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True)
class Knowledge:
    """An observer's knowledge, closed under the rules above; immutable and hashable."""

    deck: Deck
    places: tuple[str, ...]  # "envelope", player names in seat order, ["room_cards"]
    sizes: tuple[int, ...]  # cards per place (the envelope holds 3)
    allowed: tuple[int, ...]  # per card: bit mask of the places it may be in
    clauses: frozenset[tuple[int, int]]  # (player index, card mask): holds at least one
    excluded: frozenset[tuple[int, int, int]]  # card indices of solutions ruled out
    consistent: bool = True
    _hash: int = field(default=0, compare=False, repr=False)

    def __post_init__(self) -> None:
        key = (self.deck, self.places, self.sizes, self.allowed, self.clauses, self.excluded, self.consistent)
        object.__setattr__(self, "_hash", hash(key))

    def __hash__(self) -> int:
        return self._hash

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def initial(
        cls, deck: Deck, players: tuple[str, ...], hand_sizes: tuple[int, ...], room_cards: int = 0
    ) -> Knowledge:
        """Hand sizes only: every card may be anywhere its category allows."""
        places = (ENVELOPE, *players) + ((ROOM_CARDS,) if room_cards else ())
        sizes = (3, *hand_sizes) + ((room_cards,) if room_cards else ())
        if sum(sizes) != len(deck.cards):
            raise ValueError(f"places hold {sum(sizes)} cards, the deck has {len(deck.cards)}")
        everywhere = (1 << len(places)) - 1
        return _closed(deck, places, sizes, [everywhere] * len(deck.cards), set(), set())

    def updated(
        self,
        holds: Iterable[tuple[int, int]] = (),
        lacks: Iterable[tuple[int, int]] = (),
        clauses: Iterable[tuple[int, int]] = (),
        excluded: Iterable[tuple[int, int, int]] = (),
    ) -> Knowledge:
        """This knowledge plus new facts, by index: (place, card) held, (place, card mask) lacked,
        (player, card mask) clauses, excluded solutions; closed again. Facts it holds already
        return this knowledge itself (a closure would give it back equal, at a cost)."""
        if not self.consistent:
            return self
        allowed = list(self.allowed)
        for place, card in holds:
            allowed[card] &= 1 << place
        for place, mask in lacks:
            for card in _bits(mask):
                allowed[card] &= ~(1 << place)
        clauses, excluded = list(clauses), list(excluded)
        if tuple(allowed) == self.allowed and self._implies(clauses, excluded):
            return self
        return _closed(
            self.deck,
            self.places,
            self.sizes,
            allowed,
            set(self.clauses) | set(clauses),
            set(self.excluded) | set(excluded),
        )

    def _implies(self, clauses: list[tuple[int, int]], excluded: list[tuple[int, int, int]]) -> bool:
        """Whether the clauses and excluded solutions add nothing to this (closed) knowledge: each
        solution excluded already, each clause met by a card known held or containing a clause
        held (its cards restricted to those the player may hold), as the closure would find."""
        if any(t not in self.excluded for t in excluded):
            return False
        allowed = self.allowed
        for p, mask in clauses:
            bit = 1 << p
            m = 0
            for card in _bits(mask):
                if allowed[card] == bit:
                    break  # met
                if allowed[card] & bit:
                    m |= 1 << card
            else:
                if not any(q == p and n & ~m == 0 for q, n in self.clauses):
                    return False
        return True

    # -- by name ------------------------------------------------------------------------------

    @property
    def card_index(self) -> dict[str, int]:
        return self.deck.card_index

    def place_index(self, place: str | None) -> int:
        return self.places.index(ENVELOPE if place is None else place)

    def card_mask(self, cards: Iterable[str]) -> int:
        mask = 0
        for card in cards:
            mask |= 1 << self.card_index[card]
        return mask

    def with_holds(self, place: str, card: str) -> Knowledge:
        return self.updated(holds=[(self.places.index(place), self.card_index[card])])

    def with_lacks(self, place: str, cards: Iterable[str]) -> Knowledge:
        return self.updated(lacks=[(self.places.index(place), self.card_mask(cards))])

    def with_clause(self, player: str, cards: Iterable[str]) -> Knowledge:
        return self.updated(clauses=[(self.places.index(player), self.card_mask(cards))])

    def without_solution(self, triple: tuple[str, str, str]) -> Knowledge:
        s, w, r = (self.card_index[c] for c in triple)
        return self.updated(excluded=[(s, w, r)])

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(p for p in self.places if p not in (ENVELOPE, ROOM_CARDS))

    def possible(self, card: str) -> frozenset[str]:
        """The places the card may be in."""
        mask = self.allowed[self.card_index[card]]
        return frozenset(self.places[p] for p in _bits(mask))

    def holder(self, card: str) -> str | None:
        """The place known to hold the card, if it is known."""
        mask = self.allowed[self.card_index[card]]
        return self.places[mask.bit_length() - 1] if mask and mask & (mask - 1) == 0 else None

    @property
    def facts(self) -> frozenset[tuple[str, str, bool]]:
        """(card, place, holds): a known place, else every place the card is known not to be in."""
        out = set()
        everywhere = (1 << len(self.places)) - 1
        for card, mask in zip(self.deck.cards, self.allowed):
            if mask and mask & (mask - 1) == 0:
                out.add((card, self.places[mask.bit_length() - 1], True))
            else:
                for p in _bits(everywhere & ~mask):
                    out.add((card, self.places[p], False))
        return frozenset(out)

    @property
    def clause_list(self) -> list[tuple[str, tuple[str, ...]]]:
        cards = self.deck.cards
        return sorted((self.places[p], tuple(cards[c] for c in _bits(m))) for p, m in self.clauses)

    @property
    def excluded_solutions(self) -> frozenset[tuple[str, str, str]]:
        cards = self.deck.cards
        return frozenset((cards[s], cards[w], cards[r]) for s, w, r in self.excluded)

    def category_indices(self) -> tuple[range, range, range]:
        ns, nw = len(self.deck.suspects), len(self.deck.weapons)
        return range(0, ns), range(ns, ns + nw), range(ns + nw, len(self.deck.cards))


def _closed(
    deck: Deck,
    places: tuple[str, ...],
    sizes: tuple[int, ...],
    allowed: list[int],
    clauses: set[tuple[int, int]],
    excluded: set[tuple[int, int, int]],
) -> Knowledge:
    # every derived fact applied until nothing changes (compiled: engine/_kernels.pyx ``close`` says
    # the rules); None when no deal is left
    closed = _kernels.close(len(deck.suspects), len(deck.weapons), sizes, allowed, clauses, excluded)
    if closed is None:
        return Knowledge(deck, places, sizes, tuple([0] * len(allowed)), frozenset(), frozenset(), consistent=False)
    allowed, clauses, excluded = closed
    return Knowledge(deck, places, sizes, tuple(allowed), frozenset(clauses), frozenset(excluded))


# -- knowledge from a game --------------------------------------------------------------------------


def observers(game: Game) -> list[str | None]:
    """Every player by name, in seat order, then the table."""
    return [*game.names, TABLE]


def partial_view(game: Game, observer: str | None) -> bool:
    """True for a player whose hand the log does not hold (their view is only partly known)."""
    return observer is not None and observer not in game.hands()


def initial_knowledge(game: Game) -> Knowledge:
    return Knowledge.initial(game.deck, game.names, tuple(game.hand_sizes), game.room_card_count)


def _solution_known_wrong(game: Game, record: Accuse) -> bool:
    # an accusation logged without `correct`: the table saw whether it was right, and the log's
    # solution tells which (this is not the solution itself leaking into anyone's knowledge)
    if record.correct is not None:
        return record.correct is False
    solution = game.solution()
    return solution is not None and tuple(solution) != record.cards


Update = dict[str, list[Any]]  # arguments for Knowledge.updated


class Lessons(SomeRecordsVisitor[Update | None]):
    """What each record teaches one observer (None: nothing), as arguments for :meth:`Knowledge.updated`,
    given their knowledge ``k`` before it (set before each record). The game record, room_cards, turn,
    move, clue_card, statement, end and extensions teach an observer nothing. What the observer sees
    is :meth:`sees` and :meth:`told` (engine.consistency's validator sees everything)."""

    def __init__(self, game: Game, observer: str | None, k: Knowledge):
        self.game, self.observer, self.k = game, observer, k

    def sees(self, player: str | None) -> bool:
        """Whether the observer sees what ``player`` sees: their own hand, a card shown to them."""
        return player is not None and player == self.observer

    def told(self, r: Reveal) -> bool:
        return r.to == ALL or any(self.sees(p) for p in r.to) or self.sees(r.player)

    def otherwise(self, r: Event) -> Update | None:
        return None

    def visit_deal(self, r: Deal) -> Update | None:
        k = self.k
        if not self.sees(r.player) or r.player not in k.places:
            return None
        cards = k.card_index
        p = k.places.index(r.player)
        hand = [cards[c] for c in r.cards if c in cards]
        rest = ((1 << len(cards)) - 1) & ~sum(1 << c for c in hand)
        return {"holds": [(p, c) for c in hand], "lacks": [(p, rest)]}

    def visit_suggest(self, r: Suggest) -> Update | None:
        k = self.k
        cards = k.card_index
        mask = sum(1 << cards[c] for c in set(r.cards) if c in cards)
        out: Update = {"lacks": [], "holds": [], "clauses": []}
        for response in r.responses:
            if response.player not in k.places:
                continue
            q = k.places.index(response.player)
            if response.passed:
                out["lacks"].append((q, mask))
            elif (
                response.shows != UNSEEN
                and response.shows in cards
                and (self.sees(r.player) or self.sees(response.player))
            ):
                out["holds"].append((q, cards[response.shows]))
            else:
                out["clauses"].append((q, mask))
        return out

    def visit_accuse(self, r: Accuse) -> Update | None:
        cards = self.k.card_index
        if _solution_known_wrong(self.game, r) and all(c in cards for c in r.cards):
            return {"excluded": [tuple(cards[c] for c in r.cards)]}
        return None

    def visit_reveal(self, r: Reveal) -> Update | None:
        k = self.k
        cards = k.card_index
        if r.card == UNSEEN or r.card not in cards or not self.told(r):
            return None
        c = cards[r.card]
        if r.player is None:  # in nobody's hand: not the envelope's either, nor set on a room
            nobody = 1 | (1 << k.places.index(ROOM_CARDS) if ROOM_CARDS in k.places else 0)
            return {"lacks": [(p, 1 << c) for p in range(len(k.places)) if not nobody >> p & 1]}
        if r.player not in k.places:
            return None
        return {"holds": [(k.places.index(r.player), c)]}

    def visit_peek(self, r: Peek) -> Update | None:
        k = self.k
        cards = k.card_index
        if not self.sees(r.player) or r.card in (None, UNSEEN) or r.card not in cards or ROOM_CARDS not in k.places:
            return None
        return {"holds": [(k.places.index(ROOM_CARDS), cards[r.card])]}


def record_update(game: Game, k: Knowledge, record: Event, observer: str | None) -> Update | None:
    """What the record teaches the observer, as arguments for :meth:`Knowledge.updated` (None: nothing)."""
    return Lessons(game, observer, k).visit(record)


def _learn(game: Game, observer: str | None, records: Iterable[Event]) -> Iterator[Knowledge]:
    """The observer's knowledge before the first record, then after each of ``records``."""
    lessons = Lessons(game, observer, initial_knowledge(game))
    yield lessons.k
    for record in records:
        update = lessons.visit(record)
        if update:
            lessons.k = lessons.k.updated(**update)
        yield lessons.k


def knowledge_timeline(game: Game, observer: str | None, records: int | None = None) -> list[Knowledge]:
    """Index i: the observer's knowledge after the record with seq i (0: the game record); of the
    first ``records`` records only, when given."""
    return list(_learn(game, observer, game.records if records is None else game.records[:records]))


def knowledge_at(game: Game, observer: str | None, seq: int) -> Knowledge:
    """The observer's knowledge after the record with seq `seq` (records past it are not read)."""
    if not 0 <= seq <= len(game.records):
        raise IndexError(f"seq {seq} is not in the game (0 to {len(game.records)})")
    (k,) = deque(_learn(game, observer, game.records[:seq]), maxlen=1)  # the last, none before it held
    return k
