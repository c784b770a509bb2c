"""The players' read: per player (or strategy) over the selected games, their seats, suggestions
and accusations summed (analysis.corpus.players adds review accuracy)."""

from __future__ import annotations

import polars as pl

from clue_stats.ingest.store.connection import Store
from clue_stats.ingest.store.queries.fragments import review_sums, summed
from clue_stats.ingest.store.reads import GameFilter

GROUPINGS = ("name", "strategy")


def player_rows(con: Store, filters: GameFilter, by: str) -> pl.DataFrame:
    """One row per player (``by`` name or strategy): games, wins, win_rate, suggestions,
    mean_accuracy, the review's sums, accusations, mean_turns_waited, certain_games, missed_wins;
    most games first."""
    if by not in GROUPINGS:
        raise ValueError(f"unknown grouping {by!r} (one of {', '.join(GROUPINGS)})")
    where, params = filters.where("g")
    sql = f"""
        WITH chosen AS (SELECT g.game_id FROM games g WHERE {where}),
        seats AS (
            SELECT p.game_id, p.name, p.{by} AS who, p.won, p.first_certain_seq, p.missed_win
            FROM players p JOIN chosen USING (game_id)
            WHERE p.{by} IS NOT NULL
        ),
        sugg AS (
            SELECT s.game_id, s.player, count(*) AS n, sum(s.accuracy) AS sum_accuracy, {review_sums("s")}
            FROM suggestions s JOIN chosen USING (game_id) GROUP BY ALL
        ),
        acc AS (
            SELECT a.game_id, a.player, count(*) AS n, sum(a.turns_waited) AS waited, count(a.turns_waited) AS timed
            FROM accusations a JOIN chosen USING (game_id) GROUP BY ALL
        )
        SELECT seats.who AS {by},
               count(*)::BIGINT AS games,
               count(*) FILTER (WHERE seats.won)::BIGINT AS wins,
               (count(*) FILTER (WHERE seats.won) / count(*))::DOUBLE AS win_rate,
               coalesce(sum(sugg.n), 0)::BIGINT AS suggestions,
               -- each suggestion weighs the same, whatever game it is from
               (sum(sugg.sum_accuracy) / nullif(sum(sugg.rated_suggestions), 0))::DOUBLE AS mean_accuracy,
               -- review accuracy over every selected game (analysis.corpus.review_accuracy): the sums, divided below
               {summed("sugg")},
               coalesce(sum(acc.n), 0)::BIGINT AS accusations,
               (sum(acc.waited) / nullif(sum(acc.timed), 0))::DOUBLE AS mean_turns_waited,
               count(*) FILTER (WHERE seats.first_certain_seq IS NOT NULL)::BIGINT AS certain_games,
               count(*) FILTER (WHERE seats.missed_win)::BIGINT AS missed_wins
        FROM seats
        LEFT JOIN sugg ON sugg.game_id = seats.game_id AND sugg.player = seats.name
        LEFT JOIN acc ON acc.game_id = seats.game_id AND acc.player = seats.name
        GROUP BY seats.who
        ORDER BY games DESC, {by}
    """
    return con.frame(sql, params)
