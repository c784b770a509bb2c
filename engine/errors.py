"""The exceptions clue-stats raises for what a user can cause: one hierarchy, one base.

    ClueStatsError            a failure the program expects, told in one message
    ├── InputError            input that cannot be used (a file, a record, a name in it)
    │   ├── UsageError        ... given on the command line: an option, a name, a path
    │   │   ├── engine.simulate.SimulationError, engine.strategies.UnknownStrategy,
    │   │   ├── engine.board.UnknownBoard, ingest.store.GameNotFound,
    │   │   │   analysis.ratings.MergeRefused
    │   │   └── ingest.store.NotADatabase (also a StoreError: --db naming another kind of file)
    │   └── engine.board.BoardFormatError, engine.editions.UnknownName,
    │       ingest.notation_lex.NotationError, ingest.notation_write.NotationWriteError,
    │       ingest.importers.common.Unconvertible, clue_stats.pipeline.UnknownFormat
    ├── engine.budget.BudgetExceeded   counting passed a game's budget (the pipeline reports it
    │                                  as the problem over_budget)
    └── StoreError            the database cannot be used (ingest.store)
        └── StoreBusy         ... because another process holds it

The command line maps each family to an exit code (``clue_stats.exit_codes``) in one place
(``clue_stats.typer_app.handled``); a
library caller catches the family it can act on. Bad *records* are not exceptions but problems
(engine.problems), collected and reported together; the exceptions above that the readers raise
inside (NotationError, Unconvertible) become problems before they leave the reader.
"""

from __future__ import annotations

from clue_stats.engine.markers import Said


class ClueStatsError(Exception):
    """A failure the program expects; its message is meant for the user. The message is a plain
    string or a :class:`~clue_stats.engine.problems.Said` (``T_("...", field=...)``): ``message`` is
    its English, ``said`` its template and values, which the command line says in the reader's
    language (``analysis.words.error_message``)."""

    def __init__(self, message: str | Said = "", *args: object) -> None:
        super().__init__(str(message), *args)
        self.message = str(message)  # in English
        self.said = message if isinstance(message, Said) else None  # as template and values


class InputError(ClueStatsError, ValueError):
    """Input that cannot be used."""


class UsageError(InputError):
    """A mistake in how the program was called (an option, a name or a path it was given)."""


def said_of(exc: BaseException) -> str | Said:
    """An exception's message as template and values where it has them (its ``said``: a
    ClueStatsError written with ``T_``, engine.editions.UnknownName), else its English text: the value to
    quote it by in another message (``T_("--edition: {error}", error=said_of(exc))``)."""
    said = getattr(exc, "said", None)
    return said if isinstance(said, Said) else str(exc)


class StoreError(ClueStatsError, RuntimeError):
    """The database cannot be used: missing, not a clue-stats database, or of a newer schema."""


class StoreBusy(StoreError):
    """The database stayed locked by another process for longer than the bounded wait."""
