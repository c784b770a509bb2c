"""Review accuracy over several games (a night, a season, the leaderboard, a player's page): the
per-game definition summed, never a mean of per-game values (docs/analysis.md, "Review accuracy").

Every view that shows a review accuracy over games reads its three sums from the stored
suggestions (the store's queries sum them per game and player with
``ingest.store.queries.fragments.review_sums``, and again over any grouping) and turns them into the
figure with :func:`with_review_accuracy`, which applies the one definition,
``analysis.computers.accuracy.review_accuracy_of``. So the Players page, the Suggestions page, the night
report and ``clue-stats players --json`` give a player the same figure.
"""

from __future__ import annotations

import polars as pl

from clue_stats.analysis.computers.accuracy import review_accuracy_of
from clue_stats.ingest.store.queries.fragments import BEST, EXPECTED, REVIEWED


def with_review_accuracy(frame: pl.DataFrame, keep_sums: bool = False) -> pl.DataFrame:
    """``frame`` (holding the three sums) with a column ``review_accuracy``; the sums dropped unless
    asked for (the count of rated suggestions stays)."""
    values = [
        review_accuracy_of(e, b, int(n or 0))
        for e, b, n in zip(frame[EXPECTED].to_list(), frame[BEST].to_list(), frame[REVIEWED].to_list(), strict=True)
    ]
    out = frame.with_columns(pl.Series("review_accuracy", values, dtype=pl.Float64))
    return out if keep_sums else out.drop(EXPECTED, BEST)
