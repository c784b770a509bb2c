"""Movement checks for board games: the replay of every token's position against the board.

Called by the rules engine when a game is played on a board (``flags["board"]``) and its log holds
``move`` records. Every suspect of the deck that has a start square on the board has a token there
at the start; a player's token is the one of their character (a player without a character is not
checked). A suggestion moves the named suspect's token into the suggested room, where it stays until
its owner moves it.

A walk is counted as the board counts distances: one move per corridor square and one for stepping
through a door, in or out. The canonical ``path`` lists the corridor squares stepped on, in order:
not the square the token starts on, and no room squares; readers of other tools' logs are met
half-way (a leading start square and room squares at either end are ignored).

Roll *form* (two dice, magnifiers) is the rules engine's check (``bad_roll``); here a roll that is
not two readable dice just means the distance cannot be checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from clue_stats.engine.board import Board, Position, Square, load_board
from clue_stats.engine.game import UNSEEN, Accuse, ClueCard, Game, Move, Suggest, Turn
from clue_stats.engine.markers import T_, Said
from clue_stats.engine.problems import Problem


def board_for(game: Game) -> Board | None:
    """The board a game is played on, or None when its rooms are not that board's rooms."""
    name = game.edition.board if game.edition is not None else "classic"
    if name is None:
        return None
    board = load_board(name)
    if not set(game.deck.rooms) <= set(board.rooms):
        return None  # a custom deck whose places are not on the board: nothing to check
    return board


def roll_total(roll: tuple[Any, ...] | None, magnifier_moves: int) -> int | None:
    """The squares a roll allows (a magnifier counts ``magnifier_moves``); None if not readable."""
    if roll is None or len(roll) != 2:
        return None
    total = 0
    for die in roll:
        if die == UNSEEN:
            if not magnifier_moves:
                return None
            total += magnifier_moves
        elif isinstance(die, int) and 1 <= die <= 6:
            total += die
        else:
            return None
    return total


def _where(position: Position, game: Game | None = None) -> str | Said:
    if isinstance(position, str):
        return game.deck.name(position) if game is not None else position
    return T_("square {row},{col}", row=position[0], col=position[1])


def walk_problem(
    board: Board,
    origin: Position,
    to: Position,
    path: tuple[Square, ...] | None,
    steps: int | None,
    occupied: dict[Square, str],
) -> str | None:
    """Why a walk is not legal (in English), or None: :func:`walk_said` as a string."""
    why = walk_said(board, origin, to, path, steps, occupied)
    return None if why is None else str(why)


def walk_said(
    board: Board,
    origin: Position,
    to: Position,
    path: tuple[Square, ...] | None,
    steps: int | None,
    occupied: dict[Square, str],
) -> Said | None:
    """Why a walk is not legal, or None. ``occupied`` names the token on each other taken square.

    ``steps`` is the roll (None: unknown, so only the route is checked). With no ``path`` the walk
    is legal when some route of the right length exists.
    """
    blocked = frozenset(occupied)
    if isinstance(to, str) and to not in board.rooms:
        return T_("{to} is not a room of the {name} board", to=to, name=board.name)
    if not isinstance(to, str):
        if to not in board.corridor:
            return T_("{to} is not a corridor square", to=_where(to))
        if to in occupied:
            return T_("ends on {to}, where {occupied} stands", to=_where(to), occupied=occupied[to])
    if to == origin:
        return T_("walks but ends where it started ({origin})", origin=_where(origin))
    if path is None:
        return _route_problem(board, origin, to, steps, blocked)

    squares = list(path)
    if squares and not isinstance(origin, str) and squares[0] == origin:
        squares = squares[1:]
    if isinstance(origin, str):
        while squares and squares[0] in board.room_squares[origin]:
            squares = squares[1:]
    if isinstance(to, str):
        while squares and squares[-1] in board.room_squares[to]:
            squares = squares[:-1]

    previous: Position = origin
    seen: set[Square] = set() if isinstance(origin, str) else {origin}
    for sq in squares:
        if sq not in board.corridor:
            return T_("steps on {sq}, which is not a corridor square", sq=_where(sq))
        if sq in seen:
            return T_("steps on {sq} twice", sq=_where(sq))
        if isinstance(previous, str):
            if sq not in board.entries(previous):
                return T_(
                    "leaves {previous} at {sq}, which is not in front of one of its doors",
                    previous=previous,
                    sq=_where(sq),
                )
        elif sq not in board.neighbours(previous):
            return T_(
                "steps from {previous} to {sq}, which is not one orthogonal step",
                previous=_where(previous),
                sq=_where(sq),
            )
        if sq in occupied:
            door: str | Said = T_(" (the door is blocked)") if isinstance(previous, str) else ""
            return T_("steps on {sq}, where {occupied} stands{door}", sq=_where(sq), occupied=occupied[sq], door=door)
        seen.add(sq)
        previous = sq

    if isinstance(to, str):
        if isinstance(previous, str):
            return T_("goes from {previous} to {to} without a corridor square between", previous=previous, to=to)
        if previous not in board.entries(to):
            return T_(
                "enters {to} from {previous}, which is not in front of one of its doors",
                to=to,
                previous=_where(previous),
            )
        moves = len(squares) + 1
        if steps is not None and moves > steps:
            return T_(
                "needs {moves} moves to reach {to} this way, with a roll of {steps}", moves=moves, to=to, steps=steps
            )
    else:
        if previous != to:
            return T_("the path ends at {previous}, not at {to}", previous=_where(previous), to=_where(to))
        moves = len(squares)
        if steps is not None and moves != steps:
            return T_(
                "walks {moves} squares with a roll of {steps} (a walk that ends outside a room uses the whole roll)",
                moves=moves,
                steps=steps,
            )
    return None


