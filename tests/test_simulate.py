"""The simulator: complete, valid, fair and reproducible games; the strategies' notebooks."""

from __future__ import annotations

from collections import Counter
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clue_stats.engine.editions import edition
from clue_stats.engine.game import Accuse, Deal, End, Move, Response, Suggest, Turn
from clue_stats.engine.movement import check_movement
from clue_stats.engine.rules import validate
from clue_stats.engine.simulate import SimulationError, custom_deck, seating, setup, simulate
from clue_stats.engine.strategies import Notebook, parse_spec
from clue_stats.ingest.cluelog import build_game, read_text, write_game


def errors(game) -> list[str]:
    return [str(p) for p in validate(game).problems if p.is_error]


@pytest.mark.parametrize(
    "players, ed, strategies",
    [
        (3, "classic", ["notebook"]),
        (4, "us-classic", ["random", "notebook", "bluffer", "notebook:0.4"]),
        (6, "uk-2020", ["notebook:0.5", "bluffer"]),
        (5, "de-2023", ["bluffer", "random"]),
        (2, "classic", ["random", "notebook"]),
    ],
)
def test_simulated_games_are_complete_and_valid(players: int, ed: str, strategies: list[str]) -> None:
    for game in simulate(8, players, ed, strategies, seed=11):
        assert errors(game) == []
        assert check_movement(game) == []
        assert {r.player for r in game.records if isinstance(r, Deal)} == set(game.names)
        assert all(p.strategy in strategies for p in game.players)
        end = game.records[-1]
        assert isinstance(end, End) and end.solution is not None
        assert any(isinstance(r, Move) and r.path for r in game.records)
        assert all(isinstance(r, Turn) for r in game.records[players : players + 1])


def test_entropy_players_ask_the_deduction_engine_and_play_valid_games(monkeypatch: pytest.MonkeyPatch) -> None:
    from clue_stats.engine import deduction
    from clue_stats.engine.strategies import EntropyStrategy

    asked = []
    exact = deduction.expected_gain
    monkeypatch.setattr(deduction, "expected_gain", lambda *args: asked.append(args) or exact(*args))
    for game in simulate(2, 3, "classic", ["entropy", "notebook", "random"], seed=13):
        assert errors(game) == []
        assert any(isinstance(r, Suggest) and r.player.startswith("entropy") for r in game.records)
    assert EntropyStrategy.name == "entropy"
    assert asked  # the suspect and weapon come from the exact expected gain


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 6])
def test_custom_decks_are_played_without_a_board_and_validate(players: int) -> None:
    deck = custom_deck(10, 8, 12)
    games = list(simulate(6, players, strategies=["notebook", "bluffer"], seed=3, deck=deck))
    assert [write_game(g) for g in games] == [
        write_game(g) for g in simulate(6, players, seed=3, deck=deck, strategies=["notebook", "bluffer"])
    ]
    for game in games:
        assert game.edition is None and game.deck == deck and game.variant.id == "live"
        assert errors(game) == []
        assert not any(isinstance(r, Move) or (isinstance(r, Turn) and r.roll is not None) for r in game.records)
        suggestions = [r for r in game.records if isinstance(r, Suggest)]
        assert suggestions and {r.room for r in suggestions} <= set(deck.rooms)
        # the live variant: a suggestion every turn, then maybe the accusation
        assert len(suggestions) == sum(isinstance(r, Turn) for r in game.records)
    read = read_text("".join(write_game(g) for g in games), "md.jsonl")
    assert not read.problems and all(build_game(raw)[0].deck == deck for raw in read.games)


def test_written_and_read_back_games_validate() -> None:
    text = "".join(write_game(g) for g in simulate(6, 4, "classic", ["notebook", "bluffer"], seed=5))
    read = read_text(text, "sim.jsonl")
    assert len(read.games) == 6 and not read.problems
    for raw in read.games:
        game, problems = build_game(raw)
        assert game is not None and not [p for p in problems if p.is_error]
        assert errors(game) == []


def test_same_seed_same_games_and_another_seed_other_games() -> None:
    def texts(seed: int) -> list[str]:
        return [write_game(g) for g in simulate(4, 4, "classic", ["notebook", "random"], seed=seed)]

    assert texts(7) == texts(7)
    assert texts(7) != texts(8)


def test_game_i_does_not_depend_on_how_many_games_are_played() -> None:
    short = [write_game(g) for g in simulate(2, 3, "classic", ["notebook"], seed=3)]
    long = [write_game(g) for g in simulate(5, 3, "classic", ["notebook"], seed=3)]
    assert long[:2] == short


