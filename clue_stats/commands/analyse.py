"""`analyse`: compute the analysis of stored games that lack it or were analysed by an older version
(the work is :func:`clue_stats.pipeline.analyse_store`)."""

from __future__ import annotations

from pathlib import Path

import typer

from clue_stats.analysis.words import _, decimal, n_, number, problem_layout
from clue_stats.commands.limits import MemoryOption, SecondsOption, StatesOption, limits, over_budget_note
from clue_stats.engine.errors import StoreError
from clue_stats.engine.markers import T_
from clue_stats.exit_codes import ExitCode
from clue_stats.progress import waiting
from clue_stats.typer_app import DbOption, JsonOption, app, database, err, handled, out, print_json


@app.command("analyse")
@handled
def analyse_command(
    db: str | None = DbOption,
    deep: bool = typer.Option(
        False, "--deep", hidden=True, help="Accepted for old scripts: the whole review is always computed."
    ),
    workers: int | None = typer.Option(
        None, "--workers", min=1, help="Processes that analyse games (default: up to 2)."
    ),
    wait: float = typer.Option(30.0, "--wait", min=0, help="Seconds to wait for a database held by another process."),
    budget_states: int | None = StatesOption,
    budget_memory: float | None = MemoryOption,
    budget_seconds: float | None = SecondsOption,
    json_output: bool = JsonOption,
) -> None:
    """Compute the whole analysis (the review included) of stored games that lack it, were stored
    with --light or --no-analyse, or were analysed by an older version."""

    from clue_stats.pipeline import analyse_store  # deferred: start-up

    path = database(db)
    game_limits = limits(budget_states, budget_memory, budget_seconds)
    if not Path(path).exists():
        raise StoreError(T_("{path}: no such database (run `clue-stats ingest` first)", path=path))
    with waiting(_("analysing"), quiet=json_output) as wait_line:
        summary = analyse_store(
            path,
            workers=workers,
            wait_seconds=wait,
            progress=lambda n, so_far: wait_line.update(n, note=over_budget_note(so_far.games_over_budget)),
            started=lambda total: wait_line.update(total=total),
            limits=game_limits,
        )
    # a game that could not be analysed (its stored records no longer make a game) is its problem,
    # said, and the others are analysed: exit 3, as for input rejected
    failed = any(p.is_error for p in summary.problems)
    if json_output:
        print_json(summary.as_dict())
        if failed:
            raise typer.Exit(ExitCode.INPUT_REJECTED)
        return
    for p in summary.problems:
        err.print_lines([problem_layout(p)])
    over = ""
    if summary.games_over_budget:
        partly = summary.games_over_budget - summary.games_left
        over = _("; {over} over the budget ({partly} partly analysed, {left} left as they were)").format(
            over=number(summary.games_over_budget), partly=number(partly), left=number(summary.games_left)
        )
    out.print(
        _(
            "{games} in {seconds} s (analysis version {version}){over}; {reviewed} of {stored} reviewed  ->  {database}"
        ).format(
            games=n_(summary.games_analysed, "{n} game analysed", "{n} games analysed"),
            seconds=decimal(summary.seconds, 1),
            version=summary.analysis_version,
            over=over,
            reviewed=number(summary.games_reviewed),
            stored=n_(summary.games_stored, "{n} stored game", "{n} stored games"),
            database=path,
        ),
        markup=False,
    )
    if failed:
        raise typer.Exit(ExitCode.INPUT_REJECTED)
