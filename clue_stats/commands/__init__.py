"""The commands of `clue-stats`, one module a group; importing them registers them on the app."""

from clue_stats.commands import convert, ingest, notebook, play  # noqa: F401
from clue_stats.commands import dashboard  # noqa: F401,E402
from clue_stats.commands import report  # noqa: F401,E402
from clue_stats.commands import analyse  # noqa: F401,E402
