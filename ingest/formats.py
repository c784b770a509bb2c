"""Which reader reads a file: clue-log/1 (.jsonl), the notation (.clue), or another client's export.

Ingest reads a file only where its name and content make the format unambiguous; anything else is
skipped and counted, never an error (docs/importers.md).
"""

from __future__ import annotations

import codecs
import functools
import gzip
import io
import os
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, cast

from clue_stats.engine.markers import T_
from clue_stats.engine.problems import Problem
from clue_stats.ingest import cluelog
from clue_stats.ingest.kinds import TABLETOP
from clue_stats.ingest.raw import Format, RawGame, ReadResult

CLUE_LOG = "clue-log"
NOTATION = "notation"


def _read_notation(text: str, source_file: str | None) -> ReadResult:
    from clue_stats.ingest import notation  # deferred: start-up (the notation's reader loads on first use)

    return notation.read(text, source_file)


@functools.cache
def registry() -> dict[str, Format]:
    """Every format, by name: clue-log/1 and the notation, then each importer ingest.importers
    registers (imported on first use: the importers' libraries load only when a file needs them)."""
    from clue_stats.ingest.importers import FORMATS as IMPORTERS  # deferred: start-up

    found = {
        CLUE_LOG: Format(CLUE_LOG, "clue-log/1, the event log", (".jsonl",), cluelog.read_text, None, None),
        # the notation is typed in at the table
        NOTATION: Format(NOTATION, "the tabletop notation", (".clue",), _read_notation, None, TABLETOP),
    }
    found.update(IMPORTERS)
    return found


@functools.cache
def known_extensions() -> frozenset[str]:
    return frozenset(extension for fmt in registry().values() for extension in fmt.extensions)


def format_names() -> list[str]:
    return list(registry())


MAX_TEXT_BYTES = 64 << 20  # a file read whole (the notation, other clients' formats); a larger one is not read

