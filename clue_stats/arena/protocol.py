"""SpeedClue's messages (docs/arena.md, ../shared/spec/arena.md): the two-letter card codes, the
server's messages and the bots' answers, as text lines (the contest's TCP protocol) and as JSON
lines (the arena's second transport: the same messages, one JSON object a line).

A message is a verb and its words (``Message("suggestion", ("0", "Gr", "Kn", "Co", "1", "Co"))``);
:func:`to_json` and :func:`from_json` map it to and from the JSON form, so the referee speaks one
language and each transport writes its own.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from clue_stats.engine.editions import Deck, edition
from clue_stats.engine.errors import InputError
from clue_stats.engine.markers import T_, Said
from clue_stats.ingest.importers.speedclue_py import CARD_CODES

EDITION = "us-classic"
VARIANT = "speedclue"
FIELDS = ("suspect", "weapon", "room")
CATEGORIES = ("suspects", "weapons", "rooms")
MAX_LINE = 4096  # a longer answer is garbage (no message of the protocol comes near it)

Triple = tuple[str, str, str]


def deck() -> Deck:
    return edition(EDITION).deck


def _codes() -> tuple[dict[str, str], dict[str, str]]:
    d = deck()
    card_of = {code.capitalize(): d.resolve(name) for code, name in CARD_CODES.items()}
    return card_of, {card: code for code, card in card_of.items()}


CARD_OF_CODE, CODE_OF_CARD = _codes()  # "Kn" -> "dagger", and back


CATEGORY_WORDS = {"suspects": T_("suspects"), "weapons": T_("weapons"), "rooms": T_("rooms")}


class BadMessage(InputError):
    """An answer that is not a message of the protocol (garbage), with what was wrong."""


@dataclass(frozen=True)
class Message:
    verb: str
    words: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        return " ".join((self.verb, *self.words))

    def __str__(self) -> str:
        return self.text


# -- the server's messages


def reset(players: int, seat: int, hand: tuple[str, ...]) -> Message:
    return Message("reset", (str(players), str(seat), *(CODE_OF_CARD[c] for c in hand)))


SUGGEST = Message("suggest")
ACCUSE = Message("accuse")
DONE = Message("done")


def disprove(seat: int, cards: Triple) -> Message:
    return Message("disprove", (str(seat), *codes(cards)))


def suggestion(seat: int, cards: Triple, shower: int | None, card: str | None) -> Message:
    """``suggestion I S W R J C`` (the card only to the suggester and the shower), ``... J`` to the
    others, ``... -`` when nobody could show."""
    tail: tuple[str, ...] = ("-",) if shower is None else (str(shower),) + ((CODE_OF_CARD[card],) if card else ())
    return Message("suggestion", (str(seat), *codes(cards), *tail))


def accusation(seat: int, cards: Triple, correct: bool) -> Message:
    return Message("accusation", (str(seat), *codes(cards), "+" if correct else "-"))


def codes(cards: Triple) -> tuple[str, str, str]:
    return (CODE_OF_CARD[cards[0]], CODE_OF_CARD[cards[1]], CODE_OF_CARD[cards[2]])


# -- the bots' answers


def parse_text(line: str) -> Message:
    """A bot's answer line as a message (words split on white space)."""
    words = line.split()
    if not words:
        raise BadMessage(T_("an empty line"))
    return Message(words[0], tuple(words[1:]))


def triple_of(message: Message, what: str | Said) -> Triple:
    """The three cards of ``suggest S W R`` or ``accuse S W R``: a suspect, a weapon and a room."""
    if len(message.words) != 3:
        raise BadMessage(
            T_(
                "{what} names {n_words} words, not a suspect, a weapon and a room",
                what=what,
                n_words=len(message.words),
            )
        )
    d = deck()
    out = []
    for code, category in zip(message.words, CATEGORIES, strict=True):
        card = CARD_OF_CODE.get(code)
        if card is None or d.category(card) != category:
            raise BadMessage(
                T_(
                    "{what}: {code} is not one of the {category} ({codes})",
                    what=what,
                    code=repr(code),
                    category=CATEGORY_WORDS[category],
                    codes=", ".join(_codes_of(category)),
                )
            )
        out.append(card)
    return (out[0], out[1], out[2])


def card_of(code: str) -> str | None:
    return CARD_OF_CODE.get(code)


def _codes_of(category: str) -> list[str]:
    d = deck()
    return [CODE_OF_CARD[c] for c in d.of(category)]


# -- JSON lines

_SERVER_FIELDS = {
    "reset": ("players", "seat"),
    "disprove": ("player", *FIELDS),
    "accusation": ("player", *FIELDS),
}


def to_json(message: Message) -> str:
    """A server's message as one JSON line (docs/arena.md, "JSON lines")."""
    w = message.words
    data: dict[str, Any] = {"type": message.verb}
    if message.verb == "reset":
        data.update(players=int(w[0]), seat=int(w[1]), cards=list(w[2:]))
    elif message.verb == "disprove":
        data.update(player=int(w[0]), suspect=w[1], weapon=w[2], room=w[3])
    elif message.verb == "suggestion":
        data.update(player=int(w[0]), suspect=w[1], weapon=w[2], room=w[3])
        data["disprover"] = None if w[4] == "-" else int(w[4])
        if len(w) > 5:
            data["card"] = w[5]
    elif message.verb == "accusation":
        data.update(player=int(w[0]), suspect=w[1], weapon=w[2], room=w[3], correct=w[4] == "+")
    return json.dumps(data, separators=(",", ":"))


def from_json(line: str) -> Message:
    """A bot's JSON answer as a message; :class:`BadMessage` for anything else."""
    try:
        data = json.loads(line)
    except ValueError:
        raise BadMessage(T_("not JSON")) from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise BadMessage(T_('not a JSON object with a "type"'))
    kind = data["type"]
    if kind in ("ok", "dead"):
        return Message(kind)
    if kind == "pass":
        return Message("-")
    if kind == "alive":
        name = data.get("name")
        return Message("alive", (name,) if isinstance(name, str) else ())
    if kind in ("suggest", "accuse"):
        cards = [data.get(f) for f in FIELDS]
        if not all(isinstance(c, str) for c in cards):
            raise BadMessage(T_('"{kind}" wants "suspect", "weapon" and "room" as card codes', kind=kind))
        return Message(kind, tuple(cards))  # type: ignore[arg-type]
    if kind == "show":
        card = data.get("card")
        if not isinstance(card, str):
            raise BadMessage(T_('"show" wants a "card" code'))
        return Message("show", (card,))
    raise BadMessage(T_("unknown type {kind}", kind=repr(kind)))
