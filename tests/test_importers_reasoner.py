"""Neller's ClueReasoner event calls (importers.md 3.2), one a line, in Java and Python form."""

from __future__ import annotations

from pathlib import Path

import pytest

from clue_stats.engine.rules import replay
from clue_stats.ingest.cluelog import build_game
from clue_stats.ingest.importers import reasoner

FIXTURES = Path(__file__).parent / "fixtures" / "importers" / "reasoner"
PLAYERS = ["sc", "mu", "wh", "gr", "pe", "pl"]


def convert(text: str):
    result = reasoner.read(text, "calls.txt")
    assert result.problems == []
    assert len(result.games) == 1
    return result.games[0]


def rule_errors(raw) -> list[str]:
    game, problems = build_game(raw)
    assert game is not None, [str(p) for p in problems]
    return [p.code for p in replay(game).problems if p.is_error]


def test_java_calls():
    raw = convert((FIXTURES / "java_calls.txt").read_text(encoding="utf-8"))
    header = raw.records[0]
    assert [(p["name"], p["character"]) for p in header["players"]] == list(
        zip(PLAYERS, ["scarlett", "mustard", "white", "green", "peacock", "plum"])
    )
    assert header["perspective"] == "sc" and header["edition"] == "us-classic"
    assert raw.records[1] == {
        "type": "deal",
        "player": "sc",
        "cards": ["white", "green", "kitchen"],
        "x-source-line": 4,
    }
    # cr.suggest("mu", "wh", "kn", "bi", "sc", "wh");  sc, the owner, refuted and names the card.
    assert raw.records[3] == {
        "type": "suggest", "player": "mu", "suspect": "white", "weapon": "dagger", "room": "billiard_room",
        "responses": [{"player": "wh", "shows": None}, {"player": "gr", "shows": None}, {"player": "pe", "shows": None},
                      {"player": "pl", "shows": None}, {"player": "sc", "shows": "white"}],
        "x-source-line": 6,
    }  # fmt: skip
    # cr.suggest("wh", "sc", "ro", "ha", "mu", null);  mu is next but one round from wh: all between pass.
    assert raw.records[4]["responses"][-1] == {"player": "mu", "shows": "?"} and len(raw.records[4]["responses"]) == 5
    assert raw.records[-2]["type"] == "accuse" and raw.records[-2]["correct"] is True
    assert raw.records[-1]["type"] == "end" and raw.records[-1]["winner"] == "sc"
    assert rule_errors(raw) == []


def test_python_calls_give_the_same_kind_of_game():
    raw = convert((FIXTURES / "python_calls.py").read_text(encoding="utf-8"))
    assert raw.records[0]["perspective"] == "pl"
    assert raw.records[-1]["winner"] == "pl"
    assert rule_errors(raw) == []


def test_java_and_python_forms_of_the_same_calls_convert_alike():
    java = 'String[] mine = new String[] {"wh", "li", "st"};\ncr.hand("sc", mine);\ncr.suggest("mu", "pe", "pi", "di", null, null);\ncr.accuse("wh", "mu", "re", "ba", false);\n'
    python = "cr.hand('sc', ['wh', 'li', 'st'])\ncr.suggest('mu', 'pe', 'pi', 'di', None, None)\ncr.accuse('wh', 'mu', 're', 'ba', False)\n"
    strip = lambda raw: [{k: v for k, v in r.items() if k != "x-source-line"} for r in raw.records]  # noqa: E731
    assert strip(convert(java)) == strip(convert(python))
    raw = convert(python)
    assert raw.records[2]["responses"] == [{"player": p, "shows": None} for p in ["wh", "gr", "pe", "pl", "sc"]]
    assert raw.records[3]["correct"] is False and raw.records[-1]["type"] == "accuse"  # no end after a wrong accusation


def test_cards_in_any_order_are_put_in_their_categories():
    raw = convert("suggest('gr', 'ba', 'kn', 'pl', 'sc', null)\n")
    assert (raw.records[1]["suspect"], raw.records[1]["weapon"], raw.records[1]["room"]) == (
        "plum",
        "dagger",
        "ballroom",
    )
    assert "perspective" not in raw.records[0]


def test_the_owner_passing_while_holding_a_named_card_is_rejected():
    text = 'cr.hand("sc", new String[] {"wh", "li", "st"});\ncr.suggest("pl", "wh", "kn", "ha", "mu", null);\n'
    assert rule_errors(convert(text)) == ["passed_holding"]


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ('cr.hand("sc", myCards);', "bad_import"),  # an array never declared
        ('cr.suggest("sc", "pe", "kn", "ha", null, "kn");', "bad_import"),  # shown, but nobody refuted
        ('cr.suggest("sc", "pe", "kn", "ha", "mu");', "bad_import"),  # five arguments
        ('cr.suggest("sc", "pe", "kn", "xx", "mu", null);', "unknown_card"),
        ('cr.suggest("sc", "pe", "gr", "ha", "mu", null);', "bad_import"),  # two suspects
        ('cr.suggest("bo", "pe", "kn", "ha", "mu", null);', "unknown_player"),
        ('cr.suggest("sc", "pe", "kn", "ha", "sc", null);', "suggester_responds"),
        ('cr.accuse("sc", "pe", "kn", "ha", "yes");', "bad_import"),
        ('cr.hand("mu", new String[] {"wh"});', "bad_import"),  # a second owner
    ],
)
def test_calls_that_cannot_be_converted_are_reported_on_their_line(line: str, code: str):
    text = 'cr.hand("sc", new String[] {"wh", "li", "st"});\n' + line + "\n"
    result = reasoner.read(text, "calls.txt")
    raw = result.games[0]
    assert [(p.code, p.line) for p in raw.problems] == [(code, 2)]
    assert build_game(raw)[0] is None


def test_detection_wants_nothing_but_calls():
    assert reasoner.detect("// notes\ncr.suggest('sc', 'pe', 'kn', 'ha', 'mu', None)\n")
    assert not reasoner.detect("cr.suggest('sc', 'pe', 'kn', 'ha', 'mu', None)\nprint('hi')\n")
    assert not reasoner.detect("// only a comment\n")


def test_a_file_without_calls_is_a_file_problem():
    result = reasoner.read("// nothing here\n", "c.txt")
    assert result.games == [] and [p.code for p in result.problems] == ["bad_import"]