def _route_problem(
    board: Board, origin: Position, to: Position, steps: int | None, blocked: frozenset[Square]
) -> Said | None:
    if isinstance(to, str):
        d = board.room_distances(origin, blocked).get(to)
        if d is None:
            return T_("cannot reach {to} from {origin} past the other tokens", to=to, origin=_where(origin))
        if steps is not None and d > steps:
            return T_(
                "needs at least {d} moves to reach {to} from {origin}, with a roll of {steps}",
                d=d,
                to=to,
                origin=_where(origin),
                steps=steps,
            )
        return None
    reach = board.distances(origin, blocked)
    if to not in reach:
        return T_("cannot reach {to} from {origin} past the other tokens", to=_where(to), origin=_where(origin))
    if steps is not None and board.exact_path(origin, to, steps, blocked, budget=2_000_000) is None:
        return T_(
            "no walk of exactly {steps} squares leads from {origin} to {to}",
            steps=steps,
            origin=_where(origin),
            to=_where(to),
        )
    return None


@dataclass
class _TurnState:
    player: str | None = None
    steps: int | None = None
    rolled: bool = False
    moved: bool = False
    clue_card: bool = False  # a clue card was drawn: later moves this turn are its effects


@dataclass
class _Tracker:
    game: Game
    board: Board
    problems: list[Problem] = field(default_factory=list)
    position: dict[str, Position] = field(default_factory=dict)  # suspect id -> where its token is
    character: dict[str, str] = field(default_factory=dict)  # player name -> suspect id on the board
    may_suggest: dict[str, bool] = field(default_factory=dict)  # player -> may suggest where they stand
    eliminated: set[str] = field(default_factory=set)
    turn: _TurnState = field(default_factory=_TurnState)
    has_turns: bool = False

    def __post_init__(self) -> None:
        for suspect in self.game.deck.suspects:
            start = self.board.start_of(suspect)
            if start is not None:
                self.position[suspect] = start
        for p in self.game.players:
            if p.character is not None and p.character in self.position:
                self.character[p.name] = p.character
                self.may_suggest[p.name] = False
        self.has_turns = any(isinstance(r, Turn) for r in self.game.records)

    def problem(self, code: str, message: str | Said, record: Any) -> None:
        self.problems.append(Problem.of(code, message, seq=record.seq, line=record.line))

    def occupied_by_others(self, suspect: str) -> dict[Square, str]:
        return {
            pos: self.game.deck.name(other)
            for other, pos in self.position.items()
            if other != suspect and not isinstance(pos, str)
        }

    def start_turn(self, player: str, roll: tuple[Any, ...] | None) -> None:
        steps = roll_total(roll, int(self.game.flags.get("magnifier_moves") or 0))
        self.turn = _TurnState(player=player, steps=steps, rolled=roll is not None)

    # ---- records -------------------------------------------------------------------------------

    def on_move(self, r: Move) -> None:
        if not self.has_turns and r.player != self.turn.player or (not self.has_turns and self.turn.moved):
            self.start_turn(r.player, None)  # without turn records each move opens its player's turn
        suspect = self.character.get(r.player)
        if suspect is None:
            return
        origin = self.position[suspect]
        if self.turn.clue_card or (self.has_turns and r.player != self.turn.player):
            # A clue card's effect, or a move out of turn (the rules engine reports that): only
            # the position is followed.
            self.arrive(r.player, suspect, r.to)
            return
        if self.turn.moved:
            self.problem("bad_move", T_("{player} moves a second time in one turn", player=r.player), r)
        self.turn.moved = True
        via = r.via or self.infer_via(origin, r)
        name = r.player
        if via == "stay":
            if r.to != origin:
                self.problem(
                    "bad_move",
                    T_(
                        "{name} stays, but in {to} while standing in {origin}",
                        name=name,
                        to=_where(r.to, self.game),
                        origin=_where(origin, self.game),
                    ),
                    r,
                )
            elif not isinstance(origin, str) and self.can_step(suspect, origin):
                self.problem(
                    "bad_move",
                    T_(
                        "{name} stays on {origin}; only a token in a room, or one that cannot move, may stay",
                        name=name,
                        origin=_where(origin),
                    ),
                    r,
                )
        elif via == "passage":
            target = self.board.passages.get(origin) if isinstance(origin, str) else None
            if target is None:
                self.problem(
                    "bad_move",
                    T_(
                        "{name} takes a secret passage from {origin}, where there is none",
                        name=name,
                        origin=_where(origin, self.game),
                    ),
                    r,
                )
            elif r.to != target:
                self.problem(
                    "bad_move",
                    T_(
                        "the secret passage from {origin} leads to {target}, not {to}",
                        origin=_where(origin, self.game),
                        target=self.game.deck.name(target),
                        to=_where(r.to, self.game),
                    ),
                    r,
                )
            elif self.turn.rolled:
                self.problem(
                    "bad_move",
                    T_(
                        "{name} takes the secret passage after rolling the dice (the passage replaces the roll)",
                        name=name,
                    ),
                    r,
                )
        else:
            why = walk_said(self.board, origin, r.to, r.path, self.turn.steps, self.occupied_by_others(suspect))
            if why is not None:
                trip = T_("from {origin} to {to}", origin=_where(origin, self.game), to=_where(r.to, self.game))
                self.problem("bad_move", T_("{name}'s walk {trip}: {why}", name=name, trip=trip, why=why), r)
        if r.to != origin:
            self.arrive(r.player, suspect, r.to)

    def infer_via(self, origin: Position, r: Move) -> str:
        if r.to == origin:
            return "stay"
        if (
            isinstance(origin, str)
            and r.path is None
            and not self.turn.rolled
            and self.board.passages.get(origin) == r.to
        ):
            return "passage"
        return "walk"

    def can_step(self, suspect: str, square: Square) -> bool:
        blocked = self.occupied_by_others(suspect)
        return any(n not in blocked for n in self.board.neighbours(square)) or bool(self.board.rooms_from(square))

    def arrive(self, player: str | None, suspect: str, to: Position) -> None:
        self.position[suspect] = to
        if player is not None and player in self.may_suggest:
            # Entering a room on one's own move grants a suggestion there; leaving one loses it.
            self.may_suggest[player] = isinstance(to, str)

    def on_suggest(self, r: Suggest) -> None:
        flags = self.game.flags
        suspect = self.character.get(r.player)
        if suspect is not None:
            here = self.position[suspect]
            if flags.get("suggest_room", "current") == "current" and here != r.room:
                self.problem(
                    "suggest_room",
                    T_(
                        "{player} suggests in {room} while standing in {here}",
                        player=r.player,
                        room=self.game.deck.name(r.room),
                        here=_where(here, self.game),
                    ),
                    r,
                )
            elif not flags.get("suggest_again_without_leaving", True) and not self.may_suggest.get(r.player, True):
                self.problem(
                    "suggest_again",
                    T_(
                        "{player} suggests again in {room} without leaving it since their last suggestion there",
                        player=r.player,
                        room=self.game.deck.name(r.room),
                    ),
                    r,
                )
            if not flags.get("suggest_again_without_leaving", True):
                self.may_suggest[r.player] = False
        self.call_into_room(r.suspect, r.room)

    def call_into_room(self, called: str, room: str) -> None:
        if called not in self.position or self.position[called] == room:
            return
        owner = next((name for name, c in self.character.items() if c == called), None)
        if owner in self.eliminated and not self.game.flags.get("eliminated_token_moves", True):
            return
        self.position[called] = room
        if owner is not None:
            # Moved in by another's suggestion: every edition lets its owner suggest there next.
            self.may_suggest[owner] = True

    def on_accuse(self, r: Accuse) -> None:
        suspect = self.character.get(r.player)
        if suspect is not None and self.game.flags.get("accuse_in_room"):
            here = self.position[suspect]
            if not isinstance(here, str):
                self.problem(
                    "accuse_in_room",
                    T_(
                        "{player} accuses while standing on {here}, outside any room",
                        player=r.player,
                        here=_where(here),
                    ),
                    r,
                )
        solution = self.game.solution()
        wrong = r.correct is False or (r.correct is None and solution is not None and r.cards != solution)
        if wrong:
            self.eliminated.add(r.player)


def check_movement(game: Game) -> list[Problem]:
    """Every movement problem of a board game whose log has ``move`` records (else none)."""
    if not game.flags.get("board") or not any(isinstance(r, Move) for r in game.records):
        return []
    board = board_for(game)
    if board is None:
        return []
    tracker = _Tracker(game, board)
    for r in game.records:
        if isinstance(r, Turn):
            tracker.start_turn(r.player, r.roll)
        elif isinstance(r, ClueCard):
            tracker.turn.clue_card = True
        elif isinstance(r, Move):
            tracker.on_move(r)
        elif isinstance(r, Suggest):
            tracker.on_suggest(r)
        elif isinstance(r, Accuse):
            tracker.on_accuse(r)
    return tracker.problems
