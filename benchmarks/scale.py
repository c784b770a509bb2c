"""Scale: 100,000 generated games through ingest, with and without analysis. Prints figures; asserts nothing.

    .venv/bin/python benchmarks/scale.py [--games 100000] [--analyse-slice 10000] [--partitioned-slice 1000]
                                         [--workers 2] [--work DIR]

1. Generates seeded games (clue_stats/testing.py: every hand dealt, 40 suggestions, one wrong
   accusation; 3, 4, 5 and 6 players in turn) and writes them as clue-log/1, 1,000 games a file.
2. `ingest --no-analyse` of all of them into a fresh database, in a child process: wall and CPU
   time, database size, peak memory (ru_maxrss of the ingest process, and of its largest worker).
3. Ingest with analysis of the first ``--analyse-slice`` games into another fresh database (the
   whole corpus would take hours on 2 cores: the analysis costs 0.07 to 0.35 CPU s a game against
   about 2 ms for reading and checking), the same figures, and the time for all the games
   extrapolated from the slice (labelled as such).
4. The partitioned path (analysis/computers/partitioned.py) on ``--partitioned-slice`` games: the slice's
   events exported to Parquet, analysed on a local Dask cluster of ``--workers`` processes.

The dashboard's page times at 100,000 games are benchmarks/dashboard_speed.py's (run it; not repeated
here). Everything is written under --work (default: a temporary folder, removed at the end); nothing
goes into the repository. Peak memory is per process: the total is at most the ingest process's plus
the workers' times the largest worker's.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PER_FILE = 1000  # games a generated file


def write_chunk(args: tuple[Path, int, int, int]) -> int:
    """Write games [start, stop) as one clue-log/1 file; returns its size in bytes."""
    from clue_stats.ingest.cluelog import write_game
    from clue_stats.testing import random_game

    folder, start, stop, per_file = args
    text = "".join(
        write_game(random_game(seed, n_players=3 + seed % 4, wrong_accusations=1)) for seed in range(start, stop)
    )
    path = folder / f"games-{start // per_file:05d}.jsonl"
    path.write_text(text, encoding="utf-8")
    return len(text.encode("utf-8"))


def generate(folder: Path, games: int, workers: int, per_file: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    chunks = [(folder, s, min(s + per_file, games), per_file) for s in range(0, games, per_file)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        sizes = list(pool.map(write_chunk, chunks))
    files = sorted(folder.glob("*.jsonl"))
    print(f"  {len(files)} files, {sum(sizes) / 1e6:,.0f} MB")
    return files


def child_ingest(argv: list[str]) -> None:
    """Run in a fresh process: one ingest, then its figures as JSON on stdout."""
    from clue_stats import pipeline

    db, analyse, workers, paths = argv[0], argv[1] == "1", int(argv[2]), argv[3:]
    wall, _cpu = time.perf_counter(), time.process_time()
    summary = pipeline.ingest_paths(paths, db, analyse=analyse, workers=workers)
    wall = time.perf_counter() - wall
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    print(
        json.dumps(
            {
                "wall": wall,
                "stored": summary.games_stored,
                "rejected": summary.games_rejected,
                "cpu": own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime,
                "rss_self_mb": own.ru_maxrss / 1024,
                "rss_worker_mb": kids.ru_maxrss / 1024,  # Linux: KiB
            }
        )
    )


def measure_ingest(db: Path, files: list[Path], analyse: bool, workers: int) -> dict:
    for stale in (db, Path(f"{db}.wal")):
        stale.unlink(missing_ok=True)
    command = [
        sys.executable,
        __file__,
        "--child-ingest",
        str(db),
        "1" if analyse else "0",
        str(workers),
        *map(str, files),
    ]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"ingest failed:\n{done.stderr[-3000:]}")
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    figures["db_mb"] = sum(p.stat().st_size for p in (db, Path(f"{db}.wal")) if p.exists()) / 1e6
    return figures


def report(label: str, f: dict) -> None:
    games = max(f["stored"], 1)
    print(f"{label}: {f['stored']:,} games stored ({f['rejected']} rejected)")
    print(f"  wall {f['wall']:8.1f} s   {games / f['wall']:8.1f} games/s")
    print(f"  CPU  {f['cpu']:8.1f} s   {f['cpu'] / games * 1000:8.2f} ms a game (all processes)")
    print(f"  database {f['db_mb']:8.1f} MB   {f['db_mb'] * 1e6 / games:8.0f} bytes a game")
    print(f"  peak memory: ingest process {f['rss_self_mb']:.0f} MB, largest worker {f['rss_worker_mb']:.0f} MB")


def measure_partitioned(work: Path, files: list[Path], workers: int, ingest_cpu_per_game: float | None) -> None:
    from clue_stats import pipeline
    from clue_stats.analysis.computers.partitioned import run_partitioned
    from clue_stats.ingest.export import export

    db = work / "partitioned.duckdb"
    db.unlink(missing_ok=True)
    pipeline.ingest_paths([str(f) for f in files], db, analyse=False, workers=workers)
    t = time.perf_counter()
    export(db, work / "export")
    exported = time.perf_counter() - t
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    summary = run_partitioned(work / "export", work / "analysis", workers=workers, partitions=2 * workers)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)  # the reaped Dask processes
    games = max(summary.games, 1)
    print(
        f"partitioned analysis (Dask LocalCluster, {workers} worker processes, {summary.partitions} partitions): "
        f"{summary.games:,} games, {len(summary.failed)} failed"
    )
    print(
        f"  export to Parquet {exported:6.1f} s; analysis {wall:7.1f} s wall, {games / wall:6.1f} games/s; "
        f"workers' CPU {cpu:7.1f} s ({cpu / games * 1000:.0f} ms a game)"
    )
    if ingest_cpu_per_game:
        print(f"  CPU a game against ingest with analysis: {cpu / games / ingest_cpu_per_game:.2f}x")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child-ingest":
        child_ingest(sys.argv[2:])
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--analyse-slice", type=int, default=10_000, help="games ingested with analysis (0: skip)")
    parser.add_argument(
        "--partitioned-slice", type=int, default=1000, help="games analysed on the local Dask cluster (0: skip)"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--per-file", type=int, default=PER_FILE, help="games a file (slices are whole files)")
    parser.add_argument("--work", type=Path, default=None, help="keep the generated files and databases here")
    args = parser.parse_args()

    work = args.work or Path(tempfile.mkdtemp(prefix="clue-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        print(
            f"load average at the start: {', '.join(f'{x:.1f}' for x in os.getloadavg())} (on {os.cpu_count()} cores)"
        )
        t = time.perf_counter()
        files = generate(work / "logs", args.games, args.workers, args.per_file)
        print(
            f"generated {args.games:,} games in {time.perf_counter() - t:.1f} s (3 to 6 players, {args.per_file:,} a file)\n"
        )

        plain = measure_ingest(work / "plain.duckdb", files, analyse=False, workers=args.workers)
        report(f"ingest --no-analyse, {args.workers} workers", plain)

        analysed_cpu = None
        if args.analyse_slice:
            chunk = files[: -(-args.analyse_slice // args.per_file)]
            analysed = measure_ingest(work / "analysed.duckdb", chunk, analyse=True, workers=args.workers)
            print()
            report(
                f"ingest with analysis, {args.workers} workers (a SLICE: the first {analysed['stored']:,} games)",
                analysed,
            )
            scale = args.games / max(analysed["stored"], 1)
            analysed_cpu = analysed["cpu"] / max(analysed["stored"], 1)
            print(
                f"  EXTRAPOLATED to {args.games:,} games (x{scale:.0f}, not measured): "
                f"{analysed['wall'] * scale / 3600:.1f} h wall at this load, "
                f"{analysed['cpu'] * scale / args.workers / 3600:.1f} h on {args.workers} idle cores (CPU / cores), "
                f"database about {analysed['db_mb'] * scale / 1e3:.1f} GB"
            )
            print(
                f"  analysis against --no-analyse: {analysed_cpu / (plain['cpu'] / max(plain['stored'], 1)):.0f}x the CPU a game"
            )

        if args.partitioned_slice:
            print()
            chunk = files[: -(-args.partitioned_slice // args.per_file)]
            measure_partitioned(work, chunk, args.workers, analysed_cpu)
        print(f"\nload average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
        print(
            "dashboard page times at 100,000 games: .venv/bin/python benchmarks/dashboard_speed.py (see docs/performance.md)"
        )
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
