"""clue-log/1: reading (bytes -> RawGame -> Game) and writing (Game -> JSON Lines).

Reading is in named stages (ingest/raw.py says what passes between them):

1. :func:`iter_raw_games` splits a file into games, line by line, with a bounded line length (a
   line of 50 MB is reported, never held), decoding each line on its own so one bad line spoils only
   its own game;
2. :func:`build_game` checks one game's records against the format (types, fields, names) and
   resolves every name to an id, collecting every problem with its record's seq and line.

The rules of the game are checked later, by :func:`engine.rules.validate`.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import io
import json
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import MISSING, Field
from datetime import datetime
from typing import Any, BinaryIO

from clue_stats.engine import editions as ed
from clue_stats.engine.editions import Deck, UnknownName
from clue_stats.engine.errors import said_of
from clue_stats.engine.game import (
    ALL,
    CARD,
    CARDS,
    PLAYER,
    RECORD_TYPES,
    TEXT,
    UNSEEN,
    End,
    Event,
    Extension,
    Game,
    Move,
    Peek,
    Player,
    Response,
    Reveal,
    RoomCards,
    SomeRecordsVisitor,
    Statement,
    Suggest,
    Turn,
    declared_fields,
    visit,
)
from clue_stats.engine.markers import T_, Said
from clue_stats.engine.problems import Problem, cut, listed, quoted
from clue_stats.ingest import strict_json
from clue_stats.ingest.raw import RawGame, ReadResult

FORMAT = "clue-log/1"
MAX_LINE_BYTES = 1 << 20  # 1 MiB: far beyond any real record; longer lines are reported, not kept
RAW_KEEP_BYTES = 1 << 20  # rejected games keep their first MiB of text

COMMON_FIELDS = {"type", "t", "note"}
RESPONSE_FIELDS = {"player", "shows"}  # a response of a suggestion's
FIELDS: dict[str, tuple[set[str], set[str]]] = {  # type -> (required, optional)
    "game": (
        {"format", "edition", "players"},
        {"id", "deck", "variant", "rules", "perspective", "source", "played_at", "place"},
    ),
    "room_cards": ({"rooms"}, {"cards"}),
    "turn": ({"player"}, {"roll"}),
    "move": ({"player", "to"}, {"via", "path"}),
    "peek": ({"player", "room", "card"}, set()),
    "suggest": ({"player", "suspect", "weapon", "room", "responses"}, set()),
    "reveal": ({"player", "card", "to"}, {"cause"}),
    "statement": ({"player"}, {"not_in_envelope", "holds", "lacks", "solution", "remaining"}),
    "end": ({"winner", "solution"}, set()),
}
# the record types whose fields all declare what they hold are read and written from that alone
DECLARED = {t.type: (t, fields) for t in RECORD_TYPES if (fields := declared_fields(t)) is not None}
FIELDS.update(
    {
        kind: (
            {f.name for f in fields if f.default is MISSING},
            {f.name for f in fields if f.default is not MISSING},
        )
        for kind, (_, fields) in DECLARED.items()
    }
)
# per type, the keys that are never among a record's extra fields (t, note, x-...)
PLAIN_FIELDS = {kind: {"type", *required, *optional} for kind, (required, optional) in FIELDS.items()}
PLAYER_FIELDS = {"name", "character", "hand_size", "strategy"}
_BAD: Any = object()  # a declared field's value that has a problem (said)


# ---------------------------------------------------------------- stage 1: lines into games


GZIP_MAGIC = b"\x1f\x8b"
ZIP_MAGIC = b"PK\x03\x04"


UTF16_WITHOUT_MARK = "UTF-16 without a byte order mark, it seems (every other byte is 0): save it as UTF-8"


def looks_utf16(data: bytes) -> bool:
    """Text of UTF-16 without its byte order mark: zero bytes, which UTF-8 text never has, between
    most characters (ASCII in UTF-16 is even valid UTF-8, so decoding alone does not tell)."""
    sample = data[:4096]
    return sample.count(b"\x00") * 3 > len(sample)


def not_utf8(data: bytes, start: int, where: str) -> str:
    """Why bytes are not UTF-8, in words: what the file looks like instead, where it can be told."""
    if data.startswith(GZIP_MAGIC):
        return "a gzip-compressed file, not text: name it .jsonl.gz or .clue.gz to have it read, or gunzip it"
    if data.startswith(ZIP_MAGIC):
        return "a zip archive, not text: name it .zip to have its games read, or unpack it"
    if looks_utf16(data):
        return UTF16_WITHOUT_MARK
    bad = data[start]
    if bad == 0xED and 0xA0 <= data[start + 1 : start + 2][:1].ljust(1, b"\0")[0] <= 0xBF:
        # what a UTF-16 file's lone half of a surrogate pair becomes (read as UTF-8, surrogatepass)
        return f"half of a UTF-16 surrogate pair (a character cut in two) at byte {start + 1} of the {where}"
    guess = bytes([bad]).decode("cp1252", errors="replace")
    return (
        f"not UTF-8 (byte {start + 1} of the {where}, 0x{bad:02X}, which is {guess!r} in Latin-1 / Windows-1252: "
        "save the file as UTF-8)"
    )


def long_line(number: int, size: int) -> Problem:
    return Problem.of(
        "line_too_long",
        T_(
            "line of {size} bytes is longer than the limit of {max_line_bytes}",
            size=format(size, ","),
            max_line_bytes=format(MAX_LINE_BYTES, ","),
        ),
        line=number,
    )


READ_BLOCK = 1 << 16  # bytes read from the stream at a time
# whole lines holding nothing but white space, up to the last line end of the run: one character class,
# so the match keeps no state per line (a repeated group would: 150 bytes a line)
_BLANK_RUN = re.compile(rb"[ \t\r\n]*\n")


def read_lines(stream: BinaryIO, skip_blank: bool = False) -> Iterator[tuple[int, bytes | None, int]]:
    """(line number, bytes or None when too long, length) for every line, in bounded memory: at most
    MAX_LINE_BYTES and a block are held, whatever the stream. ``skip_blank``: a run of lines of white
    space only is passed over at the speed of a regular expression, as one item (the number of its
    last line, ``b""``, its bytes): a file of millions of blank lines costs no object per line."""
    number = 0
    buf = b""
    pos = 0
    eof = False
    while True:
        if skip_blank:
            blank = _BLANK_RUN.match(buf, pos)
            if blank is not None:
                number += buf.count(b"\n", pos, blank.end())
                yield number, b"", blank.end() - pos
                pos = blank.end()
        end = buf.find(b"\n", pos)
        if end >= 0:
            if end - pos > MAX_LINE_BYTES:  # found whole in the buffer, but past the limit
                number += 1
                yield number, None, end + 1 - pos
            else:
                number += 1
                yield number, buf[pos : end + 1], end + 1 - pos
            pos = end + 1
            continue
        if len(buf) - pos > MAX_LINE_BYTES:  # a line past the limit: skipped without being held
            number += 1
            size = len(buf) - pos
            buf, pos = b"", 0
            while True:
                block = stream.read(READ_BLOCK)
                if not block:
                    eof = True
                    break
                end = block.find(b"\n")
                if end >= 0:
                    size += end + 1
                    buf = block[end + 1 :]
                    break
                size += len(block)
            yield number, None, size
            continue
        if eof:
            if pos < len(buf):
                number += 1
                yield number, buf[pos:], len(buf) - pos
            return
        # more of the stream: at least as much as the buffer holds, so a long line costs linear time
        block = stream.read(max(READ_BLOCK, len(buf) - pos))
        if not block:
            eof = True
        buf, pos = buf[pos:] + block, 0


def record_of(text: str, line: int) -> tuple[dict[str, Any] | None, Problem | None]:
    """A line's record (its JSON object), or the problem that it holds none."""
    try:
        record = strict_json.loads(text.rstrip("\r\n"))  # a column within the line
    except strict_json.RefusedJson as exc:
        message = exc.message
        if "\r" in text.rstrip("\r\n"):  # lines ended by CR alone: one line to this reader
            message += " (the file's lines end in CR alone, as on old Macs: save it with LF line ends)"
        return None, Problem(exc.code, message, line=line, column=exc.column)
    if not isinstance(record, dict):
        return None, Problem.of(
            "bad_json", T_("a record is a JSON object, not {name}", name=type(record).__name__), line=line
        )
    return record, None


