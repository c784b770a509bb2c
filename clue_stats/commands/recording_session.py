"""The recorder of `clue-stats record` (clue_stats/commands/record.py): one run's session, the
lines it reads (typed at a prompt, with Tab completing names, or piped) and what it says back.
Imported when the command runs, so that `clue-stats --help` does not load the recording model."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from clue_stats.analysis.words import _, problem_line
from clue_stats.analysis.words.records import describe
from clue_stats.engine.markers import T_
from clue_stats.engine.problems import Problem
from clue_stats.ingest import cluelog
from clue_stats.ingest.raw import RawGame
from clue_stats.ingest.recording import Recording, header_from_notation, is_header_line
from clue_stats.typer_app import err, out

STDIN = "<stdin>"
COMMANDS = ("undo", "show", "end")
KEYWORDS = ("has", "reveals", "to", "all", "nobody", "accuses", "peeks", "draws", "right", "wrong", "end")


class Session:
    """One run of the recorder: the recording (once its header is read), what was rejected."""

    def __init__(self, path: Path, terminal: bool):
        self.path, self.terminal = path, terminal
        self.recording: Recording | None = Recording.open(path) if path.exists() else None
        self.header_lines: list[tuple[int, str]] = []
        self.rejected = 0

    def say(self, text: str) -> None:
        out.print(text, markup=False)

    def problems(self, problems: list[Problem]) -> None:
        self.rejected += 1
        for p in problems:
            err.print(problem_line(p if self.terminal else p.located(STDIN)), markup=False)

    def started(self, number: int) -> Recording | None:
        """The recording, started from the header lines read so far if it is new."""
        if self.recording is not None:
            return self.recording
        header, problems = header_from_notation(self.header_lines)
        if header is None:
            self.problems(
                problems
                or [
                    Problem.of(
                        "bad_notation", T_("the game's header comes first: its edition and players"), line=number
                    )
                ]
            )
            self.header_lines = []  # typed again from the start
            return None
        recording, problems = Recording.start(self.path, header)
        if recording is None:  # pragma: no cover - the notation's header is a valid game record
            self.problems(problems)
        self.recording = recording
        return recording

    def line(self, number: int, raw: str) -> bool:
        """One line of input; False when the recorder is to stop (``end``)."""
        text = raw.strip()
        if not text or text.startswith("#"):
            return True
        word = text.casefold()
        if is_header_line(raw):  # the header of a new game, or of a resumed one (checked to say the same)
            self.header_lines.append((number, raw))
            return True
        recording = self.started(number)
        if recording is None:
            return True
        self.check_resumed_header(number)
        if word == "undo":
            taken = recording.undo()
            if taken is None:
                err.print(_("nothing to undo"), markup=False)
            elif self.terminal:
                self.say(_("taken back: {record}").format(record=_said(recording, taken)))
            return True
        if word == "show":
            self.show()
            return True
        if word == "end" and recording.finished:
            return False
        outcome = recording.enter_line(raw, number)
        if not outcome.accepted:
            self.problems(outcome.problems)
            return True
        for p in outcome.problems:
            err.print(problem_line(p), markup=False)
        if self.terminal:
            self.say(f"{recording.count}. " + describe(recording.game, recording.game.records[-1]))
        return word != "end"

    def check_resumed_header(self, number: int) -> None:
        """Header lines given to a recording that has its header must say the same (a file fed again)."""
        if not self.header_lines or self.recording is None:
            return
        lines, self.header_lines = self.header_lines, []
        header, problems = header_from_notation(lines)
        if header is None:
            self.problems(problems)
        elif header != self.recording.records[0]:
            self.problems(
                [
                    Problem.of(
                        "bad_notation",
                        T_("{path} was started with another header; its records go on under that one", path=self.path),
                        line=lines[0][0],
                    )
                ]
            )

    def show(self) -> None:
        recording = self.recording
        if recording is None:
            return
        for event in recording.game.records:
            self.say(f"{event.seq}. {describe(recording.game, event)}")
        if not recording.game.records:
            self.say(_("no records yet"))


def _said(recording: Recording, record: dict[str, Any]) -> str:
    """A record taken back, in words (built on the game as it stood before)."""
    records = [*recording.records, record]
    game, _problems = cluelog.build_game(RawGame(records=records, lines=[None] * len(records), text=""))
    return describe(game, game.records[-1]) if game is not None else str(record.get("type"))


def _completer(session: Session) -> Callable[[str, int], str | None]:
    """Tab completes card names (the edition's language), players' names, the notation's words."""

    def names() -> list[str]:
        recording = session.recording
        if recording is None:
            return []
        deck = recording.game.deck
        return [deck.name(c) for c in deck.cards] + list(recording.game.names) + list(KEYWORDS) + list(COMMANDS)

    found: list[str] = []

    def complete(text: str, state: int) -> str | None:
        if state == 0:
            want = text.casefold()
            # "Gr" finds "Bürgermeister Grün": the notation reads the start of any word of a name
            found[:] = sorted(
                {n for n in names() if any(w.startswith(want) for w in [n.casefold(), *n.casefold().split()])}
            )
        return found[state] + " " if state < len(found) else None  # Python's readline adds no space

    return complete


def typed(session: Session) -> Iterator[tuple[int, str]]:
    """Lines typed at a prompt that names the next record."""
    import readline  # deferred: start-up (and the terminal is readline's only while lines are typed)

    readline.set_completer(_completer(session))
    readline.set_completer_delims(" /:!=,")
    readline.parse_and_bind("tab: complete")
    number = 0
    while True:
        count = session.recording.count if session.recording is not None else 0
        prompt = _("header> ") if session.recording is None else f"{count + 1}> "
        try:
            raw = input(prompt)
        except EOFError:
            out.print("")
            return
        number += 1
        yield number, raw


def piped(stream: TextIO) -> Iterator[tuple[int, str]]:
    for number, raw in enumerate(stream, 1):
        yield number, raw.rstrip("\n").removesuffix("\r")
