"""Importers of other Clue clients' records, each converting to clue-log/1 (docs/importers.md).

Every importer reads a whole text and hands back a :class:`ingest.raw.ReadResult` of RawGames made
of clue-log/1 record dicts; the converted games are then checked like any other game
(:func:`ingest.cluelog.build_game`, :func:`engine.rules.validate`). ``detect`` says whether a text
is unmistakably in the importer's format, so ingest can pick the reader by content; ``convert
--from NAME`` uses ``read`` directly.

An importer is a module of this package with ``NAME``, ``DESCRIPTION``, ``EXTENSIONS`` (lower-case,
with the dot), ``KIND`` (ingest.kinds), ``detect(text, file_name)`` and ``read(text, source_file)``,
registered once in :data:`MODULES`; one that can give its games one at a time has
``iter_games(text, source_file)`` too (ingest then holds one game of the file at a time).
Ingest, `convert --from`, the tests and the docs' check take every format from :func:`ingest.formats.registry`, which adds these to clue-log/1 and the notation.
"""

from __future__ import annotations

from types import ModuleType

from clue_stats.ingest.importers import cluebot, effect_clue, llm_transcript, reasoner, speedclue, speedclue_py
from clue_stats.ingest.raw import Format

MODULES: tuple[ModuleType, ...] = (speedclue, speedclue_py, llm_transcript, effect_clue, cluebot, reasoner)


def _format(module: ModuleType) -> Format:
    # an importer that reads a game at a time gives ``iter_games`` too: ingest holds one game of it
    items = getattr(module, "iter_games", None)
    return Format(module.NAME, module.DESCRIPTION, module.EXTENSIONS, module.read, module.detect, module.KIND, items)


FORMATS: dict[str, Format] = {m.NAME: _format(m) for m in MODULES}
