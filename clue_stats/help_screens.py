"""`clue-stats --help` in the reader's language.

typer writes a command's help from its docstring and each option's from its ``help=``, in English;
:func:`command` gives the click command typer builds from the app with every one of those texts
said in the reader's language, to run in its block, and typer's own words on the help screen too (the panels' titles,
``[default: ...]``, ``[required]``, "Usage:", the help option's "Show this message and exit.").
The texts are messages of the catalogue like any other: :func:`texts` lists them, `make catalogues`
writes them to ``build/help_texts.py`` for pybabel to extract (``python -m clue_stats.help_texts``),
and tests/test_words.py finds each of them in every catalogue. A text a catalogue lacks is shown in
English. The type typer writes beside each argument and option (``<str>``, ``<int range>``) and
the usage line's ``[OPTIONS]`` are messages too: :func:`texts` finds every type the app shows, so a
new one is a catalogue's missing message. The arguments' names (``{paths}``) are their ids and stay.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import typer
import typer.main

from clue_stats.analysis import words
from clue_stats.analysis.words import N_, _

# typer's words on the help screen, by the name rich_utils keeps them under (read when the help is drawn)
TYPER_WORDS = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "DEFAULT_STRING": N_("[default: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "ENVVAR_STRING": N_("[env var: {}]"),
    "DEPRECATED_STRING": N_("(deprecated) "),
}
HELP_OPTION = N_("Show this message and exit.")
USAGE = N_("Usage:")
OPTIONS = N_("[OPTIONS]")  # the usage line's placeholder for a command's options
SUBCOMMANDS = N_("COMMAND [ARGS]...")  # and for a group's command


# What typer.rich_utils imports at its top but uses only for a Markdown help text (rich_markup_mode
# "markdown", which clue-stats does not use) and for a pretty traceback (turned off: `app`'s
# pretty_exceptions_enable=False): rich.markdown (markdown-it) and rich.traceback (pygments), two
# thirds of the import time of a help screen.
_LATER = {"rich.markdown": "Markdown", "rich.traceback": "Traceback"}


class _Later(type):
    """A class standing in for ``module.name`` until it is used: calling it, or reading an attribute
    of it, imports the real class and hands the call on."""

    def _real(cls) -> Any:
        return getattr(importlib.import_module(cls.__module__), cls.__name__)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return cls._real()(*args, **kwargs)

    def __getattr__(cls, name: str) -> Any:
        return getattr(cls._real(), name)


def load_rich_utils() -> types.ModuleType:
    """typer.rich_utils, which draws typer's help and error screens, imported without rich.markdown
    and rich.traceback (`clue-stats --help` in a third of the time): while it is imported, each of
    them is a stand-in module whose class (_Later) imports the real one on first use; the stand-ins
    are gone from sys.modules once it is imported, so any other import gets the real module. A typer
    that imports something else of them is imported the ordinary way."""
    if "typer.rich_utils" in sys.modules:
        return sys.modules["typer.rich_utils"]
    stand_ins = {}
    for module, name in _LATER.items():
        if module not in sys.modules:
            stand_in = types.ModuleType(module)
            setattr(stand_in, name, _Later(name, (), {"__module__": module}))
            stand_ins[module] = sys.modules[module] = stand_in
    try:
        return importlib.import_module("typer.rich_utils")
    except ImportError:
        sys.modules.pop("typer.rich_utils", None)
        for module, stand_in in stand_ins.items():
            if sys.modules.get(module) is stand_in:
                del sys.modules[module]
        stand_ins.clear()
        return importlib.import_module("typer.rich_utils")
    finally:
        for module, stand_in in stand_ins.items():
            if sys.modules.get(module) is stand_in:
                del sys.modules[module]


def wants_help(args: Sequence[str]) -> bool:
    """Whether the command line asks for a help screen: --help before any ``--``, or no command."""
    before = args[: args.index("--")] if "--" in args else args
    return not before or "--help" in before


def _commands(command: Any) -> Iterator[Any]:
    """The command and each of its subcommands, depth first."""
    yield command
    for sub in getattr(command, "commands", {}).values():
        yield from _commands(sub)


def _help_option(command: Any) -> Any:
    """The command's --help option (click makes it on first use and keeps it)."""
    return command.get_help_option(command.context_class(command))


