"""The board maps: the shortest-path table of the spec, doors, passages, and the move generator."""

from __future__ import annotations

from collections import Counter
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clue_stats.engine.board import Board, BoardFormatError, load_board
from clue_stats.engine.movement import walk_problem
from clue_stats.testing import brute_force_ends

ROOT = Path(__file__).resolve().parent.parent

# The table of the board spec (board.md, "Shortest paths"), copied by hand: the check of the map.
SPEC_TABLE = """\
| start | kitchen | ballroom | conservatory | dining_room | billiard_room | library | lounge | hall | study |
|---|---|---|---|---|---|---|---|---|---|
| scarlett | 23 | 19 | 31 | 10 | 26 | 18 | 8 | 12 | 21 |
| mustard | 23 | 19 | 31 | 8 | 26 | 18 | 8 | 12 | 21 |
| white | 13 | 8 | 25 | 16 | 22 | 28 | 24 | 24 | 33 |
| green | 24 | 8 | 10 | 23 | 13 | 19 | 31 | 24 | 24 |
| peacock | 23 | 9 | 7 | 22 | 10 | 17 | 30 | 23 | 23 |
| plum | 32 | 21 | 24 | 21 | 19 | 11 | 21 | 10 | 8 |"""


@pytest.fixture(scope="module")
def classic() -> Board:
    return load_board("classic")


def table_of(markdown: str) -> tuple[list[str], dict[str, dict[str, int]]]:
    """The first shortest-path table in a Markdown text: its rooms (the columns, in order) and the
    fewest moves of each start (the rows, in order), as `clue-stats board --json` gives them."""
    lines = markdown.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("| start |"))
    table = []
    for line in lines[first:]:
        if not line.startswith("|"):
            break
        table.append([cell.strip() for cell in line.strip("|").split("|")])
    rooms = table[0][1:]
    return rooms, {row[0]: {room: int(n) for room, n in zip(rooms, row[1:]) if n != "-"} for row in table[2:]}


def same_table(board: Board, markdown: str) -> None:
    rooms, rows = table_of(markdown)
    paths = board.shortest_paths()
    assert list(board.rooms) == rooms
    assert list(paths) == list(rows)
    assert paths == rows


def test_shortest_paths_equal_the_spec_table(classic: Board) -> None:
    same_table(classic, SPEC_TABLE)


def test_uk_2020_is_the_classic_grid_with_the_bathroom_and_orchid(classic: Board) -> None:
    uk = load_board("uk-2020")
    assert uk.grid == classic.grid
    same_table(uk, SPEC_TABLE.replace("| hall |", "| bathroom |").replace("| white |", "| orchid |"))
    assert uk.starts["orchid"] == classic.starts["white"] == (0, 9)


def test_user_docs_show_the_same_table(classic: Board) -> None:
    same_table(classic, (ROOT / "docs" / "board.md").read_text(encoding="utf-8"))


def test_board_facts_of_the_spec(classic: Board) -> None:
    assert (classic.rows, classic.cols) == (25, 24)
    assert {c: classic.starts[c] for c in classic.start_characters} == {
        "scarlett": (24, 7),
        "mustard": (17, 0),
        "white": (0, 9),
        "green": (0, 14),
        "peacock": (6, 23),
        "plum": (19, 23),
    }
    assert Counter(d.room for d in classic.doors) == {
        "ballroom": 4,
        "hall": 3,
        "dining_room": 2,
        "billiard_room": 2,
        "library": 2,
        "kitchen": 1,
        "conservatory": 1,
        "lounge": 1,
        "study": 1,
    }
    assert classic.passages == {
        "kitchen": "study",
        "study": "kitchen",
        "conservatory": "lounge",
        "lounge": "conservatory",
    }
    kitchen = next(d for d in classic.doors if d.room == "kitchen")
    assert (kitchen.square, kitchen.side, kitchen.entry) == ((6, 4), "down", (7, 4))


def test_only_peacock_reaches_a_room_with_seven(classic: Board) -> None:
    nearest = {c: min(row.values()) for c, row in classic.shortest_paths().items()}
    assert nearest == {"scarlett": 8, "mustard": 8, "white": 8, "green": 8, "peacock": 7, "plum": 8}
    ways_to_roll = Counter(a + b for a, b in product(range(1, 7), repeat=2))
    assert sum(n for total, n in ways_to_roll.items() if total >= 7) == 21


def _map(grid: list[str], extra: str = "") -> str:
    head = "board tiny\nsize 3 4\nroom k kitchen\nstart 1 scarlett\n" + extra
    return head + "grid\n" + "\n".join(grid) + "\n"


def test_a_small_map_reads_and_counts_the_door_step() -> None:
    tiny = Board.from_text(_map(["kkK.", "#..1", "####"], "door kitchen 0,2 right\n"))
    assert tiny.shortest_paths() == {"scarlett": {"kitchen": 2}}  # up one, then through the door
    assert tiny.entries("kitchen") == ((0, 3),)


@pytest.mark.parametrize(
    "grid, extra, words",
    [
        (["kkK.", "#..1", "####"], "", "without a door line"),
        (["kkK.", "#..1", "####"], "door kitchen 0,2 up\n", "not a corridor"),
        (["kkk.", "#..1", "####"], "door kitchen 0,2 right\n", "not a door square"),
        (["kkK.", "#..1"], "door kitchen 0,2 right\n", "not 3 rows"),
        (["kkK.", "#..?", "####"], "door kitchen 0,2 right\n", "unknown square"),
        (["kkK.", "#..1", "####"], "door kitchen 0,2 right\npassage kitchen study\n", "passage"),
    ],
)
def test_map_errors_name_the_problem(grid: list[str], extra: str, words: str) -> None:
    with pytest.raises(BoardFormatError, match=words):
        Board.from_text(_map(grid, extra))


def test_unknown_board_lists_the_known_ones() -> None:
    with pytest.raises(BoardFormatError, match="classic"):
        load_board("moon")


corridor_squares = sorted(load_board("classic").corridor)
origins = st.one_of(st.sampled_from(corridor_squares), st.sampled_from(load_board("classic").rooms))


@settings(max_examples=60, deadline=None)
@given(origin=origins, steps=st.integers(2, 6), blockers=st.sets(st.sampled_from(corridor_squares), max_size=4))
def test_square_moves_find_exactly_the_squares_a_brute_force_finds(classic: Board, origin, steps, blockers) -> None:
    occupied = frozenset(b for b in blockers if b != origin)
    found = dict(classic.square_moves(origin, steps, occupied))
    assert set(found) == brute_force_ends(classic, origin, steps, occupied)
    names = {sq: "someone" for sq in occupied}
    for end, path in found.items():
        assert walk_problem(classic, origin, end, path, steps, names) is None


@settings(max_examples=60, deadline=None)
@given(origin=origins, steps=st.integers(2, 12), blockers=st.sets(st.sampled_from(corridor_squares), max_size=4))
def test_room_moves_are_legal_and_complete(classic: Board, origin, steps, blockers) -> None:
    occupied = frozenset(b for b in blockers if b != origin)
    names = {sq: "someone" for sq in occupied}
    moves = classic.room_moves(origin, steps, occupied)
    for room, path in moves.items():
        assert room != origin
        assert walk_problem(classic, origin, room, path, steps, names) is None
        assert len(path) + 1 == classic.room_distances(origin, occupied)[room]
    reachable = {r for r, d in classic.room_distances(origin, occupied).items() if d <= steps}
    assert set(moves) == reachable - {origin}
