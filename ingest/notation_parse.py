"""Stage 3 of the notation reader: a game's lines into clue-log/1 record dicts (cards as ids).

This stage reads what a line says and nothing more: whether the answers are in seat order or a shown
card was passed on earlier is checked by :mod:`ingest.notation_check` (and by the rules engine). So
a game that breaks a rule still reads into the records it states, which is what lets the writer
check its own output line by line.

The grammar is documented for users in docs/notation.md; the comments here say why, not what.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from clue_stats.engine import editions as ed
from clue_stats.engine.editions import Deck, UnknownName, slug
from clue_stats.engine.markers import T_, Said
from clue_stats.engine.problems import kind_word, listed
from clue_stats.ingest.notation_lex import Line, NotationError, Token, split_words
from clue_stats.ingest.notation_names import CardNames, PlayerNames

FORMAT = "clue-log/1"
HEADER_KEYS = (
    "game",
    "edition",
    "suspects",
    "weapons",
    "rooms",
    "places",
    "variant",
    "rules",
    "players",
    "hand_sizes",
    "strategies",
    "notebook",
    "perspective",
    "source",
    "played",
    "place",
)
EVENT_KEYS = ("end", "room_cards")
VERBS = ("has", "reveals", "turn", "moves", "peeks", "draws", "accuses", "suggests", "says")
VERDICTS = {"right": True, "correct": True, "wrong": False, "incorrect": False}
VIA = ("walk", "passage", "stay")
SYNONYMS = {"perspective": "notebook", "places": "rooms"}
TRIPLE = (("suspects", "suspect"), ("weapons", "weapon"), ("rooms", "room"))
_SQUARE = re.compile(r"^(\d{1,9}),(\d{1,9})$")  # bounded: a longer number is a mistake, not a square
_INT = re.compile(r"^\d{1,9}$")  # bounded: Python refuses to read digit strings past 4,300

Span = tuple[int, int]


@dataclass
class Context:
    """What reading a game's records needs from its header."""

    deck: Deck
    cards: CardNames
    players: PlayerNames

    @classmethod
    def of(cls, deck: Deck, names: Sequence[str]) -> Context:
        return cls(deck, CardNames(deck), PlayerNames(names))


@dataclass
class Parsed:
    """One record and where its parts stand on its line (for carets in later checks)."""

    record: dict[str, Any]
    line: Line
    spans: dict[str, Span] = field(default_factory=dict)


@dataclass
class Header:
    record: dict[str, Any]
    line: Line | None  # the line the game record is reported on
    context: Context | None  # None when the header is too broken to read the records
    errors: list[tuple[Line | None, NotationError]] = field(default_factory=list)


def _span(tokens: Sequence[Token]) -> Span:
    return (tokens[0].start, tokens[-1].end)


def _after(tokens: Sequence[Token], i: int) -> Span:
    """Just after tokens[i - 1]: where something missing should have been."""
    at = tokens[i - 1].end if i > 0 else 0
    return (at, at + 1)


def keyword(line: Line) -> str | None:
    """The header or event keyword a line starts with ("edition", "end", "room_cards", ...)."""
    if not line.tokens:
        return None
    first = line.tokens[0]
    if first.quoted or first.sep:
        return None
    word = first.text.split(":", 1)[0].casefold().replace("-", "_")
    return word if word in HEADER_KEYS or word in EVENT_KEYS else None


def after_keyword(line: Line) -> list[Token]:
    """The tokens after the keyword and its optional colon ("edition: de-2023", "end:Grün ...")."""
    first, rest = line.tokens[0], list(line.tokens[1:])
    head, colon, tail = first.text.partition(":")
    if tail:
        rest.insert(0, Token(tail, first.start + len(head) + 1, first.end))
    elif not colon and rest and not rest[0].quoted and rest[0].text.startswith(":"):
        t = rest.pop(0)
        if len(t.text) > 1:
            rest.insert(0, Token(t.text[1:], t.start + 1, t.end))
    return rest


def text_value(line: Line, tokens: Sequence[Token]) -> tuple[str | None, Span]:
    """A free text as typed (inner spaces kept), or the one quoted string ("" too); None if absent."""
    if not tokens:
        return None, (line.content_end, line.content_end + 1)
    span = _span(tokens)
    if len(tokens) == 1 and tokens[0].quoted:
        return tokens[0].text, span
    return line.raw[span[0] : span[1]], span


def _with_extra(record: dict[str, Any], line: Line) -> dict[str, Any]:
    if line.time is not None:
        record["t"] = line.time
    if line.note is not None:
        record["note"] = line.note
    return record


# ---------------------------------------------------------------- the header


