"""The counting budget (engine.budget): work, memory and time limits, checked inside the counting
programs and between counts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clue_stats import pipeline
from clue_stats.analysis.computers import game_analysis
from clue_stats.cli import app
from clue_stats.engine import budget, counting, counting_kernel, rules
from clue_stats.engine.errors import UsageError
from clue_stats.engine.knowledge import knowledge_at
from clue_stats.ingest import store
from clue_stats.ingest.cluelog import write_game
from clue_stats.testing import random_game, small_deck


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


def test_memory_limit_refuses_a_count_before_it_would_hold_more(hard):
    k, counts, spent = hard
    counting.clear_caches()
    with budget.limited(budget.Limits(states=None, memory_mb=None, seconds=None)) as b:
        counting.solution_counts_by_index(k)
    held = b.most_held  # the most the count held, as the limit reckons it
    assert held > 1 << 20
    # a limit below it: refused before the allocation that would pass it, which the message names
    limit_mb = held / 2 / (1 << 20)
    counting.clear_caches()
    with budget.limited(budget.Limits(states=None, memory_mb=limit_mb, seconds=None)) as b:
        with pytest.raises(budget.BudgetExceeded) as caught:
            counting.solution_counts_by_index(k)
    assert caught.value.reason == "memory" and f"{limit_mb:g} MiB" in caught.value.message
    assert "it was about to hold" in caught.value.message
    assert limit_mb * (1 << 20) < b.most_held <= held and b.spent < spent
    # a limit at it: the count runs to the end
    counting.clear_caches()
    with budget.limited(budget.Limits(states=None, memory_mb=held / (1 << 20), seconds=None)):
        assert counting.solution_counts_by_index(k) == counts


_PEAK = """
from clue_stats.engine import budget, counting, rules
from clue_stats.testing import random_game, small_deck

def status(field):
    with open("/proc/self/status") as lines:
        return next(int(line.split()[1]) * 1024 for line in lines if line.startswith(field + ":"))

game = random_game(2, n_players=6, n_suggestions=40, deck=small_deck(10, 8, 12), blind=True)
rules.validate(random_game(2, n_players=6, n_suggestions=4, deck=small_deck(10, 8, 12), blind=True))
counting.clear_caches()
with open("/proc/self/clear_refs", "w") as refs:
    refs.write("5")  # the peak resident memory starts again from now
start = status("VmRSS")
with budget.limited(budget.Limits(states=None, memory_mb=None, seconds=None)) as b:
    rules.validate(game)
