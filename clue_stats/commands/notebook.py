"""`notebook`: one observer's exact notebook at one record of a game."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.table import Table
from rich.text import Text

from clue_stats.analysis.words import _, decimal, n_, percent, place_words, problem_layout
from clue_stats.commands.limits import MemoryOption, SecondsOption, StatesOption, limits
from clue_stats.engine.errors import InputError, UsageError, said_of
from clue_stats.engine.markers import T_
from clue_stats.typer_app import JsonOption, app, handled, out, print_json, printable

if TYPE_CHECKING:
    from clue_stats.engine.game import Game


def _pick_game(games: list[Game], game_id: str | None, path: Path) -> Game:
    if game_id is not None:
        for game in games:
            if game.game_id == game_id:
                return game
        raise UsageError(
            T_(
                "{path} has no valid game {game}; it has: {games}",
                path=path,
                game=repr(game_id),
                games=", ".join(g.game_id for g in games) or T_("none"),
            )
        )
    if len(games) > 1:
        raise UsageError(
            T_(
                "{path} holds {count} games; choose one with --game ({games})",
                path=path,
                count=len(games),
                games=", ".join(g.game_id for g in games),
            )
        )
    return games[0]


@app.command("notebook")
@handled
def notebook_command(
    path: Path = typer.Argument(..., help="A game file (clue-log/1, notation, or a known export)."),
    observer: str = typer.Option(..., "--observer", help="A player's name, or 'table' (a spectator with no cards)."),
    at: int | None = typer.Option(
        None, "--at", min=0, help="The record (seq) after which to look (default: the last)."
    ),
    game_id: str | None = typer.Option(None, "--game", help="The game's id, when the file holds several."),
    top: int = typer.Option(5, "--top", min=1, help="How many of the most likely solutions to list."),
    json_output: bool = JsonOption,
    budget_states: int | None = StatesOption,
    budget_memory: float | None = MemoryOption,
    budget_seconds: float | None = SecondsOption,
) -> None:
    """The observer's notebook: each card's probability per place, the envelope entropy, the likely
    solutions; counted under the same budget as ingest's."""
    from clue_stats.analysis.words.records import Places  # deferred: start-up
    from clue_stats.engine import budget, deduction  # deferred: start-up
    from clue_stats.engine.editions import slug  # deferred: start-up
    from clue_stats.pipeline import read_game_file  # deferred: start-up

    if not path.is_file():
        raise UsageError(T_("no such file: {path}", path=path))
    game_limits = limits(budget_states, budget_memory, budget_seconds)
    games, problems = read_game_file(path, limits=game_limits)  # UnknownFormat: an InputError (exit 3)
    if not games:
        detail = "; ".join(problem_layout(p)[0] for p in problems[:3])
        raise InputError(T_("{path}: no valid game to read ({detail})", path=path, detail=detail))
    game = _pick_game(games, game_id, path)
    if observer.lower() == "table":
        who = deduction.TABLE
    else:
        matches = [n for n in game.names if slug(n) == slug(observer)]
        if not matches:
            raise UsageError(
                T_(
                    "no player {observer} in {game}; players: {players}, or 'table'",
                    observer=repr(observer),
                    game=game.game_id,
                    players=", ".join(game.names),
                )
            )
        who = matches[0]
    last = len(game.records)
    seq = last if at is None else at
    if seq > last:
        raise UsageError(T_("--at {seq}: the game's last record is seq {last}", seq=seq, last=last))
    knowledge = deduction.knowledge_at(game, who, seq)
    try:
        with budget.limited(game_limits):
            counts = deduction.count(knowledge)
    except budget.BudgetExceeded as exc:
        raise budget.BudgetExceeded(
            exc.reason,
            T_(
                "{path}: the notebook of --observer {observer} in {game} after seq {seq} was not counted: {error} "
                "(a larger budget: --budget-states, --budget-memory, --budget-seconds)",
                path=path,
                observer="table" if who is None else who,
                game=game.game_id,
                seq=seq,
                error=said_of(exc),
            ),
        ) from None
    places = list(knowledge.places)
    deck = game.deck
    name = "table" if who is None else who  # as --observer and --json name it
    if json_output:
        print_json(
            {
                "game_id": game.game_id,
                "observer": name,
                "seq": seq,
                "partial_view": deduction.partial_view(game, who) if who is not None else False,
                "consistent_deals": str(counts.total),
                "entropy_bits": counts.entropy() if counts.total else None,
                "places": places,
                "notebook": {card: {place: counts.probability(card, place) for place in places} for card in deck.cards}
                if counts.total
                else {},
                "most_likely": [
                    {"suspect": t[0], "weapon": t[1], "room": t[2], "probability": p}
                    for t, p in counts.most_likely(top)
                ]
                if counts.total
                else [],
            }
        )
        return
    if counts.total == 0:
        raise InputError(
            T_(
                "no deal of the cards fits what --observer {observer} saw up to seq {seq}: the log contradicts itself",
                observer="table" if who is None else who,
                seq=seq,
            )
        )
    heading = (
        _("The table's notebook in {game} after seq {seq}, {where}; {deals}; envelope entropy {bits} bits")
        if who is None
        else _("{observer}'s notebook in {game} after seq {seq}, {where}; {deals}; envelope entropy {bits} bits")
    )
    out.print(
        heading.format(
            observer=who,
            game=game.game_id,
            seq=seq,
            where=Places.of(game)(seq),
            deals=n_(counts.total, "{n} consistent deal", "{n} consistent deals"),
            bits=decimal(counts.entropy(), 3),
        )
    )
    table = Table(_("card"), *[printable(place_words(p)) for p in places])
    for _category, cards in (("suspects", deck.suspects), ("weapons", deck.weapons), ("rooms", deck.rooms)):
        table.add_section()
        for card in cards:
            cells = []
            for place in places:
                p = counts.probability(card, place)
                cells.append(Text("✓", style="bold green") if p == 1 else ("·" if p == 0 else percent(p)))
            table.add_row(printable(deck.name(card)), *cells)
    out.print(table)
    out.print(_("Most likely solutions:"))
    for triple, p in counts.most_likely(top):
        out.print(f"  {percent(p, 2):>8}  {', '.join(deck.name(c) for c in triple)}")
