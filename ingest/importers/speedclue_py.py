"""The SpeedClue contest's Python server transcript (importers.md 1.5c): every message, one or more games.

The Python port (``python-port/speedclue/gameserver.py``) prints every message it sends a player as
``  NAME =<< [message]`` and every answer as ``  NAME >>= [answer]``. Its ``reset N ID CARDS`` tells
each player their seat and whole hand, so a converted game is complete: deals, a ``turn`` per
``|round k, active_id i``, each suggestion with who disproved and with which card (the server sends
the card to the suggester only; the transcript shows it, and the clue-log/1 meaning keeps it the
suggester's), accusations with their verdict, and the ``end`` from ``NAME win, game over.`` with the
solution (the correct accusation, or the server's ``lose. target: [...]``). The rules are the
contest's, the ``speedclue`` variant.

Stages: lines -> messages (a line may hold two, when two of the server's threads printed at once,
and then a blank line follows) and the server's own lines -> games (each starts at its first
``reset``) -> clue-log/1 dicts. A game the transcript stops in (a player timed out or was killed:
the server stops with a traceback) is kept up to there and reported as cut off, at its last line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from clue_stats.engine.editions import Deck, edition
from clue_stats.engine.markers import T_, nT_
from clue_stats.engine.problems import Problem
from clue_stats.ingest import kinds
from clue_stats.ingest.importers.common import (
    Unconvertible,
    count,
    fault,
    game_record,
    located,
    problem,
    resolve,
    responses,
    string_list,
)
from clue_stats.ingest.raw import RawGame, ReadResult

NAME = "speedclue-py"
DESCRIPTION = "SpeedClue contest: the Python server's transcript (every message, so every hand and shown card)"
KIND = kinds.CONTEST  # programs play each other on the contest server
EXTENSIONS = (".txt", ".log")
EDITION = "us-classic"
VARIANT = "speedclue"

# The contest's two-letter codes (importers.md 1.1): the first two letters of the Java server's names.
JAVA_NAMES = (
    "Green", "Mustard", "Peacock", "Plum", "Scarlet", "White",
    "Candlestick", "Knife", "Pipe", "Revolver", "Rope", "Wrench",
    "Ballroom", "Billiards Room", "Conservatory", "Dining Room", "Hall", "Kitchen", "Library", "Lounge", "Study",
)  # fmt: skip
CARD_CODES = {name[:2].lower(): name for name in JAVA_NAMES}
MAX_PLAYERS = 6  # the contest's server seats as many players as there are suspects
CATEGORY_OF_FIELD = {"suspect": "suspects", "weapon": "weapons", "room": "rooms"}

MESSAGE = re.compile(r"\s*(?P<name>\S.*?) (?P<way>=<<|>>=) \[(?P<text>[^\[\]]*)\]")
ROUND = re.compile(r"^\|round (?P<round>\d+), active_id (?P<seat>\d+)\s*$")
WIN = re.compile(r"^(?P<name>\S.*) win, game over\.\s*$")
LOSE = re.compile(r"^(?P<name>\S.*) lose\. target: (?P<target>\[.*\])\s*$")
SCORE = re.compile(r"^::\s+(?P<name>\S.*?)\s*: (?P<score>\d+)\s*$")
# The server's lines that are not part of a game: its start, the launcher, the separators.
NOISE = re.compile(
    r"^(\s*|-{80}|={80}|:: Scores:|Game server listen on .*|launched .*, pid=\d+|players: \[.*\]|Error: .*)$"
)
TRACEBACK = "Traceback (most recent call last):"


def detect(text: str, filename: str | None = None) -> bool:
    """The server's round header and a ``reset`` sent to a player, both verbatim."""
    return (
        re.search(r"^\|round \d+, active_id \d+", text, re.M) is not None
        and re.search(r"=<< \[reset \d+ \d+ ", text) is not None
    )


@dataclass(slots=True)  # a file holds one a line or more: no dict each
class _Line:
    """One thing the server printed: a message (``name``, ``way``, ``text``) or a line of its own."""

    number: int
    text: str
    name: str | None = None
    way: str | None = None  # "=<<" (to the player) or ">>=" (the player's answer)