class _HeaderReader:
    def __init__(self, game_line: Line | None, lines: list[Line], first_line: Line | None):
        self.errors: list[tuple[Line | None, NotationError]] = []
        self.seen: dict[str, Line] = {}
        self.anchor = game_line or (lines[0] if lines else first_line)
        self.game_line = game_line
        for line in lines:
            key = keyword(line) or ""
            key = SYNONYMS.get(key, key)
            if key in self.seen:
                self.fail(
                    line,
                    NotationError.at(
                        "bad_notation",
                        T_(
                            "'{key}' is given twice in this game (first on line {number})",
                            key=key,
                            number=self.seen[key].number,
                        ),
                        line.tokens[0],
                    ),
                )
            else:
                self.seen[key] = line

    def fail(self, line: Line | None, error: NotationError) -> None:
        self.errors.append((line, error))

    def missing(self, what: str | Said) -> None:
        at = self.anchor
        self.fail(at, NotationError("bad_notation", what, 0, len(at.raw) if at else 1))

    def read(self) -> Header:
        out: dict[str, Any] = {}
        if self.game_line is not None:
            text, _ = text_value(self.game_line, after_keyword(self.game_line))
            if text is not None:
                out["id"] = text
        deck = self.edition(out)
        if "edition" in out:
            deck = self.deck(out, deck)
        self.variant(out)
        self.rules(out)
        players = self.players(deck)
        self.not_a_player(players)
        context = None
        if deck is not None and players:
            out["players"] = players
            context = Context.of(deck, [p["name"] for p in players])
            self.pairs("hand_sizes", context, players, "hand_size")
            self.pairs("strategies", context, players, "strategy")
            self.notebook(out, context)
        elif players:
            out["players"] = players
        for key, field_name in (("source", "source"), ("played", "played_at"), ("place", "place")):
            line = self.seen.get(key)
            if line is not None:
                text, span = text_value(line, after_keyword(line))
                if text is None:
                    self.fail(line, NotationError("bad_notation", T_("'{key}' without a value", key=key), *span))
                else:
                    out[field_name] = text
        record = {"type": "game", "format": FORMAT}
        order = ("id", "edition", "deck", "variant", "rules", "players", "perspective", "source", "played_at", "place")
        record.update((k, out[k]) for k in order if k in out)
        if self.game_line is not None:
            _with_extra(record, self.game_line)
        return Header(record, self.anchor, context, self.errors)

    def edition(self, out: dict[str, Any]) -> Deck | None:
        line = self.seen.get("edition")
        if line is None:
            self.missing(
                T_(
                    "the game has no edition: write e.g. 'edition de-2023', or 'edition custom' with suspects:, weapons: and rooms: lines"
                )
            )
            return None
        text, span = text_value(line, after_keyword(line))
        if text is None:
            self.fail(line, NotationError("bad_notation", T_("which edition? e.g. 'edition de-2023'"), *span))
            return None
        if slug(text) == "custom":
            out["edition"] = "custom"
            return None
        try:
            edition = ed.edition(text)
        except UnknownName as exc:
            self.fail(
                line,
                NotationError(
                    "unknown_edition",
                    T_("{error}; known: {editions}, or custom", error=exc.said, editions=", ".join(ed.editions())),
                    *span,
                ),
            )
            return None
        out["edition"] = edition.id
        return edition.deck

    def deck(self, out: dict[str, Any], deck: Deck | None) -> Deck | None:
        lines = {c: self.seen.get(c) for c in ed.CATEGORIES}
        if out["edition"] != "custom":
            for line in filter(None, lines.values()):
                self.fail(
                    line,
                    NotationError.at("bad_deck", T_("a deck is declared only with 'edition custom'"), line.tokens[0]),
                )
            return deck
        spec: dict[str, list[str]] = {}
        for category, declared in lines.items():
            if declared is None:
                self.missing(
                    T_("a custom deck needs a '{category}:' line (names separated by commas)", category=category)
                )
                return None
            try:
                names = _items(after_keyword(declared))
            except NotationError as exc:
                self.fail(declared, exc)
                return None
            if not names:
                self.fail(
                    declared,
                    NotationError.at(
                        "bad_deck", T_("no {category} in this line", category=category), declared.tokens[0]
                    ),
                )
                return None
            spec[category] = names
        counts = Counter(slug(n) for names in spec.values() for n in names)
        twice = sorted(i for i, n in counts.items() if n > 1 or not i)
        if twice:
            self.missing(
                T_(
                    "the custom deck names a card twice (or without a letter or digit): {value}",
                    value=listed(twice) or repr(""),
                )
            )
            return None
        out["deck"] = spec
        return Deck.custom(spec["suspects"], spec["weapons"], spec["rooms"])

    def variant(self, out: dict[str, Any]) -> None:
        line = self.seen.get("variant")
        if line is None:
            return
        text, span = text_value(line, after_keyword(line))
        try:
            out["variant"] = ed.variant(text or "").id
        except UnknownName as exc:
            self.fail(
                line,
                NotationError(
                    "unknown_variant",
                    T_("{error}; known: {variants}", error=exc.said, variants=", ".join(ed.variants())),
                    *span,
                ),
            )

    def rules(self, out: dict[str, Any]) -> None:
        line = self.seen.get("rules")
        if line is None:
            return
        tokens = split_words(after_keyword(line), "=,")
        rules: dict[str, Any] = {}
        i = 0
        while i < len(tokens):
            if tokens[i].text == "," and not tokens[i].quoted:
                i += 1
                continue
            if i + 2 >= len(tokens) or tokens[i + 1].text != "=" or tokens[i + 1].quoted:
                self.fail(
                    line,
                    NotationError.at(
                        "bad_notation", T_("write each rule flag as flag=value (e.g. suggest_room=chosen)"), tokens[i]
                    ),
                )
                return
            flag, value = tokens[i], tokens[i + 2]
            rules[flag.text] = value.text if value.quoted else _flag_value(value.text)
            i += 3
        out["rules"] = rules

    def players(self, deck: Deck | None) -> list[dict[str, Any]]:
        line = self.seen.get("players")
        if line is None:
            self.missing(
                T_(
                    "the game has no players line: write e.g. 'players Anna=Gloria, Ben=Gatow, Cleo' in seat order (clockwise)"
                )
            )
            return []
        cards = CardNames(deck) if deck is not None else None
        try:
            players = _players(split_words(after_keyword(line), "=,"), cards)
        except NotationError as exc:
            self.fail(line, exc)
            return []
        if not players:
            self.fail(line, NotationError.at("bad_players", T_("no players named"), line.tokens[0]))
        return players

    def not_a_player(self, players: list[dict[str, Any]]) -> None:
        """``Place: Grün Seil Salon / Anna -`` by a player called Place reads as a header line: say so."""
        names = {slug(p["name"]) for p in players}
        for key, line in self.seen.items():
            first = line.tokens[0].text
            word = first.split(":", 1)[0]
            if ":" in first and slug(word) in names and key != "players":
                self.fail(
                    line,
                    NotationError.at(
                        "bad_notation",
                        T_(
                            "'{word}:' is a header line here; for a record of the player {word}, write the name in quotes: \"{word}\":",
                            word=word,
                        ),
                        line.tokens[0],
                    ),
                )

    def pairs(self, key: str, context: Context, players: list[dict[str, Any]], field_name: str) -> None:
        line = self.seen.get(key)
        if line is None:
            return
        try:
            for name_tokens, value in _pairs(split_words(after_keyword(line), "=,")):
                name = context.players.whole(name_tokens)
                if field_name == "hand_size":
                    if value.quoted or not _INT.match(value.text):
                        raise NotationError.at(
                            "bad_notation", T_("a hand size is a whole number, not '{text}'", text=value.text), value
                        )
                    parsed: Any = int(value.text)
                else:
                    parsed = value.text
                for p in players:
                    if p["name"] == name:
                        p[field_name] = parsed
        except NotationError as exc:
            self.fail(line, exc)
        for i, p in enumerate(players):  # keep the key order of clue-log/1 writers
            players[i] = {k: p[k] for k in ("name", "character", "hand_size", "strategy") if k in p}

    def notebook(self, out: dict[str, Any], context: Context) -> None:
        line = self.seen.get("notebook")
        if line is None:
            return
        tokens = after_keyword(line)
        try:
            if not tokens:
                raise NotationError(
                    "bad_notation",
                    T_("whose notebook? write e.g. 'notebook Anna'"),
                    line.content_end,
                    line.content_end + 1,
                )
            out["perspective"] = context.players.whole(tokens)
        except NotationError as exc:
            self.fail(line, exc)


