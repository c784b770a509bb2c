"""Which reader reads a file: clue-log/1 (.jsonl), the notation (.clue), or another client's export.

Ingest reads a file only where its name and content make the format unambiguous; anything else is
skipped and counted, never an error (analysis.md, "Command line").
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from clue_stats.engine.problems import Problem
from clue_stats.ingest import cluelog
from clue_stats.ingest.kinds import TABLETOP
from clue_stats.ingest.raw import RawGame, ReadResult

CLUE_LOG = "clue-log"
NOTATION = "notation"


def _importers() -> dict[str, Any]:
    from clue_stats.ingest.importers import FORMATS

    return FORMATS


def known_extensions() -> set[str]:
    found = {".jsonl", ".clue"}
    for importer in _importers().values():
        found.update(importer.extensions)
    return found


def format_names() -> list[str]:
    return [CLUE_LOG, NOTATION, *_importers()]


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
    """The format of a file, or None when ingest should skip it."""
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        return CLUE_LOG
    if suffix == ".clue":
        return NOTATION
    if text is None:
        return None
    matches = [name for name, imp in _importers().items() if suffix in imp.extensions and imp.detect(text, path.name)]
    return matches[0] if len(matches) == 1 else None


def read_as(fmt: str, text: str, source_file: str) -> ReadResult:
    """Read a whole text in a named format (used by `convert --from` and for small files)."""
    if fmt == CLUE_LOG:
        return cluelog.read_text(text, source_file)
    if fmt == NOTATION:
        from clue_stats.ingest import notation

        return _of_kind(notation.read(text, source_file), TABLETOP)  # the notation is typed in at the table
    importers = _importers()
    if fmt not in importers:
        raise KeyError(fmt)
    return _of_kind(importers[fmt].read(text, source_file), importers[fmt].kind)


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
