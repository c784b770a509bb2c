"""`report`: a stored game's post-mortem, as one self-contained HTML file or as Markdown."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from clue_stats.app import DbOption, app, database, err, handled, out, print_json
from clue_stats.engine.errors import UsageError
from clue_stats.ingest import store

FORMATS = ("html", "md")


@app.command("report")
@handled
def report_command(
    game_id: str = typer.Argument(..., help="The stored game's id (see `clue-stats games`)."),
    out_file: Path | None = typer.Option(
        None, "--out", help="The file to write (default: GAME_ID.html or GAME_ID.md; '-' for standard output)."
    ),
    fmt: str = typer.Option(
        "html", "--format", help="html (one self-contained file, charts included) or md (Markdown for a forum)."
    ),
    stored_only: bool = typer.Option(
        False,
        "--stored-only",
        help="Use only the analysis the database holds; do not compute what is missing (quick, but a game ingested without `analyse --deep` then has no accuracy).",
    ),
    db: str | None = DbOption,
    json_output: bool = typer.Option(
        False,
        "--json",
        help="Print what was written as JSON (with --out -, the report itself goes to standard output).",
    ),
) -> None:
    """A game's post-mortem: entropy over the game, best and worst suggestions, accusation timing,
    what refuters gave away and the key moments."""
    from clue_stats.analysis.report import gather, missing_analysis, post_mortem, with_analysis

    fmt = fmt.lower()
    if fmt not in FORMATS:
        raise UsageError(f"--format must be html or md, not {fmt!r}")
    path = database(db)
    # read everything, then let the file go before the (slower) rendering
    with store.read_connection(path) as con:
        data = gather(con, game_id)
    missing = missing_analysis(data)
    if missing is not None and not stored_only:
        # one game's analysis takes seconds; the report should not be missing its core sections
        err.print(
            f"computing {missing} of {game_id} for this report (`clue-stats analyse --deep` stores it) ...",
            markup=False,
        )
        data = with_analysis(data)
    pm = post_mortem(data)
    if fmt == "html":
        from clue_stats.analysis.report_html import render_html

        text = render_html(pm)
    else:
        from clue_stats.analysis.report_md import render_markdown

        text = render_markdown(pm)
    if out_file is not None and str(out_file) == "-":
        sys.stdout.write(text)
        return
    target = out_file if out_file is not None else Path(f"{_file_stem(game_id)}.{fmt}")
    if target.is_dir():
        raise UsageError(f"--out {target} is a folder; give a file name")
    if not target.parent.exists():
        raise UsageError(f"no such folder: {target.parent}")
    target.write_text(text, encoding="utf-8")
    if json_output:
        print_json(
            {
                "game_id": game_id,
                "out": str(target),
                "format": fmt,
                "bytes": len(text.encode("utf-8")),
                "analysis_computed": data.computed,
            }
        )
    else:
        out.print(f"wrote the post-mortem of {game_id} to {target}", markup=False)


def _file_stem(game_id: str) -> str:
    """A safe file name from a game id (ids come from logs and may hold any character)."""
    import re

    stem = re.sub(r"[^0-9A-Za-z._-]+", "_", game_id).strip("._")
    return stem or "report"