def _flag_value(text: str) -> Any:
    low = text.casefold()
    if low in ("true", "false"):
        return low == "true"
    return int(text) if _INT.match(text) else text


def _groups(tokens: Sequence[Token]) -> list[list[Token]]:
    """Tokens cut at unquoted commas."""
    groups: list[list[Token]] = [[]]
    for t in tokens:
        if t.text == "," and not t.quoted:
            groups.append([])
        else:
            groups[-1].append(t)
    return [g for g in groups if g]


def _joined(tokens: Sequence[Token], what: str) -> str:
    """Words joined by one space; a quoted name stands alone."""
    if len(tokens) == 1:
        return tokens[0].text
    quoted = [t for t in tokens if t.quoted or t.sep]
    if quoted:
        raise NotationError.at("bad_notation", T_("quote the whole {what} or none of it", what=what), *tokens)
    return " ".join(t.text for t in tokens)


def _items(tokens: Sequence[Token]) -> list[str]:
    return [_joined(g, "name") for g in _groups(split_words(tokens, ","))]


def _players(tokens: list[Token], cards: CardNames | None) -> list[dict[str, Any]]:
    entries: list[tuple[list[Token], list[Token] | None]] = []
    if any(t.text == "," and not t.quoted for t in tokens):
        # "Team Nord=Gloria, Team Süd": names may have spaces when commas separate the players
        for group in _groups(tokens):
            eq = next((k for k, t in enumerate(group) if t.text == "=" and not t.quoted), None)
            if eq == 0:
                raise NotationError.at("bad_players", T_("a player's name is missing before '='"), group[0])
            entries.append((group, None) if eq is None else (group[:eq], group[eq + 1 :]))
    else:
        i = 0
        while i < len(tokens):
            name = [tokens[i]]
            if tokens[i].text == "=" and not tokens[i].quoted:
                raise NotationError.at("bad_players", T_("a player's name is missing before '='"), tokens[i])
            i += 1
            character: list[Token] | None = None
            if i < len(tokens) and tokens[i].text == "=" and not tokens[i].quoted:
                # a character may have spaces: it runs to the longest suspect name before the next player
                nxt = next(
                    (k for k in range(i + 1, len(tokens)) if tokens[k].text == "=" and not tokens[k].quoted), None
                )
                limit = len(tokens) if nxt is None else nxt - 1
                if cards is None or i + 1 >= len(tokens):
                    character = tokens[i + 1 : i + 2]
                    i += 2
                else:
                    _, j = cards.take(tokens, i + 1, "suspects", limit=max(limit, i + 2))
                    character = tokens[i + 1 : j]
                    i = j
            entries.append((name, character))
    players: list[dict[str, Any]] = []
    for name_tokens, character_tokens in entries:
        player = _joined(name_tokens, "player name")
        if any(p["name"] == player or slug(p["name"]) == slug(player) and slug(player) for p in players):
            raise NotationError.at("bad_players", T_("two players are called '{player}'", player=player), *name_tokens)
        entry: dict[str, Any] = {"name": player}
        if character_tokens is not None:
            if not character_tokens:
                raise NotationError.at(
                    "bad_players", T_("{player}'s character is missing after '='", player=player), *name_tokens
                )
            if cards is not None:
                entry["character"] = cards.whole(character_tokens, "suspects")
        players.append(entry)
    return players


