"""`samples`: copy the sample games that come with clue-stats into a folder, to ingest or read."""

from __future__ import annotations

from pathlib import Path

import typer

from clue_stats.analysis.words import n_
from clue_stats.engine.errors import UsageError
from clue_stats.engine.markers import T_
from clue_stats.typer_app import JsonOption, app, handled, out, print_json

SUFFIXES = (".jsonl", ".clue")


@app.command("samples")
@handled
def samples_command(
    folder: Path = typer.Argument(..., help="The folder to copy them into (made if missing)."),
    force: bool = typer.Option(False, "--force", help="Replace sample files already in the folder."),
    json_output: bool = JsonOption,
) -> None:
    """Copy the sample games (clue-log/1 and notation files) into a folder: `clue-stats ingest FOLDER` next."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(T_("{folder} is a file, not a folder", folder=folder))
    from clue_stats.engine.editions import data_files  # deferred: start-up

    files = {f"{stem}{suffix}": f for suffix in SUFFIXES for stem, f in data_files("samples", suffix).items()}
    there = sorted(name for name in files if (folder / name).exists())
    if there and not force:
        raise UsageError(
            T_("{folder} already holds {files}; --force replaces them", folder=folder, files=", ".join(there))
        )
    folder.mkdir(parents=True, exist_ok=True)
    for name, source in sorted(files.items()):
        (folder / name).write_bytes(source.read_bytes())
    if json_output:
        print_json({"folder": str(folder), "files": sorted(files)})
    else:
        out.print(
            n_(
                len(files),
                "{n} sample file copied to {folder}; next: clue-stats ingest {folder}",
                "{n} sample files copied to {folder}; next: clue-stats ingest {folder}",
                folder=folder,
            ),
            markup=False,
        )
