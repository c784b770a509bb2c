"""Every importer's problems at their line of the original file (issue 27 item 3): a problem the
rules find in a converted record is reported as ``file:line: code: message``, the line where that
record's entry begins in the other client's file."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from clue_stats.cli import app
from tests.helpers import FIXTURES

runner = CliRunner()
IMPORTERS = FIXTURES / "importers"

# (importer, fixture, the text changed, the change: a shown card that is not one of the three named,
# the line where the record begins)
CASES = [
    (
        "speedclue",
        "speedclue/three_last_standing.txt",
        'Player "beta" [1] shows Suspect{Scarlet}.',
        'Player "beta" [1] shows Weapon{Knife}.',
        14,  # the suggestion's line ("alpha suggests ..."); the card is shown two lines below
    ),
    (
        "reasoner",
        "reasoner/java_calls.txt",
        'cr.suggest("mu", "wh", "kn", "bi", "sc", "wh");',
        'cr.suggest("mu", "wh", "kn", "bi", "sc", "ro");',
        6,
    ),
    ("cluebot", "cluebot/classic_sheet.yml", 'a: "ann candlestick"', 'a: "ann hall"', 19),
    (
        "effect_clue",
        "effect_clue/v12_unordered_passes.json",
        '"refuter": "Dot", "seenCard": "card-mr-green"',
        '"refuter": "Dot", "seenCard": "card-knife"',
        29,  # the suggestion's entry begins here; the seen card is on the line below
    ),
]


@pytest.mark.parametrize("importer,fixture,old,new,line", CASES, ids=[c[0] for c in CASES])
def test_a_shown_card_not_named_is_a_problem_of_its_line_in_the_original_file(
    tmp_path, importer, fixture, old, new, line
):
    source = IMPORTERS / fixture
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path = tmp_path / source.name
    path.write_text(text.replace(old, new), encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 3, result.output
    assert f"{path}:{line}: shown_not_named: " in result.stderr, result.stderr
    assert f"{path}:-:" not in result.stderr  # no problem without its line


def test_every_effect_clue_entry_has_the_line_where_it_begins():
    from clue_stats.ingest.importers.effect_clue import element_lines

    text = (IMPORTERS / "effect_clue" / "v12_unordered_passes.json").read_text(encoding="utf-8")
    lines = text.splitlines()
    found = element_lines(text)
    assert [len(found[k]) for k in ("hands", "suggestions", "accusations")] == [2, 7, 1]
    assert all(lines[n - 1].lstrip().startswith("{") for n in sum(found.values(), []))
    assert lines[found["accusations"][0] - 1].lstrip().startswith('{"id": "accusation-1"')
    # all on one line: every entry is on line 1
    assert element_lines('{"version": 12, "suggestions": [{"a": [1, "]"]}, {}], "hands": []}') == {
        "suggestions": [1, 1],
        "hands": [],
    }


def test_an_importers_problem_is_said_in_the_readers_language(tmp_path):
    """An importer's own problem (here a ClueReasoner call with three of its six arguments) in German
    and Swedish, at its line; the call as it is."""
    source = IMPORTERS / "reasoner" / "java_calls.txt"
    lines = source.read_text(encoding="utf-8").splitlines()
    lines[5] = 'cr.suggest("mu", "wh", "kn");'
    path = tmp_path / source.name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    call = "suggest(suggester, card1, card2, card3, refuter, cardShown)"
    for code, said in (
        ("en", f"{call} takes 6 arguments, not 3"),
        ("de", f"{call} nimmt 6 Argumente, nicht 3"),
        ("sv", f"{call} tar 6 argument, inte 3"),
    ):
        result = runner.invoke(app, ["--lang", code, "validate", str(path)])
        assert result.exit_code == 3 and f"{path}:6: bad_import: {said}\n" in result.stderr, result.stderr
