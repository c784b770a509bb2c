"""`players`: the people's names in the store, and merging two names of one person (reversible)."""

from __future__ import annotations

import shlex

import typer
from rich.table import Table

from clue_stats.analysis.words import _, n_, percent, pool_words
from clue_stats.engine.errors import UsageError
from clue_stats.engine.markers import T_
from clue_stats.typer_app import DbOption, JsonOption, app, database, handled, out, print_json, printable

players_app = typer.Typer(
    help="The people's names (a name is one person across games); merge two names of one person.",
    no_args_is_help=False,
)
app.add_typer(players_app, name="players")


@players_app.callback(invoke_without_command=True)
@handled
def players_command(
    ctx: typer.Context,
    everyone: bool = typer.Option(False, "--all", help="Also the bots' and the simulations' players."),
    db: str | None = DbOption,
    json_output: bool = JsonOption,
) -> None:
    """List the people: each person's name, the other names merged into it, games and dates."""
    if ctx.invoked_subcommand is not None:
        return

    from clue_stats.analysis.corpus.ratings import (  # deferred: start-up
        POOLS,
        duplicate_words,
        likely_duplicates,
        player_names,
    )
    from clue_stats.ingest import store  # deferred: start-up

    path = database(db)
    with store.read_connection(path) as con:
        people = player_names(con, POOLS if everyone else ("people",))
        maybe = likely_duplicates(con)
    if json_output:
        print_json({"players": people, "likely_duplicates": maybe})
        return
    if not people:
        out.print(
            _("No people's games stored.")
            if everyone
            else _("No people's games stored (`--all` lists the bots and simulations too)."),
            markup=False,
        )
        return
    table = Table(
        _("player"),
        _("also named"),
        _("games"),
        _("review accuracy"),
        _("first played"),
        _("last played"),
        _("pools"),
        title=n_(len(people), "{n} player", "{n} players"),
    )
    for p in people:
        table.add_row(
            *map(
                printable,
                (
                    p["person"],
                    ", ".join(p["names"]),
                    str(p["games"]),
                    _accuracy(p["review_accuracy"], p["rated_suggestions"]),
                    p["first_played"] or "",
                    p["last_played"] or "",
                    ", ".join(pool_words(pool) for pool in p["pools"]),
                ),
            )
        )
    out.print(table)
    for pair in maybe:
        out.print(
            _("Maybe one person: {keep} and {other} ({why}). If so: clue-stats players merge {command}").format(
                keep=printable(pair["keep"]),
                other=printable(pair["other"]),
                why=duplicate_words(pair),
                command=f"{shlex.quote(pair['keep'])} {shlex.quote(pair['other'])}",
            ),
            markup=False,
            highlight=False,
        )


def _accuracy(value: float | None, rated: int) -> str:
    """Review accuracy as the table shows it: "84% (12 rated)" (blank: no rated suggestion)."""
    return "" if value is None else n_(rated, "{share} ({n} rated)", "{share} ({n} rated)", share=percent(value))


@players_app.command("merge")
@handled
def merge_command(
    keep: str = typer.Argument(..., help="The name to keep."),
    other: str = typer.Argument(..., help="Another name of the same person."),
    force: bool = typer.Option(
        False, "--force", help="Merge even a person with a bot or a simulated player (rated apart otherwise)."
    ),
    db: str | None = DbOption,
    json_output: bool = JsonOption,
) -> None:
    """Record that two names are one person (`players merge "Bob" "Robert"`: Robert is Bob); the
    ratings are computed again. `players unmerge "Robert"` undoes it."""
    from clue_stats import pipeline  # deferred: start-up

    # MergeRefused is a usage mistake: exit 2
    merged, person = pipeline.merge_players(database(db), other, keep, force=force)
    if json_output:
        print_json({"merged": other, "into": keep, "person": person, "recorded": {"name": merged, "into": person}})
    else:
        before = (
            ""
            if merged == other
            else _(" ({other} was merged into {merged} before)").format(other=repr(other), merged=repr(merged))
        )
        out.print(
            _(
                "{other} is now {person} in every game and rating. Recorded: {merged} merged into {into}{before}; "
                "to undo this merge: clue-stats players unmerge {undo}"
            ).format(
                other=other, person=person, merged=repr(merged), into=repr(person), before=before, undo=repr(merged)
            ),
            markup=False,
        )


@players_app.command("unmerge")
@handled
def unmerge_command(
    name: str = typer.Argument(..., help="A name merged before."),
    db: str | None = DbOption,
    json_output: bool = JsonOption,
) -> None:
    """Undo a merge: the name is its own person again; the ratings are computed again."""
    from clue_stats import pipeline  # deferred: start-up

    undone = pipeline.unmerge_player(database(db), name)
    if json_output:
        print_json({"unmerged": name if undone else None})
    elif undone:
        out.print(_("{name} is a person of their own again").format(name=name), markup=False)
    if not undone:
        raise UsageError(
            T_("{name} was not merged into another name; `clue-stats players --json` lists the merges", name=repr(name))
        )
