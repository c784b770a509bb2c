"""The console transcript of LLM agents playing Clue (nmadhire-agents/clue-board-game-with-llm, CrewAI).

The game's program prints the hidden solution and every hand at the start, then per turn the roll,
the move, each suggestion (``📣 SUGGESTION: X suggests S with the W in the R``) and its answer
(``❌ Disproven by P (showed: C)`` or ``✓ NO ONE could disprove!``), the magnifying glass's free
clues (``💡 CLUE: C is NOT the murder room (shown by P)``: a card revealed to the roller), the
agent's own summary of its turn, and the accusations; ``📊 FINAL RESULTS`` names the winner. Its
source (``src/clue_game/tools/game_tools.py`` and ``main.py``) defines these lines.

Player names (White, Scarlet, ...) are not the characters they play (White plays Miss Scarlet):
the names are the clue-log/1 players, the characters their ``character``. The program wrote the
record, so what breaks the rules is what an agent did: the rules engine reports it (a
``rule_break`` finding, stored with the game) instead of the game being refused.

Stages: physical lines -> logical lines (a console wraps long lines in the middle of words, at a
fixed width: a line of that width is continued by the next) -> one event per line -> clue-log/1.
The board of the agents' program is not this project's, so rolls and moves are kept as ``x-``
fields and records, not checked.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from clue_stats.engine.editions import Deck, edition
from clue_stats.engine.markers import T_
from clue_stats.engine.problems import Problem, cut
from clue_stats.ingest import kinds
from clue_stats.ingest.importers.common import (
    Unconvertible,
    fault,
    game_record,
    located,
    problem,
    resolve,
    responses,
    string_list,
)
from clue_stats.ingest.raw import RawGame, ReadResult

NAME = "llm-transcript"
DESCRIPTION = "LLM agents' game transcript (CrewAI clue-board-game-with-llm): all hands, every answer, agents' STATUS"
KIND = kinds.CONTEST  # programs (LLM agents) play each other
EXTENSIONS = (".txt", ".log")
EDITION = "us-classic"
SOURCE = "LLM agents (clue-board-game-with-llm)"

TITLE = "CLUE: THE MYSTERY GAME WITH AI AGENTS"
_TRIPLE = r"(?P<s>.+?) with the (?P<w>.+?) in the (?P<r>.+?)"
TEMPLATES: list[tuple[str, re.Pattern[str]]] = [
    ("solution_hidden", re.compile(r"^Solution \(hidden\): (?P<cards>.+)$")),
    ("seat", re.compile(r"^(?P<p>[^\s()][^()]*?) \((?P<character>[^()]+)\):$")),
    ("cards", re.compile(r"^Cards: (?P<cards>\[.*\])$")),
    ("turn", re.compile(r"^🎲 TURN (?P<n>\d+): (?P<p>.+?) \((?P<character>[^()]+)\)$")),
    ("roll", re.compile(r"^🎲 (?P<p>.+?) rolled: (?P<roll>.+?) = (?P<total>\d+) movement spaces$")),
    ("magnifier", re.compile(r"^🔍 MAGNIFYING GLASS! (?P<p>.+?) gets a free clue!$")),
    (
        "clue",
        re.compile(r"^💡 CLUE: (?P<card>.+?) is NOT the murder (?:suspect|weapon|room)(?: \(shown by (?P<p>.+)\))?$"),
    ),
    ("move", re.compile(r"^🚶 (?P<p>.+?) moved: (?P<text>.*?→ (?P<room>.+?) \(\d+ steps\))$")),
    ("passage", re.compile(r"^🔑 (?P<p>.+?) used SECRET PASSAGE: .+? → (?P<room>.+)$")),
    ("suggestion", re.compile(r"^📣 SUGGESTION: (?P<p>.+?) suggests " + _TRIPLE + r"$")),
    ("disproven", re.compile(r"^❌ Disproven by (?P<p>.+?) \(showed: (?P<card>.+)\)$")),
    ("nobody", re.compile(r"^✓ NO ONE could disprove!$")),
    ("correct", re.compile(r"^🎉 ACCUSATION CORRECT! (?P<p>.+?) WINS!$")),
    ("wrong", re.compile(r"^❌ WRONG ACCUSATION! (?P<p>.+?) is eliminated!$")),
    ("accused", re.compile(r"^(?:🔍 Solution|❌ Accused): " + _TRIPLE + r"$")),
    ("summary", re.compile(r"^📝 (?P<p>.+?)'s Turn Summary:$")),
    ("status", re.compile(r"^STATUS: (?P<text>.*\bremaining)\s*$")),
    ("waiting", re.compile(r"^⏳ Waiting \d+ seconds before next turn\.\.\.$")),
    ("game_over", re.compile(r"^🏁 GAME OVER!$")),
    ("results", re.compile(r"^📊 FINAL RESULTS:$")),
    ("winner", re.compile(r"^Winner: (?P<p>.+)$")),
    ("final_solution", re.compile(r"^Solution: " + _TRIPLE + r"$")),
]
NO_WINNER = "No winner (max turns reached)"
# Lines of the program that say nothing of the game: banners, retries of the LLM calls, waiting.
MARKERS = ("📣", "❌", "✓", "🎉", "💡", "🎲", "🚶", "🔑", "📊", "🏁")  # a line starting so must fit a template


def detect(text: str, filename: str | None = None) -> bool:
    """The program's title banner and its setup block, both verbatim."""
    return TITLE in text and re.search(r"^Solution \(hidden\): ", text, re.M) is not None


