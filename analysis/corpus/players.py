"""Per-player statistics across games: games, wins, suggestions, accuracy and review accuracy,
turns waited and missed wins.

The store's query (ingest.store.queries.players) sums the stored columns (``players.missed_win`` and ``players.review_accuracy`` are computed once,
by the analysis of each game); the same filters as every corpus query. Players are matched by name
(or by strategy, for simulated games), as logs name them.
"""

from __future__ import annotations

import polars as pl

from clue_stats.analysis.corpus.review_accuracy import with_review_accuracy
from clue_stats.ingest.store import GameFilter, Store
from clue_stats.ingest.store.queries import players as reads

GROUPINGS = ("name", "strategy")


def player_summary(con: Store, filters: GameFilter = GameFilter(), by: str = "name") -> pl.DataFrame:
    """One row per player (or strategy): games, wins, win_rate, suggestions, rated_suggestions,
    mean_accuracy, review_accuracy, accusations, mean_turns_waited, certain_games, missed_wins;
    most games first."""
    if by not in GROUPINGS:
        raise ValueError(f"unknown grouping {by!r} (one of {', '.join(GROUPINGS)})")
    return with_review_accuracy(reads.player_rows(con, filters, by)).select(
        by,
        "games",
        "wins",
        "win_rate",
        "suggestions",
        "rated_suggestions",
        "mean_accuracy",
        "review_accuracy",
        "accusations",
        "mean_turns_waited",
        "certain_games",
        "missed_wins",
    )
