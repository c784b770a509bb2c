"""The first run of the counting engine: its compiled kernels are made once and cached (numba,
in the folder clue_stats sets), which takes most of a minute; every later run loads them in
moments. The first command that counts says so on standard error ("preparing the counting engine
(first run only)") with a progress bar on a terminal, instead of a silent wait.

A run is the first when clue-stats' cache folder holds no mark for these kernels: the mark's name
is a hash of the kernels' source files and of the numba and Python versions, so a new version of
either (whose kernels numba compiles again) is announced again.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from clue_stats import user_cache_dir
from clue_stats.engine.editions import data_files
from clue_stats.ingest import cluelog, formats

if TYPE_CHECKING:
    from clue_stats.engine.game import Game

MESSAGE = "preparing the counting engine (first run only)"


def _mark() -> Path | None:
    import numba  # deferred: start-up

    cache = Path(os.environ.get("NUMBA_CACHE_DIR") or user_cache_dir())
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None  # nowhere to keep the mark: say nothing rather than every time

    from clue_stats.engine import counting_kernel, gain_kernel  # deferred: start-up

    digest = hashlib.sha256(f"{numba.__version__} {sys.version}".encode())
    for module in (counting_kernel, gain_kernel):
        digest.update(Path(module.__file__ or "").read_bytes())
    return cache / f"clue-stats-prepared-{digest.hexdigest()[:16]}"


def _sample_game() -> Game:
    """A classic game of the samples that come with clue-stats, every hand dealt."""
    sample = data_files("samples", ".jsonl")["classic-club-night"]
    raw = formats.read_as("clue-log", sample.read_text(encoding="utf-8"), sample.name).games[0]
    game, _ = cluelog.build_game(raw)
    assert game is not None, "the sample game is valid"
    return game


def prepare_engine(console: Console) -> float | None:
    """Compile (or load) the kernels now, saying so, if this is the first run; the seconds it took
    (None: not the first run, nothing said)."""
    mark = _mark()
    if mark is None or mark.exists():
        return None
    from clue_stats.analysis.computers.game_analysis import analyse_game  # deferred: start-up
    from clue_stats.engine import deduction  # deferred: start-up

    steps = [
        ("the deal counting", lambda game: deduction.entropy_table(game)),
        ("the best available gain", lambda game: analyse_game(game)),
    ]
    start = time.monotonic()
    game = _sample_game()
    if console.is_terminal:
        with Progress(
            TextColumn(MESSAGE + ": {task.description}"),
            BarColumn(),
            TextColumn("{task.completed}/{task.total}"),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        ) as bar:
            task = bar.add_task(steps[0][0], total=len(steps))
            for what, step in steps:
                bar.update(task, description=what)
                step(game)
                bar.advance(task)
    else:
        console.print(f"{MESSAGE} ...", markup=False)
        for _, step in steps:
            step(game)
    seconds = time.monotonic() - start
    console.print(f"{MESSAGE}: done in {seconds:.0f} s; later runs start at once", markup=False)
    try:
        mark.touch()
    except OSError:
        pass  # said again next time: no harm
    return seconds
