"""The league's ratings on a small hand-made season, through the real pipeline and CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clue_stats import pipeline
from clue_stats.cli import app
from clue_stats.ingest import store
from tests.helpers import SEASON, game_lines, write_games

pytestmark = pytest.mark.slow  # about a second or more a test: make test-fast leaves them out

runner = CliRunner()


def ingest(paths: list[Path], db: Path) -> None:
    summary = pipeline.ingest_paths([str(p) for p in paths], db, analyse=False, workers=1)
    assert summary.games_rejected == 0, summary.problems


def ratings(db: Path, pool: str = "people") -> list[tuple]:
    with store.read_connection(db) as con:
        return con.execute(
            "SELECT game_index, game_id, seat, player, rank, mu_before, sigma_before, mu_after, sigma_after, "
            "rating_after FROM ratings WHERE pool = ? ORDER BY game_index, seat",
            [pool],
        ).fetchall()


def final(db: Path, pool: str = "people") -> dict[str, float]:
    with store.read_connection(db) as con:
        rows = con.execute(
            "SELECT player, arg_max(rating_after, game_index) FROM ratings WHERE pool = ? GROUP BY player", [pool]
        ).fetchall()
    return dict(rows)


def test_the_player_who_wins_most_ends_highest(tmp_path: Path) -> None:
    db = tmp_path / "season.duckdb"
    ingest([write_games(tmp_path / "season.jsonl", SEASON)], db)
    rows = ratings(db)
    assert len({r[1] for r in rows}) == len(SEASON)
    table = final(db)
    assert max(table, key=table.get) == "Alice"
    assert sorted(table, key=table.get, reverse=True)[:2] == ["Alice", "Bob"]
    # each game starts from where the player's previous game ended
    last: dict[str, tuple[float, float]] = {}
    for _, _, _, player, _, mu0, sigma0, mu1, sigma1, _ in rows:
        assert (mu0, sigma0) == last.get(player, (25.0, 25.0 / 3))
        last[player] = (mu1, sigma1)


def test_ranks_winner_then_still_in_then_the_later_eliminated(tmp_path: Path) -> None:
    db = tmp_path / "ranks.duckdb"
    ingest([write_games(tmp_path / "season.jsonl", SEASON)], db)
    by_game: dict[str, dict[str, int]] = {}
    for _, game_id, _, player, rank, *_ in ratings(db):
        by_game.setdefault(game_id, {})[player] = rank
    # s03: Alice wins; Carol out first, then Bob
    assert by_game["s03"] == {"Alice": 1, "Bob": 3, "Carol": 4}
    # s01: Alice wins, Bob and Carol still in (tied), Dave out
    assert by_game["s01"] == {"Alice": 1, "Bob": 2, "Carol": 2, "Dave": 3}
    # s10: nobody wins, all four out: Carol (last out) ahead of Alice, Dave, Bob; nobody first
    assert by_game["s10"] == {"Carol": 3, "Alice": 4, "Dave": 5, "Bob": 6}
    # the winner of a game gains, the first out loses
    rows = {(r[1], r[3]): r for r in ratings(db)}
    assert rows[("s03", "Alice")][7] > rows[("s03", "Alice")][5]
    assert rows[("s03", "Carol")][7] < rows[("s03", "Carol")][5]


def test_a_game_added_in_the_past_equals_a_recomputation_from_scratch(tmp_path: Path) -> None:
    past = SEASON[4]  # s05, played 2026-09-18, ingested last
    rest = [g for g in SEASON if g is not past]
    db = tmp_path / "late.duckdb"
    ingest([write_games(tmp_path / "rest.jsonl", rest)], db)
    before = final(db)
    ingest([write_games(tmp_path / "late" / "s05.jsonl", [past])], db)
    scratch = tmp_path / "scratch.duckdb"
    ingest([write_games(tmp_path / "all.jsonl", SEASON)], scratch)
    assert ratings(db) == ratings(scratch)
    assert final(db) != before  # the later ratings did change
    assert [r[1] for r in ratings(db)][:1] == ["s01"]


def test_deleting_and_correcting_a_game_rates_the_later_games_again(tmp_path: Path) -> None:
    db = tmp_path / "season.duckdb"
    ingest([write_games(tmp_path / "season.jsonl", SEASON)], db)
    assert pipeline.delete_games(db, ["s03"]) == ["s03"]
    without = tmp_path / "without.duckdb"
    ingest([write_games(tmp_path / "without.jsonl", [g for g in SEASON if g[0] != "s03"])], without)
    assert ratings(db) == ratings(without)
    # the corrected log of s03 (Bob won it, in truth) is stored again
    corrected = [("s03", "2026-09-11T20:00", ["Alice", "Bob", "Carol"], "Bob", ("Carol", "Alice"))]
    ingest([write_games(tmp_path / "fixed" / "s03.jsonl", corrected)], db)
    fixed = tmp_path / "fixed.duckdb"
    ingest([write_games(tmp_path / "fixed.jsonl", [corrected[0] if g[0] == "s03" else g for g in SEASON])], fixed)
    assert ratings(db) == ratings(fixed)


def test_a_corrected_log_stored_with_replace_rates_the_later_games_again(tmp_path: Path) -> None:
    db = tmp_path / "season.duckdb"
    ingest([write_games(tmp_path / "season.jsonl", SEASON)], db)
    corrected = [("s05", "2026-09-18T20:00", ["Alice", "Bob", "Carol", "Dave"], "Dave", ("Bob",))]
    result = runner.invoke(
        app, ["ingest", str(write_games(tmp_path / "fixed" / "s05.jsonl", corrected)), "--replace", "--db", str(db)]
    )
    assert result.exit_code == 0, result.output
    fixed = tmp_path / "fixed.duckdb"
    ingest([write_games(tmp_path / "fixed.jsonl", [corrected[0] if g[0] == "s05" else g for g in SEASON])], fixed)
    assert ratings(db) == ratings(fixed)


def test_a_merged_name_rates_as_a_log_written_with_one_name(tmp_path: Path) -> None:
    robert = {"s02", "s06", "s12"}
    split = tmp_path / "split.duckdb"
    for game in SEASON:  # Bob wrote "Robert" on three nights
        rename = {"Bob": "Robert"} if game[0] in robert else None
        ingest([write_games(tmp_path / "split" / f"{game[0]}.jsonl", [game], rename)], split)
    one = tmp_path / "one.duckdb"
    ingest([write_games(tmp_path / "one.jsonl", SEASON)], one)
    separate = ratings(split)
    assert "Robert" in final(split)

    result = runner.invoke(app, ["players", "merge", "Bob", "Robert", "--db", str(split)])
    assert result.exit_code == 0, result.output
    assert ratings(split) == ratings(one)
    listed = json.loads(runner.invoke(app, ["players", "--db", str(split), "--json"]).output)["players"]
    bob = next(p for p in listed if p["person"] == "Bob")
    assert bob["names"] == ["Robert"] and bob["games"] == 12
    assert not any(p["person"] == "Robert" for p in listed)

    result = runner.invoke(app, ["players", "unmerge", "Robert", "--db", str(split)])
    assert result.exit_code == 0, result.output
    assert ratings(split) == separate
    with store.read_connection(split) as con:  # the merge stays on record, undone
        assert con.execute("SELECT name, merged_into, unmerged_at IS NOT NULL FROM player_merges").fetchall() == [
            ("Robert", "Bob", True)
        ]


def test_merges_that_cannot_be(tmp_path: Path) -> None:
    db = tmp_path / "season.duckdb"
    ingest([write_games(tmp_path / "season.jsonl", SEASON)], db)
    result = runner.invoke(app, ["players", "merge", "Alice", "Bob", "--db", str(db)])
    assert result.exit_code == 2
    assert "sat at the same table" in result.output and "s01" in result.output
    result = runner.invoke(app, ["players", "merge", "Alice", "Alicia", "--db", str(db)])
    assert result.exit_code == 2 and "did you mean 'Alice'" in result.output
    result = runner.invoke(app, ["players", "unmerge", "Alice", "--db", str(db)])
    assert result.exit_code == 2 and "was not merged" in result.output
    assert "Traceback" not in result.output


def test_bots_and_simulations_are_rated_apart_from_people(tmp_path: Path) -> None:
    db = tmp_path / "mixed.duckdb"
    bots = tmp_path / "bots.jsonl"
    lines: list[str] = []
    for i in range(3):
        lines += game_lines(
            f"bot-{i}",
            f"2026-09-0{i + 1}T10:00",
            ["deepclue", "Alice"],
            "deepclue",
            strategies={"deepclue": "deepclue 2.1", "Alice": "notebook"},
        )
    bots.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = runner.invoke(
        app, ["simulate", "--games", "3", "--players", "3", "--seed", "4", "--out", str(tmp_path / "sim")]
    )
    assert result.exit_code == 0, result.output
    ingest([write_games(tmp_path / "season.jsonl", SEASON), bots, tmp_path / "sim"], db)
    people = {r[3] for r in ratings(db, "people")}
    assert people == {"Alice", "Bob", "Carol", "Dave"}
    assert {r[3] for r in ratings(db, "bots")} == {"deepclue", "Alice"}
    assert len({r[1] for r in ratings(db, "simulations")}) == 3
    # the bots' Alice is not the club's Alice: her people's rating ignores the bot games
    only_people = tmp_path / "people.duckdb"
    ingest([write_games(tmp_path / "season2.jsonl", SEASON)], only_people)
    assert ratings(db, "people") == ratings(only_people, "people")
    listed = json.loads(runner.invoke(app, ["players", "--db", str(db), "--json"]).output)["players"]
    assert {p["person"] for p in listed} == {"Alice", "Bob", "Carol", "Dave"}


@pytest.mark.parametrize("undated_first", [True, False])
def test_undated_games_are_rated_in_ingest_order(tmp_path: Path, undated_first: bool) -> None:
    db = tmp_path / "undated.duckdb"
    games = [(f"u{i}", None, ["Ann", "Ben"], "Ann" if i % 2 else "Ben", ()) for i in range(4)]
    ingest([write_games(tmp_path / "u.jsonl", games)], db)
    assert [r[1] for r in ratings(db)][::2] == ["u0", "u1", "u2", "u3"]


def _split_season(tmp_path: Path, renames: dict[str, dict[str, str]]) -> Path:
    """The season with some games' names written otherwise (game id -> rename)."""
    db = tmp_path / "split.duckdb"
    files = [write_games(tmp_path / "split" / f"{g[0]}.jsonl", [g], renames.get(g[0])) for g in SEASON]
    ingest(files, db)
    return db