print(b.most_held, status("VmHWM") - start)
"""


@pytest.mark.slow
def test_the_memory_reckoned_is_within_twice_what_the_count_takes():
    # the checks of a 10/8/12 game with no hand logged (its largest count holds some 16 MiB), in a
    # process of its own: its peak resident memory against what the memory limit reckons. The C
    # library's allocator gives large blocks back at once (a fixed mmap threshold), so that the
    # resident memory follows what the count holds
    env = {**os.environ, "MALLOC_MMAP_THRESHOLD_": "65536"}
    run = subprocess.run([sys.executable, "-c", _PEAK], env=env, capture_output=True, text=True, check=True)
    reckoned, measured = map(int, run.stdout.split())
    assert reckoned > 8 << 20
    assert reckoned / 2 <= measured <= 2 * reckoned, (reckoned >> 20, measured >> 20)


@pytest.mark.slow
def test_the_exact_python_program_keeps_the_budget_too(hard, monkeypatch):
    k, counts, _ = hard
    monkeypatch.setattr(counting_kernel, "fits", lambda pl: False)
    monkeypatch.setattr(counting_kernel, "compiled", lambda pl: False)
    counting.clear_caches()
    with budget.limited(budget.Limits(states=5_000, memory_mb=None, seconds=None)) as b:
        with pytest.raises(budget.BudgetExceeded) as caught:
            counting.solution_counts_by_index(k)
    assert caught.value.reason == "work" and b.spent == 5_001
    # its memory: the states it holds (a tenth of a MiB holds 409 of them)
    counting.clear_caches()
    with budget.limited(budget.Limits(states=None, memory_mb=0.1, seconds=None)):
        with pytest.raises(budget.BudgetExceeded) as caught:
            counting.solution_counts_by_index(k)
    assert caught.value.reason == "memory" and "0.1 MiB" in caught.value.message
    counting.clear_caches()
    with budget.limited(budget.Limits(states=None, memory_mb=64, seconds=None)):
        assert counting.solution_counts_by_index(k) == counts


def test_time_is_checked_before_every_count(hard):
    k, _, _ = hard
    counting.clear_caches()
    with budget.limited(budget.Limits(states=None, memory_mb=None, seconds=60)) as b:
        b.deadline = time.monotonic() - 1  # as if a minute of counting had passed
        with pytest.raises(budget.BudgetExceeded) as caught:
            counting.solution_counts_by_index(k)
    assert caught.value.reason == "time" and "60 s" in caught.value.message
    assert b.spent == 0


def test_time_is_looked_at_inside_a_count(hard, monkeypatch):
    """The seconds left are given to a count as states at the rate the stage's counts ran: a count
    that would run past the deadline stops inside, as a time cut, not after it ends."""
    k, _, spent = hard
    counting.clear_caches()
    with budget.limited(budget.Limits(states=None, memory_mb=None, seconds=60)) as b:
        # as if the stage had counted for 59.9 s at 1,000 states a second: 0.1 s left is 150 states
        b.deadline = time.monotonic() + 0.1
        b.counting_seconds, b.spent = 59.9, 59_900
        with pytest.raises(budget.BudgetExceeded) as caught:
            counting.solution_counts_by_index(k)
    assert caught.value.reason == "time" and "time limit of 60 s" in caught.value.message
    stopped_after = b.spent - 59_900
    assert 0 < stopped_after < 150 + 1_000 < spent  # inside the count, just past its share of the time


def test_time_left_given_as_states_follows_the_rate_and_an_untimed_stage_the_prior(monkeypatch):
    monkeypatch.setattr(budget, "_process_rate", [])
    b = budget.Budget(budget.Limits(states=None, memory_mb=None, seconds=10))
    work, _ = b.allowance()
    assert work == pytest.approx(budget.PRIOR_STATES_PER_SECOND * 10 * budget.TIME_SLACK, rel=0.01)
    b.spend(4_000_000)
    b.counting_seconds = 2.0  # 2 million states a second
    b.deadline = time.monotonic() + 1.0
    work, _ = b.allowance()
    assert work == pytest.approx(2_000_000 * 1.0 * budget.TIME_SLACK, rel=0.05)
    # a work limit smaller than the time left is the work limit, and said so
    b = budget.Budget(budget.Limits(states=1_000, memory_mb=None, seconds=10))
    work, _ = b.allowance()
    assert work == 1_000 and b.stopped(1_001, work).reason == "work"


def test_an_inconsistency_found_within_the_budget_rejects_the_game_though_its_search_is_cut():
    from clue_stats.ingest import cluelog, formats
    from tests.helpers import FIXTURES

    raw = next(iter(formats.iter_file(FIXTURES / "invalid" / "inconsistent.jsonl")))
    game, _ = cluelog.build_game(raw)
    counting.clear_caches()
    with budget.limited(budget.UNLIMITED) as b:
        assert [(p.code, p.seq) for p in rules.validate(game).problems] == [("inconsistent", 7)]
    counting.clear_caches()
    # one state short: the scan finds the contradiction, the search for the records it contradicts stops
    with budget.limited(budget.Limits(states=b.spent - 1, memory_mb=None, seconds=None)):
        problems = rules.validate(game).problems
    assert [(p.code, p.seq) for p in problems] == [("inconsistent", 7), ("over_budget", 7)]
    assert problems[0].is_error and "the records it contradicts were not searched" in problems[0].message
    assert problems[1].message.startswith("the records this one contradicts were not searched: counting the deals")


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
    with pytest.raises(UsageError, match=budget.ENV_MEMORY):
        budget.Limits.from_env()


# -- the budget in a run ----------------------------------------------------------------------------


def _write(folder: Path, name: str, game) -> Path:
    path = folder / name
    path.write_text(write_game(game), encoding="utf-8")
    return path


@pytest.mark.slow
def test_games_past_the_budget_keep_the_stages_that_fit_beside_an_ordinary_one(tmp_path, db, monkeypatch):
    folder = tmp_path / "night"
    folder.mkdir()
    # an ordinary game: every hand dealt, 3 players (its analysis generates some 100,000 states)
    _write(folder, "a_ordinary.jsonl", random_game(1, n_players=3))
    # a big deck with every hand dealt: its checks count nothing, each player's view counts millions
    _write(folder, "b_dealt.jsonl", random_game(2, n_players=6, n_suggestions=20, deck=small_deck(8, 8, 12)))
    # the same deck with no hand and no shown card logged: its checks count millions
    _write(
        folder, "c_blind.jsonl", random_game(3, n_players=6, n_suggestions=20, deck=small_deck(8, 8, 12), blind=True)
    )
    monkeypatch.setattr(pipeline, "PARALLEL_FROM", 1)  # every game in a worker process
    result = CliRunner().invoke(
        app, ["ingest", str(folder), "--db", str(db), "--workers", "2", "--budget-states", "1000000"]
    )
    assert result.exit_code == 0, result.output
    assert "3 games stored" in result.stdout and "2 over the budget" in result.stdout
    assert "over_budget: the analysis left out the review of the suggestions from line" in result.stderr
    with store.read_connection(db) as con:
        games = {
            Path(f).name: (gid, version, cut)
            for gid, f, version, cut in con.sql(
                "SELECT game_id, source_file, analysis_version, analysis_cut FROM games"
            ).fetchall()
        }
        assert games["a_ordinary.jsonl"][1:] == (game_analysis.ANALYSIS_VERSION, None)
        # the dealt game: analysed, but for the stages past the budget, which its analysis_cut names
        assert games["b_dealt.jsonl"][1] == game_analysis.ANALYSIS_VERSION
        assert "the review of the suggestions from line" in games["b_dealt.jsonl"][2]
        assert games["c_blind.jsonl"][1:] == (None, None)  # its checks ran out: stored without analysis
        reviewed = con.sql(
            "SELECT count(best_gain_bits) FROM suggestions WHERE game_id = ?", params=[games["b_dealt.jsonl"][0]]
        ).fetchall()
        assert reviewed[0][0] > 0  # the suggestions before the cut keep their review
        problems = con.sql(
            "SELECT game_id, seq, severity, message FROM problems WHERE code = 'over_budget' ORDER BY game_id, seq"
        ).fetchall()
    by_game: dict[str, list] = {}
    for gid, seq, severity, message in problems:
        by_game.setdefault(gid, []).append((seq, severity, message))
    assert set(by_game) == {games["b_dealt.jsonl"][0], games["c_blind.jsonl"][0]}
    dealt = by_game[games["b_dealt.jsonl"][0]]
    assert all(severity == "warning" and message.startswith("the analysis left out ") for _, severity, message in dealt)
    assert [m.split(": ")[0] for _, _, m in dealt] == [
        f"the analysis left out {w}" for w in games["b_dealt.jsonl"][2].split("; ")
    ]
    review = next((seq, m) for seq, _, m in dealt if "the review of" in m)
    assert "the review of the suggestions from line " in review[1]  # records by the line of their file
    assert "counting the deals generated more than the limit of 1,000,000 states" in review[1]
    ((seq, _, message),) = by_game[games["c_blind.jsonl"][0]]
    assert seq > 0 and message.startswith("the consistency of the log from this suggest on was not checked")
    assert message.endswith("the game is stored without its analysis")


def _review_cut_game():
    """A classic 6-player game whose information fits in 400,000 states and whose review does not
    (358,294 states for the entropy table; 2.6 million for the whole analysis)."""
    return random_game(2, n_players=6, n_suggestions=12)


REVIEW_CUT = budget.Limits(states=400_000, memory_mb=None, seconds=None)


@pytest.mark.slow
def test_a_game_over_the_budget_only_in_its_review_keeps_every_other_stage():
    game = _review_cut_game()
    counting.clear_caches()
    whole = game_analysis.analyse_game(game)
    counting.clear_caches()  # the cut analysis counts afresh, as a worker meeting the game would
    rows, cuts = game_analysis.analyse_within(game, None, "night.jsonl", True, REVIEW_CUT)
    ((cut,),) = [cuts]
    first = cut.seq
    last = max(r.seq for r in game.records if r.type == "suggest")
    assert cut.code == "over_budget"
    span = f"from {game.where(first)} to {game.where(last)}"  # generated: no file, so no line
    assert span == f"from record {first} (no line of the file known) to record {last} (no line of the file known)"
    assert cut.message.startswith(f"the analysis left out the review of the suggestions {span}: ")
    assert rows.tables["games"][0]["analysis_version"] == game_analysis.ANALYSIS_VERSION
    assert rows.tables["games"][0]["analysis_cut"] == f"the review of the suggestions {span}"
    # every other stage as the whole analysis has it
    assert rows.tables["information"] == whole.tables["information"]
    assert rows.tables.get("accusations") == whole.tables.get("accusations")
    keep = ("first_certain_seq", "missed_win", "rated_suggestions")
    assert [{c: p[c] for c in keep} for p in rows.tables["players"]] == [
        {c: p[c] for c in keep} for p in whole.tables["players"]
    ]
    for got, want in zip(rows.tables["suggestions"], whole.tables["suggestions"], strict=True):
        assert got["expected_gain_bits"] == want["expected_gain_bits"] and got["giveaway_bits"] == want["giveaway_bits"]
        if got["seq"] < first:
            assert got == want  # reviewed before the cut
        else:
            assert got["best_gain_bits"] is None and got["label"] is None
    assert all(p["review_accuracy"] is None for p in rows.tables["players"] if p["rated_suggestions"])
    assert [r["code"] for r in rows.tables["problems"]] == ["over_budget"]


@pytest.mark.slow
def test_analyse_completes_a_game_whose_review_was_cut_under_a_larger_budget(tmp_path, db):
    folder = tmp_path / "night"
    folder.mkdir()
    _write(folder, "six.jsonl", _review_cut_game())
    runner = CliRunner()
    counting.clear_caches()
    cut = runner.invoke(app, ["ingest", str(folder), "--db", str(db), "--workers", "1", "--budget-states", "400000"])
    assert cut.exit_code == 0, cut.output
    assert "1 over the budget" in cut.stdout and "the review of the suggestions from line" in cut.stderr

    def state():
        with store.read_connection(db) as con:
            return (
                con.sql("SELECT analysis_version, analysis_cut FROM games").fetchall()[0],
                con.sql("SELECT count(*) FROM information").fetchall()[0][0],
                con.sql("SELECT count(*) FROM problems WHERE code = 'over_budget'").fetchall()[0][0],
                con.sql("SELECT count(*) FROM suggestions WHERE best_gain_bits IS NULL").fetchall()[0][0],
            )

    (version, what), information, over, unreviewed = state()
    assert version == game_analysis.ANALYSIS_VERSION and what.startswith("the review of the suggestions from line")
    assert information > 0 and over == 1 and unreviewed > 0
    # the same budget again: the game is tried, cut at the same record, and stays as it was
    again = runner.invoke(app, ["analyse", "--db", str(db), "--workers", "1", "--budget-states", "400000"])
    assert again.exit_code == 0, again.output
    assert "1 over the budget (1 partly analysed, 0 left as they were)" in again.stdout
    assert state() == ((version, what), information, 1, unreviewed)
    done = runner.invoke(app, ["analyse", "--db", str(db), "--workers", "1", "--budget-states", "0"])
    assert done.exit_code == 0, done.output
    assert "1 game analysed" in done.stdout and "1 of 1 stored game reviewed" in done.stdout
    assert state() == ((version, None), information, 0, 0)


def test_validate_reports_the_budget_and_goes_on(tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    _write(folder, "blind.jsonl", random_game(3, n_players=6, n_suggestions=20, deck=small_deck(8, 8, 12), blind=True))
    _write(folder, "ordinary.jsonl", random_game(1, n_players=3))
    result = CliRunner().invoke(app, ["validate", str(folder), "--budget-states", "1000000", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games_valid"] == 2 and data["games_over_budget"] == 1
    assert [p["code"] for p in data["problems"]] == ["no_deals", "over_budget"]


def test_the_budgets_problem_is_said_in_the_readers_language(tmp_path):
    """over_budget in German: what was not checked and which limit stopped it, the numbers as the
    English message has them; the English message in --json."""
    folder = tmp_path / "logs"
    folder.mkdir()
    _write(folder, "blind.jsonl", random_game(3, n_players=6, n_suggestions=20, deck=small_deck(8, 8, 12), blind=True))
    english = json.loads(
        CliRunner().invoke(app, ["validate", str(folder), "--budget-states", "1000000", "--json"]).stdout
    )["problems"][-1]["message"]
    assert "counting the deals generated more than the limit of 1,000,000 states (" in english
    result = CliRunner().invoke(app, ["--lang", "de", "validate", str(folder), "--budget-states", "1000000"])
    [line] = [x for x in result.stdout.splitlines() if ": over_budget: " in x]
    assert line.split(": over_budget: ")[1].startswith("die Widerspruchsfreiheit des Protokolls ab diesem ")
    assert ": das Zählen der Verteilungen erzeugte mehr als die Grenze von 1.000.000 Zuständen (" in line


def test_a_bad_budget_setting_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.setenv(budget.ENV_SECONDS, "soon")
    result = CliRunner().invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 2 and budget.ENV_SECONDS in result.stderr


@pytest.mark.slow
def test_analyse_leaves_a_game_none_of_whose_stages_fit_as_it_was(tmp_path, db):
    folder = tmp_path / "night"
    folder.mkdir()
    # no hand and no shown card logged: nothing to rate or to give away, every other stage counts
    _write(folder, "blind.jsonl", random_game(3, n_players=6, n_suggestions=20, deck=small_deck(8, 8, 12), blind=True))
    runner = CliRunner()
    assert runner.invoke(app, ["ingest", str(folder), "--db", str(db), "--no-analyse"]).exit_code == 0
    result = runner.invoke(app, ["analyse", "--db", str(db), "--workers", "1", "--budget-states", "10"])
    assert result.exit_code == 0, result.output
    assert "0 games analysed" in result.stdout
    assert "1 over the budget (0 partly analysed, 1 left as they were)" in result.stdout
    assert result.stderr.count("over_budget: the analysis left out") == 2 and "blind.jsonl" in result.stderr
    with store.read_connection(db) as con:
        assert con.sql("SELECT analysis_version, analysis_cut FROM games").fetchall() == [(None, None)]


# -- stored games are recognised before their checks and analysis ----------------------------------


@pytest.mark.slow
def test_reingesting_stored_games_checks_and_analyses_none_of_them(samples, db, monkeypatch):
    runner = CliRunner()
    first = runner.invoke(app, ["ingest", str(samples), "--db", str(db), "--workers", "1", "--json"])
    before = json.loads(first.stdout)
    stored = before["games_stored"] + before["games_skipped"]  # a sample is there twice (.clue and .jsonl)
    assert before["games_stored"] > 0
    calls = []
    real = game_analysis._analyse
    monkeypatch.setattr(game_analysis, "_analyse", lambda *a, **k: calls.append(1) or real(*a, **k))
    monkeypatch.setattr(pipeline, "validate", lambda game: calls.append(2) or rules.validate(game))
    again = runner.invoke(app, ["ingest", str(samples), "--db", str(db), "--workers", "1", "--json"])
    data = json.loads(again.stdout)
    assert data["games_stored"] == 0 and data["games_skipped"] == stored
    assert calls == []
    # a new game beside them is checked and analysed as usual
    _write(samples, "new.jsonl", random_game(5, n_players=3))
    third = json.loads(runner.invoke(app, ["ingest", str(samples), "--db", str(db), "--workers", "1", "--json"]).stdout)
    assert third["games_stored"] == 1 and third["games_skipped"] == stored and sorted(set(calls)) == [1, 2]


# -- every view counts under the budget, and shows a game stored over it as it was stored ----------


@pytest.mark.slow
def test_the_report_of_a_game_stored_over_the_budget_shows_what_was_stored_and_counts_nothing_again(
    tmp_path, db, monkeypatch
):
    from clue_stats.engine import deduction

    folder = tmp_path / "night"
    folder.mkdir()
    _write(folder, "six.jsonl", _review_cut_game())
    runner = CliRunner()
    counting.clear_caches()
    assert runner.invoke(app, ["ingest", str(folder), "--db", str(db), "--budget-states", "400000"]).exit_code == 0
    with store.read_connection(db) as con:
        [(game_id, cut)] = con.sql("SELECT game_id, analysis_cut FROM games").fetchall()

    def counted(*args, **kwargs):
        raise AssertionError("the report counted the game again")

    monkeypatch.setattr(deduction, "entropy_table", counted)
    monkeypatch.setattr(deduction, "candidate_gains", counted)
    result = runner.invoke(app, ["report", game_id, "--db", str(db), "--format", "md", "--out", "-"])
    assert result.exit_code == 0, result.output
    assert f"{game_id} was stored over the counting budget: the report shows what was stored" in result.stderr
    assert "computing" not in result.stderr
    assert "Left out, over the counting budget" in result.stdout
    assert f"- the analysis left out {cut}: counting the deals generated more than the limit of 400,000" in (
        result.stdout.replace("\\", "")
    )
    assert "## The race to the solution" in result.stdout and "Not computed" not in result.stdout


@pytest.mark.slow
def test_the_report_counts_what_the_store_lacks_under_the_budget_of_ingest(tmp_path, db):
    folder = tmp_path / "night"
    folder.mkdir()
    _write(folder, "six.jsonl", _review_cut_game())
    runner = CliRunner()
    assert runner.invoke(app, ["ingest", str(folder), "--db", str(db), "--no-analyse"]).exit_code == 0
    with store.read_connection(db) as con:
        [(game_id,)] = con.sql("SELECT game_id FROM games").fetchall()
    counting.clear_caches()
    result = runner.invoke(
        app, ["report", game_id, "--db", str(db), "--format", "md", "--out", "-", "--budget-states", "400000"]
    )
    assert result.exit_code == 0, result.output
    assert f"computing the analysis of {game_id}" in result.stderr
    assert f"{game_id}: over_budget: the analysis left out the review of the suggestions from line" in result.stderr
    assert "Left out, over the counting budget" in result.stdout
    # every stage that fits is in the report: the entropy over the game, when each became certain
    assert "## The race to the solution" in result.stdout and "Not computed" not in result.stdout


def test_the_notebook_command_counts_under_the_budget_of_ingest(tmp_path, monkeypatch):
    path = _write(tmp_path, "six.jsonl", _review_cut_game())
    counting.clear_caches()
    monkeypatch.setenv(budget.ENV_WORK, "10")
    result = CliRunner().invoke(app, ["notebook", str(path), "--observer", "table", "--at", "8"])
    assert result.exit_code == 1
    assert "the notebook of --observer table in" in result.stderr and "after seq 8 was not counted" in result.stderr
    assert "counting the deals generated more than the limit of 10 states" in result.stderr
    assert "Traceback" not in result.output
    ok = CliRunner().invoke(app, ["notebook", str(path), "--observer", "table", "--at", "8", "--budget-states", "0"])
    assert ok.exit_code == 0 and "consistent deals" in ok.stdout


@pytest.mark.slow
def test_the_games_list_says_which_games_the_budget_analysed_partly(tmp_path, db):
    folder = tmp_path / "night"
    folder.mkdir()
    _write(folder, "six.jsonl", _review_cut_game())
    _write(folder, "ordinary.jsonl", random_game(1, n_players=3))
    runner = CliRunner()
    counting.clear_caches()
    assert runner.invoke(app, ["ingest", str(folder), "--db", str(db), "--budget-states", "400000"]).exit_code == 0
    with store.read_connection(db) as con:
        [(game_id, cut)] = con.sql("SELECT game_id, analysis_cut FROM games WHERE analysis_cut IS NOT NULL").fetchall()
    listed = runner.invoke(app, ["games", "--db", str(db)])
    assert listed.exit_code == 0
    assert f"{game_id}: partly analysed: the counting budget left out {cut}" in " ".join(listed.stdout.split())
    assert listed.stdout.count("partly analysed") == 1
    # in German, what was left out is said in German too (from the game's stored problem)
    german = " ".join(runner.invoke(app, ["--lang", "de", "games", "--db", str(db)]).stdout.split())
    assert f"{game_id}: teilweise analysiert: das Zählbudget ließ " in german
    assert "Verdächtigungen" in german.split("teilweise analysiert")[1] and "suggestion" not in german
    data = json.loads(runner.invoke(app, ["games", "--db", str(db), "--json"]).stdout)
    assert {g["game_id"]: g["analysis_cut"] for g in data["games"]}[game_id] == cut
