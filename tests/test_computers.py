"""The registered computers of one game's analysis, on games small enough to check by hand."""

from __future__ import annotations

import pytest

from clue_stats.analysis.computers.game_analysis import analyse_game
from clue_stats.analysis.computers.registry import COMPUTERS, GainedAgainstExpectedComputer, gained_against_expected
from clue_stats.engine import budget
from clue_stats.testing import random_game
from tests.helpers import docs_log, load


def test_information_gained_against_expected_in_the_worked_example() -> None:
    """docs/analysis.md: Anna's first suggestion was expected to gain 1.25 bits and taught her 1."""
    rows = analyse_game(load(docs_log("## Worked example")))
    first = next(s for s in rows.tables["suggestions"] if s["seq"] == 4)
    assert first["expected_gain_bits"] == pytest.approx(1.25)
    assert first["gained_bits"] == pytest.approx(1.0)
    assert first["gained_vs_expected_bits"] == pytest.approx(-0.25)
    players = {p["name"]: p for p in rows.tables["players"]}
    anna = [s for s in rows.tables["suggestions"] if s["player"] == "Anna"]
    assert players["Anna"]["gained_vs_expected_bits"] == pytest.approx(sum(s["gained_vs_expected_bits"] for s in anna))


def test_named_cards_already_known_in_the_worked_example() -> None:
    """docs/analysis.md, "Named cards already known": Anna knows the Knife from her deal, Ben the Study
    (he holds the Hall); then each also knows what the other showed or what follows from it."""
    rows = analyse_game(load(docs_log("## Worked example")))
    known = {s["seq"]: s["known_named_cards"] for s in rows.tables["suggestions"]}
    assert known == {4: 1, 6: 1, 8: 2, 10: 2}


def test_the_refuters_choice_is_stored_in_the_worked_example() -> None:
    """docs/analysis.md, "What the refuter gave away": Ben held Green and the Hall when Anna named them,
    Anna Plum and the Rope when Ben did (a choice each time); nobody showed at seq 8 and 10."""
    rows = analyse_game(load(docs_log("## Worked example")))
    choices = {s["seq"]: s["refuter_choices"] for s in rows.tables["suggestions"]}
    assert choices == {4: 2, 6: 2, 8: None, 10: None}


@pytest.mark.parametrize("seed", range(4))
def test_named_cards_already_known_are_the_suggesters_own_cards_at_least(seed: int) -> None:
    """A card in the suggester's hand is always known, a card nobody could know yet (before any answer,
    not held) never is; unrated suggestions have none."""
    game = random_game(seed, n_players=4, n_suggestions=12)
    hands = game.hands()
    rows = analyse_game(game, review=False)
    first = min(s["seq"] for s in rows.tables["suggestions"])
    for s in rows.tables["suggestions"]:
        if s["player"] not in hands:
            assert s["known_named_cards"] is None
            continue
        named = {s["suspect"], s["weapon"], s["room"]}
        assert len(named & hands[s["player"]]) <= s["known_named_cards"] <= 3
        if s["seq"] == first:  # nothing answered yet: only the own cards are known (no card is deduced at 4 players)
            assert s["known_named_cards"] == len(named & hands[s["player"]])


@pytest.mark.parametrize("seed", range(4))
def test_gained_is_the_suggesters_own_information_at_the_record(seed: int) -> None:
    game = random_game(seed, n_players=4, n_suggestions=12)
    rows = analyse_game(game, review=False)
    gains = {(i["observer"], i["seq"]): i["gain_bits"] for i in rows.tables["information"]}
    rated = [s for s in rows.tables["suggestions"] if s["expected_gain_bits"] is not None]
    assert rated
    for s in rated:
        assert s["gained_bits"] == gains[(s["player"], s["seq"])]
        assert s["gained_vs_expected_bits"] == pytest.approx(s["gained_bits"] - s["expected_gain_bits"])
    for p in rows.tables["players"]:
        own = [s["gained_vs_expected_bits"] for s in rated if s["player"] == p["name"]]
        assert p["gained_vs_expected_bits"] == (pytest.approx(sum(own)) if own else None)


def test_where_the_budget_cut_the_expected_gain_nothing_is_made_up() -> None:
    rows = analyse_game(random_game(7, n_players=5, n_suggestions=20), limits=budget.Limits(states=20000))
    assert rows.tables["games"][0]["analysis_cut"]  # the budget cut some stage
    for s in rows.tables["suggestions"]:
        if s["expected_gain_bits"] is None:
            assert s.get("gained_vs_expected_bits") is None
    assert gained_against_expected(None, 1.0) is None and gained_against_expected(2.0, 1.5) == 0.5


def test_the_computer_is_registered_once() -> None:
    kinds = [type(c) for c in COMPUTERS]
    assert kinds.count(GainedAgainstExpectedComputer) == 1 and len(set(kinds)) == len(kinds)
