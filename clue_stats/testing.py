"""Seeded random games and the plain reference programs, shared by the tests and the benchmarks (as
numpy.testing is numpy's): the program itself never imports this module (tests/test_layers.py checks
that, and that the benchmarks import nothing of tests/).

The random games: random deals, random suggestions, truthful answers (the first player clockwise
holding a named card shows one of them at random). Every player's hand is dealt in the log, so each
player's view is full. This is a test-data maker, not a strategy: suggestions are uniform over the
deck, which spreads knowledge evenly. The references count what the engine counts the plain way,
slowly: the deduction engine's dynamic program without its packing and folding
(:func:`plain_vector_counts`), the best available gain as every suggestion counted on its own
(:func:`reference_best_suggestion`), and every deal of a small deck enumerated and checked against the
records read by themselves, not through the engine's knowledge (:func:`brute_counts`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator, Sequence
from itertools import combinations, product
from typing import Any

from clue_stats.analysis.computers.game_analysis import GameAnalysis
from clue_stats.analysis.computers.suggestions import candidate_rooms
from clue_stats.engine.answers import expected_gain
from clue_stats.engine.board import Board, Position, Square
from clue_stats.engine.editions import Deck, dealt_hand_sizes, editions, resolve_flags, variant
from clue_stats.engine.game import (
    ALL,
    UNSEEN,
    Accuse,
    Deal,
    End,
    Event,
    Game,
    Peek,
    Player,
    Response,
    Reveal,
    RoomCards,
    Suggest,
)
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
    """The plain reference for big decks (benchmarks/big_decks.py): a dynamic
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


# ---------------------------------------------------------------- the deduction tests' brute force

# Games built from records, and a brute force that reads the records itself (not the engine's
# Knowledge) and enumerates every deal of a small deck: the spec made executable (event-format.md,
# "Meaning"): a deal is consistent for an observer after record i when every record up to i that
# informs the observer holds in it.

# a deal of the cards: (the envelope's triple, {player: hand}, the cards set aside on rooms)
CardDeal = tuple[tuple[str, str, str], dict[str, frozenset[str]], frozenset[str]]
# per seq: (deals consistent, {triple: deals}, {card: {place: deals}})
Counts = tuple[int, dict[tuple[str, str, str], int], dict[str, dict[str, int]]]


def make_game(
    deck: Deck,
    names: Sequence[str],
    records: Sequence[Event],
    duel: bool = False,
    hand_sizes: Sequence[int] | None = None,
) -> Game:
    """A Game from record objects; seq is set from the position (the game record is seq 0)."""
    var = variant("duel" if duel else "standard")
    numbered: list[Event] = []
    for i, r in enumerate(records):
        fields = {k: getattr(r, k) for k in r.__dataclass_fields__ if k not in ("seq", "line", "extra")}
        numbered.append(type(r)(seq=i + 1, **fields))
    sizes = hand_sizes or dealt_hand_sizes(len(deck.cards), len(names), var.room_cards)
    return Game(
        edition=None,
        deck=deck,
        variant=var,
        flags=resolve_flags(None, var, None),
        players=tuple(Player(n) for n in names),
        hand_sizes=tuple(sizes),
        records=numbered,
    )


def all_deals(game: Game) -> Iterator[CardDeal]:
    """Every deal of the game's deck to its players (and, in a duel, its rooms)."""
    deck = game.deck
    for suspect, weapon, room in product(deck.suspects, deck.weapons, deck.rooms):
        triple = (suspect, weapon, room)
        rest = [c for c in deck.cards if c not in triple]
        for room_cards in combinations(rest, game.room_card_count):
            left = [c for c in rest if c not in room_cards]
            yield from _hands(triple, game.names, game.hand_sizes, left, {}, frozenset(room_cards))