def iter_raw_games(stream: BinaryIO, source_file: str | None, defer: bool = False) -> Iterator[RawGame | Problem]:
    """Split a clue-log/1 byte stream into games; file-level problems are yielded as they come.
    ``defer``: a line that cannot be a game record (no ``"game"`` in it, and no ``\\u`` escape
    that could spell it) is kept as text, its JSON read when the game is built (RawGame.defer):
    ingest reads files in one process and builds games in its workers, so the parsing is shared out."""
    current: RawGame | None = None
    orphan: RawGame | None = None  # records before any game record
    text_size = 0
    seen_any = False
    # each game's text in pieces, joined once the game is complete: adding to a string held by an
    # object copies it every time (a game of 100,000 lines would copy its first MiB 100,000 times)
    pieces: dict[int, list[str]] = {}

    def finish(raw: RawGame | None) -> Iterator[RawGame]:
        if raw is not None:
            raw.text = "".join(pieces.pop(id(raw), []))
            yield raw

    for number, data, size in read_lines(stream, skip_blank=True):
        if number == 1 and data is not None and data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        if data is not None and not data.strip():
            continue
        seen_any = True
        problem: Problem | None = None
        record: dict[str, Any] | None = None
        later = False  # read when the game is built
        text = ""
        if data is None:
            problem = long_line(number, size)
            text = f"<line {number}: {size} bytes, not kept>\n"
        else:
            try:
                if number == 1 and looks_utf16(data):  # not this reader's text at all: one problem
                    yield Problem("encoding", UTF16_WITHOUT_MARK, line=1)
                    return
                text = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                problem = Problem("encoding", not_utf8(data, exc.start, "line"), line=number)
                if number == 1 and data.startswith((GZIP_MAGIC, ZIP_MAGIC)):  # not text at all: one problem
                    yield problem
                    return
                text = data.decode("utf-8", errors="replace")
            else:
                # the game's text keeps the line whole (RawGame.defer reads it there)
                later = (
                    defer and text_size + len(text) + 1 <= RAW_KEEP_BYTES and '"game"' not in text and "\\u" not in text
                )
                if not later:
                    record, problem = record_of(text, number)
            if not text.endswith("\n"):
                text += "\n"
        is_header = record is not None and record.get("type") == "game"
        if is_header:
            yield from finish(orphan)
            orphan = None
            yield from finish(current)
            current = RawGame(records=[], lines=[], text="", source_file=source_file)
            text_size = 0
        target = current
        if target is None:
            if orphan is None:
                orphan = RawGame(records=[], lines=[], text="", source_file=source_file)
                orphan.problems.append(Problem.of("no_game", T_("records before the first game record"), line=number))
            target = orphan
        if text_size < RAW_KEEP_BYTES:
            pieces.setdefault(id(target), []).append(text[: RAW_KEEP_BYTES - text_size])
        text_size += len(text)
        if problem is not None:
            # keep the record's place so that seq numbers stay those of the file
            target.problems.append(dataclasses.replace(problem, seq=len(target.records)))
            target.keep_place(number)
        elif later:
            target.defer(number, text_size - len(text), text_size)
        else:
            target.records.append(record)  # type: ignore[arg-type]
            target.lines.append(number)
    yield from finish(orphan)
    yield from finish(current)
    if not seen_any:
        yield Problem.of("empty_file", T_("the file holds no records"), line=1)