def _type_of(param: Any, cmd: Any) -> str | None:
    """The type typer writes beside the parameter (``<int range>``), if any: none for a flag
    (``--version``, ``--help``, ``--json``: it takes no value, and ``<bool>`` said it took one)."""
    if getattr(param, "is_flag", False) or getattr(param, "is_bool_flag", False):
        return None
    if getattr(param, "metavar", None):  # the values it takes as typed (--lang's en|de|sv): no words to say
        return None
    shown: str | None = param.display_type_rich(ctx=cmd.context_class(cmd))
    return shown


def _without_flag_types(built: Any) -> None:
    """Every flag of the command and its subcommands shown without a type on the help screen."""
    for cmd in _commands(built):
        for param in [*cmd.params, _help_option(cmd)]:
            if getattr(param, "is_flag", False) or getattr(param, "is_bool_flag", False):
                param.display_type_rich = lambda ctx: None


def _texts_of(command: Any) -> Iterator[str]:
    for cmd in _commands(command):
        yield from (t for t in (cmd.help, cmd.short_help) if t)
        yield from (p.help for p in cmd.params if getattr(p, "help", None))
        yield from filter(None, (_type_of(p, cmd) for p in [*cmd.params, _help_option(cmd)]))


def texts(app: typer.Typer) -> list[str]:
    """Every help text of the app's commands and options, and typer's words, once each (the
    messages `make catalogues` extracts)."""
    found = dict.fromkeys(_texts_of(typer.main.get_command(app)))
    return [*found, *TYPER_WORDS.values(), HELP_OPTION, USAGE, OPTIONS, SUBCOMMANDS]


@contextmanager
def command(app: typer.Typer, code: str) -> Iterator[Any]:
    """typer's click command for the app with its help in the language ``code``, to run inside the
    block (typer's own words on the help screen are in that language until the block ends)."""
    built = typer.main.get_command(app)
    _without_flag_types(built)
    if code == words.SOURCE:
        yield built
        return
    rich_utils = load_rich_utils()
    english = {name: getattr(rich_utils, name) for name in TYPER_WORDS}
    with words.speaking(code):
        said = {name: _(text) for name, text in TYPER_WORDS.items()}
        usage = _(USAGE) + " "
        for cmd in _commands(built):
            cmd.help = _(cmd.help) if cmd.help else cmd.help
            cmd.short_help = _(cmd.short_help) if cmd.short_help else cmd.short_help
            for param in [*cmd.params, _help_option(cmd)]:
                if getattr(param, "help", None):
                    param.help = _(param.help)
                shown = _type_of(param, cmd)
                if shown:  # typer reads the type through this method only for the help screen
                    param.display_type_rich = lambda ctx, said=_(shown): said
            cmd.options_metavar = _(OPTIONS)
            if getattr(cmd, "subcommand_metavar", None) == SUBCOMMANDS:
                cmd.subcommand_metavar = _(SUBCOMMANDS)
            cmd.context_class = _said_usage(cmd.context_class, usage)
    try:
        for name, text in said.items():
            setattr(rich_utils, name, text)
        yield built
    finally:
        for name, text in english.items():
            setattr(rich_utils, name, text)


def _said_usage(context: Any, prefix: str) -> Any:
    """A context class like ``context`` whose help starts its usage line with ``prefix`` (typer's
    formatter writes "Usage: " unless told otherwise)."""
    base = context.formatter_class

    class Formatter(base):  # type: ignore[misc, valid-type]
        def write_usage(self, prog: str, args: str = "", prefix_: str | None = None) -> None:
            super().write_usage(prog, args, prefix if prefix_ is None else prefix_)

    return type("Context", (context,), {"formatter_class": Formatter})
