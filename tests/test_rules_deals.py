"""Deals checked against what is known: the envelope every dealt hand leaves, the outcomes
accusations can have, two end records, and a game's problems in line order."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

from typer.testing import CliRunner

from clue_stats.cli import app
from clue_stats.engine.editions import Deck
from clue_stats.engine.game import Accuse, Deal, Response, Suggest
from clue_stats.engine.rules import validate
from clue_stats.testing import make_game
from tests.helpers import FIXTURES

sys.path.insert(0, str(FIXTURES / "invalid"))

from make_fixtures import BASE

runner = CliRunner()


def _validate(tmp_path: Path, records: list[dict]) -> list[tuple[str, int]]:
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path), "--json"])
    return [(p["code"], p["line"]) for p in json.loads(result.stdout)["problems"]]


def _base(**changes) -> list[dict]:
    records = copy.deepcopy(BASE)
    for i, fields in changes.items():
        records[int(i[1:])].update(fields)
    return records


def test_three_players_holding_all_six_suspects_leave_no_possible_envelope(tmp_path):
    # the deal: every hand logged, no solution, and the suspects all dealt
    records = _base(
        r1={"cards": ["scarlett", "candlestick", "kitchen", "ballroom", "conservatory", "plum"]},
        r2={"cards": ["mustard", "dagger", "dining_room", "billiard_room", "lead_pipe", "peacock"]},
        r3={"cards": ["white", "green", "wrench", "lounge", "hall", "study"]},
    )[:4] + [{"type": "end", "winner": None, "solution": None}]
    problems = _validate(tmp_path, records)
    assert ("impossible_envelope", 4) in problems
    game_problems = validate_messages(records)
    assert "left for the envelope are Revolver, Rope, Library: no suspect" in game_problems["impossible_envelope"]


def validate_messages(records: list[dict]) -> dict[str, str]:
    from clue_stats.ingest import cluelog
    from clue_stats.ingest.raw import RawGame

    raw = RawGame(records=records, lines=list(range(1, len(records) + 1)), text="")
    game, problems = cluelog.build_game(raw)
    assert game is not None, problems
    return {p.code: p.message for p in validate(game).problems}


def test_a_wrong_accusation_of_the_only_possible_envelope_is_impossible(tmp_path):
    # every hand dealt, no solution logged; Cat's accusation names exactly the cards left over
    records = _base(r10={"suspect": "green"}, r14={"solution": None})
    assert ("impossible_accusation", 11) in _validate(tmp_path, records)
    message = validate_messages(records)["impossible_accusation"]
    assert message.startswith("Cat's accusation of Reverend Green, Rope, Library is logged as wrong")


def test_a_correct_accusation_of_a_dealt_card_is_blamed_on_the_accusation(tmp_path):
    # no solution in the end: the correct accusation is the solution, but Bob holds the Dagger
    records = _base(r13={"weapon": "dagger"}, r14={"solution": None})
    problems = _validate(tmp_path, records)
    assert ("impossible_accusation", 14) in problems
    assert not any(code == "envelope_card_dealt" for code, _ in problems)
    assert "Dagger cannot be in the envelope: Bob holds it" in validate_messages(records)["impossible_accusation"]


def test_an_outcome_no_deal_allows_is_found_by_counting_when_hands_are_unknown():
    deck = Deck.custom(["Plum", "Green"], ["Rope", "Knife"], ["Hall", "Study"])
    game = make_game(
        deck,
        ["Anna", "Ben"],
        [
            Deal(seq=0, player="Anna", cards=("plum", "rope")),
            # Ben holds none of these, so he holds Study and the envelope is Green, Knife, Hall
            Suggest(
                seq=0,
                player="Anna",
                suspect="green",
                weapon="knife",
                room="hall",
                responses=(Response("Ben", None),),
            ),
            Accuse(seq=0, player="Anna", suspect="green", weapon="knife", room="hall", correct=False),
        ],
        hand_sizes=(2, 1),
    )
    problems = [(p.code, p.seq) for p in validate(game).problems if p.is_error]
    assert problems == [("impossible_accusation", 3)]


def test_two_end_records_blame_the_second_not_the_accusation_before_them(tmp_path):
    records = copy.deepcopy(BASE) + [
        {"type": "end", "winner": "Bob", "solution": {"suspect": "plum", "weapon": "rope", "room": "library"}}
    ]
    assert _validate(tmp_path, records) == [("after_end", 16)]


def test_a_games_problems_come_in_line_order(tmp_path):
    records = _base(
        r1={"cards": ["scarlett", "candlestick", "kitchen", "ballroom", "conservatory", "rope"]},  # line 15's end
        r9={"responses": [{"player": "Bob", "shows": None}, {"player": "Ann", "shows": None}]},  # line 10
    )
    problems = _validate(tmp_path, records)
    assert [line for _, line in problems] == sorted(line for _, line in problems)
    assert problems[0] == ("response_order", 10) and ("envelope_card_dealt", 15) in problems