def _tokens(number: int, line: str) -> list[_Line]:
    """The messages of one line, or the line itself (a line holding two messages gives two)."""
    messages = list(MESSAGE.finditer(line))
    if messages and "".join(m.group(0) for m in messages).strip() == line.strip():
        return [_Line(number, m.group("text").strip(), m.group("name"), m.group("way")) for m in messages]
    return [_Line(number, line.rstrip())]


def _games(text: str) -> Iterator[tuple[list[_Line], str]]:
    """Each game's messages and lines (its text), one game at a time: a game starts at the first
    ``reset`` after the previous game (or at the first of the file); what comes before the first
    is no game's."""
    tokens: list[_Line] = []  # the game's so far
    lines: list[tuple[int, str]] = []  # its lines so far (number, text)
    in_game = False
    for number, line in enumerate(_split_lines(text), start=1):
        lines.append((number, line))
        for token in _tokens(number, line):
            if token.way == "=<<" and token.text.lower().startswith("reset "):
                if not in_game:
                    if tokens:
                        yield tokens, _text_of(lines, tokens[0].number, tokens[-1].number)
                    tokens, lines, in_game = [], [(number, line)], True
            elif token.way is None and (WIN.match(token.text) or ROUND.match(token.text)) and tokens:
                in_game = not WIN.match(token.text)
            elif token.way is None and token.text.startswith(TRACEBACK):
                in_game = False
            if in_game or tokens:
                tokens.append(token)
        if not tokens:
            lines.clear()  # before the first game: nobody's
    if tokens:
        yield tokens, _text_of(lines, tokens[0].number, tokens[-1].number)


# a line and its end as str.splitlines sees them (\r\n, \n, \r, \v, \f, \x1c-\x1e, \x85, \u2028, \u2029)
_LINE = re.compile("([^\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]*)(?:\r\n|[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029])?")


def _split_lines(text: str) -> Iterator[str]:
    """``text.splitlines()`` one line at a time (no list of them all)."""
    for match in _LINE.finditer(text):
        if match.end() == match.start():  # the empty match at the end
            break
        yield match.group(1)


def _text_of(lines: list[tuple[int, str]], first: int, last: int) -> str:
    return "\n".join(line for number, line in lines if first <= number <= last) + "\n"


def read(text: str, source_file: str | None = None) -> ReadResult:
    return ReadResult.of(iter_games(text, source_file))


def iter_games(text: str, source_file: str | None = None) -> Iterator[RawGame | Problem]:
    """The games of a transcript one at a time (what :func:`read` gives, holding one game's lines)."""
    deck = edition(EDITION).deck
    won: dict[str, int] = {}  # the server's scores count wins over the whole session
    found = False
    for tokens, game_text in _games(text):
        found = True
        game = _Game(deck, tokens, source_file)
        raw = game.convert(game_text)
        if game.winner is not None:
            won[game.winner] = won.get(game.winner, 0) + 1
        if game.scores and any(score != won.get(name, 0) for name, (score, _) in game.scores.items()):
            line = min(number for _, number in game.scores.values())
            counted = ", ".join(f"{name} {won.get(name, 0)}" for name in game.scores)
            game.problems.append(
                Problem.of(
                    "bad_import",
                    T_(
                        "the server's scores do not count the games won in this transcript ({counted})", counted=counted
                    ),
                    line=line,
                    source_file=source_file,
                )
            )
        yield raw
    if not found:
        yield Problem.of(
            "bad_import",
            T_("no game: a SpeedClue Python server transcript sends each player a 'reset' message"),
            line=1,
            source_file=source_file,
        )


