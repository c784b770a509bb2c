"""The tabletop notation (files ending ``.clue``): read into clue-log/1 records, and written back.

The user's documentation is docs/notation.md. Reading goes in named stages, each in its own module:

1. :mod:`ingest.notation_lex`: each line into tokens with columns, its ``# note`` and ``@time``;
2. here: the file into games (a ``game`` line starts one), each game into header and record lines;
3. :mod:`ingest.notation_parse` with :mod:`ingest.notation_names`: the header into the ``game``
   record, each record line into one clue-log/1 record (cards as ids);
4. :mod:`ingest.notation_check`: the mistakes of the table (a forgotten responder, a card shown by
   someone who passed on it) with a caret under them.

A reader never stops at the first problem: every line is read and every problem reported, each with
the line, the column, the line itself and a caret under the problem, and a did-you-mean for names.
Writing (:mod:`ingest.notation_write`) goes through the clue-log/1 builder, so the notation holds
exactly what :func:`ingest.cluelog.build_game` makes of the records, and is read back before it is
returned: ``write`` refuses rather than loses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from clue_stats.engine.markers import T_, Said
from clue_stats.engine.problems import Problem
from clue_stats.ingest import cluelog
from clue_stats.ingest.notation_check import check, response_order_findings
from clue_stats.ingest.notation_lex import Line, NotationError, lex, pointer
from clue_stats.ingest.notation_parse import HEADER_KEYS, keyword, read_header, read_record
from clue_stats.ingest.notation_write import NotationWriteError, write_game
from clue_stats.ingest.raw import RawGame, ReadResult

__all__ = ["read", "iter_games", "write", "NotationWriteError"]


class _Broken:
    """A line the lexer could not read (an unclosed quote): reported, and otherwise skipped."""

    def __init__(self, number: int, raw: str, error: NotationError):
        self.number, self.raw, self.error = number, raw, error


def problem_at(
    code: str,
    what: str | Said,
    raw: str | None,
    start: int,
    end: int,
    line: int | None,
    seq: int | None,
    source_file: str | None,
) -> Problem:
    if raw is None:
        return Problem.of(code, what, seq=seq, line=line, source_file=source_file)
    column = max(0, min(start, len(raw))) + 1
    return Problem.of(code, pointer(raw, start, end, what), seq=seq, line=line, source_file=source_file, column=column)


def _starts_game(line: Line | _Broken) -> bool:
    return isinstance(line, Line) and keyword(line) == "game"


def _blank(line: Line | _Broken) -> bool:
    return isinstance(line, Line) and line.blank


def read(text: str, source_file: str | None = None) -> ReadResult:
    """Every game of a notation text, as clue-log/1 records with their lines and problems."""
    return _read(text, source_file, checks=True)


def iter_games(text: str, source_file: str | None = None) -> Iterator[RawGame | Problem]:
    """The games of a notation text one at a time (what :func:`read` gives, in bounded memory:
    only the lines of the game being read are held, lexed), then the file's own problem if any."""
    return _games(text, source_file, checks=True)


# a run of lines holding nothing but white space (str.isspace: what the lexer passes over), up to
# the last line end of the run: one character class, so no state kept per line as a group's repeats
_WHITE_RUN = re.compile(r"\s*\n")

_Entry = tuple[int, int, "Line | _Broken"]  # a line's number, where it starts in the text, its lexed form


def _lexed(text: str) -> Iterator[_Entry]:
    """Each line holding more than white space as (its number, where it starts in ``text``, its
    lexed form), one at a time: blank lines are counted, not held (a file of millions of them costs
    no object each)."""
    number, pos, size = 0, 0, len(text)
    while pos < size:
        white = _WHITE_RUN.match(text, pos)
        if white is not None:
            number += text.count("\n", pos, white.end())
            pos = white.end()
            if pos >= size:
                break
        end = text.find("\n", pos)
        stop = size if end < 0 else end
        number += 1
        raw = text[pos:stop].removesuffix("\r")
        if raw.strip():
            try:
                yield number, pos, lex(number, raw)
            except NotationError as exc:
                yield number, pos, _Broken(number, raw, exc)
        pos = stop + 1


def _read(text: str, source_file: str | None, checks: bool) -> ReadResult:
    return ReadResult.of(_games(text, source_file, checks))


def _games(text: str, source_file: str | None, checks: bool) -> Iterator[RawGame | Problem]:
    """The games as their lines are read: a ``game`` line ends the game before it (the first game
    may start without one), and the comments just above it begin the next game's text."""
    text = text.removeprefix("\ufeff")
    gathered: list[_Entry] = []  # the lines of the game being read (comments above it included)
    begin = 0  # where its text begins
    for entry in _lexed(text):
        line = entry[2]
        if _starts_game(line) and any(not _blank(x) for _, _, x in gathered):
            k = len(gathered)
            while _blank(gathered[k - 1][2]):  # the game has a line that is not blank: k stays above it
                k -= 1
            end = gathered[k][1] if k < len(gathered) else entry[1]
            yield _game(gathered[:k], text[begin:end], source_file, checks)
            gathered, begin = gathered[k:], end
        gathered.append(entry)
    if any(not _blank(x) for _, _, x in gathered):
        yield _game(gathered, text[begin:], source_file, checks)
    else:  # no line that is not blank, so no game read
        yield Problem.of(
            "empty_file",
            T_("the file holds no games (only blank lines and comments)"),
            line=1,
            source_file=source_file,
        )


