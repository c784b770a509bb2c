"""Movement checks: small inline logs on the classic board, one rule each."""

from __future__ import annotations

import json

import pytest

from clue_stats.engine.board import load_board
from clue_stats.engine.movement import check_movement, roll_total, walk_problem
from clue_stats.ingest.cluelog import build_game, read_text

PLAYERS = (("Anna", "scarlett"), ("Ben", "mustard"), ("Cleo", "white"))

# Anna (Miss Scarlett, from 24,7) into the Lounge: 7 corridor squares and the door, 8 moves.
TO_LOUNGE = [[23, 7], [22, 7], [21, 7], [20, 7], [19, 7], [18, 7], [18, 6]]
# Ben (Colonel Mustard, from 17,0) onto the square in front of the Lounge door: 7 moves.
BEN_TO_LOUNGE_DOOR = [[17, 1], [17, 2], [17, 3], [17, 4], [17, 5], [17, 6], [18, 6]]


def game_of(*records: dict, edition: str = "classic", players=PLAYERS):
    header = {
        "type": "game",
        "format": "clue-log/1",
        "edition": edition,
        "players": [{"name": n, "character": c} if c else {"name": n} for n, c in players],
    }
    text = "\n".join(json.dumps(r) for r in (header, *records))
    read = read_text(text)
    game, problems = build_game(read.games[0])
    assert game is not None, [str(p) for p in problems]
    return game


def turn(player: str, *roll) -> dict:
    return {"type": "turn", "player": player, **({"roll": list(roll)} if roll else {})}


def move(player: str, to, path=None, via=None) -> dict:
    record = {"type": "move", "player": player, "to": to}
    if path is not None:
        record["path"] = path
    if via is not None:
        record["via"] = via
    return record


def suggest(player: str, suspect: str, room: str, weapon: str = "rope") -> dict:
    others = [n for n, _ in PLAYERS if n != player]
    names = [n for n, _ in PLAYERS]
    seat = names.index(player)
    order = [names[(seat + i) % 3] for i in (1, 2)]
    assert set(order) == set(others)
    return {
        "type": "suggest",
        "player": player,
        "suspect": suspect,
        "weapon": weapon,
        "room": room,
        "responses": [{"player": p, "shows": None} for p in order],
    }


def accuse(player: str, room: str = "hall") -> dict:
    return {"type": "accuse", "player": player, "suspect": "plum", "weapon": "rope", "room": room, "correct": False}


def codes(game) -> list[tuple[str, int]]:
    return [(p.code, p.seq) for p in check_movement(game)]


def test_a_legal_walk_into_a_room_and_a_suggestion_there() -> None:
    game = game_of(turn("Anna", 4, 4), move("Anna", "lounge", TO_LOUNGE), suggest("Anna", "plum", "lounge"))
    assert check_movement(game) == []


def test_a_room_needs_at_most_the_roll() -> None:
    game = game_of(turn("Anna", 3, 4), move("Anna", "lounge", TO_LOUNGE))
    [problem] = check_movement(game)
    assert problem.code == "bad_move" and problem.seq == 2
    assert "Anna" in problem.message and "needs 8 moves" in problem.message and "roll of 7" in problem.message


def test_a_walk_that_breaks_the_rules_is_said_in_the_readers_language() -> None:
    """The walk's problem, a phrase inside a phrase (the walk, why it breaks the rules, the squares),
    in German and Swedish; the room's name as the edition has it."""
    from clue_stats.analysis import words

    game = game_of(turn("Anna", 2, 3), move("Anna", [20, 7], TO_LOUNGE[:4]))
    [problem] = check_movement(game)
    english = problem.message
    assert english.endswith(": walks 4 squares with a roll of 5 (a walk that ends outside a room uses the whole roll)")
    with words.speaking("de"):
        german = words.problem_message(problem)
    with words.speaking("sv"):
        swedish = words.problem_message(problem)
    assert german.startswith("Weg von ") and " nach Feld 20,7: geht 4 Felder bei einem Wurf von 5 " in german
    assert swedish.endswith(
        " till ruta 20,7: går 4 rutor med ett slag på 5 (en väg som slutar utanför ett rum använder hela slaget)"
    )
    assert words.problem_message(problem) == english


def test_a_walk_ending_in_the_corridor_uses_the_whole_roll() -> None:
    game = game_of(turn("Anna", 2, 3), move("Anna", [20, 7], TO_LOUNGE[:4]))
    [problem] = check_movement(game)
    assert "walks 4 squares with a roll of 5" in problem.message


def test_a_magnifier_counts_one() -> None:
    uk = (("Anna", "scarlett"), ("Ben", "mustard"), ("Cleo", "orchid"))
    assert roll_total(("?", 6), 1) == 7 and roll_total(("?", 6), 0) is None
    walk7 = game_of(
        turn("Anna", "?", 6), move("Anna", [17, 7], TO_LOUNGE[:6] + [[17, 7]]), edition="uk-2020", players=uk
    )
    assert check_movement(walk7) == []
    walk8 = game_of(turn("Anna", "?", 6), move("Anna", "lounge", TO_LOUNGE), edition="uk-2020", players=uk)
    assert [p.code for p in check_movement(walk8)] == ["bad_move"]


