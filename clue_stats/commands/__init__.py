"""The commands of `clue-stats`, one module a group; importing them registers them on the app."""

from clue_stats.commands import (
    agents,
    analyse,
    arena,
    board,
    convert,
    dashboard,
    docs,
    ingest,
    night,
    notebook,
    partitioned,
    players,
    record,
    report,
    samples,
    simulate,
)

__all__ = [
    "agents",
    "analyse",
    "arena",
    "board",
    "convert",
    "dashboard",
    "docs",
    "ingest",
    "night",
    "notebook",
    "partitioned",
    "players",
    "record",
    "report",
    "samples",
    "simulate",
]
