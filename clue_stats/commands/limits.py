"""The budget options of the commands that count deals (`ingest`, `validate`, `analyse`, `report`,
`notebook`, `dashboard`): one budget for a game wherever it is counted."""

from __future__ import annotations

import typer

from clue_stats.analysis.words import n_
from clue_stats.engine import budget

StatesOption = typer.Option(
    None,
    "--budget-states",
    min=0,
    help="The most states the deal counting of one game may generate, for its checks and again for each stage of "
    f"its analysis (default: ${budget.ENV_WORK}, else {budget.DEFAULT_WORK:,}; 0: no limit).",
)
MemoryOption = typer.Option(
    None,
    "--budget-memory",
    min=0,
    help=f"The memory in MiB one count of deals may take (default: ${budget.ENV_MEMORY}, else "
    f"{budget.DEFAULT_MEMORY_MB}; 0: no limit).",
)
SecondsOption = typer.Option(
    None,
    "--budget-seconds",
    min=0,
    help=f"Seconds of deal counting for one game's checks, and again for each stage of its analysis (default: "
    f"${budget.ENV_SECONDS}, else {budget.DEFAULT_SECONDS:g}; 0: no limit).",
)


def limits(states: int | None, memory_mb: float | None, seconds: float | None) -> budget.Limits:
    """The options given, else the environment, else the defaults (a bad variable is a UsageError)."""
    return budget.Limits.from_env(states, memory_mb, seconds)


def over_budget_note(n: int) -> str:

    return n_(n, ", {n} over the budget", ", {n} over the budget") if n else ""


def environment(game_limits: budget.Limits) -> dict[str, str]:
    """The limits as the variables the budget reads (0: no limit), for a process started with them."""
    return {
        budget.ENV_WORK: str(game_limits.states or 0),
        budget.ENV_MEMORY: f"{game_limits.memory_mb or 0:g}",
        budget.ENV_SECONDS: f"{game_limits.seconds or 0:g}",
    }
