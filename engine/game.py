"""The game model: a checked header and its records, with cards as ids and players as names.

Readers (clue-log/1, the notation, importers) build these; the rules engine, the deduction engine and
the analysis read them. Records are frozen: a replay never changes what was logged.
"""

from __future__ import annotations

import abc
import dataclasses
import functools
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from clue_stats.engine.editions import Deck, Edition, Variant
from clue_stats.engine.markers import T_, Said

UNSEEN = "?"  # a card that was shown or peeked at, but not seen by the log's writer
ALL = "all"  # a reveal to everyone


@dataclass(frozen=True)
class Player:
    name: str
    character: str | None = None
    hand_size: int | None = None  # as declared in the log; Game.hand_sizes holds the resolved sizes
    strategy: str | None = None


@dataclass(frozen=True)
class Response:
    player: str
    shows: str | None  # a card id, UNSEEN, or None for a pass

    @property
    def passed(self) -> bool:
        return self.shows is None


# What a record's field holds, declared with the field (``player: str = holds(PLAYER)``): the formats
# that read and write a record field by field (clue-log/1) read, check and write a declared type from
# these alone, so a new record type of such fields needs no code of its own in them
PLAYER, CARD, CARDS, TEXT, FLAG = "player", "card", "cards", "text", "flag"
_NO_DEFAULT: Any = object()


def holds(kind: str, category: str | None = None, default: Any = _NO_DEFAULT) -> Any:
    """A record field declared as holding a ``kind`` of value (a card of ``category``, when given);
    with a ``default``, the field may be left out (and is left out when it has it)."""
    metadata = {"holds": kind, "category": category}
    if default is _NO_DEFAULT:
        return field(metadata=metadata)
    return field(default=default, metadata=metadata)


@dataclass(frozen=True, kw_only=True)
class Record:
    seq: int
    line: int | None = field(default=None, compare=False)  # where it was read; not part of the game
    extra: dict[str, Any] = field(default_factory=dict, compare=False)  # t, note and x- fields

    type = "record"


@dataclass(frozen=True, kw_only=True)
class Deal(Record):
    player: str = holds(PLAYER)
    cards: tuple[str, ...] = holds(CARDS)
    type = "deal"


@dataclass(frozen=True, kw_only=True)
class RoomCards(Record):
    rooms: tuple[str, ...]
    cards: dict[str, str] | None = field(default=None, compare=False)
    type = "room_cards"


@dataclass(frozen=True, kw_only=True)
class Turn(Record):
    player: str
    roll: tuple[int | str, ...] | None = None  # two dice; a magnifier is UNSEEN ("?")
    type = "turn"


@dataclass(frozen=True, kw_only=True)
class Move(Record):
    player: str
    to: str | tuple[int, int]  # a room id or a square
    via: str | None = None  # "walk", "passage" or "stay"
    path: tuple[tuple[int, int], ...] | None = None
    type = "move"


@dataclass(frozen=True, kw_only=True)
class Peek(Record):
    player: str
    room: str
    card: str | None  # None: the log's writer did not see it
    type = "peek"


@dataclass(frozen=True, kw_only=True)
class Suggest(Record):
    player: str
    suspect: str
    weapon: str
    room: str
    responses: tuple[Response, ...]
    type = "suggest"

    @property
    def cards(self) -> tuple[str, str, str]:
        return (self.suspect, self.weapon, self.room)

    @property
    def shower(self) -> Response | None:
        last = self.responses[-1] if self.responses else None
        return last if last is not None and not last.passed else None


@dataclass(frozen=True, kw_only=True)
class Reveal(Record):
    player: str | None  # whose card; None: the card is in nobody's hand
    card: str  # a card id or UNSEEN
    to: tuple[str, ...] | str  # names, or ALL
    cause: str | None = None
    type = "reveal"


@dataclass(frozen=True, kw_only=True)
class ClueCard(Record):
    player: str = holds(PLAYER)
    text: str = holds(TEXT)
    type = "clue_card"


@dataclass(frozen=True, kw_only=True)
class Accuse(Record):
    player: str = holds(PLAYER)
    suspect: str = holds(CARD, "suspects")
    weapon: str = holds(CARD, "weapons")
    room: str = holds(CARD, "rooms")
    correct: bool | None = holds(FLAG, default=None)
    type = "accuse"

    @property
    def cards(self) -> tuple[str, str, str]:
        return (self.suspect, self.weapon, self.room)


@dataclass(frozen=True, kw_only=True)
class End(Record):
    winner: str | None = None
    solution: tuple[str, str, str] | None = None
    type = "end"


@dataclass(frozen=True, kw_only=True)
class Statement(Record):
    """What a player says they know at this point (their notebook read out, an agent's STATUS): it
    tells nobody anything; the analysis grades it against the player's own view."""

    player: str
    not_in_envelope: tuple[str, ...] = ()  # cards they say are not the solution's
    holds: tuple[tuple[str, str], ...] = ()  # (player, card) they say that player holds
    lacks: tuple[tuple[str, str], ...] = ()  # (player, card) they say that player does not hold
    solution: tuple[str, str, str] | None = None  # the solution they say they are sure of
    remaining: tuple[tuple[str, int | tuple[str, ...]], ...] = ()  # (category, how many / which still possible)
    type = "statement"


