"""One arena game: the referee plays SpeedClue's protocol with its seats and writes the game down as
clue-log/1 records (docs/arena.md, "What is enforced" and "What is recorded").

The turn: ``suggest`` to the player on turn; the players after it in seat order answer, the first
holding a card of the suggestion shows one (asked with ``disprove`` only when it holds more than one:
with one, the referee shows it for them); ``suggestion`` to every player (the card only to the
suggester and the shower); ``accuse`` to the player on turn; ``accusation`` to every player. A right
accusation wins; a wrong one puts the player out (its cards still answer); the last player not out
wins.

A seat that breaks a rule or the protocol is taken out of the game (its turns pass, a ``turn`` record
without a suggestion, and its cards still answer, shown by the referee): the game's ``rules`` then say
that not every turn has a suggestion. The violation is a ``rule_break`` finding at the seat's record
(the turn or accusation it broke the rule in, else its ``deal``), stored with the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from dataclasses import dataclass, field, replace
from typing import Any

from clue_stats.arena import protocol
from clue_stats.arena.protocol import BadMessage, Message, Triple
from clue_stats.arena.seats import Listener, Seat, SeatFailure
from clue_stats.engine.errors import said_of
from clue_stats.engine.markers import T_, Said
from clue_stats.engine.problems import Problem

SOURCE = "clue-stats arena"
MAX_TURNS = 2000  # every live bot runs out of new suggestions long before (324 each)


@dataclass
class Deal:
    """A deal of the classic cards: the envelope and each seat's hand, dealt round robin from seat 0."""

    solution: Triple
    hands: list[tuple[str, ...]]

    @classmethod
    def of(cls, players: int, seed: str) -> Deal:
        rng = random.Random(seed)
        d = protocol.deck()
        solution = (rng.choice(d.suspects), rng.choice(d.weapons), rng.choice(d.rooms))
        rest = [c for c in d.cards if c not in solution]
        rng.shuffle(rest)
        return cls(solution, [tuple(rest[i::players]) for i in range(players)])


@dataclass
class Played:
    """One finished game: its clue-log/1 records, the findings about its players, the winner."""

    index: int
    game_id: str
    records: list[dict[str, Any]]
    findings: list[Problem]
    winner: str | None
    seats: list[str]
    seconds: float
    messages: int
    removed: dict[str, str] = field(default_factory=dict)  # seat name -> the code it was taken out for


@dataclass
class _State:
    seats: list[Seat]
    deal: Deal
    timeout: float
    records: list[dict[str, Any]] = field(default_factory=list)
    findings: list[Problem] = field(default_factory=list)
    live: list[bool] = field(default_factory=list)  # not taken out for a violation
    out: list[bool] = field(default_factory=list)  # out after a wrong accusation
    removed: dict[str, str] = field(default_factory=dict)
    deal_seq: list[int] = field(default_factory=list)
    turn_seq: int | None = None  # the record of the turn being played
    asked: list[set[Triple]] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.seats)

    def add(self, record: dict[str, Any]) -> int:
        self.records.append(record)
        return len(self.records) - 1  # the record's seq (the game record is 0)

    def name(self, seat: int) -> str:
        return self.seats[seat].name

    def violation(self, seat: int, code: str, said: Said, seq: int | None = None) -> None:
        """Take ``seat`` out of the game for a broken rule: a finding at its record."""
        if not self.live[seat]:
            return
        self.live[seat] = False
        self.removed[self.name(seat)] = code
        where = seq if seq is not None else self.deal_seq[seat]
        self.findings.append(Problem.of("rule_break", replace(said, head=f"{code}: "), seq=where, line=where + 1))

    async def ask(self, seat: int, message: Message, expect: tuple[str, ...], seq: int | None = None) -> Message | None:
        """The seat's answer to ``message``, one of the verbs ``expect``; None (and the seat taken out)
        for anything else."""
        if not self.live[seat]:
            return None
        try:
            answer = await self.seats[seat].ask(message, self.timeout)
        except SeatFailure as failure:
            self.violation(seat, failure.code, failure.said, seq)
            return None
        if answer.verb not in expect:
            self.violation(
                seat,
                "garbage",
                T_(
                    "{name} answers {message} with {answer}, not {expected}",
                    name=self.name(seat),
                    message=repr(message.text),
                    answer=repr(answer.text[:120]),
                    expected=" or ".join(repr(e) for e in expect),
                ),
                seq,
            )
            return None
        return answer


async def play(seats: list[Seat], deal: Deal, timeout: float, header: dict[str, Any], index: int = 0) -> Played:
    """Play one game with ``seats`` (seat order) and ``deal``; every seat is finished (its process
    ended) whatever happens, a cancellation included."""
    clock = time.monotonic()
    state = _State(seats, deal, timeout)
    n = state.n
    state.live = [True] * n
    state.out = [False] * n
    state.asked = [set() for _ in range(n)]
    state.add(header)
    for seat in range(n):
        state.deal_seq.append(state.add({"type": "deal", "player": state.name(seat), "cards": list(deal.hands[seat])}))
    listener = Listener(timeout)
    winner: int | None = None
    try:
        await listener.open()
        starts = await asyncio.gather(*(s.start(listener, timeout) for s in seats), return_exceptions=True)
        for seat, result in enumerate(starts):
            if isinstance(result, SeatFailure):
                state.violation(seat, result.code, result.said)
            elif isinstance(result, BaseException):
                raise result
        for seat in range(n):
            await state.ask(seat, protocol.reset(n, seat, deal.hands[seat]), ("ok",))
        winner = await _turns(state)
    finally:
        await asyncio.gather(*(_finish(s) for s in seats))
        await listener.close()
    solution = dict(zip(protocol.FIELDS, deal.solution, strict=True))
    state.add({"type": "end", "winner": state.name(winner) if winner is not None else None, "solution": solution})
    if state.removed:
        header["rules"] = {"suggestion_every_turn": False}  # a seat taken out passes its turns
    return Played(
        index=index,
        game_id=header.get("id", ""),
        records=state.records,
        findings=state.findings,
        winner=state.name(winner) if winner is not None else None,
        seats=[s.name for s in seats],
        seconds=time.monotonic() - clock,
        messages=sum(s.messages for s in seats),
        removed=state.removed,
    )


