"""cluebot YAML sheets (importers.md 3.1): the two real sheets, read in place, and sheets written from its README."""

from __future__ import annotations

from pathlib import Path

import pytest

from clue_stats.engine.rules import replay
from clue_stats.ingest.cluelog import build_game
from clue_stats.ingest.importers import cluebot

FIXTURES = Path(__file__).parent / "fixtures" / "importers" / "cluebot"
REAL = Path(__file__).parents[1].parent / "shared" / "external" / "cluebot"  # never copied into the project


def real_sheet(name: str) -> str:
    path = REAL / name
    if not path.exists():
        pytest.skip(f"the real cluebot sheets are not at {REAL} (shared/external is not beside this work tree)")
    return path.read_text(encoding="utf-8")


def convert(text: str, source: str = "s.yml"):
    result = cluebot.read(text, source)
    assert result.problems == []
    assert len(result.games) == 1
    return result.games[0]


def of_type(raw, kind: str) -> list[dict]:
    return [r for r in raw.records if r["type"] == kind]


def checked(raw):
    game, problems = build_game(raw)
    assert game is not None, [str(p) for p in problems]
    return game, replay(game)


def test_the_real_game_sheet():
    raw = convert(real_sheet("game.yml"))
    assert raw.problems == []
    header = raw.records[0]
    assert header["edition"] == "us-classic" and header["perspective"] == "you"
    assert [(p["name"], p["hand_size"]) for p in header["players"]] == [
        ("you", 3),
        ("bill", 3),
        ("sam", 4),
        ("kat", 4),
        ("lin", 4),
    ]
    assert raw.records[1]["type"] == "deal" and raw.records[1]["cards"] == ["library", "wrench", "ballroom"]
    assert len(raw.records) == 2 + 14  # every event converts
    # q: "bill green conservatory wrench", a: "kat": sam, between them, passed; the card is not on the sheet.
    bill = next(r for r in of_type(raw, "suggest") if r["player"] == "bill")
    assert (bill["suspect"], bill["weapon"], bill["room"]) == ("green", "wrench", "conservatory")
    assert bill["responses"] == [{"player": "sam", "shows": None}, {"player": "kat", "shows": "?"}]
    assert of_type(raw, "reveal")[0] == {
        "type": "reveal",
        "player": None,
        "card": "hall",
        "to": ["you"],
        "cause": "seen outside a suggestion",
        "x-source-line": 16,
    }
    assert of_type(raw, "accuse") == [
        {
            "type": "accuse",
            "player": "lin",
            "suspect": "white",
            "weapon": "revolver",
            "room": "hall",
            "correct": False,
            "x-source-line": 33,
        }
    ]
    assert not of_type(raw, "end")  # "# you win!" is a comment: the sheet has no winner
    _, result = checked(raw)
    assert [p.code for p in result.problems if p.is_error] == []
    assert result.eliminated == {"lin"}


def test_the_real_example_with_its_own_deck():
    raw = convert(real_sheet("examples/simple.yml"))
    header = raw.records[0]
    assert header["edition"] == "custom"
    assert header["deck"] == {
        "suspects": ["white", "plum", "scarlet", "green"],
        "weapons": ["dagger"],
        "rooms": ["kitchen", "hall"],
    }
    assert [p["hand_size"] for p in header["players"]] == [2, 1, 1] and header["perspective"] == "meg"
    assert of_type(raw, "suggest")[1]["responses"] == [
        {"player": "meg", "shows": None},
        {"player": "bob", "shows": "?"},
    ]
    assert [p.code for p in checked(raw)[1].problems if p.is_error] == []


def test_a_sheet_written_from_the_readme():
    raw = convert((FIXTURES / "classic_sheet.yml").read_text(encoding="utf-8"))
    suggestions = of_type(raw, "suggest")
    assert [s["responses"] for s in suggestions] == [
        [{"player": "bo", "shows": None}, {"player": "me", "shows": None}, {"player": "cy", "shows": "?"}],
        [{"player": "me", "shows": "?"}],
        [{"player": "cy", "shows": None}, {"player": "ann", "shows": "candlestick"}],
        [{"player": "ann", "shows": None}, {"player": "bo", "shows": None}, {"player": "me", "shows": None}],
        [{"player": "cy", "shows": None}, {"player": "ann", "shows": "green"}],
    ]
    assert (suggestions[3]["suspect"], suggestions[3]["weapon"], suggestions[3]["room"]) == ("mustard", "rope", "study")
    assert of_type(raw, "reveal")[-1]["player"] is None
    _, result = checked(raw)
    assert [p.code for p in result.problems if p.is_error] == []


def test_each_bad_event_is_reported_on_its_line_and_the_rest_converts():
    raw = convert((FIXTURES / "bad_sheet.yml").read_text(encoding="utf-8"), "bad.yml")
    assert [(p.code, p.line) for p in raw.problems] == [
        ("unknown_card", 12), ("bad_import", 14), ("suggester_responds", 16), ("bad_import", 18), ("unknown_player", 21),
    ]  # fmt: skip
    assert "did you mean 'Knife'" in raw.problems[0].message
    assert [r["type"] for r in raw.records] == ["game", "deal", "suggest"]
    assert build_game(raw)[0] is None


def test_a_shown_card_that_was_not_named_is_rejected_by_the_rules():
    text = (FIXTURES / "classic_sheet.yml").read_text(encoding="utf-8").replace('a: "ann green"', 'a: "ann plum"')
    raw = convert(text)
    assert raw.records[-2]["responses"][-1] == {"player": "ann", "shows": "plum"}
    _, result = checked(raw)
    assert [p.code for p in result.problems if p.is_error] == ["shown_not_named"]


@pytest.mark.parametrize(
    ("setup", "code"),
    [
        (
            "setup:\n  players:\n    - name: a\n      card_count: 9\n    - name: b\n      card_count: 9\nevents: []\n",
            "bad_players",
        ),
        (
            "setup:\n  players:\n    - name: a\n      cards: 'green'\n    - name: b\n      cards: 'plum'\nevents: []\n",
            "bad_players",
        ),
        (
            "setup:\n  players:\n    - name: a\n      cards: 'green'\n    - name: b\n      card_count: lots\nevents: []\n",
            "bad_value",
        ),
        ("setup:\n  cards:\n    suspects: [a]\n  players:\n    - name: a\n      cards: 'a'\nevents: []\n", "bad_deck"),
        ("setup: [\n", "bad_import"),
    ],
)
def test_a_setup_that_cannot_be_converted_is_a_file_problem(setup: str, code: str):
    result = cluebot.read(setup, "s.yml")
    assert result.games == [] and [p.code for p in result.problems] == [code]
