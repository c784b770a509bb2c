"""A game recorded as it is played: one clue-log/1 file, valid after every accepted record.

The terminal recorder (``clue-stats record``) and the dashboard's Record page are two faces of this
one model. An entry (a notation line, or a clue-log/1 record from the page's buttons) goes through
the checks of ``ingest``: the notation's reading and its table mistakes (:mod:`ingest.notation_check`,
with a caret under the problem), the clue-log/1 builder and the rules engine (with the deduction's
consistency check), with the same codes and messages. Only an entry without an error is accepted; a
rejected entry leaves the file as it was, byte for byte.

Every accepted record is on disk before the entry returns: the whole file is written to a new file
in the same folder, flushed to the disk (fsync), and renamed over the old one (``os.replace``, atomic
on POSIX), so a process killed at any moment leaves either the last accepted state or the new one,
never a mixture. The model knows nothing of Streamlit or of the terminal.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clue_stats.engine import budget
from clue_stats.engine.errors import InputError
from clue_stats.engine.game import Game
from clue_stats.engine.markers import T_
from clue_stats.engine.problems import Problem
from clue_stats.engine.rules import validate
from clue_stats.ingest import cluelog
from clue_stats.ingest.notation import problem_at
from clue_stats.ingest.notation_check import check, response_order_findings
from clue_stats.ingest.notation_lex import Line, NotationError, lex
from clue_stats.ingest.notation_parse import HEADER_KEYS, Context, Parsed, keyword, read_header, read_record
from clue_stats.ingest.notation_write import NotationWriteError, record_line
from clue_stats.ingest.raw import RawGame

# Warnings of a game that is still being played: it has no end yet, and most tables log one hand.
UNFINISHED = frozenset({"no_end", "no_deals"})
_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
SUFFIX = ".jsonl"


class RecordingError(InputError):
    """A recording file that cannot be resumed (not clue-log/1, not one game, a broken record)."""


@dataclass
class Outcome:
    """What became of one entry: accepted (then on disk) or rejected (nothing changed)."""

    accepted: bool
    problems: list[Problem] = field(default_factory=list)  # the errors of a rejection, or warnings
    record: dict[str, Any] | None = None  # the record accepted, cards as ids
    line: str | None = None  # the record as its notation line (as the notation writes it)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.is_error]


def new_id() -> str:
    """A fresh recording id: short, readable in an address, not guessable from the others."""
    return secrets.token_hex(5)


def valid_id(value: str) -> bool:
    return bool(_ID.match(value))


def folder_for(db: str | Path) -> Path:
    """Where the recordings of a database live: a folder beside it (``league.duckdb.recordings``)."""
    db = Path(db)
    return db.with_name(db.name + ".recordings")


def path_for(folder: str | Path, recording_id: str) -> Path:
    """The file of a recording id (an id from an address is checked: never a path outside the folder)."""
    if not valid_id(recording_id):
        raise RecordingError(T_("not a recording id: {value}", value=repr(recording_id)))
    return Path(folder) / f"{recording_id}{SUFFIX}"


@contextlib.contextmanager
def locked(path: str | Path) -> Iterator[None]:
    """Hold the recording for one change (two phones on one recording take turns, never interleave)."""
    lock = Path(path).with_name(Path(path).name + ".lock")
    with open(lock, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` so that a kill at any moment leaves the old or the new file."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)  # the rename itself reaches the disk
    finally:
        os.close(folder)


def header_from_notation(lines: list[tuple[int, str]]) -> tuple[dict[str, Any] | None, list[Problem]]:
    """The ``game`` record of a game's header lines (``edition``, ``players``, ...), as the notation
    reads it: (the record, []) or (None, its problems with a caret)."""
    lexed: list[Line] = []
    problems: list[Problem] = []
    for number, raw in lines:
        try:
            line = lex(number, raw)
        except NotationError as exc:
            problems.append(problem_at(exc.code, exc.what, raw, exc.start, exc.end, number, 0, None))
            continue
        if not line.blank:
            lexed.append(line)
    game_line = next((x for x in lexed if keyword(x) == "game"), None)
    rest = [x for x in lexed if x is not game_line]
    header = read_header(game_line, rest, lexed[0] if lexed else None)
    for at, e in header.errors:
        raw_text = at.raw if at is not None else None
        problems.append(problem_at(e.code, e.what, raw_text, e.start, e.end, at.number if at else None, 0, None))
    if problems or header.context is None:
        return None, problems
    return header.record, []


def is_header_line(raw: str) -> bool:
    """A line of a game's header (``edition de-2023``), not one of its records."""
    try:
        line = lex(0, raw)
    except NotationError:
        return False
    return not line.blank and keyword(line) in HEADER_KEYS


