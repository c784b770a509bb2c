"""The `clue-stats` command: parses arguments, calls the library, maps errors to exit codes.

Exit codes everywhere (analysis.md): 0 done; 1 failure (the program's own, or a resource such as a
locked database); 2 usage; 3 some input rejected. No traceback ever reaches a user: errors the
program expects become a message on stderr and an exit code here, in one place.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from typing import Any

import typer
from rich.console import Console

from clue_stats.ingest.store import StoreBusy, StoreError

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


class UsageError(Exception):
    """A mistake in how the command was called (exit 2)."""


class InputError(Exception):
    """Input that cannot be used (exit 3)."""


def database(db: str | None) -> str:
    return db or os.environ.get("CLUE_STATS_DB") or DEFAULT_DB


def fail(message: str, code: int) -> typer.Exit:
    err.print(f"clue-stats: {message}", markup=False)
    return typer.Exit(code)


def handled(func: Callable[..., Any]) -> Callable[..., Any]:
    """Translate the errors a user can cause into messages and exit codes."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except typer.Exit:
            raise
        except UsageError as exc:
            raise fail(str(exc), 2) from None
        except InputError as exc:
            raise fail(str(exc), 3) from None
        except (StoreBusy, StoreError) as exc:
            raise fail(str(exc), 1) from None
        except KeyboardInterrupt:
            raise fail("interrupted", 1) from None
        except BrokenPipeError:
            raise typer.Exit(0) from None
        except Exception as exc:  # the program's own failure: a message, not a traceback
            if os.environ.get("CLUE_STATS_DEBUG"):
                raise
            raise fail(
                f"internal error: {type(exc).__name__}: {exc} (set CLUE_STATS_DEBUG=1 for the traceback)", 1
            ) from None

    return wrapper


def plural(n: int, one: str, many: str | None = None) -> str:
    """ "1 file", "2 files", "0 files": the count and the word in its right form."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def print_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=2, default=str) + "\n")


def main() -> None:
    app()


from clue_stats import commands  # noqa: E402,F401  (registers every command on `app`)
