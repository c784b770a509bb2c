"""Helpers for the deduction tests: games built from records, and a brute force that reads the records
itself (not the engine's Knowledge) and enumerates every deal of a small deck.

The brute force is the spec made executable (event-format.md, "Meaning"): a deal is consistent for an
observer after record i when every record up to i that informs the observer holds in it.
"""

from __future__ import annotations

from itertools import combinations, product

from clue_stats.engine.editions import Deck, dealt_hand_sizes, resolve_flags, variant
from clue_stats.engine.game import ALL, UNSEEN, Accuse, Deal, Game, Peek, Player, Reveal, Suggest
from tests.helpers import random_game, small_deck

__all__ = ["random_game", "small_deck", "make_game", "all_deals", "violation_seq", "brute_counts"]


def make_game(deck: Deck, names, records, duel: bool = False, hand_sizes=None) -> Game:
    """A Game from record objects; seq is set from the position (the game record is seq 0)."""
    var = variant("duel" if duel else "standard")
    numbered = []
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


def all_deals(game: Game):
    """Every deal: (envelope triple, {player: frozenset hand}, frozenset room cards)."""
    deck = game.deck
    names = game.names
    sizes = game.hand_sizes
    aside = game.room_card_count
    for triple in product(deck.suspects, deck.weapons, deck.rooms):
        rest = [c for c in deck.cards if c not in triple]
        for room_cards in combinations(rest, aside):
            left = [c for c in rest if c not in room_cards]
            yield from _hands(triple, names, sizes, left, {}, frozenset(room_cards))


def _hands(triple, names, sizes, left, hands, room_cards):
    i = len(hands)
    if i == len(names):
        yield triple, dict(hands), room_cards
        return
    for hand in combinations(left, sizes[i]):
        rest = [c for c in left if c not in hand]
        hands[names[i]] = frozenset(hand)
        yield from _hands(triple, names, sizes, rest, hands, room_cards)
        del hands[names[i]]


def _holds(deal, player, card) -> bool:
    return card in deal[1][player]


def _record_holds(game: Game, record, deal, observer) -> bool:
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


def violation_seq(game: Game, deal, observer) -> int:
    """The first seq after which the deal is no longer consistent for the observer (big if never)."""
    for record in game.records:
        if not _record_holds(game, record, deal, observer):
            return record.seq
    return len(game.records) + 1


def brute_counts(game: Game, observer, deals=None):
    """Per seq: (total, {triple: n}, {card: {place: n}}) over the deals consistent for the observer."""
    deals = list(all_deals(game)) if deals is None else deals
    first_bad = [violation_seq(game, d, observer) for d in deals]
    out = []
    for seq in range(len(game.records) + 1):
        solutions: dict = {}
        places: dict = {c: {} for c in game.deck.cards}
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


def test_brute_force_counts_every_deal_once():
    deck = small_deck(2, 2, 2)
    game = make_game(deck, ["Anna", "Ben"], [])
    deals = list(all_deals(game))
    # 8 envelopes, then Anna takes 2 of the 3 cards left
    assert len(deals) == 8 * 3
    assert len({(t, tuple(sorted((p, tuple(sorted(h))) for p, h in hs.items()))) for t, hs, _ in deals}) == 24


def test_brute_force_reads_a_pass():
    deck = small_deck(2, 2, 2)
    from clue_stats.engine.game import Response

    game = make_game(
        deck,
        ["Anna", "Ben"],
        [Suggest(seq=0, player="Anna", suspect="s0", weapon="w0", room="r0", responses=(Response("Ben", None),))],
    )
    total, solutions, _ = brute_counts(game, None)[1]
    # Ben's one card is none of s0, w0, r0, so it is the s1, w1 or r1 left out of the envelope: a
    # solution with j cards ending in 0 leaves j such cards for Ben
    assert total == 12
    assert solutions == {t: sum(c.endswith("0") for c in t) for t in solutions}
    assert len(solutions) == 7  # not (s1, w1, r1)
