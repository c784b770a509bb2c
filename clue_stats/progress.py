"""Progress on a wait: the one way a command shows that it is working (ingest, validate, analyse).

On a terminal a live line on standard error (rich's progress: a spinner or a bar, the count, the time
so far) once the wait has lasted a second (``$CLUE_STATS_PROGRESS_LIVE_AFTER``), gone when the work is
done; through a pipe or into a log file a plain line on standard
error every few seconds (``$CLUE_STATS_PROGRESS_SECONDS``, default 5), so that `make demo`, CI and a
cron job show that a long run is alive; with ``--json`` nothing (standard output is the answer, and a
caller reads standard error for problems). A run quicker than the interval prints no line.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from clue_stats.analysis.words import _, decimal, n_

PIPE_SECONDS = 5.0
LIVE_SECONDS = 1.0  # on a terminal, the live line appears once a wait has lasted this long


def live_after() -> float:
    """Seconds before the live line appears on a terminal: $CLUE_STATS_PROGRESS_LIVE_AFTER, else LIVE_SECONDS."""
    try:
        return max(0.0, float(os.environ.get("CLUE_STATS_PROGRESS_LIVE_AFTER", LIVE_SECONDS)))
    except ValueError:
        return LIVE_SECONDS


def pipe_seconds() -> float:
    """Seconds between two lines through a pipe: $CLUE_STATS_PROGRESS_SECONDS, else PIPE_SECONDS."""
    try:
        return max(0.05, float(os.environ.get("CLUE_STATS_PROGRESS_SECONDS", PIPE_SECONDS)))
    except ValueError:
        return PIPE_SECONDS


class Waiting:
    """The state of one wait: what is being done, how many games so far (of how many, once known), a
    note (what the budget left out); ``show`` draws it where the reader is."""

    def __init__(self, what: str, show: Callable[[Waiting], None]) -> None:
        self.what = what
        self.done = 0
        self.total: int | None = None
        self.note = ""
        self.started = time.monotonic()
        self._show = show

    def update(
        self, advance: int = 0, total: int | None = None, note: str | None = None, what: str | None = None
    ) -> None:
        self.done += advance
        if what is not None:
            self.what = what
        if total is not None:
            self.total = total
        if note is not None:
            self.note = note
        self._show(self)

    def line(self) -> str:
        """The plain line said through a pipe: "ingesting: 12 games (8 s)", "analysing: 40 of 300 games"."""
        games = (
            _("{done} of {total}").format(done=self.done, total=n_(self.total, "{n} game", "{n} games"))
            if self.total is not None
            else n_(self.done, "{n} game", "{n} games")
        )
        seconds = decimal(time.monotonic() - self.started, 0)
        return _("{what}: {games}{note} ({seconds} s)").format(
            what=self.what, games=games, note=self.note, seconds=seconds
        )


@contextmanager
def waiting(what: str, quiet: bool = False, stream: Any = None) -> Iterator[Waiting]:
    """A wait on standard error (``stream`` for tests): live on a terminal, a line every few seconds
    through a pipe, nothing when ``quiet`` (``--json``)."""
    stream = stream if stream is not None else sys.stderr
    if quiet:
        yield Waiting(what, lambda _w: None)
        return
    if stream.isatty():
        from rich.progress import (  # deferred: start-up
            BarColumn,
            MofNCompleteColumn,
            Progress,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        from clue_stats.typer_app import err  # deferred: start-up

        bar = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(_("games")),
            TimeElapsedColumn(),
            console=err,
            transient=True,
        )
        task = bar.add_task(what, total=None)

        def live(w: Waiting) -> None:
            bar.update(task, completed=w.done, total=w.total, description=w.what + w.note)

        # shown only once the wait has lasted LIVE_AFTER seconds: a quick run draws nothing (no
        # flicker of a line that is gone at once)
        drawn = threading.Lock()
        over = False

        def show() -> None:
            with drawn:
                if not over:
                    bar.start()

        timer = threading.Timer(live_after(), show)
        timer.daemon = True
        timer.start()
        try:
            yield Waiting(what, live)
        finally:
            timer.cancel()
            with drawn:
                over = True
                bar.stop()
        return
    # through a pipe: a line every few seconds from a thread of its own, so that a long game (no
    # update for a while) still shows the run is alive
    every = pipe_seconds()
    w = Waiting(what, lambda _w: None)
    stop = threading.Event()

    def tick() -> None:
        while not stop.wait(every):
            print(w.line(), file=stream, flush=True)

    ticker = threading.Thread(target=tick, name="clue-stats progress", daemon=True)
    ticker.start()
    try:
        yield w
    finally:
        stop.set()
        ticker.join()
