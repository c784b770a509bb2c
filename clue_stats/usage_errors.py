"""typer's own usage errors in the reader's language: a wrong option, a missing argument, an unknown
command, a value of the wrong kind.

typer (and the click it vendors) writes them as English f-strings, with no catalogue. :func:`run`,
the `clue-stats` command's main (clue_stats.cli), runs the app with ``standalone_mode=False`` and
keeps everything typer's own main does (the exit codes, ``Exit`` and ``Abort``, a broken pipe, the
help shown for no arguments) but the showing of a usage error: the usage line, the "Try 'clue-stats
X --help' for help." line and the message in a panel, each in the reader's language. The message is
recognised from the exception's class and attributes and the few fixed English forms typer writes
(:func:`message`); one not recognised is shown in English, as typer wrote it. In English the error
is shown by typer itself.

The language: ``--lang`` may not be parsed yet when parsing fails, so it is read from the command
line too (``--lang xx``, ``--lang=xx``), else the environment's (analysis.words.choose).
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import typer
from rich.panel import Panel
from rich.text import Text

from clue_stats import help_screens
from clue_stats.analysis import words
from clue_stats.analysis.words import _
from clue_stats.engine.markers import T_, Said, nT_

# typer's exceptions (click's: vendored in typer/_click since 0.22, the click package before)
click_exceptions: Any = importlib.import_module(typer.BadParameter.__module__)

# the inner message of a value typer could not convert (pydantic's words), in the reader's language
_VALUES: list[tuple[re.Pattern[str], Callable[[re.Match[str]], Said]]] = [
    (
        re.compile(r"Input should be a valid integer, unable to parse string as an integer"),
        lambda m: T_("Input should be a valid integer, unable to parse string as an integer"),
    ),
    (
        re.compile(r"Input should be a valid number, unable to parse string as a number"),
        lambda m: T_("Input should be a valid number, unable to parse string as a number"),
    ),
    (
        re.compile(r"Input should be greater than or equal to (?P<limit>\S+)"),
        lambda m: T_("Input should be greater than or equal to {limit}", limit=m["limit"]),
    ),
    (
        re.compile(r"Input should be less than or equal to (?P<limit>\S+)"),
        lambda m: T_("Input should be less than or equal to {limit}", limit=m["limit"]),
    ),
    (
        re.compile(r"Input should be greater than (?P<limit>\S+)"),
        lambda m: T_("Input should be greater than {limit}", limit=m["limit"]),
    ),
    (
        re.compile(r"Input should be less than (?P<limit>\S+)"),
        lambda m: T_("Input should be less than {limit}", limit=m["limit"]),
    ),
]

# the fixed English forms of the other usage errors, by the class that raises them
_OPTION_USAGE: list[tuple[re.Pattern[str], Callable[[re.Match[str]], Said]]] = [
    (
        re.compile(r"Option (?P<option>.+) requires an argument\."),
        lambda m: T_("Option {option} requires an argument.", option=m["option"]),
    ),
    (
        re.compile(r"Option (?P<option>.+) requires (?P<count>\d+) arguments\."),
        lambda m: T_("Option {option} requires {count} arguments.", option=m["option"], count=m["count"]),
    ),
    (
        re.compile(r"Option (?P<option>.+) does not take a value\."),
        lambda m: T_("Option {option} does not take a value.", option=m["option"]),
    ),
]
_ARGUMENT_USAGE: list[tuple[re.Pattern[str], Callable[[re.Match[str]], Said]]] = [
    (
        re.compile(r"Argument (?P<argument>.+) takes (?P<count>\d+) values\."),
        lambda m: T_("Argument {argument} takes {count} values.", argument=m["argument"], count=m["count"]),
    ),
]
_USAGE: list[tuple[re.Pattern[str], Callable[[re.Match[str]], Said]]] = [
    (
        re.compile(r"Got unexpected extra argument\(s\) \((?P<arguments>.*)\)", re.S),
        lambda m: nT_(
            len(m["arguments"].split()),
            "Got an unexpected extra argument ({arguments})",
            "Got unexpected extra arguments ({arguments})",
            arguments=m["arguments"],
        ),
    ),
    (
        re.compile(r"No such command (?P<name>.+?)\. Did you mean (?P<commands>.+)\?", re.S),
        lambda m: T_("No such command {name}. Did you mean {commands}?", name=m["name"], commands=m["commands"]),
    ),
    (re.compile(r"No such command (?P<name>.+)\.", re.S), lambda m: T_("No such command {name}.", name=m["name"])),
    (re.compile(r"Missing command\."), lambda m: T_("Missing command.")),
]
_MISSING = {"argument": T_("Missing argument."), "option": T_("Missing option."), "parameter": T_("Missing parameter.")}


def _matched(text: str, forms: list[tuple[re.Pattern[str], Callable[[re.Match[str]], Said]]]) -> Said | None:
    for pattern, said in forms:
        m = pattern.fullmatch(text)
        if m is not None:
            return said(m)
    return None


def _missing(exc: Any) -> Said | None:
    """``Missing argument 'paths'.``: the kind of parameter (``param_type``) and its hint."""
    kind = exc.param_type or (exc.param.param_type_name if exc.param is not None else None)
    m = re.fullmatch(r"Missing (?P<kind>\w+)(?: (?P<name>.+))?\.", exc.format_message(), re.S)
    if m is None or m["kind"] != kind:
        return None  # with a message of its own (a choice's "Choose from: ..."): as typer says it
    if m["name"] is None:
        return _MISSING.get(kind)
    forms = {
        "argument": T_("Missing argument {name}.", name=m["name"]),
        "option": T_("Missing option {name}.", name=m["name"]),
        "parameter": T_("Missing parameter {name}.", name=m["name"]),
    }
    return forms.get(kind)


def _bad_parameter(exc: Any) -> Said:
    """``Invalid value for '--limit': ...``: the outer sentence, and the inner one where it is one of
    the value conversions' own."""
    inner: str | Said = _matched(exc.message, _VALUES) or exc.message
    english = exc.format_message()
    prefix, suffix = "Invalid value for ", f": {exc.message}"
    if english.startswith(prefix) and english.endswith(suffix) and len(english) > len(prefix) + len(suffix):
        return T_(
            "Invalid value for {parameter}: {message}", parameter=english[len(prefix) : -len(suffix)], message=inner
        )
    return T_("Invalid value: {message}", message=inner)


