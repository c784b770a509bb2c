"""`convert`: between clue-log/1, the tabletop notation and other clients' formats."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from clue_stats.analysis.words import n_, problem_layout
from clue_stats.engine.errors import UsageError, said_of
from clue_stats.engine.markers import T_
from clue_stats.exit_codes import ExitCode
from clue_stats.ingest import cluelog, formats
from clue_stats.typer_app import app, check_output_file, err, handled, out, write_file


@app.command("convert")
@handled
def convert_command(
    path: Path = typer.Argument(..., help="The file to convert."),
    source_format: str | None = typer.Option(
        None,
        "--from",
        help=f"The format of FILE (default: from its name and content): {', '.join(formats.format_names())}.",
    ),
    target: str = typer.Option("clue-log", "--to", help="clue-log or notation."),
    out_file: Path | None = typer.Option(
        None, "--out", help="Write here instead of standard output (- is standard output, as for report)."
    ),
) -> None:
    """Convert a game file to clue-log/1 (or to the tabletop notation); games are checked on the way."""
    from clue_stats.pipeline import UnknownFormat, read_game_file  # deferred: start-up

    if not path.is_file():
        raise UsageError(T_("no such file: {path}", path=path))
    if target not in ("clue-log", "notation"):
        raise UsageError(T_("--to must be clue-log or notation, not {target}", target=repr(target)))
    if out_file is not None and str(out_file) == "-":  # standard output, as `report --out -` (a file named -: ./-)
        out_file = None
    if out_file is not None:
        check_output_file(out_file)
    try:
        games, problems = read_game_file(path, source_format)
    except UnknownFormat as exc:
        if source_format:
            raise UsageError(said_of(exc)) from None
        raise UsageError(T_("{error}; name it with --from", error=said_of(exc))) from None
    for p in problems:
        err.print_lines([problem_layout(p)])
    if target == "clue-log":
        text = cluelog.write_games(games)
    else:
        from clue_stats.ingest import notation  # deferred: start-up

        try:
            text = "\n".join(notation.write(cluelog.record_dicts(g)) for g in games)
        except notation.NotationWriteError as exc:
            raise notation.NotationWriteError(
                T_("{path}: cannot be written as notation: {error}", path=path, error=said_of(exc))
            ) from None
    if out_file is not None:
        write_file(out_file, text)
        out.print(
            n_(len(games), "{n} game written to {file}", "{n} games written to {file}", file=out_file), markup=False
        )
    else:
        sys.stdout.write(text)
    if any(p.is_error for p in problems):
        raise typer.Exit(ExitCode.INPUT_REJECTED)
