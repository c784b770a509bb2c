"""The layers hold (README's layout, in the order engine <- ingest <- analysis <- dashboard, clue_stats on
top): every import of every module is read from its source, at any depth (imports inside functions
count), so a lower layer that reaches up fails here, not in a user's installation."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# the order of the layers; a module may import its own layer and those before it
LAYERS = {"engine": 0, "ingest": 1, "analysis": 2, "dashboard": 3, "clue_stats": 4}
# what the engine, the part another program would embed, must not need
NOT_IN_ENGINE = {"duckdb", "polars", "pyarrow", "pandas", "streamlit", "altair", "typer", "rich"}


def _layer_of_module(name: str) -> str | None:
    """The layer of an imported name: clue_stats.engine.x -> engine; clue_stats.cli -> clue_stats."""
    parts = name.split(".")
    if parts[0] != "clue_stats":
        return None
    if len(parts) > 1 and parts[1] in LAYERS:
        return parts[1]
    return "clue_stats"


def _is_main_block(node: ast.stmt) -> bool:
    """``if __name__ == "__main__":``, a script's entry: it runs on top, like clue_stats."""
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Name)
        and node.test.left.id == "__name__"
    )


def imports(path: Path, source: str | None = None) -> list[tuple[int, str]]:
    """(line, imported module) for every import in the file (or in ``source``, read as that file),
    outside a ``__main__`` block."""
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source, str(path))
    found: list[tuple[int, str]] = []
    folder = path.relative_to(ROOT).parent.parts
    package = folder if folder[0] == "clue_stats" else ("clue_stats", *folder)
    stack: list[ast.AST] = [n for n in tree.body if not _is_main_block(n)]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolved against the module's package
                base = package[: len(package) - node.level + 1]
                found.append((node.lineno, ".".join(base + ((node.module,) if node.module else ()))))
            else:
                assert node.module is not None
                found.append((node.lineno, node.module))
                # `from clue_stats import commands` imports clue_stats.commands
                found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
        stack.extend(ast.iter_child_nodes(node))
    return found


def sources(layer: str) -> list[Path]:
    return sorted((ROOT / layer).rglob("*.py"))


@pytest.mark.slow
@pytest.mark.parametrize("layer", list(LAYERS))
def test_no_layer_imports_a_later_one(layer: str) -> None:
    wrong = []
    for path in sources(layer):
        for line, name in imports(path):
            target = _layer_of_module(name)
            if target is not None and LAYERS[target] > LAYERS[layer]:
                wrong.append(f"{path.relative_to(ROOT)}:{line}: {name}")
    assert not wrong, f"{layer} imports a later layer:\n" + "\n".join(wrong)


# analysis/'s rooms (DESIGN.md), in their order: a room may import its own and those before it
ROOMS = {"words": 0, "computers": 1, "review": 2, "corpus": 3, "report": 4}


def _room_of_module(name: str) -> str | None:
    """The room of an imported name: clue_stats.analysis.review.rows -> review; None outside analysis."""
    parts = name.split(".")
    return parts[2] if parts[:2] == ["clue_stats", "analysis"] and len(parts) > 2 and parts[2] in ROOMS else None


def test_analysis_is_in_rooms() -> None:
    """Every module of analysis/ lives in a room; only the package's own __init__ is left at the top."""
    assert sorted(p.name for p in (ROOT / "analysis").glob("*.py")) == ["__init__.py"]
    assert sorted(
        p.name for p in (ROOT / "analysis").iterdir() if p.is_dir() and (p / "__init__.py").exists()
    ) == sorted(ROOMS)


def test_no_room_of_analysis_imports_a_later_one() -> None:
    """words <- computers <- review <- corpus <- report: the words are at the bottom, the report on top."""
    wrong = []
    for room, order in ROOMS.items():
        for path in sources(f"analysis/{room}"):
            for line, name in imports(path):
                target = _room_of_module(name)
                if target is not None and ROOMS[target] > order:
                    wrong.append(f"{path.relative_to(ROOT)}:{line}: {name}")
    assert not wrong, "a room of analysis imports a later one:\n" + "\n".join(wrong)


