"""Hostile folders (issue 27 item 1 and the special files of item 7): any depth, link loops, pipes and
devices, many files; every one walked once, nothing blocks, everything counted."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clue_stats import pipeline
from clue_stats.cli import app
from clue_stats.ingest import store
from clue_stats.ingest.walk import collect_files
from tests.helpers import SAMPLES, raw_games

runner = CliRunner()
GAME = (SAMPLES / "uk-2020-pub.jsonl").read_text()
GAMES = len(raw_games(SAMPLES / "uk-2020-pub.jsonl"))


@pytest.fixture
def deep(tmp_path):
    """A folder 1,200 deep (built one level at a time: os.makedirs recurses), its bottom; removed
    from the bottom up afterwards, as pytest's own clean-up (shutil.rmtree) recurses and fails on it."""
    top = path = str(tmp_path / "deep")
    os.mkdir(path)
    for _ in range(1200):
        path = os.path.join(path, "a")
        os.mkdir(path)
    yield Path(path)
    while True:
        for entry in os.scandir(path):
            os.unlink(entry.path)
        os.rmdir(path)
        if path == top:
            break
        path = os.path.dirname(path)


@pytest.mark.slow
def test_a_folder_1200_deep_is_walked_and_its_game_stored(tmp_path, db, deep):
    bottom = deep
    (bottom / "g.jsonl").write_text(GAME)
    assert len(str(bottom / "g.jsonl")) > 2400
    result = runner.invoke(app, ["ingest", str(tmp_path / "deep"), "--db", str(db), "--no-analyse", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["files_read"], data["games_stored"], data["problems"]) == (1, GAMES, [])
    summary = pipeline.validate_paths([str(tmp_path / "deep")], workers=1)
    assert (summary.files_read, summary.games_valid) == (1, GAMES)


def test_link_loops_and_second_ways_to_a_folder_are_read_once_and_counted(tmp_path):
    top = tmp_path / "logs"
    (top / "night").mkdir(parents=True)
    (top / "night" / "g.jsonl").write_text(GAME)
    (top / "night" / "back").symlink_to(top)  # a loop: logs/night/back is logs
    (top / "same-night").symlink_to(top / "night")  # a second way to the same folder
    (top / "self").symlink_to(top / "self")  # a link to itself
    found = list(collect_files([top]))
    files = [f for f in found if isinstance(f, Path)]
    assert files == [top / "night" / "g.jsonl"]
    summary = pipeline.validate_paths([str(top)], workers=1)
    assert (summary.files_read, summary.games_valid, summary.exit_code) == (1, GAMES, 0)
    assert (summary.folders_repeated, summary.files_special) == (2, 1)
    assert sorted((Path(p.source_file).name, p.code) for p in summary.problems) == [
        ("back", "folder_again"),
        ("same-night", "folder_again"),
        ("self", "not_a_file"),
    ]


def test_a_link_to_a_folder_elsewhere_is_followed(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "g.jsonl").write_text(GAME)
    top = tmp_path / "logs"
    top.mkdir()
    (top / "linked").symlink_to(elsewhere)
    summary = pipeline.validate_paths([str(top)], workers=1)
    assert (summary.files_read, summary.games_valid, summary.folders_repeated) == (1, GAMES, 0)


def _unblock_after(fifo: Path, seconds: float) -> None:
    """Open the pipe for writing later and close it, so that a reader stuck on it is let go (and the
    test fails on what it read instead of hanging)."""

    def writer() -> None:
        time.sleep(seconds)
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # nobody is reading it: as it should be
            return
        os.close(fd)

    threading.Thread(target=writer, daemon=True).start()


@pytest.mark.slow
def test_a_pipe_in_a_folder_or_named_is_skipped_and_counted_not_waited_on(tmp_path, db):
    top = tmp_path / "logs"
    top.mkdir()
    (top / "g.jsonl").write_text(GAME)
    os.mkfifo(top / "pipe.jsonl")
    os.mkfifo(tmp_path / "named.jsonl")
    _unblock_after(top / "pipe.jsonl", 20)
    _unblock_after(tmp_path / "named.jsonl", 20)
    result = runner.invoke(
        app, ["ingest", str(top), str(tmp_path / "named.jsonl"), "--db", str(db), "--no-analyse", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["files_read"], data["files_special"], data["games_stored"], data["games_rejected"]) == (1, 2, GAMES, 0)
    assert sorted((Path(p["file"]).name, p["code"], p["message"]) for p in data["problems"]) == [
        ("named.jsonl", "not_a_file", "a named pipe (FIFO): not read"),
        ("pipe.jsonl", "not_a_file", "a named pipe (FIFO): not read"),
    ]
    with store.read_connection(db) as con:
        assert con.execute("SELECT count(*) FROM rejected").fetchall() == [(0,)]
    text = runner.invoke(app, ["validate", str(top / "g.jsonl"), "/dev/null"])
    assert text.exit_code == 0, text.output
    assert "/dev/null:-: not_a_file: a device: not read" in text.stdout
    assert f"1 file read, 0 skipped, 1 not a file (pipe, device); {GAMES} games valid" in text.stdout


@pytest.mark.slow
def test_a_folder_of_many_empty_files_is_written_in_batches_with_progress(tmp_path, db, monkeypatch):
    """Files without games do not wait for the end of the run: their rejections go to the store in
    batches as the folder is read, and the progress is told how many files were read."""
    top = tmp_path / "empty"
    top.mkdir()
    for i in range(1200):
        (top / f"{i:04d}.jsonl").write_text("")
    monkeypatch.setattr(pipeline, "BATCH_FILE_REJECTIONS", 500)
    writes: list[int] = []
    real = store.write_batch

    def counted(con, rows, rejections, replace=False):
        writes.append(len(rejections))
        return real(con, rows, rejections, replace=replace)

    monkeypatch.setattr(store, "write_batch", counted)
    seen: list[int] = []
    summary = pipeline.ingest_paths(
        [str(top)], db, analyse=False, workers=1, progress=lambda n, so_far: seen.append(so_far.files_read)
    )
    assert (summary.files_read, summary.games_rejected) == (1200, 1200)
    assert sum(writes) == 1200 and len(writes) >= 3 and max(writes) <= 500 + pipeline.WINDOW
    assert seen and seen[0] < 1200 and seen == sorted(seen)
    with store.read_connection(db) as con:
        assert con.execute("SELECT count(*) FROM rejected WHERE code = 'empty_file'").fetchall() == [(1200,)]
    # the same files again: each file's rejection is known by its file and its text, not stored twice
    pipeline.ingest_paths([str(top)], db, analyse=False, workers=1)
    with store.read_connection(db) as con:
        assert con.execute("SELECT count(*) FROM rejected WHERE code = 'empty_file'").fetchall() == [(1200,)]
        assert con.execute("SELECT count(*) FROM problems WHERE code = 'empty_file'").fetchall() == [(1200,)]
