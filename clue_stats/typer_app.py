"""What every command of `clue-stats` shares: the Typer app, the common options, the consoles, and
`handled`, the one place that turns errors into a message and an exit code.

The commands (clue_stats/commands/) import this module and register themselves on `app`;
clue_stats/cli.py imports the commands and runs the app. No traceback ever reaches a user: errors
the program expects (engine.errors' hierarchy) become a message on stderr and their family's exit
code here; anything else is the program's own failure, told in one line (exit 1).
"""

from __future__ import annotations

import errno
import functools
import json
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NoReturn, ParamSpec, TypeVar

import typer
from rich.console import Console, ConsoleDimensions

from clue_stats.analysis import words
from clue_stats.analysis.words import _, error_message
from clue_stats.engine.errors import ClueStatsError, InputError, StoreError, UsageError
from clue_stats.engine.markers import T_
from clue_stats.exit_codes import ExitCode

app = typer.Typer(
    name="clue-stats",
    help="Replay analysis and exact statistics for Cluedo / Clue game records.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Characters that drive a terminal instead of showing: C0 and C1 controls and DEL (ESC starts colour,
# title and screen-clearing sequences), the bidirectional overrides and the line separators.
_CONTROLS = [*range(0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x2028, 0x2029]
_SHOWN = {c: ascii(chr(c))[1:-1] for c in _CONTROLS}  # \x1b, \n, \u202e, ...
_SHOWN_KEEP_LINES = {c: shown for c, shown in _SHOWN.items() if c != 0x0A}
_SHOWN_KEEP_LAYOUT = {c: shown for c, shown in _SHOWN.items() if c not in (0x0A, 0x09)}
_JSON_ESCAPED = {c: f"\\u{c:04x}" for c in _CONTROLS if c >= 0x7F}  # json.dumps escapes the C0 ones itself


def printable(text: object, keep_lines: bool = False) -> str:
    """Text from a log or the database as it may go to a terminal: every control character shown
    escaped (``\x1b``), never sent raw; ``keep_lines`` lets the newlines of a message of ours through."""
    return str(text).translate(_SHOWN_KEEP_LINES if keep_lines else _SHOWN)


PIPE_WIDTH = 400  # columns of a table printed through a pipe: wide enough for any row of ours


class TextConsole(Console):
    """A console that prints text as text: no rich markup or emoji codes are interpreted (a player
    named ``[/]`` or ``[link=...]`` is printed as written) and control characters are escaped."""

    def __init__(self, **kwargs: Any):
        super().__init__(markup=False, emoji=False, highlight=False, soft_wrap=True, **kwargs)

    @property
    def size(self) -> ConsoleDimensions:
        """The terminal's size; through a pipe (to a file, to grep), a table's natural width, not
        rich's 80 columns (a game list wrapped into three lines a game), unless $COLUMNS says one."""
        size: ConsoleDimensions = Console.size.fget(self)  # type: ignore[attr-defined]
        if self._width is None and not self.is_terminal and not os.environ.get("COLUMNS"):
            return ConsoleDimensions(PIPE_WIDTH, size.height)
        return size

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        Console.size.fset(self, new_size)  # type: ignore[attr-defined]

    def print(self, *objects: Any, **kwargs: Any) -> None:
        kwargs.pop("markup", None)
        super().print(*(printable(o, keep_lines=True) if isinstance(o, str) else o for o in objects), **kwargs)

    def print_lines(self, lines: Iterable[object]) -> None:
        """Plain lines (a problem each), written as they are: a run of 100,000 problems is printed in
        a second, where rendering each through rich took a millisecond and a half. A line given as
        (text, layout) is its text, every control character escaped, then lines of our own (the
        notation's line and the caret under the problem) whose line breaks and tabs are kept."""
        write = self.file.write
        for line in lines:
            if isinstance(line, tuple):
                text, layout = line
                write(printable(text) + str(layout).translate(_SHOWN_KEEP_LAYOUT) + "\n")
            else:
                write(printable(line) + "\n")
        self.file.flush()


out = TextConsole()
err = TextConsole(stderr=True)

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
    from clue_stats.ingest import store  # deferred: start-up (the store imports DuckDB and polars)

    return store.database(db)


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
        except ClueStatsError as exc:  # in the reader's language where it has a template (T_)
            raise fail(error_message(exc), exit_code(exc)) from None
        except KeyboardInterrupt:
            raise fail(_("interrupted"), ExitCode.FAILURE) from None
        except BrokenPipeError:
            raise typer.Exit(ExitCode.OK) from None
        except OSError as exc:  # a file the command writes: a full disk, no permission
            if os.environ.get("CLUE_STATS_DEBUG") or exc.filename is None:
                raise

            text = (
                _("cannot write {file}: {error} (the disk is full); nothing was written")
                if exc.errno == errno.ENOSPC
                else _("cannot write {file}: {error}; nothing was written")
            )
            raise fail(text.format(file=exc.filename, error=exc.strerror), ExitCode.FAILURE) from None
        except Exception as exc:  # the program's own failure: a message, not a traceback
            if os.environ.get("CLUE_STATS_DEBUG"):
                raise

            raise fail(
                _("internal error: {error} (set CLUE_STATS_DEBUG=1 for the traceback)").format(
                    error=f"{type(exc).__name__}: {exc}"
                ),
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
        from importlib.metadata import PackageNotFoundError, version  # deferred: start-up

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
    lang: str | None = typer.Option(
        None,
        "--lang",
        metavar="en|de|sv",
        help="The language of the reports, summaries and messages: en, de or sv (default: $CLUE_STATS_LANG, "
        "else the system's locale, else en). --json, ids and problem codes never change with it.",
    ),
) -> None:
    """Replay analysis and exact statistics for Cluedo / Clue game records."""
    try:
        words.set_language(lang)  # None: chosen again from the environment, for every command
    except ValueError as exc:  # a UsageError, said in the language of the environment
        words.set_language(None)
        raise fail(words.error_message(exc), ExitCode.USAGE) from None


def check_output_folder(value: str | Path, option: str = "--out") -> Path:
    """The folder a command will write into (it may not exist yet): naming a file, or a path
    through a file, is a usage error here, not an internal one when the first file is written."""
    folder = Path(value)
    for existing in (folder, *folder.parents):
        if existing.exists():
            if not existing.is_dir():
                if existing == folder:
                    raise UsageError(
                        T_("{option} {value} is a file; name a folder (new or existing)", option=option, value=value)
                    )
                raise UsageError(
                    T_(
                        "{option} {value} goes through {file}, which is a file; name a folder (new or existing)",
                        option=option,
                        value=value,
                        file=existing,
                    )
                )
            break
    return folder


def check_output_file(value: str | Path, option: str = "--out") -> Path:
    """A file a command will write (replacing it if it exists): a folder, or a missing folder, is a usage error."""
    target = Path(value)
    if target.is_dir():
        raise UsageError(T_("{option} {value} is a folder; give a file name", option=option, value=value))
    if not target.parent.is_dir():
        raise UsageError(
            T_("{option} {value}: no such folder {folder}", option=option, value=value, folder=target.parent)
        )
    return target


def write_file(target: Path, text: str) -> None:
    """Write ``text`` to ``target`` whole or not at all: into a temporary file beside it, renamed to
    ``target`` once complete, so that a full disk or an interruption leaves no empty or half file
    (and an older file of that name as it was). Raises OSError naming ``target``."""
    temp = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        temp.write_text(text, encoding="utf-8")
        os.replace(temp, target)
    except OSError as exc:
        temp.unlink(missing_ok=True)
        raise OSError(exc.errno, exc.strerror, str(target)) from None
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def print_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=2, default=str).translate(_JSON_ESCAPED) + "\n")
