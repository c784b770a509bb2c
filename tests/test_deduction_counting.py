"""The counting engine against brute-force enumeration of every deal, and against closed forms."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clue_stats.engine import (
    _kernels,
    counting,
    counting_kernel,
)
from clue_stats.engine.counting import _expand, entropy_of, plan, run_python, split_by_holder
from clue_stats.engine.deduction import (
    TABLE,
    count,
    entropy_table,
    envelope_entropy,
    knowledge_at,
    knowledge_timeline,
    observers,
    solution_counts,
)
from clue_stats.engine.editions import Deck, dealt_hand_sizes, editions
from clue_stats.engine.game import ALL, UNSEEN, Deal, Response, Reveal, Suggest
from clue_stats.engine.knowledge import Knowledge

# decks and player counts small enough to enumerate every deal in a moment
from clue_stats.testing import all_deals, brute_counts, make_game, random_game, small_deck, violation_seq

# decks and player counts small enough to enumerate every deal in a moment
SMALL = [((3, 3, 4), 2), ((3, 3, 4), 3), ((3, 3, 3), 4), ((2, 2, 3), 4), ((2, 3, 3), 3), ((2, 2, 2), 2)]


def _vary(game, rng: random.Random, hide_shows: bool, drop_deal: bool, reveal: bool):
    """Hide some shown cards ("?"), drop a deal (a partial view), add a reveal: what real logs do."""
    records = []
    for r in game.records:
        if isinstance(r, Suggest) and hide_shows and r.shower is not None and rng.random() < 0.5:
            responses = r.responses[:-1] + (Response(r.shower.player, UNSEEN),)
            r = Suggest(seq=0, player=r.player, suspect=r.suspect, weapon=r.weapon, room=r.room, responses=responses)
        records.append(r)
    deals = [r for r in records if isinstance(r, Deal)]
    if drop_deal and deals:
        records.remove(rng.choice(deals))
    if reveal and deals:
        d = rng.choice(deals)
        card = rng.choice(d.cards)
        to = ALL if rng.random() < 0.5 else (rng.choice(game.names),)
        records.insert(rng.randrange(len(records) + 1), Reveal(seq=0, player=d.player, card=card, to=to))
    return make_game(
        game.deck,
        game.names,
        [r for r in records if r.type != "end"] + [game.records[-1]],
        duel=game.room_card_count > 0,
        hand_sizes=game.hand_sizes,
    )


@st.composite
def small_games(draw):
    (ns, nw, nr), n_players = draw(st.sampled_from(SMALL))
    game = random_game(
        draw(st.integers(0, 10**9)),
        n_players=n_players,
        n_suggestions=draw(st.integers(0, 7)),
        deck=small_deck(ns, nw, nr),
        wrong_accusations=draw(st.integers(0, 1)),
    )
    rng = random.Random(draw(st.integers(0, 10**9)))
    return _vary(game, rng, draw(st.booleans()), draw(st.booleans()), draw(st.booleans()))


def _solutions_match(game, observer, brute):
    for seq, k in enumerate(knowledge_timeline(game, observer)):
        total, solutions, _ = brute[seq]
        assert solution_counts(k) == solutions, (observer, seq)
        assert sum(solution_counts(k).values()) == total


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(small_games())
def test_every_solution_count_matches_enumeration(game):
    deals = list(all_deals(game))
    for observer in observers(game):
        _solutions_match(game, observer, brute_counts(game, observer, deals))


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(small_games(), st.data())
def test_every_card_probability_matches_enumeration(game, data):
    deals = list(all_deals(game))
    observer = data.draw(st.sampled_from(observers(game)))
    seq = data.draw(st.integers(0, len(game.records)))
    total, solutions, places = brute_counts(game, observer, deals)[seq]
    c = count(knowledge_at(game, observer, seq))
    assert c.total == total
    assert c.solutions == solutions
    assert c.card_places == {card: {p: n for p, n in per.items() if n} for card, per in places.items()}
    for card, per in places.items():
        for place, n in per.items():
            assert c.probability(card, place) == n / total


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(small_games(), st.data())
def test_deals_split_by_the_named_cards_a_player_holds_match_enumeration(game, data):
    """The count behind every answer to a suggestion: deals by solution and by which of the named
    cards one player holds, in one program (compiled, and the exact Python one)."""
    deals = list(all_deals(game))
    observer = data.draw(st.sampled_from(observers(game)))
    seq = data.draw(st.integers(0, len(game.records)))
    player = data.draw(st.sampled_from(game.names))
    named = data.draw(st.lists(st.sampled_from(game.deck.cards), min_size=1, max_size=3, unique=True))
    first_bad = [violation_seq(game, d, observer) for d in deals]
    expected: dict[tuple[int, tuple], int] = {}
    for (triple, hands, _), bad in zip(deals, first_bad):
        if bad > seq:
            tag = sum(1 << i for i, c in enumerate(named) if c in hands[player])
            expected[(tag, triple)] = expected.get((tag, triple), 0) + 1
    k = knowledge_at(game, observer, seq)
    cards = tuple(k.card_index[c] for c in named)
    place = k.places.index(player)
    deck = game.deck
    # the compiled program in int64, the same with remainders (counting_kernel.run_wide), plain Python
    for program in ("int64", "remainders", "python"):
        fits, compiled = counting_kernel.fits, counting_kernel.compiled
        if program != "int64":
            counting_kernel.fits = lambda pl: False
        if program == "python":
            counting_kernel.compiled = lambda pl: False
        try:
            split = split_by_holder(k, place, cards)
        finally:
            counting_kernel.fits, counting_kernel.compiled = fits, compiled
        got = {
            (tag, (deck.suspects[s], deck.weapons[w], deck.rooms[r])): int(counts[s, w, r])
            for tag, counts in split.items()
            for s, w, r in zip(*counts.nonzero())
        }
        assert got == expected, (observer, seq, player, named, program)


@pytest.mark.slow
def test_duel_room_cards_and_peeks_match_enumeration():
    for seed in range(3):
        game = random_game(seed, n_players=2, n_suggestions=5, deck=small_deck(3, 3, 4), duel=True)
        assert game.room_card_count == 4
        deals = list(all_deals(game))
        for observer in observers(game):
            _solutions_match(game, observer, brute_counts(game, observer, deals))
        seq = len(game.records)
        total, _, places = brute_counts(game, "Anna", deals)[seq]
        c = count(knowledge_at(game, "Anna", seq))
        assert c.card_places == {card: {p: n for p, n in per.items() if n} for card, per in places.items()}


@pytest.mark.slow
def test_four_players_on_the_3_3_4_deck():
    game = random_game(7, n_players=4, n_suggestions=6, deck=small_deck(3, 3, 4), wrong_accusations=1)
    deals = list(all_deals(game))
    assert len(deals) == 36 * math.factorial(7) // (2 * 2 * 2)
    for observer in (TABLE, "Anna"):
        _solutions_match(game, observer, brute_counts(game, observer, deals))


def _initial_total(n_players: int) -> int:
    sizes = dealt_hand_sizes(21, n_players)
    denominator = math.prod(math.factorial(s) for s in sizes)
    return 324 * math.factorial(18) // denominator


def test_totals_before_anything_is_known():
    deck = editions()["classic"].deck
    for n_players in (3, 4, 5, 6):
        names = [f"P{i}" for i in range(n_players)]
        game = make_game(deck, names, [])
        k = knowledge_at(game, TABLE, 0)
        c = solution_counts(k)
        assert sum(c.values()) == _initial_total(n_players)
        assert len(c) == 324 and len(set(c.values())) == 1
        assert math.isclose(envelope_entropy(k), math.log2(324))


def test_big_decks_count_exactly_beyond_64_bits():
    # 40 cards and 6 players: the counts pass 2**63, so the exact Python program runs
    deck = Deck.custom([f"S{i}" for i in range(10)], [f"W{i}" for i in range(10)], [f"R{i}" for i in range(20)])
    names = [f"P{i}" for i in range(6)]
    game = make_game(
        deck,
        names,
        [
            Suggest(
                seq=0,
                player="P0",
                suspect="s0",
                weapon="w0",
                room="r0",
                responses=tuple(Response(n, None) for n in names[1:]),
            ),
            Suggest(
                seq=0,
                player="P1",
                suspect="s1",
                weapon="w1",
                room="r1",
                responses=(Response("P2", None), Response("P3", UNSEEN)),
            ),
        ],
    )
    sizes = game.hand_sizes
    k0 = knowledge_at(game, TABLE, 0)
    assert not counting_kernel.fits(plan(k0))
    total0 = sum(solution_counts(k0).values())
    assert total0 == 2000 * math.factorial(37) // math.prod(math.factorial(s) for s in sizes)
    assert total0 > 2**63
    k2 = knowledge_at(game, TABLE, 2)
    pl = plan(k2)
    assert not counting_kernel.fits(pl)
    by_python = _expand(k2, pl, run_python(pl))
    # the same count by conditioning: P3 holds S1, W1 or R1 (inclusion-exclusion over the three)
    k1 = knowledge_at(game, TABLE, 1).with_lacks("P2", ["s1", "w1", "r1"])
    none = k1.with_lacks("P3", ["s1", "w1", "r1"])
    assert sum(by_python.values()) == sum(solution_counts(k1).values()) - sum(solution_counts(none).values())


@pytest.mark.slow
def test_the_compiled_program_is_exact_where_partial_counts_pass_64_bits():
    # a Master Detective-size deck (10/8/12), 6 players, the table's view: the partial counts pass
    # 2**64 (the product of the cards' possible places bounds them), each solution's count does not;
    # int64 arithmetic wraps, so the compiled program's counts are still the exact ones
    game = random_game(1, n_players=6, n_suggestions=34, deck=small_deck(10, 8, 12))
    timeline = knowledge_timeline(game, TABLE)
    checked = 0
    for k in timeline[4:16:3]:
        pl = plan(k)
        if pl.bound < 2**64:
            continue
        assert counting_kernel.fits(pl) and counting_kernel.wide(pl)
        assert counting_kernel.run(pl) == {e: n for e, n in run_python(pl).items() if n}
        checked += 1
    assert checked >= 2
    # the sums of all solutions pass 2**63: the counts come out as Python integers
    k = timeline[8]
    solutions = solution_counts(k)
    assert sum(solutions.values()) > 2**63
    assert math.isclose(envelope_entropy(k), entropy_of(solutions.values(), sum(solutions.values())), abs_tol=1e-12)
    split = split_by_holder(k, 1, (0, 10, 20))
    assert sum(int(a.sum()) for a in split.values()) == sum(solutions.values())


@pytest.mark.slow
def test_compiled_and_python_programs_agree():
    # mid-game knowledge of 3- to 6-player classic games: the states where both programs work hardest
    for seed in range(6):
        n_players = 3 + seed % 4
        game = random_game(seed, n_players=n_players, n_suggestions=24, wrong_accusations=1)
        for observer in (TABLE, game.names[seed % n_players]):
            for seq in (len(game.records) // 3, len(game.records) // 2):
                k = knowledge_at(game, observer, seq)
                pl = plan(k)
                assert counting_kernel.fits(pl)
                assert counting_kernel.run(pl) == {e: n for e, n in run_python(plan(k)).items() if n}


def test_entropy_table_matches_direct_counts():
    game = random_game(11, n_players=4, n_suggestions=12)
    table = entropy_table(game)
    assert set(table) == set(observers(game))
    for observer, row in table.items():
        assert len(row) == len(game.records) + 1
        timeline = knowledge_timeline(game, observer)
        for seq in (0, 5, len(game.records)):
            counts = solution_counts(timeline[seq])
            assert math.isclose(row[seq], entropy_of(counts.values(), sum(counts.values())), abs_tol=1e-12)


def test_entropy_of_a_known_distribution():
    assert entropy_of([1, 1, 2], 4) == 1.5
    assert entropy_of([5], 5) == 0.0
    assert math.isnan(entropy_of([], 0))


def test_inconsistent_knowledge_counts_nothing():
    deck = small_deck(2, 2, 2)
    game = make_game(
        deck,
        ["Anna", "Ben"],
        [
            # Ben passes on everything Anna could not hold: no deal is left for the table
            Suggest(seq=0, player="Anna", suspect="s0", weapon="w0", room="r0", responses=(Response("Ben", None),)),
            Suggest(seq=0, player="Anna", suspect="s1", weapon="w1", room="r1", responses=(Response("Ben", None),)),
        ],
    )
    k = knowledge_at(game, TABLE, 2)
    assert isinstance(k, Knowledge) and not k.consistent
    c = count(k)
    assert c.total == 0 and c.solutions == {}
    assert math.isnan(envelope_entropy(k)) and c.certain_solution() is None


@pytest.mark.slow
def test_the_folding_kernel_agrees_with_python_for_each_number_of_open_envelope_slots():
    # the compiled program folds a state when its envelope gets its last id but one: with three
    # open slots after two, with two or one after the first; players who know envelope cards give
    # the fewer open slots. With and without a tag (the split of the answers to a suggestion).
    seen = set()
    for seed in range(8):
        game = random_game(seed, n_players=4, n_suggestions=30)
        for observer in observers(game):
            for i, k in enumerate(knowledge_timeline(game, observer)[::3]):
                if not k.consistent:
                    continue
                named = (i % 6, 6 + i % 6, 12 + i % 9)
                for pl in (plan(k), plan(k, 1 + i % 4, named)):
                    if counting_kernel.fits(pl):
                        seen.add((sum(pl.open_categories), pl.tags))
                        assert counting_kernel.run(pl) == {e: n for e, n in run_python(pl).items() if n}
    assert {(1, 0), (2, 0), (3, 0), (1, 3), (2, 3), (3, 3)} <= seen


def _many_successors_plan():
    """A player known to lack every weapon: the weapons are one group spread over the other five
    hands and the envelope; each of those hands lacks a room of its own, so no two are alike and
    the program's first state has hundreds of successors."""
    deck = editions()["classic"].deck
    k = knowledge_at(make_game(deck, [f"P{i}" for i in range(6)], []), TABLE, 0).with_lacks("P5", deck.weapons)
    for i in range(5):
        k = k.with_lacks(f"P{i}", [deck.rooms[i]])
    return plan(k)