@dataclass
class _Game:
    deck: Deck
    tokens: list[_Line]
    source_file: str | None
    players: list[str] = field(default_factory=list)  # by seat
    hands: dict[int, tuple[list[str], int]] = field(default_factory=dict)  # seat -> (cards, line)
    records: list[dict[str, Any]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    active: str | None = None  # whose turn it is
    pending: dict[str, Any] | None = None  # a suggestion waiting for its answer
    accusing: dict[str, Any] | None = None  # an accusation waiting for its verdict
    solution: dict[str, str] | None = None
    ended: bool = False
    scores: dict[str, tuple[int, int]] = field(default_factory=dict)  # the scores block: name -> (score, line)
    winner: str | None = None
    foreign: list[_Line] = field(default_factory=list)  # lines that are not the server's
    stopped: _Line | None = None  # the traceback's first line, when the server stopped with one
    error: str | None = None  # the traceback's last line: the exception that stopped the server

    def convert(self, text: str) -> RawGame:
        first, last = self.tokens[0].number, self.tokens[-1].number
        for token in self.tokens:
            try:
                self.token(token)
            except Unconvertible as exc:
                self.problems.append(problem(exc, token.number, self.source_file))
            except Exception as exc:  # a fault of the importer: this line's problem, on with the rest
                self.problems.append(fault(exc, token.number, self.source_file))
        self.finish(last)
        header = game_record(
            edition=EDITION,
            variant=VARIANT,
            players=[{"name": name, "strategy": _program(name)} for name in self.players],
            source="SpeedClue Python server transcript",
        )
        records = [located(header, first), *self.deals(), *self.records]
        return RawGame(
            records=records,
            lines=[r.get("x-source-line") for r in records],
            text=text,
            source_file=self.source_file,
            problems=self.problems,
            transcript=True,  # the server wrote it: a rule broken is what a program did
        )

    def deals(self) -> list[dict[str, Any]]:
        return [
            located({"type": "deal", "player": self.players[seat], "cards": cards}, line)
            for seat, (cards, line) in sorted(self.hands.items())
        ]

    # -- one token

    def token(self, token: _Line) -> None:
        if self.stopped is not None:
            if token.way is None and token.text and not token.text[0].isspace():
                self.error = token.text  # the traceback's own lines end with the exception
            return
        if token.way is not None:
            self.message(token)
            return
        text = token.text
        if text.startswith(TRACEBACK):
            self.stopped = token
            return
        if match := ROUND.match(text):
            self.on_round(match.group("seat"), token.number)
        elif match := WIN.match(text):
            self.on_win(match.group("name"), token.number)
        elif match := LOSE.match(text):
            self.on_lose(match.group("name"), match.group("target"), token.number)
        elif match := SCORE.match(text):
            self.scores[match.group("name")] = (count(match.group("score"), T_("a score")), token.number)
        elif not NOISE.match(text):
            self.foreign.append(token)

    def message(self, token: _Line) -> None:
        words = token.text.split()
        if not words:
            raise Unconvertible(T_("an empty message for {name}", name=token.name))
        verb, args = words[0].lower(), words[1:]
        if token.way == "=<<":
            if verb == "reset":
                self.on_reset(token.name or "", args, token.number)
            elif verb == "suggestion":
                self.on_suggestion(args, token.number)
            elif verb == "accusation":
                self.on_accusation(args, token.number)
            elif verb not in ("suggest", "disprove", "accuse", "done"):
                raise Unconvertible(T_("a message the server does not send: {text}", text=repr(token.text[:80])))
            return
        if verb == "suggest" and args:
            self.on_suggest(token.name or "", args, token.number)
        elif verb == "accuse" and args:
            self.on_accuse(token.name or "", args, token.number)
        elif verb not in ("ok", "-", "show", "dead"):
            raise Unconvertible(
                T_(
                    "{name} answers {text}, which the server does not accept",
                    name=token.name,
                    text=repr(token.text[:80]),
                )
            )

    # -- helpers

    def card(self, code: str, category: str | None = None) -> str:
        name = CARD_CODES.get(code.lower())
        if name is None:
            raise Unconvertible(T_("{code} is not a card code of the contest", code=repr(code)), "unknown_card")
        card = resolve(self.deck, name)
        if category is not None and self.deck.category(card) != category:
            raise Unconvertible(
                T_(
                    "{code} ({card}) is not one of the {category}",
                    code=repr(code),
                    card=self.deck.name(card),
                    category=category,
                ),
                "unknown_card",
            )
        return card

    def triple(self, codes: list[str], what: str) -> dict[str, str]:
        if len(codes) != 3:
            raise Unconvertible(
                T_("{what} names {n_codes} cards, not a suspect, a weapon and a room", what=what, n_codes=len(codes))
            )
        return {f: self.card(code, CATEGORY_OF_FIELD[f]) for f, code in zip(CATEGORY_OF_FIELD, codes, strict=True)}

    def seat(self, value: str) -> str:
        if not (value.isascii() and value.isdigit()) or len(value) > 3 or int(value) >= len(self.players):
            raise Unconvertible(T_("seat {value} is not a seat of this game", value=repr(value[:40])), "unknown_player")
        if not self.players[int(value)]:
            raise Unconvertible(T_("seat {value} is not a seat of this game", value=repr(value)), "unknown_player")
        return self.players[int(value)]

    def settle(self, number: int) -> None:
        """A suggestion or accusation left unanswered when the next turn begins is reported."""
        for what, record in (("suggestion", self.pending), ("accusation", self.accusing)):
            if record is not None:
                self.problems.append(
                    Problem.of(
                        "bad_import",
                        T_(
                            "{record}'s {what} is never answered (the next turn begins at line {number})",
                            record=record["player"],
                            what=what,
                            number=number,
                        ),
                        line=record["x-source-line"],
                        source_file=self.source_file,
                    )
                )
        self.pending = self.accusing = None

    def finish(self, last: int) -> None:
        if not self.ended:
            left = [(w, r) for w, r in (("suggestion", self.pending), ("accusation", self.accusing)) if r is not None]
            unanswered = "".join(f"; {r['player']}'s {w} at line {r['x-source-line']} has no answer" for w, r in left)
            if self.stopped is not None:
                why = f"the server stopped with an error ({self.error or 'a traceback'})"
            else:
                why = "the transcript ends"
            self.problems.append(
                Problem.of(
                    "game_cut_off",
                    T_(
                        "the game is cut off: {why} before anyone won (a player timed out or was killed?){unanswered}; the game is kept up to there",
                        why=why,
                        unanswered=unanswered,
                    ),
                    line=self.stopped.number if self.stopped is not None else last,
                    source_file=self.source_file,
                )
            )
            self.pending = self.accusing = None
        else:
            self.settle(last)
        if self.foreign:
            first = self.foreign[0]
            self.problems.append(
                Problem.of(
                    "import_dropped",
                    nT_(
                        len(self.foreign),
                        "{n} line that is not the server's (a player's own output?) was passed over: {text}",
                        "{n} lines that are not the server's (a player's own output?) were passed over, the first: {text}",
                        text=repr(first.text[:80]),
                    ),
                    line=first.number,
                    source_file=self.source_file,
                )
            )

    # -- the server's messages and lines

    def on_reset(self, name: str, args: list[str], number: int) -> None:
        if self.records:
            raise Unconvertible(T_("{name} is dealt a new hand in the middle of a game", name=name))
        if len(args) < 2:
            raise Unconvertible(T_("'reset' names no player count and seat: {args}", args=repr(" ".join(args)[:80])))
        players, seat = count(args[0], T_("the player count of 'reset'")), count(args[1], T_("the seat of 'reset'"))
        if not 2 <= players <= MAX_PLAYERS:  # checked before a seat is made for each
            raise Unconvertible(
                T_(
                    "{name} is told of a game of {count} players: the contest's server seats 2 to {max_players}",
                    name=name,
                    count=format(players, ","),
                    max_players=MAX_PLAYERS,
                ),
                "bad_players",
            )
        if not self.players:
            self.players = [""] * players
        if players != len(self.players) or seat >= players:
            raise Unconvertible(
                T_(
                    "{name} is told seat {seat} of {count} players, in a game of {n_players}",
                    name=name,
                    seat=seat,
                    count=players,
                    n_players=len(self.players),
                )
            )
        if self.players[seat] or name in self.players:
            raise Unconvertible(
                T_("{name} is given seat {seat} a second time, or a second seat", name=name, seat=seat), "bad_players"
            )
        self.players[seat] = name
        self.hands[seat] = ([self.card(code) for code in args[2:]], number)

    def on_round(self, seat: str, number: int) -> None:
        self.settle(number)
        if missing := [str(s) for s, name in enumerate(self.players) if not name]:
            raise Unconvertible(
                nT_(
                    len(missing),
                    "seat {missing} is given no hand",
                    "seats {missing} are given no hand",
                    missing=", ".join(missing),
                ),
                "bad_players",
            )
        self.active = self.seat(seat)
        self.records.append(located({"type": "turn", "player": self.active}, number))

    def on_suggest(self, name: str, args: list[str], number: int) -> None:
        if name != self.active:
            raise Unconvertible(
                T_("{name} suggests, but it is {active}'s turn", name=name, active=self.active), "not_your_turn"
            )
        self.pending = {
            "type": "suggest",
            "player": name,
            **self.triple(args, f"{name}'s suggestion"),
            "x-source-line": number,
        }

    def on_suggestion(self, args: list[str], number: int) -> None:
        """The broadcast: ``suggestion ID S W R DISPROVER|- [CARD]``; every copy but the first is a check."""
        if len(args) < 5:
            raise Unconvertible(T_("a 'suggestion' message without its answer: {args}", args=repr(" ".join(args))))
        suggester = self.seat(args[0])
        cards = self.triple(args[1:4], f"{suggester}'s suggestion")
        shower = None if args[4] == "-" else self.seat(args[4])
        record = self.pending
        if record is None:
            last = next((r for r in reversed(self.records) if r["type"] == "suggest"), None)
            if last is None or last["player"] != suggester or any(last[f] != cards[f] for f in cards):
                raise Unconvertible(
                    T_("the server tells of {suggester}'s suggestion, which was never made", suggester=suggester)
                )
            return
        if record["player"] != suggester or any(record[f] != cards[f] for f in cards):
            raise Unconvertible(T_("the server tells of another suggestion than {record}'s", record=record["player"]))
        if shower is not None and len(args) < 6:
            # a copy without the card (a bystander's): wait for the suggester's copy
            if "x-shower" in record and record["x-shower"] != shower:
                raise Unconvertible(
                    T_("the copies of {suggester}'s suggestion name other disprovers", suggester=suggester)
                )
            record["x-shower"] = shower
            return
        shown = self.card(args[5]) if shower is not None else None
        self.pending = None
        record.pop("x-shower", None)
        line = record.pop("x-source-line")
        record["responses"] = responses(self.players, suggester, shower, shown)
        self.records.append(located(record, line))

    def on_accuse(self, name: str, args: list[str], number: int) -> None:
        if name != self.active:
            raise Unconvertible(
                T_("{name} accuses, but it is {active}'s turn", name=name, active=self.active), "not_your_turn"
            )
        self.accusing = {
            "type": "accuse",
            "player": name,
            **self.triple(args, f"{name}'s accusation"),
            "x-source-line": number,
        }

    def on_accusation(self, args: list[str], number: int) -> None:
        if len(args) != 5 or args[4] not in "+-":
            raise Unconvertible(T_("an 'accusation' message without its verdict: {args}", args=repr(" ".join(args))))
        accuser = self.seat(args[0])
        record = self.accusing
        if record is None:
            return  # a later copy of the broadcast
        cards = self.triple(args[1:4], f"{accuser}'s accusation")
        if record["player"] != accuser or any(record[f] != cards[f] for f in cards):
            raise Unconvertible(T_("the server tells of another accusation than {record}'s", record=record["player"]))
        self.accusing = None
        record["correct"] = args[4] == "+"
        if record["correct"]:
            self.solution = cards
        line = record.pop("x-source-line")
        self.records.append(located(record, line))

    def on_lose(self, name: str, target: str, number: int) -> None:
        codes = string_list(target, T_("the target of {name}'s loss", name=name))
        self.solution = self.triple(codes, "the server's target")

    def on_win(self, name: str, number: int) -> None:
        self.settle(number)
        if name not in self.players:
            raise Unconvertible(T_("{name} wins, but is not one of this game's players", name=name), "unknown_player")
        self.ended, self.winner = True, name
        solution = dict(self.solution) if self.solution is not None else None
        self.records.append(located({"type": "end", "winner": name, "solution": solution}, number))


def _program(name: str) -> str:
    """The program that played a seat: the server names it ``player#<i>-<file>``."""
    match = re.fullmatch(r"player#\d+-(.+)", name)
    return match.group(1) if match else name
