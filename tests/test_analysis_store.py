"""The analysis in the store: ingest, `clue-stats analyse` (recomputation, --light), reads for the
dashboard, the per-player summary, and the documentation's SQL run on a real database."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clue_stats import pipeline
from clue_stats.analysis.computers.game_analysis import ANALYSIS_VERSION
from clue_stats.analysis.corpus.players import player_summary
from clue_stats.cli import app
from clue_stats.ingest import store
from clue_stats.ingest.cluelog import write_game
from clue_stats.ingest.store import (
    GameFilter,
    GameNotFound,
    filter_choices,
    game_table,
    list_games,
    read_connection,
    stored_game,
)
from clue_stats.testing import random_game
from tests.helpers import DOCS, GIVEAWAY_LOG, docs_log, load

pytestmark = pytest.mark.slow  # about a second or more a test: make test-fast leaves them out

runner = CliRunner()


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "worked.jsonl").write_text(docs_log("## Worked example"), encoding="utf-8")
    (folder / "giveaway.jsonl").write_text(GIVEAWAY_LOG, encoding="utf-8")
    return folder


def _query(db: Path, sql: str, params: list | None = None) -> list[tuple]:
    with read_connection(db) as con:
        return con.execute(sql, params or []).fetchall()


def _analyse(db: Path, *args: str) -> dict:
    result = runner.invoke(app, ["analyse", "--db", str(db), "--json", "--workers", "1", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_ingest_computes_the_whole_review(logs: Path, db: Path) -> None:
    summary = pipeline.ingest_paths([str(logs)], db, analyse=True, workers=1)
    assert summary.games_stored == 2
    assert _query(db, "SELECT DISTINCT analysis_version FROM games") == [(ANALYSIS_VERSION,)]
    # every suggestion is rated (both logs hold every hand) and reviewed
    assert _query(db, "SELECT count(*) FROM suggestions WHERE best_gain_bits IS NULL OR label IS NULL") == [(0,)]
    rows = _query(
        db,
        "SELECT best_gain_bits, accuracy, bits_lost, label FROM suggestions WHERE game_id = 'worked-example' AND seq = 4",
    )
    assert rows == [(pytest.approx(1.25), 1.0, 0.0, "best")]
    n_info = _query(db, "SELECT count(*) FROM information")[0][0]
    assert n_info == 4 * 3 + 3 * 4  # worked: 4 suggestions x 3 observers; giveaway: 3 records x 4
    # nothing left for `analyse` (--deep is still accepted, and changes nothing)
    report = _analyse(db)
    assert report["games_analysed"] == 0 and report["games_reviewed"] == report["games_stored"] == 2
    assert _analyse(db, "--deep")["games_analysed"] == 0


def test_light_and_no_analyse_then_analyse(logs: Path, db: Path) -> None:
    pipeline.ingest_paths([str(logs)], db, analyse=True, review=False, workers=1)
    assert _query(
        db, "SELECT count(*), count(expected_gain_bits), count(best_gain_bits), count(label) FROM suggestions"
    ) == [(6, 6, 0, 0)]
    assert _query(db, "SELECT count(review_accuracy), sum(rated_suggestions) FROM players") == [(0, 6)]
    report = _analyse(db)
    assert report["games_to_analyse"] == 2 and report["games_outdated"] == 0 and report["games_analysed"] == 2
    assert report["games_reviewed"] == 2
    assert _query(db, "SELECT count(best_gain_bits), count(bits_lost) FROM suggestions") == [(6, 6)]
    assert _query(db, "SELECT count(review_accuracy) FROM players") == [(4,)]  # the players with a suggestion


def test_no_analyse_then_analyse(logs: Path, db: Path) -> None:
    pipeline.ingest_paths([str(logs)], db, analyse=False, workers=1)
    assert _query(db, "SELECT count(*) FROM games WHERE analysis_version IS NULL") == [(2,)]
    assert _query(db, "SELECT count(*) FROM information") == [(0,)]
    assert _query(db, "SELECT count(*) FROM players WHERE first_certain_seq IS NOT NULL") == [(0,)]
    assert _query(db, "SELECT count(missed_win) FROM players") == [(0,)]

    report = _analyse(db)
    assert report["games_analysed"] == 2 and report["games_outdated"] == 2 and report["games_reviewed"] == 2
    assert _query(db, "SELECT count(*) FROM games WHERE analysis_version = ?", [ANALYSIS_VERSION]) == [(2,)]
    assert _query(
        db, "SELECT name, first_certain_seq, missed_win FROM players WHERE game_id = 'worked-example' ORDER BY seat"
    ) == [("Anna", 8, True), ("Ben", 10, False)]
    assert _query(
        db, "SELECT p_correct, first_certain_seq, turns_waited FROM accusations WHERE game_id = 'worked-example'"
    ) == [(1.0, 10, 0)]

    # an older analysis version is recomputed
    with store.write_connection(db) as con:
        con.execute("UPDATE games SET analysis_version = 1 WHERE game_id = 'worked-example'")
        con.execute("UPDATE suggestions SET expected_gain_bits = -1 WHERE game_id = 'worked-example'")
    report = _analyse(db)
    assert report["games_analysed"] == 1 and report["games_outdated"] == 1
    assert _query(
        db,
        "SELECT min(expected_gain_bits) > 0, count(best_gain_bits) FROM suggestions WHERE game_id = 'worked-example'",
    ) == [(True, 4)]


def test_a_database_of_an_older_version_gets_the_new_columns(logs: Path, db: Path) -> None:
    """A database written before missed_win, review_accuracy and bits_lost existed (analysis
    version 1): `analyse` adds the columns and fills them in."""
    pipeline.ingest_paths([str(logs)], db, analyse=False, workers=1)
    with store.write_connection(db) as con:
        for table, column, _, _ in [m for m in store.MIGRATIONS if m[3] is None]:
            con.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        con.execute("UPDATE games SET analysis_version = 1")
    assert _analyse(db)["games_analysed"] == 2
    assert _query(db, "SELECT count(missed_win), count(review_accuracy) FROM players") == [(5, 4)]
    assert _query(db, "SELECT count(bits_lost) FROM suggestions") == [(6,)]


def test_analyse_in_worker_processes(logs: Path, db: Path) -> None:
    pipeline.ingest_paths([str(logs)], db, analyse=False, workers=1)
    result = runner.invoke(app, ["analyse", "--db", str(db), "--workers", "2"])
    assert result.exit_code == 0, result.output
    assert "2 games analysed" in result.stdout and "2 of 2 stored games reviewed" in result.stdout
    assert _query(db, "SELECT count(*) FROM games WHERE analysis_version = ?", [ANALYSIS_VERSION]) == [(2,)]


def _check_here(raw, *args, **kwargs):
    """pipeline.check, also noting which process checked the game (beside its source file)."""
    with open(f"{raw.source_file}.pids", "a", encoding="utf-8") as out:
        out.write(f"{os.getpid()}\n")
    return _CHECK(raw, *args, **kwargs)


_CHECK = pipeline.check


def test_the_last_games_of_a_large_input_go_to_the_running_workers(tmp_path: Path, db: Path, monkeypatch) -> None:
    """Games are handed to the workers a window at a time; a short last window goes to them too
    once they run (only a small input is checked in the ingesting process, sparing the start of
    the workers)."""
    folder = tmp_path / "night"
    folder.mkdir()
    log = folder / "games.jsonl"
    log.write_text("".join(write_game(random_game(seed, n_players=3)) for seed in range(5)), encoding="utf-8")
    monkeypatch.setattr(pipeline, "check", _check_here)
    monkeypatch.setattr(pipeline, "WINDOW", 4)  # windows of 4 games, then 1
    monkeypatch.setattr(pipeline, "PARALLEL_FROM", 3)
    summary = pipeline.ingest_paths([str(folder)], db, analyse=True, workers=2)
    assert summary.games_stored == 5
    pids = Path(f"{log}.pids").read_text(encoding="utf-8").split()
    assert len(pids) == 5 and str(os.getpid()) not in pids
    # a small input alone is checked here
    Path(f"{log}.pids").unlink()
    log.write_text(write_game(random_game(9, n_players=3)), encoding="utf-8")
    pipeline.ingest_paths([str(folder)], tmp_path / "small.duckdb", analyse=True, workers=2)
    assert Path(f"{log}.pids").read_text(encoding="utf-8").split() == [str(os.getpid())]


def test_analyse_without_database(tmp_path: Path) -> None:
    result = runner.invoke(app, ["analyse", "--db", str(tmp_path / "none.duckdb")])
    assert result.exit_code == 1
    assert "no such database" in result.stderr


def test_store_reads(logs: Path, db: Path) -> None:
    pipeline.ingest_paths([str(logs)], db, analyse=True, workers=1)
    with read_connection(db) as con:
        game = stored_game(con, "worked-example").game
        original = load(docs_log("## Worked example"))
        assert game.records == original.records and game.names == original.names
        with pytest.raises(GameNotFound):
            stored_game(con, "nope")
        games, total = list_games(con)
        assert set(games["game_id"]) == {"worked-example", "giveaway"} and total == 2
        assert list_games(con, GameFilter(n_players=3))[0]["game_id"].to_list() == ["giveaway"]
        assert list_games(con, GameFilter(edition="classic"))[0].height == 0
        first, total = list_games(con, limit=1)
        assert first.height == 1 and total == 2
        choices = filter_choices(con)
        assert choices["n_players"] == [2, 3] and choices["edition"] == ["custom"]
        info = game_table(con, "information", "worked-example")
        assert info.height == 12 and info["seq"].to_list() == sorted(info["seq"].to_list())
        with pytest.raises(ValueError):
            game_table(con, "rejected", "worked-example")


def test_player_summary(logs: Path, db: Path) -> None:
    pipeline.ingest_paths([str(logs)], db, analyse=True, workers=1)
    _analyse(db, "--deep")
    with read_connection(db) as con:
        summary = {r["name"]: r for r in player_summary(con).iter_rows(named=True)}
        only_two = player_summary(con, GameFilter(n_players=2))
        with pytest.raises(ValueError):
            player_summary(con, by="colour")
    assert summary["Anna"]["games"] == 2 and summary["Anna"]["wins"] == 0
    assert summary["Anna"]["missed_wins"] == 1 and summary["Anna"]["certain_games"] == 1
    assert summary["Ben"]["wins"] == 1 and summary["Ben"]["missed_wins"] == 0
    assert summary["Ben"]["accusations"] == 1 and summary["Ben"]["mean_turns_waited"] == 0.0
    assert summary["Cleo"]["accusations"] == 1 and summary["Cleo"]["mean_turns_waited"] is None
    assert summary["Anna"]["suggestions"] == 3 and 0 < summary["Anna"]["mean_accuracy"] <= 1
    assert set(only_two["name"]) == {"Anna", "Ben"}


def test_docs_sql_runs_and_columns_are_documented(logs: Path, db: Path) -> None:
    pipeline.ingest_paths([str(logs)], db, analyse=True, workers=1)
    text = DOCS.read_text(encoding="utf-8")
    blocks = re.findall(r"```sql\n(.*?)```", text, re.S)
    assert len(blocks) >= 5
    with read_connection(db) as con:
        for sql in blocks:
            con.execute(sql).fetchall()
        table_entropy = next(b for b in blocks if "observer IS NULL" in b)
        rows = con.execute("SELECT seq, gain FROM (" + table_entropy.rstrip().rstrip(";") + ")").fetchall()
        assert rows[0] == (4, 0.176)
        for table in ("information", "suggestions", "accusations"):
            columns = [r[0] for r in con.execute(f"DESCRIBE {table}").fetchall()]
            missing = [c for c in columns if f"`{c}`" not in text]
            assert not missing, f"{table}: undocumented columns {missing}"
    assert "`games.analysis_version`" in text
    for column in store.PLAYER_ANALYSIS_COLUMNS:  # the players columns the analysis fills in
        assert f"| `{column}` |" in text, column
    assert f"this version is **{ANALYSIS_VERSION}**" in text
    assert f"analysis_version < {ANALYSIS_VERSION}\n" in text and "`games.analysis_cut`" in text
