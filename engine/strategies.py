"""Strategies for simulated players: where to go, what to suggest, what to show, when to accuse.

Each strategy is small and is documented for users in docs/strategies.md. All of them keep a
:class:`Notebook` (own hand, cards shown to them, passes, and who showed something to whom) because
that is what any player at the table writes down; they differ in how they use it.

A strategy is named by a spec: ``name`` or ``name:threshold``. Without a threshold a player accuses
only when certain; with one (0 < threshold <= 1) it also accuses when its estimate of being right
reaches the threshold (``notebook:0.5``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from clue_stats.engine.editions import Deck
from clue_stats.engine.errors import UsageError
from clue_stats.engine.game import UNSEEN, Game, Suggest
from clue_stats.engine.markers import T_

Triple = tuple[str, str, str]
CATEGORIES = ("suspects", "weapons", "rooms")


class UnknownStrategy(UsageError):
    """A strategy spec that names no strategy (or a bad threshold)."""


class Notebook:
    """What one player can know without counting deals: who holds which card, who lacks which.

    Facts: own hand; a card shown to me; a pass (the passer holds none of the three); "X showed
    someone one of these three" (a clause). Closure: a clause with one possible card left names it;
    a full hand lacks every other card; a card nobody can hold is in the envelope; a category with one
    candidate left has its envelope card, and then its other cards are held by someone, so a card
    only one player can hold is theirs.
    """

    def __init__(self, me: str, names: Sequence[str], deck: Deck, hand: Sequence[str], hand_sizes: Sequence[int]):
        self.me = me
        self.names = tuple(names)
        self.deck = deck
        self.size = dict(zip(self.names, hand_sizes))
        self.holder: dict[str, str] = {}
        self.lacks: dict[str, set[str]] = {p: set() for p in self.names}
        self.clauses: list[tuple[str, frozenset[str]]] = []
        self.envelope: dict[str, str] = {}
        self.not_envelope: set[str] = set()  # free cards known not to be the answer
        self.not_solution: set[Triple] = set()
        self.category = {card: cat for cat in CATEGORIES for card in deck.of(cat)}
        for card in hand:
            self._hold(card, me)
        self.lacks[me] |= set(deck.cards) - set(hand)
        self._close()

    # ---- facts ---------------------------------------------------------------------------------

    def _hold(self, card: str, player: str) -> bool:
        if self.holder.get(card) == player:
            return False
        self.holder[card] = player
        for other in self.names:
            if other != player:
                self.lacks[other].add(card)
        return True

    def saw(self, player: str, card: str) -> None:
        """``player`` showed me ``card``."""
        self._hold(card, player)
        self._close()

    def passed(self, player: str, cards: Sequence[str]) -> None:
        self.lacks[player].update(c for c in cards if self.holder.get(c) != player)
        self._close()

    def showed_someone(self, player: str, cards: Sequence[str]) -> None:
        """``player`` showed one of ``cards`` to someone else: they hold at least one."""
        self._clause(player, cards)
        self._close()

    def _clause(self, player: str, cards: Sequence[str]) -> None:
        clause = (player, frozenset(cards))
        if clause not in self.clauses:  # a repeated answer teaches nothing new
            self.clauses.append(clause)

    def wrong_accusation(self, triple: Triple) -> None:
        self.not_solution.add(triple)
        self._close()

    def observe(self, record: Suggest) -> None:
        """A suggestion as this player saw it (shown cards are visible only to the two involved)."""
        for response in record.responses:
            if response.passed:
                self.lacks[response.player].update(c for c in record.cards if self.holder.get(c) != response.player)
            elif (
                self.me in (record.player, response.player) and response.shows is not None and response.shows != UNSEEN
            ):
                self._hold(response.shows, response.player)
            else:
                self._clause(response.player, record.cards)
        self._close()

    def _close(self) -> None:
        changed = True
        while changed:
            changed = False
            remaining = []
            for player, cards in self.clauses:
                if any(self.holder.get(c) == player for c in cards):
                    continue
                possible = [c for c in cards if c not in self.lacks[player] and c not in self.holder]
                if len(possible) == 1:
                    changed |= self._hold(possible[0], player)
                else:
                    remaining.append((player, cards))
            self.clauses = remaining
            for player in self.names:
                held = [c for c, p in self.holder.items() if p == player]
                if len(held) == self.size[player]:
                    before = len(self.lacks[player])
                    self.lacks[player] |= set(self.deck.cards) - set(held)
                    changed |= len(self.lacks[player]) != before
            # A wrong accusation with two of its cards known to be the answer clears the third.
            for triple in self.not_solution:
                known = [c for c in triple if self.envelope.get(self.category[c]) == c]
                if len(known) == 2:
                    third = next(c for c in triple if c not in known)
                    if third not in self.not_envelope and third not in self.holder:
                        self.not_envelope.add(third)
                        changed = True
            for cat in CATEGORIES:
                free = [c for c in self.deck.of(cat) if c not in self.holder]
                if cat not in self.envelope:
                    nobody = [c for c in free if all(c in self.lacks[p] for p in self.names)]
                    open_ = [c for c in free if c not in self.not_envelope]
                    if nobody or len(open_) == 1:
                        self.envelope[cat] = (nobody or open_)[0]
                        changed = True
                answer = self.envelope.get(cat)
                for card in free:
                    if card == answer or (answer is None and card not in self.not_envelope):
                        continue
                    # Not the answer, so someone holds it: if only one player can, it is theirs.
                    able = [p for p in self.names if card not in self.lacks[p]]
                    if len(able) == 1:
                        changed |= self._hold(card, able[0])

    # ---- questions -----------------------------------------------------------------------------

    def progress(self) -> tuple[object, ...]:
        """A fingerprint of everything known: unchanged after a suggestion means it taught nothing."""
        return (
            len(self.holder),
            sum(len(v) for v in self.lacks.values()),
            len(self.clauses),
            len(self.envelope),
            len(self.not_envelope),
        )

    def candidates(self, category: str) -> list[str]:
        """The cards of a category that may be in the envelope."""
        if category in self.envelope:
            return [self.envelope[category]]
        return [c for c in self.deck.of(category) if c not in self.holder and c not in self.not_envelope]

    def is_out(self, card: str) -> bool:
        return card not in self.candidates(self.category[card])

    def certain(self) -> Triple | None:
        if all(cat in self.envelope for cat in CATEGORIES):
            return (self.envelope["suspects"], self.envelope["weapons"], self.envelope["rooms"])
        return None

    def best_guess(self) -> tuple[Triple, Fraction]:
        """The most likely solution under the notebook's rough model (candidates equally likely)."""
        lists = [self.candidates(cat) for cat in CATEGORIES]
        options = [
            (s, w, r) for s in lists[0] for w in lists[1] for r in lists[2] if (s, w, r) not in self.not_solution
        ]
        if not options:
            options = [(lists[0][0], lists[1][0], lists[2][0])]
        return options[0], Fraction(1, len(options))

    def unknown(self, card: str) -> bool:
        """Whether it is the answer is not known."""
        return not self.is_out(card) and self.envelope.get(self.category[card]) != card


