"""What the whole review of a hard classic game costs through the default ingest, beyond storing it.

    .venv/bin/python benchmarks/review_cost.py [--games 100] [--rounds 3] [--workers 1]

Writes ``--games`` generated classic 6-player games (``clue_stats.testing.random_game``: every hand
dealt, 40 random suggestions, the hardest the analysis meets in a board game) as clue-log/1 in one
file, then runs `clue-stats ingest` on it, as a user does, into a new database each time: with its
defaults (the analysis and the whole review) and with ``--no-analyse``, the rounds interleaved. The
figure is the CPU time of the command (its own and its worker processes', from the children's
rusage, which other work on the machine does not inflate), the best of the rounds, and the
difference a game: the review's cost beyond reading, checking and storing.

Prints figures, asserts nothing (docs/performance.md). Issue 37's target: at most 0.1 CPU s a game.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clue_stats.ingest.cluelog import write_game
from clue_stats.testing import random_game

ROOT = Path(__file__).resolve().parents[1]
TARGET = 0.1  # CPU s a game beyond --no-analyse
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"CLUE_STATS_LANG": "en"}


def clue_stats() -> list[str]:
    script = Path(sys.executable).with_name("clue-stats")
    return [str(script)] if script.exists() else [sys.executable, "-m", "clue_stats"]


def cpu_of(command: list[str]) -> float:
    """The CPU seconds (user + system) of a command and every process it waited for."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, env=ENV, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:  # every game stored and analysed whole, or the figure means nothing
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=None, help="ingest's --workers (default: its own)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        games = Path(tmp) / "hard.jsonl"
        games.write_text(
            "".join(write_game(random_game(seed, n_players=6, n_suggestions=40)) for seed in range(args.games))
        )
        workers = ["--workers", str(args.workers)] if args.workers else []
        runs: dict[str, list[float]] = {"--no-analyse": [], "default": []}
        print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        for round_ in range(args.rounds):
            for label in runs:
                db = Path(tmp) / f"{label.strip('-')}-{round_}.duckdb"
                extra = ["--no-analyse"] if label == "--no-analyse" else []
                runs[label].append(cpu_of([*clue_stats(), "ingest", str(games), "--db", str(db), *extra, *workers]))
        plain, whole = min(runs["--no-analyse"]), min(runs["default"])
        per_game = (whole - plain) / args.games
        print(
            f"{args.games} hard classic 6-player games (40 random suggestions, every hand dealt), {games.stat().st_size / 1e6:.1f} MB"
        )
        for label, cpu in runs.items():
            print(f"clue-stats ingest {label:12}: CPU s {', '.join(f'{c:.2f}' for c in cpu)} (best {min(cpu):.2f})")
        print(
            f"the analysis and whole review: {per_game:.3f} CPU s a game beyond --no-analyse (target <= {TARGET}: {'met' if per_game <= TARGET else 'NOT met'})"
        )
        print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
