"""Kinds of game: set by the source, overridable at ingest, listed and filtered by `clue-stats games`."""

from __future__ import annotations

import json

import duckdb
import pytest
from typer.testing import CliRunner

from clue_stats.cli import app
from clue_stats.ingest import store

pytestmark = pytest.mark.slow  # about a second or more a test: make test-fast leaves them out

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def kinds_by_id(db) -> dict[str, str]:
    with store.read_connection(db) as con:
        return dict(con.execute("SELECT game_id, kind FROM games").fetchall())


def test_the_source_sets_the_kind(samples, db, tmp_path):
    assert run("ingest", samples, "--db", db, "--no-analyse").exit_code == 0
    sim = tmp_path / "sim"
    assert run("simulate", "--games", 2, "--players", 3, "--seed", 4, "--out", sim).exit_code == 0
    assert run("ingest", sim, "--db", db, "--no-analyse").exit_code == 0
    found = kinds_by_id(db)
    assert found["spieleabend-2026-11-20-1"] == "tabletop"  # people at a club night
    assert found["speedclue-test-0001"] == "contest"  # every seat names the program that played it
    assert {k for g, k in found.items() if g.startswith("sim-")} == {"simulated"}


def test_the_user_sets_the_kind_at_ingest(samples, db):
    result = run("ingest", samples / "us-clue-family.jsonl", "--db", db, "--no-analyse", "--kind", "digital")
    assert result.exit_code == 0, result.output
    assert kinds_by_id(db) == {"us-family-2026-10-31": "digital"}
    bad = run("ingest", samples / "uk-2020-pub.jsonl", "--db", db, "--kind", "robots")
    assert bad.exit_code == 2 and "tabletop, digital, contest, simulated" in bad.stderr


def test_games_lists_newest_played_first_by_kind_with_whole_ids(samples, db, tmp_path):
    run("ingest", samples, "--db", db, "--no-analyse")
    run("simulate", "--games", 3, "--players", 3, "--seed", 4, "--out", tmp_path / "sim")
    run("ingest", tmp_path / "sim", "--db", db, "--no-analyse")
    listed = json.loads(run("games", "--db", db, "--json").stdout)["games"]
    dated = [g["played_at"] for g in listed if g["played_at"]]
    assert dated == sorted(dated, reverse=True) and listed[0]["played_at"] == max(dated)
    assert all(g["played_at"] is None for g in listed[len(dated) :])  # undated games come last
    only = json.loads(run("games", "--db", db, "--json", "--kind", "simulated", "--limit", 2).stdout)
    assert [g["kind"] for g in only["games"]] == ["simulated", "simulated"] and only["total"] == 3
    # an 80-column terminal: every id whole on one line, to be copied into `clue-stats report`
    wide = runner.invoke(app, ["games", "--db", str(db)], env={"COLUMNS": "80"}, terminal_width=80)
    lines = wide.stdout.splitlines()
    assert max(len(line) for line in lines if str(db) not in line) <= 80  # the title names the database
    for g in listed:
        assert any(g["game_id"] in line for line in lines), g["game_id"]
    assert "1 game (contest)" in run("games", "--db", db, "--kind", "contest").stdout


def test_a_database_from_before_kinds_gets_them_from_its_games(samples, db):
    run("ingest", samples / "speedclue-bots.jsonl", "--db", db, "--no-analyse")
    run("ingest", samples / "us-clue-family.jsonl", "--db", db, "--no-analyse")
    con = duckdb.connect(str(db))
    con.execute("ALTER TABLE games DROP COLUMN kind")
    con.close()
    with store.write_connection(db):
        pass
    assert kinds_by_id(db) == {"speedclue-test-0001": "contest", "us-family-2026-10-31": "tabletop"}
