"""The notation writer: a checked :class:`engine.game.Game` into tabletop notation lines.

Each line is written in the edition's own names, without quotes where the reader reads it back the
same (``Anna: Bürgermeister Grün Seil Salon / Ben - / Cleo Seil``), and is read back at once; if it
does not give the same record, the line is written again with every name in quotes, then with the
quoted ids. What the notation cannot say (extension records and fields) is refused with
:class:`NotationWriteError`, never dropped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from clue_stats.engine import editions as ed
from clue_stats.engine.errors import InputError
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
    SomeRecordsVisitor,
    Statement,
    Suggest,
    Turn,
    visit,
)
from clue_stats.ingest import cluelog
from clue_stats.ingest.notation_lex import NotationError, lex
from clue_stats.ingest.notation_parse import (
    EVENT_KEYS,
    HEADER_KEYS,
    VERBS,
    VERDICTS,
    VIA,
    Context,
    keyword,
    read_header,
    read_record,
)

# words that mean something where a name may stand: such a name is written in quotes
RESERVED = {*HEADER_KEYS, *EVENT_KEYS, *VERBS, *VERDICTS, *VIA, "to", "cause", "all", "nobody", "path", "-", "?"}
_WORD = re.compile(r'[^\s"/#@,=:!][^\s"/,=:!]*')
_TIME = re.compile(r'[^\s"/]+')


class NotationWriteError(InputError):
    """Records the notation cannot say (or that are not valid clue-log/1); the message says which."""


def quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _plain_words(text: str) -> bool:
    words = text.split(" ")
    return bool(text) and all(_WORD.fullmatch(w) and w.casefold().replace("-", "_") not in RESERVED for w in words)


def free_text(value: str) -> str:
    """A text as the reader takes it back: as typed, else quoted (line breaks, quotes, edge spaces)."""
    risky = (
        not value
        or value != value.strip()
        or any(ch in value for ch in '"\n\r')
        or value[0] in "#@:"
        or re.search(r"\s[#@]", value) is not None
    )
    return quoted(value) if risky else value


def note_text(note: str) -> str:
    plain = note and note == note.strip() and not note.startswith('"') and not any(ch in note for ch in "\n\r")
    return note if plain else quoted(note)


def time_text(t: str) -> str:
    return "@" + (t if _TIME.fullmatch(t) else quoted(t))


class _Names:
    """How names are written in one attempt: pretty (as printed on the cards), quoted, or quoted ids."""

    def __init__(self, game: Game, mode: int):
        self.game, self.mode = game, mode

    def card(self, card: str) -> str:
        if self.mode == 2:
            return quoted(card)
        name = self.game.deck.name(card)
        return name if self.mode == 0 and _plain_words(name) else quoted(name)

    def player(self, name: str) -> str:
        return name if self.mode == 0 and _plain_words(name) else quoted(name)

    def cards(self, cards: tuple[str, ...] | list[str]) -> str:
        return " ".join(self.card(c) for c in cards)


def _extra(line: str, extra: dict[str, Any], where: str) -> str:
    bad = sorted(k for k in extra if k not in ("t", "note"))
    if bad:
        raise NotationWriteError(
            f"{where}: the notation has no place for the extension field{'s' if len(bad) > 1 else ''} {', '.join(bad)}"
        )
    if "t" in extra:
        line += " " + time_text(extra["t"])
    if "note" in extra:
        line += " # " + note_text(extra["note"])
    return line


def statement_notation(r: Statement, n: _Names) -> str:
    """The parts of a statement, '/' between them (docs/notation.md)."""
    parts = []
    if r.not_in_envelope:
        parts.append("not " + n.cards(r.not_in_envelope))
    if r.remaining:
        parts.append(
            "remaining "
            + " ".join(f"{c} {said}" if isinstance(said, int) else f"{c} {n.cards(said)}" for c, said in r.remaining)
        )
    if r.solution is not None:
        parts.append("solution " + n.cards(r.solution))
    for verb, pairs in (("has", r.holds), ("lacks", r.lacks)):
        by_player: dict[str, list[str]] = {}
        for who, card in pairs:
            by_player.setdefault(who, []).append(card)
        parts.extend(f"{n.player(who)} {verb} {n.cards(tuple(cards))}" for who, cards in by_player.items())
    return " / ".join(parts)


class _RecordLine(SomeRecordsVisitor[str]):
    """The notation writer of one record: its line (without its time and note), names written as
    ``names`` says; a record the notation cannot say (a type it has no words for, ``otherwise``)
    raises :class:`NotationWriteError`."""

    def __init__(self, game: Game, names: _Names):
        self.game, self.n = game, names

    def otherwise(self, r: Event) -> str:
        raise NotationWriteError(f"record {r.seq}: the notation has no line for a {r.type} record")

    def visit_deal(self, r: Deal) -> str:
        return f"{self.n.player(r.player)} has {self.n.cards(r.cards) or '-'}"

    def visit_suggest(self, r: Suggest) -> str:
        game, n = self.game, self.n
        seat = game.seat(r.player)
        others = [game.names[(seat + k) % game.n_players] for k in range(1, game.n_players)]
        if [x.player for x in r.responses] == others and all(x.passed for x in r.responses):
            answers = " / -"
        else:
            answers = "".join(
                f" / {n.player(x.player)} {'-' if x.shows is None else '?' if x.shows == UNSEEN else n.card(x.shows)}"
                for x in r.responses
            )
        return f"{n.player(r.player)}: {n.cards(r.cards)}{answers}"

    def visit_accuse(self, r: Accuse) -> str:
        verdict = "" if r.correct is None else " right" if r.correct else " wrong"
        return f"{self.n.player(r.player)}! {self.n.cards(r.cards)}{verdict}"

    def visit_reveal(self, r: Reveal) -> str:
        n = self.n
        if r.to != ALL and not r.to:
            raise NotationWriteError(f"record {r.seq}: a reveal to nobody (an empty 'to' list) cannot be written")
        owner = "nobody" if r.player is None else n.player(r.player)
        card = "?" if r.card == UNSEEN else n.card(r.card)
        audience = "all" if r.to == ALL else " ".join(n.player(p) for p in r.to)
        cause = "" if r.cause is None else f" cause {free_text(r.cause)}"
        return f"{owner} reveals {card} to {audience}{cause}"

    def visit_end(self, r: End) -> str:
        winner = "nobody" if r.winner is None else self.n.player(r.winner)
        return f"end {winner}" + ("" if r.solution is None else f": {self.n.cards(r.solution)}")

    def visit_turn(self, r: Turn) -> str:
        roll = "" if r.roll is None else "".join(f" {d}" for d in r.roll) or " -"
        return f"{self.n.player(r.player)} turn{roll}"

    def visit_move(self, r: Move) -> str:
        n = self.n
        to = f"{r.to[0]},{r.to[1]}" if isinstance(r.to, tuple) else n.card(r.to)
        via = "" if r.via is None else f" {r.via}"
        path = "" if r.path is None else " path" + "".join(f" {a},{b}" for a, b in r.path)
        return f"{n.player(r.player)} moves {to}{via}{path}"

    def visit_peek(self, r: Peek) -> str:
        n = self.n
        return f"{n.player(r.player)} peeks {n.card(r.room)} {'?' if r.card is None else n.card(r.card)}"

    def visit_room_cards(self, r: RoomCards) -> str:
        n = self.n
        if r.cards is None:
            return "room-cards " + n.cards(r.rooms)
        strays = [room for room in r.cards if room not in r.rooms]
        if strays:
            raise NotationWriteError(
                f"record {r.seq}: room_cards.cards names {', '.join(strays)}, which is not one of its rooms"
            )
        items = [f"{n.card(room)}={n.card(r.cards[room]) if room in r.cards else '?'}" for room in r.rooms]
        return "room-cards " + " ".join(items)

    def visit_clue_card(self, r: ClueCard) -> str:
        return f"{self.n.player(r.player)} draws {free_text(r.text)}"

    def visit_statement(self, r: Statement) -> str:
        return f"{self.n.player(r.player)} says " + statement_notation(r, self.n)

    def visit_extension(self, r: Extension) -> str:
        raise NotationWriteError(f"record {r.seq}: the extension record {r.kind!r} has no notation")


def _header_lines(game: Game, n: _Names) -> list[str]:
    lines = [
        _extra(
            "game" + (f" {free_text(game.declared_id)}" if game.declared_id is not None else ""),
            game.header_extra,
            "the game record",
        )
    ]
    lines.append(f"edition {game.edition_id}")
    if game.edition is None:
        for category in ed.CATEGORIES:
            names = [game.deck.name(c) for c in game.deck.of(category)]
            lines.append(
                f"{category}: "
                + ", ".join(name if _plain_words(name) and n.mode == 0 else quoted(name) for name in names)
            )
    if game.variant.id != "standard":
        lines.append(f"variant {game.variant.id}")
    if game.rules:
        lines.append("rules " + " ".join(f"{flag}={_flag(value)}" for flag, value in game.rules.items()))
    players = ", ".join(
        n.player(p.name) + ("" if p.character is None else f"={n.card(p.character)}") for p in game.players
    )
    lines.append(f"players {players}")
    sizes = [(p.name, p.hand_size) for p in game.players if p.hand_size is not None]
    if sizes:
        lines.append("hand-sizes " + ", ".join(f"{n.player(name)}={size}" for name, size in sizes))
    strategies = [(p.name, p.strategy) for p in game.players if p.strategy is not None]
    if strategies:
        lines.append("strategies " + ", ".join(f"{n.player(name)}={_value_word(s)}" for name, s in strategies))
    if game.perspective is not None:
        lines.append(f"notebook {n.player(game.perspective)}")
    for key, value in (("source", game.source), ("played", game.played_at), ("place", game.place)):
        if value is not None:
            lines.append(f"{key} {free_text(value)}")
    return lines


def _flag(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return (
        _value_word(str(value)) if value.casefold() not in ("true", "false") and not value.isdigit() else quoted(value)
    )


def _value_word(text: str) -> str:
    return text if _WORD.fullmatch(text) else quoted(text)


def _first_that_reads_back(attempts: Sequence[Callable[[], str]], reads_back: Callable[[str], bool], what: str) -> str:
    for attempt in attempts:
        text = attempt()
        if reads_back(text):
            return text
    raise NotationWriteError(f"{what} cannot be written so that it reads back the same")


def record_line(game: Game, r: Event) -> str:
    """One record of ``game`` as its notation line (read back before it is returned); raises
    :class:`NotationWriteError` for what the notation cannot say (``x-`` records and fields)."""
    context = Context.of(game.deck, game.names)
    expected = cluelog.event_dict(r)
    where = f"record {r.seq} ({r.type})"

    def reads_back(text: str) -> bool:
        try:
            line = lex(0, text)
            return keyword(line) not in HEADER_KEYS and read_record(line, context).record == expected
        except NotationError:
            return False

    attempts = [
        partial(lambda mode: _extra(visit(r, _RecordLine(game, _Names(game, mode))), r.extra, where), mode)
        for mode in (0, 1, 2)
    ]
    return _first_that_reads_back(attempts, reads_back, where)


def write_game(game: Game) -> str:
    """One game as notation lines (a game line first); raises :class:`NotationWriteError`."""
    dicts = cluelog.record_dicts(game)
    context = Context.of(game.deck, game.names)

    def header_reads_back(text: str) -> bool:
        lines = [lex(k, raw) for k, raw in enumerate(text.split("\n"), 1)]
        header = read_header(lines[0], lines[1:], lines[0])
        return not header.errors and header.record == dicts[0]

    def header_text(mode: int) -> str:
        return "\n".join(_header_lines(game, _Names(game, mode)))

    def record_text(r: Event, where: str, mode: int) -> str:
        return _extra(visit(r, _RecordLine(game, _Names(game, mode))), r.extra, where)

    header = _first_that_reads_back(
        [partial(header_text, mode) for mode in (0, 1, 2)], header_reads_back, "the game record"
    )
    out = [header, ""]  # a blank line between the header and the records, as people write it
    for r, expected in zip(game.records, dicts[1:]):
        where = f"record {r.seq} ({r.type})"

        def reads_back(text: str, expected: dict[str, Any] = expected) -> bool:
            try:
                line = lex(0, text)
                return keyword(line) not in HEADER_KEYS and read_record(line, context).record == expected
            except NotationError:
                return False

        attempts = [partial(record_text, r, where, mode) for mode in (0, 1, 2)]
        out.append(_first_that_reads_back(attempts, reads_back, where))
    return "\n".join(out) + "\n"