def read_text(text: str, source_file: str | None = None) -> ReadResult:
    """Read clue-log/1 from a string (tests, converters)."""
    return read_stream(io.BytesIO(text.encode("utf-8")), source_file)


def read_stream(stream: BinaryIO, source_file: str | None = None) -> ReadResult:
    result = ReadResult()
    for item in iter_raw_games(stream, source_file):
        if isinstance(item, RawGame):
            result.games.append(item)
        else:
            result.problems.append(item.located(source_file))
    return result


# ---------------------------------------------------------------- stage 2: records into a Game


class _Builder:
    """Checks one RawGame's records against the format and resolves names."""

    def __init__(self, raw: RawGame):
        self.raw = raw
        self.problems: list[Problem] = []
        self.deck: Deck | None = None
        self.names: dict[str, str] = {}  # slug -> player name
        self.named: dict[str, str] = {}  # a name as a record wrote it -> the player it names (read once)

    def problem(self, code: str, message: str | Said, seq: int) -> None:
        self.problems.append(
            Problem.of(code, message, seq=seq, line=self.raw.lines[seq] if seq < len(self.raw.lines) else None)
        )

    # -- values

    def text(self, record: dict[str, Any], key: str, seq: int, optional: bool = False) -> str | None:
        value = record.get(key)
        if value is None and optional:
            return None
        if not isinstance(value, str) or not value.strip():
            self.problem(
                "bad_value",
                T_(
                    "{get}.{key} must be a non-empty string, not {dumps}",
                    get=record.get("type"),
                    key=key,
                    dumps=json.dumps(value)[:60],
                ),
                seq,
            )
            return None
        return value

    def player(self, value: Any, seq: int, where: str) -> str | None:
        known = self.named.get(value) if isinstance(value, str) else None
        if known is not None:
            return known
        if not isinstance(value, str):
            self.problem(
                "bad_value",
                T_("{where} must be a player's name, not {dumps}", where=where, dumps=json.dumps(value)[:60]),
                seq,
            )
            return None
        name = clean_name(value)
        match = name if name in self.names.values() else self.names.get(ed.slug(name))
        if match is not None:
            self.named[value] = match
            return match

        # compared as far as a message shows them: a name of 170 KB costs no more than one of 60 characters
        shown = {cut(n): n for n in self.names.values()}
        close = difflib.get_close_matches(cut(name), list(shown), n=1, cutoff=0.5)
        hint: str | Said = T_(" (did you mean {name}?)", name=quoted(shown[close[0]])) if close else ""
        self.problem(
            "unknown_player",
            T_(
                "{where}: unknown player {name}{hint}; the players are {values}",
                where=where,
                name=quoted(name),
                hint=hint,
                values=listed(self.names.values()),
            ),
            seq,
        )
        return None

    def card(self, value: Any, seq: int, where: str, category: str | None = None, unseen: bool = False) -> str | None:
        if unseen and value == UNSEEN:
            return UNSEEN
        if not isinstance(value, str):
            self.problem(
                "bad_value",
                T_("{where} must be a card's name, not {dumps}", where=where, dumps=json.dumps(value)[:60]),
                seq,
            )
            return None
        assert self.deck is not None
        try:
            return self.deck.resolve(value, category)
        except UnknownName as exc:
            self.problem("unknown_card", T_("{where}: {error}", where=where, error=said_of(exc)), seq)
            return None

    def triple(self, record: dict[str, Any], seq: int) -> tuple[str, str, str] | None:
        kind = record["type"]
        cards = [
            self.card(record.get(f), seq, f"{kind}.{f}", ed.CATEGORY_OF_FIELD[f]) for f in ("suspect", "weapon", "room")
        ]
        return None if None in cards else (cards[0], cards[1], cards[2])  # type: ignore[return-value]

    # -- the fields of a record

    def check_fields(self, record: dict[str, Any], seq: int) -> bool:
        kind = record.get("type")
        if not isinstance(kind, str):
            self.problem("missing_field", T_("a record without a type"), seq)
            return False
        if kind.startswith("x-"):
            return True
        if kind not in FIELDS:
            self.problem("unknown_type", T_("unknown record type {kind}", kind=repr(kind)), seq)
            return False
        required, optional = FIELDS[kind]
        ok = True
        for key in sorted(required - record.keys()):
            self.problem("missing_field", T_("{kind} record without {key}", kind=kind, key=repr(key)), seq)
            ok = False
        for key in sorted(record.keys() - required - optional - COMMON_FIELDS):
            if not key.startswith("x-"):
                self.problem(
                    "unknown_field", T_("{kind} record has unknown field {key}", kind=kind, key=repr(key)), seq
                )
                ok = False
        for key in ("t", "note"):
            if key in record and not isinstance(record[key], str):
                self.problem("bad_value", T_("{kind}.{key} must be a string", kind=kind, key=key), seq)
        return ok

    @staticmethod
    def extra(record: dict[str, Any]) -> dict[str, Any]:
        """The record's ``t``, ``note`` and ``x-`` fields, in its order."""
        if not record.keys() - PLAIN_FIELDS.get(record["type"], {"type"}):  # most records have none
            return {}
        return {k: v for k, v in record.items() if k in ("t", "note") or k.startswith("x-")}

    # -- the game record

    def header(self, record: dict[str, Any]) -> Game | None:
        self.check_fields(record, 0)
        if record.get("format") != FORMAT:
            self.problem(
                "unknown_format",
                T_(
                    "format {get} is not known to this reader (it reads {format})",
                    get=repr(record.get("format")),
                    format=repr(FORMAT),
                ),
                0,
            )
            return None
        edition_name = record.get("edition")
        edition = None
        if edition_name == "custom":
            deck_spec = record.get("deck")
            deck = self.custom_deck(deck_spec)
            if deck is None:
                return None
        elif isinstance(edition_name, str):
            try:
                edition = ed.edition(edition_name)
            except UnknownName as exc:
                self.problem(
                    "unknown_edition",
                    T_("{error}; known: {editions} or 'custom'", error=said_of(exc), editions=", ".join(ed.editions())),
                    0,
                )
                return None
            deck = edition.deck
            if "deck" in record:
                self.problem("bad_deck", T_("a deck is declared only with edition 'custom'"), 0)
        else:
            self.problem("bad_value", T_("game.edition must be an edition id or 'custom'"), 0)
            return None
        self.deck = deck
        variant_name = record.get("variant", "standard")
        try:
            variant = ed.variant(str(variant_name))
        except UnknownName as exc:
            self.problem(
                "unknown_variant",
                T_("{error}; known: {variants}", error=said_of(exc), variants=", ".join(ed.variants())),
                0,
            )
            return None
        if edition is not None and not variant.any_edition and variant.id not in edition.variants:
            self.problem(
                "unknown_variant",
                T_(
                    "variant {id} is not played with {id2} (it has {variants})",
                    id=repr(variant.id),
                    id2=edition.id,
                    variants=", ".join(edition.variants),
                ),
                0,
            )
            return None
        rules = record.get("rules") or {}
        if not isinstance(rules, dict):
            self.problem("bad_value", T_("game.rules must be an object of rule flags"), 0)
            rules = {}
        for flag, value in list(rules.items()):
            if flag not in ed.FLAG_DEFAULTS:
                self.problem("bad_value", T_("unknown rule flag {flag}", flag=repr(flag)), 0)
                del rules[flag]
            elif type(value) is not type(ed.FLAG_DEFAULTS[flag]) or (
                flag in ed.FLAG_CHOICES and value not in ed.FLAG_CHOICES[flag]
            ):
                self.problem(
                    "bad_value", T_("rule flag {flag} cannot be {dumps}", flag=repr(flag), dumps=json.dumps(value)), 0
                )
                del rules[flag]
        players = self.players(record.get("players"), variant)
        if players is None:
            return None
        sizes = self.hand_sizes(players, deck, variant)
        perspective = record.get("perspective")
        if perspective is not None:
            perspective = self.player(perspective, 0, "game.perspective")
        text_fields = {}
        for key in ("source", "played_at", "place", "id"):
            value = record.get(key)
            if value is not None and not isinstance(value, str):
                self.problem("bad_value", T_("game.{key} must be a string", key=key), 0)
                value = None
            elif key == "played_at" and value is not None and (why := date_problem(value)) is not None:
                self.problem("bad_value", T_("game.played_at {dumps} {why}", dumps=json.dumps(value[:40]), why=why), 0)
                value = None
            text_fields[key] = value
        return Game(
            edition=edition,
            deck=deck,
            variant=variant,
            flags=ed.resolve_flags(edition, variant, rules),
            players=players,
            hand_sizes=sizes,
            declared_id=text_fields["id"],
            rules=rules,
            perspective=perspective,
            source=text_fields["source"],
            played_at=text_fields["played_at"],
            place=text_fields["place"],
            header_line=self.raw.lines[0] if self.raw.lines else None,
            header_extra=self.extra(record),
        )

    def custom_deck(self, spec: Any) -> Deck | None:
        if not isinstance(spec, dict) or any(
            not isinstance(spec.get(c), list) or not spec.get(c) for c in ed.CATEGORIES
        ):
            self.problem(
                "bad_deck",
                T_(
                    'edition \'custom\' needs a deck: {{"suspects": [...], "weapons": [...], "rooms": [...]}}, none empty'
                ),
                0,
            )
            return None
        names = [n for c in ed.CATEGORIES for n in spec[c]]
        if any(not isinstance(n, str) or not ed.slug(n) for n in names):
            self.problem("bad_deck", T_("every card of a custom deck needs a name with a letter or digit"), 0)
            return None
        twice = sorted(i for i, n in Counter(ed.slug(n) for n in names).items() if n > 1)
        if twice:
            self.problem("bad_deck", T_("the custom deck names a card twice: {twice}", twice=listed(twice)), 0)
            return None
        return Deck.custom(spec["suspects"], spec["weapons"], spec["rooms"])

    def players(self, spec: Any, variant: ed.Variant) -> tuple[Player, ...] | None:
        if not isinstance(spec, list) or not all(isinstance(p, dict) for p in spec):
            self.problem("bad_players", T_("game.players must be a list of player objects"), 0)
            return None
        if not variant.min_players <= len(spec) <= variant.max_players:
            self.problem(
                "bad_players",
                T_(
                    "{n_spec} players; the {id} variant has {min_players} to {max_players}",
                    n_spec=len(spec),
                    id=variant.id,
                    min_players=variant.min_players,
                    max_players=variant.max_players,
                ),
                0,
            )
            return None
        players = []
        assert self.deck is not None
        for i, p in enumerate(spec):
            for key in sorted(p.keys() - PLAYER_FIELDS):
                if not key.startswith("x-"):
                    self.problem(
                        "unknown_field", T_("player {value} has unknown field {key}", value=i + 1, key=repr(key)), 0
                    )
            name = p.get("name")
            if isinstance(name, str):
                name = clean_name(name)
            if not isinstance(name, str) or not name.strip():
                self.problem("bad_players", T_("player {value} has no name", value=i + 1), 0)
                return None
            character = p.get("character")
            if character is not None:
                character = self.card(character, 0, f"the character of {name}", "suspects")
            size = p.get("hand_size")
            if size is not None and (type(size) is not int or size < 0):
                self.problem("bad_value", T_("the hand_size of {name} must be a whole number", name=name), 0)
                size = None
            strategy = p.get("strategy")
            players.append(
                Player(
                    name=name,
                    character=character,
                    hand_size=size,
                    strategy=strategy if isinstance(strategy, str) else None,
                )
            )
        names = [p.name for p in players]
        if len(set(names)) != len(names) or len({ed.slug(n) for n in names}) != len(names):
            self.problem("bad_players", T_("two players share a name: {names}", names=listed(names)), 0)
            return None
        characters = [p.character for p in players if p.character]
        if len(set(characters)) != len(characters):
            self.problem("bad_players", T_("two players play the same character"), 0)
        self.names = {ed.slug(n): n for n in names}
        return tuple(players)

    def hand_sizes(self, players: tuple[Player, ...], deck: Deck, variant: ed.Variant) -> tuple[int, ...]:
        dealt = ed.dealt_hand_sizes(len(deck.cards), len(players), variant.room_cards)
        sizes = tuple(p.hand_size if p.hand_size is not None else d for p, d in zip(players, dealt))
        if sum(sizes) != sum(dealt):
            self.problem(
                "hand_size",
                T_(
                    "the hand sizes add up to {sum}, but {sum2} cards are dealt ({zip})",
                    sum=sum(sizes),
                    sum2=sum(dealt),
                    zip="; ".join(f"{p.name} {s}" for p, s in zip(players, sizes)),
                ),
                0,
            )
        return sizes

    # -- the other records

    def record(self, record: dict[str, Any], seq: int) -> Event | None:
        if not self.check_fields(record, seq):
            return None
        kind = record["type"]
        extra = self.extra(record)
        base: dict[str, Any] = {"seq": seq, "line": self.raw.lines[seq], "extra": extra}
        if kind.startswith("x-"):
            return Extension(kind=kind, raw={k: v for k, v in record.items() if k not in ("t", "note")}, **base)
        if kind in DECLARED:
            return self.declared(record, seq, base)
        method: Callable[[dict[str, Any], int, dict[str, Any]], Event | None] = getattr(self, "r_" + kind)
        return method(record, seq, base)

    def declared(self, record: dict[str, Any], seq: int, base: dict[str, Any]) -> Event | None:
        """A record of a type whose fields declare what they hold (engine.game.holds), read and
        checked field by field: every field's problem said, the record made when there is none."""
        record_type, fields = DECLARED[record["type"]]
        values = {f.name: self.value(record, f, seq) for f in fields if f.name in record}  # else its default
        if any(v is _BAD for v in values.values()):
            return None
        return record_type(**values, **base)

    def value(self, record: dict[str, Any], f: Field[Any], seq: int) -> Any:
        """A declared field's value as the record type holds it, or _BAD with its problem said (an
        optional field given as null is its default, None)."""
        kind, category = f.metadata["holds"], f.metadata["category"]
        value, where = record[f.name], f"{record['type']}.{f.name}"
        if value is None and f.default is None:
            return None
        found: Any
        if kind == PLAYER:
            found = self.player(value, seq, where)
        elif kind == CARD:
            found = self.card(value, seq, where, category)
        elif kind == TEXT:
            found = self.text(record, f.name, seq)
        elif kind == CARDS:
            if not isinstance(value, list):
                self.problem("bad_value", T_("{where} must be a list of cards", where=where), seq)
                return _BAD
            cards = [self.card(c, seq, where, category) for c in value]
            found = None if None in cards else tuple(cards)
        elif isinstance(value, bool):  # a FLAG
            found = value
        else:
            self.problem("bad_value", T_("{where} must be true or false", where=where), seq)
            return _BAD
        return _BAD if found is None else found

    def r_game(
        self, record: dict[str, Any], seq: int, base: dict[str, Any]
    ) -> None:  # pragma: no cover - split earlier
        return None

    def r_room_cards(self, record: dict[str, Any], seq: int, base: dict[str, Any]) -> RoomCards | None:
        rooms = record["rooms"]
        if not isinstance(rooms, list):
            self.problem("bad_value", T_("room_cards.rooms must be a list of rooms"), seq)
            return None
        ids = [self.card(r, seq, "room_cards.rooms", "rooms") for r in rooms]
        cards = record.get("cards")
        resolved: dict[str, str] | None = None
        if cards is not None:
            if not isinstance(cards, dict):
                self.problem("bad_value", T_("room_cards.cards must be an object {{room: card}}"), seq)
                return None
            resolved = {}
            for room, card in cards.items():
                r, c = self.card(room, seq, "room_cards.cards", "rooms"), self.card(card, seq, "room_cards.cards")
                if r is not None and c is not None:
                    resolved[r] = c
        if None in ids:
            return None
        return RoomCards(rooms=tuple(ids), cards=resolved, **base)  # type: ignore[arg-type]

    def r_turn(self, record: dict[str, Any], seq: int, base: dict[str, Any]) -> Turn | None:
        player = self.player(record["player"], seq, "turn.player")
        roll = record.get("roll")
        if roll is not None:
            if not isinstance(roll, list) or not all((type(d) is int) or d == UNSEEN for d in roll):
                self.problem(
                    "bad_roll",
                    T_(
                        "turn.roll must be a list of dice (numbers, or '?' for a magnifier), not {dumps}",
                        dumps=json.dumps(roll)[:60],
                    ),
                    seq,
                )
                return None
            roll = tuple(roll)
        return None if player is None else Turn(player=player, roll=roll, **base)

    def r_move(self, record: dict[str, Any], seq: int, base: dict[str, Any]) -> Move | None:
        player = self.player(record["player"], seq, "move.player")
        to = record["to"]
        if isinstance(to, list):
            if len(to) != 2 or not all(type(x) is int for x in to):
                self.problem("bad_value", T_("move.to must be a room or a square [row, col]"), seq)
                return None
            to = (to[0], to[1])
        else:
            to = self.card(to, seq, "move.to", "rooms")
        via = record.get("via")
        if via is not None and via not in ("walk", "passage", "stay"):
            self.problem(
                "bad_value", T_("move.via must be walk, passage or stay, not {dumps}", dumps=json.dumps(via)[:40]), seq
            )
            return None
        path = record.get("path")
        if path is not None:
            if not isinstance(path, list) or not all(
                isinstance(s, list) and len(s) == 2 and all(type(x) is int for x in s) for s in path
            ):
                self.problem("bad_value", T_("move.path must be a list of squares [row, col]"), seq)
                return None
            path = tuple((s[0], s[1]) for s in path)
        if player is None or to is None:
            return None
        return Move(player=player, to=to, via=via, path=path, **base)

    def r_peek(self, record: dict[str, Any], seq: int, base: dict[str, Any]) -> Peek | None:
        player = self.player(record["player"], seq, "peek.player")
        room = self.card(record["room"], seq, "peek.room", "rooms")
        card = record["card"]
        if card is not None and card != UNSEEN:
            card = self.card(card, seq, "peek.card")
            if card is None:
                return None
        else:
            card = None
        if player is None or room is None:
            return None
        return Peek(player=player, room=room, card=card, **base)

    def r_suggest(self, record: dict[str, Any], seq: int, base: dict[str, Any]) -> Suggest | None:
        player = self.player(record["player"], seq, "suggest.player")
        cards = self.triple(record, seq)
        responses = record["responses"]
        if not isinstance(responses, list) or not all(isinstance(r, dict) for r in responses):
            self.problem("bad_value", T_("suggest.responses must be a list of {{player, shows}}"), seq)
            return None
        parsed = []
        ok = True
        for i, r in enumerate(responses):
            if r.keys() != RESPONSE_FIELDS:  # more than its player and what they show, or other fields
                for key in sorted(r.keys() - RESPONSE_FIELDS):
                    if not key.startswith("x-"):
                        self.problem(
                            "unknown_field",
                            T_("response {value} has unknown field {key}", value=i + 1, key=repr(key)),
                            seq,
                        )
            if "player" not in r or "shows" not in r:
                self.problem(
                    "missing_field",
                    T_("response {value} needs 'player' and 'shows' (null for a pass)", value=i + 1),
                    seq,
                )
                ok = False
                continue
            who = self.player(r["player"], seq, f"response {i + 1}")
            shows = r["shows"]
            if shows is not None:
                shows = self.card(shows, seq, f"the card {r['player']} shows", unseen=True)
                if shows is None:
                    ok = False
            if who is None:
                ok = False
            parsed.append(Response(player=who or "", shows=shows))
        if player is None or cards is None or not ok:
            return None
        return Suggest(player=player, suspect=cards[0], weapon=cards[1], room=cards[2], responses=tuple(parsed), **base)

    def r_reveal(self, record: dict[str, Any], seq: int, base: dict[str, Any]) -> Reveal | None:
        owner = record["player"]
        if owner is not None:
            owner = self.player(owner, seq, "reveal.player")
            if owner is None:
                return None
        to = record["to"]
        if to == ALL:
            audience: tuple[str, ...] | str = ALL
        elif isinstance(to, list):
            names = [self.player(n, seq, "reveal.to") for n in to]
            if None in names:
                return None
            audience = tuple(names)  # type: ignore[arg-type]
        else:
            self.problem("bad_value", T_('reveal.to must be a list of players or "all"'), seq)
            return None
        card = self.card(record["card"], seq, "reveal.card", unseen=True)
        if card == UNSEEN and audience == ALL:
            self.problem("bad_value", T_("a card revealed to all cannot be '?'"), seq)
            return None
        cause = record.get("cause")
        if card is None:
            return None
        return Reveal(player=owner, card=card, to=audience, cause=cause if isinstance(cause, str) else None, **base)

    def r_statement(self, record: dict[str, Any], seq: int, base: dict[str, Any]) -> Statement | None:
        player = self.player(record["player"], seq, "statement.player")
        claims = [k for k in ("not_in_envelope", "holds", "lacks", "solution", "remaining") if k in record]
        if not claims:
            self.problem(
                "missing_field",
                T_("a statement says nothing: give not_in_envelope, holds, lacks, solution or remaining"),
                seq,
            )
            return None
        ok = player is not None
        cards: list[str] = []
        if "not_in_envelope" in record:
            cards, good = self.card_list(record["not_in_envelope"], seq, "statement.not_in_envelope")
            ok &= good
        pairs: dict[str, list[tuple[str, str]]] = {"holds": [], "lacks": []}
        for key in pairs:
            if key not in record:
                continue
            value = record[key]
            if not isinstance(value, dict):
                self.problem("bad_value", T_("statement.{key} must be {{player: [cards]}}", key=key), seq)
                ok = False
                continue
            for name, cards_named in value.items():
                who = self.player(name, seq, f"statement.{key}")
                found, good = self.card_list(cards_named, seq, f"statement.{key}.{name}")
                ok &= good and who is not None
                pairs[key].extend((who or "", c) for c in found)
        solution = None
        if "solution" in record:
            value = record["solution"]
            if not isinstance(value, dict) or {"suspect", "weapon", "room"} - value.keys():
                self.problem("bad_value", T_("statement.solution must be {{suspect, weapon, room}}"), seq)
                ok = False
            else:
                solution = self.triple({"type": "statement.solution", **value}, seq)
                ok &= solution is not None
        remaining: list[tuple[str, int | tuple[str, ...]]] = []
        if "remaining" in record:
            value = record["remaining"]
            if not isinstance(value, dict) or not value or not value.keys() <= set(ed.CATEGORIES):
                self.problem(
                    "bad_value", T_("statement.remaining must be {{suspects/weapons/rooms: a count or [cards]}}"), seq
                )
                ok = False
            else:
                assert self.deck is not None
                for category, said in value.items():
                    size = len(self.deck.of(category))
                    if isinstance(said, bool) or not isinstance(said, (int, list)):
                        self.problem(
                            "bad_value",
                            T_("statement.remaining.{category} must be a count or a list of cards", category=category),
                            seq,
                        )
                        ok = False
                    elif isinstance(said, int):
                        if not 0 <= said <= size:
                            self.problem(
                                "bad_value",
                                T_(
                                    "statement.remaining.{category} is {said}, not 0 to {size}",
                                    category=category,
                                    said=said,
                                    size=size,
                                ),
                                seq,
                            )
                            ok = False
                        remaining.append((category, said))
                    else:
                        checked: list[str | None] = [
                            self.card(c, seq, f"statement.remaining.{category}", category) for c in said
                        ]
                        ok &= None not in checked
                        remaining.append((category, tuple(c for c in checked if c is not None)))
        if not ok or player is None:
            return None
        return Statement(
            player=player,
            not_in_envelope=tuple(cards),
            holds=tuple(pairs["holds"]),
            lacks=tuple(pairs["lacks"]),
            solution=solution,
            remaining=tuple(remaining),
            **base,
        )

    def card_list(self, value: Any, seq: int, where: str) -> tuple[list[str], bool]:
        if not isinstance(value, list):
            self.problem("bad_value", T_("{where} must be a list of cards", where=where), seq)
            return [], False
        found = [self.card(c, seq, where) for c in value]
        return [c for c in found if c is not None], None not in found

    def r_end(self, record: dict[str, Any], seq: int, base: dict[str, Any]) -> End | None:
        winner = record["winner"]
        if winner is not None:
            winner = self.player(winner, seq, "end.winner")
            if winner is None:
                return None
        solution = record["solution"]
        triple = None
        if solution is not None:
            if not isinstance(solution, dict):
                self.problem("bad_value", T_("end.solution must be {{suspect, weapon, room}} or null"), seq)
                return None
            missing = {"suspect", "weapon", "room"} - solution.keys()
            if missing:
                self.problem(
                    "missing_field", T_("end.solution without {missing}", missing=", ".join(sorted(missing))), seq
                )
                return None
            triple = self.triple({"type": "end.solution", **solution}, seq)
            if triple is None:
                return None
        return End(winner=winner, solution=triple, **base)


