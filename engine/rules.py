"""The rules engine: replays a game for its edition and variant and reports every problem.

Checks follow "What the engine checks" of the clue-log/1 contract, in four groups: the deck, the
order of play, the rules of the edition (its flags), and knowledge (with the hands known, nobody
lies; with them unknown, some deal must be consistent with everything logged). Every problem names
its record (seq and line) and the players and cards involved. Nothing stops at the first problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from clue_stats.engine import budget, movement
from clue_stats.engine.game import (
    UNSEEN,
    Accuse,
    ClueCard,
    Deal,
    End,
    Event,
    Extension,
    Game,
    Move,
    Peek,
    RecordVisitor,
    Reveal,
    RoomCards,
    Statement,
    Suggest,
    Turn,
    walk,
)
from clue_stats.engine.markers import T_, Said
from clue_stats.engine.problems import Problem, listed

# The order in which characters sit around the classic board, clockwise: who starts after Scarlett.
CHARACTER_ORDER = ("scarlett", "mustard", "white", "orchid", "green", "peacock", "plum")


@dataclass
class Replay:
    """What replaying a game established, beside its problems (used by the store and analysis)."""

    problems: list[Problem] = field(default_factory=list)
    eliminated: set[str] = field(default_factory=set)
    winner: str | None = None
    solution: tuple[str, str, str] | None = None
    first_player: str | None = None  # the first to play: first turn record, else first suggestion

    def turn_order(self, game: Game) -> dict[str, int | None]:
        if self.first_player is None:
            return {name: None for name in game.names}
        first = game.seat(self.first_player)
        return {name: (seat - first) % game.n_players for seat, name in enumerate(game.names)}

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.is_error]


def _fmt(game: Game, cards: tuple[str, ...] | list[str]) -> str | Said:
    return listed(game.deck.name(c) for c in cards)


class _Referee:
    def __init__(self, game: Game):
        self.game = game
        self.out = Replay()
        self.hands: dict[str, frozenset[str]] = {}
        self.n = game.n_players
        self.set_aside: dict[str, str] = {}  # the duel's room cards, card -> room
        self.envelope: tuple[str, str, str] | None = None  # what every hand dealt leaves over

    def problem(self, code: str, message: str | Said, record: Event | None) -> None:
        seq = record.seq if record is not None else 0
        line = record.line if record is not None else self.game.header_line
        self.out.problems.append(Problem.of(code, message, seq=seq, line=line))

    def name(self, card: str) -> str:
        return self.game.deck.name(card)

    # ------------------------------------------------------------ deck

    def check_deck(self) -> None:
        game = self.game
        deck = _DeckCheck(self)
        walk(game.records, deck)
        where = deck.where
        solution = game.solution()
        self.out.solution = solution
        end = game.end()
        # a solution taken from a correct accusation is checked with the accusation
        if solution is not None and end is not None and end.solution is not None:
            for card in solution:
                if card in where:
                    self.problem(
                        "envelope_card_dealt",
                        T_("{card} is in the solution but {where}", card=self.name(card), where=where[card]),
                        end,
                    )
        if not self.out.problems:
            self.envelope = self.left_over()

    def left_over(self) -> tuple[str, str, str] | None:
        """With every hand dealt (and, in a duel, every room card known): the cards left for the
        envelope, which must be one suspect, one weapon and one room (impossible_envelope if not)."""
        game = self.game
        if len(self.hands) < self.n or len(self.set_aside) < game.variant.room_cards:
            return None
        placed = set(self.set_aside).union(*self.hands.values())
        left = [c for c in game.deck.cards if c not in placed]
        per_category = [[c for c in left if c in game.deck.of(cat)] for cat in ("suspects", "weapons", "rooms")]
        if all(len(cards) == 1 for cards in per_category):
            return per_category[0][0], per_category[1][0], per_category[2][0]
        last_deal = [r for r in game.records if isinstance(r, Deal)][-1]
        missing = [cat for cat, cards in zip(("suspect", "weapon", "room"), per_category) if not cards]
        self.problem(
            "impossible_envelope",
            f"with every hand dealt, the cards left for the envelope are {_fmt(game, left) or 'none'}"
            + (f": no {' and no '.join(missing)}" if missing else ", not one suspect, one weapon and one room"),
            last_deal,
        )
        return None

    # ------------------------------------------------------------ replay

    def first_player_ok(self, turn: Turn) -> None:
        game = self.game
        rule = game.flags.get("first_player")
        expected: str | None = None
        if rule == "listed":
            expected = game.names[0]
        elif rule == "scarlett":
            chars = {p.character: p.name for p in game.players if p.character}
            if len(chars) == self.n:
                expected = next((chars[c] for c in CHARACTER_ORDER if c in chars), None)
        if expected is not None and turn.player != expected:
            self.problem(
                "turn_order",
                T_(
                    "{player} takes the first turn, but {expected} plays first ({rule} starts)",
                    player=turn.player,
                    expected=expected,
                    rule=rule,
                ),
                turn,
            )

    def next_active(self, player: str) -> str:
        names = self.game.names
        seat = self.game.seat(player)
        for step in range(1, self.n + 1):
            candidate = names[(seat + step) % self.n]
            if candidate not in self.out.eliminated:
                return candidate
        return player

    def replay(self) -> None:
        play = _PlayCheck(self)
        walk(self.game.records, play)
        if play.ended is None:
            self.problem("no_end", T_("the game has no end record"), None)

    # ------------------------------------------------------------ single records

    def check_suggestion(self, r: Suggest) -> None:
        game = self.game
        if not r.responses:
            self.problem("empty_responses", T_("{player}'s suggestion has no responses", player=r.player), r)
            return
        seat = game.seat(r.player)
        expected = [game.names[(seat + i) % self.n] for i in range(1, self.n)]

        def named() -> str:  # made only for a problem's message (most suggestions have none)
            return f"{_fmt(game, r.cards)}"

        for i, resp in enumerate(r.responses):
            if resp.player == r.player:
                self.problem(
                    "suggester_responds",
                    T_("{player} answers their own suggestion of {named}", player=r.player, named=named()),
                    r,
                )
                return
            if i > 0 and not r.responses[i - 1].passed:
                self.problem(
                    "after_shown",
                    T_(
                        "{player} answers after {player2} showed a card",
                        player=resp.player,
                        player2=r.responses[i - 1].player,
                    ),
                    r,
                )
                return
            if i >= len(expected) or resp.player != expected[i]:
                want = expected[i] if i < len(expected) else "nobody"
                self.problem(
                    "response_order",
                    T_(
                        "{player} answers {player2}'s suggestion in place {value}, where {want} answers (clockwise from {player2}'s left)",
                        player=resp.player,
                        player2=r.player,
                        value=i + 1,
                        want=want,
                    ),
                    r,
                )
                return
        last = r.responses[-1]
        if last.passed and len(r.responses) != self.n - 1:
            missing = [p for p in expected if p not in {x.player for x in r.responses}]
            self.problem(
                "missing_responses",
                T_(
                    "nobody showed {player} a card, but {missing} did not pass",
                    player=r.player,
                    missing=listed(missing),
                ),
                r,
            )
        if last.shows is not None and last.shows != UNSEEN and last.shows not in r.cards:
            self.problem(
                "shown_not_named",
                T_(
                    "{player} shows {shows}, which is not one of {named}",
                    player=last.player,
                    shows=self.name(last.shows),
                    named=named(),
                ),
                r,
            )
        for resp in r.responses:
            hand = self.hands.get(resp.player)
            if hand is None:
                continue
            if resp.passed:
                held = [c for c in r.cards if c in hand]
                if held:
                    self.problem(
                        "passed_holding",
                        T_(
                            "{player} passes on {named} while holding {held}",
                            player=resp.player,
                            named=named(),
                            held=_fmt(game, held),
                        ),
                        r,
                    )
            elif resp.shows is not None and resp.shows != UNSEEN:  # not passed: shows is a card
                if resp.shows not in hand:
                    self.problem(
                        "shown_not_held",
                        T_(
                            "{player} shows {shows}, which is not in their hand",
                            player=resp.player,
                            shows=self.name(resp.shows),
                        ),
                        r,
                    )
            elif not any(c in hand for c in r.cards):
                self.problem(
                    "shown_not_held",
                    T_("{player} shows a card but holds none of {named}", player=resp.player, named=named()),
                    r,
                )

    def check_accusation(self, r: Accuse) -> bool:
        end = self.game.end()
        # without the end's solution, the hands dealt are what an outcome is checked against
        if (end is None or end.solution is None) and self.impossible_outcome(r):
            return bool(r.correct)
        solution = self.out.solution or self.envelope
        if solution is None:
            if r.correct is None:
                self.problem(
                    "unknown_solution",
                    T_("{player}'s accusation cannot be checked: the solution is not known", player=r.player),
                    r,
                )
            return bool(r.correct)
        truth = r.cards == solution
        if r.correct is not None and r.correct != truth:
            self.problem(
                "accusation_mismatch",
                T_(
                    "{player}'s accusation of {cards} is logged as {what}, but the solution is {solution}",
                    player=r.player,
                    cards=_fmt(self.game, r.cards),
                    what="correct" if r.correct else "wrong",
                    solution=_fmt(self.game, solution),
                ),
                r,
            )
        return truth if r.correct is None else r.correct

    def impossible_outcome(self, r: Accuse) -> bool:
        """An outcome the dealt hands rule out: correct, though a named card is in a hand or set
        aside; wrong, though every hand is dealt and the cards left over are the ones named."""
        game = self.game
        if r.correct:
            for card in r.cards:
                holder = next((p for p, hand in self.hands.items() if card in hand), None)
                where: str | Said | None = T_("{holder} holds it", holder=holder) if holder else None
                if card in self.set_aside:
                    where = T_("it is set aside on {room}", room=self.name(self.set_aside[card]))
                if where is not None:
                    self.problem(
                        "impossible_accusation",
                        T_(
                            "{player}'s accusation of {cards} is logged as correct, but {card} cannot be in the envelope: {where}",
                            player=r.player,
                            cards=_fmt(game, r.cards),
                            card=self.name(card),
                            where=where,
                        ),
                        r,
                    )
                    return True
        elif r.correct is False and self.envelope == r.cards:
            self.problem(
                "impossible_accusation",
                T_(
                    "{player}'s accusation of {cards} is logged as wrong, but with every hand dealt these are the cards left for the envelope",
                    player=r.player,
                    cards=_fmt(game, r.cards),
                ),
                r,
            )
            return True
        return False

    def check_peek(self, r: Peek) -> None:
        room_cards = next((x for x in self.game.records if isinstance(x, RoomCards)), None)
        if self.game.variant.room_cards == 0:
            self.problem("no_peek", T_("{player} peeks at a room card outside the duel", player=r.player), r)
        elif room_cards is not None and r.room not in room_cards.rooms:
            self.problem(
                "no_peek",
                T_("{player} peeks into {room}, which holds no card", player=r.player, room=self.name(r.room)),
                r,
            )
        elif (
            room_cards is not None
            and room_cards.cards
            and r.card is not None
            and room_cards.cards.get(r.room) not in (None, r.card)
        ):
            self.problem(
                "room_cards",
                T_(
                    "{player} sees {card} on {room}, where the log set {cards}",
                    player=r.player,
                    card=self.name(r.card),
                    room=self.name(r.room),
                    cards=self.name(room_cards.cards[r.room]),
                ),
                r,
            )
        if r.card is not None:
            for owner, hand in self.hands.items():
                if r.card in hand:
                    self.problem(
                        "card_twice",
                        T_(
                            "{player} sees {card} on {room}, but it is in {owner}'s hand",
                            player=r.player,
                            card=self.name(r.card),
                            room=self.name(r.room),
                            owner=owner,
                        ),
                        r,
                    )

    def check_reveal(self, r: Reveal) -> None:
        if r.card == UNSEEN:
            return
        if r.player is None:
            for owner, hand in self.hands.items():
                if r.card in hand:
                    self.problem(
                        "shown_not_held",
                        T_(
                            "{card} is revealed as in nobody's hand, but {owner} holds it",
                            card=self.name(r.card),
                            owner=owner,
                        ),
                        r,
                    )
        else:
            own = self.hands.get(r.player)
            if own is not None and r.card not in own:
                self.problem(
                    "shown_not_held",
                    T_("{player} reveals {card}, which is not in their hand", player=r.player, card=self.name(r.card)),
                    r,
                )
            if self.out.solution is not None and r.card in self.out.solution:
                self.problem(
                    "envelope_card_dealt",
                    T_("{player} reveals {card}, a card of the solution", player=r.player, card=self.name(r.card)),
                    r,
                )

    def check_end(self, r: End, won_at: Accuse | None) -> None:
        game = self.game
        if won_at is not None and r.solution is not None and won_at.cards != r.solution:
            self.problem(
                "solution_mismatch",
                T_(
                    "{player} won accusing {cards}, but the end gives {solution}",
                    player=won_at.player,
                    cards=_fmt(game, won_at.cards),
                    solution=_fmt(game, r.solution),
                ),
                r,
            )
        expected: str | None = won_at.player if won_at is not None else None
        if expected is None and game.flags.get("last_player_standing_wins"):
            left = [n for n in game.names if n not in self.out.eliminated]
            if len(left) == 1:
                expected = left[0]
        if r.winner != expected:
            why = (
                f"{expected} {'accused correctly' if won_at else 'is the last player standing'}"
                if expected
                else "nobody accused correctly"
            )
            self.problem(
                "wrong_winner",
                T_("the end names {value} as winner, but {why}", value=r.winner or "no winner", why=why),
                r,
            )
        self.out.winner = expected if r.winner is None else r.winner


class _DeckCheck(RecordVisitor[None]):
    """The deck, record by record: each hand dealt once and of its size, the duel's room cards, and no
    card in two places (``where`` says where each card dealt or set aside is)."""

    def __init__(self, referee: _Referee):
        self.ref = referee
        self.where: dict[str, str | Said] = {}

    def visit_deal(self, r: Deal) -> None:
        ref, game, where = self.ref, self.ref.game, self.where
        if r.player in ref.hands:
            ref.problem("deal_twice", T_("{player}'s hand is dealt a second time", player=r.player), r)
            return
        ref.hands[r.player] = frozenset(r.cards)
        size = game.hand_sizes[game.seat(r.player)]
        if len(r.cards) != size:
            ref.problem(
                "hand_size",
                T_(
                    "{player} is dealt {n_cards} cards; their hand holds {size}",
                    player=r.player,
                    n_cards=len(r.cards),
                    size=size,
                ),
                r,
            )
        for card in r.cards:
            if card in where:
                ref.problem(
                    "card_twice",
                    T_(
                        "{card} is dealt to {player} but is already {where}",
                        card=ref.name(card),
                        player=r.player,
                        where=where[card],
                    ),
                    r,
                )
            where[card] = T_("in {player}'s hand", player=r.player)

    def visit_room_cards(self, r: RoomCards) -> None:
        ref, game, where = self.ref, self.ref.game, self.where
        if game.variant.room_cards == 0:
            ref.problem("room_cards", T_("room cards are set aside only in the duel variant"), r)
            return
        if len(r.rooms) != game.variant.room_cards or len(set(r.rooms)) != len(r.rooms):
            ref.problem(
                "room_cards",
                T_(
                    "the duel sets {room_cards} cards on as many different rooms, not on {rooms}",
                    room_cards=game.variant.room_cards,
                    rooms=_fmt(game, r.rooms),
                ),
                r,
            )
        for room, card in (r.cards or {}).items():
            if room not in r.rooms:
                ref.problem(
                    "room_cards",
                    T_("a card is set on {room}, which is not one of the room-card rooms", room=ref.name(room)),
                    r,
                )
            if card in where:
                ref.problem(
                    "card_twice",
                    T_(
                        "{card} is set on {room} but is already {where}",
                        card=ref.name(card),
                        room=ref.name(room),
                        where=where[card],
                    ),
                    r,
                )
            where[card] = T_("on {room}", room=ref.name(room))
            ref.set_aside[card] = room

    # the other records deal no card and set none aside

    def visit_turn(self, r: Turn) -> None:
        return None

    def visit_move(self, r: Move) -> None:
        return None

    def visit_peek(self, r: Peek) -> None:
        return None

    def visit_suggest(self, r: Suggest) -> None:
        return None

    def visit_reveal(self, r: Reveal) -> None:
        return None

    def visit_clue_card(self, r: ClueCard) -> None:
        return None

    def visit_accuse(self, r: Accuse) -> None:
        return None

    def visit_statement(self, r: Statement) -> None:
        return None

    def visit_end(self, r: End) -> None:
        return None

    def visit_extension(self, r: Extension) -> None:
        return None


class _PlayCheck(RecordVisitor[None]):
    """The order of play and the edition's rules, record by record, with the state of play so far."""

    def __init__(self, referee: _Referee):
        self.ref = referee
        self.game = game = referee.game
        self.flags = game.flags
        self.has_turns = any(isinstance(r, Turn) for r in game.records)
        self.every_turn = self.flags.get("suggestion_every_turn")
        self.current: str | None = None  # whose turn it is (turn records only)
        self.suggested_this_turn = False
        self.last_suggester: str | None = None  # the suggester of the previous suggestion, for accusations
        self.accused: set[str] = set()
        self.past_suggestions: dict[str, set[tuple[str, str, str]]] = {}
        self.won_at: Accuse | None = None
        self.ended: End | None = None
        self.previous_turn: Turn | None = None

    def in_play(self, r: Event, end: bool = False) -> bool:
        """Whether the record comes while the game is on: not after its end, nor (but for the end
        record) after a correct accusation; a problem if not."""
        if self.ended is not None:
            what = T_("a second end record") if end else T_("a {type} record", type=r.type)
            self.ref.problem(
                "after_end", T_("{what} after the end of the game (line {line})", what=what, line=self.ended.line), r
            )
            return False
        if self.won_at is not None and not end:
            self.ref.problem(
                "after_win",
                T_("a {type} record after {player}'s correct accusation", type=r.type, player=self.won_at.player),
                r,
            )
            return False
        return True

    def not_out(self, r: Turn | Suggest | Accuse, what: str) -> None:
        """A player out after a wrong accusation takes no turn, suggests and accuses no more."""
        if r.player in self.ref.out.eliminated:
            self.ref.problem(
                "eliminated_acts",
                T_("{actor} is out after a wrong accusation but {what}", actor=r.player, what=what),
                r,
            )

    def visit_turn(self, r: Turn) -> None:
        if not self.in_play(r):
            return
        ref, flags, current = self.ref, self.flags, self.current
        self.not_out(r, "takes a turn")
        if self.every_turn and self.previous_turn is not None and not self.suggested_this_turn:
            ref.problem(
                "no_suggestion",
                T_(
                    "{player}'s turn ends without a suggestion; this variant wants one every turn",
                    player=self.previous_turn.player,
                ),
                r,
            )
        if current is None:
            ref.first_player_ok(r)
        elif r.player != ref.next_active(current) and r.player not in ref.out.eliminated:
            ref.problem(
                "turn_order",
                T_(
                    "{player} takes a turn after {current}; {next_active} plays next",
                    player=r.player,
                    current=current,
                    next_active=ref.next_active(current),
                ),
                r,
            )
        if r.roll is not None:
            if not flags.get("board"):
                ref.problem(
                    "no_board",
                    T_("{player} rolls the dice in a variant played without a board", player=r.player),
                    r,
                )
            elif len(r.roll) != 2 or any(d != UNSEEN and not 1 <= d <= 6 for d in r.roll):  # type: ignore[operator]
                ref.problem(
                    "bad_roll",
                    T_("{player}'s roll {roll} is not two dice", player=r.player, roll=list(r.roll)),
                    r,
                )
            elif UNSEEN in r.roll and not flags.get("magnifier_moves"):
                ref.problem(
                    "bad_roll",
                    T_("{player} rolls a magnifier, but this edition's dice have none", player=r.player),
                    r,
                )
        if ref.out.first_player is None:
            ref.out.first_player = r.player
        self.current, self.suggested_this_turn, self.previous_turn = r.player, False, r
        self.last_suggester = None

    def visit_move(self, r: Move) -> None:
        if not self.in_play(r):
            return
        if not self.flags.get("board"):
            self.ref.problem(
                "no_board", T_("{player} moves a token in a variant played without a board", player=r.player), r
            )
        elif self.has_turns and r.player != self.current:
            self.ref.problem(
                "not_your_turn",
                T_("{player} moves during {current}'s turn", player=r.player, current=self.current),
                r,
            )

    def visit_suggest(self, r: Suggest) -> None:
        if not self.in_play(r):
            return
        ref, game = self.ref, self.game
        self.not_out(r, r.type + "s")
        ref.check_suggestion(r)
        if self.has_turns:
            if r.player != self.current:
                ref.problem(
                    "not_your_turn",
                    T_("{player} suggests during {current}'s turn", player=r.player, current=self.current),
                    r,
                )
            elif self.suggested_this_turn:
                ref.problem("suggest_twice", T_("{player} suggests a second time in one turn", player=r.player), r)
        elif self.every_turn and self.last_suggester is not None and r.player != ref.next_active(self.last_suggester):
            ref.problem(
                "turn_order",
                T_(
                    "{player} suggests after {last_suggester}; {next_active} plays next",
                    player=r.player,
                    last_suggester=self.last_suggester,
                    next_active=ref.next_active(self.last_suggester),
                ),
                r,
            )
        if self.flags.get("no_repeat_own_suggestion") and r.cards in self.past_suggestions.get(r.player, set()):
            ref.problem(
                "repeat_suggestion",
                T_("{player} repeats their suggestion {cards}", player=r.player, cards=_fmt(game, r.cards)),
                r,
            )
        self.past_suggestions.setdefault(r.player, set()).add(r.cards)
        if ref.out.first_player is None:
            ref.out.first_player = r.player
        self.suggested_this_turn = True
        self.last_suggester = r.player

    def visit_accuse(self, r: Accuse) -> None:
        if not self.in_play(r):
            return
        ref = self.ref
        self.not_out(r, r.type + "s")
        if r.player in self.accused:
            ref.problem("accused_twice", T_("{player} accuses a second time", player=r.player), r)
        self.accused.add(r.player)
        if self.has_turns and r.player != self.current:
            ref.problem(
                "not_your_turn",
                T_("{player} accuses during {current}'s turn", player=r.player, current=self.current),
                r,
            )
        if self.flags.get("accuse_only_after_suggestion") and self.last_suggester != r.player:
            ref.problem(
                "accuse_without_suggestion",
                T_("{player} accuses without a suggestion of their own just before", player=r.player),
                r,
            )
        if ref.check_accusation(r):
            self.won_at = r
            ref.out.winner = r.player
        else:
            ref.out.eliminated.add(r.player)
        if not self.has_turns and self.flags.get("accuse_only_after_suggestion"):
            self.last_suggester = None

    def visit_peek(self, r: Peek) -> None:
        if self.in_play(r):
            self.ref.check_peek(r)

    def visit_reveal(self, r: Reveal) -> None:
        if self.in_play(r):
            self.ref.check_reveal(r)

    def visit_clue_card(self, r: ClueCard) -> None:
        if self.in_play(r) and not self.flags.get("clue_cards"):
            self.ref.problem(
                "no_clue_cards", T_("{player} draws a clue card in a game played without them", player=r.player), r
            )

    def visit_end(self, r: End) -> None:
        if self.in_play(r, end=True):
            self.ended = r
            self.ref.check_end(r, self.won_at)

    # the deck is checked before the play (_DeckCheck); a statement is what a player says, not a move,
    # allowed anywhere, even after the end; an extension is kept, never interpreted

    def visit_deal(self, r: Deal) -> None:
        self.in_play(r)

    def visit_room_cards(self, r: RoomCards) -> None:
        self.in_play(r)

    def visit_statement(self, r: Statement) -> None:
        # a card named twice in one claim counts once in the grading (analysis.md, stated knowledge,
        # case 3): said here, at the statement's line
        claims: list[tuple[str, ...]] = [r.not_in_envelope]
        claims += [tuple(f"{who}\0{card}" for who, card in pairs) for pairs in (r.holds, r.lacks)]
        claims += [said for _, said in r.remaining if not isinstance(said, int)]
        twice = sorted({c.rsplit("\0", 1)[-1] for claim in claims for c in claim if claim.count(c) > 1})
        if twice:
            self.ref.problem(
                "duplicate_card",
                T_(
                    "{player} names {cards} twice in one statement: counted once",
                    player=r.player,
                    cards=_fmt(self.game, twice),
                ),
                r,
            )

    def visit_extension(self, r: Extension) -> None:
        return None


