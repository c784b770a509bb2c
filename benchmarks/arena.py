"""Benchmark: the arena's own cost (clue_stats.arena), per message and per game, and how a tournament
of bot processes scales with --jobs.

    .venv/bin/python benchmarks/arena.py [--games 1000] [--stored 50] [--process-games 12] [--jobs 1,2,4]

1. The referee: ``--games`` games of three built-in seats (notebook, random, bluffer), played in this
   process with no store. The time inside the seats' answers (the strategies thinking) is measured
   apart and taken off: what is left is the arena's own cost (the referee, the messages built and
   read, the records written), per message and per game. CPU time of this process.
2. The record: ``--stored`` of those games checked, analysed whole and stored as the arena does
   (pipeline.check, one write per game) into a fresh database: per game.
3. Processes: ``--process-games`` games of three test bots (tests/fixtures/arena/bot.py, TCP) at
   each ``--jobs``: wall time per game and the ratio to --jobs 1 (the bots start afresh every game).
   No store.

The machine may be shared: the figures are this run's; the ratios are within the run. Asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from clue_stats.arena import referee  # noqa: E402
from clue_stats.arena.builtin import BuiltinSeat  # noqa: E402
from clue_stats.arena.seats import BUILTIN, TCP, Entrant  # noqa: E402
from clue_stats.arena.tournament import Plan, Recorder, play_tournament  # noqa: E402

BOT = ROOT / "tests" / "fixtures" / "arena" / "bot.py"


class TimedSeat(BuiltinSeat):
    """A built-in seat that adds up the CPU time of its answers."""

    thinking = 0.0

    async def ask(self, message, timeout):  # type: ignore[no-untyped-def]
        self.messages += 1
        start = time.process_time()
        answer = self.bot.answer(message)
        TimedSeat.thinking += time.process_time() - start
        return answer


def header(names: list[str], index: int) -> dict:
    return {
        "type": "game", "format": "clue-log/1", "id": f"arena-bench-{index + 1:05d}", "edition": "us-classic",
        "variant": "speedclue", "players": [{"name": n, "strategy": n} for n in names],
        "source": "clue-stats arena bench",
    }  # fmt: skip


async def referee_games(games: int) -> tuple[list[referee.Played], float]:
    specs = ("notebook", "random", "bluffer")
    played = []
    start = time.process_time()
    for index in range(games):
        order = [specs[(index + k) % 3] for k in range(3)]
        seats = [TimedSeat(Entrant(s, BUILTIN, s), f"{index}:{k}") for k, s in enumerate(order)]
        played.append(
            await referee.play(seats, referee.Deal.of(3, f"bench:{index}"), 10.0, header(order, index), index)
        )
    return played, time.process_time() - start


def record(played: list[referee.Played]) -> float:
    with tempfile.TemporaryDirectory() as folder:
        entrants = [Entrant(s, BUILTIN, s) for s in ("notebook", "random", "bluffer")]
        plan = Plan.make(entrants, [(0, 1, 2)] * len(played), "bench", 10.0, 1, "bench")
        recorder = Recorder(Path(folder) / "bench.duckdb", None, plan)
        start = time.perf_counter()
        for p in played:
            recorder.record(p)
        seconds = time.perf_counter() - start
        assert recorder.result.stored == len(played), recorder.result
    return seconds


def processes(games: int, jobs: int) -> tuple[float, int]:
    entrants = [
        Entrant(name, TCP, "bench", (sys.executable, str(BOT), "good", f"{{{name}}}", "%%")) for name in ("A", "B", "C")
    ]
    plan = Plan.make(entrants, [(0, 1, 2), (1, 2, 0), (2, 0, 1)] * (games // 3), "bench", 10.0, jobs, "bench")
    start = time.perf_counter()
    result = asyncio.run(play_tournament(plan, None))
    return time.perf_counter() - start, result.played


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--stored", type=int, default=50)
    parser.add_argument("--process-games", type=int, default=12)
    parser.add_argument("--jobs", default="1,2,4")
    args = parser.parse_args()

    played, cpu = asyncio.run(referee_games(args.games))
    messages = sum(p.messages for p in played)
    own = cpu - TimedSeat.thinking
    turns = sum(1 for p in played for r in p.records if r["type"] == "turn")
    print(f"referee: {len(played)} games of 3 built-in seats, {turns} turns, {messages} messages")
    print(
        f"  CPU {cpu:.2f} s in all; the seats' thinking {TimedSeat.thinking:.2f} s; the arena's own {own:.2f} s:"
        f" {own / messages * 1e6:.0f} µs a message, {own / len(played) * 1e3:.2f} ms a game"
    )
    stored = played[: args.stored]
    seconds = record(stored)
    print(
        f"record: {len(stored)} games checked, analysed whole and stored one at a time: {seconds:.2f} s wall,"
        f" {seconds / len(stored) * 1e3:.0f} ms a game ({seconds / len(stored) / (own / len(played)):.0f}x the"
        " referee's own cost of a game)"
    )
    base = None
    for jobs in (int(j) for j in args.jobs.split(",")):
        wall, n = processes(args.process_games, jobs)
        base = base or wall
        print(
            f"processes: {n} games of 3 TCP test bots, --jobs {jobs}: {wall:.2f} s wall, {wall / n:.2f} s a game,"
            f" {base / wall:.2f}x --jobs 1"
        )


if __name__ == "__main__":
    main()
