"""Seeded random games and the plain reference programs, shared by the tests and the benchmarks (as
numpy.testing is numpy's): the program itself never imports this module (tests/test_layers.py checks
that, and that the benchmarks import nothing of tests/).

The random games: random deals, random suggestions, truthful answers (the first player clockwise
holding a named card shows one of them at random). Every player's hand is dealt in the log, so each
player's view is full. This is a test-data maker, not a strategy: suggestions are uniform over the
deck, which spreads knowledge evenly. The references count what the engine counts the plain way,
slowly: the deduction engine's dynamic program without its packing and folding
(:func:`plain_vector_counts`), and the best available gain as every suggestion counted on its own
(:func:`reference_best_suggestion`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from clue_stats.analysis.computers.game_analysis import GameAnalysis
from clue_stats.analysis.computers.suggestions import candidate_rooms
from clue_stats.engine.answers import expected_gain
from clue_stats.engine.editions import Deck, dealt_hand_sizes, editions, resolve_flags, variant
from clue_stats.engine.game import Accuse, Deal, End, Event, Game, Peek, Player, Response, RoomCards, Suggest
from clue_stats.engine.knowledge import Knowledge, _bits

# ---------------------------------------------------------------- seeded random games

NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eve", "Finn")


def small_deck(n_suspects: int = 3, n_weapons: int = 3, n_rooms: int = 4) -> Deck:
    return Deck.custom(
        [f"S{i}" for i in range(n_suspects)], [f"W{i}" for i in range(n_weapons)], [f"R{i}" for i in range(n_rooms)]
    )


def random_game(
    seed: int,
    n_players: int = 6,
    n_suggestions: int = 40,
    deck: Deck | None = None,
    wrong_accusations: int = 0,
    duel: bool = False,
    blind: bool = False,
) -> Game:
    """A game whose records are deals, then suggestions in seat order (with a few wrong accusations
    and, in a duel, peeks at the set-aside cards), then the end. ``blind``: the log holds no hands
    and no shown card (each shown as "?"), the costliest game for the counting."""
    rng = random.Random(seed)
    edition = editions()["classic"] if deck is None else None
    if edition is not None:
        deck = edition.deck
    assert deck is not None
    var = variant("duel" if duel else "standard")
    names = NAMES[:n_players]
    solution = (rng.choice(deck.suspects), rng.choice(deck.weapons), rng.choice(deck.rooms))
    rest = [c for c in deck.cards if c not in solution]
    rng.shuffle(rest)
    set_aside = rest[: var.room_cards]
    rest = rest[var.room_cards :]
    sizes = dealt_hand_sizes(len(deck.cards), n_players, var.room_cards)
    hands: list[list[str]] = [[] for _ in names]
    for i, card in enumerate(rest):
        hands[i % n_players].append(card)
    records: list[Event] = []

    def add(record_type: type[Event], **fields: Any) -> None:
        records.append(record_type(seq=len(records) + 1, **fields))

    for name, hand in zip(names, hands):
        if not blind:
            add(Deal, player=name, cards=tuple(hand))
    aside_rooms = tuple(rng.sample(deck.rooms, len(set_aside)))
    if set_aside:
        add(RoomCards, rooms=aside_rooms, cards=dict(zip(aside_rooms, set_aside)))
    accusers = set(rng.sample(range(n_players), min(wrong_accusations, n_players - 1)))
    eliminated: set[int] = set()
    seat, made = 0, 0
    while made < n_suggestions:
        if seat in eliminated:
            seat = (seat + 1) % n_players
            continue
        if set_aside and rng.random() < 0.3:
            j = rng.randrange(len(set_aside))
            add(Peek, player=names[seat], room=aside_rooms[j], card=set_aside[j])
        triple = (rng.choice(deck.suspects), rng.choice(deck.weapons), rng.choice(deck.rooms))
        responses = []
        for step in range(1, n_players):
            other = (seat + step) % n_players
            held = [c for c in triple if c in hands[other]]
            if held:
                shown = rng.choice(held)
                responses.append(Response(names[other], "?" if blind else shown))
                break
            responses.append(Response(names[other], None))
        add(
            Suggest, player=names[seat], suspect=triple[0], weapon=triple[1], room=triple[2], responses=tuple(responses)
        )
        made += 1
        if seat in accusers and made > n_suggestions // 3:
            accusers.discard(seat)
            wrong = solution
            while wrong == solution:
                wrong = (rng.choice(deck.suspects), rng.choice(deck.weapons), rng.choice(deck.rooms))
            add(Accuse, player=names[seat], suspect=wrong[0], weapon=wrong[1], room=wrong[2], correct=False)
            eliminated.add(seat)
        seat = (seat + 1) % n_players
    add(End, winner=None, solution=solution)
    return Game(
        edition=edition,
        deck=deck,
        variant=var,
        flags=resolve_flags(edition, var, None),
        players=tuple(Player(name) for name in names),
        hand_sizes=tuple(sizes),
        records=records,
        game_id=f"random-{seed}",
    )


class OutOfTime(Exception):
    """The plain program did not finish in the time it was given."""


def _placed(env: tuple[int, int, int], category: int, card: int) -> tuple[int, int, int]:
    """The envelope so far with ``card`` in its category's place (0 suspect, 1 weapon, 2 room)."""
    suspect, weapon, room = env
    return (
        (card, weapon, room) if category == 0 else (suspect, card, room) if category == 1 else (suspect, weapon, card)
    )