def replay(game: Game) -> Replay:
    """Replay a game, checking every rule that needs no deduction; see :func:`validate`."""
    referee = _Referee(game)
    referee.check_deck()
    referee.replay()
    if not referee.hands:
        referee.problem(
            "no_deals", T_("no hand is logged: only the consistency of what was logged can be checked"), None
        )
    if game.flags.get("board") and any(isinstance(r, Move) for r in game.records):
        referee.out.problems.extend(movement.check_movement(game))
    return referee.out


def validate(game: Game) -> Replay:
    """Replay and, where hands are unknown, ask the deduction engine for consistency. The problems
    come in the order of the records."""
    result = replay(game)
    if result.errors:
        result.problems.sort(key=lambda p: p.seq if p.seq is not None else 0)
        return result
    known = game.hands()
    if len(known) < game.n_players:
        from clue_stats.engine import deduction  # deferred: start-up

        try:
            found = deduction.first_inconsistent(game)
        except budget.BudgetExceeded as exc:
            found = None
            result.problems.append(over_budget(game, exc))
        if found is not None:
            result.problems.extend(_inconsistency(game, *found))
    result.problems.sort(key=lambda p: p.seq if p.seq is not None else 0)
    return result


def _inconsistency(game: Game, seq: int, earlier: list[int] | None) -> list[Problem]:
    record = game.records[seq - 1] if seq >= 1 else None
    line = record.line if record else game.header_line
    if earlier:
        with_: str | Said = T_(
            "; it contradicts {records}", records=listed((game.where(s) for s in earlier), last=" and ")
        )
    elif earlier is None:
        with_ = T_("; the records it contradicts were not searched (over the budget)")
    else:
        with_ = ""
    if isinstance(record, Accuse) and record.correct is not None:
        found = Problem.of(
            "impossible_accusation",
            T_(
                "{player}'s accusation of {cards} is logged as {what}, but no deal of the cards fits that and everything logged before it{contradicted}",
                player=record.player,
                cards=_fmt(game, record.cards),
                what="correct" if record.correct else "wrong",
                contradicted=with_,
            ),
            seq=seq,
            line=line,
        )
    else:
        found = Problem.of(
            "inconsistent",
            T_(
                "after this {what} no deal of the cards fits everything logged{contradicted}",
                what=record.type if record else "record",
                contradicted=with_,
            ),
            seq=seq,
            line=line,
        )
    spent = budget.current()
    if earlier is None and spent is not None and spent.exceeded is not None:
        spent.exceeded.seq = seq
        return [found, over_budget(game, spent.exceeded, searching=True)]
    return [found]


def over_budget(game: Game, exc: budget.BudgetExceeded, searching: bool = False) -> Problem:
    """The problem of a check stopped by the budget (engine.budget): what was not computed and why."""
    record = game.records[exc.seq - 1] if exc.seq else None
    if searching:
        what = T_("the records this one contradicts were not searched")
    elif record is not None:
        what = T_("the consistency of the log from this {type} on was not checked", type=record.type)
    else:
        what = T_("the consistency of the log was not checked")
    return Problem.of(
        "over_budget",
        T_("{what}: {message}", what=what, message=exc.said or exc.message),
        seq=exc.seq or 0,
        line=record.line if record is not None else game.header_line,
    )