def _hands(
    triple: tuple[str, str, str],
    names: Sequence[str],
    sizes: Sequence[int],
    left: list[str],
    hands: dict[str, frozenset[str]],
    room_cards: frozenset[str],
) -> Iterator[CardDeal]:
    i = len(hands)
    if i == len(names):
        yield triple, dict(hands), room_cards
        return
    for hand in combinations(left, sizes[i]):
        rest = [c for c in left if c not in hand]
        hands[names[i]] = frozenset(hand)
        yield from _hands(triple, names, sizes, rest, hands, room_cards)
        del hands[names[i]]


def _record_holds(game: Game, record: Event, deal: CardDeal, observer: str | None) -> bool:
    """Does what the record tells the observer hold in this deal?"""
    triple, hands, room_cards = deal
    if isinstance(record, Deal):
        return record.player != observer or hands[record.player] == frozenset(record.cards)
    if isinstance(record, Suggest):
        for response in record.responses:
            held = hands[response.player]
            if response.passed:
                if any(c in held for c in record.cards):
                    return False
            elif response.shows != UNSEEN and observer in (record.player, response.player):
                if response.shows not in held:
                    return False
            elif not any(c in held for c in record.cards):
                return False
        return True
    if isinstance(record, Accuse):
        wrong = record.correct is False or (record.correct is None and game.solution() not in (None, record.cards))
        return not wrong or triple != record.cards
    if isinstance(record, Reveal):
        told = record.to == ALL or (observer is not None and (observer in record.to or observer == record.player))
        if not told or record.card == UNSEEN:
            return True
        if record.player is None:
            return all(record.card not in h for h in hands.values())
        return record.card in hands[record.player]
    if isinstance(record, Peek):
        if record.player != observer or record.card in (None, UNSEEN):
            return True
        return record.card in room_cards
    return True


def violation_seq(game: Game, deal: CardDeal, observer: str | None) -> int:
    """The first seq after which the deal is no longer consistent for the observer (big if never)."""
    for record in game.records:
        if not _record_holds(game, record, deal, observer):
            return record.seq
    return len(game.records) + 1


def brute_counts(game: Game, observer: str | None, deals: list[CardDeal] | None = None) -> list[Counts]:
    """Per seq: (total, {triple: n}, {card: {place: n}}) over the deals consistent for the observer."""
    deals = list(all_deals(game)) if deals is None else deals
    first_bad = [violation_seq(game, d, observer) for d in deals]
    out: list[Counts] = []
    for seq in range(len(game.records) + 1):
        solutions: dict[tuple[str, str, str], int] = {}
        places: dict[str, dict[str, int]] = {c: {} for c in game.deck.cards}
        total = 0
        for deal, bad in zip(deals, first_bad):
            if bad <= seq:
                continue
            total += 1
            triple, hands, room_cards = deal
            solutions[triple] = solutions.get(triple, 0) + 1
            for c in triple:
                places[c]["envelope"] = places[c].get("envelope", 0) + 1
            for player, hand in hands.items():
                for c in hand:
                    places[c][player] = places[c].get(player, 0) + 1
            for c in room_cards:
                places[c]["room_cards"] = places[c].get("room_cards", 0) + 1
        out.append((total, solutions, places))
    return out


# ---------------------------------------------------------------- the movement tests' brute force


def brute_force_ends(board: Board, origin: Position, steps: int, occupied: frozenset[Square]) -> set[Square]:
    """Every corridor square where a walk of exactly ``steps`` squares from ``origin`` (a square, or a
    room left by its doors) can end, every walk tried one by one (what engine.board's search finds)."""
    ends: set[Square] = set()

    def walk(square: Square, seen: frozenset[Square], left: int) -> None:
        if left == 0:
            ends.add(square)
            return
        for n in board.neighbours(square):
            if n not in seen and n not in occupied:
                walk(n, seen | {n}, left - 1)

    for first in board.first_squares(origin, occupied) if isinstance(origin, str) else [origin]:
        walk(first, frozenset({first}), steps - 1 if isinstance(origin, str) else steps)
    ends.discard(origin)  # a move never ends where it began
    return ends


