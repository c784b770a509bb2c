"""The store on real DuckDB files: idempotent ingest, rejected games kept, whole games only."""

from __future__ import annotations

import duckdb
import pytest

from clue_stats import pipeline
from clue_stats.ingest import store
from tests.helpers import FIXTURES

pytestmark = pytest.mark.slow  # about a second or more a test: make test-fast leaves them out


def counts(db):
    with store.read_connection(db) as con:
        return {
            t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
            for t in ("games", "players", "events", "suggestions", "accusations", "rejected", "problems", "ingest_runs")
        }


def test_ingest_stores_every_sample_and_a_second_run_stores_nothing(samples, db):
    first = pipeline.ingest_paths([str(samples)], db, analyse=False, workers=1)
    assert first.games_rejected == 0 and first.games_stored >= 9
    before = counts(db)
    second = pipeline.ingest_paths([str(samples)], db, analyse=False, workers=1)
    assert second.games_stored == 0 and second.games_skipped == first.games_stored + first.games_skipped
    after = counts(db)
    assert {k: v for k, v in after.items() if k != "ingest_runs"} == {
        k: v for k, v in before.items() if k != "ingest_runs"
    }
    assert after["ingest_runs"] == 2


def test_every_record_is_an_event_row_with_its_seq_and_line(samples, db):
    pipeline.ingest_paths([str(samples / "de-2023-anna-notebook.jsonl")], db, analyse=False, workers=1)
    with store.read_connection(db) as con:
        rows = con.execute("SELECT seq, line, type FROM events ORDER BY seq").fetchall()
        players = con.execute("SELECT name, seat, hand_known, turn_order, won FROM players ORDER BY seat").fetchall()
    assert [r[0] for r in rows] == list(range(len(rows)))
    assert [r[1] for r in rows] == list(range(1, len(rows) + 1))
    assert rows[0][2] == "game"
    assert players[0] == ("Anna", 0, True, 0, False)
    assert all(not p[2] for p in players[1:])


def test_rejected_games_are_kept_with_their_text_and_valid_neighbours_stored(tmp_path, db):
    good = (
        (FIXTURES / "invalid" / "passed_holding.jsonl")
        .read_text()
        .replace(
            '"weapon": "dagger", "room": "library", "responses": [{"player": "Ann", "shows": null}',
            '"weapon": "rope", "room": "library", "responses": [{"player": "Ann", "shows": null}',
        )
    )
    bad = (FIXTURES / "invalid" / "passed_holding.jsonl").read_text().replace('"id": "fixture"', '"id": "fixture-bad"')
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "mixed.jsonl").write_text(good + bad)
    summary = pipeline.ingest_paths([str(tmp_path / "in")], db, analyse=False, workers=1)
    assert (summary.games_stored, summary.games_rejected) == (1, 1)
    with store.read_connection(db) as con:
        [(code, line, raw, game_id)] = con.execute("SELECT code, line, raw, game_id FROM rejected").fetchall()
        problem_lines = con.execute("SELECT line FROM problems WHERE code = 'passed_holding'").fetchall()
    assert code == "passed_holding" and line == 25 and game_id == "fixture-bad"
    assert raw == bad
    assert problem_lines == [(25,)]
    again = pipeline.ingest_paths([str(tmp_path / "in")], db, analyse=False, workers=1)
    assert again.games_skipped == 1 and counts(db)["rejected"] == 1


def test_the_same_id_with_other_content_is_rejected_as_duplicate(tmp_path, samples, db):
    pipeline.ingest_paths([str(samples / "us-clue-family.jsonl")], db, analyse=False, workers=1)
    changed = (
        (samples / "us-clue-family.jsonl").read_text().replace('"played_at":"2026-10-31"', '"played_at":"2026-11-01"')
    )
    (tmp_path / "changed.jsonl").write_text(changed)
    summary = pipeline.ingest_paths([str(tmp_path / "changed.jsonl")], db, analyse=False, workers=1)
    assert summary.games_rejected == 1 and summary.games_stored == 0
    assert [p.code for p in summary.problems] == ["duplicate_id"]
    assert counts(db)["games"] == 1


