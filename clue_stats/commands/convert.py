"""`convert`: between clue-log/1, the tabletop notation and other clients' formats."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from clue_stats.cli import InputError, UsageError, app, err, handled, out
from clue_stats.engine.rules import validate
from clue_stats.ingest import cluelog, formats


def _read(path: Path, source_format: str | None) -> tuple[list, list]:
    """The games of a file, checked like any ingested game, and every problem found."""
    data = path.read_bytes()
    text, problem = formats.decode(data, str(path))
    if problem is not None:
        return [], [problem]
    fmt = source_format or formats.detect(path, text)
    if fmt is None:
        raise UsageError(f"{path}: cannot tell its format; name it with --from ({', '.join(formats.format_names())})")
    if fmt not in formats.format_names():
        raise UsageError(f"unknown format {fmt!r}; known: {', '.join(formats.format_names())}")
    result = formats.read_as(fmt, text or "", str(path))
    games, problems = [], [p.located(str(path)) for p in result.problems]
    for raw in result.games:
        game, found = cluelog.build_game(raw)
        problems += found
        if game is None:
            continue
        checked = validate(game)
        problems += [p.located(str(path)) for p in checked.problems]
        if not checked.errors:
            games.append(game)
    return games, problems


@app.command("convert")
@handled
def convert_command(
    path: Path = typer.Argument(..., help="The file to convert."),
    source_format: str | None = typer.Option(
        None,
        "--from",
        help="The format of FILE (default: from its name and content): clue-log, notation, speedclue, effect-clue, cluebot, reasoner.",
    ),
    target: str = typer.Option("clue-log", "--to", help="clue-log or notation."),
    out_file: Path | None = typer.Option(None, "--out", help="Write here instead of standard output."),
) -> None:
    """Convert a game file to clue-log/1 (or to the tabletop notation); games are checked on the way."""
    if not path.is_file():
        raise UsageError(f"no such file: {path}")
    if target not in ("clue-log", "notation"):
        raise UsageError(f"--to must be clue-log or notation, not {target!r}")
    games, problems = _read(path, source_format)
    for p in problems:
        err.print(str(p), markup=False)
    if target == "clue-log":
        text = cluelog.write_games(games)
    else:
        from clue_stats.ingest import notation

        try:
            text = "\n".join(notation.write(cluelog.record_dicts(g)) for g in games)
        except ValueError as exc:
            raise InputError(f"{path}: cannot be written as notation: {exc}") from None
    if out_file is not None:
        out_file.write_text(text, encoding="utf-8")
        out.print(f"{len(games)} games written to {out_file}")
    else:
        sys.stdout.write(text)
    if any(p.is_error for p in problems):
        raise typer.Exit(3)
