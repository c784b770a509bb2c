"""The board: squares, rooms, doors, start squares and passages, loaded from ``data/boards/<name>.txt``.

A token stands either on a square (a ``(row, col)`` tuple: corridor and start squares) or in a room
(the room's id). Inside a room position does not matter, so a room is one node: stepping from a
corridor square through a door into the room is one move, and so is stepping out. Start squares
are corridor squares. The map format is described for users in docs/board.md.

The checked entry points (``shortest_paths``, ``room_moves``, ``exact_path``) take the squares other
tokens occupy, because a token may not pass through or land on another, nor use a door whose
corridor square another token blocks.
"""

from __future__ import annotations

import functools
import heapq
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field

from clue_stats.engine.editions import data_files
from clue_stats.engine.errors import InputError, UsageError
from clue_stats.engine.markers import T_

Square = tuple[int, int]
Position = str | Square  # a room id, or a square

SIDES: dict[str, Square] = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
OFF_BOARD = "#"
CORRIDOR = "."
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


class BoardFormatError(InputError):
    """A board map that cannot be read; the message names the file's line."""


class UnknownBoard(BoardFormatError, UsageError):
    """No board map of this name."""


@dataclass(frozen=True)
class Door:
    room: str
    square: Square  # the room square at the door
    side: str  # the side of that square the corridor is on
    entry: Square  # the corridor square in front of the door