def test_a_failed_batch_leaves_nothing_behind(samples, db, monkeypatch):
    original = store.writes._insert

    def broken(con, table, rows):
        if table == "suggestions":
            raise RuntimeError("disk full")
        original(con, table, rows)

    monkeypatch.setattr(store.writes, "_insert", broken)
    with pytest.raises(RuntimeError):
        pipeline.ingest_paths([str(samples)], db, analyse=False, workers=1)
    monkeypatch.setattr(store.writes, "_insert", original)
    c = counts(db)
    assert c["games"] == 0 and c["events"] == 0 and c["players"] == 0


def test_a_writer_waits_a_bounded_time_for_a_held_database(db):
    import subprocess
    import sys

    from tests.helpers import ROOT

    with store.write_connection(db):
        pass
    holder = duckdb.connect(str(db))  # another program keeping the file open for writing
    script = (
        "import sys, time\n"
        "from clue_stats.ingest import store\n"
        "t = time.monotonic()\n"
        "try:\n"
        "    store.write_connection(sys.argv[1], wait_seconds=0.3).__enter__()\n"
        "except store.StoreBusy as exc:\n"
        "    print(exc, round(time.monotonic() - t, 1))\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", script, str(db)], cwd=ROOT, capture_output=True, text=True, timeout=60
        )
    finally:
        holder.close()
    assert "held by another process" in done.stdout, done.stderr
    assert float(done.stdout.split()[-1]) < 5


def test_delete_removes_every_row_of_a_game(samples, db):
    pipeline.ingest_paths([str(samples / "uk-2020-pub.jsonl")], db, analyse=False, workers=1)
    with store.write_connection(db) as con:
        assert store.delete_games(con, ["uk2020-pub-league-7", "nope"]) == ["uk2020-pub-league-7"]
    with store.read_connection(db) as con:
        assert con.execute("SELECT count(*) FROM events WHERE game_id = 'uk2020-pub-league-7'").fetchone()[0] == 0
        assert con.execute("SELECT count(*) FROM games").fetchone()[0] == 1


