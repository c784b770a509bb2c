"""The best available gain counted together (engine.gains) equals the reference, which counts every
candidate on its own (tests/helpers.py reference_best_suggestion, over engine.answers.expected_gain):
every candidate's gain and the best suggestion, compiled and in plain Python with exact integers,
on random games (hypothesis) and on every suggestion of the test corpora. One candidate counted
alone (engine.gains.suggestion_gain) is the same number as among the others, to the last bit."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clue_stats.analysis.computers.game_analysis import analyse_game
from clue_stats.engine import budget, deduction, gain_kernel, gains
from clue_stats.engine.answers import expected_gain
from clue_stats.engine.game import Deal, Game, Suggest
from clue_stats.engine.knowledge import initial_knowledge, record_update
from clue_stats.pipeline import read_game_file
from clue_stats.testing import random_game, reference_best_suggestion, small_deck, suggestion_moments

ROOT = Path(__file__).resolve().parents[1]
TOLERANCE = 1e-12  # the gains are sums of floats over the same exact counts
SETTINGS = settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def knowledge_without_own_hand(game: Game, player: str, seq: int):
    """The player's knowledge before record ``seq`` as if the log did not hold their hand."""
    k = initial_knowledge(game)
    for record in game.records[: seq - 1]:
        if isinstance(record, Deal):
            continue
        update = record_update(game, k, record, player)
        if update:
            k = k.updated(**update)
    return k


def assert_matches_reference(k, player: str, rooms) -> None:
    names = k.deck.cards
    for exact in (False, True):
        got = gains.candidate_gains(k, player, rooms, exact=exact)
        assert len(got) == len(k.deck.suspects) * len(k.deck.weapons) * len(rooms)
        for (s, w, r), gain in got.items():
            triple = (names[s], names[w], names[r])
            assert gain == pytest.approx(expected_gain(k, player, triple), abs=TOLERANCE)
            # one candidate counted alone is the same number, to the last bit (the lighter analysis
            # and the review store the same expected gain)
            assert gains.suggestion_gain(k, player, triple, rooms, exact=exact) == gain
        best, ref = gains.best_suggestion(k, player, rooms, exact=exact), reference_best_suggestion(k, player, rooms)
        assert best[0] == pytest.approx(ref[0], abs=TOLERANCE)
        assert best[1] == ref[1]


@SETTINGS
@given(
    seed=st.integers(0, 10_000),
    n_players=st.integers(2, 4),
    wrong=st.integers(0, 2),
    duel=st.booleans(),
    chosen=st.booleans(),
    hidden=st.booleans(),
)
def test_every_candidate_as_the_reference_on_random_games(
    seed: int, n_players: int, wrong: int, duel: bool, chosen: bool, hidden: bool
) -> None:
    if duel:
        n_players, wrong = 2, 0
    deck = small_deck(3, 3, 5) if duel else small_deck(3, 3, 4)
    game = random_game(seed, n_players=n_players, n_suggestions=6, deck=deck, wrong_accusations=wrong, duel=duel)
    for record in game.records:
        if not isinstance(record, Suggest):
            continue
        if hidden:  # the suggester's own hand unknown: their hand is open, a named card there shows nobody
            k = knowledge_without_own_hand(game, record.player, record.seq)
        else:
            k = deduction.knowledge_at(game, record.player, record.seq - 1)
        rooms = game.deck.rooms if chosen else (record.room,)
        assert_matches_reference(k, record.player, rooms)


def test_interchangeable_cards_are_those_a_swap_leaves_alone() -> None:
    for seed in range(20):  # a deal where Anna holds one suspect of four
        game = random_game(seed, n_players=3, n_suggestions=0, deck=small_deck(4, 3, 4))
        k = deduction.knowledge_at(game, "Anna", len(game.records) - 1)  # Anna's hand dealt, nothing else
        suspects = list(k.category_indices()[0])
        mine = [c for c in suspects if k.holder(k.deck.cards[c]) == "Anna"]
        if len(mine) == 1:
            break
    others = [c for c in suspects if c not in mine]
    assert gains.interchangeable(k, suspects) == sorted([mine, others])
    # a clause naming one of two otherwise alike cards tells them apart
    a, b = others[:2]
    ben = k.places.index("Ben")
    k2 = k.updated(clauses=[(ben, (1 << a) | (1 << k.card_index[k.deck.weapons[0]]))])
    assert not any(a in cls and b in cls for cls in gains.interchangeable(k2, suspects))


