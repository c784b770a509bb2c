"""SpeedClue test-server transcripts (importers.md 1.5a) to clue-log/1, on transcripts written from the templates."""

from __future__ import annotations

from pathlib import Path

import pytest

from clue_stats.engine.rules import replay
from clue_stats.ingest.cluelog import build_game
from clue_stats.ingest.importers import speedclue

FIXTURES = Path(__file__).parent / "fixtures" / "importers" / "speedclue"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def convert(text: str):
    result = speedclue.read(text, "t.txt")
    assert len(result.games) == 1
    return result.games[0]


def checked(raw):
    game, problems = build_game(raw)
    assert game is not None, [str(p) for p in problems]
    return game, replay(game)


def of_type(raw, kind: str) -> list[dict]:
    return [r for r in raw.records if r["type"] == kind]


def test_a_game_won_by_the_last_player_standing():
    raw = convert(fixture("three_last_standing.txt"))
    header = raw.records[0]
    assert header["edition"] == "us-classic" and header["variant"] == "speedclue"
    assert [p["name"] for p in header["players"]] == ["alpha", "beta", "gamma"]
    assert [d["player"] for d in of_type(raw, "deal")] == ["alpha", "beta", "gamma"]
    assert of_type(raw, "deal")[0]["cards"] == [
        "white",
        "kitchen",
        "candlestick",
        "green",
        "billiard_room",
        "dining_room",
    ]
    # "Player "beta" [1] suggests Suggestion{Green, Candlestick, Billiards Room}." then alpha shows Green.
    second = of_type(raw, "suggest")[1]
    assert second == {
        "type": "suggest", "player": "beta", "suspect": "green", "weapon": "candlestick", "room": "billiard_room",
        "responses": [{"player": "gamma", "shows": None}, {"player": "alpha", "shows": "green"}], "x-source-line": 22,
    }  # fmt: skip
    accusations = of_type(raw, "accuse")
    assert [(a["player"], a["correct"]) for a in accusations] == [("alpha", False), ("beta", False)]
    assert raw.records[-1] == {
        "type": "end",
        "winner": "gamma",
        "solution": {"suspect": "plum", "weapon": "rope", "room": "lounge"},
        "x-source-line": 69,
    }
    game, result = checked(raw)
    assert result.winner == "gamma" and result.eliminated == {"alpha", "beta"}
    assert [p for p in result.problems if p.is_error] == []


def test_eliminated_players_still_disprove():
    raw = convert(fixture("four_eliminated_disprover.txt"))
    out_at = next(i for i, r in enumerate(raw.records) if r["type"] == "accuse" and r["player"] == "SpockAI")
    assert raw.records[out_at]["correct"] is False
    later_shows = [
        r for r in raw.records[out_at:] if r["type"] == "suggest" and r["responses"][-1]["player"] == "SpockAI"
    ]
    assert later_shows and all(r["responses"][-1]["shows"] not in (None, "?") for r in later_shows)
    assert not any(
        r.get("player") == "SpockAI" for r in raw.records[out_at + 1 :] if r["type"] in ("turn", "suggest", "accuse")
    )
    _, result = checked(raw)
    assert result.eliminated == {"SpockAI"} and result.winner == "RandomAI"
    assert [p for p in result.problems if p.is_error] == []