def test_the_room_check_sees_a_room() -> None:
    assert _room_of_module("clue_stats.analysis.report.html") == "report"
    assert _room_of_module("clue_stats.analysis.words") == "words"
    assert _room_of_module("clue_stats.analysis") is None and _room_of_module("clue_stats.ingest.store") is None
    found = {name for _, name in imports(ROOT / "analysis" / "report" / "html.py")}
    assert {_room_of_module(name) for name in found} >= {"report"}


def test_the_engine_needs_no_storage_frames_or_ui() -> None:
    wrong = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in sources("engine")
        for line, name in imports(path)
        if name.split(".")[0] in NOT_IN_ENGINE
    ]
    assert not wrong, "the engine imports:\n" + "\n".join(wrong)


def test_the_commands_and_the_cli_do_not_import_each_other() -> None:
    """cli.py imports the commands; the commands import clue_stats.typer_app, never cli.py."""
    wrong = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in sources("clue_stats/commands") + [ROOT / "clue_stats" / "typer_app.py"]
        for line, name in imports(path)
        if name == "clue_stats.cli" or name.startswith("clue_stats.cli.")
    ]
    assert not wrong, "\n".join(wrong)


# The Record page's model: it writes the recording's own file (not the database), and the page stores
# the finished game through the command line (clue-stats record --ingest), not through the store.
RECORDING = "clue_stats.ingest.recording"


def test_the_dashboard_reads_the_store_only_through_its_reads() -> None:
    """DESIGN: the dashboard imports analysis and the store (its reads), nothing else of ingest but the
    recording model, and never DuckDB itself: every query it shows is the store's or the analysis's."""
    wrong = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in sources("dashboard")
        for line, name in imports(path)
        if name.split(".")[0] == "duckdb"
        or (_layer_of_module(name) == "ingest" and not (name + ".").startswith("clue_stats.ingest.store."))
        and name not in ("clue_stats.ingest", RECORDING)
    ]
    assert not wrong, "the dashboard reaches past the store:\n" + "\n".join(wrong)


def _code_lines(path: Path) -> list[tuple[int, str]]:
    return [(n, line) for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)]


def test_only_the_store_opens_the_database_or_writes_a_transaction() -> None:
    """One object owns the DuckDB file: no other module connects to a database file or writes its
    own BEGIN, COMMIT or ROLLBACK (an in-memory DuckDB for computing is not the store), and the
    dashboard writes no SQL of its own."""
    store_package = ROOT / "ingest" / "store"
    transaction = re.compile(r"""["'](BEGIN|COMMIT|ROLLBACK)\b""")
    wrong = []
    for layer in LAYERS:
        for path in sources(layer):
            if store_package in path.parents:
                continue
            for n, line in _code_lines(path):
                connects = "duckdb.connect(" in line and 'duckdb.connect(":memory:")' not in line
                sql_in_dashboard = layer == "dashboard" and re.search(r"\b(SELECT|FROM \w+ WHERE)\b", line)
                if connects or transaction.search(line) or sql_in_dashboard:
                    wrong.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not wrong, "outside the store:\n" + "\n".join(wrong)


# SQL as the program writes it: a statement's opening words, upper case (words in prose are not)
SQL = re.compile(
    r"\b(?:SELECT|INSERT\s+INTO|DELETE\s+FROM|UPDATE\s+\w+\s+SET|(?:CREATE|DROP|ALTER)\s+(?:TABLE|VIEW|INDEX)|"
    r"WITH\s+\w+\s+AS\s*\(|FILTER\s*\(\s*WHERE|(?:LEFT\s+|SEMI\s+)?JOIN\s+\w+\s+(?:\w+\s+)?(?:ON|USING))\b|\bcount\(\*\)"
)


