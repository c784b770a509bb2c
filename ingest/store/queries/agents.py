"""The agents' reads: per agent (a program or model, or a name) over the selected games, their seats'
accusations, rule breaks and stated deductions counted, and their reviewed suggestions' gains
(analysis.corpus.agents adds the rates and their intervals)."""

from __future__ import annotations

import polars as pl

from clue_stats.ingest.store.connection import Store
from clue_stats.ingest.store.queries.fragments import accused_unsure
from clue_stats.ingest.store.reads import GameFilter

GROUPINGS = ("strategy", "name")


def _seats(filters: GameFilter, by: str) -> tuple[str, list[object]]:
    if by not in GROUPINGS:
        raise ValueError(f"unknown grouping {by!r} (one of {', '.join(GROUPINGS)})")
    where, params = filters.where("g")
    return (
        f"""
        WITH chosen AS (SELECT g.game_id FROM games g WHERE {where}),
        seats AS (
            SELECT p.game_id, p.name, p.{by} AS who, p.missed_win
            FROM players p JOIN chosen USING (game_id) WHERE p.{by} IS NOT NULL
        )""",
        params,
    )


def agent_rows(con: Store, filters: GameFilter, by: str) -> pl.DataFrame:
    """One row per agent (``by`` strategy or name) of the selected games: agent, player_games,
    accusations, unsure_accusations, reviewed_games, missed_wins, rule_breaks, games_with_breaks,
    stated_units, proven_units, missed_units; most games first."""
    seats, params = _seats(filters, by)
    return con.frame(
        seats
        + f""",
        acc AS (
            SELECT a.game_id, a.player, count(*) AS n,
                   count(*) FILTER (WHERE {accused_unsure("a")}) AS unsure
            FROM accusations a JOIN chosen USING (game_id) GROUP BY ALL
        ),
        breaks AS (
            SELECT pr.game_id, e.player, count(*) AS n
            FROM problems pr JOIN chosen USING (game_id)
            JOIN events e ON e.game_id = pr.game_id AND e.seq = pr.seq
            WHERE pr.code = 'rule_break' GROUP BY ALL
        ),
        said AS (
            SELECT s.game_id, s.player, sum(s.stated_units) AS stated, sum(s.proven_units) AS proven,
                   sum(s.missed_units) AS missed
            FROM statements s JOIN chosen USING (game_id) GROUP BY ALL
        )
        SELECT seats.who AS agent,
               count(*)::BIGINT AS player_games,
               coalesce(sum(acc.n), 0)::BIGINT AS accusations,
               coalesce(sum(acc.unsure), 0)::BIGINT AS unsure_accusations,
               count(seats.missed_win)::BIGINT AS reviewed_games,
               count(*) FILTER (WHERE seats.missed_win)::BIGINT AS missed_wins,
               coalesce(sum(breaks.n), 0)::BIGINT AS rule_breaks,
               count(breaks.n)::BIGINT AS games_with_breaks,
               coalesce(sum(said.stated), 0)::BIGINT AS stated_units,
               coalesce(sum(said.proven), 0)::BIGINT AS proven_units,
               coalesce(sum(said.missed), 0)::BIGINT AS missed_units
        FROM seats
        LEFT JOIN acc ON acc.game_id = seats.game_id AND acc.player = seats.name
        LEFT JOIN breaks ON breaks.game_id = seats.game_id AND breaks.player = seats.name
        LEFT JOIN said ON said.game_id = seats.game_id AND said.player = seats.name
        GROUP BY seats.who
        ORDER BY player_games DESC, agent
        """,
        params,
    )


def agent_gains(con: Store, filters: GameFilter, by: str) -> pl.DataFrame:
    """Every reviewed suggestion of the agents of the selected games: agent, expected, best (the
    expected and the best available gain), in each agent's record order."""
    seats, params = _seats(filters, by)
    return con.frame(
        seats
        + """
        SELECT seats.who AS agent, s.expected_gain_bits AS expected, s.best_gain_bits AS best
        FROM suggestions s JOIN seats ON s.game_id = seats.game_id AND s.player = seats.name
        WHERE s.best_gain_bits IS NOT NULL AND s.expected_gain_bits IS NOT NULL
        ORDER BY agent, s.game_id, s.seq
        """,
        params,
    )
