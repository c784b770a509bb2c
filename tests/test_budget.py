"""The counting budget (engine.budget): work, memory and time limits, checked inside the counting
programs and between counts."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clue_stats.engine import budget, counting, counting_kernel
from clue_stats.engine.knowledge import knowledge_at
from tests.helpers import random_game, small_deck


def _hard_knowledge():
    """The table's knowledge late in a 6-player game on a 7/7/10 deck with no hand and no shown
    card logged: one count generates some hundred thousand states."""
    game = random_game(3, n_players=6, n_suggestions=14, deck=small_deck(7, 7, 10), blind=True)
    return knowledge_at(game, None, len(game.records) - 1)


def _unlimited_spend(k) -> tuple[dict, int]:
    counting.clear_caches()
    with budget.limited(budget.Limits(states=None, memory_mb=None, seconds=None)) as b:
        counts = counting.solution_counts_by_index(k)
    return counts, b.spent


@pytest.fixture(scope="module")
def hard():
    k = _hard_knowledge()
    counts, spent = _unlimited_spend(k)
    assert spent > 50_000  # the test below needs a count far above its small limits
    return k, counts, spent


def test_no_budget_and_an_ample_one_count_the_same(hard):
    k, counts, spent = hard
    counting.clear_caches()
    assert counting.solution_counts_by_index(k) == counts  # no budget in force: no limit
    counting.clear_caches()
    with budget.limited(budget.Limits(states=spent * 2, memory_mb=1024, seconds=600)) as b:
        assert counting.solution_counts_by_index(k) == counts
    assert b.spent == spent and b.counts == 1


def test_work_limit_stops_inside_the_count_deterministically(hard):
    k, _, spent = hard
    limit = spent // 10
    seen = []
    for _ in range(2):
        counting.clear_caches()
        with budget.limited(budget.Limits(states=limit, memory_mb=None, seconds=None)) as b:
            with pytest.raises(budget.BudgetExceeded) as caught:
                counting.solution_counts_by_index(k)
        assert caught.value.reason == "work"
        assert f"{limit:,} states" in caught.value.message
        seen.append(b.spent)
    # stopped just past the limit (one state's successors at most), not at the end of the count
    assert seen[0] == seen[1] and limit < seen[0] < limit + 1_000 < spent


def test_memory_limit_caps_one_count(hard):
    k, _, spent = hard
    memory_mb = 1
    allowed = (1 << 20) // budget.BYTES_PER_STATE
    assert allowed < spent
    counting.clear_caches()
    with budget.limited(budget.Limits(states=None, memory_mb=memory_mb, seconds=None)) as b:
        with pytest.raises(budget.BudgetExceeded) as caught:
            counting.solution_counts_by_index(k)
    assert caught.value.reason == "memory" and "1 MiB" in caught.value.message
    assert allowed < b.spent < allowed + 1_000


def test_the_exact_python_program_keeps_the_budget_too(hard, monkeypatch):
    k, counts, _ = hard
    monkeypatch.setattr(counting_kernel, "fits", lambda pl: False)
    counting.clear_caches()
    with budget.limited(budget.Limits(states=5_000, memory_mb=None, seconds=None)) as b:
        with pytest.raises(budget.BudgetExceeded) as caught:
            counting.solution_counts_by_index(k)
    assert caught.value.reason == "work" and 5_000 < b.spent <= 5_001


def test_time_is_checked_before_every_count(hard):
    k, _, _ = hard
    counting.clear_caches()
    with budget.limited(budget.Limits(states=None, memory_mb=None, seconds=60)) as b:
        b.deadline = time.monotonic() - 1  # as if a minute of counting had passed
        with pytest.raises(budget.BudgetExceeded) as caught:
            counting.solution_counts_by_index(k)
    assert caught.value.reason == "time" and "60 s" in caught.value.message
    assert b.spent == 0


def test_limits_from_options_then_environment_then_defaults(monkeypatch):
    monkeypatch.delenv(budget.ENV_WORK, raising=False)
    monkeypatch.delenv(budget.ENV_MEMORY, raising=False)
    monkeypatch.delenv(budget.ENV_SECONDS, raising=False)
    assert budget.Limits.from_env() == budget.Limits()
    monkeypatch.setenv(budget.ENV_WORK, "1000")
    monkeypatch.setenv(budget.ENV_SECONDS, "0")  # 0: no limit
    limits = budget.Limits.from_env(memory_mb=64)
    assert limits == budget.Limits(states=1000, memory_mb=64, seconds=None)
    assert budget.Limits.from_env(states=5).states == 5
    monkeypatch.setenv(budget.ENV_MEMORY, "lots")
    with pytest.raises(ValueError, match=budget.ENV_MEMORY):
        budget.Limits.from_env()
