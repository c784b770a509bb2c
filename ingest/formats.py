"""Which reader reads a file: clue-log/1 (.jsonl), the notation (.clue), or another client's export.

Ingest reads a file only where its name and content make the format unambiguous; anything else is
skipped and counted, never an error (docs/importers.md).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from clue_stats.engine.problems import Problem
from clue_stats.ingest import cluelog
from clue_stats.ingest.kinds import TABLETOP
from clue_stats.ingest.raw import RawGame, ReadResult

CLUE_LOG = "clue-log"
NOTATION = "notation"


@dataclass(frozen=True)
class Format:
    """A format ingest and `convert --from` read: clue-log/1, the notation, or an importer's."""

    name: str  # what `convert --from` takes
    description: str
    extensions: tuple[str, ...]  # lower-case, with the dot: the files ingest offers to this reader
    read: Callable[[str, str | None], ReadResult]  # (text, source file) -> games and problems
    # (text, file name) -> is it this format, unmistakably; None: the extension alone says so
    detect: Callable[[str, str | None], bool] | None
    kind: str | None  # who plays the games of this format (ingest.kinds); None: each game says


def _read_notation(text: str, source_file: str | None) -> ReadResult:
    from clue_stats.ingest import notation  # the notation's reader loads on first use

    return notation.read(text, source_file)


@functools.cache
def registry() -> dict[str, Format]:
    """Every format, by name: clue-log/1 and the notation, then each importer ingest.importers
    registers (imported on first use: the importers' libraries load only when a file needs them)."""
    from clue_stats.ingest.importers import FORMATS as IMPORTERS

    found = {
        CLUE_LOG: Format(CLUE_LOG, "clue-log/1, the event log", (".jsonl",), cluelog.read_text, None, None),
        # the notation is typed in at the table
        NOTATION: Format(NOTATION, "the tabletop notation", (".clue",), _read_notation, None, TABLETOP),
    }
    found.update(IMPORTERS)
    return found


def known_extensions() -> set[str]:
    return {extension for fmt in registry().values() for extension in fmt.extensions}


def format_names() -> list[str]:
    return list(registry())


def decode(data: bytes, source_file: str) -> tuple[str | None, Problem | None]:
    """Text of a whole file (a BOM is dropped); a decoding problem names the line of the bad byte."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return None, Problem(
            "encoding", f"not UTF-8 (byte {exc.start + 1} of the file)", line=line, source_file=source_file
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


def iter_file(path: Path) -> Iterator[RawGame | Problem] | None:
    """The games and file-level problems of one file, or None if it is not a file ingest reads.

    clue-log/1 streams line by line in bounded memory; the other formats are small by nature and are
    read whole.
    """
    source_file = str(path)
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        # opened here, not when the games are first read: a file that cannot be opened is an
        # OSError of this call, before the file is counted as read
        return _stream_cluelog(open(path, "rb"), path)
    if suffix not in known_extensions():
        return None
    data = path.read_bytes()
    text, problem = decode(data, source_file)
    if problem is not None:
        return iter([problem]) if suffix == ".clue" or detect(path, data.decode("utf-8", "replace")) else None
    fmt = detect(path, text)
    if fmt is None:
        return None
    result = read_as(fmt, text or "", source_file)
    return _items(result, source_file)


def _stream_cluelog(stream: BinaryIO, path: Path) -> Iterator[RawGame | Problem]:
    with stream:
        for item in cluelog.iter_raw_games(stream, str(path)):
            yield item if isinstance(item, RawGame) else item.located(str(path))


def _items(result: ReadResult, source_file: str) -> Iterator[RawGame | Problem]:
    for p in result.problems:
        yield p.located(source_file)
    yield from result.games
