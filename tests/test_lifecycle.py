"""The lifecycle of a corrected game: rejected, fixed, stored; a changed log replaces only when asked.

Data quality and the replay page must agree about the game: once a valid version of an id is
stored, the errors of its rejected versions are history, not current problems.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from clue_stats.cli import app
from clue_stats.ingest import store
from tests.helpers import ROOT

pytestmark = pytest.mark.slow  # about a second or more a test: make test-fast leaves them out

runner = CliRunner()
APP = ROOT / "dashboard" / "app.py"
GAME_ID = "spieleabend-2026-11-20-1"
FIXED = (ROOT / "data" / "samples" / "de-2023-anna-notebook.clue").read_text(encoding="utf-8")
# Dirk shows Anna's own cards: two errors in one typed game
BROKEN = FIXED.replace("Dirk: Bloom Rohrzange Billard / Anna Rohrzange", "Dirk: Bloom Rohrzange Billard / Anna Seil")
BROKEN = BROKEN.replace("Dirk: Weiß Heiz Musik / Anna Heiz", "Dirk: Weiß Heiz Musik / Anna Dolch")


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def current(db: Path) -> dict:
    with store.read_connection(db) as con:

        def count(sql: str) -> int:
            return con.execute(sql, [GAME_ID]).fetchall()[0][0]

        return {
            "stored": count("SELECT count(*) FROM games WHERE game_id = ?"),
            "rejected": count("SELECT count(*) FROM rejected WHERE game_id = ?"),
            "problems": count("SELECT count(*) FROM problems WHERE game_id = ?"),
            "history": count("SELECT count(*) FROM history WHERE game_id = ?"),
        }


def quality_and_replay(db: Path, monkeypatch) -> tuple[str, str]:
    """What Data quality and the replay page say (their text, tables included)."""
    monkeypatch.setenv("CLUE_STATS_DB", str(db))
    shown = []
    for page, query in (("quality", {}), ("replay", {"game": GAME_ID})):
        at = AppTest.from_file(str(APP), default_timeout=60)
        for key, value in query.items():
            at.query_params[key] = value
        at.run()
        at.switch_page(f"app_pages/{page}.py").run()
        assert not at.exception
        parts = [
            str(e.value) for kind in ("markdown", "caption", "info", "subheader", "metric") for e in getattr(at, kind)
        ]
        parts += [e.label for e in at.expander]
        parts += [df.value.to_string() for df in at.dataframe]
        shown.append("\n".join(parts))
    return shown[0], shown[1]


def test_a_fixed_game_leaves_no_stale_problems(tmp_path, monkeypatch):
    db, log = tmp_path / "club.duckdb", tmp_path / "anna.clue"
    log.write_text(BROKEN, encoding="utf-8")
    assert run("ingest", log, "--db", db).exit_code == 3
    assert current(db) == {"stored": 0, "rejected": 1, "problems": 2, "history": 0}

    log.write_text(FIXED, encoding="utf-8")  # corrected in place, same game id
    result = run("ingest", log, "--db", db)
    assert result.exit_code == 0, result.output
    assert current(db) == {"stored": 1, "rejected": 0, "problems": 0, "history": 1}
    quality, replay = quality_and_replay(db, monkeypatch)
    assert "No game has been rejected" in quality and "Earlier versions of stored games (1)" in quality
    assert "Warnings kept with this game" not in replay

    # delete and ingest again: nothing rejected comes back
    assert run("delete", GAME_ID, "--db", db).stdout.startswith("1 game deleted")
    assert run("ingest", log, "--db", db).exit_code == 0
    assert current(db)["rejected"] == 0 and current(db)["stored"] == 1


def test_a_changed_log_for_a_stored_id_is_a_conflict_unless_replace(tmp_path):
    db, log = tmp_path / "club.duckdb", tmp_path / "anna.clue"
    log.write_text(FIXED, encoding="utf-8")
    assert run("ingest", log, "--db", db).exit_code == 0
    log.write_text(FIXED.replace("place Spieleabend Köln", "place Köln, bei Cleo"), encoding="utf-8")
    conflict = run("ingest", log, "--db", db)
    assert conflict.exit_code == 3 and "duplicate_id" in conflict.stderr and "--replace" in conflict.stderr
    with store.read_connection(db) as con:
        assert con.execute("SELECT place FROM games").fetchall() == [("Spieleabend Köln",)]

    replaced = run("ingest", log, "--db", db, "--replace", "--json")
    assert replaced.exit_code == 0, replaced.output
    assert json.loads(replaced.stdout)["games_replaced"] == 1
    with store.read_connection(db) as con:
        assert con.execute("SELECT place FROM games").fetchall() == [("Köln, bei Cleo",)]
        assert con.execute("SELECT count(*) FROM rejected").fetchall() == [(0,)]  # the conflict is history too
        events = con.execute("SELECT event FROM history ORDER BY event").fetchall()
    assert events == [("rejected_version_superseded",), ("stored_version_replaced",)]
