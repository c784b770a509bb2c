"""Kinds of game: who played it. People's games and the others are never mixed by default.

Every stored game has a kind (analysis.md, ``games.kind``), set by where the game came from:

- ``tabletop``: people around a real board (typed in the notation, a club transcript, a notebook);
- ``digital``: people in a digital client, some seats possibly played by the client's computer players;
- ``contest``: programs against each other (a bot contest such as Speed Clue);
- ``simulated``: games played by clue-stats' own strategies (``clue-stats simulate``).

A reader that knows its source sets the kind (the notation: tabletop; each importer its own); a
clue-log/1 file is judged by its ``game`` record (:func:`kind_of`); ``ingest --kind`` sets the
kind of every game of a run, overriding both.
"""

from __future__ import annotations

from collections.abc import Sequence

from clue_stats.engine.errors import UsageError
from clue_stats.engine.game import Game
from clue_stats.engine.markers import T_

TABLETOP, DIGITAL, CONTEST, SIMULATED = "tabletop", "digital", "contest", "simulated"
KINDS: dict[str, str] = {
    TABLETOP: "people at a table",
    DIGITAL: "people in a digital client",
    CONTEST: "bot contest",
    SIMULATED: "simulated",
}
PEOPLE = (TABLETOP, DIGITAL)  # the kinds the dashboard shows by default
SIMULATOR_SOURCE = "clue-stats simulate"  # the `source` the simulator writes


def kind_of(source: str | None, strategies: Sequence[str | None]) -> str:
    """The kind of a game from its `game` record: the simulator's games are simulated; a game whose
    every seat names the program (``strategy``) that played it is a bot contest, one where only some
    seats do is a digital client's game; any other game was played by people."""
    if source == SIMULATOR_SOURCE:
        return SIMULATED
    programs = sum(1 for s in strategies if s)
    if strategies and programs == len(strategies):
        return CONTEST
    if programs:
        return DIGITAL
    return TABLETOP


def kind_of_game(game: Game) -> str:
    return kind_of(game.source, [p.strategy for p in game.players])


def check_kind(value: str) -> str:
    """A kind named by the user (``--kind``); raises UsageError (a ValueError) naming the kinds there are."""
    key = value.strip().lower()
    if key not in KINDS:
        raise UsageError(T_("unknown kind of game {kind} (one of {kinds})", kind=repr(value), kinds=", ".join(KINDS)))
    return key