CORPORA = sorted((ROOT / "data" / "samples").iterdir()) + sorted(
    p for p in (ROOT / "tests" / "fixtures" / "importers").rglob("*") if p.is_file()
)


@pytest.mark.slow  # the reference counts every candidate on its own
@pytest.mark.parametrize("path", CORPORA, ids=lambda p: p.name)
def test_best_gain_as_the_reference_on_the_corpora(path: Path) -> None:
    """Every suggestion whose suggester's hand the log holds (the suggestions analysis.md rates).
    The others too take the reference minutes (the Master Detective fixture: 30 cards, one hand
    known); `benchmarks/best_gain.py --corpora` compares those as well."""
    games, _ = read_game_file(path)
    for game in games:
        for k, player, rooms in suggestion_moments(game):
            if player not in game.hands():
                continue
            best, ref = deduction.best_suggestion(k, player, rooms), reference_best_suggestion(k, player, rooms)
            assert best[0] == pytest.approx(ref[0], abs=TOLERANCE)
            assert best[1] == ref[1]


@pytest.mark.slow
@pytest.mark.parametrize("path", [p for p in CORPORA if p.parent.name == "samples"], ids=lambda p: p.name)
def test_review_and_light_analysis_store_the_same_expected_gain(path: Path) -> None:
    """The review reads a suggestion's expected gain from the pass over every candidate; the
    lighter analysis counts it alone: the stored numbers are equal, not just close."""
    games, _ = read_game_file(path)
    for game in games:
        full = {r["seq"]: r for r in analyse_game(game).tables.get("suggestions", [])}
        light = {r["seq"]: r for r in analyse_game(game, review=False).tables.get("suggestions", [])}
        assert full.keys() == light.keys()
        for seq, row in full.items():
            assert light[seq]["expected_gain_bits"] == row["expected_gain_bits"]
            assert light[seq]["best_gain_bits"] is None
            if row["expected_gain_bits"] is not None:
                assert row["bits_lost"] == max(0.0, row["best_gain_bits"] - row["expected_gain_bits"])


def test_knowledge_without_deals_gives_the_reference_answer() -> None:
    game = random_game(1, n_players=3, n_suggestions=3, deck=small_deck(3, 3, 4))
    k = deduction.knowledge_at(game, "Anna", 4).updated(holds=[(1, 0), (2, 0)])  # one card in two hands
    assert not k.consistent
    best, ref = gains.best_suggestion(k, "Anna", game.deck.rooms), reference_best_suggestion(k, "Anna", game.deck.rooms)
    assert math.isnan(best[0]) and math.isnan(ref[0]) and best[1] == ref[1]


def test_a_threads_workspace_is_kept_from_suggestion_to_suggestion_within_the_budgets_memory():
    """The compiled gain program keeps its arrays for the thread's next runs (one workspace for
    rows of every width), and never keeps more than the memory the budget in force gives a count."""
    game = random_game(1, n_players=6, n_suggestions=40)
    moments = suggestion_moments(game)[4:14]
    for k, player, rooms in moments:
        gains.candidate_gains(k, player, rooms)
    space = gain_kernel.workspace()
    assert space.nbytes() > 4 * 64 * 64 * 8  # grown by the runs
    held = {id(a) for a in (*space.keys, *space.rows, space.index)}
    k, player, rooms = moments[0]
    gains.candidate_gains(k, player, rooms)
    assert gain_kernel.workspace() is space
    assert {id(a) for a in (*space.keys, *space.rows, space.index)} == held  # large enough: not made again
    # a budget giving a count less memory than the workspace holds: it is let go after the run
    limit_mb = space.nbytes() / 2 / (1 << 20)
    with budget.limited(budget.Limits(states=None, memory_mb=limit_mb, seconds=None)):
        try:
            gains.candidate_gains(k, player, rooms)
        except budget.BudgetExceeded:
            pass
    assert gain_kernel.workspace() is not space
    assert gain_kernel.workspace().nbytes() <= limit_mb * (1 << 20)
