"""`analyse`: compute the analysis of stored games that lack it or were analysed by an older version.

Games are rebuilt from their stored records, analysed in worker processes, and written back through
:func:`ingest.store.replace_analysis`, a batch of whole games per transaction (so a dashboard can
read between batches). A game analysed with the best available gain keeps it when it is analysed
again; ``--deep`` adds it where it is missing.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import typer
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from clue_stats.cli import DbOption, JsonOption, app, database, err, handled, out, print_json
from clue_stats.ingest import store

BATCH = 200  # games read, analysed and written at a time


@dataclass
class AnalyseSummary:
    database: str
    analysis_version: int
    deep: bool
    games_analysed: int = 0
    games_outdated: int = 0  # no analysis, or an older version's
    games_without_best_gain: int = 0  # afterwards: games with suggestions but no best available gain (what --deep adds)

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def _analyse_one(item: tuple[str, list[str], list[int | None], str | None, bool]) -> store.GameRows:
    """Worker: rebuild one stored game, replay it and analyse it (rows as ingest would make them)."""
    from clue_stats.analysis.pipeline import annotate
    from clue_stats.analysis.store_read import game_from_payloads
    from clue_stats.engine.rules import replay
    from clue_stats.ingest.rows import game_rows

    game_id, payloads, lines, source_file, deep = item
    game = game_from_payloads(payloads, lines)
    game.game_id = game_id  # the stored identity, whatever the rebuilt content would hash to
    replayed = replay(game)  # the stored game was validated when stored: the rules' replay is enough
    return annotate(game_rows(game, replayed, source_file), game, replayed, deep=deep)


def _targets(con, deep: bool) -> tuple[list[tuple[str, bool, str | None]], int]:
    """(game_id, analyse deep?, source_file) for every game to analyse, and how many are outdated."""
    from clue_stats.analysis.pipeline import ANALYSIS_VERSION

    rows = con.execute(
        """
        SELECT g.game_id, g.source_file,
               g.analysis_version IS NULL OR g.analysis_version < ? AS outdated,
               coalesce(bool_or(s.best_gain_bits IS NULL), FALSE) AS shallow,
               coalesce(bool_or(s.best_gain_bits IS NOT NULL), FALSE) AS had_deep
        FROM games g LEFT JOIN suggestions s ON s.game_id = g.game_id
        GROUP BY g.game_id, g.source_file, g.analysis_version
        ORDER BY g.game_id
        """,
        [ANALYSIS_VERSION],
    ).fetchall()
    outdated = sum(1 for r in rows if r[2])
    targets = [(gid, deep or had_deep, source) for gid, source, old, thin, had_deep in rows if old or (deep and thin)]
    return targets, outdated


def _without_best_gain(con) -> int:
    return con.execute("SELECT count(DISTINCT game_id) FROM suggestions WHERE best_gain_bits IS NULL").fetchall()[0][0]


def analyse_store(
    db: str | Path,
    deep: bool = False,
    workers: int | None = None,
    wait_seconds: float = 30.0,
    progress: Callable[[int], None] | None = None,
) -> AnalyseSummary:
    """Analyse every stored game whose analysis is missing or older than this version (and, with
    ``deep``, every game without the best available gain)."""
    from clue_stats.analysis.pipeline import ANALYSIS_VERSION
    from clue_stats.analysis.store_read import stored_games

    summary = AnalyseSummary(str(db), ANALYSIS_VERSION, deep)
    with store.read_connection(db, wait_seconds) as con:
        targets, summary.games_outdated = _targets(con, deep)
    workers = workers if workers is not None else min(2, os.cpu_count() or 1)
    pool = ProcessPoolExecutor(max_workers=workers) if workers > 1 and len(targets) > 1 else None
    try:
        for start in range(0, len(targets), BATCH):
            chunk = targets[start : start + BATCH]
            with store.read_connection(db, wait_seconds) as con:
                payloads = stored_games(con, [gid for gid, _, _ in chunk])
            items = [(gid, *payloads[gid], source, want_deep) for gid, want_deep, source in chunk if gid in payloads]
            results = (
                list(pool.map(_analyse_one, items, chunksize=4))
                if pool is not None
                else [_analyse_one(i) for i in items]
            )
            with store.write_connection(db, wait_seconds) as con:
                done = store.replace_analysis(con, results)
            summary.games_analysed += len(done)
            if progress is not None:
                progress(len(chunk))
    finally:
        if pool is not None:
            pool.shutdown()
    with store.read_connection(db, wait_seconds) as con:
        summary.games_without_best_gain = _without_best_gain(con)
    return summary


@app.command("analyse")
@handled
def analyse_command(
    db: str | None = DbOption,
    deep: bool = typer.Option(
        False, "--deep", help="Also compute the best available gain (accuracy, label) where it is missing."
    ),
    workers: int | None = typer.Option(
        None, "--workers", min=1, help="Processes that analyse games (default: up to 2)."
    ),
    wait: float = typer.Option(30.0, "--wait", min=0, help="Seconds to wait for a database held by another process."),
    json_output: bool = JsonOption,
) -> None:
    """Compute the analysis of stored games that lack it or were analysed by an older version."""
    path = database(db)
    if not Path(path).exists():
        raise store.StoreError(f"{path}: no such database (run `clue-stats ingest` first)")
    if sys.stderr.isatty() and not json_output:
        with Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            TextColumn("{task.completed} games"),
            TimeElapsedColumn(),
            console=err,
            transient=True,
        ) as bar:
            task = bar.add_task("analysing", total=None)
            summary = analyse_store(
                path, deep=deep, workers=workers, wait_seconds=wait, progress=lambda n: bar.advance(task, n)
            )
    else:
        summary = analyse_store(path, deep=deep, workers=workers, wait_seconds=wait)
    if json_output:
        print_json(summary.as_dict())
        return
    message = f"{summary.games_analysed} games analysed (analysis version {summary.analysis_version})"
    if summary.games_without_best_gain:
        message += (
            f"; {summary.games_without_best_gain} without the best available gain (`clue-stats analyse --deep` adds it)"
        )
    out.print(f"{message}  ->  {path}")
