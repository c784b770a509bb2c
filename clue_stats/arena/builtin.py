"""The built-in strategies (engine.strategies) as arena seats: ``builtin:notebook``, ``builtin:random``,
``builtin:entropy:0.5``, ... A built-in seat answers the same messages as a bot, in this process: it
keeps its own view of the game (its hand, what it was shown, everyone's passes and accusations) as
the strategy's notebook and a game record of what it saw, and never breaks the contest's rules (a
suggestion it made before is replaced by one it has not made; a suggestion nobody could answer and
that names none of its cards is its accusation).
"""

from __future__ import annotations

import asyncio
import itertools
import random

from clue_stats.arena import protocol
from clue_stats.arena.protocol import Message, Triple
from clue_stats.arena.seats import Entrant, Listener, Seat
from clue_stats.engine import editions as ed
from clue_stats.engine.game import UNSEEN, Accuse, Deal, Game, Player, Response, Suggest
from clue_stats.engine.strategies import Seat as StrategySeat
from clue_stats.engine.strategies import Strategy, make_strategy, parse_spec

PREFIX = "builtin:"
SLOW = ("entropy",)  # strategies that count deals: answered in a thread, so other games go on


def check_spec(spec: str) -> str:
    """The strategy spec of ``builtin:SPEC`` (raises engine.strategies.UnknownStrategy)."""
    parse_spec(spec)
    return spec


class BuiltinBot:
    """A strategy speaking the protocol: :meth:`answer` takes a server message, returns the answer."""

    def __init__(self, spec: str, seed: str):
        self.spec = spec
        self.rng = random.Random(seed)
        self.strategy: Strategy | None = None
        self.game: Game | None = None
        self.me = 0
        self.names: tuple[str, ...] = ()
        self.hand: frozenset[str] = frozenset()
        self.asked: set[Triple] = set()
        self.unanswered: Triple | None = None  # my last suggestion, when nobody could show

    def answer(self, message: Message) -> Message:
        handler = getattr(self, "on_" + message.verb, None)
        if handler is None:
            return Message("ok")
        answer: Message = handler(message.words)
        return answer

    def on_reset(self, words: tuple[str, ...]) -> Message:
        n, self.me = int(words[0]), int(words[1])
        hand = tuple(protocol.CARD_OF_CODE[c] for c in words[2:])
        deck = protocol.deck()
        edition = ed.edition(protocol.EDITION)
        variant = ed.variant(protocol.VARIANT)
        self.names = tuple(f"seat {i}" for i in range(n))
        sizes = tuple(ed.dealt_hand_sizes(len(deck.cards), n, 0))
        self.game = Game(
            edition=edition,
            deck=deck,
            variant=variant,
            flags=ed.resolve_flags(edition, variant, None),
            players=tuple(Player(name=name) for name in self.names),
            hand_sizes=sizes,
        )
        me = self.names[self.me]
        self.game.records.append(Deal(seq=1, player=me, cards=hand))
        self.hand = frozenset(hand)
        view = StrategySeat(me, self.names, deck, hand, sizes, None)
        self.strategy = make_strategy(self.spec, view, self.rng)
        self.asked, self.unanswered = set(), None
        return Message("ok")

    def on_suggest(self, words: tuple[str, ...]) -> Message:
        assert self.strategy is not None and self.game is not None
        deck = protocol.deck()
        room = max(deck.rooms, key=lambda r: self.strategy.value(self.game, r))  # type: ignore[union-attr, arg-type]
        suspect, weapon = self.strategy.suggestion(self.game, room)
        triple = (suspect, weapon, room)
        if triple in self.asked:
            triple = self._fresh()
        self.asked.add(triple)
        return Message("suggest", protocol.codes(triple))

    def _fresh(self) -> Triple:
        """A suggestion not made before: open cards first, then any."""
        assert self.strategy is not None
        deck, nb = protocol.deck(), self.strategy.notebook
        for lists in (
            [nb.candidates(c) for c in protocol.CATEGORIES],
            [list(deck.of(c)) for c in protocol.CATEGORIES],
        ):
            for triple in itertools.product(*lists):
                if triple not in self.asked:
                    return (triple[0], triple[1], triple[2])
        return (deck.suspects[0], deck.weapons[0], deck.rooms[0])  # all 324 made: the referee ends it

    def on_disprove(self, words: tuple[str, ...]) -> Message:
        assert self.strategy is not None
        cards = [protocol.CARD_OF_CODE[c] for c in words[1:4]]
        held = [c for c in cards if c in self.hand]
        card = self.strategy.show(self.names[int(words[0])], held)
        return Message("show", (protocol.CODE_OF_CARD[card],))

    def on_suggestion(self, words: tuple[str, ...]) -> Message:
        assert self.strategy is not None and self.game is not None
        suggester = int(words[0])
        cards = tuple(protocol.CARD_OF_CODE[c] for c in words[1:4])
        shower = None if words[4] == "-" else int(words[4])
        shown = protocol.CARD_OF_CODE[words[5]] if len(words) > 5 else UNSEEN
        n = len(self.names)
        responses = []
        for step in range(1, n):
            seat = (suggester + step) % n
            if seat == shower:
                responses.append(Response(self.names[seat], shown))
                break
            responses.append(Response(self.names[seat], None))
        record = Suggest(
            seq=len(self.game.records) + 1,
            player=self.names[suggester],
            suspect=cards[0],
            weapon=cards[1],
            room=cards[2],
            responses=tuple(responses),
        )
        self.game.records.append(record)
        self.strategy.observe(self.game, record)
        if suggester == self.me:
            self.unanswered = (cards[0], cards[1], cards[2]) if shower is None else None
        return Message("ok")

    def on_accuse(self, words: tuple[str, ...]) -> Message:
        assert self.strategy is not None and self.game is not None
        sure = self.strategy.accusation(self.game)
        if sure is None and self.unanswered is not None and not (set(self.unanswered) & self.hand):
            sure = self.unanswered  # nobody could show, none is mine: the contest wants the accusation
        if sure is None:
            return Message("-")
        return Message("accuse", protocol.codes(sure))

    def on_accusation(self, words: tuple[str, ...]) -> Message:
        assert self.strategy is not None and self.game is not None
        cards = tuple(protocol.CARD_OF_CODE[c] for c in words[1:4])
        triple = (cards[0], cards[1], cards[2])
        correct = words[4] == "+"
        self.game.records.append(
            Accuse(
                seq=len(self.game.records) + 1,
                player=self.names[int(words[0])],
                suspect=triple[0],
                weapon=triple[1],
                room=triple[2],
                correct=correct,
            )
        )
        if not correct:
            self.strategy.observe_wrong_accusation(self.game, triple)
        return Message("ok")

    def on_done(self, words: tuple[str, ...]) -> Message:
        return Message("dead")


class BuiltinSeat(Seat):
    """A built-in strategy at the table (no process)."""

    def __init__(self, entrant: Entrant, seed: str):
        super().__init__(entrant)
        self.bot = BuiltinBot(entrant.command, seed)
        self.slow = parse_spec(entrant.command)[0] in SLOW

    async def start(self, listener: Listener, timeout: float) -> None:
        return None

    async def ask(self, message: Message, timeout: float) -> Message:
        self.messages += 1
        if self.slow:
            return await asyncio.to_thread(self.bot.answer, message)
        return self.bot.answer(message)

    async def finish(self) -> None:
        await self.ask(protocol.DONE, 0)
