"""`arena`: bots, agents and built-in strategies play SpeedClue's protocol; every game is stored and
reviewed (clue_stats.arena; docs/arena.md)."""

from __future__ import annotations

import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.table import Table

from clue_stats.analysis.words import _, n_, number, problem_line
from clue_stats.engine.errors import UsageError
from clue_stats.engine.markers import T_
from clue_stats.exit_codes import ExitCode
from clue_stats.typer_app import (
    DbOption,
    JsonOption,
    app,
    check_output_file,
    check_output_folder,
    database,
    err,
    handled,
    out,
    print_json,
    printable,
    write_file,
)

if TYPE_CHECKING:
    import polars as pl

    from clue_stats.arena.tournament import Result


@app.command("arena")
@handled
def arena_command(
    launch_file: Path = typer.Argument(
        ...,
        help="SpeedClue's launch file: a bot a line ({Name} its identifier, %% the port); "
        "'json: COMMAND {Name}' for a bot speaking JSON lines, 'builtin:notebook' for a built-in strategy.",
    ),
    rounds: int = typer.Option(1, "--rounds", min=1, help="Games for every group of entrants in every seating order."),
    games: int | None = typer.Option(
        None, "--games", min=1, help="Instead of every group and order: this many games, random seatings."
    ),
    players: str = typer.Option("3..6", "--players", help="Players at a table: a number or a range such as 3..6."),
    seed: str | None = typer.Option(None, "--seed", help="The same seed deals the same cards (default: a new one)."),
    timeout: float = typer.Option(10.0, "--timeout", min=0.01, help="Seconds a bot has for each answer."),
    jobs: int = typer.Option(1, "--jobs", min=1, help="Games played at once."),
    db: str | None = DbOption,
    out_dir: str | None = typer.Option(None, "--out", help="Also write each game's clue-log/1 file to this folder."),
    report: str | None = typer.Option(
        None, "--report", help="Write the tournament's report (HTML, in the reader's language) to this file."
    ),
    json_output: bool = JsonOption,
) -> None:
    """Play a tournament between bots (SpeedClue's protocol over TCP, or JSON lines) and built-in
    strategies; store and review every game; show the leaderboard."""
    import asyncio  # deferred: start-up

    from rich.progress import (  # deferred: start-up
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from clue_stats.arena import tournament as t  # deferred: start-up
    from clue_stats.ingest import store  # deferred: start-up

    if not launch_file.is_file():
        raise UsageError(T_("{file}: no such file", file=launch_file))
    entrants, problems = t.read_launch_file(launch_file)
    for p in problems:
        err.print(problem_line(p), markup=False)
    sizes = t.table_sizes(len(entrants), t.parse_players(players))
    seed = seed if seed is not None else secrets.token_hex(4)
    schedule = (
        t.random_schedule(len(entrants), sizes, games, seed)
        if games is not None
        else t.contest_schedule(len(entrants), sizes, rounds)
    )
    folder = None
    if out_dir is not None:
        folder = check_output_folder(out_dir)
        folder.mkdir(parents=True, exist_ok=True)
    report_file = check_output_file(report, "--report") if report is not None else None
    plan = t.Plan.make(entrants, schedule, seed, timeout, jobs, str(launch_file))
    db_path = database(db)
    recorder = t.Recorder(db_path, folder, plan)
    progress = Progress(
        TextColumn(_("playing")),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not sys.stderr.isatty() or json_output,
    )
    clock = time.monotonic()
    with progress:
        task = progress.add_task(_("games"), total=len(schedule))
        result = asyncio.run(t.play_tournament(plan, recorder, lambda played: progress.advance(task)))
    seconds = time.monotonic() - clock
    from clue_stats.analysis.corpus.arena import arena_leaderboard, leaderboard_cells  # deferred: start-up

    with store.read_connection(db_path) as con:
        board = arena_leaderboard(con, plan.run_id)
        if report_file is not None:
            from clue_stats.analysis.report.arena_document import (  # deferred: start-up
                read_tournament,
                render_arena_html,
            )

            write_file(report_file, render_arena_html(read_tournament(con, plan.run_id)))
    if json_output:
        print_json(
            {
                "tournament": plan.run_id,
                "seed": seed,
                "games": len(schedule),
                "played": result.played,
                "stored": result.stored,
                "rejected": result.rejected,
                "interrupted": result.interrupted,
                "taken_out": result.removed,
                "seconds": round(seconds, 2),
                "leaderboard": board.to_dicts(),
            }
        )
    else:
        _print(board, plan.run_id, seed, result, leaderboard_cells)
    if result.interrupted:
        raise typer.Exit(ExitCode.FAILURE)
    if problems or result.rejected:
        raise typer.Exit(ExitCode.INPUT_REJECTED)


def _print(
    board: pl.DataFrame, run_id: str, seed: str, result: Result, cells_of: Callable[[dict[str, Any]], dict[str, str]]
) -> None:
    out.print(
        _("Tournament {tournament} (seed {seed}): {games} played, {stored} stored").format(
            tournament=run_id,
            seed=seed,
            games=n_(result.played, "{n} game", "{n} games"),
            stored=number(result.stored),
        ),
        markup=False,
    )
    if result.interrupted:
        out.print(_("Interrupted: the games finished before are stored."), markup=False)
    if board.height == 0:
        return
    shown = Table(
        _("program"), _("games"), _("wins (interval: 95 %)"), _("rating"), _("review accuracy"),
        _("accused at p < 1"), _("missed wins"), _("rule breaks"),
        title=_("Leaderboard"),
    )  # fmt: skip
    for row in board.iter_rows(named=True):
        c = cells_of(row)
        shown.add_row(
            printable(c["program"]), c["games"], c["wins"], c["rating"], c["review_accuracy"], c["unsure"],
            c["missed_wins"], c["rule_breaks"],
        )  # fmt: skip
    out.print(shown)
