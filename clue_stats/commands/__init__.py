"""The commands of `clue-stats`, one module a group; importing them registers them on the app."""

from clue_stats.commands import (  # noqa: F401
    analyse,  # noqa: F401,E402
    convert,
    dashboard,  # noqa: F401,E402
    ingest,
    notebook,
    play,
    report,  # noqa: F401,E402
)
