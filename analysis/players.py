"""Per-player statistics across games: games, wins, mean suggestion accuracy, mean turns waited and
missed wins (games in which the player was certain of the solution at some record, had not accused
before it, and did not win).

One SQL query over ``players``, ``suggestions`` and ``accusations``; the same filters as every corpus
query. Players are matched by name (or by strategy, for simulated games), as logs name them.
"""

from __future__ import annotations

import duckdb
import polars as pl

from clue_stats.analysis.store_read import GameFilter, frame

GROUPINGS = ("name", "strategy")


def player_summary(
    con: duckdb.DuckDBPyConnection, filters: GameFilter = GameFilter(), by: str = "name"
) -> pl.DataFrame:
    """One row per player (or strategy): games, wins, win_rate, suggestions, mean_accuracy,
    accusations, mean_turns_waited, certain_games, missed_wins; most games first."""
    if by not in GROUPINGS:
        raise ValueError(f"unknown grouping {by!r} (one of {', '.join(GROUPINGS)})")
    where, params = filters.where("g")
    sql = f"""
        WITH chosen AS (SELECT g.game_id FROM games g WHERE {where}),
        seats AS (
            SELECT p.game_id, p.name, p.{by} AS who, p.won, p.first_certain_seq
            FROM players p JOIN chosen USING (game_id)
            WHERE p.{by} IS NOT NULL
        ),
        sugg AS (
            SELECT s.game_id, s.player, count(*) AS n, avg(s.accuracy) AS mean_accuracy, count(s.accuracy) AS rated
            FROM suggestions s JOIN chosen USING (game_id) GROUP BY ALL
        ),
        acc AS (
            SELECT a.game_id, a.player, count(*) AS n, sum(a.turns_waited) AS waited, count(a.turns_waited) AS timed,
                   min(a.seq) AS first_accusation
            FROM accusations a JOIN chosen USING (game_id) GROUP BY ALL
        )
        SELECT seats.who AS {by},
               count(*)::BIGINT AS games,
               count(*) FILTER (WHERE seats.won)::BIGINT AS wins,
               (count(*) FILTER (WHERE seats.won) / count(*))::DOUBLE AS win_rate,
               coalesce(sum(sugg.n), 0)::BIGINT AS suggestions,
               -- each suggestion weighs the same, whatever game it is from
               (sum(sugg.mean_accuracy * sugg.rated) / nullif(sum(sugg.rated), 0))::DOUBLE AS mean_accuracy,
               coalesce(sum(acc.n), 0)::BIGINT AS accusations,
               (sum(acc.waited) / nullif(sum(acc.timed), 0))::DOUBLE AS mean_turns_waited,
               count(*) FILTER (WHERE seats.first_certain_seq IS NOT NULL)::BIGINT AS certain_games,
               -- certain, not the winner, and not out already by an earlier (unsure) accusation
               count(*) FILTER (WHERE seats.first_certain_seq IS NOT NULL AND NOT seats.won
                                AND (acc.first_accusation IS NULL OR acc.first_accusation > seats.first_certain_seq))::BIGINT AS missed_wins
        FROM seats
        LEFT JOIN sugg ON sugg.game_id = seats.game_id AND sugg.player = seats.name
        LEFT JOIN acc ON acc.game_id = seats.game_id AND acc.player = seats.name
        GROUP BY seats.who
        ORDER BY games DESC, {by}
    """
    return frame(con, sql, params)
