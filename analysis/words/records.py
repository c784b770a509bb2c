"""A record in words: the one wording of the report (key moments, notes, when a player became
certain) and of the dashboard's replay.

Past tense, since both tell what happened; cards, characters and rooms by the edition's names
(German for a German game), squares by the start they are; every sentence in the reader's language
(analysis.words). Plain text: the report's formatters and the dashboard escape it where they show it.
"""

from __future__ import annotations

from dataclasses import dataclass

from clue_stats.analysis.words import _, n_
from clue_stats.analysis.words import names as display_names
from clue_stats.engine.game import (
    ALL,
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
    visit,
)


def card_name(game: Game, card: str | None) -> str:
    """A card by the game's name for it; one the log's writer did not see is "a card"."""
    if card is None or card == UNSEEN:
        return _("a card")
    return game.deck.name(card)


def triple_names(game: Game, cards: tuple[str, str, str]) -> tuple[str, str, str]:
    return (card_name(game, cards[0]), card_name(game, cards[1]), card_name(game, cards[2]))


def listed(items: list[str]) -> str:
    """Items in a phrase: a; a and b; a, b and c."""
    if len(items) < 2:
        return "".join(items)
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


def describe(game: Game, record: Event) -> str:
    """One record of the game in words."""
    return visit(record, _Words(game))


class _Words(RecordVisitor[str]):
    """The words for a record of one game (a visitor of the walk over records, engine.game)."""

    def __init__(self, game: Game):
        self.game = game

    def name(self, card: str | None) -> str:
        return card_name(self.game, card)

    def visit_suggest(self, record: Suggest) -> str:
        cards = ", ".join(triple_names(self.game, record.cards))
        shower = record.shower
        if shower is None:
            return _("{player} suggested {cards}; nobody could show a card").format(player=record.player, cards=cards)
        passed = [r.player for r in record.responses if r.passed]
        if passed:
            return _("{player} suggested {cards}; {passed} passed; {shower} showed {card}").format(
                player=record.player,
                cards=cards,
                passed=listed(passed),
                shower=shower.player,
                card=self.name(shower.shows),
            )
        return _("{player} suggested {cards}; {shower} showed {card}").format(
            player=record.player, cards=cards, shower=shower.player, card=self.name(shower.shows)
        )

    def visit_accuse(self, record: Accuse) -> str:
        cards = ", ".join(triple_names(self.game, record.cards))
        if record.correct is True:
            return _("{player} accused {cards} (correctly)").format(player=record.player, cards=cards)
        if record.correct is False:
            return _("{player} accused {cards} (wrongly)").format(player=record.player, cards=cards)
        return _("{player} accused {cards}").format(player=record.player, cards=cards)

    def visit_reveal(self, record: Reveal) -> str:
        to = _("everyone") if record.to == ALL else listed(list(record.to))
        if record.player is not None:
            said = _("{player}'s card {card} was revealed to {to}").format(
                player=record.player, card=self.name(record.card), to=to
            )
        else:
            said = _("a card in nobody's hand {card} was revealed to {to}").format(card=self.name(record.card), to=to)
        return said + (f" ({record.cause})" if record.cause else "")

    def visit_peek(self, record: Peek) -> str:
        if record.card not in (None, UNSEEN):
            return _("{player} looked at the card set on {room}: {card}").format(
                player=record.player, room=self.name(record.room), card=self.name(record.card)
            )
        return _("{player} looked at the card set on {room}").format(player=record.player, room=self.name(record.room))

    def visit_deal(self, record: Deal) -> str:
        if not record.cards:
            return _("{player} was dealt no cards").format(player=record.player)
        return _("{player} was dealt {cards}").format(
            player=record.player, cards=listed([self.name(c) for c in record.cards])
        )

    def visit_room_cards(self, record: RoomCards) -> str:
        return _("cards were set aside on {rooms}").format(rooms=listed([self.name(r) for r in record.rooms]))

    def visit_turn(self, record: Turn) -> str:
        if record.roll:
            return _("{player}'s turn (rolled {roll})").format(
                player=record.player, roll=_(" and ").join(str(d) for d in record.roll)
            )
        return _("{player}'s turn").format(player=record.player)

    def visit_move(self, record: Move) -> str:
        square = display_names.of_game(self.game).square(record.to)
        moved = _("{player} moved to {square}").format(player=record.player, square=square)
        return moved + (f" ({record.via})" if record.via else "")

    def visit_clue_card(self, record: ClueCard) -> str:
        return _("{player} drew a clue card: {text}").format(player=record.player, text=record.text)

    def visit_end(self, record: End) -> str:
        if record.winner:
            text = _("the game ended; {winner} won").format(winner=record.winner)
        else:
            text = _("the game ended without a winner")
        if record.solution is not None:
            text += _("; the solution was {cards}").format(cards=", ".join(triple_names(self.game, record.solution)))
        return text

    def visit_statement(self, record: Statement) -> str:
        return _("{player} said: {words}").format(player=record.player, words=statement_words(self.game, record))

    def visit_extension(self, record: Extension) -> str:
        return _("extension record {kind}").format(kind=record.kind)


