"""Ingest of folders of many small files: the time per file stays the same as the count grows.

    .venv/bin/python benchmarks/many_files.py [--counts 1000,10000,100000] [--games-every 100] [--before PYTHON]

For each count, a folder of that many files spread over subfolders of 1,000: empty `.jsonl` files (each
an `empty_file` rejection), with one real game in every ``--games-every``-th file. Times in one process
`clue-stats ingest --no-analyse` (the whole command, as a user runs it, every problem printed) into a
fresh database, and the walk alone (ingest.walk.collect_files); prints wall and CPU seconds, CPU
microseconds a file and the ratio of each count's CPU time a file to the smallest count's (1.0:
linear), both less the CPU time of the command on a folder of one file (its start and end).
``--before``: the Python of another checkout (a git worktree's .venv/bin/python), timed on the same
folders in the same run, and the ratio of its CPU time to this one's.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clue_stats.ingest.cluelog import write_game
from clue_stats.ingest.walk import collect_files
from clue_stats.testing import random_game


def make_folder(root: Path, count: int, games_every: int) -> None:
    for i in range(count):
        sub = root / f"part-{i // 1000:03d}"
        if i % 1000 == 0:
            sub.mkdir(parents=True)
        text = write_game(random_game(i, n_players=4)) if i % games_every == 0 else ""
        (sub / f"{i:06d}.jsonl").write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--counts", default="1000,10000,100000")
    parser.add_argument("--games-every", type=int, default=100)
    parser.add_argument("--before", help="another checkout's Python, timed on the same folders")
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    pythons = [sys.executable] + ([args.before] if args.before else [])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:

        def ingest(python: str, folder: Path, db: Path) -> tuple[float, float]:
            """Wall seconds and CPU seconds of the command (CPU: steadier on a shared machine)."""
            db.unlink(missing_ok=True)
            t0, cpu0 = time.monotonic(), _children_cpu()
            done = subprocess.run(
                [python, "-m", "clue_stats", "ingest", str(folder), "--db", str(db), "--no-analyse"],
                capture_output=True,
            )
            assert done.returncode in (0, 3), done.stderr[-2000:]
            return time.monotonic() - t0, _children_cpu() - cpu0

        one = Path(tmp) / "one"
        make_folder(one, 1, 1)
        # the command's start and end: the reference
        startup = [ingest(python, one, Path(tmp) / "one.duckdb") for python in pythons]
        for count in counts:
            folder = Path(tmp) / f"f{count}"
            make_folder(folder, count, args.games_every)
            t0 = time.monotonic()
            walked = sum(1 for _ in collect_files([folder]))
            walk = time.monotonic() - t0
            assert walked == count
            rows.append((count, walk, [ingest(python, folder, Path(tmp) / f"f{count}.duckdb") for python in pythons]))
    for python, (wall, cpu) in zip(pythons, startup, strict=True):
        print(f"{python}: one file (the command's start and end): {wall:.1f} s wall, {cpu:.1f} s CPU")
    base = (rows[0][2][0][1] - startup[0][1]) / rows[0][0]
    print(f"{'files':>8} {'walk s':>7} {'wall s':>7} {'CPU s':>6} {'CPU us a file':>14} {'x the smallest':>15}", end="")
    print(f" {'before: wall s':>15} {'CPU s':>6} {'CPU us a file':>14} {'before / now':>13}" if args.before else "")
    for count, walk, timed in rows:
        (seconds, cpu), *before = timed
        per_file = (cpu - startup[0][1]) / count
        line = f"{count:>8} {walk:>7.2f} {seconds:>7.1f} {cpu:>6.1f} {per_file * 1e6:>14.0f} {per_file / base:>15.2f}"
        if before:
            (b_seconds, b_cpu), b_per = before[0], (before[0][1] - startup[1][1]) / count
            line += f" {b_seconds:>15.1f} {b_cpu:>6.1f} {b_per * 1e6:>14.0f} {b_per / per_file:>13.2f}"
        print(line)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    main()
