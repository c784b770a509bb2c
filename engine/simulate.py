"""The simulator: whole board games between strategies, returned as :class:`engine.game.Game` objects.

Every game is complete: a ``deal`` for every player, then turns with their roll, the move (with its
path), suggestions with truthful responses, accusations, and the ``end`` with the solution. Nothing
is written to disk here; the CLI hands the games to the clue-log/1 writer.

Fairness: the characters in play cycle through every choice of ``players`` characters, and within
each choice the strategies rotate seat by seat, so over ``players`` x C(6, players) games each
strategy plays every seat and every character equally often. Seats are listed clockwise from the
first player (Scarlett, else the next character clockwise), so seat 1 moves first.

Determinism: game ``i`` of a run depends only on (seed, i) and the parameters; the same seed gives
the same games, in any process.

A custom deck (:func:`custom_deck`, e.g. the 10 suspects, 8 weapons and 12 rooms of a *Clue: Master
Detective*-size game) has no board: it is played as the ``live`` variant, each player in turn
suggesting in the room it values most (no dice, no moves), then accusing when sure.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from clue_stats.engine import editions as ed
from clue_stats.engine.board import Board, Position, Square, load_board
from clue_stats.engine.errors import UsageError, said_of
from clue_stats.engine.game import Accuse, Deal, End, Event, Game, Move, Player, Response, Suggest, Turn
from clue_stats.engine.markers import T_
from clue_stats.engine.strategies import Seat, Strategy, make_strategy, parse_spec

# Clockwise round the board from Miss Scarlett (Dr Orchid sits where Mrs White does).
CLOCKWISE = ("scarlett", "mustard", "white", "orchid", "green", "peacock", "plum")
MAX_TURNS = 2000  # a game nobody can finish (e.g. only random players left) ends without a winner


class SimulationError(UsageError):
    """Parameters the simulator cannot play (message for the user)."""


@dataclass(frozen=True)
class Setup:
    edition: ed.Edition | None  # None: a custom deck (no board)
    variant: ed.Variant
    flags: dict[str, Any]
    board: Board | None
    players: int
    slots: tuple[str, ...]  # the strategy spec of each strategy slot
    seed: int
    run_id: str

    deck: ed.Deck

    @property
    def characters(self) -> tuple[str, ...]:
        if self.board is None:
            return self.deck.suspects
        return tuple(c for c in CLOCKWISE if c in self.deck.suspects and self.board.start_of(c) is not None)


def custom_deck(suspects: int, weapons: int, rooms: int) -> ed.Deck:
    """A deck of that many suspects, weapons and rooms ("Suspect 1", ..., "Room 12")."""
    if min(suspects, weapons, rooms) < 2:
        raise SimulationError(T_("a custom deck needs at least 2 cards of each category"))
    return ed.Deck.custom(
        [f"Suspect {i}" for i in range(1, suspects + 1)],
        [f"Weapon {i}" for i in range(1, weapons + 1)],
        [f"Room {i}" for i in range(1, rooms + 1)],
    )


def setup(
    players: int,
    edition: str | ed.Edition = "classic",
    strategies: Sequence[str] = ("notebook",),
    seed: int = 0,
    variant: str = "standard",
    deck: ed.Deck | None = None,
) -> Setup:
    """Check the parameters of a run; raises :class:`SimulationError` with a message for the user.
    With ``deck`` (a custom deck) the edition is not used and the game is played without a board."""
    if deck is not None:
        return _custom_setup(players, deck, strategies, seed)
    try:
        edition_ = edition if isinstance(edition, ed.Edition) else ed.edition(edition)
        variant_ = ed.variant(variant)
    except ed.UnknownName as exc:
        raise SimulationError(said_of(exc)) from None
    if variant_.id == "standard" and edition_.flags.get("clue_cards"):
        variant_ = ed.variant("traditional")  # the clue cards' texts are not at hand
    if variant_.id not in edition_.variants and not variant_.any_edition:
        raise SimulationError(
            T_("the {edition} edition is not played as {variant}", edition=edition_.id, variant=variant_.id)
        )
    flags = ed.resolve_flags(edition_, variant_, None)
    if not flags.get("board") or edition_.board is None:
        raise SimulationError(
            T_("the simulator plays board games; {variant} is played without a board", variant=variant_.id)
        )
    if variant_.room_cards or flags.get("clue_cards"):
        raise SimulationError(
            T_("the simulator plays standard and traditional games, not {variant}", variant=variant_.id)
        )
    board = load_board(edition_.board)
    slots = _slots(strategies)
    low, high = variant_.min_players, variant_.max_players
    if not low <= players <= high:
        raise SimulationError(
            T_(
                "{variant} games have {low} to {high} players, not {players}",
                variant=variant_.id,
                low=low,
                high=high,
                players=players,
            )
        )
    slots = _seat_slots(players, slots)
    params = f"{seed}|{edition_.id}|{variant_.id}|{players}|{','.join(slots)}"
    run_id = hashlib.sha256(params.encode()).hexdigest()[:10]
    result = Setup(edition_, variant_, flags, board, players, slots, seed, run_id, edition_.deck)
    if len(result.characters) < players:
        raise SimulationError(
            T_(
                "the {board} board has start squares for {count} of this deck's suspects",
                board=board.name,
                count=len(result.characters),
            )
        )
    return result


def _slots(strategies: Sequence[str]) -> tuple[str, ...]:
    """The strategy specs, checked."""
    if not strategies:
        raise SimulationError(T_("name at least one strategy"))
    for spec in strategies:
        try:
            parse_spec(spec)
        except ValueError as exc:
            raise SimulationError(said_of(exc)) from None
    return tuple(strategies)


def _seat_slots(players: int, strategies: tuple[str, ...]) -> tuple[str, ...]:
    """The strategy of each slot: the specs repeated."""
    if len(strategies) > players:
        raise SimulationError(T_("{count} strategies for {players} players", count=len(strategies), players=players))
    return tuple(strategies[j % len(strategies)] for j in range(players))


def _custom_setup(players: int, deck: ed.Deck, strategies: Sequence[str], seed: int) -> Setup:
    variant_ = ed.variant("live")
    if not variant_.min_players <= players <= variant_.max_players:
        raise SimulationError(
            T_(
                "games have {low} to {high} players, not {players}",
                low=variant_.min_players,
                high=variant_.max_players,
                players=players,
            )
        )
    if len(deck.suspects) < players:
        raise SimulationError(
            T_(
                "{players} players need {players} suspects, the deck has {suspects}",
                players=players,
                suspects=len(deck.suspects),
            )
        )
    slots = _seat_slots(players, _slots(strategies))
    sizes = "/".join(str(len(deck.of(c))) for c in ed.CATEGORIES)
    params = f"{seed}|custom:{sizes}:{','.join(deck.cards)}|{variant_.id}|{players}|{','.join(slots)}"
    run_id = hashlib.sha256(params.encode()).hexdigest()[:10]
    flags = ed.resolve_flags(None, variant_, None)
    return Setup(None, variant_, flags, None, players, slots, seed, run_id, deck)


def simulate(
    games: int,
    players: int,
    edition: str | ed.Edition = "classic",
    strategies: Sequence[str] = ("notebook",),
    seed: int = 0,
    variant: str = "standard",
    deck: ed.Deck | None = None,
) -> Iterator[Game]:
    """``games`` complete games; the parameters are checked before the first one is played."""
    if games < 0:
        raise SimulationError(T_("the number of games cannot be negative"))
    plan = setup(players, edition, strategies, seed, variant, deck)
    return (play_game(plan, i) for i in range(games))


def seating(plan: Setup, index: int) -> list[tuple[str, str, str]]:
    """(player name, character, strategy spec) per seat, clockwise from the first player, for game ``index``."""
    k = plan.players
    choices = list(combinations(plan.characters, k))
    chosen = choices[(index // k) % len(choices)]
    seats = []
    for s, character in enumerate(chosen):
        slot = (s + index) % k
        seats.append((f"{plan.slots[slot]}-{slot + 1}", character, plan.slots[slot]))
    return seats


@dataclass
class _Table:
    """The state of one game in play."""

    game: Game
    board: Board | None  # None: a game without a board (the live variant, a custom deck)
    flags: dict[str, Any]
    rng: random.Random
    hands: dict[str, frozenset[str]]
    strategy: dict[str, Strategy]
    character: dict[str, str]  # player -> character
    position: dict[str, Position] = field(default_factory=dict)  # suspect -> where its token is
    may_suggest: dict[str, bool] = field(default_factory=dict)
    eliminated: set[str] = field(default_factory=set)

    def add(self, record_type: Callable[..., Event], **fields: Any) -> Event:
        record = record_type(seq=len(self.game.records) + 1, **fields)
        self.game.records.append(record)
        return record

    def occupied(self, suspect: str) -> frozenset[Square]:
        return frozenset(p for s, p in self.position.items() if s != suspect and not isinstance(p, str))


def play_game(plan: Setup, index: int) -> Game:
    """Game number ``index`` of a run."""
    rng = random.Random(f"{plan.seed}:{index}")
    deck = plan.deck
    seats = seating(plan, index)
    names = tuple(name for name, _, _ in seats)
    sizes = tuple(ed.dealt_hand_sizes(len(deck.cards), plan.players, plan.variant.room_cards))
    game = Game(
        edition=plan.edition,
        deck=deck,
        variant=plan.variant,
        flags=dict(plan.flags),
        players=tuple(Player(name=n, character=c, strategy=s) for n, c, s in seats),
        hand_sizes=sizes,
        declared_id=f"sim-{plan.run_id}-{index + 1:06d}",
        source="clue-stats simulate",
    )
    game.game_id = game.declared_id or ""
    solution = (rng.choice(deck.suspects), rng.choice(deck.weapons), rng.choice(deck.rooms))
    rest = [c for c in deck.cards if c not in solution]
    rng.shuffle(rest)
    dealt: dict[str, list[str]] = {n: [] for n in names}
    for i, card in enumerate(rest):
        dealt[names[i % plan.players]].append(card)
    table = _Table(
        game=game,
        board=plan.board,
        flags=plan.flags,
        rng=rng,
        hands={n: frozenset(c) for n, c in dealt.items()},
        strategy={},
        character={n: c for n, c, _ in seats},
    )
    for seat, (name, character, spec) in enumerate(seats):
        view = Seat(name, names, deck, tuple(dealt[name]), sizes, character)
        table.strategy[name] = make_strategy(spec, view, random.Random(f"{plan.seed}:{index}:{seat}"))
        table.add(Deal, player=name, cards=tuple(dealt[name]))
        table.may_suggest[name] = False
    for suspect in deck.suspects:
        start = plan.board.start_of(suspect) if plan.board is not None else None
        if start is not None:
            table.position[suspect] = start

    first = rng.randrange(plan.players) if plan.flags.get("first_player") == "die" else 0
    seat, winner, turns = first, None, 0
    play_turn = _play_turn if plan.board is not None else _play_turn_without_board
    while turns < MAX_TURNS and len(table.eliminated) < plan.players:
        name = names[seat]
        turns += 1
        if play_turn(table, name, solution):
            winner = name
            break
        seat = _next_active(table, names, seat)
    table.add(End, winner=winner, solution=solution)
    return game


def _next_active(table: _Table, names: tuple[str, ...], seat: int) -> int:
    for step in range(1, len(names) + 1):
        candidate = (seat + step) % len(names)
        if names[candidate] not in table.eliminated:
            return candidate
    return seat


def _play_turn(table: _Table, name: str, solution: tuple[str, str, str]) -> bool:
    """One turn of ``name``; True if they accused correctly."""
    strategy = table.strategy[name]
    suspect = table.character[name]
    game, _board = table.game, table.board
    here = table.position[suspect]
    sure = strategy.accusation(game)
    in_room_needed = bool(table.flags.get("accuse_in_room"))
    if sure is not None and (isinstance(here, str) or not in_room_needed):
        table.add(Turn, player=name, roll=None)
        return _accuse(table, name, sure, solution)

    roll, move, entered = _choose_move(table, name, suspect, here, accusing=sure is not None)
    table.add(Turn, player=name, roll=roll)
    if move is not None:
        table.add(Move, **move)
        table.position[suspect] = move["to"]
        if entered:
            table.may_suggest[name] = True
    here = table.position[suspect]
    if isinstance(here, str) and (table.flags.get("suggest_again_without_leaving", True) or table.may_suggest[name]):
        who, weapon = strategy.suggestion(game, here)
        _suggest(table, name, (who, weapon, here))
    sure = strategy.accusation(game)
    if sure is not None and (isinstance(here, str) or not in_room_needed):
        return _accuse(table, name, sure, solution)
    return False


def _play_turn_without_board(table: _Table, name: str, solution: tuple[str, str, str]) -> bool:
    """A turn of the live variant: suggest in the room worth most to the player (the first in deck
    order among equals), then accuse when sure."""
    strategy = table.strategy[name]
    game = table.game
    table.add(Turn, player=name, roll=None)
    room = max(game.deck.rooms, key=lambda r: strategy.value(game, r))
    who, weapon = strategy.suggestion(game, room)
    _suggest(table, name, (who, weapon, room))
    sure = strategy.accusation(game)
    return sure is not None and _accuse(table, name, sure, solution)


def _choose_move(
    table: _Table, name: str, suspect: str, here: Position, accusing: bool
) -> tuple[tuple[int, int] | None, dict[str, Any] | None, bool]:
    """(roll or None, the move record's fields or None, whether a room was entered)."""
    board, game, strategy = table.board, table.game, table.strategy[name]
    assert board is not None  # only board games move
    rooms = game.deck.rooms
    # A player sure of the answer only needs to stand in some room to accuse: every room is as good.
    values = {r: 1.0 if accusing else strategy.value(game, r) for r in rooms}
    occupied = table.occupied(suspect)
    distance = board.room_distances(here, occupied)

    if isinstance(here, str):
        may_stay = bool(table.flags.get("suggest_again_without_leaving", True)) or table.may_suggest[name]
        stay = values[here] if may_stay else -1.0
        passage = board.passages.get(here)
        through = values[passage] if passage in values else -1.0
        walk = max((values[r] / _turns(d) for r, d in distance.items() if r in values), default=-1.0)
        best = max(stay, through, walk)
        if best == stay and stay > 0:
            return None, {"player": name, "to": here, "via": "stay"}, False
        if best == through and through > 0 and passage is not None:
            return None, {"player": name, "to": passage, "via": "passage"}, True

    roll = (table.rng.randint(1, 6), table.rng.randint(1, 6))
    steps = roll[0] + roll[1]
    in_reach = {r: p for r, p in board.room_moves(here, steps, occupied).items() if r in values}
    # The goal: the best value per turn needed (a roll averages 7 moves).
    goal = max(
        (r for r in distance if r in values),
        key=lambda r: (values[r] / _turns(distance[r]), -distance[r]),
        default=None,
    )
    if in_reach:
        pick = max(in_reach, key=lambda r: (values[r], -len(in_reach[r])))
        if goal is None or goal in in_reach or values[pick] >= values[goal] / _turns(distance[goal]):
            target = goal if goal in in_reach else pick
            return roll, {"player": name, "to": target, "via": "walk", "path": in_reach[target]}, True
    if goal is not None:
        for end, path in board.square_moves(here, steps, occupied, rank=board.to_room(goal)):
            return roll, {"player": name, "to": end, "via": "walk", "path": path}, False
    if in_reach:
        pick = max(in_reach, key=lambda r: values[r])
        return roll, {"player": name, "to": pick, "via": "walk", "path": in_reach[pick]}, True
    if isinstance(here, str):
        return roll, {"player": name, "to": here, "via": "stay"}, False
    return roll, None, False  # hemmed in: the token cannot use this roll


def _turns(moves: int) -> int:
    """Turns a walk of ``moves`` takes at an average roll of 7 (at least one)."""
    return max(1, -(-moves // 7))


def _suggest(table: _Table, name: str, triple: tuple[str, str, str]) -> None:
    game = table.game
    names = game.names
    seat = names.index(name)
    responses = []
    for step in range(1, len(names)):
        responder = names[(seat + step) % len(names)]
        held = [c for c in triple if c in table.hands[responder]]
        if held:
            responses.append(Response(responder, table.strategy[responder].show(name, held)))
            break
        responses.append(Response(responder, None))
    record = table.add(
        Suggest, player=name, suspect=triple[0], weapon=triple[1], room=triple[2], responses=tuple(responses)
    )
    for strategy in table.strategy.values():
        strategy.observe(game, record)  # type: ignore[arg-type]
    if not table.flags.get("suggest_again_without_leaving", True):
        table.may_suggest[name] = False
    called = triple[0]
    if called in table.position and table.position[called] != triple[2]:
        owner = next((n for n, c in table.character.items() if c == called), None)
        if owner is None or owner not in table.eliminated or table.flags.get("eliminated_token_moves", True):
            table.position[called] = triple[2]
            if owner is not None:
                table.may_suggest[owner] = True


def _accuse(table: _Table, name: str, triple: tuple[str, str, str], solution: tuple[str, str, str]) -> bool:
    correct = triple == solution
    table.add(Accuse, player=name, suspect=triple[0], weapon=triple[1], room=triple[2], correct=correct)
    if not correct:
        table.eliminated.add(name)
        for strategy in table.strategy.values():
            strategy.observe_wrong_accusation(table.game, triple)
    return correct
