"""Seeded random games for the deduction benchmark and tests: random deals, random suggestions,
truthful answers (the first player clockwise holding a named card shows one of them at random).

Every player's hand is dealt in the log, so each player's view is full. This is a test-data maker,
not a strategy: suggestions are uniform over the deck, which spreads knowledge evenly.
"""

from __future__ import annotations

import random

from clue_stats.engine.editions import Deck, dealt_hand_sizes, editions, resolve_flags, variant
from clue_stats.engine.game import Accuse, Deal, End, Game, Peek, Player, Response, RoomCards, Suggest

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
    deck = edition.deck if edition is not None else deck
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
    records: list = []

    def add(record_type, **fields):
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
