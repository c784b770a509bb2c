"""The memory a count is refused on (engine.budget) against the memory it really takes.

    .venv/bin/python benchmarks/count_memory.py

For classic, Master Detective-size (10/8/12) and pathological games (a 100-card deck with no hand
logged), each stage (the checks; the analysis with the review) runs in a forked process of its
own, whose peak resident memory is reset at the start (/proc/self/clear_refs) and read at the end
(VmHWM). Beside it: the most bytes one count held as the budget reckons them (Budget.most_held,
the figure the memory limit is checked against before each allocation), the CPU seconds, and what
stopped the stage, if anything. Each pathological stage runs under 256 MiB and the default limit: how
soon it is refused, and how much it held then (it is not run without a limit: it would take the
machine's memory).
"""

from __future__ import annotations

import multiprocessing
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clue_stats.analysis.computers.game_analysis import analyse_game
from clue_stats.engine import budget, counting
from clue_stats.engine.game import Game
from clue_stats.engine.rules import validate
from clue_stats.engine.simulate import custom_deck, play_game, setup
from clue_stats.testing import random_game, small_deck

MIB = 1 << 20


def _status(field: str) -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


def _child(job: Callable[[], Any], memory_mb: float | None, queue) -> None:
    counting.clear_caches()
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")  # the peak resident memory starts again from now
    start = _status("VmRSS")
    cpu = time.process_time()
    note = ""
    with budget.limited(budget.Limits(states=None, memory_mb=memory_mb, seconds=None)) as spending:
        try:
            job()
        except budget.BudgetExceeded as exc:
            note = exc.message
    queue.put((spending.most_held, _status("VmHWM") - start, time.process_time() - cpu, note))


def measure(job: Callable[[], Any], memory_mb: float | None) -> tuple[int, int, float, str]:
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    process = ctx.Process(target=_child, args=(job, memory_mb, queue))
    process.start()
    result = queue.get()
    process.join()
    return result


def stages(game: Game) -> list[tuple[str, Callable[[], Any]]]:
    def analysis() -> None:
        counting.clear_caches()
        with budget.limited(budget.UNLIMITED):
            replay = validate(game)
        analyse_game(game, replay, None, review=True)

    return [("checks", lambda: validate(game)), ("analysis", analysis)]


def main() -> None:
    warm = random_game(0, n_players=3, n_suggestions=4)
    analyse_game(warm, validate(warm), None, review=True)  # compiled code loaded before forking
    issue_game = play_game(setup(6, "classic", ["random"], 5, deck=custom_deck(10, 8, 12)), 2)
    games = [
        ("classic 6p, 40 random sugg., dealt", random_game(1, n_players=6, n_suggestions=40), False),
        ("classic 6p, 40 sugg., no hands", random_game(1, n_players=6, n_suggestions=40, blind=True), False),
        ("10/8/12 6p random (issue 21's game)", issue_game, False),
        ("10/8/12 6p, 40 sugg., no hands", random_game(2, 6, 40, small_deck(10, 8, 12), blind=True), False),
        ("33/33/34 6p, 8 sugg., no hands", random_game(1, 6, 8, small_deck(33, 33, 34), blind=True), True),
    ]
    print(
        "per stage: the most one count held as the budget reckons it, the stage's peak resident memory "
        "above its start, their ratio, CPU seconds"
    )
    for label, game, pathological in games:
        for stage, job in stages(game):
            runs: list[tuple[float | None, str]] = [(None, "no limit")]
            if pathological:  # without a limit it would take the machine's memory
                runs = [(mb, f"limit {mb:g} MiB") for mb in (256, budget.DEFAULT_MEMORY_MB)]
            for memory_mb, limit in runs:
                held, peak, cpu, note = measure(job, memory_mb)
                ratio = peak / held if held else float("nan")
                print(
                    f"{label:38s} {stage:8s} {limit:15s} reckoned {held / MIB:8.1f} MiB  measured peak "
                    f"{peak / MIB:8.1f} MiB  ratio {ratio:5.2f}  {cpu:7.2f} s  {note}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
