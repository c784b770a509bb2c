"""Names people read: a card, character, room or start square id turned into the edition's own name.

Ids (``white``, ``lead_pipe``, ``dining_room``) belong in the database and in ``--json``; everything
a person reads (dashboard tables and charts, the CLI's tables, the reports) shows the edition's
names instead (German names for the German edition), and start squares by the character who starts
there. This module is the one place that does it, for one game (:class:`Names`) or for a table of
rows from many games (:func:`name_columns`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import polars as pl

from clue_stats.analysis.words import N_, _
from clue_stats.engine.board import BoardFormatError, load_board
from clue_stats.engine.editions import CATEGORIES, Deck, Edition, editions, slug
from clue_stats.engine.game import Game
from clue_stats.ingest.store import Store
from clue_stats.ingest.store.queries.names import deck_records

CUSTOM = "custom"


@dataclass(frozen=True)
class Names:
    """The display names of one edition (or one game's custom deck)."""

    deck: Deck
    board: str | None = None  # the board map's name, for start squares

    def __call__(self, card: str | None) -> str:
        """The name of a card, character or room id; ids it does not know come back as they are."""
        if card is None:
            return ""
        return self.deck.name(card)

    def cards(self, cards: Iterable[str]) -> list[str]:
        return [self(c) for c in cards]

    def start_square(self, character: str | None) -> str:
        """The start square of a character, named by the characters of this edition who start there."""
        if character is None:
            return ""
        starts = _starts(self.board) if self.board else {}
        square = starts.get(character)
        if square is None:
            return _("{character}'s start").format(character=self(character))
        return square_name(self, tuple(square))

    def square(self, square: Sequence[int] | str | None) -> str:
        """A room by its name; a square by the start it is, else by its row and column."""
        if square is None:
            return ""
        if isinstance(square, str):
            return self(square)
        return square_name(self, tuple(square))


@functools.cache
def _starts(board: str) -> dict[str, tuple[int, int]]:
    try:
        return dict(load_board(board).starts)
    except (BoardFormatError, KeyError, OSError):
        return {}


def square_name(names: Names, square: tuple[int, ...]) -> str:
    starts = _starts(names.board) if names.board else {}
    here = [c for c, sq in starts.items() if tuple(sq) == square and c in names.deck.suspects]
    if len(here) > 1:
        return _("{characters} start").format(characters=" / ".join(names(c) for c in here))
    if here:
        return _("{character}'s start").format(character=names(here[0]))
    return _("square {row},{column}").format(row=square[0], column=square[1]) if len(square) == 2 else str(list(square))


@functools.cache
def of_edition(edition_id: str) -> Names:
    """The names of a built-in edition; an unknown id gives names that leave ids as they are."""
    ed: Edition | None = editions().get(edition_id)
    if ed is None:
        return Names(Deck((), (), ()))
    return Names(ed.deck, ed.board)


def of_game(game: Game) -> Names:
    """The names of one game: its edition's, or the deck declared in its log."""
    ed = getattr(game, "edition", None)
    return Names(game.deck, ed.board if ed is not None else None)


def of_custom_deck(spec: dict[str, list[str]]) -> Names:
    """The names of a deck declared in a log (``{"suspects": [...], ...}`` display names)."""
    try:
        return Names(Deck.custom(*(list(spec.get(c) or []) for c in CATEGORIES)))
    except (TypeError, AttributeError):
        return Names(Deck((), (), ()))


def stored_names(con: Store, game_ids: Iterable[str]) -> dict[str, Names]:
    """The names of stored games with a custom deck (read from their `game` record), by game id."""
    ids = sorted(set(game_ids))
    if not ids:
        return {}
    rows = deck_records(con, CUSTOM, ids)
    found = {}
    for game_id, payload in rows:
        try:
            record = json.loads(payload)
        except (TypeError, ValueError):
            continue
        found[game_id] = of_custom_deck(record.get("deck") or {})
    return found


def _readable(card: str) -> str:
    """An id no deck knows, made readable ("lead_pipe" -> "Lead pipe")."""
    return card.replace("_", " ").capitalize() if card == slug(card) else card


def name_columns(
    frame: pl.DataFrame,
    columns: Sequence[str],
    con: Store | None = None,
    *,
    edition: str = "edition",
    game_id: str = "game_id",
    start_squares: Sequence[str] = (),
) -> pl.DataFrame:
    """``frame`` with the card ids in ``columns`` (and the characters in ``start_squares``, turned into
    their start square) replaced by names, per row's edition; custom decks are read from the store
    when ``con`` is given and the frame has a game id column. Meant for what a page shows (tens to
    hundreds of rows), not for whole tables."""
    present = [c for c in columns if c in frame.columns]
    squares = [c for c in start_squares if c in frame.columns]
    if frame.height == 0 or not (present or squares):
        return frame
    has_edition = edition in frame.columns
    custom: dict[str, Names] = {}
    if con is not None and has_edition and game_id in frame.columns:
        ids = frame.filter(pl.col(edition) == CUSTOM)[game_id].to_list()
        custom = stored_names(con, [i for i in ids if i is not None])
    editions_col = frame[edition].to_list() if has_edition else [None] * frame.height
    ids_col = frame[game_id].to_list() if game_id in frame.columns else [None] * frame.height
    row_names = [
        custom.get(gid) if ed == CUSTOM and gid in custom else (of_edition(ed) if ed else None)
        for ed, gid in zip(editions_col, ids_col)
    ]

    def one(names: Names | None, value: str | None) -> str | None:
        if value is None:
            return None
        if names is None or value not in names.deck.display:
            return _readable(value)
        return names(value)

    replaced = []
    for column in present:
        values = frame[column].to_list()
        if frame[column].dtype == pl.List(pl.Utf8):
            new = [[one(n, v) for v in vs] if vs is not None else None for n, vs in zip(row_names, values)]
            replaced.append(pl.Series(column, new, dtype=pl.List(pl.Utf8)))
        else:
            replaced.append(pl.Series(column, [one(n, v) for n, v in zip(row_names, values)], dtype=pl.Utf8))
    for column in squares:
        values = frame[column].to_list()
        replaced.append(
            pl.Series(
                column,
                [
                    (n.start_square(v) if n is not None else v) if v is not None else None
                    for n, v in zip(row_names, values)
                ],
                dtype=pl.Utf8,
            )
        )
    return frame.with_columns(replaced)


# the built-in editions' names (data/editions/*.toml), for the catalogues: each is said in the
# reader's language ("Cluedo (klassisch)"); an edition file added later keeps its own name
EDITION_NAMES = (
    N_("Cluedo (classic)"),
    N_("Cluedo (Deutschland 2023)"),
    N_("Cluedo (UK 2020)"),
    N_("Clue (US classic)"),
)


def edition_name(edition_id: str | None) -> str:
    """An edition's name in the reader's language ("Cluedo (classic)", "Cluedo (klassisch)"); a custom
    deck is "custom deck" in the reader's language."""
    if edition_id is None:
        return ""
    if edition_id == CUSTOM:
        return _("custom deck")
    ed = editions().get(edition_id)
    if ed is None:
        return edition_id
    return _(ed.name) if ed.name in EDITION_NAMES else ed.name