@dataclass(frozen=True, eq=False)
class Board:
    name: str
    rows: int
    cols: int
    grid: tuple[str, ...]
    rooms: tuple[str, ...]  # in the file's order
    room_squares: dict[str, frozenset[Square]]
    corridor: frozenset[Square]  # corridor and start squares: where a token may stand outside rooms
    doors: tuple[Door, ...]
    starts: dict[str, Square]  # character id -> start square (several ids may share one square)
    start_characters: tuple[str, ...]  # the first id named for each start square, in file order
    passages: dict[str, str]  # room -> the room its secret passage leads to
    _adjacent: dict[Square, tuple[Square, ...]] = field(default_factory=dict, repr=False)
    _entries: dict[str, tuple[Square, ...]] = field(default_factory=dict, repr=False)
    _rooms_from: dict[Square, tuple[str, ...]] = field(default_factory=dict, repr=False)

    # ---- reading -------------------------------------------------------------------------------

    @classmethod
    def from_text(cls, text: str, source: str = "<board>") -> Board:
        """Parse a board map; every inconsistency is a :class:`BoardFormatError` naming the line."""
        name: str | None = None
        size: tuple[int, int] | None = None
        letters: dict[str, str] = {}
        start_ids: dict[str, tuple[str, ...]] = {}
        door_specs: list[tuple[int, str, Square, str]] = []
        passage_pairs: list[tuple[int, str, str]] = []
        grid: list[str] = []
        in_grid = False

        def fail(lineno: int, message: str) -> BoardFormatError:
            return BoardFormatError(f"{source}:{lineno}: {message}")

        for lineno, raw in enumerate(text.splitlines(), start=1):
            if in_grid:
                if raw.strip():
                    grid.append(raw.rstrip("\n"))
                continue
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            words = line.split()
            key, args = words[0], words[1:]
            if key == "board" and len(args) == 1:
                name = args[0]
            elif key == "size" and len(args) == 2 and all(a.isdigit() for a in args):
                size = (int(args[0]), int(args[1]))
            elif key == "room" and len(args) == 2 and len(args[0]) == 1 and args[0].islower():
                if args[0] in letters or args[1] in letters.values():
                    raise fail(lineno, f"room {args[1]!r} or letter {args[0]!r} given twice")
                letters[args[0]] = args[1]
            elif key == "start" and len(args) >= 2 and len(args[0]) == 1 and args[0].isdigit():
                start_ids[args[0]] = tuple(args[1:])
            elif key == "door" and len(args) == 3 and args[2] in SIDES:
                try:
                    row, col = (int(x) for x in args[1].split(","))
                except ValueError:
                    raise fail(lineno, f"door square {args[1]!r} is not <row>,<col>") from None
                door_specs.append((lineno, args[0], (row, col), args[2]))
            elif key == "passage" and len(args) == 2:
                passage_pairs.append((lineno, args[0], args[1]))
            elif key == "grid" and not args:
                in_grid = True
            else:
                raise fail(lineno, f"cannot read {line!r}")

        if name is None or size is None or not in_grid:
            raise BoardFormatError(f"{source}: needs 'board', 'size' and 'grid' lines")
        rows, cols = size
        if len(grid) != rows or any(len(r) != cols for r in grid):
            raise BoardFormatError(f"{source}: the grid is not {rows} rows of {cols} squares")

        room_squares: dict[str, set[Square]] = {room: set() for room in letters.values()}
        corridor: set[Square] = set()
        door_squares: dict[Square, str] = {}
        start_square: dict[str, Square] = {}
        for r, line in enumerate(grid):
            for c, ch in enumerate(line):
                if ch == OFF_BOARD:
                    continue
                if ch == CORRIDOR:
                    corridor.add((r, c))
                elif ch.isdigit():
                    if ch not in start_ids or ch in start_square:
                        raise BoardFormatError(f"{source}: start square {ch!r} undeclared or twice")
                    start_square[ch] = (r, c)
                    corridor.add((r, c))
                elif ch.lower() in letters:
                    room_squares[letters[ch.lower()]].add((r, c))
                    if ch.isupper():
                        door_squares[(r, c)] = letters[ch.lower()]
                else:
                    raise BoardFormatError(f"{source}: unknown square {ch!r} at {r},{c}")
        missing = set(start_ids) - set(start_square)
        if missing:
            raise BoardFormatError(f"{source}: start squares {sorted(missing)} are not on the grid")

        doors: list[Door] = []
        for lineno, room, square, side in door_specs:
            if door_squares.get(square) != room:
                raise fail(lineno, f"{square} is not a door square of {room!r} on the grid")
            dr, dc = SIDES[side]
            entry = (square[0] + dr, square[1] + dc)
            if entry not in corridor:
                raise fail(lineno, f"the {side} side of the {room} door at {square} is not a corridor")
            doors.append(Door(room, square, side, entry))
        undeclared = set(door_squares) - {d.square for d in doors}
        if undeclared:
            raise BoardFormatError(f"{source}: door squares without a door line: {sorted(undeclared)}")

        passages: dict[str, str] = {}
        for lineno, a, b in passage_pairs:
            if a not in room_squares or b not in room_squares or a == b:
                raise fail(lineno, f"passage {a} - {b} does not join two rooms of this board")
            passages[a], passages[b] = b, a

        starts: dict[str, Square] = {}
        for digit, ids in sorted(start_ids.items()):
            for character in ids:
                starts[character] = start_square[digit]
        return cls(
            name=name,
            rows=rows,
            cols=cols,
            grid=tuple(grid),
            rooms=tuple(letters.values()),
            room_squares={room: frozenset(sq) for room, sq in room_squares.items()},
            corridor=frozenset(corridor),
            doors=tuple(doors),
            starts=starts,
            start_characters=tuple(ids[0] for _, ids in sorted(start_ids.items())),
            passages=passages,
        )

    def __post_init__(self) -> None:
        # Precomputed once: the simulator asks for neighbours millions of times.
        for sq in self.corridor:
            self._adjacent[sq] = tuple(n for n in ((sq[0] + dr, sq[1] + dc) for dr, dc in STEPS) if n in self.corridor)
        entries: dict[str, list[Square]] = {room: [] for room in self.rooms}
        rooms_from: dict[Square, list[str]] = {}
        for door in self.doors:
            entries[door.room].append(door.entry)
            rooms_from.setdefault(door.entry, []).append(door.room)
        self._entries.update({room: tuple(dict.fromkeys(sq)) for room, sq in entries.items()})
        self._rooms_from.update({sq: tuple(dict.fromkeys(r)) for sq, r in rooms_from.items()})

    # ---- facts ---------------------------------------------------------------------------------

    def neighbours(self, square: Square) -> tuple[Square, ...]:
        """The corridor squares one orthogonal step from a corridor square."""
        return self._adjacent.get(square, ())

    def entries(self, room: str) -> tuple[Square, ...]:
        """The corridor squares in front of the room's doors."""
        return self._entries.get(room, ())

    def rooms_from(self, square: Square) -> tuple[str, ...]:
        """The rooms a token on this corridor square can step into."""
        return self._rooms_from.get(square, ())

    def room_at(self, square: Square) -> str | None:
        for room, squares in self.room_squares.items():
            if square in squares:
                return room
        return None

    def start_of(self, character: str | None) -> Square | None:
        return self.starts.get(character) if character is not None else None

    def first_squares(self, origin: Position, occupied: frozenset[Square] = frozenset()) -> list[Square]:
        """Where the first step from a position may go: a room's unblocked door squares, or free neighbours."""
        if isinstance(origin, str):
            return [e for e in self.entries(origin) if e not in occupied]
        return [n for n in self.neighbours(origin) if n not in occupied]

    # ---- distances -----------------------------------------------------------------------------

    def distances(self, origin: Position, occupied: frozenset[Square] = frozenset()) -> dict[Square, int]:
        """Fewest moves from a position to every corridor square it can reach past the occupied ones."""
        dist: dict[Square, int] = {}
        queue: deque[Square] = deque()
        if isinstance(origin, str):
            for e in self.first_squares(origin, occupied):
                dist[e] = 1
                queue.append(e)
        else:
            dist[origin] = 0
            queue.append(origin)
        while queue:
            sq = queue.popleft()
            d = dist[sq] + 1
            for n in self._adjacent[sq]:
                if n not in dist and n not in occupied:
                    dist[n] = d
                    queue.append(n)
        return dist

    def room_distances(self, origin: Position, occupied: frozenset[Square] = frozenset()) -> dict[str, int]:
        """Fewest moves from a position into each other room it can reach (stepping in counts one)."""
        dist = self.distances(origin, occupied)
        best: dict[str, int] = {}
        for door in self.doors:
            if door.room == origin or door.entry not in dist:
                continue
            d = dist[door.entry] + 1
            if d < best.get(door.room, d + 1):
                best[door.room] = d
        return best

    def shortest_paths(self) -> dict[str, dict[str, int]]:
        """Fewest moves from each start square into each room, on an empty board, by start character."""
        table: dict[str, dict[str, int]] = {}
        for character in self.start_characters:
            reach = self.room_distances(self.starts[character])
            table[character] = {room: reach[room] for room in self.rooms if room in reach}
        return table

    @functools.cached_property
    def _to_room(self) -> dict[str, dict[Square, int]]:
        # Static distance from every corridor square into each room (empty board): a lower bound
        # the move generator uses to rank squares, and cheap because it is computed once.
        out: dict[str, dict[Square, int]] = {}
        for room in self.rooms:
            dist: dict[Square, int] = {}
            queue: deque[Square] = deque()
            for e in self.entries(room):
                dist[e] = 1
                queue.append(e)
            while queue:
                sq = queue.popleft()
                for n in self._adjacent[sq]:
                    if n not in dist:
                        dist[n] = dist[sq] + 1
                        queue.append(n)
            out[room] = dist
        return out

    def to_room(self, room: str) -> dict[Square, int]:
        """Fewest moves from each corridor square into ``room`` on an empty board (read-only)."""
        return self._to_room[room]

    def distance_to_room(self, position: Position, room: str) -> int | None:
        """Fewest moves into ``room`` on an empty board (0 when already there, None if unreachable)."""
        if position == room:
            return 0
        if isinstance(position, str):
            best = [self._to_room[room].get(e) for e in self.entries(position)]
            found = [d for d in best if d is not None]
            return 1 + min(found) if found else None
        return self._to_room[room].get(position)

    @functools.cached_property
    def _between(self) -> dict[Square, dict[Square, int]]:
        # All-pairs corridor distances on the empty board (~200 squares): the pruning bound of
        # the exact-length path search.
        return {sq: self.distances(sq) for sq in self.corridor}

    # ---- moves ---------------------------------------------------------------------------------

    def shortest_path(
        self, origin: Position, room: str, occupied: frozenset[Square] = frozenset()
    ) -> tuple[Square, ...] | None:
        """The corridor squares of a fewest-move walk into ``room`` (the room itself not listed)."""
        if origin == room:
            return None
        roots = self.first_squares(origin, occupied) if isinstance(origin, str) else [origin]
        prev: dict[Square, Square | None] = {sq: None for sq in roots}
        queue: deque[Square] = deque(roots)
        goal = set(self.entries(room))
        while queue:
            sq = queue.popleft()
            if sq in goal:
                path = [sq]
                while (before := prev[path[-1]]) is not None:
                    path.append(before)
                path.reverse()
                # From a square the walk starts where the token stands, which is not a step.
                return tuple(path if isinstance(origin, str) else path[1:])
            for n in self._adjacent[sq]:
                if n not in prev and n not in occupied:
                    prev[n] = sq
                    queue.append(n)
        return None

    def room_moves(
        self, origin: Position, steps: int, occupied: frozenset[Square] = frozenset()
    ) -> dict[str, tuple[Square, ...]]:
        """Every other room enterable with at most ``steps`` moves, each with a fewest-move path.

        A fewest-move walk never repeats a square, so it is a legal walk; the exact roll is not needed
        to enter a room. A token may not leave a room and come back into it in one turn.
        """
        out: dict[str, tuple[Square, ...]] = {}
        for room, d in self.room_distances(origin, occupied).items():
            if d <= steps and room != origin:
                path = self.shortest_path(origin, room, occupied)
                if path is not None:
                    out[room] = path
        return out

    def exact_path(
        self,
        origin: Position,
        target: Square,
        steps: int,
        occupied: frozenset[Square] = frozenset(),
        budget: int = 200_000,
    ) -> tuple[Square, ...] | None:
        """A walk of exactly ``steps`` moves from a position to a corridor square, no square twice.

        Depth-first, pruned by the empty-board distance to the target and its parity (the grid is
        bipartite, so a detour always costs an even number of moves). ``budget`` caps the squares
        visited; None means no such walk was found within it.
        """
        if target in occupied or target not in self.corridor:
            return None
        to_target = self._between[target]
        starts = self.first_squares(origin, occupied)
        first_cost = 1 if isinstance(origin, str) else 0
        if not isinstance(origin, str):
            starts = [origin]
        visited: set[Square] = set()
        path: list[Square] = []
        counter = [budget]

        def search(sq: Square, left: int) -> bool:
            counter[0] -= 1
            if counter[0] < 0:
                return False
            if left == 0:
                return sq == target
            for n in self._adjacent[sq]:
                if n in visited or n in occupied:
                    continue
                d = to_target.get(n)
                if d is None or d > left - 1 or (left - 1 - d) % 2:
                    continue
                visited.add(n)
                path.append(n)
                if search(n, left - 1):
                    return True
                visited.discard(n)
                path.pop()
            return False

        for first in starts:
            left = steps - first_cost
            d = to_target.get(first)
            if left < 0 or d is None or d > left or (left - d) % 2:
                continue
            visited = {first}
            path = [first] if first_cost else []
            if search(first, left):
                return tuple(path)
        return None

    def square_moves(
        self,
        origin: Position,
        steps: int,
        occupied: frozenset[Square] = frozenset(),
        rank: dict[Square, int] | None = None,
        budget: int = 20_000,
    ) -> Iterator[tuple[Square, tuple[Square, ...]]]:
        """Corridor squares where a walk of exactly ``steps`` moves can end, each with such a walk.

        Candidates come lowest ``rank`` first (e.g. the distance to a room the player wants), so a
        caller that takes the first answer does the least search.
        """
        reach = self.distances(origin, occupied)
        # From a square every walk to a target has the parity of the distance (the grid is
        # bipartite); from a room each door starts its own parity, so only the bound applies.
        parity = not isinstance(origin, str)
        candidates = [sq for sq, d in reach.items() if d <= steps and not (parity and (steps - d) % 2) and sq != origin]
        order = [((rank or {}).get(sq, 0), sq) for sq in candidates]
        heapq.heapify(order)
        while order:
            _, sq = heapq.heappop(order)
            path = self.exact_path(origin, sq, steps, occupied, budget=budget)
            if path is not None:
                yield sq, path


@functools.cache
def load_board(name: str) -> Board:
    """The board map ``data/boards/<name>.txt``."""
    maps = data_files("boards", ".txt")
    if name not in maps:
        raise UnknownBoard(T_("no board map {name} (known: {maps})", name=repr(name), maps=", ".join(maps)))
    return Board.from_text(maps[name].read_text(encoding="utf-8"), source=f"data/boards/{name}.txt")
