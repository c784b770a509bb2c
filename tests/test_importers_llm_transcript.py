"""LLM agents' game transcripts (clue-board-game-with-llm) to clue-log/1: the real transcript read in place,
and a transcript written from the program's print statements (wrapped lines, a clue, an elimination)."""

from __future__ import annotations

from pathlib import Path

from clue_stats import pipeline
from clue_stats.ingest.importers import FORMATS, llm_transcript

HERE = Path(__file__).parent
REAL = HERE.parent.parent / "shared" / "external" / "llm-crewai" / "sample_game_output.txt"
WRITTEN = HERE / "fixtures" / "importers" / "llm_transcript" / "three_agents.txt"


def of_type(raw, kind: str) -> list[dict]:
    return [r for r in raw.records if r["type"] == kind]


def read(path: Path):
    result = llm_transcript.read(path.read_text(encoding="utf-8"), str(path))
    assert result.problems == [] and len(result.games) == 1
    return result.games[0]


def test_the_real_transcript_gives_the_whole_game():
    text = REAL.read_text(encoding="utf-8")
    assert [name for name, imp in FORMATS.items() if imp.detect(text, REAL.name)] == ["llm-transcript"]
    raw = read(REAL)
    players = raw.records[0]["players"]
    # names are the players, the characters they play apart: White plays Miss Scarlet
    assert [(p["name"], p["character"]) for p in players] == [
        ("White", "scarlett"), ("Scarlet", "green"), ("Mustard", "mustard"),
        ("Green", "white"), ("Peacock", "plum"), ("Plum", "peacock"),
    ]  # fmt: skip
    assert [(d["player"], d["cards"]) for d in of_type(raw, "deal")][:2] == [
        ("White", ["green", "ballroom", "kitchen"]),
        ("Scarlet", ["dining_room", "peacock", "study"]),
    ]
    suggestions = of_type(raw, "suggest")
    assert len(suggestions) == 9 and len(of_type(raw, "turn")) == 19
    # line 124-125 wrapped "...the Candlesti" / "ck in the Billiard Room"; Mustard shows Miss Scarlet
    turn_5 = suggestions[2]
    assert (turn_5["x-source-line"], turn_5["player"], turn_5["weapon"], turn_5["room"]) == (
        124, "Peacock", "candlestick", "billiard_room",
    )  # fmt: skip
    assert turn_5["responses"][-1] == {"player": "Mustard", "shows": "scarlett"}
    assert [r["player"] for r in turn_5["responses"]] == ["Plum", "White", "Scarlet", "Mustard"]
    # the magnifying glass's clues are cards revealed to the roller (line 81-82 wrapped "Scarl" / "et")
    reveals = of_type(raw, "reveal")
    assert len(reveals) == 7
    assert reveals[1] == {
        "type": "reveal", "player": "Scarlet", "card": "peacock", "to": ["Mustard"],
        "cause": "magnifying glass", "x-source-line": 81,
    }  # fmt: skip
    assert of_type(raw, "accuse") == [
        {"type": "accuse", "player": "White", "suspect": "mustard", "weapon": "rope", "room": "billiard_room",
         "correct": True, "x-source-line": 383},
    ]  # fmt: skip
    assert raw.records[-1]["winner"] == "White"


def test_the_real_games_rule_break_is_a_finding_at_its_line():
    raw = read(REAL)
    game, replay, problems = pipeline.build_checked(raw)
    assert game is not None and replay is not None  # stored, not refused
    breaks = [(p.line, p.message) for p in problems if p.code == "rule_break"]
    # turn 9: Mustard suggests at line 192 and again at line 200
    assert breaks == [(200, "suggest_twice: Mustard suggests a second time in one turn")]
    assert not [p for p in problems if p.is_error]


def test_a_written_transcript_with_wrapped_lines_an_elimination_and_a_double_suggestion():
    raw = read(WRITTEN)
    # "  Cards: [... 'Lou" / "nge', ...]" is one line again
    assert of_type(raw, "deal")[1]["cards"] == ["mustard", "candlestick", "conservatory", "lounge", "hall", "revolver"]
    assert [(a["player"], a["correct"]) for a in of_type(raw, "accuse")] == [("Mustard", False), ("Green", True)]
    assert of_type(raw, "reveal") == [
        {"type": "reveal", "player": "Green", "card": "green", "to": ["Mustard"], "cause": "magnifying glass",
         "x-source-line": 61},
    ]  # fmt: skip
    game, replay, problems = pipeline.build_checked(raw)
    assert replay is not None and replay.eliminated == {"Mustard"} and replay.winner == "Green"
    assert [(p.code, p.line) for p in problems if p.code == "rule_break"] == [("rule_break", 42)]


def test_a_transcript_that_stops_early_is_kept_and_reported_as_cut_off():
    text = WRITTEN.read_text(encoding="utf-8").split("🎲 TURN 3")[0]
    raw = llm_transcript.read(text, "t.txt").games[0]
    cut = [p for p in raw.problems if p.code == "game_cut_off"]
    assert len(cut) == 1 and cut[0].line == len(text.splitlines())  # the last line
    game, replay, problems = pipeline.build_checked(raw)
    assert replay is not None and "no_end" in {p.code for p in problems}


def test_an_unknown_card_is_reported_at_its_line_and_the_rest_is_read():
    text = WRITTEN.read_text(encoding="utf-8").replace(
        "Disproven by Mustard (showed: Hall)", "Disproven by Mustard (showed: Halll)", 1
    )
    raw = llm_transcript.read(text, "t.txt").games[0]
    assert [(p.code, p.line) for p in raw.problems if p.is_error] == [("unknown_card", 40), ("bad_import", 38)]
    assert raw.records[-1]["type"] == "end"


def test_other_texts_are_not_an_agents_transcript():
    assert not llm_transcript.detect("Solution (hidden): a, b, c\n", "a.txt")
    assert llm_transcript.read("hello\n", "a.txt").problems[0].code == "bad_import"