# ---------------------------------------------------------------- the deduction benchmark's references

# What benchmarks/deduction.py compares the engine with, on the same knowledge: a plain card-by-card
# dynamic program with the envelope in its state (plain_solution_counts, plain_entropy), and rejection
# sampling (sampled_entropy: deal at random, keep the deals consistent with the knowledge, estimate the
# entropy from the kept envelopes until the time given runs out).


def plain_solution_counts(k: Knowledge, deadline: float | None = None) -> dict[tuple[int, int, int], int]:
    """The deals per envelope by a plain card-by-card dynamic program, without the engine's
    optimisations: cards in deck order, one at a time, the envelope's cards so far in the state, a
    clause checked when its last card is placed (the deduction benchmark's reference). Exact."""
    if not k.consistent:
        return {}
    n_cards = len(k.allowed)
    ranges = k.category_indices()
    cat_of = [next(i for i, r in enumerate(ranges) if c in r) for c in range(n_cards)]
    clauses = sorted(k.clauses)
    last = [max(_bits(m)) for _, m in clauses]
    states: dict[tuple[tuple[int, ...], tuple[int, int, int], int], int] = {(tuple(k.sizes[1:]), (-1, -1, -1), 0): 1}
    for c in range(n_cards):
        closing = sum(1 << i for i, last_card in enumerate(last) if last_card == c)
        new: dict[tuple[tuple[int, ...], tuple[int, int, int], int], int] = {}
        for j, ((caps, env, met), n) in enumerate(states.items()):
            if deadline is not None and j % 1024 == 0 and time.process_time() > deadline:
                raise OutOfTime
            for p in _bits(k.allowed[c]):
                if p == 0:
                    if env[cat_of[c]] != -1:
                        continue
                    caps2, env2, met2 = caps, _placed(env, cat_of[c], c), met
                else:
                    if not caps[p - 1]:
                        continue
                    caps2 = caps[: p - 1] + (caps[p - 1] - 1,) + caps[p:]
                    env2 = env
                    met2 = met
                    for i, (q, m) in enumerate(clauses):
                        if q == p and m >> c & 1:
                            met2 |= 1 << i
                if closing & ~met2:
                    continue
                key = (caps2, env2, met2)
                new[key] = new.get(key, 0) + n
        states = new
    out: dict[tuple[int, int, int], int] = {}
    for (_, env, _), n in states.items():
        if env not in k.excluded:
            out[env] = out.get(env, 0) + n
    return out


def plain_entropy(k: Knowledge, deadline: float | None = None) -> float:
    """The envelope's entropy in bits from :func:`plain_solution_counts`."""
    counts = plain_solution_counts(k, deadline)
    total = sum(counts.values())
    if not total:
        return math.nan
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def sampled_entropy(k: Knowledge, seconds: float, rng: random.Random) -> tuple[float, int]:
    """Plug-in entropy of the envelopes of random deals consistent with k, and how many were kept."""
    ranges = [list(r) for r in k.category_indices()]
    places: list[int] = []
    for p, size in enumerate(k.sizes[1:], start=1):
        places += [p] * size
    clauses = list(k.clauses)
    kept: dict[tuple[int, ...], int] = {}
    n_kept = 0
    deadline = time.process_time() + seconds
    while time.process_time() < deadline:
        envelope = tuple(rng.choice(r) for r in ranges)
        rest = [c for c in range(len(k.allowed)) if c not in envelope]
        rng.shuffle(rest)
        where = dict(zip(rest, places))
        for c in envelope:
            where[c] = 0
        if any(not k.allowed[c] >> p & 1 for c, p in where.items()):
            continue
        if any(not any(where[c] == p for c in _bits(m)) for p, m in clauses):
            continue
        if envelope in k.excluded:
            continue
        kept[envelope] = kept.get(envelope, 0) + 1
        n_kept += 1
    if not n_kept:
        return math.nan, 0
    return -sum(n / n_kept * math.log2(n / n_kept) for n in kept.values()), n_kept
