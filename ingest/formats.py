"""Which reader reads a file: clue-log/1 (.jsonl), the notation (.clue), or another client's export.

Ingest reads a file only where its name and content make the format unambiguous; anything else is
skipped and counted, never an error (docs/importers.md).
"""

from __future__ import annotations

import codecs
import functools
import gzip
import io
import lzma
import os
import sys
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, cast

from clue_stats.engine.markers import T_, Said
from clue_stats.engine.problems import Problem
from clue_stats.ingest import cluelog
from clue_stats.ingest.kinds import TABLETOP
from clue_stats.ingest.raw import Format, RawGame, ReadResult

CLUE_LOG = "clue-log"
NOTATION = "notation"


def _read_notation(text: str, source_file: str | None) -> ReadResult:
    from clue_stats.ingest import notation  # deferred: start-up (the notation's reader loads on first use)

    return notation.read(text, source_file)


def _notation_games(text: str, source_file: str | None) -> Iterator[RawGame | Problem]:
    from clue_stats.ingest import notation  # deferred: start-up (the notation's reader loads on first use)

    return notation.iter_games(text, source_file)


@functools.cache
def registry() -> dict[str, Format]:
    """Every format, by name: clue-log/1 and the notation, then each importer ingest.importers
    registers (imported on first use: the importers' libraries load only when a file needs them)."""
    from clue_stats.ingest.importers import FORMATS as IMPORTERS  # deferred: start-up

    found = {
        CLUE_LOG: Format(CLUE_LOG, "clue-log/1, the event log", (".jsonl",), cluelog.read_text, None, None),
        # the notation is typed in at the table
        NOTATION: Format(
            NOTATION, "the tabletop notation", (".clue",), _read_notation, None, TABLETOP, _notation_games
        ),
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


class TooLarge(Exception):
    """A stream past the bytes it may give (counted as it is read, decompressed): ``read`` bytes read."""

    def __init__(self, read: int):
        super().__init__(read)
        self.read = read


def read_bounded(stream: BinaryIO, source_file: str, limit: int | None = None) -> tuple[bytes, list[Problem]]:
    """A whole file's bytes, read a line at a time: a line longer than cluelog.MAX_LINE_BYTES (1 MiB) is left out
    (an empty line keeps its place) with a `line_too_long` problem of its line, so that memory
    stays near the limit whatever the line. Past ``limit`` bytes (counted as they stream, the long
    lines too: a compressed file's are counted as they are inflated) :class:`TooLarge` is raised
    before more is read. Runs of blank lines are held as one piece each."""
    kept = bytearray()  # one buffer, not an object a line (a line's object cost more than its bytes)
    problems: list[Problem] = []
    total = 0
    last = 0  # the number of the last line kept
    for number, data, size in cluelog.read_lines(stream, skip_blank=True):
        total += size
        if limit is not None and total > limit:
            raise TooLarge(total)
        if data == b"":  # a run of blank lines, kept as line ends
            data = b"\n" * (number - last)
        elif data is None:
            problems.append(cluelog.long_line(number, size).located(source_file))
            data = b"\n"
        last = number
        kept += data
    return bytes(kept), problems


def _too_large(size: int, source_file: str, more: bool = False) -> Problem:
    return Problem.of(
        "file_too_large",
        T_(
            "the file is {size} bytes{more}; files of this format are read whole, up to {max_text_bytes} bytes (clue-log/1 .jsonl files have no limit: convert it, or split it)",
            size=format(size, ","),
            more=T_(" or more (counted as it was read: the rest was not read)") if more else "",
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
    found = _read_stream(buffered, STDIN_NAME, suffix, None)
    if isinstance(found, FileSkipped):
        return iter([] if found.problem is None else [found.problem])
    return found


@dataclass(frozen=True)
class FileSkipped:
    """A file ingest does not read: ``problem`` (a ``file_skipped`` warning) says why, or None for a
    file of a format clue-stats does not read at all (counted, never a warning: a folder's notes)."""

    problem: Problem | None = None


# What a compressed stream or archive raises when its data is broken (a bad checksum, a changed size,
# a truncated stream, a method zipfile cannot inflate, an encrypted member): a problem of that file.
BROKEN_DATA: tuple[type[BaseException], ...] = (
    EOFError,
    zlib.error,
    zipfile.BadZipFile,
    gzip.BadGzipFile,
    NotImplementedError,
    RuntimeError,
    lzma.LZMAError,
)


# What opening an archive raises when it is not one zipfile can read (no central directory, cut short)
OPENING_FAILS: tuple[type[BaseException], ...] = (*BROKEN_DATA, ValueError)


def broken(exc: BaseException, source_file: str, member: bool = False) -> Problem:
    """The problem of a file (or archive member) whose compressed data cannot be read."""
    reason = str(exc) or type(exc).__name__
    return Problem.of(
        "unreadable",
        T_(
            "{what} cannot be read: {reason}; nothing after this point was read",
            what=T_("the archive member") if member else T_("the file"),
            reason=reason,
        ),
        line=None,
        source_file=source_file,
    )


def skipped(source_file: str, why: str | Said) -> FileSkipped:
    return FileSkipped(Problem.of("file_skipped", T_("not read: {why}", why=why), source_file=source_file))


def iter_file(path: Path) -> Iterator[RawGame | Problem] | None:
    """The games and file-level problems of one file, or None if it is not a file ingest reads (see
    :func:`read_file`, which says why)."""
    found = read_file(path)
    return None if isinstance(found, FileSkipped) else found


def read_file(path: Path) -> Iterator[RawGame | Problem] | FileSkipped:
    """The games and file-level problems of one file, or :class:`FileSkipped` (with why, where the
    file looked like one ingest reads).

    clue-log/1 streams line by line in bounded memory (also gzip-compressed, .jsonl.gz); the other
    formats are read whole, a line at a time (a line past 1 MiB left out as its problem), up
    to MAX_TEXT_BYTES, counted as they are read (a compressed file's bytes as they are inflated);
    a .zip archive's members are read as files of their own.
    """
    if str(path) == STDIN:
        return iter_stdin()
    suffix = path.suffix.lower()
    if suffix == ".zip":
        return _zip_file(path)
    if suffix == ".gz":
        inner = Path(path.stem).suffix.lower()
        if inner not in known_extensions():
            return FileSkipped()
        return _read_stream(cast(io.BufferedIOBase, gzip.open(path, "rb")), str(path), inner, None)
    if suffix not in known_extensions():
        return FileSkipped()
    # opened here, not when the games are first read: a file that cannot be opened is an OSError of
    # this call, before the file is counted as read
    stream = open(path, "rb")
    # the size matters to the formats read whole; a .jsonl streams (no second look at the file)
    return _read_stream(stream, str(path), suffix, None if suffix == ".jsonl" else os.fstat(stream.fileno()).st_size)


def _read_stream(
    stream: io.BufferedIOBase, source_file: str, suffix: str, size: int | None
) -> Iterator[RawGame | Problem] | FileSkipped:
    """A file's games from its open stream (a file's, a gzip file's, a zip member's: each can peek)."""
    if suffix == ".jsonl":
        try:
            head = stream.peek(2)[:2]  # type: ignore[attr-defined]
        except BROKEN_DATA as exc:
            stream.close()
            return iter([broken(exc, source_file)])
        if head in _UTF16_BOMS:
            return _stream_cluelog(cast(BinaryIO, Utf16AsUtf8(cast(BinaryIO, stream))), source_file)
        return _stream_cluelog(cast(BinaryIO, stream), source_file)
    with stream:
        if size is not None and size > MAX_TEXT_BYTES:
            return iter([_too_large(size, source_file)]) if suffix == ".clue" else _skipped_large(size, source_file)
        try:
            data, long_lines = read_bounded(cast(BinaryIO, stream), source_file, MAX_TEXT_BYTES)
        except TooLarge as exc:  # decompressed past the limit: stopped there, the rest never inflated
            if suffix == ".clue":
                return iter([_too_large(exc.read, source_file, more=True)])
            return _skipped_large(exc.read, source_file, more=True)
        except gzip.BadGzipFile as exc:
            return iter(
                [Problem.of("encoding", T_("not a gzip file: {error}", error=exc), line=1, source_file=source_file)]
            )
        except BROKEN_DATA as exc:
            return iter([broken(exc, source_file)])
    return _read_text(data, long_lines, source_file, suffix)


def _skipped_large(size: int, source_file: str, more: bool = False) -> FileSkipped:
    return skipped(
        source_file,
        T_(
            "{size} bytes{more}, more than the {max_text_bytes} bytes a file of other clients' formats may hold",
            size=format(size, ","),
            more=T_(" or more") if more else "",
            max_text_bytes=format(MAX_TEXT_BYTES, ","),
        ),
    )


def _read_text(
    data: bytes, long_lines: list[Problem], source_file: str, suffix: str
) -> Iterator[RawGame | Problem] | FileSkipped:
    text, problem = decode(data, source_file)
    name = Path(source_file)
    if problem is not None:
        if suffix == ".clue" or detect(name.with_suffix(suffix), data.decode("utf-8", "replace")):
            return iter([*long_lines, problem])
        return FileSkipped()
    fmt = detect(name.with_suffix(suffix), text)
    if fmt is None:
        return FileSkipped()
    found = registry()[fmt]
    if found.items is not None:  # its games one at a time: only the text and one game held
        return _streamed(found, found.items(text or "", source_file), source_file, long_lines)
    result = read_as(fmt, text or "", source_file)
    if long_lines:  # a file of one long line is that line's problem, not also an empty file
        result.problems = [p for p in result.problems if p.code != "empty_file"]
    return _items(result, source_file, long_lines)


def _streamed(
    fmt: Format, items: Iterator[RawGame | Problem], source_file: str, first: list[Problem]
) -> Iterator[RawGame | Problem]:
    """A reader's games as it reads them (of the format's kind when it has one), its problems placed
    in the file; a file of long lines alone is those lines' problems, not also an empty file."""
    yield from first
    for item in items:
        if isinstance(item, RawGame):
            item.kind = item.kind or fmt.kind
            yield item
        elif not (first and item.code == "empty_file"):
            yield item.located(source_file)


def _zip_file(path: Path) -> Iterator[RawGame | Problem] | FileSkipped:
    """A zip archive's members in formats ingest reads, or why it is skipped (not a zip archive that
    can be read, no member ingest reads)."""
    try:
        archive = zipfile.ZipFile(path)
    except OPENING_FAILS as exc:
        return skipped(
            str(path), T_("not a zip archive that can be read ({error})", error=str(exc) or type(exc).__name__)
        )
    with archive:
        infos = archive.infolist()
    if not any(_member_suffix(info) is not None or _nested(info) for info in infos):
        archive.close()
        return FileSkipped()
    return _zip_members(path, infos)


def _member_suffix(info: zipfile.ZipInfo) -> str | None:
    """The format's extension of an archive member ingest reads."""
    suffix = Path(info.filename).suffix.lower()
    return suffix if not info.is_dir() and suffix in known_extensions() else None


def _nested(info: zipfile.ZipInfo) -> bool:
    """An archive or compressed file inside the archive: not unpacked twice, said so."""
    name = info.filename.lower()
    return not info.is_dir() and (
        name.endswith(".zip") or (name.endswith(".gz") and Path(name[:-3]).suffix in known_extensions())
    )


def _zip_members(path: Path, infos: list[zipfile.ZipInfo]) -> Iterator[RawGame | Problem]:
    """Every member of a zip archive in a format ingest reads, as a file named ARCHIVE/MEMBER; a
    member that cannot be read (a bad checksum, a changed size, a compression method or encryption
    zipfile cannot undo) is an `unreadable` problem of that member, and the others are read."""
    with zipfile.ZipFile(path) as archive:
        for info in infos:
            source_file = f"{path}/{info.filename}"
            if _nested(info):
                yield skipped(
                    source_file, T_("an archive or compressed file inside a zip archive (unpack it to have it read)")
                ).problem  # type: ignore[misc]
                continue
            suffix = _member_suffix(info)
            if suffix is None:
                continue
            try:
                member = cast(io.BufferedIOBase, archive.open(info))  # a ZipExtFile, which peeks
                items = _read_stream(member, source_file, suffix, info.file_size)
                if isinstance(items, FileSkipped):
                    if items.problem is not None:
                        yield items.problem
                    continue
                yield from items
            except BROKEN_DATA as exc:
                yield broken(exc, source_file, member=True)


class Utf16AsUtf8(io.RawIOBase):
    """A UTF-16 stream (with its byte order mark) read as UTF-8 bytes, decoded a block at a time.

    Half of a surrogate pair is passed on as its UTF-8-like bytes (surrogatepass), which the line's
    decoding then names as a problem of its line; a stray last byte (an odd number of bytes) is kept
    as ``stray`` for the reader to say."""

    def __init__(self, stream: BinaryIO):
        super().__init__()
        self._stream = stream
        self._decoder = codecs.getincrementaldecoder("utf-16")(errors="surrogatepass")
        self._pending = b""
        self._done = False
        self.lines = 0  # line ends passed on
        self.stray = False  # the stream ended inside a character

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._pending and not self._done:
            block = self._stream.read(cluelog.READ_BLOCK)
            try:
                text = self._decoder.decode(block, final=not block)
            except UnicodeDecodeError:  # the end inside a character: what came before is kept
                text, self.stray = "", True
            if not block:
                self._done = True
            self._pending = text.encode("utf-8", "surrogatepass")
            self.lines += self._pending.count(b"\n")
        n = min(len(buffer), len(self._pending))
        buffer[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        return n

    def close(self) -> None:
        self._stream.close()
        super().close()


def _stream_cluelog(stream: BinaryIO, source_file: str) -> Iterator[RawGame | Problem]:
    with stream:
        try:
            for item in cluelog.iter_raw_games(stream, source_file, defer=True):
                yield item if isinstance(item, RawGame) else item.located(source_file)
        except BROKEN_DATA as exc:
            yield broken(exc, source_file)
            return
        if isinstance(stream, Utf16AsUtf8) and stream.stray:
            yield Problem.of(
                "encoding",
                T_(
                    "the file ends in the middle of a UTF-16 character (an odd number of bytes): its last byte is not read"
                ),
                line=max(1, stream.lines),
                source_file=source_file,
            )


def _items(result: ReadResult, source_file: str, first: list[Problem]) -> Iterator[RawGame | Problem]:
    yield from first
    for p in result.problems:
        yield p.located(source_file)
    yield from result.games
