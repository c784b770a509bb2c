"""The exit codes of every `clue-stats` command (README, "Commands"): the command line's, so they live
here and not in the library below it; clue_stats/typer_app.py maps each family of engine.errors to one."""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    OK = 0
    FAILURE = 1  # the program's own, or a resource such as a locked database
    USAGE = 2
    INPUT_REJECTED = 3  # some input rejected: games stored apart, files unreadable
