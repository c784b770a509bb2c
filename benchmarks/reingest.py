"""Re-ingesting games already stored: recognised by content hash before their checks and analysis.

    .venv/bin/python benchmarks/reingest.py [--games 1000] [--workers 2]

Generates seeded 6-player games (every hand dealt, ~40 suggestions each), ingests them once with
their analysis, then times ingesting the same files again into that database, in one process:
(1) with analysis, as ingest runs now (stored games recognised as they are read), (2) with
`--no-analyse`, (3) with analysis and the recognition turned off (every game checked and analysed,
then found stored when written: how ingest ran before). Prints wall and CPU seconds (this process
and its workers) and the ratios to (2).
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clue_stats import pipeline
from clue_stats.ingest.cluelog import write_game
from clue_stats.testing import random_game


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)  # workers, once the pool has joined them
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _timed(label: str, paths: list[str], db: Path, analyse: bool, workers: int) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), _cpu()
    summary = pipeline.ingest_paths(paths, db, analyse=analyse, workers=workers)
    wall, cpu = time.perf_counter() - wall, _cpu() - cpu
    print(
        f"{label:44s} {wall:7.2f} s wall {cpu:7.2f} s CPU   stored {summary.games_stored}, "
        f"already present {summary.games_skipped}"
    )
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "logs"
        folder.mkdir()
        per_file = 250
        for start in range(0, args.games, per_file):
            text = "".join(
                write_game(random_game(seed, n_players=6, wrong_accusations=1))
                for seed in range(start, min(start + per_file, args.games))
            )
            (folder / f"games-{start:06d}.jsonl").write_text(text, encoding="utf-8")
        db = Path(tmp) / "store.duckdb"
        paths = [str(folder)]
        print(f"{args.games} games, {args.workers} workers")
        _timed("first ingest, with analysis", paths, db, True, args.workers)
        now = _timed("again, with analysis (recognised as read)", paths, db, True, args.workers)
        bare = _timed("again, --no-analyse", paths, db, False, args.workers)
        remember = pipeline._remember_stored
        pipeline._remember_stored = lambda hashes: None  # as before: found stored only when written
        try:
            before = _timed("again, with analysis, not recognised (before)", paths, db, True, args.workers)
        finally:
            pipeline._remember_stored = remember
        print(
            f"CPU ratio to --no-analyse: recognised {now[1] / bare[1]:.2f}x, not recognised {before[1] / bare[1]:.2f}x; "
            f"recognition saves {before[1] / now[1]:.1f}x CPU, {before[0] / now[0]:.1f}x wall"
        )


if __name__ == "__main__":
    main()