def _league(db: Path) -> tuple[list, list]:
    with store.read_connection(db) as con:
        merges = con.execute("SELECT name, merged_into, unmerged_at IS NULL FROM player_merges ORDER BY ALL").fetchall()
        rated = con.execute("SELECT * FROM ratings ORDER BY pool, game_index, seat").fetchall()
    return merges, rated


# A command of the league run in its own process, stopped (kill -9 by its pid) while it computes the
# ratings again: after its merge, unmerge or delete was written and before it was committed.
KILLED_DURING_RATINGS = """
import sys, time
from pathlib import Path
from clue_stats import pipeline
from clue_stats.analysis.corpus import ratings

def rating_updates(*args, **kwargs):
    Path(sys.argv[2]).write_text("rating")
    time.sleep(120)

ratings.rating_updates = rating_updates
db, command = sys.argv[1], sys.argv[3]
if command == "merge":
    pipeline.merge_players(db, "Robert", "Bob")
elif command == "unmerge":
    pipeline.unmerge_player(db, "Robert")
else:
    pipeline.delete_games(db, ["s05"])
"""


@pytest.mark.parametrize("command", ["merge", "unmerge", "delete"])
def test_a_league_command_killed_while_it_rates_leaves_the_league_as_it_was(tmp_path: Path, command: str) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    from tests.helpers import ROOT

    db = _split_season(tmp_path, {g: {"Bob": "Robert"} for g in ("s02", "s06", "s12")})
    if command == "unmerge":
        pipeline.merge_players(db, "Robert", "Bob")
    before = _league(db)
    assert before[1], "the season is rated"
    flag = tmp_path / "rating"
    worker = subprocess.Popen(
        [sys.executable, "-c", KILLED_DURING_RATINGS, str(db), str(flag), command], cwd=ROOT, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 120
        while not flag.exists():
            assert worker.poll() is None, worker.stderr.read().decode() if worker.stderr else ""
            assert time.monotonic() < deadline, "the command never reached its ratings"
            time.sleep(0.05)
        os.kill(worker.pid, signal.SIGKILL)
    finally:
        worker.wait(timeout=60)
    assert _league(db) == before  # the merges, and every rating, as they were
    with store.read_connection(db) as con:
        assert con.execute("SELECT count(*) FROM games").fetchall()[0][0] == len(SEASON)


def test_the_undo_hint_names_the_merge_it_undoes(tmp_path: Path) -> None:
    db = _split_season(tmp_path, {"s02": {"Bob": "Robert"}, "s06": {"Bob": "Robert"}, "s12": {"Bob": "Rob"}})
    assert runner.invoke(app, ["players", "merge", "Bob", "Robert", "--db", str(db)]).exit_code == 0
    # Robert is Bob's already: merging Robert into Rob records Bob (Robert's person) into Rob
    result = runner.invoke(app, ["players", "merge", "Rob", "Robert", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "Recorded: 'Bob' merged into 'Rob'" in result.output
    hint = result.output.split("to undo this merge: ")[1].split()
    assert hint[:3] == ["clue-stats", "players", "unmerge"] and hint[3] == "'Bob'"
    merges, _ = _league(db)
    assert merges == [("Bob", "Rob", True), ("Robert", "Bob", True)]
    assert runner.invoke(app, ["players", "unmerge", "Bob", "--db", str(db)]).exit_code == 0
    merges, _ = _league(db)  # the hint undid the last merge, and only it
    assert merges == [("Bob", "Rob", False), ("Robert", "Bob", True)]


def test_a_person_is_not_merged_with_a_bot_or_a_simulated_player(tmp_path: Path) -> None:
    db = tmp_path / "mixed.duckdb"
    bots = tmp_path / "bots.jsonl"
    lines = game_lines(
        "bot-0", "2026-09-01T10:00", ["deepclue", "hal"], "deepclue", strategies={"deepclue": "d", "hal": "h"}
    )
    bots.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = runner.invoke(
        app, ["simulate", "--games", "1", "--players", "3", "--seed", "4", "--out", str(tmp_path / "sim")]
    )
    assert result.exit_code == 0, result.output
    ingest([write_games(tmp_path / "season.jsonl", SEASON), bots, tmp_path / "sim"], db)
    with store.read_connection(db) as con:
        simulated = con.execute(
            "SELECT p.name FROM players p JOIN games g USING (game_id) WHERE g.kind = 'simulated' LIMIT 1"
        ).fetchall()[0][0]
    before = _league(db)
    for other, what in (("deepclue", "a bot"), (simulated, "a simulated player")):
        result = runner.invoke(app, ["players", "merge", "Alice", other, "--db", str(db)])
        assert result.exit_code == 2, result.output
        assert f"'{other}' played as {what} and 'Alice' as a person" in result.output
        assert "--force" in result.output and "Traceback" not in result.output
    assert _league(db) == before
    result = runner.invoke(app, ["players", "merge", "deepclue", "hal", "--db", str(db)])
    assert result.exit_code == 2 and "same table" in result.output  # bots merge as people do: not these two
    result = runner.invoke(app, ["players", "merge", "Alice", "deepclue", "--force", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert _league(db)[0] == [("deepclue", "Alice", True)]