def read_unread(raw: RawGame) -> None:
    """The records a reader left as text (RawGame.defer) read, each line's problem said as the
    reader would have said it, in line order with the others."""
    if not raw.unread:
        return
    for seq, start, end in raw.unread:
        line = raw.lines[seq]
        record, problem = record_of(raw.text[start:end], line or 0)
        if record is not None:
            raw.records[seq] = record
        else:
            assert problem is not None
            raw.problems.append(dataclasses.replace(problem, seq=seq))
            raw.lost(seq)
    raw.unread = []
    raw.problems.sort(key=lambda p: -1 if p.line is None else p.line)


def build_game(raw: RawGame) -> tuple[Game | None, list[Problem]]:
    """Check one game's records against clue-log/1; the Game is None when any error was found."""
    read_unread(raw)
    builder = _Builder(raw)
    builder.problems.extend(raw.problems)
    if not raw.records or raw.records[0].get("type") != "game":
        return None, [p.located(raw.source_file) for p in builder.problems]
    game = builder.header(raw.records[0])
    if game is not None:
        for seq in range(1, len(raw.records)):
            if seq in raw.unreadable:
                continue  # its problem is already reported
            record = raw.records[seq]
            event = builder.record(record, seq)
            if event is not None:
                game.records.append(event)
    problems = [p.located(raw.source_file) for p in builder.problems]
    if game is None or any(p.is_error for p in problems):
        return None, problems
    game.canonical_json = canonical_records(game)
    game.content_sha256 = content_hash(game.canonical_json)
    game.game_id = game.declared_id or game.content_sha256[:16]
    return game, problems


