"""How fast the tabletop notation reads and writes, against the clue-log/1 reader in the same process.

Prints figures, asserts nothing (docs/performance.md). Games are the seeded random games of clue_stats/testing.py,
with every hand dealt, written once as clue-log/1 and once as notation; each pass is timed as the best
of a few runs, so that other work on a shared machine counts as little as possible.

    .venv/bin/python benchmarks/notation.py [games]
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clue_stats.ingest import cluelog, notation
from clue_stats.testing import random_game


def best_of(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main(n_games: int = 40) -> None:
    games = [
        random_game(seed, n_players=3 + seed % 4, n_suggestions=40, wrong_accusations=seed % 2)
        for seed in range(n_games)
    ]
    records = [r for g in games for r in cluelog.record_dicts(g)]
    jsonl = cluelog.write_games(games)
    text = notation.write(records)
    n = len(records)

    def read_cluelog() -> None:
        for raw in cluelog.read_text(jsonl).games:
            cluelog.build_game(raw)

    def read_notation() -> None:
        for raw in notation.read(text).games:
            cluelog.build_game(raw)

    reference = best_of(3, read_cluelog)
    reading = best_of(3, read_notation)
    writing = best_of(3, lambda: notation.write(records))
    print(
        f"{n_games} games, {n} records; notation {len(text.encode()):,} bytes, clue-log/1 {len(jsonl.encode()):,} bytes "
        f"({len(text.encode()) / len(jsonl.encode()):.2f}x)"
    )
    print(f"clue-log/1 read + build : {n / reference:10,.0f} records/s (reference)")
    print(f"notation read + build   : {n / reading:10,.0f} records/s ({reading / reference:.2f}x the reference time)")
    print(
        f"notation write          : {n / writing:10,.0f} records/s ({writing / reference:.2f}x; every line is read back)"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
