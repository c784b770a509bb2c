"""What every importer shares: building clue-log/1 record dicts and collecting problems.

An importer reads another client's record in stages (its own tokens -> clue-log/1 dicts); the checks
of the format and the rules are left to :func:`ingest.cluelog.build_game` and the rules engine, so an
importer only reports what it cannot convert at all. Within a converter a bad value is raised as
:class:`Unconvertible` (the offending record is then skipped) and turned into a :class:`Problem`
with the source line, so one bad record never hides the others.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from typing import Any

from clue_stats.engine.editions import CATEGORIES, Deck, UnknownName
from clue_stats.engine.errors import InputError, said_of
from clue_stats.engine.markers import T_, Said
from clue_stats.engine.problems import Problem, listed

FORMAT = "clue-log/1"
FIELD_OF_CATEGORY = {"suspects": "suspect", "weapons": "weapon", "rooms": "room"}


class Unconvertible(InputError):
    """Input that cannot become a clue-log/1 record; carries the problem code and a message."""

    def __init__(self, message: str | Said, code: str = "bad_import"):
        super().__init__(message)
        self.code = code


def problem(exc: Unconvertible, line: int | None = None, source_file: str | None = None) -> Problem:
    return Problem.of(exc.code, exc.said or exc.message, line=line, source_file=source_file)


def fault(exc: Exception, line: int | None = None, source_file: str | None = None) -> Problem:
    """A fault of the importer on one line (an exception it did not expect): that line's problem,
    and the other lines are read."""
    reason = f"{type(exc).__name__}: {exc}"[:300]
    return Problem.of(
        "internal_error",
        T_(
            "clue-stats failed on this line ({reason}); the rest of the file is read: please report it with the file",
            reason=reason,
        ),
        line=line,
        source_file=source_file,
    )


MAX_COUNT_DIGITS = 9  # a count or number in another client's record: more digits is no count of a game


def count(text: str, what: str | Said) -> int:
    """A whole number written in ASCII digits (not '³' or '٣', which Python's int() and str.isdigit()
    take), of at most MAX_COUNT_DIGITS digits: checked before it is believed."""
    if not (text.isascii() and text.isdigit()):
        raise Unconvertible(T_("{what} is not a number: {text}", what=what, text=repr(text[:40])))
    if len(text.lstrip("0")) > MAX_COUNT_DIGITS:
        raise Unconvertible(
            T_("{what} has {n_digits} digits: not a count of a game", what=what, n_digits=format(len(text), ","))
        )
    return int(text)


def string_list(text: str, what: str | Said) -> list[str]:
    """A Python list of strings as a program printed it (``['Mr. Green', 'Knife']``), or Unconvertible:
    whatever the text holds (a dict with a list as its key, a nesting a thousand deep)."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        value = None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise Unconvertible(T_("{what} is not a list of cards: {text}", what=what, text=repr(text[:80])))
    return value


def resolve(deck: Deck, name: str, category: str | None = None) -> str:
    """A card id, or :class:`Unconvertible` with the deck's did-you-mean."""
    try:
        return deck.resolve(name, category)
    except UnknownName as exc:
        raise Unconvertible(said_of(exc), "unknown_card") from None


def triple(deck: Deck, cards: Sequence[str], what: str) -> dict[str, str]:
    """``{suspect, weapon, room}`` from three card ids in any order (one of each category)."""
    by_field: dict[str, list[str]] = {f: [] for f in FIELD_OF_CATEGORY.values()}
    for card in cards:
        by_field[FIELD_OF_CATEGORY[deck.category(card)]].append(card)
    if len(cards) != 3 or any(len(found) != 1 for found in by_field.values()):
        names = listed(deck.name(c) for c in cards) or "no cards"
        raise Unconvertible(
            T_("{what} names {names}: not one suspect, one weapon and one room", what=what, names=names)
        )
    return {f: found[0] for f, found in by_field.items()}


def responses(players: Sequence[str], suggester: str, shower: str | None, shows: str | None) -> list[dict[str, Any]]:
    """Answers clockwise from the suggester's left: passes up to the shower, then the shown card.

    ``shower`` None: nobody could show, so every other player passed. ``shows`` is a card id or "?"
    for a card shown but not seen by the log's writer.
    """
    seat = players.index(suggester)
    n = len(players)
    out: list[dict[str, Any]] = []
    for step in range(1, n):
        player = players[(seat + step) % n]
        if player == shower:
            out.append({"player": player, "shows": shows})
            return out
        out.append({"player": player, "shows": None})
    if shower is not None:
        raise Unconvertible(
            T_("{shower} answers {suggester}'s own suggestion", shower=shower, suggester=suggester),
            "suggester_responds",
        )
    return out


def between(players: Sequence[str], suggester: str, shower: str) -> list[str]:
    """The players strictly between the suggester and the shower, clockwise."""
    seat, n = players.index(suggester), len(players)
    out = []
    for step in range(1, n):
        player = players[(seat + step) % n]
        if player == shower:
            break
        out.append(player)
    return out


def game_record(
    *,
    edition: str,
    players: Iterable[dict[str, Any]],
    source: str,
    deck: dict[str, list[str]] | None = None,
    variant: str | None = None,
    perspective: str | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``game`` record; no id, so the game's identity is the hash of its content."""
    record: dict[str, Any] = {"type": "game", "format": FORMAT, "edition": edition}
    if deck is not None:
        record["deck"] = {c: list(deck[c]) for c in CATEGORIES}
    if variant is not None:
        record["variant"] = variant
    record["players"] = list(players)
    if perspective is not None:
        record["perspective"] = perspective
    record["source"] = source
    record.update(extra or {})
    return record


def located(record: dict[str, Any], line: int | None) -> dict[str, Any]:
    """The record with the source line it was converted from (an extension field: not interpreted)."""
    if line is not None:
        record["x-source-line"] = line
    return record


def source_lines(records: Sequence[dict[str, Any]]) -> list[int | None]:
    """The line of the original file each converted record came from (``RawGame.lines``), so that a
    problem the checks find in a record is reported at its line of the original file."""
    return [r.get("x-source-line") for r in records]