def _pairs(tokens: list[Token]) -> list[tuple[list[Token], Token]]:
    """``name=value`` pairs: a name runs up to its "=" (spaces allowed), a value is one word or quoted."""
    out: list[tuple[list[Token], Token]] = []
    name: list[Token] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t.text == "," and not t.quoted:
            if name:
                raise NotationError.at("bad_notation", T_("write name=value (a value with spaces in quotes)"), *name)
        elif t.text == "=" and not t.quoted:
            if not name or i + 1 >= len(tokens) or tokens[i + 1].text in "=," and not tokens[i + 1].quoted:
                raise NotationError.at(
                    "bad_notation", T_("write name=value (a value with spaces in quotes)"), *(name or [t])
                )
            out.append((name, tokens[i + 1]))
            name = []
            i += 1
        else:
            name.append(t)
        i += 1
    if name:
        raise NotationError.at("bad_notation", T_("write name=value (a value with spaces in quotes)"), *name)
    return out


def read_header(game_line: Line | None, lines: list[Line], first_line: Line | None) -> Header:
    return _HeaderReader(game_line, lines, first_line).read()


# ---------------------------------------------------------------- records


def read_record(line: Line, context: Context) -> Parsed:
    """One record line; raises :class:`NotationError`."""
    key = keyword(line)
    if key == "end":
        return _end(line, context)
    if key == "room_cards":
        return _room_cards(line, context)
    if key is not None:
        word = line.tokens[0].text.split(":", 1)[0]
        raise NotationError.at(
            "bad_notation",
            T_(
                "'{word}' belongs to the header, before the game's first record; start another game with a 'game' line (a player called {word} is written in quotes: \"{word}\")",
                word=word,
            ),
            line.tokens[0],
        )
    subject, marker, rest = _subject(line.tokens)
    if marker in (":", "suggests"):
        return _suggest(line, context, subject, rest)
    if marker in ("!", "accuses"):
        return _accuse(line, context, subject, rest)
    if marker == "reveals":
        return _reveal(line, context, subject, rest)
    if marker == "says":
        return _statement(line, context, subject, rest)
    handler = {"has": _deal, "turn": _turn, "moves": _move, "peeks": _peek, "draws": _draw}[marker]
    return handler(line, context, subject, rest)


def _subject(tokens: Sequence[Token]) -> tuple[list[Token], str, list[Token]]:
    """(the player's words, the marker ':' '!' or a verb, the rest)."""
    for k, t in enumerate(tokens):
        if t.sep:
            break
        if t.quoted:
            continue
        cut = min((t.text.find(m) for m in ":!" if t.text.find(m) >= 0), default=-1)
        if cut > 0 or (cut == 0 and k > 0):
            before = [Token(t.text[:cut], t.start, t.start + cut)] if cut > 0 else []
            after = [Token(t.text[cut + 1 :], t.start + cut + 1, t.end)] if cut + 1 < len(t.text) else []
            return list(tokens[:k]) + before, t.text[cut], after + list(tokens[k + 1 :])
        if k > 0 and t.text.casefold() in VERBS:
            return list(tokens[:k]), t.text.casefold(), list(tokens[k + 1 :])
    raise NotationError.at(
        "bad_notation",
        T_(
            "a record starts with a player's name and then ':' for a suggestion ('Anna: Grün Seil Salon / Ben -'), '!' for an accusation, or has, reveals, turn, moves, peeks, draws"
        ),
        *tokens[:1],
    )


