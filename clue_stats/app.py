"""What every command of `clue-stats` shares: the Typer app, the common options, the consoles, and
`handled`, the one place that turns errors into a message and an exit code.

The commands (clue_stats/commands/) import this module and register themselves on `app`;
clue_stats/cli.py imports the commands and runs the app. No traceback ever reaches a user: errors
the program expects (engine.errors' hierarchy) become a message on stderr and their family's exit
code here; anything else is the program's own failure, told in one line (exit 1).
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn, ParamSpec, TypeVar

import typer
from rich.console import Console

from clue_stats.engine.errors import ClueStatsError, ExitCode, InputError, StoreError, UsageError

app = typer.Typer(
    name="clue-stats",
    help="Replay analysis and exact statistics for Cluedo / Clue game records.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

DEFAULT_DB = "clue.duckdb"
DbOption = typer.Option(None, "--db", help="The database file (default: $CLUE_STATS_DB, else clue.duckdb).")
JsonOption = typer.Option(False, "--json", help="Print JSON instead of tables.")

# Each family of engine.errors and its exit code; an error takes the code of its nearest family.
EXIT_CODES: dict[type[ClueStatsError], ExitCode] = {
    UsageError: ExitCode.USAGE,
    InputError: ExitCode.INPUT_REJECTED,
    StoreError: ExitCode.FAILURE,
    ClueStatsError: ExitCode.FAILURE,
}

P = ParamSpec("P")
R = TypeVar("R")


def database(db: str | None) -> str:
    """The database file: --db, else $CLUE_STATS_DB, else clue.duckdb in the working folder."""
    return db or os.environ.get("CLUE_STATS_DB") or DEFAULT_DB


def exit_code(exc: ClueStatsError) -> ExitCode:
    return next(EXIT_CODES[cls] for cls in type(exc).__mro__ if cls in EXIT_CODES)


def fail(message: str, code: ExitCode) -> typer.Exit:
    err.print(f"clue-stats: {message}", markup=False)
    return typer.Exit(code)


def handled(func: Callable[P, R]) -> Callable[P, R]:
    """Translate the errors a user can cause into messages and exit codes."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except typer.Exit:
            raise
        except ClueStatsError as exc:
            raise fail(str(exc), exit_code(exc)) from None
        except KeyboardInterrupt:
            raise fail("interrupted", ExitCode.FAILURE) from None
        except BrokenPipeError:
            raise typer.Exit(ExitCode.OK) from None
        except Exception as exc:  # the program's own failure: a message, not a traceback
            if os.environ.get("CLUE_STATS_DEBUG"):
                raise
            raise fail(
                f"internal error: {type(exc).__name__}: {exc} (set CLUE_STATS_DEBUG=1 for the traceback)",
                ExitCode.FAILURE,
            ) from None

    return wrapper


def run_handled(main: Callable[[], int]) -> NoReturn:
    """Run a script's main (``python -m ...``) through `handled` and exit with its code."""
    try:
        code = handled(main)()
    except typer.Exit as exc:
        code = exc.exit_code
    sys.exit(code)


def plural(n: int, one: str, many: str | None = None) -> str:
    """ "1 file", "2 files", "0 files": the count and the word in its right form."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            out.print(f"clue-stats {version('clue-stats')}", markup=False)
        except PackageNotFoundError:  # run from a source tree that was never installed
            out.print("clue-stats (not installed: version unknown)", markup=False)
        raise typer.Exit(0)


@app.callback()
def main_options(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Replay analysis and exact statistics for Cluedo / Clue game records."""


def print_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=2, default=str) + "\n")