@dataclass(frozen=True, kw_only=True)
class Extension(Record):
    """An ``x-`` record: kept and written back, never interpreted."""

    kind: str
    raw: dict[str, Any] = field(default_factory=dict)
    type = "extension"


Event = Deal | RoomCards | Turn | Move | Peek | Suggest | Reveal | ClueCard | Accuse | Statement | End | Extension
RECORD_TYPES: tuple[type[Event], ...] = typing.get_args(Event)

T = TypeVar("T")


def declared_fields(record_type: type[Record]) -> tuple[dataclasses.Field[Any], ...] | None:
    """A record type's own fields in order when every one declares what it holds (:func:`holds`),
    else None (the type's formats read and write it by code of their own)."""
    own = [f for f in dataclasses.fields(record_type) if f.name not in _BASE_FIELDS]
    return tuple(own) if own and all("holds" in f.metadata for f in own) else None


_BASE_FIELDS = frozenset(f.name for f in dataclasses.fields(Record))


class RecordVisitor(abc.ABC, Generic[T]):
    """One walk over the record types (python-chess's visitors over one traversal): a method per type,
    ``visit_`` and the type's name, each returning a ``T``. The replay's checks, the clue-log/1 and
    notation writers and the words for a record are visitors; a visitor without a method for every
    type cannot be made (abc refuses it, and mypy says so), so a new record type adds its class and
    its method here, then one method in each visitor (tests/test_walk.py lists them)."""

    def visit(self, record: Event) -> T:
        return visit(record, self)

    @abc.abstractmethod
    def visit_deal(self, r: Deal) -> T: ...

    @abc.abstractmethod
    def visit_room_cards(self, r: RoomCards) -> T: ...

    @abc.abstractmethod
    def visit_turn(self, r: Turn) -> T: ...

    @abc.abstractmethod
    def visit_move(self, r: Move) -> T: ...

    @abc.abstractmethod
    def visit_peek(self, r: Peek) -> T: ...

    @abc.abstractmethod
    def visit_suggest(self, r: Suggest) -> T: ...

    @abc.abstractmethod
    def visit_reveal(self, r: Reveal) -> T: ...

    @abc.abstractmethod
    def visit_clue_card(self, r: ClueCard) -> T: ...

    @abc.abstractmethod
    def visit_accuse(self, r: Accuse) -> T: ...

    @abc.abstractmethod
    def visit_statement(self, r: Statement) -> T: ...

    @abc.abstractmethod
    def visit_end(self, r: End) -> T: ...

    @abc.abstractmethod
    def visit_extension(self, r: Extension) -> T: ...


class SomeRecordsVisitor(RecordVisitor[T]):
    """A visitor that names only the record types it treats apart (python-chess's BaseVisitor: a
    method it does not override does nothing): a type it does not name gives :meth:`otherwise`. The
    knowledge a record gives an observer and the validator (most types teach nothing), the clue-log/1
    writer (a type whose fields declare what they hold is written from them) and the notation writer
    (a type it has no words for cannot be written) are such visitors, so a new record type touches
    none of them unless it asks for more."""

    @abc.abstractmethod
    def otherwise(self, r: Event) -> T:
        """What a record type the visitor does not name gives."""

    def visit_deal(self, r: Deal) -> T:
        return self.otherwise(r)

    def visit_room_cards(self, r: RoomCards) -> T:
        return self.otherwise(r)

    def visit_turn(self, r: Turn) -> T:
        return self.otherwise(r)

    def visit_move(self, r: Move) -> T:
        return self.otherwise(r)

    def visit_peek(self, r: Peek) -> T:
        return self.otherwise(r)

    def visit_suggest(self, r: Suggest) -> T:
        return self.otherwise(r)

    def visit_reveal(self, r: Reveal) -> T:
        return self.otherwise(r)

    def visit_clue_card(self, r: ClueCard) -> T:
        return self.otherwise(r)

    def visit_accuse(self, r: Accuse) -> T:
        return self.otherwise(r)

    def visit_statement(self, r: Statement) -> T:
        return self.otherwise(r)

    def visit_end(self, r: End) -> T:
        return self.otherwise(r)

    def visit_extension(self, r: Extension) -> T:
        return self.otherwise(r)


def visitor_method(record_type: type[Record]) -> str:
    """The name of the visitor's method for a record type: ``visit_`` and its name (``visit_room_cards``)."""
    return "visit_" + record_type.type


# the dispatch: a record's exact type to its method's name (one look-up a record, no isinstance chain)
_DISPATCH: dict[type[Record], str] = {t: visitor_method(t) for t in RECORD_TYPES}


