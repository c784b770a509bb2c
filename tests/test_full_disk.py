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


# 1,200 games are three write transactions of 500 at most (pipeline.BATCH_GAMES); the first fits in
# 12 MiB (500 such games take 6 MiB stored, more while the transaction's log is written: 8 MiB held
# none with duckdb 2.0.1), the whole 1,200 (about 14 MiB) cannot, whatever the machine's speed
@pytest.mark.parametrize("small_disk", ["12m"], indirect=True)
def test_ingest_onto_a_full_disk_says_so_and_stores_only_whole_games(tmp_path, small_disk):
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
