"""The SpeedClue contest's Java TestServer transcript (importers.md 1.5a): omniscient, one game or more.

The transcript names every hand, every shown card, every accusation and the winner, so a converted
game is complete: deals, a ``turn`` record per turn, suggestions with the shown card, accusations
with their outcome and the ``end`` with winner and solution. It plays the contest's own rules
(importers.md 1.3), the "speedclue" variant: no board, a suggestion every turn, the last player
standing wins without accusing, and eliminated players still disprove.

Stages: lines -> games (a game starts at "This game's players are:") -> one event per line, each
turned into clue-log/1 dicts. Protocol echoes (``<<:`` / ``:>>``) and the launcher's lines are
not part of the game and are skipped; any other line that fits no template is reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from clue_stats.engine.editions import Deck, edition
from clue_stats.engine.markers import T_
from clue_stats.engine.problems import Problem
from clue_stats.ingest import kinds
from clue_stats.ingest.importers.common import (
    Unconvertible,
    fault,
    game_record,
    located,
    problem,
    resolve,
    responses,
    source_lines,
)
from clue_stats.ingest.raw import RawGame, ReadResult

NAME = "speedclue"
DESCRIPTION = "SpeedClue contest: the Java test server's transcript (all hands, shown cards, winner)"
KIND = kinds.CONTEST  # programs play each other on the contest server
EXTENSIONS = (".txt", ".log")
EDITION = "us-classic"
VARIANT = "speedclue"

HEADER = "This game's players are:"
_P = r'Player "(?P<{0}>[^"]*)"(?: \[(?P<{0}_seat>\d{{1,9}})\])?'
_TRIPLE = r"Suggestion\{(?P<s>[^,{}]+), (?P<w>[^,{}]+), (?P<r>[^,{}]+)\}"
_CARD = r"(?P<kind>Suspect|Weapon|Room)\{(?P<card>[^{}]+)\}"
TEMPLATES: list[tuple[str, re.Pattern[str]]] = [
    ("seat", re.compile(r"^  " + _P.format("p") + r"$")),
    ("solution", re.compile(r"^The solution is " + _TRIPLE + r"\.$")),
    ("deal", re.compile(r"^" + _P.format("p") + r" is dealt Hand\{(?P<cards>.*)\}\.$")),
    ("round", re.compile(r"^Round (?P<round>\d+), active: " + _P.format("p") + r"$")),
    ("suggest", re.compile(r"^" + _P.format("p") + r" suggests " + _TRIPLE + r"\.$")),
    ("can", re.compile(r"^" + _P.format("p") + r" can disprove\.$")),
    ("shows", re.compile(r"^" + _P.format("p") + r" shows " + _CARD + r"\.$")),
    ("nobody", re.compile(r"^No player can disprove!$")),
    ("no_accusation", re.compile(r"^" + _P.format("p") + r" makes no accusation\.$")),
    ("accuses", re.compile(r"^" + _P.format("p") + r" accuses " + _TRIPLE + r"\.$")),
    ("verdict", re.compile(r"^It is (?P<verdict>correct!|incorrect\.)$")),
    ("winner", re.compile(r"^The winner is " + _P.format("p") + r" after (?P<round>\d+) rounds\.$")),
]
# Lines of a transcript that are not the game: separators, the server's protocol echo, the launcher.
NOISE = re.compile(
    r"^(\s*|={79}|-{79}|\s*Player \"[^\"]*\"(?: \[\d+\])? (?:<<:|:>>) .*|Launching Players\.\.\.|"
    r"Starting \".*\": .*|\.\.\. (?:started|accepted|running!))$"
)
KIND_CATEGORY = {"Suspect": "suspects", "Weapon": "weapons", "Room": "rooms"}


def detect(text: str, filename: str | None = None) -> bool:
    """A transcript has the players header and the solution line, both verbatim."""
    return HEADER in text and re.search(r"^The solution is Suggestion\{", text, re.M) is not None


def read(text: str, source_file: str | None = None) -> ReadResult:
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.rstrip() == HEADER]
    result = ReadResult()
    if not starts:
        result.problems.append(
            Problem.of(
                "bad_import",
                T_("no game: a SpeedClue transcript has a line {header}", header=repr(HEADER)),
                line=1,
                source_file=source_file,
            )
        )
        return result
    for i, line in enumerate(lines[: starts[0]]):
        if not NOISE.match(line):
            result.problems.append(
                Problem.of(
                    "bad_import",
                    T_("not part of a SpeedClue transcript: {line}", line=repr(line[:80])),
                    line=i + 1,
                    source_file=source_file,
                )
            )
    deck = edition(EDITION).deck
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        result.games.append(_Game(deck, lines, start, end, source_file).convert())
    return result


@dataclass
class _Game:
    deck: Deck
    lines: list[str]
    start: int  # 0-based index of the header line
    stop: int
    source_file: str | None
    players: list[str] = field(default_factory=list)
    solution: dict[str, str] | None = None
    records: list[dict[str, Any]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    pending_suggest: tuple[dict[str, Any], str | None] | None = None  # (record, who can disprove)
    pending_accuse: dict[str, Any] | None = None
    header_done: bool = False

    def convert(self) -> RawGame:
        for index in range(self.start + 1, self.stop):
            line, number = self.lines[index], index + 1
            try:
                self.line(line, number)
            except Unconvertible as exc:
                self.problems.append(problem(exc, number, self.source_file))
            except Exception as exc:  # a fault of the importer: this line's problem, on with the rest
                self.problems.append(fault(exc, number, self.source_file))
        self.finish()
        header = game_record(
            edition=EDITION,
            variant=VARIANT,
            players=[{"name": name, "strategy": name} for name in self.players],  # each seat is a program
            source="SpeedClue test server transcript",
        )
        records = [located(header, self.start + 1), *self.records]
        text = "\n".join(self.lines[self.start : self.stop]) + "\n"
        return RawGame(
            records=records,
            lines=source_lines(records),
            text=text,
            source_file=self.source_file,
            problems=self.problems,
        )

    # -- one line

    def line(self, line: str, number: int) -> None:
        for kind, pattern in TEMPLATES:
            match = pattern.match(line)
            if match:
                if kind != "seat":
                    self.header_done = True
                getattr(self, "on_" + kind)(match, number)
                return
        if NOISE.match(line):
            if not line.strip() and self.players:
                self.header_done = True  # the blank line that closes the players' list
            return
        raise Unconvertible(T_("not a line of a SpeedClue transcript: {line}", line=repr(line[:80])))

    def player(self, match: re.Match[str], group: str = "p") -> str:
        name, seat = match.group(group), match.group(group + "_seat")
        if name not in self.players:
            raise Unconvertible(
                T_(
                    "player {name} is not one of this game's players ({players})",
                    name=repr(name),
                    players=", ".join(self.players),
                ),
                "unknown_player",
            )
        if seat is not None and int(seat) != self.players.index(name):
            raise Unconvertible(
                T_(
                    "player {name} sits in seat {index}, not [{seat}]",
                    name=repr(name),
                    index=self.players.index(name),
                    seat=seat,
                )
            )
        return name

    def triple(self, match: re.Match[str]) -> dict[str, str]:
        return {
            "suspect": resolve(self.deck, match.group("s").strip(), "suspects"),
            "weapon": resolve(self.deck, match.group("w").strip(), "weapons"),
            "room": resolve(self.deck, match.group("r").strip(), "rooms"),
        }

    def card(self, kind: str, name: str) -> str:
        return resolve(self.deck, name.strip(), KIND_CATEGORY[kind])

    def settle(self) -> None:
        """A suggestion or accusation left unanswered when the next event begins is reported."""
        if self.pending_suggest is not None:
            record, _ = self.pending_suggest
            self.pending_suggest = None
            self.problems.append(
                Problem.of(
                    "bad_import",
                    T_("{record}'s suggestion is never answered", record=record["player"]),
                    line=record.get("x-source-line"),
                    source_file=self.source_file,
                )
            )
        if self.pending_accuse is not None:
            record = self.pending_accuse
            self.pending_accuse = None
            self.problems.append(
                Problem.of(
                    "bad_import",
                    T_("{record}'s accusation has no verdict", record=record["player"]),
                    line=record.get("x-source-line"),
                    source_file=self.source_file,
                )
            )

    def finish(self) -> None:
        self.settle()

    # -- the templates

    def on_seat(self, match: re.Match[str], number: int) -> None:
        if self.header_done:
            raise Unconvertible(
                T_("a player's line after the players' list: {strip}", strip=repr(match.group(0).strip()))
            )
        name = match.group("p")
        if name in self.players:
            raise Unconvertible(T_("player {name} is listed twice", name=repr(name)), "bad_players")
        self.players.append(name)

    def on_solution(self, match: re.Match[str], number: int) -> None:
        self.solution = self.triple(match)

    def on_deal(self, match: re.Match[str], number: int) -> None:
        name = self.player(match)
        cards = [c for c in re.finditer(_CARD, match.group("cards"))]
        listed = match.group("cards").strip()
        if (cards or listed) and ", ".join(c.group(0) for c in cards) != listed:
            raise Unconvertible(
                T_("{name}'s hand is not a list of cards: {listed}", name=name, listed=repr(listed[:80]))
            )
        ids = [self.card(c.group("kind"), c.group("card")) for c in cards]
        self.records.append(located({"type": "deal", "player": name, "cards": ids}, number))

    def on_round(self, match: re.Match[str], number: int) -> None:
        self.settle()
        self.records.append(located({"type": "turn", "player": self.player(match)}, number))

    def on_suggest(self, match: re.Match[str], number: int) -> None:
        self.settle()
        record = {"type": "suggest", "player": self.player(match), **self.triple(match)}
        self.pending_suggest = (located(record, number), None)

    def on_can(self, match: re.Match[str], number: int) -> None:
        if self.pending_suggest is None or self.pending_suggest[1] is not None:
            raise Unconvertible(T_("a disprover without a suggestion to answer"))
        self.pending_suggest = (self.pending_suggest[0], self.player(match))

    def on_shows(self, match: re.Match[str], number: int) -> None:
        if self.pending_suggest is None:
            raise Unconvertible(T_("a card shown without a suggestion to answer"))
        record, disprover = self.pending_suggest
        self.pending_suggest = None
        shower = self.player(match)
        if disprover is not None and disprover != shower:
            raise Unconvertible(
                T_("{disprover} can disprove, but {shower} shows the card", disprover=disprover, shower=shower)
            )
        card = self.card(match.group("kind"), match.group("card"))
        record["responses"] = responses(self.players, record["player"], shower, card)
        self.records.append(located(record, record.pop("x-source-line", None)))

    def on_nobody(self, match: re.Match[str], number: int) -> None:
        if self.pending_suggest is None or self.pending_suggest[1] is not None:
            raise Unconvertible(T_("'No player can disprove!' without a suggestion to answer"))
        record, _ = self.pending_suggest
        self.pending_suggest = None
        record["responses"] = responses(self.players, record["player"], None, None)
        self.records.append(located(record, record.pop("x-source-line", None)))

    def on_no_accusation(self, match: re.Match[str], number: int) -> None:
        self.settle()
        self.player(match)

    def on_accuses(self, match: re.Match[str], number: int) -> None:
        self.settle()
        self.pending_accuse = located({"type": "accuse", "player": self.player(match), **self.triple(match)}, number)

    def on_verdict(self, match: re.Match[str], number: int) -> None:
        if self.pending_accuse is None:
            raise Unconvertible(T_("a verdict without an accusation"))
        record = self.pending_accuse
        self.pending_accuse = None
        record["correct"] = match.group("verdict") == "correct!"
        self.records.append(located(record, record.pop("x-source-line", None)))

    def on_winner(self, match: re.Match[str], number: int) -> None:
        self.settle()
        if self.solution is None:
            raise Unconvertible(T_("the winner is named but the transcript has no solution line"))
        self.records.append(
            located({"type": "end", "winner": self.player(match), "solution": dict(self.solution)}, number)
        )