def sql_texts(source: str) -> list[tuple[int, str]]:
    """(line, text) of every string of ``source`` (an f-string's literal parts joined, its fields as
    ``{}``) that reads as SQL; docstrings are prose and left out."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            text = node.value
        else:
            continue
        if SQL.search(text):
            found.append((node.lineno, " ".join(text.split())[:80]))
    return found


@pytest.mark.parametrize("layer", ["engine", "ingest", "analysis", "dashboard", "clue_stats", "benchmarks"])
def test_no_sql_outside_the_store(layer: str) -> None:
    """Every read the program makes is a named query of the store package (ingest/store/, its queries
    by topic in ingest/store/queries/): no other module writes SQL, not a statement nor a piece of one.
    The benchmarks too: the corpora they build and the counts they print are the store's
    (ingest/store/queries/measuring.py)."""
    store_package = ROOT / "ingest" / "store"
    wrong = [
        f"{path.relative_to(ROOT)}:{line}: {text}"
        for path in sources(layer)
        if store_package not in path.parents
        for line, text in sql_texts(path.read_text(encoding="utf-8"))
    ]
    assert not wrong, "SQL outside the store:\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    "source",
    [
        'q = "SELECT name FROM players"',
        'q = f"SELECT {column} FROM {table} WHERE x = ?"',
        'q = """\n    WITH chosen AS (\n SELECT 1)"""',
        'q = "sum(x) FILTER (WHERE y), count(*) AS n"',
        'q = f"INSERT INTO {table} VALUES (?)"',
        "def f():\n    return 'UPDATE games SET winner = ?'",
    ],
)
def test_the_sql_scan_sees_sql(source: str) -> None:
    assert sql_texts(source)


@pytest.mark.parametrize(
    "source",
    [
        '"""Select the games from the store: SELECT in a docstring is prose."""',
        'x = "select a player from the list"',
        'x = _("Games played with {count} players")',
        'x = "the count of games"',
        'x = _("Join the league on its first night")',
    ],
)
def test_the_sql_scan_leaves_prose_alone(source: str) -> None:
    assert not sql_texts(source)


def test_the_checker_sees_imports() -> None:
    """The reader above finds imports inside functions and skips only a __main__ block."""
    sample = ROOT / "engine" / "board.py"
    names = {name for _, name in imports(sample)}
    assert "clue_stats.engine.editions" in names and "functools" in names
    partitioned = {name for _, name in imports(ROOT / "analysis" / "computers" / "partitioned.py")}
    assert "clue_stats.ingest.store" in partitioned  # imported inside a function
    script = 'import json\nif __name__ == "__main__":\n    import clue_stats.cli\n'
    assert {name for _, name in imports(ROOT / "benchmarks" / "x.py", script)} == {"json"}
    assert _main_blocks(script) == [2]


LIBRARY = ("engine", "ingest", "analysis", "dashboard")  # the layers below the command line
TESTING = "clue_stats.testing"  # what the tests and the benchmarks share (seeded games, references)


def _main_blocks(source: str) -> list[int]:
    return [node.lineno for node in ast.parse(source).body if _is_main_block(node)]


@pytest.mark.slow
def test_only_the_command_line_has_a_command_line() -> None:
    """No module of the library parses arguments, runs as a script or says what the exit codes are:
    commands are `clue-stats` commands (clue_stats/commands/), exit codes are clue_stats.exit_codes'."""
    wrong = []
    for layer in LIBRARY:
        for path in sources(layer):
            where = path.relative_to(ROOT)
            wrong += [f"{where}:{line}: {name}" for line, name in imports(path) if name.split(".")[0] == "argparse"]
            wrong += [f"{where}:{line}: a __main__ block" for line in _main_blocks(path.read_text(encoding="utf-8"))]
            wrong += [
                f"{where}:{node.lineno}: class ExitCode"
                for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                if isinstance(node, ast.ClassDef) and node.name == "ExitCode"
            ]
    assert not wrong, "\n".join(wrong)