# ---------------------------------------------------------------- writing


def _square(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def record_dicts(game: Game) -> list[dict[str, Any]]:
    """The game as clue-log/1 record dicts, cards as ids (what the writer writes)."""
    header: dict[str, Any] = {"type": "game", "format": FORMAT}
    if game.declared_id is not None:
        header["id"] = game.declared_id
    header["edition"] = game.edition_id
    if game.edition is None:
        header["deck"] = {c: [game.deck.name(card) for card in game.deck.of(c)] for c in ed.CATEGORIES}
    if game.variant.id != "standard":
        header["variant"] = game.variant.id
    if game.rules:
        header["rules"] = dict(game.rules)
    players = []
    for p in game.players:
        entry: dict[str, Any] = {"name": p.name}
        if p.character is not None:
            entry["character"] = p.character
        if p.hand_size is not None:
            entry["hand_size"] = p.hand_size
        if p.strategy is not None:
            entry["strategy"] = p.strategy
        players.append(entry)
    header["players"] = players
    for key in ("perspective", "source", "played_at", "place"):
        if getattr(game, key) is not None:
            header[key] = getattr(game, key)
    header.update(game.header_extra)
    out = [header]
    for r in game.records:
        out.append(event_dict(r))
    return out


def event_dict(r: Event) -> dict[str, Any]:
    """A record as its clue-log/1 dict: its type, its fields, then its ``t``, ``note`` and ``x-`` fields."""
    d = visit(r, _WRITER)
    d.update(r.extra)
    return d


def _solution(cards: tuple[str, str, str]) -> dict[str, str]:
    return dict(zip(("suspect", "weapon", "room"), cards))


class _RecordFields(SomeRecordsVisitor[dict[str, Any]]):
    """The clue-log/1 writer of one record: its type and fields as the format writes them (cards as ids,
    tuples as lists, a field left out where the format says it may be). A type whose fields declare
    what they hold is written from that (``otherwise``); the others by a method of their own."""

    def otherwise(self, r: Event) -> dict[str, Any]:
        _, fields = DECLARED[r.type]
        d: dict[str, Any] = {"type": r.type}
        for f in fields:
            value = getattr(r, f.name)
            if f.default is MISSING or value != f.default:
                d[f.name] = list(value) if f.metadata["holds"] == CARDS else value
        return d

    def visit_room_cards(self, r: RoomCards) -> dict[str, Any]:
        d: dict[str, Any] = {"type": r.type, "rooms": list(r.rooms)}
        if r.cards is not None:
            d["cards"] = dict(r.cards)
        return d

    def visit_turn(self, r: Turn) -> dict[str, Any]:
        d: dict[str, Any] = {"type": r.type, "player": r.player}
        if r.roll is not None:
            d["roll"] = list(r.roll)
        return d

    def visit_move(self, r: Move) -> dict[str, Any]:
        d: dict[str, Any] = {"type": r.type, "player": r.player, "to": _square(r.to)}
        if r.via is not None:
            d["via"] = r.via
        if r.path is not None:
            d["path"] = [list(s) for s in r.path]
        return d

    def visit_peek(self, r: Peek) -> dict[str, Any]:
        return {"type": r.type, "player": r.player, "room": r.room, "card": r.card}

    def visit_suggest(self, r: Suggest) -> dict[str, Any]:
        return {
            "type": r.type,
            "player": r.player,
            "suspect": r.suspect,
            "weapon": r.weapon,
            "room": r.room,
            "responses": [{"player": x.player, "shows": x.shows} for x in r.responses],
        }

    def visit_reveal(self, r: Reveal) -> dict[str, Any]:
        d: dict[str, Any] = {
            "type": r.type,
            "player": r.player,
            "card": r.card,
            "to": r.to if r.to == ALL else list(r.to),
        }
        if r.cause is not None:
            d["cause"] = r.cause
        return d

    def visit_statement(self, r: Statement) -> dict[str, Any]:
        d: dict[str, Any] = {"type": r.type, "player": r.player}
        if r.not_in_envelope:
            d["not_in_envelope"] = list(r.not_in_envelope)
        for key, pairs in (("holds", r.holds), ("lacks", r.lacks)):
            if pairs:
                grouped: dict[str, list[str]] = {}
                for who, card in pairs:
                    grouped.setdefault(who, []).append(card)
                d[key] = grouped
        if r.solution is not None:
            d["solution"] = _solution(r.solution)
        if r.remaining:
            d["remaining"] = {c: v if isinstance(v, int) else list(v) for c, v in r.remaining}
        return d

    def visit_end(self, r: End) -> dict[str, Any]:
        return {"type": r.type, "winner": r.winner, "solution": None if r.solution is None else _solution(r.solution)}

    def visit_extension(self, r: Extension) -> dict[str, Any]:
        return dict(r.raw)  # as read, its type ("x-...") included


_WRITER = _RecordFields()


def _encoder(sort_keys: bool) -> Callable[[Any], str]:
    """Compact JSON, keys sorted or not, by an encoder made once: json.dumps with options makes a
    new JSONEncoder at every call, and JSONEncoder.encode a new C encoder (a third of the cost of a
    record). json's C encoder is kept where the interpreter has one, with the encoder's own
    arguments, read from it (no check for circular containers: a record holds none)."""
    encoder = json.JSONEncoder(ensure_ascii=False, sort_keys=sort_keys, separators=(",", ":"))
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return encoder.encode
    chunks = make(
        None,
        encoder.default,
        json.encoder.encode_basestring,
        encoder.indent,
        encoder.key_separator,
        encoder.item_separator,
        encoder.sort_keys,
        encoder.skipkeys,
        encoder.allow_nan,
    )
    return lambda o: "".join(chunks(o, 0))


_LINE = _encoder(sort_keys=False)
_CANONICAL = _encoder(sort_keys=True)


def dumps(record: dict[str, Any]) -> str:
    return _LINE(record)


def write_game(game: Game) -> str:
    """The game as clue-log/1 text: one record a line, cards as ids."""
    return "".join(dumps(r) + "\n" for r in record_dicts(game))


def write_games(games: Iterable[Game]) -> str:
    return "".join(write_game(g) for g in games)


# Characters a name can hold that show as nothing: Unicode's format characters (category Cf: the
# zero-width space and joiners, the soft hyphen, the byte order mark, direction marks) and the
# Hangul fillers.
_FILLERS = frozenset("\u115f\u1160\u3164\uffa0")


def clean_name(name: str) -> str:
    """A player's name as it is compared, stored and shown: in Unicode's composed form (NFC: "Weiß"
    typed with a combining mark or without is one name), without invisible characters (a zero-width
    space makes no new player), every run of white space of any kind (a no-break space, a tab) one
    space and none at either end ("José " and "José" are one name)."""
    name = unicodedata.normalize("NFC", name)
    if not name.isascii():
        name = "".join(c for c in name if c not in _FILLERS and unicodedata.category(c) != "Cf")
    return " ".join(name.split())


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ].*)?\Z", re.S)


def date_problem(value: str) -> str | None:
    """Why ``played_at`` is not a date the store can filter by, or None: it must be an ISO 8601 date
    (YYYY-MM-DD) that exists, optionally with a time (2026-11-06T20:30, a zone allowed)."""
    expected = "is not a date: YYYY-MM-DD is expected, optionally with a time (2026-11-06T20:30)"
    if not _ISO_DATE.match(value):
        return expected
    try:
        datetime.fromisoformat(value)
    except ValueError as exc:  # "day is out of range for month", "hour must be in 0..23", or not ISO
        reason = str(exc)
        return expected if reason.startswith("Invalid isoformat") else f"is not a date that exists: {reason}"
    return None


def canonical_records(game: Game) -> list[str]:
    """The game's records in canonical JSON (sorted keys, no spaces, cards as ids), the game record first."""
    return [_CANONICAL(r) for r in record_dicts(game)]


def content_hash(canonical: list[str]) -> str:
    """SHA-256 of a game's records in canonical JSON (:func:`canonical_records`), one a line."""
    return hashlib.sha256("\n".join(canonical).encode("utf-8")).hexdigest()