@pytest.mark.parametrize(
    "path, words",
    [
        ([[23, 7], [22, 8], [21, 8], [20, 8], [19, 8]], "not one orthogonal step"),
        ([[23, 7], [22, 7], [21, 7], [22, 7], [23, 7]], "twice"),
        ([[23, 7], [24, 7], [23, 7], [22, 7], [21, 7]], "twice"),  # back over the start square
        ([[23, 7], [23, 6], [22, 6], [21, 6], [20, 6]], "not a corridor square"),  # through the Lounge wall
        ([[23, 7], [22, 7], [21, 7], [20, 7], [20, 8]], "ends at"),
    ],
)
def test_path_rules(path, words) -> None:
    game = game_of(turn("Anna", 2, 3), move("Anna", [19, 8], path))
    [problem] = check_movement(game)
    assert problem.code == "bad_move" and words in problem.message


def test_a_room_is_entered_only_through_its_door() -> None:
    # The Lounge door at 19,6 opens upwards: 19,7 is beside the door square but not in front of it.
    game = game_of(turn("Anna", 4, 4), move("Anna", "lounge", TO_LOUNGE[:5]))
    [problem] = check_movement(game)
    assert "not in front of one of its doors" in problem.message


def test_no_square_another_token_stands_on_and_no_blocked_door() -> None:
    game = game_of(
        turn("Anna", 1, 1),
        move("Anna", [22, 7], TO_LOUNGE[:2]),
        turn("Ben", 3, 4),
        move("Ben", [18, 6], BEN_TO_LOUNGE_DOOR),
        turn("Cleo", 1, 1),
        move("Cleo", [1, 8], [[1, 9], [1, 8]]),
        turn("Anna", 3, 3),
        move("Anna", "lounge", TO_LOUNGE[2:]),
    )
    [problem] = check_movement(game)
    assert problem.seq == 8 and "18,6" in problem.message and "Colonel Mustard" in problem.message


def test_a_token_of_a_character_nobody_plays_blocks_too() -> None:
    # Mrs Peacock's token stands on her start square 6,23 although nobody plays her.
    game = game_of(
        turn("Anna", 1, 1),
        move("Anna", [6, 23], [[5, 22], [6, 23]]),
        players=(("Anna", "green"), ("Ben", "plum"), ("Cleo", "mustard")),
    )
    assert any("Mrs Peacock" in p.message for p in check_movement(game))


def test_secret_passage_only_instead_of_rolling() -> None:
    into = [turn("Anna", 4, 4), move("Anna", "lounge", TO_LOUNGE)]
    ok = game_of(
        *into,
        turn("Ben", 1, 1),
        move("Ben", [17, 2], [[17, 1], [17, 2]]),
        turn("Cleo"),
        turn("Anna"),
        move("Anna", "conservatory", via="passage"),
    )
    assert check_movement(ok) == []
    inferred = game_of(
        *into,
        turn("Ben", 1, 1),
        move("Ben", [17, 2], [[17, 1], [17, 2]]),
        turn("Cleo"),
        turn("Anna"),
        move("Anna", "conservatory"),
    )
    assert check_movement(inferred) == []
    rolled = game_of(
        *into,
        turn("Ben", 1, 1),
        move("Ben", [17, 2], [[17, 1], [17, 2]]),
        turn("Cleo"),
        turn("Anna", 3, 3),
        move("Anna", "conservatory", via="passage"),
    )
    assert ["replaces the roll" in p.message for p in check_movement(rolled)] == [True]
    wrong = game_of(
        *into,
        turn("Ben", 1, 1),
        move("Ben", [17, 2], [[17, 1], [17, 2]]),
        turn("Cleo"),
        turn("Anna"),
        move("Anna", "kitchen", via="passage"),
    )
    assert ["leads to Conservatory" in p.message for p in check_movement(wrong)] == [True]
    corridor = game_of(turn("Anna"), move("Anna", "study", via="passage"))
    assert ["where there is none" in p.message for p in check_movement(corridor)] == [True]


def test_staying_is_for_rooms() -> None:
    game = game_of(turn("Anna"), move("Anna", [24, 7], via="stay"))
    assert ["only a token in a room" in p.message for p in check_movement(game)] == [True]


def test_one_move_per_turn() -> None:
    game = game_of(turn("Anna", 1, 1), move("Anna", [22, 7], TO_LOUNGE[:2]), move("Anna", [20, 7], TO_LOUNGE[2:4]))
    assert codes(game) == [("bad_move", 3)]