@dataclass(frozen=True)
class Seat:
    """What a strategy is told when the game starts."""

    me: str
    names: tuple[str, ...]
    deck: Deck
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    character: str | None


class Strategy:
    """The base: a notebook, accusation by certainty or threshold, and no preference of its own."""

    name = "base"

    def __init__(self, seat: Seat, rng: random.Random, threshold: Fraction | None = None):
        self.seat = seat
        self.rng = rng
        self.threshold = threshold
        self.hand = frozenset(seat.hand)
        self.notebook = Notebook(seat.me, seat.names, seat.deck, seat.hand, seat.hand_sizes)
        self.shown_to: dict[str, set[str]] = {}  # suggester -> cards I have shown them
        self.asked: set[Triple] = set()
        self.stale: dict[str, tuple[object, ...]] = {}  # room -> what I knew when a suggestion there taught me nothing

    @property
    def spec(self) -> str:
        return self.name if self.threshold is None else f"{self.name}:{float(self.threshold):g}"

    # ---- seeing --------------------------------------------------------------------------------

    def observe(self, game: Game, record: Suggest) -> None:
        before = self.notebook.progress()
        self.notebook.observe(record)
        if record.player == self.seat.me:
            self.asked.add(record.cards)
            if self.notebook.progress() == before:
                self.stale[record.room] = before

    def observe_wrong_accusation(self, game: Game, triple: Triple) -> None:
        self.notebook.wrong_accusation(triple)

    # ---- deciding ------------------------------------------------------------------------------

    def value(self, game: Game, room: str) -> float:
        """What the mover uses: :meth:`room_value`, but nothing for a room where my last suggestion
        taught me nothing and nothing has been learnt since (a holder of the room card can show it
        every time, and a player who stayed there would learn nothing forever)."""
        if self.stale.get(room) == self.notebook.progress():
            return 0.0
        return self.room_value(game, room)

    def room_value(self, game: Game, room: str) -> float:
        """How much this player wants to suggest in ``room`` (0 to 1): the mover weighs it by distance.

        A room that may be the answer is worth most. While the suspect or the weapon is open, a room
        nobody else can show (my own card, or the known answer) is still good for asking about them,
        and a room another player holds a little (they may show the room card every time); once both
        are known, only the room is left to find.
        """
        nb = self.notebook
        if nb.unknown(room):
            return 1.0
        if "suspects" in nb.envelope and "weapons" in nb.envelope:
            return 0.0
        return 0.3 if room in self.hand or nb.envelope.get("rooms") == room else 0.1

    def suggestion(self, game: Game, room: str) -> tuple[str, str]:
        """The suspect and weapon to name in ``room``: open cards, not a suggestion made before."""
        nb = self.notebook
        pairs = [(s, w) for s in nb.candidates("suspects") for w in nb.candidates("weapons")]
        fresh = [p for p in pairs if (p[0], p[1], room) not in self.asked]
        return self.rng.choice(fresh or pairs)

    def show(self, suggester: str, cards: Sequence[str]) -> str:
        """Which of my cards to show: one this suggester has already seen, else the most shown."""
        seen = self.shown_to.setdefault(suggester, set())
        again = [c for c in cards if c in seen]
        if again:
            return again[0]
        shown_any = [c for c in cards if any(c in s for s in self.shown_to.values())]
        card = shown_any[0] if shown_any else self.rng.choice(list(cards))
        seen.add(card)
        return card

    def accusation(self, game: Game) -> Triple | None:
        sure = self.notebook.certain()
        if sure is not None:
            return sure
        if self.threshold is not None:
            guess, chance = self.notebook.best_guess()
            if chance >= self.threshold:
                return guess
        return None


