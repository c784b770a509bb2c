"""effect-clue notebooks (importers.md 2), versions 6 to 12, on notebooks written from the schema."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clue_stats.engine.rules import replay
from clue_stats.ingest.cluelog import build_game
from clue_stats.ingest.importers import effect_clue

FIXTURES = Path(__file__).parent / "fixtures" / "importers" / "effect_clue"
VERSION_FILES = {int(p.name[1:].split("_")[0]): p for p in FIXTURES.glob("v*.json")}


def load(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def convert(data: dict | str):
    text = data if isinstance(data, str) else json.dumps(data)
    result = effect_clue.read(text, "n.json")
    assert result.problems == [], [str(p) for p in result.problems]
    assert len(result.games) == 1
    return result.games[0]


def of_type(raw, kind: str) -> list[dict]:
    return [r for r in raw.records if r["type"] == kind]


def rule_errors(raw) -> list[str]:
    game, problems = build_game(raw)
    assert game is not None, [str(p) for p in problems]
    return [p.code for p in replay(game).problems if p.is_error]


def test_every_version_from_6_to_12_is_read():
    assert sorted(VERSION_FILES) == list(range(6, 13))
    for version, path in VERSION_FILES.items():
        raw = convert(path.read_text(encoding="utf-8"))
        data = json.loads(path.read_text(encoding="utf-8"))
        assert raw.records[0]["source"] == f"effect-clue notebook (version {version})"
        assert len(of_type(raw, "suggest")) == len(data["suggestions"])
        assert [a["correct"] for a in of_type(raw, "accuse")] == [False] * len(data["accusations"])
        assert not of_type(raw, "end")  # a notebook never knows the winner
        assert rule_errors(raw) == []


def test_the_unordered_passes_and_the_edge_cases_of_version_12():
    raw = convert((FIXTURES / "v12_unordered_passes.json").read_text(encoding="utf-8"))
    t = lambda s: f"2026-02-02T02:40:0{s}.000Z"  # noqa: E731  (loggedAt 1770000000000 + s seconds)
    passes = lambda *names: [{"player": n, "shows": None} for n in names]  # noqa: E731
    assert raw.records == [
        {"type": "game", "format": "clue-log/1", "edition": "us-classic",
         "players": [{"name": "Ana", "hand_size": 5}, {"name": "Ben"}, {"name": "Cyd"}, {"name": "Dot"}],
         "perspective": "Ana", "source": "effect-clue notebook (version 12)"},
        {"type": "deal", "player": "Ana", "cards": ["lounge", "scarlett", "hall", "dagger", "kitchen"]},
        # loggedAt 0 sorts first and has no time; nonRefuters ["Cyd", "Ben"] answer in seat order.
        {"type": "suggest", "player": "Ana", "suspect": "green", "weapon": "rope", "room": "study",
         "responses": passes("Ben", "Cyd") + [{"player": "Dot", "shows": "green"}]},
        {"type": "suggest", "player": "Ben", "suspect": "white", "weapon": "rope", "room": "kitchen",
         "responses": [{"player": "Cyd", "shows": "?"}], "t": t(2)},
        {"type": "suggest", "player": "Cyd", "suspect": "plum", "weapon": "revolver", "room": "study",
         "responses": [{"player": "Dot", "shows": "?"}], "t": t(3)},
        # The same loggedAt: the suggestion comes before the accusation.
        {"type": "suggest", "player": "Dot", "suspect": "plum", "weapon": "rope", "room": "hall",
         "responses": [{"player": "Ana", "shows": "hall"}], "t": t(4)},
        {"type": "accuse", "player": "Dot", "suspect": "mustard", "weapon": "dagger", "room": "library", "correct": False, "t": t(4)},
        # Passes noted after the refuter cannot be said in clue-log/1: kept aside, with a warning.
        {"type": "suggest", "player": "Ana", "suspect": "plum", "weapon": "candlestick", "room": "study",
         "responses": [{"player": "Ben", "shows": "candlestick"}], "t": t(5), "x-passes-after-refuter": ["Cyd", "Dot"]},
        # Cyd sits between Ben and Ana but is not noted: a pass under the rules, named as implied.
        {"type": "suggest", "player": "Ben", "suspect": "scarlett", "weapon": "wrench", "room": "lounge",
         "responses": passes("Cyd", "Dot") + [{"player": "Ana", "shows": "scarlett"}], "t": t(6), "x-implied-passes": ["Cyd"]},
        # Nobody showed: everyone else passed, whether noted or not.
        {"type": "suggest", "player": "Cyd", "suspect": "plum", "weapon": "rope", "room": "study",
         "responses": passes("Dot", "Ana", "Ben"), "t": t(7), "x-implied-passes": ["Ben", "Dot"]},
        {"type": "reveal", "player": "Dot", "card": "revolver", "to": ["Ana"], "cause": "known card in the notebook"},
    ]  # fmt: skip
    assert [(p.code, p.is_error) for p in raw.problems] == [("import_dropped", False)]
    assert "suggestions[5]" in raw.problems[0].message
    game, problems = build_game(raw)
    assert game is not None and game.perspective == "Ana"
    assert [p.code for p in problems] == ["import_dropped"]
    assert rule_errors(raw) == []


def test_missing_hand_sizes_follow_the_first_dealt_player():
    raw = convert(load("v9_first_dealt.json"))
    # 18 cards, 4 players, the deal starts at Max (third): Max and Noa hold 5, Kim and Lee 4.
    assert raw.records[0]["players"] == [
        {"name": "Kim", "hand_size": 4}, {"name": "Lee", "hand_size": 4}, {"name": "Max", "hand_size": 5}, {"name": "Noa", "hand_size": 5},
    ]  # fmt: skip
    assert raw.records[1] == {"type": "deal", "player": "Lee", "cards": ["wrench", "peacock", "lead_pipe", "library"]}
    assert [(r["player"], r["to"]) for r in of_type(raw, "reveal")] == [("Noa", ["Lee"])] * 2


def test_without_hand_sizes_or_first_dealt_player_the_default_deal_stands():
    data = load("v9_first_dealt.json")
    data["handSizes"], data["firstDealtPlayerId"] = [], None
    raw = convert(data)
    assert raw.records[0]["players"] == [{"name": n} for n in ("Kim", "Lee", "Max", "Noa")]
    # Lee's 4 noted cards are no longer a whole hand (the default deal gives the second player 5).
    assert not of_type(raw, "deal")
    assert of_type(raw, "x-effect-clue-known-cards")[0]["player"] == "Lee"
    assert rule_errors(raw) == []


def test_an_observer_notebook_keeps_known_cards_aside():
    raw = convert(load("v6_observer.json"))
    assert "perspective" not in raw.records[0]
    assert raw.records[-1] == {"type": "x-effect-clue-known-cards", "player": "Cho", "cards": ["rope"]}
    assert [p.code for p in raw.problems] == ["import_dropped"]
    assert not of_type(raw, "deal")


def test_a_partial_own_hand_is_not_a_deal():
    data = load("v12_unordered_passes.json")
    data["hands"][0]["cards"] = data["hands"][0]["cards"][:3]
    raw = convert(data)
    assert not of_type(raw, "deal")
    assert of_type(raw, "x-effect-clue-known-cards") == [
        {"type": "x-effect-clue-known-cards", "player": "Ana", "cards": ["lounge", "scarlett", "hall"]}
    ]


def test_ui_only_fields_are_not_read():
    plain = convert(load("v7_hypotheses.json"))
    data = load("v7_hypotheses.json")
    data["hypotheses"] = []
    assert convert(data).records == plain.records
    draft = load("v8_pending_draft.json")
    data = copy.deepcopy(draft)
    data["pendingSuggestion"] = None
    assert convert(data).records == convert(draft).records


def test_master_detective_is_a_custom_deck():
    raw = convert(load("v10_master_detective.json"))
    header = raw.records[0]
    assert header["edition"] == "custom"
    assert [len(header["deck"][c]) for c in ("suspects", "weapons", "rooms")] == [10, 8, 12]
    assert "Mon. Brunette" in header["deck"]["suspects"] and "Trophy room" in header["deck"]["rooms"]
    assert [p["hand_size"] for p in header["players"]] == [5, 5, 5, 4, 4, 4]
    cards = {c for r in of_type(raw, "suggest") for c in (r["suspect"], r["weapon"], r["room"])}
    assert cards <= {"miss_scarlet", "col_mustard", "mrs_white", "mr_green", "mrs_peacock", "prof_plum", "miss_peach", "mon_brunette",
                     "madame_rose", "sgt_gray", "candlestick", "knife", "lead_pipe", "revolver", "rope", "wrench", "horseshoe", "poison",
                     "kitchen", "ball_room", "conservatory", "dining_room", "billiard_room", "library", "lounge", "hall", "study",
                     "courtyard", "gazebo", "trophy_room"}  # fmt: skip


def test_custom_categories_are_told_apart_by_their_names():
    raw = convert(load("v11_custom_deck.json"))
    assert raw.records[0]["deck"] == {
        "suspects": ["Père Ubu", "Frau Holle", "Max", "Moritz"],
        "weapons": ["Degen", "Gift", "Seil"],
        "rooms": ["Kirche", "Rathaus", "Bäckerei", "Schule"],
    }
    assert raw.records[1] == {"type": "deal", "player": "Wim", "cards": ["moritz", "rathaus"]}


def test_the_notebook_owner_passing_while_holding_a_card_is_rejected():
    data = load("v12_unordered_passes.json")
    # Ben's suggestion of White, Rope, Kitchen: Ana (who holds the Kitchen) is now said to pass before Cyd shows.
    entry = next(s for s in data["suggestions"] if s.get("id") == "suggestion-2")
    entry["suggester"], entry["nonRefuters"] = "Dot", ["Ana", "Ben"]
    assert "passed_holding" in rule_errors(convert(data))


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda d: d["suggestions"][0]["nonRefuters"].append("Ben"), "suggester_responds"),
        (lambda d: d["suggestions"][0].update(refuter="Ben"), "suggester_responds"),
        (lambda d: d["suggestions"][0].update(nonRefuters=["Cyd"]), "bad_import"),  # Cyd both passes and shows
        (lambda d: d["suggestions"][1].update(refuter=None), "bad_import"),  # a seen card, but nobody showed
        (
            lambda d: d["suggestions"][0]["cards"].__setitem__(0, "card-mrs-peacock"),
            "bad_import",
        ),  # two suspects, no room
        (lambda d: d["suggestions"][0]["cards"].__setitem__(0, "card-gazebo"), "unknown_card"),
        (lambda d: d["suggestions"][0].update(suggester="Eve"), "unknown_player"),
        (lambda d: d["suggestions"][0].pop("loggedAt"), "missing_field"),
        (lambda d: d["accusations"][0].update(cards=["card-knife"]), "bad_import"),
    ],
)
def test_records_that_cannot_be_converted_reject_the_game_with_the_reason(change, code: str):
    data = load("v12_unordered_passes.json")
    change(data)
    raw = convert(data)
    assert code in [p.code for p in raw.problems if p.is_error]
    assert build_game(raw)[0] is None


@pytest.mark.parametrize(
    ("change", "code", "words"),
    [
        (lambda d: d.update(version=5), "bad_import", "only versions 6 to 12"),
        (lambda d: d.update(version=13), "bad_import", "only versions 6 to 12"),
        (lambda d: d.pop("handSizes"), "missing_field", "handSizes"),
        (lambda d: d.update(selfPlayerId=7), "bad_value", "selfPlayerId"),
        (lambda d: d.update(selfPlayerId="Zed"), "unknown_player", "Zed"),
        (
            lambda d: d["setup"]["categories"].append(
                {"id": "category-x", "name": "Motive", "cards": [{"id": "card-x", "name": "Greed"}]}
            ),
            "bad_deck",
            "4 categories",
        ),
        (lambda d: d["setup"].update(players=["Ana", "Ana", "Cyd", "Dot"]), "bad_players", "twice"),
        (lambda d: d["handSizes"].append({"player": "Ben", "size": -1}), "bad_value", "whole number"),
    ],
)
def test_notebooks_that_cannot_be_converted_are_file_problems(change, code: str, words: str):
    data = load("v12_unordered_passes.json")
    change(data)
    result = effect_clue.read(json.dumps(data), "n.json")
    assert result.games == []
    assert [p.code for p in result.problems][:1] == [code] and words in result.problems[0].message


def test_not_json_is_a_file_problem():
    result = effect_clue.read("{not json", "n.json")
    assert [p.code for p in result.problems] == ["bad_json"] and result.games == []


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_the_order_of_cards_passes_and_keys_does_not_matter(rnd):
    data = load("v12_unordered_passes.json")
    expected = convert(data).records
    for entry in data["suggestions"] + data["accusations"]:
        rnd.shuffle(entry["cards"])
        if "nonRefuters" in entry:
            rnd.shuffle(entry["nonRefuters"])
    keys = list(data)
    rnd.shuffle(keys)
    assert convert({k: data[k] for k in keys}).records == expected
