"""Benchmark: the best available gain of every suggestion of a game, counted together
(engine.gains.best_suggestion) against the reference, which counts every candidate on its own
(clue_stats/testing.py ``reference_best_suggestion``, the implementation before engine.gains), in the
same process.

    .venv/bin/python benchmarks/best_gain.py [--games 10] [--simulated 20] [--seed 0] [--corpora]

Games: the deduction benchmark's generated 6-player games (clue_stats/testing.py: 40 random
suggestions, one wrong accusation, every hand dealt) and simulated 6-player games between notebook
players (engine.simulate, classic edition). For each game, the suggester's knowledge before each
suggestion is built first (not timed); then the best available gain of every suggestion is timed
from cold caches with the reference and with the fast path. CPU time of this process (the machine
may be shared). Prints figures and the largest difference between the two; asserts nothing.
``--corpora`` also compares (and times) the two on every suggestion of the sample logs and the
importers' test fixtures, the hands the logs do not hold included (the test suite compares the
rated ones: the reference takes minutes on the others).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from clue_stats.engine import deduction  # noqa: E402
from clue_stats.engine.game import Game  # noqa: E402
from clue_stats.engine.simulate import simulate  # noqa: E402
from clue_stats.pipeline import read_game_file  # noqa: E402
from clue_stats.testing import random_game, reference_best_suggestion, suggestion_moments  # noqa: E402


def timed(best, cases) -> tuple[float, list]:
    deduction.clear_caches()
    start = time.process_time()
    out = [best(k, player, rooms) for k, player, rooms in cases]
    return time.process_time() - start, out


def run(label: str, games: list[Game]) -> None:
    ref_times, fast_times, worst, other_best, n = [], [], 0.0, 0, 0
    for game in games:
        cases = suggestion_moments(game)
        if not cases:
            continue
        n += len(cases)
        t_ref, ref = timed(reference_best_suggestion, cases)
        t_fast, fast = timed(deduction.best_suggestion, cases)
        ref_times.append(t_ref)
        fast_times.append(t_fast)
        for (g_ref, t1), (g_fast, t2) in zip(ref, fast):
            worst = max(worst, abs(g_ref - g_fast))
            other_best += t1 != t2
    ms = 1000.0
    print(f"{label}: {len(ref_times)} games with suggestions, {n} suggestions ({n / len(ref_times):.1f} a game)")
    print(
        f"  reference: per game median {statistics.median(ref_times) * ms:8.1f} ms, "
        f"mean {statistics.fmean(ref_times) * ms:8.1f} ms, max {max(ref_times) * ms:8.1f} ms"
    )
    print(
        f"  fast:      per game median {statistics.median(fast_times) * ms:8.1f} ms, "
        f"mean {statistics.fmean(fast_times) * ms:8.1f} ms, max {max(fast_times) * ms:8.1f} ms"
    )
    ratios = [r / max(f, 1e-6) for r, f in zip(ref_times, fast_times)]
    print(
        f"  faster by {sum(ref_times) / sum(fast_times):.1f}x in total, {statistics.median(ratios):.1f}x median per game "
        f"(min {min(ratios):.1f}x); largest |difference| {worst:.1e} bits; best suggestion named differently: {other_best}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="generated 6-player games (clue_stats/testing.py)")
    parser.add_argument("--simulated", type=int, default=20, help="simulated 6-player notebook games")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--corpora", action="store_true", help="also every game of data/samples and the fixtures")
    args = parser.parse_args(argv)
    warm = random_game(10**6, n_players=6, n_suggestions=10)  # loads the compiled programs once
    for k, player, rooms in suggestion_moments(warm):
        deduction.best_suggestion(k, player, rooms)
        reference_best_suggestion(k, player, rooms)
    if args.games:
        games = [
            random_game(args.seed + i, n_players=6, n_suggestions=40, wrong_accusations=1) for i in range(args.games)
        ]
        run("generated 6-player games (clue_stats/testing.py, 40 suggestions)", games)
    if args.simulated:
        run("simulated 6-player notebook games", list(simulate(args.simulated, 6, seed=args.seed + 1)))
    if args.corpora:
        files = sorted((ROOT / "data" / "samples").iterdir()) + sorted(
            p for p in (ROOT / "tests" / "fixtures" / "importers").rglob("*") if p.is_file()
        )
        run("the test corpora (sample logs, importer fixtures)", [g for f in files for g in read_game_file(f)[0]])


if __name__ == "__main__":
    main()
