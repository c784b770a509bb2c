"""Nothing left running: the commands' child processes end with them, whatever signal ends them.

Real processes, killed by process id: the Streamlit server of `clue-stats dashboard` when the
command is told to stop (SIGTERM, SIGINT, SIGHUP) or killed outright, and the worker processes of
`ingest` and `analyse` after a `kill -9` of the command.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clue_stats.engine.simulate import simulate
from clue_stats.ingest import cluelog
from tests.helpers import dashboard_server

pytestmark = pytest.mark.slow  # about a second or more a test: make test-fast leaves them out


def children_of(pid: int) -> list[int]:
    """The pids of the processes whose parent is ``pid`` (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # ended meanwhile
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def running(pid: int) -> bool:
    """Whether the process exists and is not a zombie waiting for a parent that does not reap it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def ended_within(pids: list[int], seconds: float) -> list[int]:
    """The pids still running after up to ``seconds``."""
    deadline = time.monotonic() + seconds
    while any(running(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    return [p for p in pids if running(p)]


def port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def closed_within(port: int, seconds: float) -> bool:
    """Whether the port stops answering within ``seconds``: a server's process can read as ended
    (its first thread a zombie) while its other threads still close the listening socket."""
    deadline = time.monotonic() + seconds
    while port_open(port) and time.monotonic() < deadline:
        time.sleep(0.2)
    return not port_open(port)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGKILL], ids=lambda s: s.name)
def test_the_dashboard_stops_its_server_whatever_signal_ends_it(tmp_path, stop):
    with dashboard_server(tmp_path / "none.duckdb") as (_, port, _, proc):
        servers = children_of(proc.pid)
        assert servers and port_open(port)
        os.kill(proc.pid, stop)  # the command only, not its process group
        code = proc.wait(timeout=20)
        assert ended_within(servers, 15) == []
        assert closed_within(port, 10)
        if stop != signal.SIGKILL:
            assert code == 0  # told to stop, it stops as asked: not an error


def _games(folder: Path, n: int) -> Path:
    folder.mkdir()
    path = folder / "games.jsonl"
    games = simulate(n, 6, "classic", ("notebook", "random", "bluffer"), seed=5)
    path.write_text(cluelog.write_games(games), encoding="utf-8")
    return path


def _cli(*args: str | Path) -> list[str]:
    return [sys.executable, "-m", "clue_stats", *map(str, args)]


@pytest.mark.parametrize("command", ["ingest", "analyse"])
def test_kill_9_of_a_working_command_leaves_no_worker_behind(tmp_path, command):
    games = _games(tmp_path / "games", 80)
    db = tmp_path / "store.duckdb"
    if command == "analyse":
        subprocess.run(_cli("ingest", games, "--db", db, "--no-analyse"), check=True, capture_output=True)
        args = _cli("analyse", "--db", db)
    else:
        args = _cli("ingest", games, "--db", db)
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while len(workers := children_of(proc.pid)) < 2:
            assert proc.poll() is None, "the command ended before its workers started"
            assert time.monotonic() < deadline, "no workers after 120 s"
            time.sleep(0.2)
        time.sleep(1)  # at work
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert ended_within(workers, 10) == []
    finally:
        for pid in [proc.pid, *children_of(proc.pid)]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_a_worker_never_finalizes_what_it_inherited():
    """Garbage in the process that starts the workers (a cycle holding a live DuckDB connection, as a
    library caller or a caught exception leaves it) is left to that process: a worker's collector
    finalizing it killed the worker and broke the pool (seen in CI as a segfault in the middle of an
    ingest)."""
    import gc

    import duckdb

    from clue_stats import pipeline

    enabled = gc.isenabled()
    gc.disable()  # the garbage stays until the pool is made, as it may in any process
    try:
        for _ in range(20):
            con = duckdb.connect()
            con.sql("SELECT range FROM range(100000)").pl()  # DuckDB's threads at work
            cycle: dict = {"con": con}
            cycle["self"] = cycle
            del cycle, con
        pool = pipeline._pool(2)
        assert pool is not None
        try:
            # a full collection in each worker, as a worker's allocations bring one about
            collections = [pool.submit(gc.collect) for _ in range(4)]
            assert all(f.result(timeout=120) >= 0 for f in collections)
        finally:
            pipeline._end(pool)
    finally:
        if enabled:
            gc.enable()