@pytest.mark.slow
def test_the_program_never_imports_its_testing_module() -> None:
    wrong = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for layer in LAYERS
        for path in sources(layer)
        if path != ROOT / "clue_stats" / "testing.py"
        for line, name in imports(path)
        if name == TESTING or name.startswith(TESTING + ".")
    ]
    assert not wrong, "\n".join(wrong)


def test_the_benchmarks_import_nothing_of_the_tests() -> None:
    """Benchmarks take their games and references from clue_stats.testing, never from tests/ (whose
    modules are no package a benchmark can rely on), at any depth, in any form."""
    beside = _beside()
    wrong = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in sorted((ROOT / "benchmarks").glob("*.py"))
        for line, name in imports_of_a_test(path.read_text(encoding="utf-8"))
        if name.split(".")[0] == "tests" or name.split(".")[0] in beside
    ]
    assert not wrong, "\n".join(wrong)


TESTS = ROOT / "tests"
SHARED = "helpers"  # tests/helpers.py, imported as tests.helpers


def imports_of_a_test(source: str) -> list[tuple[int, str]]:
    """(line, module) for every import of a test file, at any depth; a relative import is named from
    the repository's top (``from .x import y`` -> ``tests.x``, ``tests.x.y``)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = ".".join([*(["tests"] if node.level else []), *([node.module] if node.module else [])])
            found += [(node.lineno, module)] + [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
    return found


def imports_another_test_module(name: str, beside: set[str]) -> bool:
    """Whether an imported name is a test module, conftest, a second helper module or benchmarks/:
    anything of tests/ but tests.helpers, by its ``tests.`` name or by its bare name (pytest puts
    tests/ on the path, so ``import test_x`` works and imports the module a second time)."""
    parts = name.split(".")
    if parts[0] == "benchmarks":
        return True
    if parts[0] == "tests":
        return len(parts) > 1 and parts[1] != SHARED
    return parts[0] in beside  # bare: test_x, conftest, and helpers itself (imported twice that way)


def _beside() -> set[str]:
    return {p.stem for p in TESTS.glob("*.py")} | {p.name for p in TESTS.iterdir() if (p / "__init__.py").exists()}


@pytest.mark.parametrize(
    "source",
    [
        "import test_cli",
        "import tests.test_cli",
        "import tests.test_cli as cli",
        "from test_cli import run",
        "from tests.test_cli import run",
        "from tests import test_cli",
        "from . import test_cli",
        "from .test_cli import run",
        "from league_season import SEASON",
        "from tests.league_season import SEASON",
        "import conftest",
        "from helpers import ROOT",
        "from benchmarks.plain_reference import plain_entropy",
        "def f():\n    from test_cli import run\n",
    ],
)
def test_the_check_sees_every_form_of_importing_a_test_module(source: str) -> None:
    beside = {"test_cli", "conftest", "helpers", "league_season"}
    assert any(imports_another_test_module(name, beside) for _, name in imports_of_a_test(source))


@pytest.mark.parametrize(
    "source", ["from tests.helpers import ROOT", "from tests import helpers", "import tests.helpers", "import json"]
)
def test_the_check_lets_the_shared_helpers_through(source: str) -> None:
    beside = {"test_cli", "conftest", "helpers"}
    assert not any(imports_another_test_module(name, beside) for _, name in imports_of_a_test(source))


@pytest.mark.slow
def test_tests_share_helpers_through_one_module() -> None:
    """Tests import what they share from tests/helpers.py, never from each other, conftest or benchmarks/."""
    beside = _beside()
    wrong = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in sorted(TESTS.glob("*.py"))
        for line, name in imports_of_a_test(path.read_text(encoding="utf-8"))
        if imports_another_test_module(name, beside)
    ]
    assert not wrong, "\n".join(wrong)


# ---------------------------------------------------------------- no import circle, no import hidden in a function

DEFERRED = "# deferred: start-up"  # the word an import inside a function says itself with (issue "No waiting")
MARKERS = ROOT / "engine" / "markers.py"  # the translation markers, below every layer


def module_name(path: Path) -> str:
    """engine/game.py -> clue_stats.engine.game; clue_stats/commands/__init__.py -> clue_stats.commands."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    parts = parts[:-1] if parts[-1] == "__init__" else parts
    return ".".join(parts if parts[0] == "clue_stats" else ("clue_stats", *parts))