def test_suggestion_room_is_where_the_token_stands() -> None:
    game = game_of(
        turn("Anna", 4, 4),
        move("Anna", "lounge", TO_LOUNGE),
        suggest("Anna", "plum", "hall"),
        turn("Ben", 1, 1),
        move("Ben", [17, 2], [[17, 1], [17, 2]]),
        suggest("Ben", "plum", "hall"),
    )
    problems = check_movement(game)
    assert [(p.code, p.seq) for p in problems] == [("suggest_room", 3), ("suggest_room", 6)]
    assert "Lounge" in problems[0].message and "square 17,2" in problems[1].message


def test_a_suspect_called_into_a_room_stays_there() -> None:
    called = [turn("Anna", 4, 4), move("Anna", "lounge", TO_LOUNGE), suggest("Anna", "mustard", "lounge")]
    from_start = game_of(*called, turn("Ben", 1, 1), move("Ben", [17, 2], [[17, 1], [17, 2]]))
    assert ["leaves" in p.message or "not one orthogonal step" in p.message for p in check_movement(from_start)] == [
        True
    ]
    from_room = game_of(*called, turn("Ben", 1, 1), move("Ben", [17, 6], [[18, 6], [17, 6]]))
    assert check_movement(from_room) == []
    stays_and_suggests = game_of(
        *called, turn("Ben"), move("Ben", "lounge", via="stay"), suggest("Ben", "plum", "lounge")
    )
    assert check_movement(stays_and_suggests) == []


@pytest.mark.parametrize("edition, expected", [("classic", []), ("us-classic", [("suggest_again", 9)])])
def test_suggesting_again_without_leaving(edition: str, expected) -> None:
    game = game_of(
        turn("Anna", 4, 4),
        move("Anna", "lounge", TO_LOUNGE),
        suggest("Anna", "plum", "lounge"),
        turn("Ben", 1, 1),
        move("Ben", [17, 2], [[17, 1], [17, 2]]),
        turn("Cleo", 1, 1),
        move("Cleo", [1, 8], [[1, 9], [1, 8]]),
        turn("Anna"),
        suggest("Anna", "green", "lounge"),
        edition=edition,
    )
    assert codes(game) == expected


def test_us_classic_lets_a_player_called_in_suggest_there() -> None:
    game = game_of(
        turn("Anna", 4, 4),
        move("Anna", "lounge", TO_LOUNGE),
        suggest("Anna", "mustard", "lounge"),
        turn("Ben"),
        move("Ben", "lounge", via="stay"),
        suggest("Ben", "plum", "lounge"),
        turn("Cleo", 1, 1),
        move("Cleo", [1, 8], [[1, 9], [1, 8]]),
        turn("Anna"),
        move("Anna", "lounge", via="stay"),
        suggest("Anna", "white", "lounge"),
        edition="us-classic",
    )
    assert codes(game) == [("suggest_again", 11)]


@pytest.mark.parametrize("edition, expected", [("classic", [("accuse_in_room", 1)]), ("us-classic", [])])
def test_accusing_outside_a_room(edition: str, expected) -> None:
    game = game_of(accuse("Anna"), turn("Ben", 1, 1), move("Ben", [17, 2], [[17, 1], [17, 2]]), edition=edition)
    assert codes(game) == expected


def test_a_player_without_a_character_is_not_checked() -> None:
    game = game_of(
        turn("Anna", 1, 1),
        move("Anna", "hall", [[5, 5]]),
        players=(("Anna", None), ("Ben", "mustard"), ("Cleo", "white")),
    )
    assert check_movement(game) == []


def test_nothing_to_check_without_moves_or_board() -> None:
    assert check_movement(game_of(suggest("Anna", "plum", "hall"))) == []
    live = game_of(suggest("Anna", "plum", "hall"), move("Anna", "hall"), edition="classic")
    live.flags["board"] = False
    assert check_movement(live) == []


def test_without_a_path_some_route_of_the_right_length_must_exist() -> None:
    assert check_movement(game_of(turn("Anna", 4, 4), move("Anna", "lounge"))) == []
    assert codes(game_of(turn("Anna", 3, 4), move("Anna", "lounge"))) == [("bad_move", 2)]
    assert check_movement(game_of(turn("Anna", 3, 3), move("Anna", [19, 8]))) == []  # a detour of two
    assert codes(game_of(turn("Anna", 2, 3), move("Anna", [19, 8]))) == [("bad_move", 2)]  # parity


def test_other_tools_paths_with_start_and_room_squares_are_accepted() -> None:
    path = [[24, 7], *TO_LOUNGE, [19, 6]]
    assert check_movement(game_of(turn("Anna", 4, 4), move("Anna", "lounge", path))) == []


def test_walk_problem_leaving_a_room_through_a_blocked_door() -> None:
    board = load_board("classic")
    why = walk_problem(board, "lounge", (17, 6), ((18, 6), (17, 6)), 2, {(18, 6): "Colonel Mustard"})
    assert why is not None and "door is blocked" in why
    assert walk_problem(board, "lounge", (17, 6), ((18, 6), (17, 6)), 2, {}) is None
    assert "without a corridor square" in (walk_problem(board, "lounge", "hall", (), 6, {}) or "")
