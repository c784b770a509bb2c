"""What a command costs before it does anything: `clue-stats --help`, `--version`, a command's
`--help`, and the fixed cost of a process before its first game (`clue-stats ingest` of one small
game with `--no-analyse`, into a new database), each against a bare `python -c pass`.

Every command runs ``--runs`` times, the rounds interleaved (one run of each command a round, so a
change of the machine's load touches them all alike); the figures are the medians of the wall time
and of the CPU time (user + system, the child's own rusage, which other work on the machine does
not inflate), and the ratio of each to the bare interpreter's. Then one more run of each with
``python -X importtime`` names the heavy libraries it imported (polars, duckdb, pyarrow, numpy,
pandas, markdown-it, pygments) and its import time by top-level package.

Prints figures, asserts nothing (docs/performance.md, "Start-up of a command"); the targets of issue
37.2 are `--help` and `--version` under 0.3 s wall and the cost before the first game under 0.5 CPU s.

    .venv/bin/python benchmarks/startup.py [--runs 10] [--against /path/to/other/checkout]

``--against`` runs the same commands with another checkout's `clue-stats` (its ``.venv``) in the
same rounds, and prints each figure of this one as a ratio of that one's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# each run as a user's: the bytecode caches written by the first (warm-up) round and read after it
# (a shell that sets PYTHONDONTWRITEBYTECODE compiles every module from its source at every start)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"CLUE_STATS_LANG": "en"}
ONE_GAME = ROOT / "data" / "samples" / "de-2023-duel.jsonl"  # 2 players, 21 records
HEAVY = ("polars", "duckdb", "pyarrow", "numpy", "pandas", "markdown_it", "pygments", "streamlit")
HELP_TARGET = 0.3  # s wall: `--help`, `--version`
FIRST_GAME_TARGET = 0.5  # CPU s before the first game


def clue_stats(python: str = sys.executable) -> list[str]:
    """The `clue-stats` command of an environment (its console script), else ``python -m clue_stats``."""
    script = Path(python).with_name("clue-stats")
    return [str(script)] if script.exists() else [python, "-m", "clue_stats"]


BARE = "python -c pass"


def commands(python: str = sys.executable, label: str = "") -> dict[str, list[str]]:
    """Name -> command line; ``{db}`` is replaced by a new database file at each run."""
    cli = clue_stats(python)
    found = {
        "clue-stats --help": [*cli, "--help"],
        "clue-stats --version": [*cli, "--version"],
        "clue-stats ingest --help": [*cli, "ingest", "--help"],
        "clue-stats report --help": [*cli, "report", "--help"],
        "ingest 1 game --no-analyse": [*cli, "ingest", str(ONE_GAME), "--no-analyse", "--db", "{db}"],
        "ingest 1 game (analysed)": [*cli, "ingest", str(ONE_GAME), "--db", "{db}"],
    }
    return {name + label: argv for name, argv in found.items()}


def run_once(argv: list[str], folder: Path, n: int) -> tuple[float, float, float]:
    """(wall s, CPU s, peak resident MB) of one run; stdout and stderr discarded."""
    db = folder / f"run{n}.duckdb"
    argv = [a.replace("{db}", str(db)) for a in argv]
    env = {**ENV, "COLUMNS": "100"}
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=folder)
    _pid, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 3):
        raise SystemExit(f"{' '.join(argv)} exited {child.returncode}")
    for leftover in folder.glob(f"run{n}.duckdb*"):
        leftover.unlink()
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def imports(argv: list[str], folder: Path, python: str) -> tuple[list[str], list[tuple[str, float]]]:
    """The heavy libraries a run imports, and its import time (self, s) by top-level package, largest first."""
    cli = [python, "-X", "importtime", "-m", "clue_stats"]
    rest = argv[len(clue_stats(python)) :]
    db = folder / "importtime.duckdb"
    done = subprocess.run(
        [*cli, *(a.replace("{db}", str(db)) for a in rest)],
        capture_output=True,
        text=True,
        env=ENV,
        cwd=folder,
    )
    for leftover in folder.glob("importtime.duckdb*"):
        leftover.unlink()
    by_package: dict[str, float] = defaultdict(float)
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        label, _cumulative, name = line.split("|", 2)
        own_us = label.removeprefix("import time:").strip()
        if not own_us.isdigit():  # the header line
            continue
        by_package[name.strip().split(".")[0]] += int(own_us) / 1e6
    heavy = [name for name in HEAVY if name in by_package]
    return heavy, sorted(by_package.items(), key=lambda kv: -kv[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="runs of each command, interleaved")
    parser.add_argument("--against", type=Path, help="another checkout, run with its own .venv in the same rounds")
    args = parser.parse_args()
    print(
        f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {args.runs} interleaved rounds after a warm-up one"
    )
    pythons = {"": sys.executable}
    if args.against is not None:
        pythons[f" [{args.against}]"] = str(args.against / ".venv" / "bin" / "python")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        table = {BARE: [sys.executable, "-c", "pass"]}
        for label, python in pythons.items():
            table |= commands(python, label)
        walls: dict[str, list[float]] = defaultdict(list)
        cpus: dict[str, list[float]] = defaultdict(list)
        peaks: dict[str, list[float]] = defaultdict(list)
        for argv in table.values():  # the warm-up round, not counted: it writes the bytecode caches
            run_once(argv, folder, -1)
        for n in range(args.runs):
            for name, argv in table.items():
                wall, cpu, peak = run_once(argv, folder, n)
                walls[name].append(wall)
                cpus[name].append(cpu)
                peaks[name].append(peak)
        bare_wall = statistics.median(walls[BARE])
        bare_cpu = statistics.median(cpus[BARE])
        width = max(len(name) for name in table)
        print(f"{'command':<{width}} {'wall s':>7} {'CPU s':>7} {'x bare wall':>11} {'x bare CPU':>10} {'peak MB':>8}")
        for name in table:
            wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
            print(
                f"{name:<{width}} {wall:>7.3f} {cpu:>7.3f} {wall / bare_wall:>10.1f}x {cpu / bare_cpu:>9.1f}x"
                f" {statistics.median(peaks[name]):>8.0f}"
            )
        for label in list(pythons)[1:]:
            print(f"this checkout against{label}, median against median:")
            for name in commands():
                wall = statistics.median(walls[name]) / statistics.median(walls[name + label])
                cpu = statistics.median(cpus[name]) / statistics.median(cpus[name + label])
                print(f"  {name:<{width}} wall {wall:.2f}x, CPU {cpu:.2f}x")
        print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        for name in ("clue-stats --help", "clue-stats --version"):
            wall = statistics.median(walls[name])
            print(f"{name}: {wall:.3f} s wall, target < {HELP_TARGET} s: {'met' if wall < HELP_TARGET else 'NOT met'}")
        first = statistics.median(cpus["ingest 1 game --no-analyse"])
        print(
            f"before the first game (ingest of 1 game, --no-analyse): {first:.3f} CPU s, "
            f"target < {FIRST_GAME_TARGET}: {'met' if first < FIRST_GAME_TARGET else 'NOT met'}"
        )
        print("\nwhat each imports (one run with python -X importtime: heavy libraries; import time by package, self)")
        for label, python in pythons.items():
            for name, argv in commands(python, label).items():
                heavy, packages = imports(argv, folder, python)
                top = ", ".join(f"{package} {seconds:.3f}" for package, seconds in packages[:6])
                total = sum(seconds for _package, seconds in packages)
                print(f"  {name}: heavy: {', '.join(heavy) or 'none'}; imports {total:.3f} s: {top}")


if __name__ == "__main__":
    main()
