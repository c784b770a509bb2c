"""Simulator throughput: games per second for four-player notebook games, and per strategy.

    .venv/bin/python benchmarks/simulate.py [--games 1000] [--players 4] [--seed 1]

Times, in one process: (1) ``simulate`` of N games with notebook players (the figure the issue
asks for), (2) writing the same games as clue-log/1 (the reference: the simulator should cost a
small multiple of writing its output), (3) the movement check of those games, and (4) a tenth as many
games for each other strategy (a hundredth for entropy, which counts deals exactly). Prints games
per second and the ratios to writing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clue_stats.engine.game import Turn
from clue_stats.engine.movement import check_movement
from clue_stats.engine.simulate import simulate
from clue_stats.ingest.cluelog import write_game


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    t0 = time.perf_counter()
    games = list(simulate(args.games, args.players, "classic", ["notebook"], seed=args.seed))
    sim = time.perf_counter() - t0

    t0 = time.perf_counter()
    size = sum(len(write_game(g)) for g in games)
    write = time.perf_counter() - t0

    t0 = time.perf_counter()
    problems = sum(len(check_movement(g)) for g in games)
    check = time.perf_counter() - t0

    turns = [sum(1 for r in g.records if isinstance(r, Turn)) for g in games]
    print(
        f"{args.games} games, {args.players} notebook players: {statistics.mean(turns):.1f} turns a game, "
        f"{size / 1e6:.1f} MB of clue-log/1, {problems} movement problems"
    )
    print(f"simulate           : {sim:7.2f} s  {args.games / sim:8.0f} games/s  x{sim / write:5.1f} of writing")
    print(f"write clue-log/1   : {write:7.2f} s  {args.games / write:8.0f} games/s  (reference)")
    print(f"check_movement     : {check:7.2f} s  {args.games / check:8.0f} games/s  x{check / write:5.1f} of writing")
    for spec in ("random", "bluffer", "entropy", "notebook:0.5"):
        # the entropy player counts exactly (about a second a game): a hundredth as many games
        few = max(1, args.games // (100 if spec == "entropy" else 10))
        t0 = time.perf_counter()
        for _ in simulate(few, args.players, "classic", [spec], seed=args.seed):
            pass
        took = time.perf_counter() - t0
        print(f"simulate {spec:10s}: {took:7.2f} s  {few / took:8.0f} games/s  ({few} games)")


if __name__ == "__main__":
    main()
