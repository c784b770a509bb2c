"""A full disk is reported as a full disk, and leaves nothing half done (issue 27, item 6).

On a real small filesystem (a tmpfs of 2 MiB, mounted by the test where it has the rights; skipped
with the reason elsewhere): ingest stops with "No space left on device", every game it stored is
whole and the database opens; a report written to a full disk leaves no file behind.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from clue_stats import pipeline
from clue_stats.cli import app
from clue_stats.engine.simulate import simulate
from clue_stats.ingest import cluelog
from tests.helpers import SAMPLES

pytestmark = pytest.mark.slow  # about a second or more a test: make test-fast leaves them out

runner = CliRunner()


@pytest.fixture
def small_disk(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Path]:
    mount = tmp_path / "small"
    mount.mkdir()
    size = getattr(request, "param", "2m")
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)], capture_output=True, text=True
    )
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small filesystem here: {made.stderr.strip() or made.returncode}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


# 1,200 games are three write transactions of 500 at most (pipeline.BATCH_GAMES, set so here); the
# first fits in 12 MiB (500 such games take 6 MiB stored, more while the transaction's log is written:
# 8 MiB held none with duckdb 2.0.1), the whole 1,200 (about 14 MiB) cannot, whatever the machine's speed
@pytest.mark.parametrize("small_disk", ["12m"], indirect=True)
def test_ingest_onto_a_full_disk_says_so_and_stores_only_whole_games(tmp_path, small_disk, monkeypatch):
    monkeypatch.setattr(pipeline, "BATCH_GAMES", 500)
    games = tmp_path / "games.jsonl"
    games.write_text(cluelog.write_games(simulate(1200, 6, "classic", ("notebook", "random"), seed=9)))
    db = small_disk / "club.duckdb"
    result = runner.invoke(app, ["ingest", str(games), "--db", str(db), "--no-analyse"])
    assert result.exit_code == 1
    assert "No space left on device" in result.output and f"the disk holding {db} is full" in result.output
    assert "TransactionException" not in result.output and "internal error" not in result.output
    with duckdb.connect(str(db), read_only=True) as con:  # the database still opens
        stored, whole = con.execute(
            "SELECT count(*), count(*) FILTER (WHERE n_records = (SELECT count(*) FROM events e WHERE e.game_id = g.game_id)) "
            "FROM games g"
        ).fetchone()
    assert stored == whole  # no game half stored
    assert 0 < stored < 1200


def test_a_report_onto_a_full_disk_leaves_no_empty_file(tmp_path, small_disk):
    db = tmp_path / "club.duckdb"
    assert runner.invoke(app, ["ingest", str(SAMPLES / "us-clue-family.jsonl"), "--db", str(db)]).exit_code == 0
    (game_id,) = duckdb.connect(str(db), read_only=True).execute("SELECT game_id FROM games").fetchone()
    filler = small_disk / "filler"
    with filler.open("wb") as out, pytest.raises(OSError):  # the disk filled up to its last byte
        while True:
            out.write(b"\0" * 65536)
            out.flush()
    report = small_disk / "report.html"
    result = runner.invoke(app, ["report", game_id, "--db", str(db), "--out", str(report)])
    assert result.exit_code == 1
    assert f"cannot write {report}: No space left on device (the disk is full); nothing was written" in result.output
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler"]  # no report, empty or half, no temporary file


@pytest.mark.parametrize("existing", [False, True])
def test_an_export_onto_a_full_disk_says_so_and_leaves_nothing_half_written(tmp_path, small_disk, existing):
    """The export's files are written into a folder of their own and moved into --out at the end: a
    disk that fills up part way says so (exit 1) and leaves neither a half-written file nor a folder."""
    db = tmp_path / "club.duckdb"
    games = tmp_path / "games.jsonl"
    games.write_text(cluelog.write_games(simulate(300, 6, "classic", ("notebook", "random"), seed=3)))
    assert runner.invoke(app, ["ingest", str(games), "--db", str(db), "--no-analyse"]).exit_code == 0
    out = small_disk / "export"
    if existing:  # an earlier export's folder: its files stay as they were
        out.mkdir()
        (out / "games.csv").write_text("an earlier export\n")
    result = runner.invoke(app, ["export", "--db", str(db), "--out", str(out), "--format", "csv"])
    assert result.exit_code == 1, result.output
    assert f"the disk holding {out} is full (No space left on device): nothing was written" in result.output
    assert "internal error" not in result.output and "IOException" not in result.output
    if existing:
        assert sorted(p.name for p in small_disk.iterdir()) == ["export"]
        assert [p.name for p in out.iterdir()] == ["games.csv"]
        assert (out / "games.csv").read_text() == "an earlier export\n"
    else:
        assert list(small_disk.iterdir()) == []  # no folder, empty or half filled, no temporary one
