"""`board` and `simulate`: the board's distances, and games between built-in strategies."""

from __future__ import annotations

import sys
from pathlib import Path

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from clue_stats.cli import JsonOption, UsageError, app, err, handled, out, print_json


@app.command("board")
@handled
def board_command(
    board: str | None = typer.Option(None, "--board", help="The board map (classic, uk-2020); default: the edition's."),
    edition: str = typer.Option(
        "classic", "--edition", help="Whose names to print rooms and characters in (e.g. de-2023 for German)."
    ),
    json_output: bool = JsonOption,
) -> None:
    """The fewest moves from each start square into each room."""
    from rich import box
    from rich.table import Column, Table

    from clue_stats.analysis.names import of_edition
    from clue_stats.engine.board import BoardFormatError, load_board
    from clue_stats.engine.editions import UnknownName
    from clue_stats.engine.editions import edition as find_edition

    try:
        ed = find_edition(edition)
    except UnknownName as exc:
        raise UsageError(f"--edition: {exc}") from None
    name = board or ed.board
    if name is None:
        raise UsageError(f"the edition {ed.name!r} is played without a board; name one with --board")
    try:
        grid = load_board(name)
    except BoardFormatError as exc:
        raise UsageError(str(exc)) from None
    table = grid.shortest_paths()
    if json_output:
        print_json(table)  # ids, as everywhere in --json
        return
    names = of_edition(ed.id)
    starts = [c for c in table if c in names.deck.suspects] or list(table)
    shown = Table(
        Column("room", no_wrap=True),
        *(Column(names(c), justify="right", overflow="fold") for c in starts),
        title=f"Fewest moves from each character's start square into each room ({name} board, {ed.name})",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    for room in grid.rooms:
        shown.add_row(names(room), *(str(table[c].get(room, "-")) for c in starts))
    out.print(shown)


@app.command("simulate")
@handled
def simulate_command(
    games: int = typer.Option(100, "--games", min=0, help="How many games to play."),
    players: int = typer.Option(4, "--players", min=2, max=6, help="Players per game."),
    edition: str = typer.Option(
        "classic", "--edition", help="The edition (clue-card editions play their traditional variant)."
    ),
    strategies: str = typer.Option(
        "notebook",
        "--strategies",
        help="Comma-separated strategies, e.g. notebook,entropy,random (see docs/strategies.md).",
    ),
    seed: int = typer.Option(0, "--seed", help="The same seed gives the same games."),
    out_dir: str = typer.Option("simulated", "--out", help="The folder for the clue-log/1 files."),
    per_file: int = typer.Option(500, "--per-file", min=1, help="Games per file."),
    json_output: bool = JsonOption,
) -> None:
    """Play whole board games between built-in strategies and write them as clue-log/1."""
    from clue_stats.engine.simulate import SimulationError, play_game, setup
    from clue_stats.ingest.cluelog import write_game

    specs = [s.strip() for s in strategies.split(",") if s.strip()]
    try:
        plan = setup(players, edition, specs, seed)
    except SimulationError as exc:
        raise UsageError(str(exc)) from None
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    files: list[str] = []
    progress = Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not sys.stderr.isatty() or json_output,
    )
    winners = 0
    with progress:
        task = progress.add_task("games", total=games)
        for start in range(0, games, per_file):
            path = folder / f"sim-{plan.run_id}-{start // per_file:04d}.jsonl"
            with path.open("w", encoding="utf-8") as stream:
                for index in range(start, min(start + per_file, games)):
                    game = play_game(plan, index)
                    winners += game.winner() is not None
                    stream.write(write_game(game))
                    progress.advance(task)
            files.append(str(path))
    if json_output:
        print_json({"games": games, "files": files, "won": winners, "run_id": plan.run_id})
    else:
        out.print(f"{games} games ({winners} won) written to {len(files)} files in {folder}")
