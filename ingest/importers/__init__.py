"""Importers of other Clue clients' records, each converting to clue-log/1 (importers.md).

Every importer reads a whole text and hands back a :class:`ingest.raw.ReadResult` of RawGames made
of clue-log/1 record dicts; the converted games are then checked like any other game
(:func:`ingest.cluelog.build_game`, :func:`engine.rules.validate`). ``detect`` says whether a text
is unmistakably in the importer's format, so ingest can pick the reader by content; ``convert
--from NAME`` uses ``read`` directly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from clue_stats.ingest.importers import cluebot, effect_clue, llm_transcript, reasoner, speedclue, speedclue_py
from clue_stats.ingest.raw import ReadResult


@dataclass(frozen=True)
class Importer:
    name: str
    description: str
    extensions: tuple[str, ...]  # lower-case, with the dot: the files ingest offers to ``detect``
    detect: Callable[[str, str | None], bool]  # (text, file name) -> is it this format, unmistakably
    read: Callable[[str, str | None], ReadResult]  # (text, source file) -> games and problems
    kind: str  # who plays the games of this format (ingest.kinds)


def _importer(module) -> Importer:  # type: ignore[no-untyped-def]
    return Importer(module.NAME, module.DESCRIPTION, module.EXTENSIONS, module.detect, module.read, module.KIND)


FORMATS: dict[str, Importer] = {
    m.NAME: _importer(m) for m in (speedclue, speedclue_py, llm_transcript, effect_clue, cluebot, reasoner)
}
