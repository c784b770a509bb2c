"""Ingest with the whole review: how long 1,000 simulated 6-player notebook games take on 2 workers.

    .venv/bin/python benchmarks/ingest_analysis.py [--games 1000] [--players 6] [--seed 1] [--serial]
                                                   [--no-light]

Games come from the simulator (notebook players, classic edition), are written as clue-log/1 files
(100 games a file) and ingested into fresh databases:

1. reference: `ingest --no-analyse` (2 workers): reading, checking and storing alone;
2. `ingest --light` (2 workers): the analysis without the review (information for every observer,
   expected gain, giveaway, accusation timing, certainty, missed wins);
3. `ingest` as by default (2 workers, and with --serial on 1): the whole review too (best available
   gain, accuracy, bits lost, label, review accuracy);
4. where one game's analysis time goes, in this process, over a few games (run first, so that no
   cache of the deduction engine is warm).

Figures, not pass/fail. The target of issue 12: the whole review of 1,000 games under 60 s on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clue_stats import pipeline
from clue_stats.analysis.computers import accusations, giveaway, information, suggestions
from clue_stats.analysis.computers.game_analysis import GameAnalysis
from clue_stats.engine.game import Suggest
from clue_stats.engine.rules import validate
from clue_stats.engine.simulate import simulate
from clue_stats.ingest.cluelog import write_games

PER_FILE = 100


def write_corpus(folder: Path, games: list) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for start in range(0, len(games), PER_FILE):
        (folder / f"games-{start // PER_FILE:04d}.jsonl").write_text(
            write_games(games[start : start + PER_FILE]), encoding="utf-8"
        )


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's workers, once shut down)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed_ingest(
    paths: list[str], db: Path, analyse: bool, workers: int, review: bool = True
) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (all processes) and games stored. On a machine shared with other
    work the wall time depends on the load; the CPU time does not, much."""
    start, cpu = time.perf_counter(), cpu_seconds()
    summary = pipeline.ingest_paths(paths, db, analyse=analyse, workers=workers, review=review)
    return time.perf_counter() - start, cpu_seconds() - cpu, summary.games_stored


def breakdown(games: list) -> dict[str, float]:
    """CPU seconds per game of each part of the analysis, in this process (CPU time: the machine
    may be shared)."""
    parts: dict[str, float] = {}

    def clock(name: str, start: float) -> None:
        parts[name] = parts.get(name, 0.0) + time.process_time() - start

    for game in games:
        t = time.process_time()
        validate(game)
        clock("validate (rules + consistency)", t)
        ctx = GameAnalysis(game)
        t = time.process_time()
        for observer in [*game.names, None]:
            ctx.timeline(observer)
        clock("knowledge timelines", t)
        t = time.process_time()
        information.information_rows(game, ctx.entropies, ctx.partial())
        clock("information (entropy table)", t)
        t = time.process_time()
        suggestions.suggestion_columns(game, ctx.before, review=False)
        clock("expected gain", t)
        t = time.process_time()
        suggestions.suggestion_columns(game, ctx.before, review=True)
        clock("review (expected + best gain)", t)
        t = time.process_time()
        giveaway.giveaway_columns(game, ctx.before)
        clock("giveaway", t)
        t = time.process_time()
        certain = accusations.certainty(game, ctx.timeline, ctx.entropies)
        accusations.accusation_columns(game, ctx.timeline, certain)
        clock("certainty + accusations", t)
    return {k: v / len(games) for k, v in parts.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--serial", action="store_true", help="also the whole review on 1 worker")
    parser.add_argument("--no-light", action="store_true", help="skip the --light run")
    args = parser.parse_args()

    start = time.perf_counter()
    games = list(simulate(args.games, args.players, seed=args.seed))
    generated = time.perf_counter() - start
    records = sum(len(g.records) for g in games)
    n_suggestions = sum(1 for g in games for r in g.records if isinstance(r, Suggest))
    print(
        f"generated {len(games)} {args.players}-player games in {generated:.1f} s "
        f"({records / len(games):.0f} records, {n_suggestions / len(games):.1f} suggestions a game)"
    )

    # first, while this process's caches are cold (the 1-worker ingest below runs in this process);
    # one other game first loads the compiled counting kernel, which each process does once
    breakdown(games[:1])
    few = games[-5:]
    print("where one game's analysis goes (CPU s a game, this process, 5 games):")
    for part, seconds in breakdown(few).items():
        print(f"  {part:32s} {seconds:7.3f}")
    print(f"load average before the runs: {', '.join(f'{x:.1f}' for x in os.getloadavg())} (on {os.cpu_count()} cores)")

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_corpus(root / "logs", games)
        paths = [str(root / "logs")]

        ref, ref_cpu, stored = timed_ingest(paths, root / "reference.duckdb", analyse=False, workers=2)
        print(
            f"ingest --no-analyse, 2 workers:  {ref:7.1f} s wall, {ref_cpu:7.1f} s CPU  ({stored} games, {stored / ref:.0f} games/s)"
        )
        runs = [] if args.no_light else [("ingest --light, 2 workers:      ", False)]
        for label, review in [*runs, ("ingest (whole review), 2 workers:", True)]:
            name = "review" if review else "light"
            par, par_cpu, stored = timed_ingest(paths, root / f"{name}.duckdb", analyse=True, workers=2, review=review)
            print(
                f"{label} {par:7.1f} s wall, {par_cpu:7.1f} s CPU  ({stored / par:.1f} games/s; "
                f"{par / ref:.1f}x the reference; {par_cpu / max(stored, 1):.2f} CPU s a game)"
            )
            print(
                f"  1,000 games: {par * 1000 / max(stored, 1):.0f} s projected from this run; "
                f"{par_cpu * 1000 / max(stored, 1) / 2:.0f} s on 2 otherwise idle cores (CPU / 2); target 60 s"
            )
        if args.serial:
            ser, ser_cpu, stored = timed_ingest(paths, root / "serial.duckdb", analyse=True, workers=1)
            print(
                f"ingest (whole review), 1 worker: {ser:7.1f} s wall, {ser_cpu:7.1f} s CPU  (2 workers are {ser / par:.2f}x faster in wall time)"
            )


if __name__ == "__main__":
    main()
