"""The nights' reads: which games a night holds (in played order), the nights played, each game's
seats and facts, the night's players with their ratings and the review's sums, the latest nights
and games (analysis.corpus.night makes the summary)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clue_stats.ingest.store.connection import Store
from clue_stats.ingest.store.queries.fragments import (
    NIGHT_SQL,
    ORDER_DESC_SQL,
    ORDER_SQL,
    PLAYED_SQL,
    POOL_SQL,
    missed_wins_aggregate,
    review_cte,
    summed,
)
from clue_stats.ingest.store.queries.ratings import register_person_names
from clue_stats.ingest.store.reads import GameFilter

if TYPE_CHECKING:
    import polars as pl  # a frame's type: the frames are made by Store.frame, which imports polars


def night_game_ids(con: Store, first: str, last: str) -> list[str]:
    """The ids of the games of the nights from ``first`` to ``last`` (inclusive), in played order."""
    rows = con.execute(
        f"WITH played AS ({PLAYED_SQL}) SELECT g.game_id FROM games g JOIN played k USING (game_id) "
        f"WHERE {NIGHT_SQL.format(g='g')} BETWEEN ? AND ? ORDER BY {ORDER_SQL.format(g='g', k='k')}",
        [first, last],
    ).fetchall()
    return [r[0] for r in rows]


def nights_of(con: Store, game_ids: list[str]) -> dict[str, str | None]:
    """The night of each stored game of ``game_ids`` (None for a game without played_at); an id no
    stored game has is left out."""
    rows = con.execute(
        f"SELECT g.game_id, {NIGHT_SQL.format(g='g')} FROM games g WHERE g.game_id IN (SELECT unnest(?))", [game_ids]
    ).fetchall()
    return {game_id: night for game_id, night in rows}


def night_ordered(con: Store, game_ids: list[str]) -> bool:
    """Whether the club gave an order to any of ``game_ids`` (table night_order)."""
    rows = con.execute("SELECT count(*) FROM night_order WHERE game_id IN (SELECT unnest(?))", [game_ids]).fetchall()
    return bool(rows[0][0])


def stored_game_ids(con: Store) -> list[str]:
    """Every stored game's id, sorted (what a mistyped id is matched against)."""
    return [r[0] for r in con.execute("SELECT game_id FROM games ORDER BY game_id").fetchall()]


def nights_played(con: Store) -> list[str]:
    """Every night with a stored game, in order."""
    rows = con.execute(
        f"SELECT DISTINCT {NIGHT_SQL.format(g='g')} AS night FROM games g WHERE g.played_at IS NOT NULL ORDER BY 1"
    ).fetchall()
    return [r[0] for r in rows if r[0]]


def seat_names(con: Store, ids: list[str]) -> dict[str, list[str]]:
    """Each game's players' names in seat order."""
    return dict(
        con.execute(
            "SELECT game_id, list(name ORDER BY seat) FROM players WHERE game_id IN (SELECT unnest(?)) GROUP BY ALL",
            [ids],
        ).fetchall()
    )


def night_games(con: Store, ids: list[str]) -> dict[str, tuple[Any, ...]]:
    """Each game's (night, played_at, place, edition, pool, winner)."""
    return {
        r[0]: r[1:]
        for r in con.execute(
            f"""SELECT g.game_id, {NIGHT_SQL.format(g="g")}, g.played_at, g.place, g.edition,
                       {POOL_SQL.format(g="g")}, g.winner
                FROM games g WHERE g.game_id IN (SELECT unnest(?))""",
            [ids],
        ).fetchall()
    }


def night_players(con: Store, ids: list[str]) -> pl.DataFrame:
    """The persons who played these games: player, pool, games, wins, the review's sums,
    missed_wins, their rating before the first and after the last of them, sigma_after."""
    missed = missed_wins_aggregate(con)
    register_person_names(con)
    return con.frame(
        f"""
        WITH night AS (SELECT unnest(?) AS game_id), {review_cte("night")}
        SELECT coalesce(r.player, m.person, p.name) AS player, coalesce(r.pool, {POOL_SQL.format(g="g")}) AS pool,
               count(*)::BIGINT AS games, count(*) FILTER (WHERE p.won)::BIGINT AS wins,
               {summed("rev")}, {missed} AS missed_wins,
               arg_min(r.rating_before, r.game_index) AS rating_before,
               arg_max(r.rating_after, r.game_index) AS rating_after,
               arg_max(r.sigma_after, r.game_index) AS sigma_after
        FROM players p JOIN games g USING (game_id)
        LEFT JOIN ratings r ON r.game_id = p.game_id AND r.seat = p.seat
        LEFT JOIN person_names m ON m.name = p.name
        LEFT JOIN rev ON rev.game_id = p.game_id AND rev.player = p.name
        WHERE p.game_id IN (SELECT game_id FROM night)
        GROUP BY ALL ORDER BY wins DESC, rating_after DESC NULLS LAST, player""",
        [ids],
    )


def latest_nights(con: Store, limit: int = 5) -> list[tuple[str, int, list[str] | None]]:
    """The latest nights with stored games, the latest first: (night, games, winners in played order)."""
    return con.execute(
        f"""WITH played AS ({PLAYED_SQL})
        SELECT {NIGHT_SQL.format(g="g")} AS night, count(*)::BIGINT AS games,
               list(g.winner ORDER BY {ORDER_SQL.format(g="g", k="k")}) FILTER (WHERE g.winner IS NOT NULL) AS winners
        FROM games g JOIN played k USING (game_id) WHERE g.played_at IS NOT NULL
        GROUP BY 1 HAVING night IS NOT NULL ORDER BY night DESC LIMIT ?""",
        [limit],
    ).fetchall()


def latest_games(con: Store, filters: GameFilter, limit: int = 10) -> pl.DataFrame:
    """The selection's latest games, the last played first (the reverse of played order): game_id,
    played_at, edition, players (the names in seat order, joined by commas), winner."""
    where, params = filters.where("g")
    return con.frame(
        f"""WITH played AS ({PLAYED_SQL})
            SELECT g.game_id, g.played_at, g.edition,
                   (SELECT string_agg(p.name, ', ' ORDER BY p.seat) FROM players p WHERE p.game_id = g.game_id)
                       AS players,
                   g.winner
            FROM games g JOIN played k USING (game_id) WHERE {where}
            ORDER BY {ORDER_DESC_SQL.format(g="g", k="k")}
            LIMIT ?""",
        [*params, limit],
    )