def program_files() -> dict[str, Path]:
    return {module_name(path): path for layer in LAYERS for path in sources(layer)}


def import_graph() -> dict[str, set[str]]:
    """Module -> the program's modules it imports, at any depth (in a function, under TYPE_CHECKING)."""
    files = program_files()
    return {
        name: {target for _, target in imports(path) if target in files and target != name}
        for name, path in files.items()
    }


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: each set of modules that import each other round (Tarjan's strongly
    connected components of more than one module), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return sorted(found)


def test_no_import_circle() -> None:
    """No modules import each other round, whether the import is at the top, in a function or for
    the type checker only: a circle is cut by moving what both need below both, never hidden."""
    found = circles(import_graph())
    assert not found, "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_circle_check_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"a"}, "f": {"g"}, "g": {"f"}}
    assert circles(graph) == [["a", "b", "c"], ["f", "g"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def imports_in_functions(source: str) -> list[tuple[int, str]]:
    """(line, statement) of every import inside a function (a ``__main__`` block apart) whose lines do
    not say ``# deferred: start-up``."""
    tree = ast.parse(source)
    lines = source.splitlines()
    found: list[tuple[int, str]] = []

    def look(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt) and _is_main_block(child) and node is tree:
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)) and in_function:
                statement = lines[child.lineno - 1 : child.end_lineno]
                if not any(DEFERRED in line for line in statement):
                    found.append((child.lineno, statement[0].strip()))
            look(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    look(tree, False)
    return found


@pytest.mark.parametrize("layer", list(LAYERS))
def test_no_import_inside_a_function_but_for_start_up(layer: str) -> None:
    """An import sits at the top of its module; one deferred to keep a command's start quick says
    so on its line (``# deferred: start-up``); any other inside a function is a failure (it would
    hide a circle, or nothing)."""
    wrong = [
        f"{path.relative_to(ROOT)}:{line}: {statement}"
        for path in sources(layer)
        for line, statement in imports_in_functions(path.read_text(encoding="utf-8"))
    ]
    assert not wrong, f"imports inside functions without '{DEFERRED}':\n" + "\n".join(wrong)


def test_the_check_sees_an_import_inside_a_function() -> None:
    source = (
        "import json\n"
        "def f():\n"
        "    import re\n"
        "    from clue_stats.engine import deduction  # deferred: start-up\n"
        "    from clue_stats.engine.game import (  # deferred: start-up\n"
        "        Deal,\n"
        "    )\n"
        "    class C:\n"
        "        def g(self):\n"
        "            from clue_stats import cli  # to hide a circle\n"
        "    return lambda: __import__('x')\n"
        "if __name__ == '__main__':\n"
        "    import sys\n"
    )
    assert imports_in_functions(source) == [(3, "import re"), (10, "from clue_stats import cli  # to hide a circle")]


def test_the_markers_are_at_the_bottom() -> None:
    """engine/markers.py (T_, N_, Said) imports nothing of the program, so every layer may import it;
    no other module defines a marker of its own."""
    assert not [name for _, name in imports(MARKERS) if name.split(".")[0] == "clue_stats"]
    defined_elsewhere = [
        f"{path.relative_to(ROOT)}:{node.lineno}: {node.name}"
        for layer in LAYERS
        for path in sources(layer)
        if path != MARKERS
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and node.name in ("T_", "N_")
    ]
    assert not defined_elsewhere, "\n".join(defined_elsewhere)
