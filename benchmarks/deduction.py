"""Benchmark: the full table of envelope entropies (every observer after every record) of generated
6-player games, against a plain dynamic program and a rejection sampler run in the same process.

    .venv/bin/python benchmarks/deduction.py [--games 20] [--plain-samples 3] [--plain-limit 10]

Prints figures; asserts nothing about time. Times are CPU time of this process (one core, and
other work on the machine does not count). The engine's time per game is entropy_table(game) from
cold caches (the compiled kernel is loaded once before timing). The plain reference is too slow to
run on whole games, so it runs on a seeded sample of observer-records, each with a time limit; a
sample that runs out of time counts with the time it had (so its figures are lower bounds); the engine
counts each sampled knowledge alone too, from cold caches, and the ratio compares the two on the
same knowledge. The sampler gets, per game, the engine's own time for that game, spread evenly over
its observer-records.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import clue_stats.engine.deduction as deduction
from clue_stats.engine.deduction import entropy_table, knowledge_timeline, observers
from clue_stats.testing import OutOfTime, plain_entropy, random_game, sampled_entropy


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--suggestions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--plain-samples", type=int, default=3, help="observer-records per game for the plain reference"
    )
    parser.add_argument("--plain-limit", type=float, default=10.0, help="seconds per plain sample")
    args = parser.parse_args(argv)

    games = [
        random_game(args.seed + i, n_players=6, n_suggestions=args.suggestions, wrong_accusations=1)
        for i in range(args.games)
    ]
    entropy_table(random_game(10**6, n_players=6, n_suggestions=10))  # load the compiled kernel

    per_game, per_record, tables = [], [], []
    for game in games:
        deduction.clear_caches()
        start = time.process_time()
        table = entropy_table(game)
        elapsed = time.process_time() - start
        tables.append(table)
        per_game.append(elapsed)
        per_record.append(elapsed / (len(table) * (len(game.records) + 1)))
    n_records = sum(len(t) * (len(g.records) + 1) for t, g in zip(tables, games))

    picker = random.Random(args.seed)  # which cells the plain program gets: seeded, nothing else
    sampler_rng = random.Random(args.seed + 1)
    plain_times, engine_times, plain_cut, plain_diff = [], [], 0, 0.0
    errors, empty = [], 0
    for game, table, game_time in zip(games, tables, per_game):
        timelines = {o: knowledge_timeline(game, o) for o in observers(game)}
        cells = [(o, i) for o in timelines for i in range(len(game.records) + 1)]
        for o, i in picker.sample(cells, min(args.plain_samples, len(cells))):
            k = timelines[o][i]
            deduction.clear_caches()
            start = time.process_time()
            deduction.envelope_entropy(k)
            engine_times.append(time.process_time() - start)
            start = time.process_time()
            try:
                h = plain_entropy(k, deadline=start + args.plain_limit)
                plain_diff = max(plain_diff, abs(h - table[o][i]))
            except OutOfTime:
                plain_cut += 1
            plain_times.append(time.process_time() - start)
        budget = game_time / len(cells)
        for o, i in cells:
            h, kept = sampled_entropy(timelines[o][i], budget, sampler_rng)
            if not kept:
                empty += 1
            else:
                errors.append(abs(h - table[o][i]))

    ms = 1000.0
    print(
        f"deduction benchmark: {len(games)} games, 6 players, {args.suggestions} suggestions each, "
        f"{n_records} observer-records"
    )
    print(
        f"engine:   per game          median {statistics.median(per_game) * ms:8.1f} ms   "
        f"p95 {percentile(per_game, 0.95) * ms:8.1f} ms   (target: median <= 50 ms)"
    )
    print(
        f"          per observer-record median {statistics.median(per_record) * ms:8.3f} ms   "
        f"p95 {percentile(per_record, 0.95) * ms:8.3f} ms"
    )
    if plain_times:  # --plain-samples 0: the engine (and the sampler) only
        bound = "≥ " if plain_cut else ""
        ratios = [p / max(e, 1e-9) for p, e in zip(plain_times, engine_times)]
        print(
            f"plain DP: per observer-record median {bound}{statistics.median(plain_times) * ms:8.1f} ms   "
            f"p95 {bound}{percentile(plain_times, 0.95) * ms:8.1f} ms   "
            f"({len(plain_times)} sampled observer-records, {plain_cut} cut at {args.plain_limit:g} s)"
        )
        print(
            f"          the engine on the same knowledge, each counted alone: median "
            f"{statistics.median(engine_times) * ms:.3f} ms; faster by {bound}{sum(plain_times) / sum(engine_times):,.0f}x "
            f"in total, {bound}{statistics.median(ratios):,.0f}x median per record (target >= 100x)"
        )
        print(f"          largest |engine - plain| over finished samples: {plain_diff:.2e} bits")
    print(
        f"sampler:  same time as the engine: mean |error| {statistics.fmean(errors):.3f} bits, "
        f"p95 {percentile(errors, 0.95):.3f} bits, max {max(errors):.3f} bits; "
        f"{empty} of {n_records} observer-records kept no deal"
    )


if __name__ == "__main__":
    main()