def said(exc: Any) -> Said | None:
    """A usage error of typer's as template and values, where it is one of the forms typer writes;
    None for any other (said as typer wrote it)."""
    x = click_exceptions
    if isinstance(exc, x.NoSuchOption):
        m = re.fullmatch(r"No such option: (?P<option>.*)", exc.message, re.S)
        if m is None:
            return None
        found = T_("No such option: {option}", option=m["option"])
        if exc.possibilities:
            options = ", ".join(sorted(exc.possibilities))
            return T_("{message} (Possible options: {options})", message=found, options=options)
        return found
    if isinstance(exc, x.MissingParameter):
        return _missing(exc)
    if isinstance(exc, x.BadParameter):
        return _bad_parameter(exc)
    if isinstance(exc, x.BadOptionUsage):
        return _matched(exc.message, _OPTION_USAGE)
    if isinstance(exc, x.BadArgumentUsage):
        return _matched(exc.message, _ARGUMENT_USAGE)
    if isinstance(exc, x.UsageError):
        return _matched(exc.message, _USAGE)
    return None


def message(exc: Any) -> str:
    """The message of a typer error in the reader's language; typer's English where it is not one
    of the forms :func:`said` knows, or where the form read is not exactly what typer wrote."""
    english: str = exc.format_message()
    found = said(exc)
    if found is None or str(found) != english:
        return english
    return words.said(english, found.template, found.parts())


def language(args: Sequence[str]) -> str:
    """The language to say a usage error in: ``--lang`` as the command line gives it (parsing may
    have failed before it was read), else the one chosen (analysis.words)."""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            code = words.known(args[i + 1])
        elif arg.startswith("--lang="):
            code = words.known(arg.removeprefix("--lang="))
        else:
            continue
        if code is not None:
            return code
        break  # not one of ours: the environment's
    return words.language()


def show(exc: Any) -> None:
    """A usage error as typer shows it (the usage line, how to ask for help, the message in a
    panel on stderr), in the reader's language."""
    rich_utils = help_screens.load_rich_utils()
    if words.language() == words.SOURCE:  # typer's own words
        rich_utils.rich_format_error(exc)
        return
    console = rich_utils._get_rich_console(stderr=True)
    ctx = getattr(exc, "ctx", None)
    if ctx is not None:
        usage: str = ctx.get_usage()
        if usage.startswith("Usage: "):
            usage = _("Usage:") + " " + usage.removeprefix("Usage: ")
        console.print(rich_utils.highlighter(usage), style=rich_utils.STYLE_USAGE_COMMAND)
        if ctx.command.get_help_option(ctx) is not None:
            before, _command, after = _("Try {command} for help.").partition("{command}")
            command = f"'{ctx.command_path} {ctx.help_option_names[0]}'"
            console.print(Text.assemble(before, (command, "blue"), after), style=rich_utils.STYLE_ERRORS_SUGGESTION)
    console.print(
        Panel(
            rich_utils.highlighter(message(exc)),
            border_style=rich_utils.STYLE_ERRORS_PANEL_BORDER,
            title=_("Error"),
            title_align=rich_utils.ALIGN_ERRORS_PANEL,
        )
    )


def run(app: typer.Typer) -> NoReturn:
    """Run the app on the command line (sys.argv) as typer's own main does, its usage errors said
    in the reader's language; exit with the command's code (2 for a usage error)."""
    if help_screens.wants_help(sys.argv[1:]):
        help_screens.load_rich_utils()  # before typer imports it with all it imports
    try:
        # typer's command with its help in the reader's language; an Exit's code, or what the command returned (None)
        with help_screens.command(app, language(sys.argv[1:])) as command:
            code = command(standalone_mode=False)
    except click_exceptions.ClickException as exc:
        if type(exc).__name__ != "NoArgsIsHelpError":  # its help is printed already, as typer does
            with words.speaking(language(sys.argv[1:])):
                show(exc)
        sys.exit(exc.exit_code)
    except typer.Abort:  # end of input at a prompt
        help_screens.load_rich_utils().rich_abort_error()
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
