"""The SpeedClue contest's Python server transcript (importers.md 1.5c) to clue-log/1: the real transcript
read in place, and a transcript written from gameserver.py (several games, an elimination, a cut-off game)."""

from __future__ import annotations

from pathlib import Path

from clue_stats.engine.rules import validate
from clue_stats.ingest.cluelog import build_game
from clue_stats.ingest.importers import FORMATS, speedclue_py

HERE = Path(__file__).parent
REAL = HERE.parent.parent / "shared" / "external" / "speedclue-pyport" / "pyport-3p-1.txt"
WRITTEN = HERE / "fixtures" / "importers" / "speedclue_py" / "two_games_cut_off.txt"


def of_type(raw, kind: str) -> list[dict]:
    return [r for r in raw.records if r["type"] == kind]


def checked(raw):
    game, problems = build_game(raw)
    assert game is not None, [str(p) for p in problems]
    return game, [p for p in problems + validate(game).problems]


def test_the_real_transcript_gives_its_three_games_with_every_hand_and_answer():
    text = REAL.read_text(encoding="utf-8")
    assert [name for name, imp in FORMATS.items() if imp.detect(text, REAL.name)] == ["speedclue-py"]
    result = speedclue_py.read(text, str(REAL))
    assert result.problems == [] and len(result.games) == 3
    first = result.games[0]
    # seats from reset: "reset 3 0 Bi Pl Sc Ca Pe Ba" went to player#2-ai01.py, so it sits first
    assert [p["name"] for p in first.records[0]["players"]] == [
        "player#2-ai01.py",
        "player#1-InferencePlayer.jar",
        "player#0-randomAI.jar",
    ]
    assert [p["strategy"] for p in first.records[0]["players"]] == ["ai01.py", "InferencePlayer.jar", "randomAI.jar"]
    assert of_type(first, "deal")[0] == {
        "type": "deal", "player": "player#2-ai01.py", "x-source-line": 8,
        "cards": ["billiard_room", "plum", "scarlett", "candlestick", "peacock", "ballroom"],
    }  # fmt: skip
    # line 17: "suggest Gr Kn Co", InferencePlayer shows the conservatory (its copy and the suggester's name it)
    assert of_type(first, "suggest")[0] == {
        "type": "suggest", "player": "player#2-ai01.py", "suspect": "green", "weapon": "dagger",
        "room": "conservatory", "responses": [{"player": "player#1-InferencePlayer.jar", "shows": "conservatory"}],
        "x-source-line": 17,
    }  # fmt: skip
    # round 4 (line 73): "suggest Mu Wr Li", then "suggestion 1 Mu Wr Li -": everybody else passed
    nobody = [s for s in of_type(first, "suggest") if s["x-source-line"] == 73][0]
    assert nobody["responses"] == [
        {"player": "player#0-randomAI.jar", "shows": None},
        {"player": "player#2-ai01.py", "shows": None},
    ]
    winners = [g.records[-1]["winner"] for g in result.games]
    assert winners == ["player#2-ai01.py"] * 3  # the scores count 1, 2, 3 for ai01.py
    assert [g.records[-1]["solution"] for g in result.games] == [
        {"suspect": "mustard", "weapon": "rope", "room": "hall"},
        {"suspect": "plum", "weapon": "candlestick", "room": "conservatory"},
        {"suspect": "scarlett", "weapon": "dagger", "room": "kitchen"},
    ]
    for raw in result.games:
        assert raw.lines == [r["x-source-line"] for r in raw.records]
        game, problems = checked(raw)
        assert problems == []
        assert game.variant.id == "speedclue" and len(game.hands()) == 3
        assert len(of_type(raw, "turn")) == len(of_type(raw, "suggest"))  # a suggestion every turn


def test_a_line_holding_two_messages_is_read_as_two():
    # line 20 of the written transcript: two threads printed at once, a blank line follows
    raw = speedclue_py.read(WRITTEN.read_text(encoding="utf-8"), "t.txt").games[0]
    assert of_type(raw, "suggest")[0]["responses"] == [{"player": "player#0-a.jar", "shows": "revolver"}]


def test_eliminations_and_the_last_player_standing():
    raw = speedclue_py.read(WRITTEN.read_text(encoding="utf-8"), "t.txt").games[0]
    assert [(a["player"], a["correct"]) for a in of_type(raw, "accuse")] == [
        ("player#1-b.py", False),
        ("player#2-c", False),
    ]
    # player#1-b.py is out but still disproves player#2-c's suggestion, with the lead pipe
    assert of_type(raw, "suggest")[2]["responses"] == [{"player": "player#1-b.py", "shows": "lead_pipe"}]
    # nobody accused correctly: the one left wins, and the solution is the server's "target"
    assert raw.records[-1] == {
        "type": "end", "winner": "player#0-a.jar", "x-source-line": 64,
        "solution": {"suspect": "plum", "weapon": "dagger", "room": "hall"},
    }  # fmt: skip
    game, problems = checked(raw)
    assert problems == [] and game.winner() == "player#0-a.jar"


def test_a_cut_off_game_is_kept_up_to_there_and_reported_at_its_line():
    result = speedclue_py.read(WRITTEN.read_text(encoding="utf-8"), "t.txt")
    assert len(result.games) == 2 and result.problems == []
    cut = result.games[1]
    assert [r["type"] for r in cut.records] == ["game", "deal", "deal", "deal", "turn", "suggest", "turn"]
    [report] = cut.problems
    assert report.code == "game_cut_off" and report.line == 94 and not report.is_error
    assert "AssertionError" in report.message and "suggestion at line 92 has no answer" in report.message
    game, problems = checked(cut)
    assert sorted(p.code for p in problems) == ["game_cut_off", "no_end"]


def test_the_scores_must_count_the_games_won():
    text = WRITTEN.read_text(encoding="utf-8").replace("player#0-a.jar      : 1", "player#0-a.jar      : 2")
    [wrong] = speedclue_py.read(text, "t.txt").games[0].problems
    assert wrong.code == "bad_import" and wrong.line == 67 and "player#0-a.jar 1" in wrong.message


def test_a_broken_message_is_reported_at_its_line_and_the_rest_is_read():
    text = WRITTEN.read_text(encoding="utf-8").replace("suggest Gr Wr Ki]", "suggest Gr Zz Ki]")
    result = speedclue_py.read(text, "t.txt")
    first = result.games[0]
    assert [(p.code, p.line) for p in first.problems][:1] == [("unknown_card", 38)]
    assert len(result.games) == 2 and first.records[-1]["type"] == "end"


def test_other_texts_are_not_a_python_server_transcript():
    assert not speedclue_py.detect("|round 0, active_id 0\n", "a.txt")
    assert speedclue_py.read("hello\n", "a.txt").problems[0].code == "bad_import"