def _player(context: Context, subject: list[Token], spans: dict[str, Span]) -> str:
    spans["player"] = _span(subject)
    return context.players.whole(subject)


def _triple(tokens: Sequence[Token], context: Context, spans: dict[str, Span], what: Said) -> tuple[str, str, str]:
    """Suspect, weapon and room, in this order, each possibly of several words."""
    hint = T_(" ({what} names a suspect, a weapon and a room, in this order)", what=what)
    cards: list[str] = []
    i = 0
    previous: tuple[int, str | None] | None = None
    for n, (category, kind) in enumerate(TRIPLE):
        if i >= len(tokens):
            at = _after(tokens, i) if tokens else (0, 1)
            raise NotationError("bad_notation", T_("the {kind} is missing{hint}", kind=kind_word(kind), hint=hint), *at)
        limit = max(len(tokens) - (2 - n), i + 1)  # leave a word for each name still to come
        card, j = context.cards.take(tokens, i, category, limit=limit, previous=previous, hint=hint)
        spans[kind] = _span(tokens[i:j])
        cards.append(card)
        previous, i = (i, category), j
    if i < len(tokens):
        raise NotationError.at(
            "bad_notation",
            T_("'{tokens}' is more than the room{hint}", tokens=" ".join(t.text for t in tokens[i:]), hint=hint),
            *tokens[i:],
        )
    return cards[0], cards[1], cards[2]


def _split_answers(tokens: Sequence[Token]) -> tuple[list[Token], list[tuple[Token, list[Token]]]]:
    """The words before the first "/" and each (separator, words) after."""
    head: list[Token] = []
    answers: list[tuple[Token, list[Token]]] = []
    for t in tokens:
        if t.sep:
            answers.append((t, []))
        elif answers:
            answers[-1][1].append(t)
        else:
            head.append(t)
    return head, answers


def _suggest(line: Line, context: Context, subject: list[Token], rest: list[Token]) -> Parsed:
    """A suggestion; every problem of the line is raised at once (an unknown card does not hide a
    forgotten answer), with what could be read for the order of the answers (``partial``)."""
    spans: dict[str, Span] = {}
    errors: list[NotationError] = []
    player: str | None = None
    try:
        player = _player(context, subject, spans)
    except NotationError as e:
        errors.append(e)
    head, answers = _split_answers(rest)
    named: tuple[str, str, str] | None = None
    try:
        named = _triple(head, context, spans, T_("a suggestion"))
    except NotationError as e:
        errors.append(e)
    end = line.tokens[-1].end
    spans["end"] = (end, end + 1)
    if not answers:
        errors.append(
            NotationError(
                "empty_responses",
                T_(
                    "no answers: after the room write '/ Ben -' for each pass and '/ Cleo Seil' (or '/ Cleo ?') for the card shown, or '/ -' when nobody could show"
                ),
                end,
                end + 1,
            )
        )
        raise NotationError.all_of(errors)
    responses: list[dict[str, Any]] = []
    complete = True  # every answer read (its player and whether a card was shown)
    if len(answers) == 1 and len(answers[0][1]) == 1 and answers[0][1][0].is_word("-"):
        spans["all_passed"] = _span(answers[0][1])
        if player is not None:
            names = context.players.names
            seat = names.index(player)
            # "/ -": nobody could show, so every other player passed, clockwise from the left
            responses = [{"player": names[(seat + k) % len(names)], "shows": None} for k in range(1, len(names))]
    else:
        for k, (sep, words) in enumerate(answers):
            try:
                responses.append(_answer(k, sep, words, context, named, spans))
            except NotationError as e:
                errors.append(e)
                if isinstance(e.partial, dict):
                    responses.append(e.partial)
                    e.partial = None
                else:
                    complete = False
    record = {
        "type": "suggest",
        "player": player,
        "suspect": named[0] if named else None,
        "weapon": named[1] if named else None,
        "room": named[2] if named else None,
        "responses": responses,
    }
    parsed = Parsed(_with_extra(record, line), line, spans)
    if errors:
        raise NotationError.all_of(errors, parsed if player is not None and complete else None)
    return parsed


def _answer(
    k: int,
    sep: Token,
    words: list[Token],
    context: Context,
    named: tuple[str, str, str] | None,
    spans: dict[str, Span],
) -> dict[str, Any]:
    """The k-th answer after a '/': who answered and what (None for a pass, '?' for a card unseen);
    a card shown that cannot be read is raised with the answer itself (``partial``: a card was shown)."""
    if not words:
        raise NotationError.at("bad_notation", T_("an answer is missing after this '/'"), sep)
    who, j = context.players.take(words, 0)
    spans[f"who{k}"] = _span(words[:j])
    said = words[j:]
    if not said:
        raise NotationError(
            "bad_notation",
            T_(
                "what did {who} answer? write '-' (passed), '?' (showed a card you did not see) or the card shown",
                who=who,
            ),
            *_after(words, j),
        )
    spans[f"said{k}"] = _span(said)
    if said[0].is_word("-", "?"):
        if len(said) > 1:
            raise NotationError.at("bad_notation", T_("a '/' is missing before '{text}'", text=said[1].text), said[1])
        return {"player": who, "shows": None if said[0].text == "-" else "?"}
    try:
        if named is None:  # the named cards are wrong: a shown card can still be read by its full name
            shows = context.deck.keys.get(slug(" ".join(t.text for t in said))) or context.cards.whole(said, None)
        else:
            shows = _shown(said, context, named)
    except NotationError as e:
        e.partial = {"player": who, "shows": "?"}  # a card was shown, whichever: the order can be checked
        raise
    return {"player": who, "shows": shows}


