"""A command starts at once (issue 37.2): `clue-stats --help`, `--version` and each command's `--help`
import neither the store's libraries (DuckDB, polars, pyarrow, numpy) nor what only a Markdown help
or a traceback needs (markdown-it, pygments); no command a user runs on games imports pandas. The
fast tier reads it from the sources (what importing clue_stats.cli reaches); the slow tier runs each
command in a fresh process, as a user runs it, and reads the modules that process imported. The
times are a benchmark's (benchmarks/startup.py, docs/performance.md), not a test's."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from collections import deque
from pathlib import Path

import pytest
import typer.main

from clue_stats import help_screens
from clue_stats.cli import app
from tests.helpers import ROOT, SAMPLES

HEAVY = ("duckdb", "polars", "pyarrow", "numpy", "pandas", "markdown_it", "pygments", "streamlit")
# what a module may not import when the command line is imported (its own imports at the top, or a
# module's that it imports at the top): those libraries, and rich's Markdown (markdown-it, pygments)
NOT_AT_START = (*HEAVY, "altair", "rich.markdown", "rich.traceback")
LAYERS = ("engine", "ingest", "analysis", "dashboard", "clue_stats")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    parts = parts[:-1] if parts[-1] == "__init__" else parts
    return ".".join(parts if parts[0] == "clue_stats" else ("clue_stats", *parts))


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported_at_start(path: Path) -> set[str]:
    """What a program module imports when it is imported (:func:`imports_of_source`)."""
    package = _module_name(path).split(".")
    return imports_of_source(path.read_text(encoding="utf-8"), package if path.name == "__init__.py" else package[:-1])


def imports_of_source(source: str, package: list[str]) -> set[str]:
    """The imports of a module of ``package`` that run when it is imported: those at its top (in a
    class body, a try or an if too), not those inside a function (run later) or under TYPE_CHECKING
    (never run)."""
    found: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                module = ".".join([*base, *([node.module] if node.module else [])])
                found.add(module)
                found.update(f"{module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.If):
                visit(node.orelse if _is_type_checking(node) else node.body + node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body + [s for h in node.handlers for s in h.body] + node.orelse + node.finalbody)
            elif isinstance(node, (ast.With, ast.ClassDef)):
                visit(node.body)

    visit(ast.parse(source).body)
    return found


def loaded_with(start: str) -> dict[str, str]:
    """Every name imported when ``start`` is imported (following the program's own modules and their
    packages' __init__), each with the program module that imports it."""
    files = {_module_name(p): p for layer in LAYERS for p in sorted((ROOT / layer).rglob("*.py"))}
    seen: dict[str, str] = {}
    queue = deque([(start, "")])
    while queue:
        name, by = queue.popleft()
        parts = name.split(".")
        for n in range(1, len(parts) + 1):  # a module's packages are imported first
            module = ".".join(parts[:n])
            if module in seen:
                continue
            if module in files or n == len(parts):
                seen[module] = by
            if module in files:
                queue.extend((found, module) for found in imported_at_start(files[module]))
    return seen


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


def chain(loaded: dict[str, str], name: str) -> list[str]:
    """The imports that lead from the start of :func:`loaded_with` to ``name``."""
    found = [name]
    while loaded.get(found[0]):
        found.insert(0, loaded[found[0]])
    return found


def test_the_command_line_imports_no_heavy_library_at_the_top() -> None:
    """Read from the sources (quick, so in the fast tier): importing clue_stats.cli, which is all that
    --help and --version run, reaches no import of NOT_AT_START; a command imports them inside its
    function, marked ``# deferred: start-up`` (tests/test_layers.py)."""
    loaded = loaded_with("clue_stats.cli")
    assert "clue_stats.commands.ingest" in loaded and "typer" in loaded  # the reader follows the commands
    wrong = sorted(
        " -> ".join(chain(loaded, name))
        for name in loaded
        if any(name == x or name.startswith(x + ".") for x in NOT_AT_START)
    )
    assert not wrong, "imported with the command line (defer it into the command):\n" + "\n".join(wrong)


def test_the_reader_sees_what_a_module_imports_at_its_top() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "import json\n"
        "from .sibling import thing\n"
        "if TYPE_CHECKING:\n"
        "    import polars\n"
        "try:\n"
        "    import duckdb\n"
        "except ImportError:\n"
        "    import sqlite3\n"
        "class C:\n"
        "    import re\n"
        "    def f(self):\n"
        "        import numpy  # deferred: start-up\n"
        "def g():\n"
        "    import pandas  # deferred: start-up\n"
    )
    assert imports_of_source(source, ["clue_stats", "commands"]) == {
        "typing",
        "typing.TYPE_CHECKING",
        "json",
        "clue_stats.commands.sibling",
        "clue_stats.commands.sibling.thing",
        "duckdb",
        "sqlite3",
        "re",
    }


def test_the_reader_follows_the_programs_modules_to_a_heavy_import() -> None:
    """clue_stats.ingest.store imports DuckDB at its top (through its modules): the check would see a
    command that imported the store at its top."""
    loaded = loaded_with("clue_stats.ingest.store")
    assert "duckdb" in loaded
    assert loaded["clue_stats.ingest.store.connection"] == "clue_stats.ingest.store"


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
        assert "duckdb" in modules or "--db" not in line  # it did reach the store
    # the store writes its rows as nanoarrow's arrays through the Arrow C stream, so ingest imports
    # neither pyarrow (0.15 CPU s and 30 MB of its start) nor polars (0.09 CPU s), and without the
    # analysis of a game whose hands are all dealt not numpy either (the counting programs check a game
    # with hands unknown); the partitioned path still imports pyarrow, where it is used
    code, _shown, modules = run("ingest", SAMPLES, "--db", tmp_path / "again.duckdb", cwd=tmp_path)
    assert code in (0, 3) and "duckdb" in modules and not modules & {"pyarrow", "polars"}
    dealt = Path(SAMPLES) / "de-2023-duel.jsonl"
    code, _shown, modules = run("ingest", dealt, "--no-analyse", "--db", tmp_path / "plain.duckdb", cwd=tmp_path)
    assert code in (0, 3) and "duckdb" in modules and not modules & {"pyarrow", "polars", "numpy"}
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


@pytest.mark.slow  # a new process
def test_a_typer_that_imports_more_of_them_is_imported_the_ordinary_way() -> None:
    """A stand-in lacks what typer imports (as a later typer might): typer.rich_utils is imported
    again with the real modules, and works."""
    check = """
import sys
from clue_stats import help_screens
help_screens._LATER = {"rich.markdown": "NotWhatTyperImports"}
rich_utils = help_screens.load_rich_utils()
import rich.markdown
assert rich_utils.Markdown is rich.markdown.Markdown and "markdown_it" in sys.modules
assert type(sys.modules["rich.markdown"]) is type(sys) and hasattr(sys.modules["rich.markdown"], "__file__")
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