@pytest.mark.parametrize("players", [3, 4, 6])
def test_every_strategy_plays_every_seat_and_character_equally_often(players: int) -> None:
    plan = setup(players, "classic", ["notebook"] * players, seed=0)
    n_games = players * comb(6, players)
    seat_count: Counter = Counter()
    character_count: Counter = Counter()
    for index in range(n_games):
        for seat, (name, character, _) in enumerate(seating(plan, index)):
            seat_count[(name, seat)] += 1
            character_count[(name, character)] += 1
    slots = {f"notebook-{j + 1}" for j in range(players)}
    assert set(seat_count.values()) == {comb(6, players)}
    assert {name for name, _ in seat_count} == slots
    # each slot plays each character in every choice containing it: C(5, players - 1) times
    assert set(character_count.values()) == {comb(5, players - 1)}
    assert len(character_count) == players * 6


def test_seats_run_clockwise_from_the_first_player() -> None:
    clockwise = ["scarlett", "mustard", "white", "green", "peacock", "plum"]
    for game in simulate(12, 3, "classic", ["notebook"], seed=2):
        chars = [p.character for p in game.players]
        assert chars == sorted(chars, key=clockwise.index)
        first_turn = next(r for r in game.records if isinstance(r, Turn))
        assert first_turn.player == game.names[0]


def test_clue_card_editions_play_the_traditional_variant() -> None:
    game = next(iter(simulate(1, 3, "uk-2020", ["notebook"], seed=1)))
    assert game.variant.id == "traditional"
    assert {p.character for p in game.players} <= set(edition("uk-2020").deck.suspects)
    assert not any(r.type == "clue_card" for r in game.records)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"players": 4, "strategies": ["clever"]}, "unknown strategy"),
        ({"players": 2, "strategies": ["notebook"] * 3}, "3 strategies for 2 players"),
        ({"players": 7, "strategies": ["notebook"]}, "2 to 6 players"),
        ({"players": 4, "strategies": ["notebook"], "variant": "live"}, "without a board"),
        ({"players": 2, "strategies": ["notebook"], "variant": "duel", "edition": "uk-2020"}, "not duel"),
        ({"players": 4, "strategies": ["notebook:2"]}, "threshold"),
        ({"players": 4, "strategies": ["notebook"], "edition": "monopoly"}, "unknown edition"),
    ],
)
def test_parameters_the_simulator_cannot_play(kwargs: dict, words: str) -> None:
    with pytest.raises(SimulationError, match=words):
        simulate(1, **kwargs)


def test_notebook_players_never_name_a_card_they_know_is_out() -> None:
    for game in simulate(10, 4, "classic", ["notebook"], seed=9):
        hands = game.hands()
        seen: dict[str, set[str]] = {n: set(h) for n, h in hands.items()}
        for r in game.records:
            if isinstance(r, Suggest):
                assert r.suspect not in seen[r.player] and r.weapon not in seen[r.player]
                shower = r.shower
                if shower is not None:
                    seen[r.player].add(shower.shows)


def test_bluffers_name_their_own_cards() -> None:
    own = total = 0
    for game in simulate(6, 4, "classic", ["bluffer"], seed=4):
        hands = game.hands()
        for r in game.records:
            if isinstance(r, Suggest):
                total += 1
                own += any(c in hands[r.player] for c in (r.suspect, r.weapon))
    assert own > total / 2


@pytest.mark.slow
def test_risk_takers_accuse_earlier_and_sometimes_wrongly() -> None:
    def accusations(spec: str) -> tuple[int, int]:
        wrong = turns = 0
        for game in simulate(30, 3, "classic", [spec], seed=21):
            wrong += sum(1 for r in game.records if isinstance(r, Accuse) and not r.correct)
            turns += sum(1 for r in game.records if isinstance(r, Turn))
        return wrong, turns

    careful, bold = accusations("notebook"), accusations("notebook:0.2")
    assert careful[0] == 0 and bold[0] > 0
    assert bold[1] < careful[1]


def test_spec_parsing() -> None:
    assert parse_spec("notebook") == ("notebook", None)
    name, threshold = parse_spec("bluffer:0.25")
    assert name == "bluffer" and threshold == pytest.approx(0.25)


