"""What ordinary and hard games spend of a game's budget (engine.budget), to set its defaults.

    .venv/bin/python benchmarks/budget.py

For the sample games and generated ones (classic deck, 3 to 6 players, every hand dealt or none
and no shown card seen; then bigger custom decks), prints the states the counting generates and
the CPU seconds for the game's checks and for its analysis, each under the default budget (a stage
that passes it says which limit stopped it, and when). The largest figures of ordinary games, next
to the defaults, are what docs/performance.md quotes.
"""

from __future__ import annotations

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
from clue_stats.ingest import cluelog, formats
from clue_stats.ingest.raw import RawGame
from clue_stats.testing import random_game, small_deck

ROOT = Path(__file__).resolve().parents[1]


def _stage(run: Callable[[], Any]) -> tuple[int, float, str, Any]:
    """States, CPU seconds, what stopped it ("" if nothing) and the result of one stage."""
    counting.clear_caches()
    cpu = time.process_time()
    result, note = None, ""
    with budget.limited(budget.Limits()) as spent:
        try:
            result = run()
        except budget.BudgetExceeded as exc:
            note = f"stopped ({exc.reason})"
    return spent.spent, time.process_time() - cpu, note, result


def measure(label: str, game: Game) -> tuple[int, int]:
    checks = _stage(lambda: validate(game))
    replay = checks[3]
    stopped = any(p.code == "over_budget" for p in replay.problems)
    checks = (*checks[:2], "stopped" if stopped else "", replay)
    analysis = (0, 0.0, "not run") if stopped else _stage(lambda: analyse_game(game, replay, None, review=True))
    print(
        f"{label:38s} checks {checks[0]:>13,} states {checks[1]:7.2f} s {checks[2]:15s}"
        f" analysis {analysis[0]:>13,} states {analysis[1]:7.2f} s {analysis[2]}",
        flush=True,
    )
    return checks[0], analysis[0]


def main() -> None:
    limits = budget.Limits()
    print(f"default budget: {limits.describe()} (for the checks, and again for the analysis)")
    most = [0, 0]
    for path in sorted((ROOT / "data" / "samples").iterdir()):
        items = formats.iter_file(path)
        for i, item in enumerate(items or []):
            if isinstance(item, RawGame):
                game, _ = cluelog.build_game(item)
                if game is not None:
                    spent = measure(f"{path.name} #{i + 1}", game)
                    most = [max(a, b) for a, b in zip(most, spent)]
    for players in (3, 4, 5, 6):
        for seed in range(3):
            for blind in (False, True):
                game = random_game(seed, n_players=players, wrong_accusations=1, blind=blind)
                label = f"classic {players}p seed {seed} {'no hands' if blind else 'dealt'}"
                spent = measure(label, game)
                most = [max(a, b) for a, b in zip(most, spent)]
    print(f"ordinary games, most states: checks {most[0]:,}, analysis {most[1]:,}")
    for deck in ((7, 7, 10), (8, 8, 12), (10, 8, 12)):
        for blind in (False, True):
            game = random_game(1, n_players=6, n_suggestions=20, deck=small_deck(*deck), blind=blind)
            measure(f"{'/'.join(map(str, deck))} deck 6p 20 sugg. {'no hands' if blind else 'dealt'}", game)
    for seed in (1, 2):  # Master Detective size, a long game
        for blind in (False, True):
            game = random_game(seed, n_players=6, n_suggestions=40, deck=small_deck(10, 8, 12), blind=blind)
            measure(f"10/8/12 deck 6p 40 sugg. seed {seed} {'no hands' if blind else 'dealt'}", game)


if __name__ == "__main__":
    main()
