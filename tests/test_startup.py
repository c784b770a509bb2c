"""A command starts at once (issue 37.2): `clue-stats --help`, `--version` and each command's `--help`
import neither the store's libraries (DuckDB, polars, pyarrow, numpy) nor what only a Markdown help
or a traceback needs (markdown-it, pygments); no command a user runs on games imports pandas. Each
is run in a fresh process, as a user runs it, and the modules it imported are read from that
process. The times are a benchmark's (benchmarks/startup.py, docs/performance.md), not a test's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main

from clue_stats import help_screens
from clue_stats.cli import app
from tests.helpers import SAMPLES

HEAVY = ("duckdb", "polars", "pyarrow", "numpy", "pandas", "markdown_it", "pygments", "streamlit")

# runs the command line as the console script does, then prints the top-level modules it imported
PROBE = """
import json, sys
sys.argv = ["clue-stats", *json.loads(sys.argv[1])]
try:
    from clue_stats.cli import main
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
sys.stdout.flush()
sys.stderr.write("\\n" + json.dumps({"code": code, "modules": sorted({m.split(".")[0] for m in sys.modules})}) + "\\n")
"""


def run(*args: object, cwd: Path | None = None, lang: str = "en") -> tuple[int, str, set[str]]:
    """(exit code, standard output, top-level modules imported) of `clue-stats ARGS` in a new process."""
    env = {**os.environ, "CLUE_STATS_LANG": lang, "COLUMNS": "100"}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps([str(a) for a in args])],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=300,
    )
    found = json.loads(done.stderr.strip().splitlines()[-1])
    return found["code"], done.stdout, set(found["modules"])


def command_lines() -> list[list[str]]:
    """Every command and subcommand of the app, as typed before --help."""
    found: list[list[str]] = []

    def walk(command: object, path: list[str]) -> None:
        for name, sub in getattr(command, "commands", {}).items():
            found.append([*path, name])
            walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return found


@pytest.mark.slow  # a new process
def test_help_and_version_import_none_of_the_heavy_libraries() -> None:
    code, shown, modules = run("--help")
    assert code == 0 and not modules & set(HEAVY), sorted(modules & set(HEAVY))
    # the help screen is typer's, drawn by rich as before: the panels and every command
    assert "─ Commands ─" in shown and "─ Options ─" in shown
    assert all(f" {line[0]} " in shown for line in command_lines() if len(line) == 1)
    code, shown, modules = run("--version")
    assert code == 0 and shown.startswith("clue-stats ") and not modules & set(HEAVY)


@pytest.mark.slow  # a new process
def test_the_help_in_german_is_drawn_without_them_too() -> None:
    code, shown, modules = run("ingest", "--help", lang="de")
    assert code == 0 and "─ Optionen ─" in shown and "Aufruf: clue-stats ingest" in shown
    assert not modules & set(HEAVY)


@pytest.mark.slow  # a new process
@pytest.mark.parametrize("line", command_lines(), ids=" ".join)
def test_each_commands_help_imports_none_of_the_heavy_libraries(line: list[str]) -> None:
    code, shown, modules = run(*line, "--help")
    assert code == 0 and f"clue-stats {' '.join(line)}" in shown
    assert not modules & set(HEAVY), sorted(modules & set(HEAVY))


@pytest.mark.slow  # a new process
def test_no_command_on_games_imports_pandas(tmp_path: Path) -> None:
    """pandas only where a library demands it (the dashboard's tables, Dask): ingest, validate,
    analyse, games, report, players and export never import it; the check sees a process that does."""
    db = tmp_path / "games.duckdb"
    lines = [
        ("ingest", SAMPLES, "--db", db),
        ("validate", SAMPLES),
        ("analyse", "--db", db),
        ("games", "--db", db),
        ("report", "duell-2026-11-21", "--db", db, "--out", tmp_path / "duel.html"),
        ("report", "duell-2026-11-21", "--db", db, "--format", "md", "--out", tmp_path / "duel.md"),
        ("players", "--db", db),
        ("export", "--db", db, "--out", tmp_path / "export"),
    ]
    for line in lines:
        code, _shown, modules = run(*line, cwd=tmp_path)
        assert code in (0, 3), line
        assert "pandas" not in modules, line
        assert "duckdb" in modules  # it did reach the store
    probe = subprocess.run(
        [sys.executable, "-c", PROBE.replace("main()", "import pandas; main()"), json.dumps(["--version"])],
        capture_output=True,
        text=True,
    )
    assert "pandas" in json.loads(probe.stderr.strip().splitlines()[-1])["modules"]


@pytest.mark.slow  # a new process
def test_typers_screens_are_loaded_without_markdown_and_tracebacks_until_used() -> None:
    """help_screens.load_rich_utils: typer.rich_utils imported with stand-ins for rich.markdown and
    rich.traceback, which are gone from sys.modules after it; a stand-in used imports the real class."""
    check = """
import sys
from clue_stats import help_screens
rich_utils = help_screens.load_rich_utils()
assert "rich.markdown" not in sys.modules and "rich.traceback" not in sys.modules, "stand-ins left"
assert "markdown_it" not in sys.modules and "pygments" not in sys.modules
shown = rich_utils.Markdown("**bold**")  # what typer does for rich_markup_mode="markdown"
import rich.markdown
assert type(shown) is rich.markdown.Markdown and "markdown_it" in sys.modules
trace = rich_utils.Traceback.from_exception(ValueError, ValueError("x"), None)
import rich.traceback
assert type(trace) is rich.traceback.Traceback
assert help_screens.load_rich_utils() is rich_utils
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    assert done.stdout.strip() == "ok", done.stderr


@pytest.mark.parametrize(
    ("args", "wanted"),
    [
        ([], True),
        (["--help"], True),
        (["ingest", "--help"], True),
        (["players", "merge", "--help"], True),
        (["ingest", "games.jsonl"], False),
        (["record", "--", "--help"], False),  # a file named --help
        (["--version"], False),
    ],
)
def test_a_help_screen_is_seen_coming(args: list[str], wanted: bool) -> None:
    assert help_screens.wants_help(args) is wanted
