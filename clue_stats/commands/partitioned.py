"""`analyse-partitioned`: the per-game analysis of Parquet exports on a Dask cluster (the work is
:func:`clue_stats.analysis.computers.partitioned.run_partitioned`; docs/performance.md shows it in use)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import typer

from clue_stats.analysis.computers import GAMES_PER_PARTITION
from clue_stats.analysis.words import _, n_, number
from clue_stats.commands.limits import MemoryOption, SecondsOption, StatesOption, limits
from clue_stats.engine.errors import ClueStatsError, UsageError
from clue_stats.engine.markers import T_
from clue_stats.exit_codes import ExitCode
from clue_stats.typer_app import JsonOption, app, check_output_folder, handled, out, print_json


@app.command("analyse-partitioned")
@handled
def partitioned_command(
    paths: list[Path] = typer.Argument(
        ...,
        metavar="EXPORT... OUT",
        help="Export folders (`clue-stats export --format parquet`) or events Parquet files, then the output folder.",
    ),
    partitions: int | None = typer.Option(
        None, "--partitions", min=1, help=f"Partitions of whole games (default: one per {GAMES_PER_PARTITION:,} games)."
    ),
    workers: int = typer.Option(2, "--workers", min=1, help="Local worker processes (without --scheduler)."),
    scheduler: str | None = typer.Option(
        None, "--scheduler", help="The address of a running Dask scheduler, e.g. tcp://host:8786."
    ),
    light: bool = typer.Option(False, "--light", help="Without the review (best available gain): faster."),
    no_repartition: bool = typer.Option(
        False, "--no-repartition", help="Each source file already holds whole games: take them as the partitions."
    ),
    json_output: bool = JsonOption,
    budget_states: int | None = StatesOption,
    budget_memory: float | None = MemoryOption,
    budget_seconds: float | None = SecondsOption,
) -> None:
    """Analyse the games of Parquet exports on a Dask cluster (a local one, or --scheduler's), writing
    OUT/<table>/<partition>.parquet for the suggestions, information, accusations, statements and players tables."""
    from clue_stats.analysis.computers.partitioned import run_partitioned  # deferred: start-up

    if len(paths) < 2:
        raise UsageError(T_("give one or more exports, then the output folder OUT"))
    *sources, target = paths
    missing = [str(s) for s in sources if not s.exists()]
    if missing:
        raise UsageError(T_("no such file or folder: {paths}", paths=", ".join(missing)))
    check_output_folder(target, "OUT")
    if not all(importlib.util.find_spec(name) for name in ("dask", "distributed")):  # installed, not loaded yet
        raise ClueStatsError(T_("analyse-partitioned needs Dask: pip install 'clue-stats[dask]'"))
    game_limits = limits(budget_states, budget_memory, budget_seconds)
    summary = run_partitioned(
        sources, target, partitions, workers, scheduler, not light, repartition=not no_repartition, limits=game_limits
    )
    if json_output:
        print_json(summary.as_dict())
    else:
        rows = ", ".join(f"{table} {number(n)}" for table, n in summary.rows.items())
        out.print(
            _("{games} analysed in {partitions} into {target} (rows: {rows})").format(
                games=n_(summary.games, "{n} game", "{n} games"),
                partitions=n_(summary.partitions, "{n} partition", "{n} partitions"),
                target=target,
                rows=rows,
            ),
            markup=False,
        )
        for game_id, reason in summary.failed:
            out.print(_("not analysed: {game}: {reason}").format(game=game_id, reason=reason), markup=False)
        for game_id, message in summary.over_budget:
            out.print(f"{game_id}: over_budget: {message}", markup=False)
    if summary.failed:
        raise typer.Exit(ExitCode.INPUT_REJECTED)
