"""The starting positions' reads: games and wins per seat in turn order, character or start square,
and the winners' seats (analysis.corpus.positions tests them)."""

from __future__ import annotations

import polars as pl

from clue_stats.ingest.store.connection import Store
from clue_stats.ingest.store.reads import GameFilter


def position_counts(
    con: Store, dimension: str, filters: GameFilter, start_squares: pl.DataFrame | None = None
) -> pl.DataFrame:
    """Per (edition, n_players, position of ``dimension``: turn_order, character or start_square):
    games, wins, games_won (games with a winner). A start square is found from ``start_squares``
    (edition, character, start_square)."""
    where, params = filters.where("g")
    if dimension == "turn_order":
        # games where the log cannot tell who played first have a NULL turn order for everyone
        key, join = "p.turn_order", ""
    elif dimension == "character":
        key, join = "p.character", ""
    elif dimension == "start_square" and start_squares is not None:
        key, join = (
            "s.start_square",
            "JOIN clue_stats_start_squares s ON s.edition = g.edition AND s.character = p.character",
        )
    else:
        raise ValueError(f"no position {dimension!r} to count")
    sql = f"""
        SELECT g.edition, g.n_players, {key} AS {dimension},
               count(*)::BIGINT AS games,
               count(*) FILTER (WHERE p.won)::BIGINT AS wins,
               count(*) FILTER (WHERE g.winner IS NOT NULL)::BIGINT AS games_won
        FROM games g JOIN players p ON p.game_id = g.game_id {join}
        WHERE {where} AND {key} IS NOT NULL
        GROUP BY ALL
        ORDER BY g.edition, g.n_players, {dimension}
    """
    if start_squares is None or dimension != "start_square":
        return con.frame(sql, params)
    with con.registered("clue_stats_start_squares", start_squares):
        return con.frame(sql, params)


def winning_seats(con: Store, filters: GameFilter) -> pl.DataFrame:
    """Per (edition, n_players, turn_order): the games won from that seat, over the games with a
    winner whose turn order is known."""
    where, params = filters.where("g")
    return con.frame(
        f"""
        SELECT g.edition, g.n_players, p.turn_order, count(*)::BIGINT AS wins
        FROM games g JOIN players p ON p.game_id = g.game_id
        WHERE {where} AND p.won AND p.turn_order IS NOT NULL
        GROUP BY ALL ORDER BY ALL
    """,
        params,
    )
