"""The importers' registry, detection by content, and every fixture through the clue-log/1 checks."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

from clue_stats.engine.rules import replay, validate
from clue_stats.ingest import formats, importers
from clue_stats.ingest.cluelog import build_game
from clue_stats.ingest.importers import FORMATS

FIXTURES = Path(__file__).parent / "fixtures" / "importers"
CLUEBOT_SHEETS = Path(__file__).parents[1].parent / "shared" / "external" / "cluebot"
# Fixtures written to be wrong, and what they must be rejected for.
BAD = {"bad_sheet.yml"}

GOOD = sorted(p for p in FIXTURES.glob("*/*") if p.name not in BAD)


def folder_of(name: str) -> str:
    """The fixtures' folder of a format: its name as a Python identifier (effect-clue -> effect_clue)."""
    return name.replace("-", "_")


def fmt_of(path: Path) -> str:
    (name,) = [name for name in FORMATS if folder_of(name) == path.parent.name]
    return name


def test_every_importer_module_is_registered_once_and_well_formed():
    modules = {
        info.name
        for info in pkgutil.iter_modules(importers.__path__)
        if hasattr(importlib.import_module(f"{importers.__name__}.{info.name}"), "NAME")
    }
    assert modules == {m.__name__.rsplit(".", 1)[1] for m in importers.MODULES}  # none forgotten
    assert list(FORMATS) == [m.NAME for m in importers.MODULES]  # and no name twice
    assert formats.format_names() == [formats.CLUE_LOG, formats.NOTATION, *FORMATS]
    for name, importer in FORMATS.items():
        assert importer.name == name
        assert importer.description
        assert importer.extensions and all(e.startswith(".") and e == e.lower() for e in importer.extensions)
        assert importer.detect is not None and importer.kind is not None
        assert (FIXTURES / folder_of(name)).is_dir(), f"no fixtures for {name} in {FIXTURES / folder_of(name)}"


def test_convert_offers_every_format():
    from typer.testing import CliRunner

    from clue_stats.cli import app

    shown = " ".join(CliRunner().invoke(app, ["convert", "--help"], terminal_width=400).stdout.split())
    for name in formats.format_names():
        assert name in shown, name


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*/*")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_fixture_is_recognised_by_its_own_importer_only(path: Path):
    text = path.read_text(encoding="utf-8")
    # by content alone, whatever the file is called: no other importer takes it
    assert [name for name, importer in FORMATS.items() if importer.detect(text, path.name)] == [fmt_of(path)]
    assert path.suffix in FORMATS[fmt_of(path)].extensions
    assert formats.detect(path, text) == fmt_of(path)  # what ingest reads it as


@pytest.mark.parametrize(
    "text",
    [
        "",
        '{"type":"game","format":"clue-log/1","edition":"us-classic","players":[{"name":"A"},{"name":"B"},{"name":"C"}]}\n',
        "import os\nprint(os.getcwd())\n",
        "cr.suggest('sc', 'pe', 'kn', 'ha', 'mu', None)\nimport os\n",  # calls, but not only calls
        '{"version": 12, "players": []}',
        "setup:\n  players: [a, b]\nevents: []\n",  # effect-clue-like players in YAML: not a cluebot sheet
        'This game\'s players are:\n  Player "a"\n',  # a header without the solution line
    ],
)
def test_other_texts_are_not_taken_for_any_format(text: str):
    assert not [name for name, importer in FORMATS.items() if importer.detect(text, "file.txt")]
    for suffix in sorted(formats.known_extensions() - {".jsonl", ".clue"}):
        assert formats.detect(Path(f"file{suffix}"), text) is None  # ingest skips the file


@pytest.mark.parametrize("path", GOOD, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_converted_game_passes_the_clue_log_checks_and_the_rules(path: Path):
    result = FORMATS[fmt_of(path)].read(path.read_text(encoding="utf-8"), str(path))
    assert result.problems == []
    assert result.games
    for raw in result.games:
        assert raw.records[0]["type"] == "game" and raw.records[0]["format"] == "clue-log/1"
        # every record has the line of the original file it was converted from (issue 27): the one
        # it names, or (a JSON notebook, whose records keep their content) where its entry begins
        assert all(type(line) is int and line >= 1 for line in raw.lines)
        assert all(r.get("x-source-line", line) == line for r, line in zip(raw.records, raw.lines, strict=True))
        game, problems = build_game(raw)
        assert game is not None, [str(p) for p in problems]
        assert not [p for p in problems if p.is_error]
        # a transcript's broken rules of play are findings about the players (llm_transcript/three_agents.txt has one)
        found = [p.as_finding() if raw.transcript else p for p in replay(game).problems]
        assert [str(p) for p in found if p.is_error] == []


@pytest.mark.parametrize("path", GOOD, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_converted_game_passes_validation(path: Path):
    for raw in FORMATS[fmt_of(path)].read(path.read_text(encoding="utf-8"), str(path)).games:
        game, _ = build_game(raw)
        assert game is not None
        if len(game.hands()) < game.n_players:  # validation then asks the deduction engine
            pytest.importorskip(
                "clue_stats.engine.deduction", reason="the deduction engine (engine/deduction.py) is not written yet"
            )
        found = [p.as_finding() if raw.transcript else p for p in validate(game).problems]
        assert [str(p) for p in found if p.is_error] == []


def test_a_notebook_that_contradicts_itself_is_rejected_by_validation():
    pytest.importorskip(
        "clue_stats.engine.deduction", reason="the deduction engine (engine/deduction.py) is not written yet"
    )
    # The user saw bo's lounge; the sheet now also says cy showed the lounge: no deal fits both.
    text = (FIXTURES / "cluebot" / "classic_sheet.yml").read_text(encoding="utf-8") + '  - r: "cy lounge"\n'
    game, _ = build_game(FORMATS["cluebot"].read(text, "s.yml").games[0])
    assert game is not None
    assert [p.code for p in validate(game).problems if p.is_error] == ["inconsistent"]


@pytest.mark.parametrize("path", GOOD, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_same_content_imported_twice_gives_the_same_records_and_game_id(path: Path):
    text = path.read_text(encoding="utf-8")
    first = FORMATS[fmt_of(path)].read(text, "a")
    again = FORMATS[fmt_of(path)].read(text, "b")
    assert [g.records for g in first.games] == [g.records for g in again.games]
    ids = [build_game(g)[0].game_id for g in first.games]
    assert ids == [build_game(g)[0].game_id for g in again.games]
    assert len(set(ids)) == len(ids)


def test_problems_name_their_source_file():
    path = FIXTURES / "cluebot" / "bad_sheet.yml"
    raw = FORMATS["cluebot"].read(path.read_text(encoding="utf-8"), str(path)).games[0]
    _, problems = build_game(raw)
    assert problems and all(p.source_file == str(path) for p in problems)


def test_every_format_is_documented_and_the_documented_example_converts():
    doc = (Path(__file__).parents[1] / "docs" / "importers.md").read_text(encoding="utf-8")
    for name in FORMATS:
        assert f"(`{name}`)" in doc, f"docs/importers.md has no section for {name}"
        assert f"| `{name}` |" in doc
    example = doc.split("```\nString[]", 1)[1].split("```", 1)[0]
    result = FORMATS["reasoner"].read("String[]" + example, "docs/importers.md")
    game, problems = build_game(result.games[0])
    assert game is not None and not [p for p in problems if p.is_error]
    assert game.winner() == "sc"