def _remaining(category: str, count: int) -> str:
    """ "5 suspects remain", "1 room remains"."""
    if category == "suspects":
        return n_(count, "{n} suspect remains", "{n} suspects remain")
    if category == "weapons":
        return n_(count, "{n} weapon remains", "{n} weapons remain")
    return n_(count, "{n} room remains", "{n} rooms remain")


def _left(category: str, names: str) -> str:
    if category == "suspects":
        return _("the suspects left are {cards}").format(cards=names)
    if category == "weapons":
        return _("the weapons left are {cards}").format(cards=names)
    return _("the rooms left are {cards}").format(cards=names)


def statement_words(game: Game, record: Statement) -> str:
    """What a statement says, in words: "Rope and Hall are not the solution; 5 suspects remain"."""

    def names(cards: tuple[str, ...] | list[str]) -> str:
        return listed([card_name(game, c) for c in cards])

    parts = []
    if record.not_in_envelope:
        cards = names(record.not_in_envelope)
        if len(record.not_in_envelope) == 1:
            parts.append(_("{cards} is not the solution").format(cards=cards))
        else:
            parts.append(_("{cards} are not the solution").format(cards=cards))
    for key in ("holds", "lacks"):
        by_player: dict[str, list[str]] = {}
        for who, card in getattr(record, key):
            by_player.setdefault(who, []).append(card)
        for who, held in by_player.items():
            template = _("{player} holds {cards}") if key == "holds" else _("{player} does not hold {cards}")
            parts.append(template.format(player=who, cards=names(held)))
    if record.solution is not None:
        parts.append(_("the solution is {cards}").format(cards=", ".join(triple_names(game, record.solution))))
    for category, said in record.remaining:
        if isinstance(said, int):
            parts.append(_remaining(category, said))
        else:
            parts.append(_left(category, names(said) or _("none")))
    return "; ".join(parts)


def describe_seq(game: Game, seq: int) -> str:
    """The record ``seq`` of the game in words; 0 is the game record, which begins the game."""
    if seq == 0:
        return n_(
            len(game.players),
            "the game began: {n} player ({names})",
            "the game began: {n} players ({names})",
            names=", ".join(game.names),
        )
    if not 1 <= seq <= len(game.records):
        raise IndexError(f"the game has no record {seq} (it has {len(game.records)})")
    return describe(game, game.records[seq - 1])


@dataclass(frozen=True)
class Places:
    """Where each record of a game is in its file, for saying it as the people who typed it know it:
    the line and the turn (:meth:`Game.turns`), by seq (index 0: the game record)."""

    lines: tuple[int | None, ...] = ()
    turns: tuple[int | None, ...] = ()

    @classmethod
    def of(cls, game: Game) -> Places:
        return cls((game.header_line, *(r.line for r in game.records)), tuple(game.turns()))

    def line(self, seq: int) -> int | None:
        return self.lines[seq] if 0 <= seq < len(self.lines) else None

    def __call__(self, seq: int, start: bool = False) -> str:
        """ "line 14 (turn 3)" (numbers as an editor shows them, no grouping), "line 2" (before the first
        turn), or, for a record read from no file,
        "record 14 (no line of the file known)"; ``start``: as a sentence begins it ("Line 14 ...")."""
        line = self.line(seq)
        turn = self.turns[seq] if 0 <= seq < len(self.turns) else None
        if line is None:
            text = (
                _("Record {seq} (no line of the file known)")
                if start
                else _("record {seq} (no line of the file known)")
            )
            return text.format(seq=seq)
        if turn is None:
            return (_("Line {line}") if start else _("line {line}")).format(line=line)
        text = _("Line {line} (turn {turn})") if start else _("line {line} (turn {turn})")
        return text.format(line=line, turn=turn)


def at(game: Game, seq: int) -> str:
    """Record ``seq`` of the game as the people who typed the file know it: "line 14 (turn 3)"."""
    return Places.of(game)(seq)