class HeldReader:
    """Another program holding the database read-only (the DuckDB command line left open), in its
    own process, until it is killed by its pid."""

    def __init__(self, db) -> None:
        import subprocess
        import sys

        script = "import duckdb, sys; c = duckdb.connect(sys.argv[1], read_only=True); print('held', flush=True); sys.stdin.read()"
        self.process = subprocess.Popen(
            [sys.executable, "-c", script, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert self.process.stdout is not None and self.process.stdout.readline().strip() == "held"

    def kill(self) -> None:
        import os
        import signal

        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=60)


def _small_games(tmp_path, n: int):
    from tests.helpers import game_lines

    lines = []
    for i in range(n):
        lines += game_lines(f"g{i:03}", f"2026-09-04T20:{i % 60:02}", ["Ann", "Ben", "Cy"], "Ann", ("Ben",))
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def quick_batches(monkeypatch):
    """Batches of 10 games (from windows of 10: the last window's games are written with the run's
    end); a batch the file is not free for waits 0.05 s and is tried every 0.1 s."""
    monkeypatch.setattr(pipeline, "BATCH_GAMES", 10)
    monkeypatch.setattr(pipeline, "WINDOW", 10)
    monkeypatch.setattr(pipeline, "BATCH_SECONDS", 0.1)
    monkeypatch.setattr(pipeline, "BUSY_WAIT", 0.05)


def test_a_reader_holding_the_file_past_the_wait_delays_ingest_and_loses_nothing(tmp_path, db, quick_batches):
    """A reader that keeps the file longer than ingest's wait (0.3 s here): the batches it holds up
    stay pending while the checking goes on, and are stored once it lets go."""
    import time

    games = _small_games(tmp_path, 60)
    reader: list[HeldReader] = []

    def progress(done: int, summary: pipeline.Summary) -> None:
        progress.count += done  # type: ignore[attr-defined]
        if progress.count == 15:  # type: ignore[attr-defined]
            reader.append(HeldReader(db))
        if progress.count == 45:  # type: ignore[attr-defined]
            time.sleep(1.0)  # held three times ingest's wait
            reader[0].kill()

    progress.count = 0  # type: ignore[attr-defined]
    try:
        summary = pipeline.ingest_paths([str(games)], db, analyse=False, workers=1, progress=progress, wait_seconds=0.3)
    finally:
        for r in reader:
            r.kill()
    assert reader, "the reader held the file"
    assert summary.games_stored == 60 and summary.games_rejected == 0
    assert counts(db)["games"] == 60


def test_a_reader_that_never_lets_go_keeps_every_batch_stored_and_says_what_is_left(
    tmp_path, db, quick_batches, monkeypatch
):
    # batches of exactly 10 games: a loaded machine must not close a batch early on time alone
    monkeypatch.setattr(pipeline, "BATCH_SECONDS", 600.0)
    games = _small_games(tmp_path, 60)
    reader: list[HeldReader] = []

    def progress(done: int, summary: pipeline.Summary) -> None:
        progress.count += done  # type: ignore[attr-defined]
        if progress.count == 15:  # type: ignore[attr-defined]
            reader.append(HeldReader(db))

    progress.count = 0  # type: ignore[attr-defined]
    try:
        with pytest.raises(store.StoreBusy) as busy:
            pipeline.ingest_paths([str(games)], db, analyse=False, workers=1, progress=progress, wait_seconds=0.3)
    finally:
        for r in reader:
            r.kill()
    message = str(busy.value)
    assert "held by another process" in message
    assert "Games stored before it: 10; checked and not stored: games 50, rejections 0" in message
    assert "run the same ingest again" in message
    assert counts(db)["games"] == 10  # the batch written before the reader came is kept
    again = pipeline.ingest_paths([str(games)], db, analyse=False, workers=1)
    assert again.games_stored == 50 and again.games_skipped == 10


def test_a_database_an_older_version_wrote_is_read_with_todays_columns(samples, db, monkeypatch):
    """An older file lacks columns (problems.template and .fields) and a table (statements); a reader
    may not add them, so it sees them NULL and empty, with or without merged names, and every
    dashboard page shows; the next writer adds them for real."""
    from clue_stats.dashboard import pages
    from tests.helpers import open_app

    pipeline.ingest_paths([str(samples)], db, workers=1)
    con = duckdb.connect(str(db))
    con.execute("ALTER TABLE problems DROP COLUMN template")
    con.execute("ALTER TABLE problems DROP COLUMN fields")
    con.execute("DROP TABLE statements")
    con.execute("INSERT INTO player_merges VALUES ('Mom', 'Mother', now(), NULL)")
    con.close()
    for persons in (False, True):
        with store.read_connection(db, persons=persons) as reader:
            assert reader.rows("SELECT count(*), count(template), count(fields) FROM problems")[0][1:] == (0, 0)
            assert reader.rows("SELECT count(*) FROM statements") == [(0,)]
    with duckdb.connect(str(db), read_only=True) as con:
        game = con.execute("SELECT min(game_id) FROM games").fetchall()[0][0]
    for page in pages.PAGES:
        query = {"game": game} if page.slug in ("replay", "review") else {}
        at = open_app(db, monkeypatch, page.slug, **query)
        assert not at.exception and not at.error, (page.slug, [e.value for e in (*at.exception, *at.error)])
    with store.write_connection(db) as writer:
        assert writer.rows("SELECT count(template) FROM problems") == [(0,)]  # the column is there now
