"""`record`: a game entered as it is played, one record a line, each checked before it is kept.

On a terminal it prompts for each record, completes card and player names with Tab and says each
accepted record back in words; from a pipe it reads the notation (a ``.clue`` file's lines) and
reports each rejected line with its line number. Either way the file is the recording model's
(ingest/recording.py): valid clue-log/1 after every accepted record, resumed when started again.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import typer

from clue_stats import pipeline
from clue_stats.analysis.words import _, n_, problem_line
from clue_stats.analysis.words.records import describe
from clue_stats.engine.errors import UsageError
from clue_stats.engine.markers import T_
from clue_stats.engine.problems import Problem
from clue_stats.exit_codes import ExitCode
from clue_stats.ingest import cluelog, kinds
from clue_stats.ingest.raw import RawGame
from clue_stats.ingest.recording import Recording, header_from_notation, is_header_line
from clue_stats.typer_app import app, err, handled, out

STDIN = "<stdin>"
COMMANDS = ("undo", "show", "end")
KEYWORDS = ("has", "reveals", "to", "all", "nobody", "accuses", "peeks", "draws", "right", "wrong", "end")


class _Session:
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


def _said(recording: Recording, record: dict) -> str:
    """A record taken back, in words (built on the game as it stood before)."""
    records = [*recording.records, record]
    game, _problems = cluelog.build_game(RawGame(records=records, lines=[None] * len(records), text=""))
    return describe(game, game.records[-1]) if game is not None else str(record.get("type"))


def _completer(session: _Session):
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


def _typed(session: _Session) -> Iterator[tuple[int, str]]:
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


def _piped(stream: TextIO) -> Iterator[tuple[int, str]]:
    for number, raw in enumerate(stream, 1):
        yield number, raw.rstrip("\n").removesuffix("\r")


@app.command("record")
@handled
def record_command(
    path: Path = typer.Argument(..., help="The recording (clue-log/1): made if new, resumed if it exists."),
    ingest_db: str | None = typer.Option(
        None, "--ingest", help="Store the finished game with its whole review (kind tabletop) in this database."
    ),
) -> None:
    """Record a game as it is played, one record a line, each checked before it is kept.

    On a terminal: a prompt for each record, Tab completes names, `undo`, `show` and `end`. From a pipe:
    the notation's lines (a .clue file, its header included), `undo` and `end` as lines of their own."""
    if path.is_dir():
        raise UsageError(T_("{path} is a folder; name the recording's file", path=path))
    terminal = sys.stdin.isatty()
    session = _Session(path, terminal)
    if session.recording is not None and terminal:
        out.print(
            n_(session.recording.count, "resuming {file}: {n} record", "resuming {file}: {n} records", file=path),
            markup=False,
        )
    elif terminal:
        out.print(_("a new game: type its header (edition, players, notebook), then one record a line"), markup=False)
    lines = _typed(session) if terminal else _piped(sys.stdin)
    for number, raw in lines:
        if not session.line(number, raw):
            break
    recording = session.recording
    if recording is None:
        err.print(_("no game was started: the header (its edition and players) was not given"), markup=False)
        raise typer.Exit(ExitCode.INPUT_REJECTED)
    state = _("finished") if recording.finished else _("unfinished")
    out.print(
        n_(recording.count, "{file}: {n} record, {state}", "{file}: {n} records, {state}", file=path, state=state),
        markup=False,
    )
    code = ExitCode.INPUT_REJECTED if session.rejected else ExitCode.OK
    if session.rejected:
        err.print(n_(session.rejected, "{n} line rejected", "{n} lines rejected"), markup=False)
    if ingest_db is not None:
        if not recording.finished:
            err.print(
                _("not stored: the game has no end yet (record it again with the same file to go on)"), markup=False
            )
            raise typer.Exit(ExitCode.INPUT_REJECTED)
        stored = pipeline.store_game(recording.raw_game(kinds.TABLETOP), ingest_db)
        for p in stored.problems:
            err.print(problem_line(p), markup=False)
        if stored.game_id is None:
            raise typer.Exit(ExitCode.INPUT_REJECTED)
        said = _("stored as {game} in {db}") if stored.new else _("stored before as {game} in {db}")
        out.print(said.format(game=stored.game_id, db=ingest_db), markup=False)
        out.print(
            _("its review: clue-stats report {game} --db {db}, or the dashboard's Game review page").format(
                game=stored.game_id, db=ingest_db
            ),
            markup=False,
        )
    if code != ExitCode.OK:
        raise typer.Exit(code)