def _notebook(me: str = "A") -> Notebook:
    deck = edition("classic").deck
    # A holds 6 cards; B and C 6 each; envelope 3.
    hand = ["scarlett", "mustard", "candlestick", "dagger", "kitchen", "ballroom"]
    return Notebook(me, ("A", "B", "C"), deck, hand, (6, 6, 6))


def _suggest(player: str, cards: tuple[str, str, str], responses: list[tuple[str, str | None]]) -> Suggest:
    return Suggest(
        seq=1,
        player=player,
        suspect=cards[0],
        weapon=cards[1],
        room=cards[2],
        responses=tuple(Response(p, s) for p, s in responses),
    )


def test_notebook_everyone_passing_puts_unheld_cards_in_the_envelope() -> None:
    nb = _notebook()
    nb.observe(_suggest("A", ("plum", "rope", "study"), [("B", None), ("C", None)]))
    assert nb.envelope == {"suspects": "plum", "weapons": "rope", "rooms": "study"}
    assert nb.certain() == ("plum", "rope", "study")


def test_notebook_resolves_a_clause_and_does_not_see_others_cards() -> None:
    nb = _notebook()
    nb.observe(_suggest("B", ("plum", "rope", "study"), [("C", "rope")]))  # shown to B, not to A
    assert "rope" not in nb.holder
    nb.observe(_suggest("A", ("plum", "lead_pipe", "study"), [("B", None), ("C", "lead_pipe")]))
    assert "plum" in nb.lacks["B"] and nb.holder["lead_pipe"] == "C"
    nb.passed("C", ["plum", "study"])
    assert nb.holder["rope"] == "C"  # C showed one of plum, rope, study and lacks the other two


def test_notebook_full_hand_and_last_candidate() -> None:
    nb = _notebook()
    for card in ["white", "green", "revolver", "rope", "hall", "lounge"]:
        nb.saw("B", card)
    assert nb.lacks["B"] >= {"peacock", "plum", "lead_pipe", "wrench", "study"}  # B's hand is full
    assert "suspects" not in nb.envelope
    nb.saw("C", "peacock")
    assert nb.envelope["suspects"] == "plum" and nb.candidates("suspects") == ["plum"]
    assert nb.is_out("peacock") and not nb.is_out("plum")


def test_notebook_wrong_accusation_clears_the_third_card() -> None:
    nb = _notebook()
    nb.observe(_suggest("A", ("plum", "rope", "kitchen"), [("B", None), ("C", None)]))  # the Kitchen is A's
    assert nb.envelope == {"suspects": "plum", "weapons": "rope"}
    nb.wrong_accusation(("plum", "rope", "study"))
    assert "study" not in nb.candidates("rooms") and "hall" in nb.candidates("rooms")


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 6))
def test_any_seed_gives_valid_games(seed: int, players: int) -> None:
    game = next(iter(simulate(1, players, "classic", ["notebook", "random", "bluffer"][:players], seed=seed)))
    assert errors(game) == []


def test_a_tampered_roll_in_a_simulated_game_is_caught() -> None:
    from dataclasses import replace

    game = next(iter(simulate(1, 4, "classic", ["notebook"], seed=12)))
    walks = [
        i for i, r in enumerate(game.records) if isinstance(r, Move) and r.via == "walk" and len(r.path or ()) >= 3
    ]
    i = walks[0]
    turn_index = max(j for j in range(i) if isinstance(game.records[j], Turn))
    game.records[turn_index] = replace(game.records[turn_index], roll=(1, 1))
    assert [(p.code, p.seq) for p in check_movement(game)] == [("bad_move", game.records[i].seq)]


def test_a_room_where_a_suggestion_taught_nothing_loses_its_value() -> None:
    import random

    from clue_stats.engine.strategies import Seat, make_strategy

    deck = edition("classic").deck
    hand = ("scarlett", "mustard", "candlestick", "dagger", "kitchen", "ballroom")
    player = make_strategy("notebook", Seat("A", ("A", "B", "C"), deck, hand, (6, 6, 6), "scarlett"), random.Random(1))
    first = _suggest("A", ("plum", "rope", "hall"), [("B", "hall")])
    player.observe(None, first)
    assert player.value(None, "hall") > 0  # (held by B: still good to ask about suspects)
    player.observe(None, _suggest("A", ("plum", "wrench", "hall"), [("B", "hall")]))
    assert player.notebook.clauses == [] and player.value(None, "hall") == 0.0
    player.observe(None, _suggest("B", ("plum", "wrench", "study"), [("C", None), ("A", None)]))
    assert player.value(None, "hall") > 0  # (something new was learnt since)
