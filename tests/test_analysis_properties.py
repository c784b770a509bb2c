"""Properties of the per-game analysis over many generated games: gains add up, a certain accuser
is sure to be right, accuracy and giveaways stay in range, certainty is found exactly."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clue_stats.analysis.computers import accusations, suggestions
from clue_stats.analysis.computers.game_analysis import analyse_game
from clue_stats.engine import deduction
from clue_stats.engine.game import Game
from clue_stats.engine.rules import validate
from clue_stats.engine.simulate import simulate
from clue_stats.testing import random_game, small_deck

pytestmark = pytest.mark.slow  # properties over many generated games

SETTINGS = settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def _analyse(game: Game, review: bool = False):
    replay = validate(game)
    assert not replay.errors, replay.errors
    return analyse_game(game, replay, None, review=review)


@SETTINGS
@given(
    seed=st.integers(0, 10_000),
    n_players=st.integers(2, 4),
    wrong=st.integers(0, 2),
    duel=st.booleans(),
)
def test_gains_add_up_to_first_minus_last_entropy(seed: int, n_players: int, wrong: int, duel: bool) -> None:
    if duel:
        n_players, wrong = 2, 0
    game = random_game(
        seed, n_players=n_players, n_suggestions=10, deck=small_deck(3, 3, 5), wrong_accusations=wrong, duel=duel
    )
    rows = _analyse(game)
    info = rows.tables["information"]
    for observer in deduction.observers(game):
        mine = sorted((r for r in info if r["observer"] == observer), key=lambda r: r["seq"])
        assert mine, "every observer has a row per informative record"
        first, last = mine[0]["entropy_before"], mine[-1]["entropy_after"]
        assert math.fsum(r["gain_bits"] for r in mine) == pytest.approx(first - last, abs=1e-9)
        # and each row's before is the previous row's after (nothing else teaches anything)
        for prev, row in zip(mine, mine[1:]):
            assert row["entropy_before"] == prev["entropy_after"]
    for row in rows.tables["suggestions"]:
        assert row["giveaway_bits"] is None or row["giveaway_bits"] >= 0


@SETTINGS
@given(seed=st.integers(0, 10_000), n_players=st.integers(2, 4))
def test_first_certain_seq_is_exact(seed: int, n_players: int) -> None:
    game = random_game(seed, n_players=n_players, n_suggestions=12, deck=small_deck(3, 3, 4))
    table = deduction.entropy_table(game)
    for name in game.names:
        timeline = deduction.knowledge_timeline(game, name)
        linear = next((i for i, k in enumerate(timeline) if len(deduction.solution_counts(k)) == 1), None)
        assert accusations.first_certain_seq(timeline, table[name]) == linear
        assert accusations.first_certain_seq(timeline) == linear


@pytest.fixture(scope="module")
def simulated() -> list:
    """Board games between notebook players, who accuse when certain (without the costly best gain)."""
    return [(g, _analyse(g)) for g in simulate(5, 3, seed=5)]


@pytest.fixture(scope="module")
def deep_games() -> list:
    """Small-deck games with the best available gain (9 candidates a suggestion)."""
    games = [random_game(seed, n_players=3, n_suggestions=12, deck=small_deck(3, 3, 4)) for seed in range(4)]
    return [(g, _analyse(g, review=True)) for g in games]


def test_a_certain_accuser_is_sure(simulated) -> None:
    checked = 0
    for _game, rows in simulated:
        certain = {r["name"]: r["first_certain_seq"] for r in rows.tables["players"]}
        for acc in rows.tables["accusations"]:
            assert 0.0 <= acc["p_correct"] <= 1.0
            if acc["first_certain_seq"] is not None:
                checked += 1
                assert acc["p_correct"] == 1.0 and acc["correct"]
                assert acc["first_certain_seq"] == certain[acc["player"]] < acc["seq"]
                assert acc["turns_waited"] >= 0
            if acc["p_correct"] == 1.0:
                assert acc["first_certain_seq"] is not None
    assert checked > 0, "the simulated notebook players accuse when certain"


def test_accuracy_in_range_and_labelled(deep_games) -> None:
    for _, rows in deep_games:
        for s in rows.tables["suggestions"]:
            assert 0.0 <= s["accuracy"] <= 1.0
            assert s["best_gain_bits"] >= s["expected_gain_bits"] - 1e-12
            assert s["bits_lost"] == pytest.approx(s["best_gain_bits"] - s["expected_gain_bits"], abs=1e-12)
            assert s["label"] == suggestions.label(s["bits_lost"])
            assert s["best_room"] == s["room"]  # a board game: the candidates are in the suggester's room
            if s["label"] == "best":
                assert s["accuracy"] >= 0.999
        for p in rows.tables["players"]:
            mine = [s for s in rows.tables["suggestions"] if s["player"] == p["name"]]
            assert p["rated_suggestions"] == len(mine)
            pairs = [(s["expected_gain_bits"], s["best_gain_bits"]) for s in mine]
            assert p["review_accuracy"] == suggestions.review_accuracy(pairs)


def test_information_rows_cover_every_observer(simulated) -> None:
    for game, rows in simulated:
        info = rows.tables["information"]
        n_records = sum(1 for r in game.records if r.type in ("suggest", "reveal", "peek")) + sum(
            1 for a in rows.tables["accusations"] if a["correct"] is False
        )
        assert len(info) == n_records * (game.n_players + 1)
        assert all(not math.isnan(r["gain_bits"]) for r in info)
        assert not any(r["partial_view"] for r in info)  # simulated logs hold every hand