_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def decode(data: bytes, source_file: str) -> tuple[str | None, Problem | None]:
    """Text of a whole file: UTF-8 (a BOM is dropped), or UTF-16 with its byte order mark; lines
    ended by CR alone read as lines. A decoding problem names the line of the bad byte and what the
    file looks like instead (compressed, UTF-16 without a mark, Latin-1)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    elif data.startswith(_UTF16_BOMS):
        try:
            return _lines_ended(data.decode("utf-16")), None
        except UnicodeDecodeError as exc:
            return None, Problem.of(
                "encoding",
                T_("not UTF-16 after its byte order mark (byte {start})", start=exc.start + 3),
                line=1,
                source_file=source_file,
            )
    if cluelog.looks_utf16(data):
        return None, Problem("encoding", cluelog.UTF16_WITHOUT_MARK, line=1, source_file=source_file)
    try:
        return _lines_ended(data.decode("utf-8")), None
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return None, Problem("encoding", cluelog.not_utf8(data, exc.start, "file"), line=line, source_file=source_file)


def _lines_ended(text: str) -> str:
    """CR alone ends the lines of files from old Macs: unambiguous, so read as line ends."""
    return text.replace("\r", "\n") if "\r" in text and "\n" not in text else text


def read_bounded(stream: BinaryIO, source_file: str) -> tuple[bytes, list[Problem]]:
    """A whole file's bytes, read a line at a time: a line longer than cluelog.MAX_LINE_BYTES (1 MiB) is left out
    (an empty line keeps its place) with a `line_too_long` problem of its line, so that memory
    stays near the limit whatever the line."""
    kept: list[bytes] = []
    problems: list[Problem] = []
    for number, data, size in cluelog.read_lines(stream):
        if data is None:
            problems.append(cluelog.long_line(number, size).located(source_file))
            data = b"\n"
        kept.append(data)
    return b"".join(kept), problems


def _too_large(size: int, source_file: str) -> Problem:
    return Problem.of(
        "file_too_large",
        T_(
            "the file is {size} bytes; files of this format are read whole, up to {max_text_bytes} bytes (clue-log/1 .jsonl files have no limit: convert it, or split it)",
            size=format(size, ","),
            max_text_bytes=format(MAX_TEXT_BYTES, ","),
        ),
        line=1,
        source_file=source_file,
    )


def detect(path: Path, text: str | None) -> str | None:
    """The format of a file, or None when ingest should skip it: the one format its extension
    names alone (.jsonl, .clue), else the one importer of its extension that recognises the text."""
    suffix = path.suffix.lower()
    by_name = [f.name for f in registry().values() if f.detect is None and suffix in f.extensions]
    if by_name:
        return by_name[0]
    if text is None:
        return None
    matches = [
        f.name
        for f in registry().values()
        if f.detect is not None and suffix in f.extensions and f.detect(text, path.name)
    ]
    return matches[0] if len(matches) == 1 else None


def read_as(fmt: str, text: str, source_file: str) -> ReadResult:
    """Read a whole text in a named format (used by `convert --from` and for small files); a
    KeyError names an unknown format."""
    found = registry()[fmt]
    result = found.read(text, source_file)
    return result if found.kind is None else _of_kind(result, found.kind)


def _of_kind(result: ReadResult, kind: str) -> ReadResult:
    for game in result.games:
        game.kind = game.kind or kind
    return result


STDIN = "-"  # the path that names standard input, read as a stream on purpose (a file named "-": ./-)
STDIN_NAME = "<stdin>"  # the file its problems name


def iter_stdin(stream: BinaryIO | None = None) -> Iterator[RawGame | Problem]:
    """The games of standard input (or ``stream``): clue-log/1 when its first character is "{" (or it
    is empty), streamed line by line as a .jsonl file; else the notation, read whole as a .clue file."""
    source = stream if stream is not None else sys.stdin.buffer
    buffered = cast(io.BufferedIOBase, source if hasattr(source, "peek") else io.BufferedReader(cast(Any, source)))
    head = buffered.peek(4096).lstrip(b" \t\r\n\xef\xbb\xbf")  # type: ignore[attr-defined]
    suffix = ".jsonl" if head[:1] in (b"{", b"") else ".clue"
    return _read_stream(buffered, STDIN_NAME, suffix, None) or iter([])


def iter_file(path: Path) -> Iterator[RawGame | Problem] | None:
    """The games and file-level problems of one file, or None if it is not a file ingest reads.

    clue-log/1 streams line by line in bounded memory (also gzip-compressed, .jsonl.gz); the other
    formats are read whole, a line at a time (a line past 1 MiB left out as its problem), up
    to MAX_TEXT_BYTES; a .zip archive's members are read as files of their own.
    """
    if str(path) == STDIN:
        return iter_stdin()
    suffix = path.suffix.lower()
    if suffix == ".zip":
        return _zip_members(path) if _zip_holds_games(path) else None
    if suffix == ".gz":
        inner = Path(path.stem).suffix.lower()
        if inner not in known_extensions():
            return None
        return _read_stream(gzip.open(path, "rb"), str(path), inner, None)
    if suffix not in known_extensions():
        return None
    # opened here, not when the games are first read: a file that cannot be opened is an OSError of
    # this call, before the file is counted as read
    stream = open(path, "rb")
    # the size matters to the formats read whole; a .jsonl streams (no second look at the file)
    return _read_stream(stream, str(path), suffix, None if suffix == ".jsonl" else os.fstat(stream.fileno()).st_size)


def _read_stream(
    stream: io.BufferedIOBase, source_file: str, suffix: str, size: int | None
) -> Iterator[RawGame | Problem] | None:
    """A file's games from its open stream (a file's, a gzip file's, a zip member's: each can peek)."""
    if suffix == ".jsonl":
        if stream.peek(2)[:2] in _UTF16_BOMS:  # type: ignore[attr-defined]
            return _stream_cluelog(
                cast(BinaryIO, codecs.EncodedFile(cast(BinaryIO, stream), "utf-8", "utf-16")), source_file
            )
        return _stream_cluelog(cast(BinaryIO, stream), source_file)
    with stream:
        if size is not None and size > MAX_TEXT_BYTES:
            return iter([_too_large(size, source_file)]) if suffix == ".clue" else None
        try:
            data, long_lines = read_bounded(cast(BinaryIO, stream), source_file)
        except gzip.BadGzipFile as exc:
            return iter(
                [Problem.of("encoding", T_("not a gzip file: {error}", error=exc), line=1, source_file=source_file)]
            )
        if len(data) > MAX_TEXT_BYTES:  # decompressed past the limit
            return iter([_too_large(len(data), source_file)]) if suffix == ".clue" else None
    return _read_text(data, long_lines, source_file, suffix)


def _read_text(
    data: bytes, long_lines: list[Problem], source_file: str, suffix: str
) -> Iterator[RawGame | Problem] | None:
    text, problem = decode(data, source_file)
    name = Path(source_file)
    if problem is not None:
        if suffix == ".clue" or detect(name.with_suffix(suffix), data.decode("utf-8", "replace")):
            return iter([*long_lines, problem])
        return None
    fmt = detect(name.with_suffix(suffix), text)
    if fmt is None:
        return None
    result = read_as(fmt, text or "", source_file)
    if long_lines:  # a file of one long line is that line's problem, not also an empty file
        result.problems = [p for p in result.problems if p.code != "empty_file"]
    return _items(result, source_file, long_lines)


def _zip_holds_games(path: Path) -> bool:
    try:
        with zipfile.ZipFile(path) as archive:
            return any(_member_suffix(info) is not None for info in archive.infolist())
    except zipfile.BadZipFile:
        return False


def _member_suffix(info: zipfile.ZipInfo) -> str | None:
    """The format's extension of an archive member ingest reads (.gz members are not unpacked twice)."""
    suffix = Path(info.filename).suffix.lower()
    return suffix if not info.is_dir() and suffix in known_extensions() else None


def _zip_members(path: Path) -> Iterator[RawGame | Problem]:
    """Every member of a zip archive in a format ingest reads, as a file named ARCHIVE/MEMBER."""
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            suffix = _member_suffix(info)
            if suffix is None:
                continue
            source_file = f"{path}/{info.filename}"
            member = cast(io.BufferedIOBase, archive.open(info))  # a ZipExtFile, which peeks
            items = _read_stream(member, source_file, suffix, info.file_size)
            if items is not None:
                yield from items


def _stream_cluelog(stream: BinaryIO, source_file: str) -> Iterator[RawGame | Problem]:
    with stream:
        for item in cluelog.iter_raw_games(stream, source_file):
            yield item if isinstance(item, RawGame) else item.located(source_file)


def _items(result: ReadResult, source_file: str, first: list[Problem]) -> Iterator[RawGame | Problem]:
    yield from first
    for p in result.problems:
        yield p.located(source_file)
    yield from result.games
