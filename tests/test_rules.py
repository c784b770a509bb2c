"""The rules engine: every fixture in tests/fixtures/invalid is rejected with its check's code and line."""

from __future__ import annotations

import json

import pytest

from clue_stats import pipeline
from clue_stats.engine.problems import CODES
from tests.helpers import FIXTURES, SAMPLES

INVALID = FIXTURES / "invalid"
EXPECTED: dict[str, int] = json.loads((INVALID / "expected.json").read_text())


def problems_of(path):
    summary = pipeline.validate_paths([str(path)], workers=1)
    return summary


@pytest.mark.parametrize("code", sorted(EXPECTED))
def test_each_invalid_fixture_is_rejected_with_its_code_and_line(code):
    summary = problems_of(INVALID / f"{code}.jsonl")
    assert summary.games_rejected >= 1
    found = {(p.code, p.line) for p in summary.problems}
    assert (code, EXPECTED[code]) in found, sorted(found)
    assert all(p.source_file.endswith(f"{code}.jsonl") for p in summary.problems)


def test_every_fixture_code_is_a_documented_error():
    for code in EXPECTED:
        assert CODES[code][0] == "error"
    documented = (SAMPLES.parents[1] / "docs" / "problems.md").read_text()
    for code in CODES:
        assert f"`{code}`" in documented, code


def test_every_sample_game_is_valid():
    summary = pipeline.validate_paths([str(SAMPLES)], workers=1)
    assert summary.games_rejected == 0, [str(p) for p in summary.problems]
    assert summary.games_valid >= 9


def test_warnings_do_not_reject(tmp_path):
    game = (INVALID / "passed_holding.jsonl").read_text().splitlines()
    # the valid base game without its end record and without any deal: warnings only
    base = json.loads(game[9])
    base["weapon"] = "rope"
    lines = [game[0]] + [game[i] for i in range(4, 9)] + [json.dumps(base)] + game[10:14]
    (tmp_path / "g.jsonl").write_text("\n".join(lines) + "\n")
    summary = pipeline.validate_paths([str(tmp_path)], workers=1)
    codes = {p.code for p in summary.problems}
    assert summary.games_rejected == 0 and summary.games_valid == 1
    assert {"no_end", "no_deals"} <= codes


def test_a_magnifier_die_follows_the_editions_dice_not_its_clue_cards(tmp_path):
    lines = (INVALID / "passed_holding.jsonl").read_text().splitlines()
    lines[9] = lines[9].replace('"weapon": "dagger"', '"weapon": "rope"')
    lines[4] = json.dumps({"type": "turn", "player": "Ann", "roll": [3, "?"]})
    classic = "\n".join(lines) + "\n"
    traditional = classic.replace('"edition": "classic"', '"edition": "de-2023", "variant": "traditional"')
    (tmp_path / "classic.jsonl").write_text(classic)
    (tmp_path / "traditional.jsonl").write_text(traditional)
    found = {
        p.source_file.rsplit("/", 1)[-1]: p.code
        for p in pipeline.validate_paths([str(tmp_path)], workers=1).problems
        if p.is_error
    }
    assert found == {"classic.jsonl": "bad_roll"}
