"""The engine on decks bigger than the classic one (3 to 12 cards per category, e.g. Master
Detective's 10/8/12): against the plain reference program (tests/helpers.py, plain_vector_counts: a
card-by-card program with the envelope as a vector per state) and against enumeration of every
deal, with hands and player counts small enough for enumeration."""

from __future__ import annotations

import math
from itertools import combinations, product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clue_stats.engine import budget, counting_kernel
from clue_stats.engine.counting import plan, run_python
from clue_stats.engine.deduction import (
    TABLE,
    count,
    entropy_of,
    envelope_entropy,
    knowledge_at,
    solution_counts,
)
from clue_stats.engine.game import UNSEEN, Deal, Response, Suggest
from clue_stats.testing import brute_counts, make_game, plain_vector_counts, random_game, small_deck

SIZES = st.integers(3, 12)


def _hide_shows(game, every: bool):
    """The same game with the shown cards unseen ("?") in every other (or every) suggestion: the
    players' views get clauses too, not only the table's."""
    records = []
    for i, r in enumerate(game.records):
        if isinstance(r, Suggest) and r.shower is not None and (every or i % 2):
            responses = r.responses[:-1] + (Response(r.shower.player, UNSEEN),)
            r = Suggest(seq=0, player=r.player, suspect=r.suspect, weapon=r.weapon, room=r.room, responses=responses)
        records.append(r)
    return make_game(game.deck, game.names, records, hand_sizes=game.hand_sizes)


@st.composite
def big_deck_games(draw, max_table_cards: int):
    """(game, observer): a deck of 3 to 12 cards per category, 2 or 3 players; the table observes
    games of at most ``max_table_cards`` cards (its program is the plain reference's slowest)."""
    sizes = (draw(SIZES), draw(SIZES), draw(SIZES))
    n_players = draw(st.integers(2, 3))
    game = random_game(
        draw(st.integers(0, 10**9)),
        n_players=n_players,
        n_suggestions=draw(st.integers(0, 10)),
        deck=small_deck(*sizes),
        wrong_accusations=draw(st.integers(0, 1)),
    )
    game = _hide_shows(game, draw(st.booleans()))
    observers = list(game.names) + ([TABLE] if sum(sizes) <= max_table_cards else [])
    return game, draw(st.sampled_from(observers))


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(big_deck_games(max_table_cards=24), st.data())
def test_every_solution_count_matches_the_plain_reference(game_observer, data):
    game, observer = game_observer
    seqs = data.draw(st.lists(st.integers(0, len(game.records)), min_size=1, max_size=3, unique=True))
    for seq in seqs:
        k = knowledge_at(game, observer, seq)
        expected = {e: n for e, n in plain_vector_counts(k).items() if n}
        counts = {(k.card_index[s], k.card_index[w], k.card_index[r]): n for (s, w, r), n in solution_counts(k).items()}
        assert counts == expected, (observer, seq)
        if expected:
            assert math.isclose(
                envelope_entropy(k), entropy_of(expected.values(), sum(expected.values())), abs_tol=1e-9
            )


def _deals_for(game, observer):
    """Every deal in which the observer holds the hand the log deals them (every deal when the log
    deals them none): the deals brute_counts would keep after the observer's deal record."""
    deck, names, sizes = game.deck, game.names, game.hand_sizes
    dealt = {r.player: frozenset(r.cards) for r in game.records if isinstance(r, Deal)}
    mine = dealt.get(observer)
    for triple in product(deck.suspects, deck.weapons, deck.rooms):
        if mine is not None and mine & set(triple):
            continue
        rest = [c for c in deck.cards if c not in triple and (mine is None or c not in mine)]
        yield from _hands(triple, names, sizes, rest, {} if mine is None else {observer: mine})


def _hands(triple, names, sizes, left, hands):
    todo = [i for i, n in enumerate(names) if n not in hands]
    if not todo:
        yield triple, dict(hands), frozenset()
        return
    i = todo[0]
    for hand in combinations(left, sizes[i]):
        hands[names[i]] = frozenset(hand)
        yield from _hands(triple, names, sizes, [c for c in left if c not in hand], hands)
        del hands[names[i]]


