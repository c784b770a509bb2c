"""A record in words: the one wording of the report (key moments, notes, when a player became
certain) and of the dashboard's replay.

Past tense, since both tell what happened; cards, characters and rooms by the edition's names
(German for a German game), squares by the start they are. Plain text: the report's formatters and
the dashboard escape it where they show it.
"""

from __future__ import annotations

from typing import assert_never

from clue_stats.analysis import names as display_names
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
    Reveal,
    RoomCards,
    Statement,
    Suggest,
    Turn,
)


def card_name(game: Game, card: str | None) -> str:
    """A card by the game's name for it; one the log's writer did not see is "a card"."""
    if card is None or card == UNSEEN:
        return "a card"
    return game.deck.name(card)


def triple_names(game: Game, cards: tuple[str, str, str]) -> tuple[str, str, str]:
    return (card_name(game, cards[0]), card_name(game, cards[1]), card_name(game, cards[2]))


def listed(items: list[str]) -> str:
    """Items in a phrase: a; a and b; a, b and c."""
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def describe(game: Game, record: Event) -> str:
    """One record of the game in words."""

    def name(card: str | None) -> str:
        return card_name(game, card)

    if isinstance(record, Suggest):
        said = f"{record.player} suggested {', '.join(triple_names(game, record.cards))}"
        shower = record.shower
        if shower is None:
            return f"{said}; nobody could show a card"
        passed = [r.player for r in record.responses if r.passed]
        passes = f"{listed(passed)} passed; " if passed else ""
        return f"{said}; {passes}{shower.player} showed {name(shower.shows)}"
    if isinstance(record, Accuse):
        verdict = " (correctly)" if record.correct is True else " (wrongly)" if record.correct is False else ""
        return f"{record.player} accused {', '.join(triple_names(game, record.cards))}{verdict}"
    if isinstance(record, Reveal):
        whose = f"{record.player}'s card" if record.player is not None else "a card in nobody's hand"
        to = "everyone" if record.to == ALL else listed(list(record.to))
        return f"{whose} {name(record.card)} was revealed to {to}" + (f" ({record.cause})" if record.cause else "")
    if isinstance(record, Peek):
        seen = f": {name(record.card)}" if record.card not in (None, UNSEEN) else ""
        return f"{record.player} looked at the card set on {name(record.room)}{seen}"
    if isinstance(record, Deal):
        return f"{record.player} was dealt {listed([name(c) for c in record.cards]) or 'no cards'}"
    if isinstance(record, RoomCards):
        return f"cards were set aside on {listed([name(r) for r in record.rooms])}"
    if isinstance(record, Turn):
        roll = f" (rolled {' and '.join(str(d) for d in record.roll)})" if record.roll else ""
        return f"{record.player}'s turn{roll}"
    if isinstance(record, Move):
        via = f" ({record.via})" if record.via else ""
        return f"{record.player} moved to {display_names.of_game(game).square(record.to)}{via}"
    if isinstance(record, ClueCard):
        return f"{record.player} drew a clue card: {record.text}"
    if isinstance(record, End):
        text = "the game ended" + (f"; {record.winner} won" if record.winner else " without a winner")
        if record.solution is not None:
            text += f"; the solution was {', '.join(triple_names(game, record.solution))}"
        return text
    if isinstance(record, Statement):
        return f"{record.player} said: {statement_words(game, record)}"
    if isinstance(record, Extension):
        return f"extension record {record.kind}"
    assert_never(record)  # mypy checks that every kind of record has its words; at run time it raises


def statement_words(game: Game, record: Statement) -> str:
    """What a statement says, in words: "Rope and Hall are not the solution; 5 suspects remain"."""

    def names(cards: tuple[str, ...] | list[str]) -> str:
        return listed([card_name(game, c) for c in cards])

    parts = []
    if record.not_in_envelope:
        parts.append(
            f"{names(record.not_in_envelope)} {'is' if len(record.not_in_envelope) == 1 else 'are'} not the solution"
        )
    for key, verb in (("holds", "holds"), ("lacks", "does not hold")):
        by_player: dict[str, list[str]] = {}
        for who, card in getattr(record, key):
            by_player.setdefault(who, []).append(card)
        parts.extend(f"{who} {verb} {names(cards)}" for who, cards in by_player.items())
    if record.solution is not None:
        parts.append(f"the solution is {', '.join(triple_names(game, record.solution))}")
    for category, said in record.remaining:
        if isinstance(said, int):
            parts.append(f"{said} {category if said != 1 else category[:-1]} remain{'s' if said == 1 else ''}")
        else:
            parts.append(f"the {category} left are {names(said) or 'none'}")
    return "; ".join(parts)


def describe_seq(game: Game, seq: int) -> str:
    """The record ``seq`` of the game in words; 0 is the game record, which begins the game."""
    if seq == 0:
        return f"the game began: {len(game.players)} players ({', '.join(game.names)})"
    if not 1 <= seq <= len(game.records):
        raise IndexError(f"the game has no record {seq} (it has {len(game.records)})")
    return describe(game, game.records[seq - 1])