def _shown(words: Sequence[Token], context: Context, named: tuple[str, str, str]) -> str:
    """A shown card: a full name means its card; an abbreviation is read among the three named."""
    text = " ".join(t.text for t in words)
    exact = context.deck.keys.get(slug(text))
    if exact is not None:
        return exact
    found = context.cards.match(text, named)
    if len(found) == 1:
        return found.pop()
    if len(found) > 1:
        names = [context.deck.name(c) for c in named if c in found]
        raise NotationError.at(
            "bad_notation",
            T_("'{text}' could be {names}: write more of the name", text=text, names=" or ".join(names)),
            *words,
        )
    return context.cards.whole(words, None)


def _accuse(line: Line, context: Context, subject: list[Token], rest: list[Token]) -> Parsed:
    spans: dict[str, Span] = {}
    player = _player(context, subject, spans)
    correct: bool | None = None
    if rest and not rest[-1].quoted and rest[-1].text.casefold() in VERDICTS:
        correct = VERDICTS[rest[-1].text.casefold()]
        spans["verdict"] = _span(rest[-1:])
        rest = rest[:-1]
    if any(t.sep for t in rest):
        raise NotationError.at(
            "bad_notation",
            T_("an accusation has no answers: write 'Anna! Grün Seil Salon right' (or wrong)"),
            next(t for t in rest if t.sep),
        )
    suspect, weapon, room = _triple(rest, context, spans, T_("an accusation"))
    record: dict[str, Any] = {"type": "accuse", "player": player, "suspect": suspect, "weapon": weapon, "room": room}
    if correct is not None:
        record["correct"] = correct
    return Parsed(_with_extra(record, line), line, spans)


def _deal(line: Line, context: Context, subject: list[Token], rest: list[Token]) -> Parsed:
    spans: dict[str, Span] = {}
    player = _player(context, subject, spans)
    cards: list[str] = []
    if len(rest) == 1 and rest[0].is_word("-"):
        rest = []  # "Anna has -": an empty hand
    elif not rest:
        raise NotationError(
            "bad_notation",
            T_("which cards does {player} hold? (write '-' for none)", player=player),
            *_after(line.tokens, len(line.tokens)),
        )
    i = 0
    previous: tuple[int, str | None] | None = None
    while i < len(rest):
        card, j = context.cards.take(rest, i, None, previous=previous)
        spans[f"card{len(cards)}"] = _span(rest[i:j])
        cards.append(card)
        previous, i = (i, None), j
    return Parsed(_with_extra({"type": "deal", "player": player, "cards": cards}, line), line, spans)


def _index(tokens: Sequence[Token], *words: str) -> int | None:
    return next((k for k, t in enumerate(tokens) if t.is_word(*words)), None)


def _reveal(line: Line, context: Context, subject: list[Token], rest: list[Token]) -> Parsed:
    spans: dict[str, Span] = {"player": _span(subject)}
    owner = None if len(subject) == 1 and subject[0].is_word("nobody") else context.players.whole(subject)
    to = _index(rest, "to")
    if to is None:
        raise NotationError(
            "bad_notation", T_("to whom? end with 'to all' or 'to Anna Ben'"), *_after(line.tokens, len(line.tokens))
        )
    card_words = rest[:to]
    if not card_words:
        raise NotationError.at(
            "bad_notation", T_("which card? write it before 'to' ('?' if you did not see it)"), rest[to]
        )
    spans["card"] = _span(card_words)
    card = "?" if len(card_words) == 1 and card_words[0].is_word("?") else context.cards.whole(card_words, None)
    cause_at = _index(rest, "cause")
    audience_words = rest[to + 1 : cause_at]
    if not audience_words:
        raise NotationError.at("bad_notation", T_("to whom? write 'to all' or the players' names"), rest[to])
    spans["to"] = _span(audience_words)
    audience: Any
    if len(audience_words) == 1 and audience_words[0].is_word("all"):
        audience = "all"
    else:
        audience, i = [], 0
        while i < len(audience_words):
            if audience_words[i].text == "," and not audience_words[i].quoted:
                i += 1
                continue
            name, i = context.players.take(audience_words, i)
            audience.append(name)
    record: dict[str, Any] = {"type": "reveal", "player": owner, "card": card, "to": audience}
    if cause_at is not None:
        cause, span = text_value(line, rest[cause_at + 1 :])
        if cause is None:
            raise NotationError("bad_notation", T_("'cause' without a text"), *span)
        record["cause"] = cause
    return Parsed(_with_extra(record, line), line, spans)