def _n_deals(game, observer) -> int:
    """How many deals _deals_for yields."""
    deck, sizes = game.deck, list(game.hand_sizes)
    n_cards = len(deck.cards) - 3
    if observer is not None:
        n_cards -= sizes.pop(game.names.index(observer))
    return (
        len(deck.suspects)
        * len(deck.weapons)
        * len(deck.rooms)
        * math.factorial(n_cards)
        // math.prod(math.factorial(s) for s in sizes)
    )


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(big_deck_games(max_table_cards=13), st.data())
def test_solutions_and_notebooks_match_enumeration(game_observer, data):
    game, observer = game_observer
    if _n_deals(game, observer) > 40_000:  # three players on a big deck: a two-player view of it
        game = random_game(1, n_players=2, n_suggestions=8, deck=game.deck)
        observer = game.names[0]
    after_deals = sum(isinstance(r, Deal) for r in game.records)
    brute = brute_counts(game, observer, list(_deals_for(game, observer)))
    for seq in range(after_deals, len(game.records) + 1):
        total, solutions, _ = brute[seq]
        k = knowledge_at(game, observer, seq)
        assert solution_counts(k) == solutions, (observer, seq)
    seq = data.draw(st.integers(after_deals, len(game.records)))
    total, solutions, places = brute[seq]
    c = count(knowledge_at(game, observer, seq))
    assert c.total == total and c.solutions == solutions
    assert c.card_places == {card: {p: n for p, n in per.items() if n} for card, per in places.items()}


@pytest.mark.slow  # the plain reference on Master Detective-size decks
def test_master_detective_size_views_agree_with_the_plain_reference():
    # a 10/8/12 deck, 6 players, one of them and the table after the first suggestions: the
    # compiled program runs (its partial counts pass 2**64, its results do not) and agrees
    game = random_game(3, n_players=6, n_suggestions=6, deck=small_deck(10, 8, 12))
    for observer, seq in ((game.names[2], len(game.records)), (TABLE, 7)):
        k = knowledge_at(game, observer, seq)
        assert counting_kernel.fits(plan(k))
        expected = {e: n for e, n in plain_vector_counts(k).items() if n}
        counts = {(k.card_index[s], k.card_index[w], k.card_index[r]): n for (s, w, r), n in solution_counts(k).items()}
        assert counts == expected


@pytest.mark.slow
def test_decks_past_the_int64_program_are_counted_compiled_by_remainders():
    # 10/10/15 at 6 players (35 cards): the table's counts pass 2**62, so the compiled program
    # counts modulo 2**64 and a prime below 2**31 and rebuilds the counts (Chinese remainder theorem)
    game = random_game(3, n_players=6, n_suggestions=8, deck=small_deck(10, 10, 15))
    for seq in (6, 9, 11):
        k = knowledge_at(game, TABLE, seq)
        pl = plan(k)
        assert not counting_kernel.fits(pl) and counting_kernel.compiled(pl)
        assert counting_kernel.fill_bound(pl) > 2**64
        with budget.limited(budget.UNLIMITED) as b:
            wide = counting_kernel.run_wide(pl)
        assert b.counts == 2  # modulo 2**64, then one prime
        assert wide == {e: n for e, n in run_python(pl).items() if n}
        solutions = solution_counts(k)
        assert math.isclose(envelope_entropy(k), entropy_of(solutions.values(), sum(solutions.values())), abs_tol=1e-12)


def test_several_primes_rebuild_counts_far_past_64_bits():
    # 30/30/30 at 3 players, the table before anything is shown: 2**133 deals, three primes
    game = random_game(5, n_players=3, n_suggestions=3, deck=small_deck(30, 30, 30))
    k = knowledge_at(game, TABLE, 2)
    pl = plan(k)
    assert counting_kernel.compiled(pl) and counting_kernel.fill_bound(pl) > 2**64 * counting_kernel.PRIMES[0]
    with budget.limited(budget.UNLIMITED) as b:
        wide = counting_kernel.run_wide(pl)
    assert b.counts == 4
    assert wide == {e: n for e, n in run_python(pl).items() if n}
    assert max(wide.values()) > 2**64