class RandomStrategy(Strategy):
    """Walks to random rooms and names random cards; still accuses only when its notebook is sure."""

    name = "random"

    def room_value(self, game: Game, room: str) -> float:
        return self.rng.random()

    def suggestion(self, game: Game, room: str) -> tuple[str, str]:
        deck = self.seat.deck
        return self.rng.choice(deck.suspects), self.rng.choice(deck.weapons)

    def show(self, suggester: str, cards: Sequence[str]) -> str:
        return self.rng.choice(list(cards))


class NotebookStrategy(Strategy):
    """Never names a card it knows is out; heads for rooms that may still be the answer."""

    name = "notebook"


class BlufferStrategy(Strategy):
    """Asks about one unknown card at a time, padding the suggestion with its own cards.

    Nobody can show a card the bluffer holds, so the answer is about the one card it wants to
    locate: a pass all round puts that card in the envelope, a shown card is that card. Others at the
    table see the bluffer name cards it holds, which misleads a notebook that assumes otherwise.
    """

    name = "bluffer"

    def _filler(self, category: str, avoid: str | None = None) -> str:
        nb = self.notebook
        own = sorted(c for c in self.seat.deck.of(category) if c in self.hand and c != avoid)
        if category in nb.envelope:
            return nb.envelope[category]  # the known answer: nobody can show it either
        if own:
            return self.rng.choice(own)
        return self.rng.choice(nb.candidates(category))

    def suggestion(self, game: Game, room: str) -> tuple[str, str]:
        nb = self.notebook
        room_open = nb.unknown(room)
        suspects = [c for c in nb.candidates("suspects") if nb.unknown(c)]
        weapons = [c for c in nb.candidates("weapons") if nb.unknown(c)]
        if room_open or not (suspects or weapons):
            return self._filler("suspects"), self._filler("weapons")
        if len(suspects) >= len(weapons):
            return self.rng.choice(suspects), self._filler("weapons")
        return self._filler("suspects"), self.rng.choice(weapons)


