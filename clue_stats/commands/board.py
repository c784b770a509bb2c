"""`board`: the fewest moves from each start square into each room."""

from __future__ import annotations

import typer
from rich import box
from rich.table import Column, Table

from clue_stats.analysis.words import _
from clue_stats.engine.errors import UsageError, said_of
from clue_stats.engine.markers import T_
from clue_stats.typer_app import JsonOption, app, handled, out, print_json


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
    from clue_stats.analysis.words.names import edition_name, of_edition  # deferred: start-up
    from clue_stats.engine.board import load_board  # deferred: start-up
    from clue_stats.engine.editions import UnknownName  # deferred: start-up
    from clue_stats.engine.editions import edition as find_edition  # deferred: start-up

    try:
        ed = find_edition(edition)
    except UnknownName as exc:
        raise UsageError(T_("--edition: {error}", error=said_of(exc))) from None
    name = board or ed.board
    if name is None:
        raise UsageError(
            T_("the edition {edition} is played without a board; name one with --board", edition=repr(ed.name))
        )
    grid = load_board(name)
    table = grid.shortest_paths()
    if json_output:
        print_json(table)  # ids, as everywhere in --json
        return
    names = of_edition(ed.id)
    starts = [c for c in table if c in names.deck.suspects] or list(table)
    shown = Table(
        Column(_("room"), no_wrap=True),
        *(Column(names(c), justify="right", overflow="fold") for c in starts),
        title=_("Fewest moves from each character's start square into each room (the {board} board, {edition})").format(
            board=name, edition=edition_name(ed.id)
        ),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    for room in grid.rooms:
        shown.add_row(names(room), *(str(table[c].get(room, "-")) for c in starts))
    out.print(shown)