class Recording:
    """One game being recorded, and its file."""

    def __init__(self, path: Path, records: list[dict[str, Any]], game: Game, parsed: list[Parsed | None]):
        self.path = path
        self.records = records  # clue-log/1, the game record first, cards as ids
        # the line each record was entered on, named in later messages (a resumed record: its number)
        self.lines: list[int | None] = [None, *range(1, len(records))]
        self.game = game  # the records so far, built and checked
        self.parsed = parsed  # each record as the notation reads it (None: no notation), for its checks
        self.context = Context.of(game.deck, game.names)

    # ---------------------------------------------------------------- starting and resuming

    @classmethod
    def start(cls, path: str | Path, header: dict[str, Any]) -> tuple[Recording | None, list[Problem]]:
        """A new recording of the game this ``game`` record describes, written at once; or None and
        the header's problems. A file already at ``path`` is not touched (resume it with :meth:`open`)."""
        path = Path(path)
        game, problems = _checked([header], [None])
        if game is None:
            return None, problems
        if path.exists():
            raise RecordingError(T_("{path} exists already: resume it, or record to another file", path=path))
        recording = cls(path, [dict(header)], game, [])
        recording._save()
        return recording, problems

    @classmethod
    def open(cls, path: str | Path) -> Recording:
        """Resume the recording in ``path``; raises :class:`RecordingError` when it is not one game
        of clue-log/1 whose records pass every check (its problems in the message)."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise RecordingError(T_("cannot read {path}: {error}", path=path, error=str(exc))) from None
        result = cluelog.read_text(text, str(path))
        problems = [p for p in result.problems if p.is_error]
        if len(result.games) != 1 and not problems:
            raise RecordingError(T_("{path} holds {n} games; a recording is one game", path=path, n=len(result.games)))
        raw = result.games[0] if result.games else None
        game = None
        if raw is not None and not problems:
            game, found = _checked(raw.records, [None] * len(raw.records), str(path))
            problems = [p for p in found if p.is_error]
        if game is None or raw is None:
            detail = "; ".join(str(p) for p in problems[:3])
            raise RecordingError(T_("{path} cannot be resumed: {problems}", path=path, problems=detail))
        context = Context.of(game.deck, game.names)
        parsed: list[Parsed | None] = []
        for event in game.records:
            parsed.append(_parsed(game, event, context, event.seq))
        return cls(path, [dict(r) for r in raw.records], game, parsed)

    # ---------------------------------------------------------------- what it holds

    @property
    def finished(self) -> bool:
        return len(self.records) > 1 and self.records[-1].get("type") == "end"

    @property
    def count(self) -> int:
        """Records after the game record."""
        return len(self.records) - 1

    def text(self) -> str:
        return "".join(cluelog.dumps(r) + "\n" for r in self.records)

    def raw_game(self, kind: str | None = None) -> RawGame:
        """The recording as any reader hands a game on (the pipeline stores it like an ingested file)."""
        return RawGame(
            records=[dict(r) for r in self.records],
            lines=list(range(1, len(self.records) + 1)),  # one record a line of the file
            text=self.text(),
            source_file=str(self.path),
            kind=kind,
        )

    # ---------------------------------------------------------------- entries

    def enter_line(self, raw: str, number: int | None = None) -> Outcome:
        """One notation record line (``Anna: Grün Dolch Salon / Ben -``); ``number`` is its line,
        named in messages (default: the record's number)."""
        number = self.count + 1 if number is None else number
        try:
            line = lex(number, raw)
            if line.blank:
                raise NotationError("bad_notation", T_("an empty line is no record"), 0, max(1, len(raw)))
            parsed = read_record(line, self.context)
        except NotationError as e:  # every problem of the line at once, the order of its answers too
            seq = self.count + 1
            found = [problem_at(x.code, x.what, raw, x.start, x.end, number, seq, None) for x in e.every()]
            if e.partial is not None:
                found += [
                    problem_at(f.code, f.what, raw, f.span[0], f.span[1], number, seq, None)
                    for f in response_order_findings(e.partial, self.game.names)
                ]
            return Outcome(False, found)
        return self._enter(parsed.record, parsed, number)

    def enter(self, record: dict[str, Any]) -> Outcome:
        """One clue-log/1 record (cards as ids), as the page's buttons make it."""
        return self._enter(dict(record), None, self.count + 1)

    def _enter(self, record: dict[str, Any], parsed: Parsed | None, number: int) -> Outcome:
        seq = self.count + 1
        records = [*self.records, record]
        raw = RawGame(records=records, lines=[*self.lines, number], text="")
        game, problems = cluelog.build_game(raw)  # clue-log/1's checks (a page's record has no line to read)
        if parsed is None and game is not None:
            parsed = _parsed(game, game.records[-1], self.context, number)
        if parsed is not None:  # the table's mistakes, with a caret, before the rules engine's wording
            earlier = [p for p in self.parsed if p is not None]
            findings = [f for f in check([*earlier, parsed], self.game.deck, self.game.names) if f.parsed is parsed]
            if findings:
                raw_line = parsed.line.raw
                return Outcome(
                    False,
                    [problem_at(f.code, f.what, raw_line, f.span[0], f.span[1], number, seq, None) for f in findings],
                )
        if game is not None:
            problems = problems + _validated(game)
        errors = [p for p in problems if p.is_error]
        if game is None or errors:
            return Outcome(False, errors)
        records[-1] = cluelog.event_dict(game.records[-1])  # as the clue-log/1 writer writes it
        self.records, self.game = records, game
        self.lines.append(number)
        self.parsed.append(parsed)
        self._save()
        warnings = [p for p in problems if p.code not in UNFINISHED and p.seq in (None, seq)]
        return Outcome(True, warnings, cluelog.event_dict(game.records[-1]), parsed.line.raw if parsed else None)

    def undo(self) -> dict[str, Any] | None:
        """Take back the last record (the game record stays); None when there is none to take back."""
        if self.count == 0:
            return None
        records = self.records[:-1]
        game, _ = _checked(records, [None] * len(records))
        if game is None:  # pragma: no cover - a prefix of a checked game is a checked game
            raise RecordingError(T_("the recording cannot be taken back a record"))
        last = self.records[-1]
        self.records, self.game = records, game
        self.lines.pop()
        self.parsed.pop()
        self._save()
        return last

    def _save(self) -> None:
        write_atomically(self.path, self.text())


def _checked(
    records: list[dict[str, Any]], lines: list[int | None], source: str | None = None
) -> tuple[Game | None, list[Problem]]:
    """The checks of ``ingest`` on a game so far: the clue-log/1 builder, then the rules engine with
    the deduction's consistency (under the budget ingest uses)."""
    raw = RawGame(records=records, lines=lines, text="", source_file=source)
    game, problems = cluelog.build_game(raw)
    if game is None:
        return None, problems
    problems = problems + _validated(game)
    if any(p.is_error for p in problems):
        return None, problems
    return game, problems


def _validated(game: Game) -> list[Problem]:
    """The rules engine's problems of a built game (under the budget ingest uses)."""
    with budget.limited(budget.Limits.from_env()):
        return validate(game).problems


def _parsed(game: Game, event: Any, context: Context, number: int) -> Parsed | None:
    """A record as the notation reads it (for the table's checks); None for what it cannot say."""
    try:
        return read_record(lex(number, record_line(game, event)), context)
    except (NotationWriteError, NotationError):
        return None