def plain_vector_counts(k: Knowledge, deadline: float | None = None) -> dict[tuple[int, int, int], int]:
    """The plain reference for big decks (benchmarks/plain_reference.py, big_decks.py): a dynamic
    program over the cards in deck order, one at a time, whose state is the room left in every hand
    and the clauses not met yet, each state carrying a vector (a dict) of counts by the envelope's
    cards so far; a clause is checked when its last card is placed. (envelope triple) -> deals."""

    if not k.consistent:
        return {}
    n_cards = len(k.allowed)
    ranges = k.category_indices()
    cat_of = [next(i for i, r in enumerate(ranges) if c in r) for c in range(n_cards)]
    clauses = sorted(k.clauses)
    last = [max(_bits(m)) for _, m in clauses]
    # state: (room left per place, clauses not met yet) -> {envelope so far: deals}
    states: dict[tuple[tuple[int, ...], int], dict[tuple[int, int, int], int]] = {
        (tuple(k.sizes[1:]), (1 << len(clauses)) - 1): {(-1, -1, -1): 1}
    }
    for c in range(n_cards):
        closing = sum(1 << i for i, last_card in enumerate(last) if last_card == c)
        meets = [0] * len(k.sizes)
        for i, (q, m) in enumerate(clauses):
            if m >> c & 1:
                meets[q] |= 1 << i
        cat = cat_of[c]
        new: dict[tuple[tuple[int, ...], int], dict[tuple[int, int, int], int]] = {}
        for j, ((caps, unmet), vector) in enumerate(states.items()):
            if deadline is not None and j % 256 == 0 and time.process_time() > deadline:
                raise OutOfTime
            for p in _bits(k.allowed[c]):
                if p == 0:
                    if unmet & closing:
                        continue
                    target = new.setdefault((caps, unmet), {})
                    for env, n in vector.items():
                        if env[cat] == -1:
                            env2 = _placed(env, cat, c)
                            target[env2] = target.get(env2, 0) + n
                    continue
                if not caps[p - 1]:
                    continue
                unmet2 = unmet & ~meets[p]
                if unmet2 & closing:
                    continue
                target = new.setdefault((caps[: p - 1] + (caps[p - 1] - 1,) + caps[p:], unmet2), {})
                for env, n in vector.items():
                    target[env] = target.get(env, 0) + n
        states = {key: vector for key, vector in new.items() if vector}
    out: dict[tuple[int, int, int], int] = {}
    for vector in states.values():
        for env, n in vector.items():
            if env not in k.excluded:
                out[env] = out.get(env, 0) + n
    return out


# ---------------------------------------------------------------- the best available gain's reference


def reference_best_suggestion(k: Knowledge, suggester: str, rooms: Sequence[str]) -> tuple[float, tuple[str, str, str]]:
    """The best available gain as it was counted before engine.gains, kept as the reference of
    tests/test_gains.py and benchmarks/best_gain.py: the expected gain of every suspect x weapon x
    room, each counted on its own (engine.answers.expected_gain), the first in deck order among equals."""
    best: tuple[float, tuple[str, str, str]] | None = None
    for room in rooms:
        for suspect in k.deck.suspects:
            for weapon in k.deck.weapons:
                triple = (suspect, weapon, room)
                gain = expected_gain(k, suggester, triple)
                if best is None or gain > best[0] + 1e-12:
                    best = (gain, triple)
    if best is None:
        raise ValueError("no room to suggest in")
    return best


def suggestion_moments(game: Game) -> list[tuple[Knowledge, str, tuple[str, ...]]]:
    """(the suggester's knowledge before it, the suggester, the candidate rooms) of every suggestion."""
    ctx = GameAnalysis(game)
    return [
        (ctx.before(r.player, r.seq), r.player, candidate_rooms(game, r))
        for r in game.records
        if isinstance(r, Suggest)
    ]
