"""Benchmark: the league's ratings on 100,000 games. Prints figures; asserts nothing.

    .venv/bin/python benchmarks/ratings.py [--games 100000] [--reference 1000] [--work DIR]

A club's season written straight into a fresh store with SQL (games of 3 to 6 players drawn from 60
people, a winner in each, a wrong accusation in a third of them; the rating needs only the
``games``, ``players`` and ``accusations`` rows), then, through the code ingest runs
(``pipeline.update_ratings``):

1. every rating computed from scratch (the figure issue 15 asks for: target under 30 s), against
   the same on ``--reference`` games in the same process (the ratio says how it grows);
2. one game added at the end (the usual ingest: nothing before it is rated again);
3. one game added in the past, in the middle of the season (everything after it is rated again);
4. a merge of two names (every rating computed again).

CPU time of this process is given beside wall time (the machine is shared).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from clue_stats import pipeline  # noqa: E402
from clue_stats.ingest import store  # noqa: E402
from clue_stats.ingest.store.queries import measuring  # noqa: E402

PEOPLE = 60


def season(db: Path, games: int) -> None:
    """``games`` club games, one every 20 minutes from 2020 on."""
    with store.write_connection(db) as con:
        measuring.write_season(con, games, PEOPLE)


def cpu_seconds() -> float:
    """CPU time of this process, every thread (DuckDB's own threads) included."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(label: str, db: Path, action) -> float:
    wall, cpu = time.perf_counter(), cpu_seconds()
    action()
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    print(f"  {label:<44} wall {wall:7.2f} s   CPU {cpu:7.2f} s")
    return cpu


def from_scratch(db: Path) -> None:
    with store.write_connection(db) as con:
        pipeline.update_ratings(con, from_scratch=True)


def add_game(db: Path, game_id: str, played_at: str, names: tuple[str, ...] = ("P1", "P2", "P3")) -> None:
    with store.write_connection(db) as con, con.atomic():
        measuring.write_club_game(con, game_id, played_at, names)
        pipeline.update_ratings(con)


def run(work: Path, games: int, label: str) -> float:
    db = work / f"ratings-{games}.duckdb"
    t = time.perf_counter()
    season(db, games)
    with store.read_connection(db) as con:
        seats = measuring.count_rows(con, "players")
    print(f"\n{label}: {games:,} games, {seats:,} seats (written in {time.perf_counter() - t:.1f} s)")
    cpu = timed("all ratings from scratch", db, lambda: from_scratch(db))
    timed("one game added at the end", db, lambda: add_game(db, "late", "2099-01-01T20:00"))
    middle = f"{2020 + games * 20 // (60 * 24 * 365 * 2)}-06-15T20:00"
    timed(f"one game added in the past ({middle[:10]})", db, lambda: add_game(db, "past", middle, ("P1", "P2", "Pat")))
    timed("a merge (every rating again)", db, lambda: pipeline.merge_players(db, "Pat", "P5"))
    return cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--reference", type=int, default=1_000)
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        print(
            f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} (other work running shares them)"
        )
        run(work, 200, "warm-up (imports, first queries)")
        reference = run(work, args.reference, "reference")
        big = run(work, args.games, "target")
        print(
            f"\nfrom scratch: {big:.2f} CPU s for {args.games:,} games ({big / args.games * 1e6:.0f} µs a game), "
            f"{big / reference:.1f}x the {args.reference:,}-game reference for {args.games / args.reference:.0f}x "
            "the games; target under 30 s"
        )


if __name__ == "__main__":
    main()