CATEGORY_WORDS = {"suspects": "suspects", "weapons": "weapons", "rooms": "rooms", "places": "rooms"}
STATEMENT_HINT = (
    "a statement is 'Anna says not Seil Halle / remaining suspects 5 rooms Halle Küche / solution Grün Seil Halle"
    " / Ben has Dolch / Ben lacks Halle', any of these parts, separated by '/'"
)


def _statement(line: Line, context: Context, subject: list[Token], rest: list[Token]) -> Parsed:
    """``Anna says not <cards> / remaining <category> <n or cards> ... / solution <triple> / Ben has|lacks <cards>``."""
    spans: dict[str, Span] = {}
    record: dict[str, Any] = {"type": "statement", "player": _player(context, subject, spans)}
    clauses: list[list[Token]] = [[]]
    for t in rest:
        if t.sep:
            clauses.append([])
        else:
            clauses[-1].append(t)
    for clause in clauses:
        if not clause:
            raise NotationError("bad_notation", STATEMENT_HINT, *_after(line.tokens, len(line.tokens)))
        head, words = clause[0], clause[1:]
        if head.is_word("not"):
            record.setdefault("not_in_envelope", []).extend(_cards(words, context, head))
        elif head.is_word("solution"):
            record["solution"] = dict(
                zip(("suspect", "weapon", "room"), _triple(words, context, spans, T_("the solution")))
            )
        elif head.is_word("remaining"):
            record["remaining"] = _remaining(words, context, head)
        else:
            verb = _index(clause, "has", "lacks")
            if verb is None or verb == 0:
                raise NotationError.at("bad_notation", STATEMENT_HINT, *clause)
            who = context.players.whole(clause[:verb])
            key = "holds" if clause[verb].is_word("has") else "lacks"
            record.setdefault(key, {}).setdefault(who, []).extend(_cards(clause[verb + 1 :], context, clause[verb]))
    return Parsed(_with_extra(record, line), line, spans)


def _cards(tokens: Sequence[Token], context: Context, after: Token) -> list[str]:
    """Card names one after another (commas allowed between them)."""
    cards: list[str] = []
    i = 0
    while i < len(tokens):
        if tokens[i].text == "," and not tokens[i].quoted:
            i += 1
            continue
        card, i = context.cards.take(tokens, i, None)
        cards.append(card)
    if not cards:
        raise NotationError(
            "bad_notation", T_("which cards? name them after '{word}'", word=after.text), after.end, after.end + 1
        )
    return cards


def _remaining(tokens: Sequence[Token], context: Context, after: Token) -> dict[str, Any]:
    """``suspects 5 weapons Seil Dolch``: per category a count or the cards still possible."""
    out: dict[str, Any] = {}
    category: str | None = None
    for t in tokens:
        word = t.text.casefold()
        if not t.quoted and word in CATEGORY_WORDS:
            category = CATEGORY_WORDS[word]
            out[category] = []
            continue
        if category is None:
            raise NotationError.at("bad_notation", T_("write a category first: 'remaining suspects 5'"), t)
        if t.text.isdigit() and out[category] == []:
            out[category] = int(t.text)
            continue
        if isinstance(out[category], int):
            raise NotationError.at(
                "bad_notation", T_("{category}: a count or card names, not both", category=category), t
            )
        out[category].append(t)
    if not out:
        raise NotationError("bad_notation", T_("which category? 'remaining suspects 5'"), after.end, after.end + 1)
    for category, said in out.items():
        if isinstance(said, list):
            out[category] = _cards(said, context, after) if said else []
    return out


def _turn(line: Line, context: Context, subject: list[Token], rest: list[Token]) -> Parsed:
    spans: dict[str, Span] = {}
    player = _player(context, subject, spans)
    record: dict[str, Any] = {"type": "turn", "player": player}
    if len(rest) == 1 and rest[0].is_word("-"):
        record["roll"] = []  # a roll of no dice: wrong (the engine says so), but what the log said
    elif rest:
        roll: list[int | str] = []
        for t in rest:
            if t.is_word("?"):
                roll.append("?")
            elif not t.quoted and _INT.match(t.text):
                roll.append(int(t.text))
            else:
                raise NotationError.at(
                    "bad_notation", T_("a die shows a number or '?' (a magnifier), not '{text}'", text=t.text), t
                )
        record["roll"] = roll
    return Parsed(_with_extra(record, line), line, spans)


def _square(t: Token) -> list[int] | None:
    m = None if t.quoted else _SQUARE.match(t.text)
    return [int(m.group(1)), int(m.group(2))] if m else None