async def _finish(seat: Seat) -> None:
    with contextlib.suppress(Exception):
        await seat.finish()


async def _turns(state: _State) -> int | None:
    """Turns until someone wins (their seat) or nobody can (None)."""
    n, active = state.n, 0
    for _ in range(MAX_TURNS):
        standing = [s for s in range(n) if not state.out[s]]
        if len(standing) == 1:
            return standing[0]  # the last player standing wins (SpeedClue's rule)
        if not any(state.live[s] for s in standing):
            return None
        if await _turn(state, active):
            return active
        active = next((active + step) % n for step in range(1, n + 1) if not state.out[(active + step) % n])
    return None


async def _turn(state: _State, active: int) -> bool:
    """One turn of ``active``; True if they accused rightly."""
    n, name = state.n, state.name(active)
    seq = state.turn_seq = state.add({"type": "turn", "player": name})
    if not state.live[active]:
        return False  # taken out: the turn passes
    answer = await state.ask(active, protocol.SUGGEST, ("suggest",), seq)
    if answer is None:
        return False
    try:
        cards = protocol.triple_of(answer, T_("the suggestion"))
    except BadMessage as exc:
        state.violation(active, "garbage", T_("{name} suggests {answer}: {why}", name=name,
                                              answer=repr(answer.text[:120]), why=said_of(exc)), seq)  # fmt: skip
        return False
    if cards in state.asked[active]:
        state.violation(
            active,
            "repeat_suggestion",
            T_("{name} makes the suggestion {cards} a second time", name=name, cards=" ".join(protocol.codes(cards))),
            seq,
        )
        return False
    state.asked[active].add(cards)
    shower, shown = None, None
    responses: list[dict[str, Any]] = []
    for step in range(1, n):
        seat = (active + step) % n
        held = [c for c in cards if c in state.deal.hands[seat]]
        if not held:
            responses.append({"player": state.name(seat), "shows": None})
            continue
        shower, shown = seat, held[0]
        if len(held) > 1 and state.live[seat]:
            reply = await state.ask(seat, protocol.disprove(active, cards), ("show",))
            if reply is not None:
                card = protocol.card_of(reply.words[0]) if len(reply.words) == 1 else None
                if card in held:
                    shown = card
                else:
                    state.violation(
                        seat,
                        "bad_show",
                        T_(
                            "{name} shows {answer}, not one of its cards {held} of the suggestion",
                            name=state.name(seat),
                            answer=repr(" ".join(reply.words)[:40]),
                            held=" ".join(protocol.CODE_OF_CARD[c] for c in held),
                        ),
                    )
        responses.append({"player": state.name(seat), "shows": shown})
        break
    suggest_seq = state.add(
        {"type": "suggest", "player": name, **dict(zip(protocol.FIELDS, cards, strict=True)), "responses": responses}
    )
    await asyncio.gather(
        *(
            state.ask(seat, protocol.suggestion(active, cards, shower, shown if seat in (active, shower) else None),
                      ("ok",), seq if seat == active else None)
            for seat in range(n)
        )
    )  # fmt: skip
    answer = await state.ask(active, protocol.ACCUSE, ("-", "accuse"), seq)
    if answer is None:
        return False
    if answer.verb == "-":
        if shower is None and not set(cards) & set(state.deal.hands[active]):
            state.violation(
                active,
                "missed_accusation",
                T_(
                    "{name} does not accuse after nobody could answer its suggestion {cards}, which names none of its cards",
                    name=name,
                    cards=" ".join(protocol.codes(cards)),
                ),
                suggest_seq,
            )
        return False
    try:
        accused = protocol.triple_of(answer, T_("the accusation"))
    except BadMessage as exc:
        state.violation(active, "garbage", T_("{name} accuses {answer}: {why}", name=name,
                                              answer=repr(answer.text[:120]), why=said_of(exc)), seq)  # fmt: skip
        return False
    correct = accused == state.deal.solution
    accuse_seq = state.add(
        {"type": "accuse", "player": name, **dict(zip(protocol.FIELDS, accused, strict=True)), "correct": correct}
    )
    mine = [c for c in accused if c in state.deal.hands[active]]
    if mine:
        state.violation(
            active,
            "suicidal_accusation",
            T_("{name} accuses naming its own card {cards}", name=name,
               cards=" ".join(protocol.CODE_OF_CARD[c] for c in mine)),
            accuse_seq,
        )  # fmt: skip
    await asyncio.gather(
        *(state.ask(seat, protocol.accusation(active, accused, correct), ("ok",)) for seat in range(n))
    )
    if not correct:
        state.out[active] = True
    return correct
