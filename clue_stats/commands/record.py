"""`record`: a game entered as it is played, one record a line, each checked before it is kept.

On a terminal it prompts for each record, completes card and player names with Tab and says each
accepted record back in words; from a pipe it reads the notation (a ``.clue`` file's lines) and
reports each rejected line with its line number. Either way the file is the recording model's
(ingest/recording.py): valid clue-log/1 after every accepted record, resumed when started again.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from clue_stats.analysis.words import _, n_, problem_line
from clue_stats.engine.errors import UsageError
from clue_stats.engine.markers import T_
from clue_stats.exit_codes import ExitCode
from clue_stats.typer_app import app, err, handled, out


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
    from clue_stats.commands.recording_session import Session, piped, typed  # deferred: start-up

    if path.is_dir():
        raise UsageError(T_("{path} is a folder; name the recording's file", path=path))
    terminal = sys.stdin.isatty()
    session = Session(path, terminal)
    if session.recording is not None and terminal:
        out.print(
            n_(session.recording.count, "resuming {file}: {n} record", "resuming {file}: {n} records", file=path),
            markup=False,
        )
    elif terminal:
        out.print(_("a new game: type its header (edition, players, notebook), then one record a line"), markup=False)
    lines = typed(session) if terminal else piped(sys.stdin)
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
        from clue_stats import pipeline  # deferred: start-up
        from clue_stats.ingest import kinds  # deferred: start-up

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