def _columns(text: str) -> int:
    """The width of a line on a console: wide characters (most emoji) take two columns, a variation
    selector or a combining mark none."""
    width = 0
    for char in text:
        if unicodedata.combining(char) or 0xFE00 <= ord(char) <= 0xFE0F:
            continue
        width += 2 if unicodedata.east_asian_width(char) in "WF" else 1
    return width


def rejoin(text: str) -> list[tuple[int, str]]:
    """Logical lines with the number of their first physical line. The console wrapped every line
    longer than its width (the widest line of the file) in the middle of a word; a line of exactly
    that width is joined with the next unless the next is blank or starts an event of its own."""
    physical = text.splitlines()
    widths = [_columns(line) for line in physical]
    width = max(widths, default=0)
    # each logical line's pieces, joined once at the end: adding to a string each time copied it,
    # quadratic in a run of lines of the console's width (6.5 MB took 21.8 s)
    out: list[tuple[int, list[str]]] = []
    joining = False
    for number, line in enumerate(physical, start=1):
        starts_anew = not line.strip() or line.strip().startswith(MARKERS) or not out
        if joining and not starts_anew:
            out[-1][1].append(line)
        else:
            out.append((number, [line]))
        joining = width > 60 and widths[number - 1] == width
    return [(number, "".join(pieces).strip()) for number, pieces in out]


def read(text: str, source_file: str | None = None) -> ReadResult:
    result = ReadResult()
    lines = rejoin(text)
    if not any(TEMPLATES[0][1].match(line) for _, line in lines):
        result.problems.append(
            Problem.of(
                "bad_import",
                T_("no game: an LLM agents' transcript has a line 'Solution (hidden): ...'"),
                line=1,
                source_file=source_file,
            )
        )
        return result
    game = _Game(edition(EDITION).deck, source_file)
    result.games.append(game.convert(lines, text))
    return result


