"""Ingest throughput without analysis, next to the time it takes only to parse the same files as JSON.

    .venv/bin/python benchmarks/ingest.py [--games 3000] [--players 6]

Generates seeded games (every hand dealt, ~40 suggestions each), writes them as clue-log/1 in files
of 500 games, then times in one process: (1) json.loads of every line, and the strict reader
(ingest.strict_json) of the same lines, in CPU time, (2) `ingest --no-analyse`
with 1 worker and (3) with 2 workers, each into a fresh database. Prints games per second and the
ratios to plain parsing.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clue_stats import pipeline
from clue_stats.ingest import strict_json
from clue_stats.ingest.cluelog import write_game
from clue_stats.testing import random_game


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--players", type=int, default=6)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "logs"
        folder.mkdir()
        per_file = 500
        for start in range(0, args.games, per_file):
            text = "".join(
                write_game(random_game(seed, n_players=args.players, wrong_accusations=1))
                for seed in range(start, min(start + per_file, args.games))
            )
            (folder / f"games-{start:06d}.jsonl").write_text(text)
        size = sum(f.stat().st_size for f in folder.iterdir())
        lines = sum(1 for f in folder.iterdir() for _ in f.open("rb"))

        def parse_all(loads) -> float:
            t0 = time.process_time()  # CPU time: steadier than wall time on a shared machine
            for f in sorted(folder.iterdir()):
                with f.open("rb") as stream:
                    for line in stream:
                        loads(line.decode("utf-8"))
            return time.process_time() - t0

        parse = parse_all(json.loads)
        strict = parse_all(strict_json.loads)  # what the reader runs: NaN, huge numbers, duplicates refused

        results = {}
        for workers in (1, 2):
            db = Path(tmp) / f"bench-{workers}.duckdb"
            t0 = time.perf_counter()
            summary = pipeline.ingest_paths([str(folder)], db, analyse=False, workers=workers)
            results[workers] = time.perf_counter() - t0
            assert summary.games_stored == args.games, summary.as_dict()
        print(f"{args.games} games of {args.players} players, {lines:,} records, {size / 1e6:.1f} MB")
        print(f"json.loads only        : {parse:7.2f} s  {args.games / parse:9.0f} games/s (CPU)")
        print(
            f"strict_json.loads     : {strict:7.2f} s  {args.games / strict:9.0f} games/s (CPU, {strict / parse:.2f}x json.loads)"
        )
        for workers, seconds in results.items():
            print(
                f"ingest --no-analyse x{workers}: {seconds:7.2f} s  {args.games / seconds:9.0f} games/s"
                f"  ({seconds / parse:.1f}x the JSON parse)"
            )


if __name__ == "__main__":
    main()