def _move(line: Line, context: Context, subject: list[Token], rest: list[Token]) -> Parsed:
    spans: dict[str, Span] = {}
    player = _player(context, subject, spans)
    path_at = _index(rest, "path")
    words = rest[:path_at]
    via = None
    if words and words[-1].is_word(*VIA):
        via = words[-1].text.casefold()
        words = words[:-1]
    if not words:
        raise NotationError(
            "bad_notation", T_("moves where? a room, or a square as row,col"), *_after(line.tokens, len(line.tokens))
        )
    spans["to"] = _span(words)
    square = _square(words[0]) if len(words) == 1 else None
    record: dict[str, Any] = {"type": "move", "player": player, "to": square or context.cards.whole(words, "rooms")}
    if via is not None:
        record["via"] = via
    if path_at is not None:
        path = []
        for t in rest[path_at + 1 :]:
            sq = _square(t)
            if sq is None:
                raise NotationError.at(
                    "bad_notation", T_("a square of the path is row,col (e.g. 7,5), not '{text}'", text=t.text), t
                )
            path.append(sq)
        record["path"] = path
    return Parsed(_with_extra(record, line), line, spans)


def _peek(line: Line, context: Context, subject: list[Token], rest: list[Token]) -> Parsed:
    spans: dict[str, Span] = {}
    player = _player(context, subject, spans)
    if not rest:
        raise NotationError(
            "bad_notation",
            T_("peeks into which room, at which card? e.g. 'Jonas peeks Küche Gatow' ('?' if unseen)"),
            *_after(line.tokens, len(line.tokens)),
        )
    room, j = context.cards.take(rest, 0, "rooms", limit=max(len(rest) - 1, 1))
    spans["room"] = _span(rest[:j])
    said = rest[j:]
    if not said:
        raise NotationError("bad_notation", T_("which card? ('?' if you did not see it)"), *_after(rest, j))
    spans["card"] = _span(said)
    card = None if len(said) == 1 and said[0].is_word("?") else context.cards.whole(said, None)
    return Parsed(_with_extra({"type": "peek", "player": player, "room": room, "card": card}, line), line, spans)


def _draw(line: Line, context: Context, subject: list[Token], rest: list[Token]) -> Parsed:
    spans: dict[str, Span] = {}
    player = _player(context, subject, spans)
    text, span = text_value(line, rest)
    if text is None:
        raise NotationError("bad_notation", T_("draws which clue card? write its text"), *span)
    return Parsed(_with_extra({"type": "clue_card", "player": player, "text": text}, line), line, spans)


def _end(line: Line, context: Context) -> Parsed:
    spans: dict[str, Span] = {}
    first = line.tokens[0]
    rest = after_keyword(line)
    colon_at_keyword = ":" in first.text or (
        len(line.tokens) > 1 and not line.tokens[1].quoted and line.tokens[1].text.startswith(":")
    )
    winner: str | None = None
    solution: dict[str, str] | None = None
    if colon_at_keyword:
        words = rest  # "end: Grün Leuchter Musikzimmer": nobody won
    elif not rest:
        words = []
    else:
        try:
            subject, marker, words = _subject(rest)
        except NotationError:
            subject, marker, words = rest, "", []
        if marker not in ("", ":"):
            raise NotationError.at(
                "bad_notation", T_("write 'end Anna: Grün Leuchter Musikzimmer' (winner, ':', solution)"), *rest
            )
        spans["winner"] = _span(subject)
        if not (len(subject) == 1 and subject[0].is_word("nobody")):
            winner = context.players.whole(subject)
        if marker == ":" and not words:
            raise NotationError(
                "bad_notation", T_("the solution is missing after ':'"), *_after(line.tokens, len(line.tokens))
            )
    if words:
        suspect, weapon, room = _triple(words, context, spans, T_("the solution"))
        solution = {"suspect": suspect, "weapon": weapon, "room": room}
    return Parsed(_with_extra({"type": "end", "winner": winner, "solution": solution}, line), line, spans)


def _room_cards(line: Line, context: Context) -> Parsed:
    spans: dict[str, Span] = {}
    tokens = split_words(after_keyword(line), "=,")
    rooms: list[str] = []
    cards: dict[str, str] | None = None
    i = 0
    while i < len(tokens):
        if tokens[i].text == "," and not tokens[i].quoted:
            i += 1
            continue
        room, j = context.cards.take(tokens, i, "rooms")
        spans[f"room{len(rooms)}"] = _span(tokens[i:j])
        rooms.append(room)
        i = j
        if i < len(tokens) and tokens[i].text == "=" and not tokens[i].quoted:
            # "Küche=Gatow": the card on that room, where the log's writer knows it ("Küche=?" if not)
            cards = {} if cards is None else cards
            if i + 1 < len(tokens) and tokens[i + 1].is_word("?"):
                i += 2
                continue
            card, i = context.cards.take(tokens, i + 1, None)
            cards[room] = card
    if not rooms:
        raise NotationError(
            "bad_notation",
            T_("which rooms hold a card? e.g. 'room-cards Küche Halle Salon Arbeitszimmer'"),
            *_after(line.tokens, len(line.tokens)),
        )
    record: dict[str, Any] = {"type": "room_cards", "rooms": rooms}
    if cards is not None:
        record["cards"] = cards
    return Parsed(_with_extra(record, line), line, spans)
