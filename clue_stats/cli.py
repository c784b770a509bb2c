"""The `clue-stats` command: the app of clue_stats/typer_app.py with every command of clue_stats/commands/.

Exit codes everywhere (README, clue_stats.exit_codes.ExitCode): 0 done; 1 failure (the program's own, or a resource such as
a locked database); 2 usage; 3 some input rejected. clue_stats/typer_app.py maps errors to them; typer's own
usage errors (a wrong option, a missing argument) are said in the reader's language by
clue_stats/usage_errors.py, which runs the app.
"""

from __future__ import annotations

from clue_stats import commands
from clue_stats.typer_app import app
from clue_stats.usage_errors import run

__all__ = ["app", "commands", "main"]


def main() -> None:
    run(app)