def visit(record: Event, visitor: RecordVisitor[T]) -> T:
    """The visitor's method for the record's type, called with the record."""
    name = _DISPATCH.get(type(record))
    if name is None:  # the program's own failure: only records are walked
        raise TypeError(f"not a record the walk knows: {type(record).__name__}")
    method: Callable[[Event], T] = getattr(visitor, name)
    return method(record)


def walk(records: Iterable[Event], visitor: RecordVisitor[T]) -> list[T]:
    """Every record visited in order: what the visitor's methods return."""
    return [visit(r, visitor) for r in records]


@dataclass
class Game:
    """A game as logged: the resolved header and its records (``records[i].seq == i + 1``)."""

    edition: Edition | None  # None for a custom deck
    deck: Deck
    variant: Variant
    flags: dict[str, Any]
    players: tuple[Player, ...]
    hand_sizes: tuple[int, ...]
    records: list[Event] = field(default_factory=list)
    declared_id: str | None = None
    rules: dict[str, Any] = field(default_factory=dict)  # the log's own overrides, as written
    perspective: str | None = None
    source: str | None = None
    played_at: str | None = None
    place: str | None = None
    header_line: int | None = None
    header_extra: dict[str, Any] = field(default_factory=dict)
    game_id: str = ""  # the declared id, else the content hash (set by the reader)
    content_sha256: str = ""
    # the records in canonical JSON, the game record first (set by the reader, which hashes them for
    # content_sha256; the store keeps them as the events' payloads): written once a game
    canonical_json: list[str] = field(default_factory=list, repr=False, compare=False)

    @property
    def edition_id(self) -> str:
        return self.edition.id if self.edition is not None else "custom"

    @functools.cached_property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def room_card_count(self) -> int:
        return self.variant.room_cards

    def seat(self, name: str) -> int:
        return self.names.index(name)

    def hands(self) -> dict[str, frozenset[str]]:
        """The hands the log states (``deal`` records), by player. Read once for the records as
        they stand (the analysis asks at every suggestion: a game of 100,000 records would be read
        100,000 times), again when the records change (a reader appends them, a list replaces them)."""
        key = (id(self.records), len(self.records))
        cached = self.__dict__.get("_hands")
        if cached is None or cached[0] != key:
            cached = (key, {r.player: frozenset(r.cards) for r in self.records if isinstance(r, Deal)})
            self.__dict__["_hands"] = cached
        return dict(cached[1])

    def turns(self) -> list[int | None]:
        """The turn of each record, by seq (index 0 is the game record: None), counted from 1; None
        before the first turn (the deal). A ``turn`` record starts a turn; in a log without them a
        player's suggestion, accusation, move or peek starts one when another player acted last, or
        when they suggest a second time. Read once for the records as they stand (as :meth:`hands`)."""
        key = (id(self.records), len(self.records))
        cached = self.__dict__.get("_turns")
        if cached is None or cached[0] != key:
            cached = (key, _turns(self.records))
            self.__dict__["_turns"] = cached
        return list(cached[1])

    def where(self, seq: int) -> Said:
        """A record as the people who typed the file know it, as a phrase of a problem's message (its
        ``str()`` the English one stored): "line 14 (turn 3)", "line 2" before the first turn, and
        "record 14 (no line of the file known)" for a record read from no file."""
        record = self.records[seq - 1] if 1 <= seq <= len(self.records) else None
        line = self.header_line if seq == 0 else record.line if record is not None else None
        if line is None:
            return T_("record {seq} (no line of the file known)", seq=seq)
        turns = self.turns()
        turn = turns[seq] if 0 <= seq < len(turns) else None
        return T_("line {line}", line=line) if turn is None else T_("line {line} (turn {turn})", line=line, turn=turn)

    def end(self) -> End | None:
        """The end record: the first (a record after it, another end too, is after_end)."""
        return next((r for r in self.records if isinstance(r, End)), None)

    def solution(self) -> tuple[str, str, str] | None:
        """The solution if the log knows it: from ``end``, else from a correct accusation."""
        end = self.end()
        if end is not None and end.solution is not None:
            return end.solution
        for r in self.records:
            if isinstance(r, Accuse) and r.correct:
                return r.cards
        return None

    def winner(self) -> str | None:
        end = self.end()
        if end is not None:
            return end.winner
        return next((r.player for r in self.records if isinstance(r, Accuse) and r.correct), None)


def _turns(records: list[Event]) -> tuple[int | None, ...]:
    has_turns = any(isinstance(r, Turn) for r in records)
    turn, current, suggested = 0, None, False
    out: list[int | None] = [None]
    for r in records:
        if isinstance(r, Turn):
            turn, current, suggested = turn + 1, r.player, False
        elif not has_turns and isinstance(r, (Suggest, Accuse, Move, Peek)):
            if r.player != current or (isinstance(r, Suggest) and suggested):
                turn, current, suggested = turn + 1, r.player, False
            suggested = suggested or isinstance(r, Suggest)
        out.append(turn or None)
    return tuple(out)
