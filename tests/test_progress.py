"""Progress on a wait: a line every few seconds through a pipe, live on a terminal, nothing with --json."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading

import pytest

from clue_stats.progress import waiting
from tests.helpers import SAMPLES


class Pipe(io.StringIO):
    def isatty(self) -> bool:
        return False


def test_through_a_pipe_a_line_comes_while_the_work_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLUE_STATS_PROGRESS_SECONDS", "0.05")
    stream = Pipe()
    seen = threading.Event()
    with waiting("ingesting", stream=stream) as wait_line:
        wait_line.update(3, total=10)
        # no update comes while a long game is counted: the line still comes, from its own thread
        for _ in range(200):
            if "ingesting: 3 of 10 games" in stream.getvalue():
                seen.set()
                break
            seen.wait(0.02)
    assert seen.is_set(), stream.getvalue()
    lines = stream.getvalue().splitlines()
    assert all(line.startswith("ingesting: ") and line.endswith(" s)") for line in lines)


def test_with_json_nothing_is_said() -> None:
    stream = Pipe()
    with waiting("ingesting", quiet=True, stream=stream) as wait_line:
        wait_line.update(5)
    assert stream.getvalue() == ""


@pytest.mark.slow
def test_ingest_through_a_pipe_says_it_is_alive(tmp_path) -> None:
    """`clue-stats ingest` as `make demo` runs it, its output piped: progress lines on stderr, then
    the summary; with --json only the JSON."""
    env = {**os.environ, "CLUE_STATS_PROGRESS_SECONDS": "0.05", "CLUE_STATS_LANG": "en"}
    command = [sys.executable, "-m", "clue_stats", "ingest", str(SAMPLES), "--db", str(tmp_path / "a.duckdb")]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode in (0, 3), done.stderr
    assert "ingesting: " in done.stderr and " games (" in done.stderr, done.stderr
    assert "games stored" in done.stdout
    command[-1] = str(tmp_path / "b.duckdb")
    done = subprocess.run([*command, "--json"], capture_output=True, text=True, env=env, timeout=300)
    assert "ingesting: " not in done.stderr and done.stdout.lstrip().startswith("{")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_live_line_comes_only_for_a_wait_that_lasts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A quick run draws nothing on a terminal (the live line would flicker and be gone); a wait
    that lasts past $CLUE_STATS_PROGRESS_LIVE_AFTER shows what is being done and the count."""
    from rich.console import Console

    from clue_stats import typer_app

    screen = io.StringIO()
    monkeypatch.setattr(typer_app, "err", Console(file=screen, force_terminal=True, width=100))
    monkeypatch.setenv("CLUE_STATS_PROGRESS_LIVE_AFTER", "0.3")
    with waiting("ingesting", stream=Terminal()) as wait_line:
        wait_line.update(3, total=10)
    assert screen.getvalue() == ""
    monkeypatch.setenv("CLUE_STATS_PROGRESS_LIVE_AFTER", "0.05")
    with waiting("ingesting", stream=Terminal()) as wait_line:
        wait_line.update(3, total=10)
        for _ in range(100):
            if "3/10" in screen.getvalue():
                break
            threading.Event().wait(0.02)
    assert "ingesting" in screen.getvalue() and "3/10" in screen.getvalue(), screen.getvalue()