def test_a_turn_record_precedes_every_suggestion():
    raw = convert(fixture("six_players.txt"))
    kinds = [r["type"] for r in raw.records if r["type"] in ("turn", "suggest")]
    assert kinds == ["turn", "suggest"] * (len(kinds) // 2)
    assert len(raw.records[0]["players"]) == 6


def test_several_games_in_one_file_with_the_launcher_and_protocol_lines():
    text = fixture("two_games.txt")
    result = speedclue.read(text, "two.txt")
    assert result.problems == []
    assert [g.records[0]["players"] for g in result.games] == [
        # each seat is played by a program: its name is also its strategy (a bot contest's game)
        [{"name": n, "strategy": n} for n in ("p1", "p2", "p3")],
        [{"name": n, "strategy": n} for n in ("p3", "p1", "p2")],
    ]
    assert all(g.text.startswith("This game's players are:\n") for g in result.games)
    assert "".join(g.text for g in result.games) in text + "\n"
    second_header = text.splitlines().index("This game's players are:", 20) + 1
    assert result.games[1].records[0]["x-source-line"] == second_header
    assert [g.records[-1]["winner"] for g in result.games] == ["p1", "p3"]


def replace_line(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def test_a_card_shown_but_not_held_is_rejected_by_the_rules():
    # beta holds Mustard, not Lounge; the transcript now says beta showed Lounge.
    text = replace_line(
        fixture("three_last_standing.txt"),
        'Player "beta" [1] shows Suspect{Mustard}.',
        'Player "beta" [1] shows Room{Lounge}.',
    )
    _, result = checked(convert(text))
    assert [p.code for p in result.problems if p.is_error] == ["shown_not_held"]


def test_a_pass_while_holding_a_card_is_rejected_by_the_rules():
    text = replace_line(
        fixture("three_last_standing.txt"),
        'Player "beta" [1] can disprove.\nPlayer "beta" [1] shows Suspect{Scarlet}.',
        "No player can disprove!",
    )
    _, result = checked(convert(text))
    assert "passed_holding" in [p.code for p in result.problems]


def test_a_wrong_verdict_is_rejected_by_the_rules():
    text = replace_line(fixture("three_last_standing.txt"), "It is incorrect.", "It is correct!")
    raw = convert(text)
    game, problems = build_game(raw)
    assert game is not None
    codes = [p.code for p in replay(game).problems if p.is_error]
    assert "accusation_mismatch" in codes


@pytest.mark.parametrize(
    ("old", "new", "code", "line"),
    [
        ('Player "beta" [1] shows Suspect{Mustard}.', 'Player "beta" [1] shows Suspect{Mustrad}.', "unknown_card", 32),
        ('Player "beta" [1] shows Suspect{Mustard}.', 'Player "gamma" [2] shows Suspect{Mustard}.', "bad_import", 32),
        ('Player "beta" [1] shows Suspect{Mustard}.', 'Player "beta" [2] shows Suspect{Mustard}.', "bad_import", 32),
        (
            'Player "beta" [1] shows Suspect{Mustard}.',
            'Player "omega" [1] shows Suspect{Mustard}.',
            "unknown_player",
            32,
        ),
        ("It is incorrect.", "It is wrong.", "bad_import", 42),
        ('Player "alpha" [0] makes no accusation.', "alpha passes the turn", "bad_import", 17),
    ],
)
def test_lines_that_cannot_be_converted_are_reported_with_their_line(old: str, new: str, code: str, line: int):
    raw = convert(replace_line(fixture("three_last_standing.txt"), old, new))
    assert (raw.problems[0].code, raw.problems[0].line) == (code, line)
    assert raw.problems[0].source_file == "t.txt"
    game, _ = build_game(raw)
    assert game is None  # an unconvertible line rejects the game, with its reason


def test_did_you_mean_for_a_misspelt_card():
    raw = convert(replace_line(fixture("three_last_standing.txt"), "shows Suspect{Mustard}", "shows Suspect{Mustrad}"))
    assert "did you mean 'Colonel Mustard'" in raw.problems[0].message


def test_a_truncated_transcript_has_no_end_and_reports_the_unanswered_suggestion():
    lines = fixture("three_last_standing.txt").splitlines()
    cut = lines.index('Player "beta" [1] suggests Suggestion{White, Knife, Library}.') + 1
    raw = convert("\n".join(lines[:cut]) + "\n")
    assert [r["type"] for r in raw.records][-2:] == ["accuse", "turn"]  # the suggestion is left out
    assert [(p.code, p.line) for p in raw.problems] == [("bad_import", cut)]


def test_a_file_without_a_game_is_a_file_problem():
    result = speedclue.read("hello\n", "x.txt")
    assert result.games == [] and [p.code for p in result.problems] == ["bad_import"]
