"""`night`: a night's games in the order they were played, and the club's way to say that order."""

from __future__ import annotations

import typer
from rich import box
from rich.table import Column, Table

from clue_stats.analysis.words import _, n_, when
from clue_stats.typer_app import DbOption, JsonOption, app, database, handled, out, print_json, printable


@app.command("night")
@handled
def night_command(
    night: str = typer.Argument(..., help="The night, as YYYY-MM-DD (games until 06:00 belong to the night before)."),
    game_ids: list[str] | None = typer.Argument(
        None,
        help="The night's games in the order they were played, the first played first (the games not named "
        "follow, in their order); the ratings are computed again.",
    ),
    clear: bool = typer.Option(False, "--clear", help="Take back the order given: the games' times order them again."),
    db: str | None = DbOption,
    json_output: bool = JsonOption,
) -> None:
    """A night's games in the order they were played; with game ids, record that order (a night's games
    without a time are otherwise ordered as they were typed and stored)."""
    from clue_stats import pipeline  # deferred: start-up
    from clue_stats.analysis.corpus.night import gather_night, parse_date  # deferred: start-up
    from clue_stats.engine.errors import UsageError  # deferred: start-up
    from clue_stats.engine.markers import T_  # deferred: start-up
    from clue_stats.ingest import store  # deferred: start-up
    from clue_stats.ingest.store.queries import nights as night_reads  # deferred: start-up

    night = parse_date(night)
    path = database(db)
    if game_ids and clear:
        raise UsageError(T_("give the games' order or --clear, not both"))
    if game_ids or clear:
        pipeline.order_night(path, night, list(game_ids or []))
    with store.read_connection(path) as con:
        games = gather_night(con, night, night).games
        ordered = night_reads.night_ordered(con, [g.game_id for g in games])
    if json_output:
        print_json(
            {
                "night": night,
                "ordered_by_club": ordered,
                "games": [
                    {"game_id": g.game_id, "played_at": g.played_at, "players": g.players, "winner": g.winner}
                    for g in games
                ],
            }
        )
        return
    if not games:
        raise UsageError(T_("no stored game was played on the night of {night}", night=night))
    how = _("in the order the club gave") if ordered else _("in played order (times, then as typed and stored)")
    table = Table(
        Column("#", justify="right"),
        Column(_("game"), no_wrap=True),
        Column(_("played on"), no_wrap=True),
        _("players"),
        _("winner"),
        title=printable(
            _("The night of {night}: {games}, {how}").format(
                night=when(night), games=n_(len(games), "{n} game", "{n} games"), how=how
            )
        ),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    for i, g in enumerate(games, 1):
        table.add_row(
            str(i),
            printable(g.game_id),
            printable(when(g.played_at) or ""),
            printable(", ".join(g.players)),
            printable(g.winner or "-"),
        )
    out.print(table)
    if not ordered:
        out.print(
            _("To set the order: clue-stats night {night} GAME GAME ... (the first played first)").format(night=night),
            markup=False,
        )