@dataclass
class _Game:
    deck: Deck
    source_file: str | None
    players: list[dict[str, Any]] = field(default_factory=list)
    hands: list[tuple[str, list[str], int]] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    header_line: int = 1
    solution: dict[str, str] | None = None
    active: str | None = None
    roller: str | None = None  # who rolled the magnifying glass, for the clue that follows
    pending: dict[str, Any] | None = None  # a suggestion waiting for its answer
    accuser: tuple[str, bool, int] | None = None  # (player, correct, line) until the accused triple
    in_summary: bool = False  # inside an agent's own summary of its turn (its words, not the game's)
    summarising: str | None = None  # whose summary
    winner: str | None | bool = False  # False: no FINAL RESULTS
    final_solution: dict[str, str] | None = None
    dropped: int = 0  # rolls and moves kept as x- fields

    def convert(self, lines: list[tuple[int, str]], text: str) -> RawGame:
        last = lines[-1][0] if lines else 1
        for number, line in lines:
            try:
                self.line(line, number)
            except Unconvertible as exc:
                self.problems.append(problem(exc, number, self.source_file))
            except Exception as exc:  # a fault of the importer: this line's problem, on with the rest
                self.problems.append(fault(exc, number, self.source_file))
        self.finish(last)
        # the program's turns go round its list of players from the first listed, whoever plays Miss Scarlet
        header = game_record(
            edition=EDITION, players=self.players, source=SOURCE, extra={"rules": {"first_player": "listed"}}
        )
        deals = [located({"type": "deal", "player": p, "cards": cards}, n) for p, cards, n in self.hands]
        records = [located(header, self.header_line), *deals, *self.records]
        return RawGame(
            records=records,
            lines=[r.get("x-source-line") for r in records],
            text=text,
            source_file=self.source_file,
            problems=self.problems,
            transcript=True,
        )

    def line(self, line: str, number: int) -> None:
        for kind, pattern in TEMPLATES:
            match = pattern.match(line)
            if match:
                if self.in_summary and kind not in ("waiting", "turn", "game_over", "summary", "status"):
                    return  # the agent's own words: a line of the summary may look like anything
                getattr(self, "on_" + kind)(match, number)
                return
        if not self.in_summary and line.startswith(MARKERS) and not _noise(line):
            raise Unconvertible(
                T_("a line of the game that fits none of the program's templates: {line}", line=repr(line[:80]))
            )

    # -- helpers

    def name(self, value: str) -> str:
        names = [p["name"] for p in self.players]
        if value not in names:
            raise Unconvertible(
                T_("{value} is not one of the players ({names})", value=repr(value), names=", ".join(names)),
                "unknown_player",
            )
        return value

    def card(self, value: str, category: str | None = None) -> str:
        return resolve(self.deck, value.strip(), category)

    def triple(self, match: re.Match[str]) -> dict[str, str]:
        return {
            "suspect": self.card(match.group("s"), "suspects"),
            "weapon": self.card(match.group("w"), "weapons"),
            "room": self.card(match.group("r"), "rooms"),
        }

    def settle(self) -> None:
        if self.pending is not None:
            record, self.pending = self.pending, None
            self.problems.append(
                Problem.of(
                    "bad_import",
                    T_("{record}'s suggestion has no answer", record=record["player"]),
                    line=record["x-source-line"],
                    source_file=self.source_file,
                )
            )

    def finish(self, last: int) -> None:
        self.settle()
        if self.winner is False:
            self.problems.append(
                Problem.of(
                    "game_cut_off",
                    T_(
                        "the game is cut off: the transcript ends before its FINAL RESULTS; the game is kept up to there"
                    ),
                    line=last,
                    source_file=self.source_file,
                )
            )
        if self.dropped:
            self.problems.append(
                Problem.of(
                    "import_dropped",
                    T_(
                        "{dropped} rolls and moves on the program's own board are kept as x-roll and x-move, not checked against this project's board",
                        dropped=self.dropped,
                    ),
                    line=self.header_line,
                    source_file=self.source_file,
                )
            )

    # -- the templates

    def on_solution_hidden(self, match: re.Match[str], number: int) -> None:
        self.header_line = number
        names = [n.strip() for n in match.group("cards").split(",")]
        if len(names) != 3:
            raise Unconvertible(T_("the solution names {n_names} cards, not three", n_names=len(names)))
        self.solution = {
            f: self.card(n, c)
            for (f, c), n in zip((("suspect", "suspects"), ("weapon", "weapons"), ("room", "rooms")), names)
        }

    def on_seat(self, match: re.Match[str], number: int) -> None:
        if self.records:
            return  # after the first turn such a line is the agents' prose
        name = match.group("p").strip()
        if name in [p["name"] for p in self.players]:
            raise Unconvertible(T_("player {name} is listed twice", name=repr(name)), "bad_players")
        character = self.card(match.group("character"), "suspects")
        self.players.append({"name": name, "character": character, "strategy": "LLM agent"})

    def on_cards(self, match: re.Match[str], number: int) -> None:
        if not self.players or self.records:
            raise Unconvertible(T_("a hand of cards outside the setup"))
        names = string_list(match.group("cards"), T_("a hand"))
        self.hands.append((self.players[-1]["name"], [self.card(n) for n in names], number))

    def on_turn(self, match: re.Match[str], number: int) -> None:
        self.settle()
        self.in_summary = False
        self.active = self.name(match.group("p"))
        self.records.append(located({"type": "turn", "player": self.active}, number))

    def on_roll(self, match: re.Match[str], number: int) -> None:
        turn = next((r for r in reversed(self.records) if r["type"] == "turn"), None)
        if turn is not None and turn["player"] == self.name(match.group("p")):
            turn["x-roll"] = match.group("roll")
            self.dropped += 1

    def on_magnifier(self, match: re.Match[str], number: int) -> None:
        self.roller = self.name(match.group("p"))

    def on_clue(self, match: re.Match[str], number: int) -> None:
        card = self.card(match.group("card"))
        if match.group("p") is None:
            raise Unconvertible(T_("a clue about {card} that names nobody who showed it", card=self.deck.name(card)))
        if self.roller is None:
            raise Unconvertible(T_("a clue without a roll of the magnifying glass before it"))
        record = {"type": "reveal", "player": self.name(match.group("p")), "card": card, "to": [self.roller]}
        self.records.append(located({**record, "cause": "magnifying glass"}, number))

    def on_move(self, match: re.Match[str], number: int) -> None:
        room = self.card(match.group("room"), "rooms")
        self.records.append(located({"type": "x-move", "player": self.name(match.group("p")), "to": room}, number))
        self.dropped += 1

    on_passage = on_move

    def on_suggestion(self, match: re.Match[str], number: int) -> None:
        self.settle()
        player = self.name(match.group("p"))
        self.pending = located({"type": "suggest", "player": player, **self.triple(match)}, number)

    def answer(self, shower: str | None, card: str | None) -> None:
        if self.pending is None:
            raise Unconvertible(T_("an answer without a suggestion"))
        record, self.pending = self.pending, None
        names = [p["name"] for p in self.players]
        record["responses"] = responses(names, record["player"], shower, card)
        self.records.append(record)

    def on_disproven(self, match: re.Match[str], number: int) -> None:
        self.answer(self.name(match.group("p")), self.card(match.group("card")))

    def on_nobody(self, match: re.Match[str], number: int) -> None:
        self.answer(None, None)

    def on_correct(self, match: re.Match[str], number: int) -> None:
        self.settle()
        self.accuser = (self.name(match.group("p")), True, number)

    def on_wrong(self, match: re.Match[str], number: int) -> None:
        self.settle()
        self.accuser = (self.name(match.group("p")), False, number)

    def on_accused(self, match: re.Match[str], number: int) -> None:
        if self.accuser is None:
            raise Unconvertible(T_("an accused solution without an accusation"))
        player, correct, line = self.accuser
        self.accuser = None
        record = {"type": "accuse", "player": player, **self.triple(match), "correct": correct}
        self.records.append(located(record, line))

    def on_summary(self, match: re.Match[str], number: int) -> None:
        self.settle()
        self.in_summary = True
        self.summarising = self.name(match.group("p"))

    def on_status(self, match: re.Match[str], number: int) -> None:
        """``STATUS: 5 suspects, 6 weapons, 7 rooms remaining`` (the cards sometimes named in
        brackets): what the agent says is still possible, a statement."""
        if not self.in_summary or self.summarising is None:
            return
        remaining: dict[str, Any] = {}
        for found in re.finditer(r"(\d+) (suspects|weapons|rooms)\b(?: \((?P<cards>[^()]*)\))?", match.group("text")):
            digits, category = found.group(1), found.group(2)
            n = int(digits) if len(digits) <= 4 else len(self.deck.of(category)) + 1  # more than any deck holds
            names = [c.strip() for c in (found.group("cards") or "").split(",") if c.strip()]
            if n > len(self.deck.of(category)):
                self.problems.append(
                    Problem.of(
                        "import_dropped",
                        T_(
                            "{summarising} says {n} {category} remain, of {n_of}: left out",
                            summarising=self.summarising,
                            n=cut(digits),
                            category=category,
                            n_of=len(self.deck.of(category)),
                        ),
                        line=number,
                        source_file=self.source_file,
                    )
                )
            elif names and len(names) == n:
                try:
                    remaining[category] = [self.card(c, category) for c in names]
                except Unconvertible as exc:  # the agent's own words: a warning, like a count out of range
                    self.problems.append(
                        Problem.of(
                            "import_dropped",
                            T_(
                                "{summarising}'s STATUS names a card that is not one of the {category} ({problem}): left out",
                                summarising=self.summarising,
                                category=category,
                                problem=exc.said or exc.message,
                            ),
                            line=number,
                            source_file=self.source_file,
                        )
                    )
            else:
                remaining[category] = n
        if remaining:
            record = {"type": "statement", "player": self.summarising, "remaining": remaining}
            self.records.append(located(record, number))

    def on_waiting(self, match: re.Match[str], number: int) -> None:
        self.in_summary = False

    def on_game_over(self, match: re.Match[str], number: int) -> None:
        self.settle()
        self.in_summary = False

    def on_results(self, match: re.Match[str], number: int) -> None:
        self.winner = None

    def on_winner(self, match: re.Match[str], number: int) -> None:
        value = match.group("p").strip()
        self.winner = None if value == NO_WINNER else self.name(value)

    def on_final_solution(self, match: re.Match[str], number: int) -> None:
        if self.winner is False:
            return
        solution = self.triple(match)
        if self.solution is not None and solution != self.solution:
            raise Unconvertible(T_("the final solution is not the one of the setup"))
        winner = self.winner if isinstance(self.winner, str) else None
        self.records.append(located({"type": "end", "winner": winner, "solution": solution}, number))


def _noise(line: str) -> bool:
    """The program's lines about itself (an LLM call failing and retried), not the game."""
    return line.startswith(("❌ Error during ", "❌ All ", "📣 MODERATOR ANNOUNCEMENT"))
