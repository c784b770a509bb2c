"""What every reader hands to the clue-log/1 builder: games as plain clue-log/1 records.

The stages are named: a reader (clue-log/1 lines, the notation, an importer) turns a file
into :class:`RawGame` objects, each a list of clue-log/1 record dicts with where they came from;
:func:`ingest.cluelog.build_game` checks one and makes an :class:`engine.game.Game` of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from clue_stats.engine.problems import Problem

UNREADABLE = "x-unreadable"  # what stands in a line that could not be read (see RawGame.keep_place)
UNREAD = "x-unread"  # what stands in a line not read yet (see RawGame.defer)


@dataclass
class RawGame:
    records: list[dict[str, Any]]  # clue-log/1 records, the `game` record first
    lines: list[int | None]  # 1-based line in the source file of each record (None: converted)
    text: str  # the game's original text, kept for rejected games
    source_file: str | None = None
    problems: list[Problem] = field(default_factory=list)  # found while reading this game
    kind: str | None = None  # who played it (ingest.kinds), when the reader knows; else from the `game` record
    unreadable: set[int] = field(default_factory=set)  # seqs of lines that could not be read
    # Written by the program that ran the game (a server's or an agents' transcript): a rule of play
    # broken in it is what a player did, reported as a ``rule_break`` finding stored with the game.
    transcript: bool = False
    # Findings about the players from the program that ran the game (the arena's rule breaks: a
    # timeout, a card shown that the bot lacks), each at its record; stored with the game's problems.
    findings: list[Problem] = field(default_factory=list)
    # (seq, start, end) of the lines whose JSON is read when the game is built (ingest.cluelog.build_game),
    # in a worker process rather than the one reading the file: see RawGame.defer
    unread: list[tuple[int, int, int]] = field(default_factory=list)

    def defer(self, line: int, start: int, end: int) -> None:
        """A line whose record is read when the game is built: its seq and line kept, its text being
        ``text[start:end]`` once the game is read whole (so a game goes to a worker with its text
        once, not twice)."""
        self.unread.append((len(self.records), start, end))
        self.records.append({"type": UNREAD})
        self.lines.append(line)

    def keep_place(self, line: int | None) -> None:
        """A line that could not be read keeps its seq (so later seqs stay those of the file); its
        problem is reported by the reader, and the builder passes over it."""
        self.records.append({"type": UNREADABLE})
        self.lines.append(line)
        self.lost(len(self.records) - 1)

    def lost(self, seq: int) -> None:
        """The line of ``seq`` could not be read: the builder passes over it (its problem is said)."""
        self.records[seq] = {"type": UNREADABLE}
        self.unreadable.add(seq)

    @property
    def first_line(self) -> int | None:
        return next((line for line in self.lines if line is not None), None)


@dataclass
class ReadResult:
    games: list[RawGame] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  # about the file, outside any game

    @classmethod
    def of(cls, items: Iterable[RawGame | Problem]) -> ReadResult:
        """The games and the file's problems a reader gives one at a time (Format.items), together."""
        result = cls()
        for item in items:
            if isinstance(item, RawGame):
                result.games.append(item)
            else:
                result.problems.append(item)
        return result


@dataclass(frozen=True)
class Format:
    """A format ingest and `convert --from` read: clue-log/1, the notation, or an importer's."""

    name: str  # what `convert --from` takes
    description: str
    extensions: tuple[str, ...]  # lower-case, with the dot: the files ingest offers to this reader
    read: Callable[[str, str | None], ReadResult]  # (text, source file) -> games and problems
    # (text, file name) -> is it this format, unmistakably; None: the extension alone says so
    detect: Callable[[str, str | None], bool] | None
    kind: str | None  # who plays the games of this format (ingest.kinds); None: each game says
    # (text, source file) -> its games one at a time, then the file's problems: a reader that need
    # not hold a file's games all at once gives this too, and ingest reads the file through it
    items: Callable[[str, str | None], Iterator[RawGame | Problem]] | None = None
