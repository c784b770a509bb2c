"""first_inconsistent: the validator's view of a whole log."""

from __future__ import annotations

from clue_stats.engine.deduction import first_inconsistent
from clue_stats.engine.editions import Deck
from clue_stats.engine.game import UNSEEN, Accuse, Deal, End, Response, Suggest
from clue_stats.engine.problems import CODES
from clue_stats.testing import make_game, random_game, small_deck

DECK = Deck.custom(["Plum", "Green"], ["Rope", "Knife"], ["Hall", "Study"])


def suggest(player, s, w, r, *responses):
    return Suggest(seq=0, player=player, suspect=s, weapon=w, room=r, responses=tuple(Response(*x) for x in responses))


def test_generated_games_are_consistent():
    for seed in range(5):
        assert (
            first_inconsistent(random_game(seed, n_players=3 + seed % 4, n_suggestions=20, wrong_accusations=1)) is None
        )
    assert first_inconsistent(random_game(1, n_players=3, n_suggestions=8, deck=small_deck())) is None


def test_a_pass_while_holding_contradicts_the_deal():
    game = make_game(
        DECK,
        ["Anna", "Ben"],
        [
            Deal(seq=0, player="Ben", cards=("hall",)),
            suggest("Anna", "plum", "rope", "study", ("Ben", None)),  # fine: Ben has none of them
            suggest("Anna", "green", "knife", "hall", ("Ben", None)),  # Ben holds Hall
        ],
    )
    assert first_inconsistent(game) == (3, [1])


def test_hands_unknown_the_contradiction_names_a_minimal_set_of_records():
    # with Mustard in the deck, Ben's one card could be Mustard: only the clause makes it Hall
    deck = Deck.custom(["Plum", "Green", "Mustard"], ["Rope", "Knife"], ["Hall", "Study"])
    game = make_game(
        deck,
        ["Anna", "Ben"],
        [
            suggest("Anna", "plum", "rope", "hall", ("Ben", UNSEEN)),  # Ben holds one of them
            suggest("Anna", "green", "knife", "study", ("Ben", None)),  # irrelevant to what follows
            suggest("Anna", "plum", "knife", "study", ("Ben", None)),  # not Plum
            suggest("Anna", "green", "rope", "study", ("Ben", None)),  # not Rope: so Hall
            suggest("Anna", "green", "knife", "hall", ("Ben", None)),  # but not Hall
        ],
        hand_sizes=(3, 1),
    )
    assert first_inconsistent(game) == (5, [1, 3, 4])


def test_the_solution_is_checked_against_the_hands():
    game = make_game(
        DECK,
        ["Anna", "Ben"],
        [
            Deal(seq=0, player="Ben", cards=("hall",)),
            Accuse(seq=0, player="Anna", suspect="plum", weapon="rope", room="hall", correct=True),
        ],
    )
    assert first_inconsistent(game) == (2, [1])
    ended = make_game(
        DECK,
        ["Anna", "Ben"],
        [
            Deal(seq=0, player="Anna", cards=("plum", "rope")),
            End(seq=0, winner=None, solution=("plum", "knife", "hall")),
        ],
    )
    assert first_inconsistent(ended) == (2, [1])


def test_the_problem_code_is_registered():
    assert CODES["inconsistent"][0] == "error"


def test_the_records_a_contradiction_needs_are_named_by_the_lines_of_the_file_and_the_turns():
    """The problem of the file's line 6 names the lines people typed (and the turns: a suggestion a
    turn), not the records' numbers (seq 1, 3 and 4)."""
    from clue_stats.engine import rules
    from clue_stats.ingest.cluelog import build_game, read_text

    header = (
        '{"type":"game","format":"clue-log/1","id":"contra","edition":"custom","deck":{"suspects":["Plum",'
        '"Green","Mustard"],"weapons":["Rope","Knife"],"rooms":["Hall","Study"]},"players":[{"name":"Anna",'
        '"hand_size":3},{"name":"Ben","hand_size":1}]}'
    )
    asked = [("plum", "rope", "hall", '"?"'), ("green", "knife", "study", "null"), ("plum", "knife", "study", "null")]
    asked += [("green", "rope", "study", "null"), ("green", "knife", "hall", "null")]
    lines = [
        f'{{"type":"suggest","player":"Anna","suspect":"{s}","weapon":"{w}","room":"{r}",'
        f'"responses":[{{"player":"Ben","shows":{shown}}}]}}'
        for s, w, r, shown in asked
    ]
    game, _ = build_game(read_text("\n".join([header, *lines]) + "\n").games[0])
    assert game is not None
    found = [p for p in rules.validate(game).problems if p.code == "inconsistent"]
    assert [(p.seq, p.line) for p in found] == [(5, 6)]
    assert found[0].message.endswith("it contradicts line 2 (turn 1), line 4 (turn 3) and line 5 (turn 4)")
