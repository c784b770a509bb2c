"""Benchmark: the two compiled programs (engine.counting_kernel and engine.gain_kernel) of this tree
against those of another checkout, on the same inputs, in one process.

    .venv/bin/python benchmarks/kernels.py --against ../before [--games 5] [--rounds 7]

``--against``: the root of another checkout of clue-stats (``git worktree add ../before <commit>``).
Its two kernel modules are loaded from its files: those of a checkout before the compiled core
(engine/_kernels.pyx) need numba in this environment (``.venv/bin/uv pip install numba``), which
compiles them into that checkout's __pycache__ on the first run; a checkout with the compiled core
needs it built (its own ``make install``), and its built module is loaded beside this tree's. The inputs: every count of the entropy tables of generated 6-player games
(clue_stats/testing.py: 40 random suggestions, one wrong accusation, every hand dealt) and every run
of the gain program for the best available gain of their first 12 suggestions, captured through
this tree's engine. Both versions then run all of them, rounds interleaved (A B, B A, ...), CPU time
of this process; every result is checked equal first. Prints the medians and the ratios.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from clue_stats.engine import counting_kernel, deduction, gain_kernel, gains  # noqa: E402
from clue_stats.testing import random_game, suggestion_moments  # noqa: E402

UNLIMITED = 1 << 62


def load(root: Path):
    """The other checkout's counting and gain programs, its gain program reading its own counting
    program's helpers."""

    def module(name: str, path: Path):
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    # its compiled core, where it has one (built in place by its own `make install`): what its
    # kernel modules import as clue_stats.engine._kernels while they load
    built = sorted((root / "engine").glob("_kernels.*.so")) + sorted((root / "engine").glob("_kernels.*.pyd"))
    saved = {name: sys.modules[name] for name in ("clue_stats.engine.counting_kernel", "clue_stats.engine._kernels")}
    try:
        if built:
            sys.modules["clue_stats.engine._kernels"] = module("other._kernels", built[0])
        counting = module("other_counting_kernel", root / "engine" / "counting_kernel.py")
        sys.modules["clue_stats.engine.counting_kernel"] = counting  # what its gain program imports
        gain = module("other_gain_kernel", root / "engine" / "gain_kernel.py")
    finally:
        sys.modules.update(saved)
    return counting, gain


def capture(n_games: int) -> tuple[list[tuple], list[tuple]]:
    """The inputs of every run of the two programs for n_games generated games."""
    counts: list[tuple] = []
    runs: list[tuple] = []
    launch, run = counting_kernel._launch, gain_kernel._run

    def spy_launch(pl, layout, p, binom):
        counts.append((pl.steps.copy(), layout.copy(), len(pl.caps), binom, p))
        return launch(pl, layout, p, binom)

    def spy_run(*args):
        out = run(*args)
        # the program's inputs before the budget's and the workspace's, and its rows' width
        runs.append((tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args[:14]), out[2].shape[1]))
        return out

    counting_kernel._launch, gain_kernel._run = spy_launch, spy_run
    try:
        for i in range(n_games):
            game = random_game(100 + i, n_players=6, n_suggestions=40, wrong_accusations=1)
            deduction.clear_caches()
            deduction.entropy_table(game)
            for k, player, rooms in suggestion_moments(game)[:12]:
                gains.best_suggestion(k, player, rooms)
    finally:
        counting_kernel._launch, gain_kernel._run = launch, run
    return counts, runs


def run_counts(mod, counts):
    return [mod._run(st, lay, nh, b, UNLIMITED, UNLIMITED, p, np.zeros(3, np.int64)) for st, lay, nh, b, p in counts]


def run_gains(mod, runs):
    """Every run, each version with its own workspace (the arguments after the budget's limit,
    memory and work), kept from run to run as its engine keeps it."""
    out = []
    if hasattr(mod, "workspace"):  # one workspace a thread, its rows without the ranks 0 (5 December 2026)
        space = mod.Workspace()
        for args, width in runs:
            n_ranks = args[13]
            result = mod._run(
                *args,
                UNLIMITED,
                UNLIMITED,
                np.zeros(3, np.int64),
                *space.arrays(1 + (width - 1) // n_ranks * (n_ranks - 1)),
            )
            space.keep(tuple(result[3:]))
            out.append(result[:3])
        return out
    spaces = {}  # before: a workspace per row width
    for args, width in runs:
        space = spaces.setdefault(width, mod.Workspace(width))
        result = mod._run(*args, UNLIMITED, UNLIMITED, np.zeros(3, np.int64), *space.arrays)
        space.arrays = tuple(result[3:])
        out.append(result[:3])
    return out


def equal(xs, ys) -> bool:
    return all(all(np.array_equal(a, b) for a, b in zip(x, y, strict=True)) for x, y in zip(xs, ys, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", type=Path, required=True, help="the root of another checkout")
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    other_counting, other_gain = load(args.against.resolve())
    counts, runs = capture(args.games)
    print(f"{args.games} games: {len(counts)} counts, {len(runs)} runs of the gain program")
    programs = {
        "counting": (run_counts, counts, counting_kernel, other_counting),
        "gain": (run_gains, runs, gain_kernel, other_gain),
    }
    for name, (runner, inputs, this, other) in programs.items():
        if not equal(runner(this, inputs), runner(other, inputs)):  # also compiles both
            print(f"{name}: the results differ", file=sys.stderr)
            sys.exit(1)
        times: dict[str, list[float]] = {"this": [], "other": []}
        for r in range(args.rounds):
            for side in ("this", "other") if r % 2 == 0 else ("other", "this"):
                start = time.process_time()
                runner(this if side == "this" else other, inputs)
                times[side].append(time.process_time() - start)
        a, b = statistics.median(times["other"]), statistics.median(times["this"])
        print(f"{name}: every result equal; median {b:.4f} s here, {a:.4f} s in {args.against}: {b / a:.3f}x")


if __name__ == "__main__":
    main()