def _game(entries: list[_Entry], text: str, source_file: str | None, checks: bool) -> RawGame:
    """One game of its lines (from its first that is not blank) and its text."""
    lines = [line for _, _, line in entries]
    first = next(k for k, line in enumerate(lines) if not _blank(line))
    return _read_game(lines[first:], text.replace("\r\n", "\n").rstrip("\n") + "\n", source_file, checks)


def _read_game(lines: list[Line | _Broken], text: str, source_file: str | None, checks: bool) -> RawGame:
    raw_game = RawGame(records=[], lines=[], text=text, source_file=source_file)
    problems = raw_game.problems
    game_line = lines[0] if isinstance(lines[0], Line) and _starts_game(lines[0]) else None
    header_lines: list[Line] = []
    record_lines: list[Line | _Broken] = []
    for line in lines[1:] if game_line is not None else lines:
        if isinstance(line, _Broken) and not record_lines:
            e = line.error
            problems.append(problem_at(e.code, e.what, line.raw, e.start, e.end, line.number, 0, source_file))
        elif isinstance(line, Line) and line.blank:
            continue
        elif isinstance(line, Line) and not record_lines and keyword(line) in HEADER_KEYS:
            header_lines.append(line)
        else:
            record_lines.append(line)  # a header line among the records is reported by read_record
    first = next((x for x in lines if isinstance(x, Line) and not x.blank), None)
    header = read_header(game_line, header_lines, first)
    for at, e in header.errors:
        raw = at.raw if at is not None else None
        problems.append(problem_at(e.code, e.what, raw, e.start, e.end, at.number if at else None, 0, source_file))
    raw_game.records.append(header.record)
    raw_game.lines.append(header.line.number if header.line is not None else None)
    if header.context is None:  # the header's problems say why; its records cannot be read without it
        return raw_game
    parsed = []
    seq_of: dict[int, int] = {}
    for line in record_lines:
        try:
            if isinstance(line, _Broken):
                raise line.error
            item = read_record(line, header.context)
        except NotationError as e:
            # the line keeps its place, so that the seq of every later record is that of the file;
            # all its problems are reported, with the order of its answers where they could be read
            seq = len(raw_game.records)
            for each in e.every():
                problems.append(
                    problem_at(each.code, each.what, line.raw, each.start, each.end, line.number, seq, source_file)
                )
            if checks and e.partial is not None:
                for f in response_order_findings(e.partial, header.context.players.names):
                    problems.append(
                        problem_at(f.code, f.what, line.raw, f.span[0], f.span[1], line.number, seq, source_file)
                    )
            raw_game.keep_place(line.number)
            continue
        seq_of[id(item)] = len(raw_game.records)
        parsed.append(item)
        raw_game.records.append(item.record)
        raw_game.lines.append(line.number)
    if checks:
        for f in check(parsed, header.context.deck, header.context.players.names):
            line = f.parsed.line
            problems.append(
                problem_at(
                    f.code, f.what, line.raw, f.span[0], f.span[1], line.number, seq_of[id(f.parsed)], source_file
                )
            )
    problems.sort(key=lambda p: p.line or 0)
    return raw_game


def write(records: list[dict[str, Any]]) -> str:
    """clue-log/1 records (one or more games, each from its game record) as notation text.

    Raises :class:`NotationWriteError` when the records are not valid clue-log/1 or hold something
    the notation cannot say (``x-`` records and fields); the text returned reads back into games
    whose records are those of the input, as :func:`ingest.cluelog.build_game` resolves them.
    """
    if not records:
        raise NotationWriteError("no records to write")
    if records[0].get("type") != "game":
        raise NotationWriteError("the records do not start with a game record")
    starts = [k for k, r in enumerate(records) if r.get("type") == "game"] + [len(records)]
    games = []
    for g in range(len(starts) - 1):
        raw = RawGame(records=records[starts[g] : starts[g + 1]], lines=[None] * (starts[g + 1] - starts[g]), text="")
        game, problems = cluelog.build_game(raw)
        label = f"game {g + 1}" + (
            f" ({records[starts[g]]['id']})" if isinstance(records[starts[g]].get("id"), str) else ""
        )
        errors = [p for p in problems if p.is_error]
        if game is None or errors:
            detail = "; ".join(
                f"record {p.seq}: {p.code}: {p.message}" if p.seq is not None else f"{p.code}: {p.message}"
                for p in errors
            )
            raise NotationWriteError(f"{label} is not valid clue-log/1: {detail}")
        try:
            games.append(write_game(game))
        except NotationWriteError as exc:
            raise NotationWriteError(f"{label}: {exc}") from None
    text = "\n".join(games)
    _verify(text, records, starts)
    return text


def _verify(text: str, records: list[dict[str, Any]], starts: list[int]) -> None:
    """The whole text reads back into the same games (each line was already checked on its own)."""
    back = _read(text, None, checks=False)
    if back.problems or len(back.games) != len(starts) - 1:
        raise NotationWriteError("the written notation does not read back into the same games")  # pragma: no cover
    for g, raw in enumerate(back.games):
        original, _ = cluelog.build_game(
            RawGame(records=records[starts[g] : starts[g + 1]], lines=[None] * (starts[g + 1] - starts[g]), text="")
        )
        again, problems = cluelog.build_game(raw)
        if original is None or again is None or cluelog.record_dicts(original) != cluelog.record_dicts(again):
            raise NotationWriteError(
                f"game {g + 1} does not read back the same: {'; '.join(map(str, problems))}"
            )  # pragma: no cover