@pytest.mark.slow
def test_one_state_with_many_successors():
    pl = _many_successors_plan()
    assert counting_kernel.fits(pl) and pl.steps[0, counting.KIND] == counting.GROUP and pl.steps[0, counting.SIZE] == 6
    assert counting_kernel.run(pl) == {e: n for e, n in run_python(pl).items() if n}


def _expanded(pl, s, keys, room):
    """The successors of every state of ``keys`` at step ``s`` through the compiled core's expansion
    (engine._kernels.expand, the one both programs call) with arrays of ``room`` entries, chunk
    after chunk: one (key, ways, id, hand) row per successor, and the chunks' sizes (None when one
    state alone had more successors than the room)."""
    layout = counting_kernel._packed(pl)
    rows, chunks, lo = [], [], 0
    while lo < len(keys):
        hi, sk, sw, sl, sh, ends = _kernels.expand(pl.steps, layout, len(pl.caps), s, keys, lo, room)
        if hi < 0:
            return rows, None
        assert len(ends) == hi - lo and ends[-1] == len(sk)
        rows += list(zip(sk.tolist(), sw.tolist(), sl.tolist(), sh.tolist()))
        chunks.append(hi - lo)
        lo = hi
    return rows, chunks


def test_the_successors_of_many_states_are_the_same_however_many_fit_at_once():
    # the compiled programs expand as many states at once as their arrays have room for: a chunk
    # ends before a state whose successors do not fit, and the next one begins with it
    pl = _many_successors_plan()
    assert pl.steps[0, counting.KIND] == counting.GROUP
    start = np.array(
        [counting_kernel._start_key(np.array(pl.caps, np.int64), counting_kernel._packed(pl)[: len(pl.caps)])]
    )
    first, _ = _expanded(pl, 0, start, 4096)
    assert len(first) > 100  # the first state's successors: hundreds
    assert _expanded(pl, 0, start, 64) == (first[:0], None)  # more than the room: said, not cut
    states = np.array(sorted({key for key, *_ in first}), np.int64)
    steps = [s for s in range(1, pl.steps.shape[0]) if pl.steps[s, counting.KIND] != counting.GROUP]
    for s in steps[:3]:
        whole, [one] = _expanded(pl, s, states, 100_000)
        assert one == len(states) and len(whole) > len(states)
        for room in (8, 13, 64):
            rows, chunks = _expanded(pl, s, states, room)
            assert rows == whole and sum(chunks) == len(states) and len(chunks) > 1