class EntropyStrategy(Strategy):
    """Names the suspect and weapon with the best expected gain in bits where it stands.

    The gain is the deduction engine's (``engine.deduction.expected_gain``): the exact expected drop
    of the envelope's entropy for this player's knowledge, over the suspects and weapons its notebook
    has not ruled out (the first in deck order among equals). Scoring every room that way every
    turn would multiply the exact counting by the rooms, so rooms are valued by a notebook
    estimate of the same quantity: each open card of a category is equally likely to be the answer,
    and naming one of n open cards is worth log2 n - ((n - 1) / n) log2 (n - 1) bits.
    """

    name = "entropy"

    def _estimate(self, room: str) -> tuple[float, tuple[str, str]]:
        nb = self.notebook

        def worth(card: str) -> float:
            if not nb.unknown(card):
                return 0.0
            n = len(nb.candidates(nb.category[card]))
            return math.log2(n) - ((n - 1) / n) * (math.log2(n - 1) if n > 1 else 0.0)

        pairs = [(s, w) for s in nb.candidates("suspects") for w in nb.candidates("weapons")]
        fresh = [p for p in pairs if (p[0], p[1], room) not in self.asked] or pairs
        return max(((worth(s) + worth(w) + worth(room), (s, w)) for s, w in fresh), key=lambda x: x[0])

    def room_value(self, game: Game, room: str) -> float:
        return min(1.0, self._estimate(room)[0] / 2.0)

    def suggestion(self, game: Game, room: str) -> tuple[str, str]:
        from clue_stats.engine import deduction  # deferred: start-up (the deduction engine, for this strategy only)

        k = deduction.knowledge_at(game, self.seat.me, len(game.records))
        nb = self.notebook
        # Only cards the notebook has not ruled out: every triple is an exact count, dearest early in
        # a game, and steering with known cards is the bluffer's way, not this one's.
        pairs = [(s, w) for s in nb.candidates("suspects") for w in nb.candidates("weapons")]
        gains = [(deduction.expected_gain(k, self.seat.me, (s, w, room)), (s, w)) for s, w in pairs]
        best = max(g for g, _ in gains)
        return next(pair for g, pair in gains if g >= best - 1e-12)


STRATEGIES: dict[str, Callable[..., Strategy]] = {
    "random": RandomStrategy,
    "notebook": NotebookStrategy,
    "bluffer": BlufferStrategy,
    "entropy": EntropyStrategy,
}


def parse_spec(spec: str) -> tuple[str, Fraction | None]:
    """``name`` or ``name:threshold`` -> (name, threshold); raises :class:`UnknownStrategy`."""
    name, _, tail = spec.strip().partition(":")
    if name not in STRATEGIES:
        raise UnknownStrategy(
            T_("unknown strategy {name} (known: {strategies})", name=repr(name), strategies=", ".join(STRATEGIES))
        )
    if not tail:
        return name, None
    try:
        threshold = Fraction(tail).limit_denominator(1000)
    except (ValueError, ZeroDivisionError):
        raise UnknownStrategy(
            T_("strategy {spec}: the threshold must be a number in (0, 1]", spec=repr(spec))
        ) from None
    if not 0 < threshold <= 1:
        raise UnknownStrategy(T_("strategy {spec}: the threshold must be in (0, 1]", spec=repr(spec)))
    return name, threshold


def make_strategy(spec: str, seat: Seat, rng: random.Random) -> Strategy:
    name, threshold = parse_spec(spec)
    return STRATEGIES[name](seat, rng, threshold)
