"""The ratings' reads: who is who (names after the recorded merges), the games in each pool's played
order against what the ``ratings`` table holds, the seats to rate from a pool's first changed game,
and what a merge or a list of persons needs to know (analysis.corpus.ratings rates and decides)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from clue_stats.ingest.store.connection import ArrowRows, Store
from clue_stats.ingest.store.persons import person_names, standing_merges
from clue_stats.ingest.store.queries.fragments import ORDER_SQL, PLAYED_SQL, POOL_SQL, review_sums, summed

if TYPE_CHECKING:
    import polars as pl  # a frame's type: the frames are made by Store.frame, which imports polars

# Every seat with its person and its rank in the game (needs the registered table person_names).
SEATS_SQL = """
WITH out_at AS (
    SELECT game_id, player, min(seq) AS out_seq FROM accusations WHERE correct = false GROUP BY ALL
)
SELECT p.game_id, p.seat, p.name, coalesce(m.person, p.name) AS player,
       CASE WHEN p.won THEN 1
            WHEN NOT p.eliminated THEN 2
            -- the later-eliminated ahead of the earlier (an elimination without its accusation counts as first)
            ELSE 2 + dense_rank() OVER (PARTITION BY p.game_id, p.eliminated AND NOT p.won
                                        ORDER BY coalesce(o.out_seq, -1) DESC)
       END AS rank
FROM players p
LEFT JOIN person_names m ON m.name = p.name
LEFT JOIN out_at o ON o.game_id = p.game_id AND o.player = p.name
"""

# The games rated, in each pool's played order: two players at least, no person twice in one game.
ORDERED_SQL = f"""
WITH seats AS ({SEATS_SQL}),
rateable AS (
    SELECT game_id FROM seats GROUP BY game_id HAVING count(*) >= 2 AND count(DISTINCT player) = count(*)
),
played AS ({PLAYED_SQL}),
pooled AS (
    SELECT g.*, {POOL_SQL.format(g="g")} AS pool, k.played_key, k.night_key, k.position
    FROM games g JOIN played k USING (game_id) WHERE g.game_id IN (SELECT game_id FROM rateable)
)
SELECT pool, (row_number() OVER (PARTITION BY pool ORDER BY {ORDER_SQL.format(g="g", k="g")}) - 1)::INTEGER
       AS game_index, game_id, content_sha256
FROM pooled g
"""


def register_person_names(con: Store) -> dict[str, str]:
    """Make the table ``person_names(name, person)`` visible to this connection's queries."""
    names = person_names(standing_merges(con))
    con.register(
        "person_names",
        ArrowRows({"name": list(names), "person": list(names.values())}, {"name": "VARCHAR", "person": "VARCHAR"}),
    )
    return names


def rated_order(con: Store) -> list[tuple[str, int, str, str]]:
    """(pool, game_index, game_id, content_sha256) of every rateable game as the stored games order
    them now (needs :func:`register_person_names`); kept for :func:`ratings_from` as the temporary
    table ``rated_now`` (the order computed once a rating, not twice)."""
    con.execute(f"CREATE OR REPLACE TEMP TABLE rated_now AS {ORDERED_SQL}")
    return con.execute("SELECT * FROM rated_now ORDER BY pool, game_index").fetchall()


def stored_order(con: Store) -> list[tuple[str, int, str, str]]:
    """(pool, game_index, game_id, content_sha256) of every game the ``ratings`` table holds."""
    return con.execute(
        "SELECT DISTINCT pool, game_index, game_id, content_sha256 FROM ratings ORDER BY pool, game_index"
    ).fetchall()


def ratings_from(con: Store, starts: dict[str, int]) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """For each pool rated again from its game ``starts[pool]``: every person's (pool, player, mu,
    sigma) after their last game before it, and the seats to rate from it on, in order (pool,
    game_index, game_id, content_sha256, seat, name, player, rank). Reads the order
    :func:`rated_order` kept."""
    con.register(
        "rating_starts",
        ArrowRows(
            {"pool": list(starts), "start_index": list(starts.values())}, {"pool": "VARCHAR", "start_index": "INTEGER"}
        ),
    )
    try:
        states = con.execute(
            """
            SELECT r.pool, r.player, arg_max(r.mu_after, r.game_index), arg_max(r.sigma_after, r.game_index)
            FROM ratings r JOIN rating_starts s ON s.pool = r.pool AND r.game_index < s.start_index
            GROUP BY ALL"""
        ).fetchall()
        seats = con.execute(
            f"""
            WITH seats AS ({SEATS_SQL})
            SELECT o.pool, o.game_index, o.game_id, o.content_sha256, s.seat, s.name, s.player, s.rank
            FROM rated_now o JOIN rating_starts st ON st.pool = o.pool AND o.game_index >= st.start_index
            JOIN seats s ON s.game_id = o.game_id
            ORDER BY o.pool, o.game_index, s.seat"""
        ).fetchall()
    finally:
        con.unregister("rating_starts")
    return states, seats


def known_names(con: Store) -> list[str]:
    """Every name a stored game's player has, in order."""
    return [r[0] for r in con.execute("SELECT DISTINCT name FROM players ORDER BY name").fetchall()]


def games_together(con: Store, names: list[str], others: list[str], limit: int = 3) -> list[str]:
    """Up to ``limit`` games in which one of ``names`` and one of ``others`` sat at one table."""
    rows = con.execute(
        f"""
        SELECT p.game_id FROM players p WHERE p.name IN (SELECT unnest(?))
        INTERSECT SELECT q.game_id FROM players q WHERE q.name IN (SELECT unnest(?))
        ORDER BY 1 LIMIT {int(limit)}""",
        [names, others],
    ).fetchall()
    return [r[0] for r in rows]


def pools_of(con: Store, names: list[str]) -> set[str]:
    """The pools of the games these names sat in."""
    rows = con.rows(
        f"SELECT DISTINCT {POOL_SQL.format(g='g')} FROM players p JOIN games g USING (game_id) "
        "WHERE p.name IN (SELECT unnest(?))",
        [names],
    )
    return {r[0] for r in rows}


def persons(con: Store, pools: Iterable[str]) -> pl.DataFrame:
    """Every person of the pools (needs :func:`register_person_names`): person, names, games,
    first_played, last_played, pools and the review's sums over their seats."""
    return con.frame(
        f"""
        WITH rev AS (SELECT s.game_id, s.player, {review_sums("s")} FROM suggestions s GROUP BY ALL),
        seats AS (
            SELECT p.name, coalesce(m.person, p.name) AS person, p.game_id, g.played_at,
                   {POOL_SQL.format(g="g")} AS pool, rev.review_expected_bits, rev.review_best_bits,
                   rev.rated_suggestions
            FROM players p JOIN games g USING (game_id) LEFT JOIN person_names m ON m.name = p.name
            LEFT JOIN rev ON rev.game_id = p.game_id AND rev.player = p.name
        )
        SELECT person, list(DISTINCT name ORDER BY name) AS names, count(DISTINCT game_id)::BIGINT AS games,
               min(left(played_at, 10)) AS first_played, max(left(played_at, 10)) AS last_played,
               list(DISTINCT pool ORDER BY pool) AS pools, {summed("seats")}
        FROM seats WHERE pool IN (SELECT unnest(?))
        GROUP BY person ORDER BY games DESC, person""",
        [list(pools)],
    )


def similar_persons(con: Store, pool: str) -> list[tuple[str, str, int, int, int]]:
    """Pairs of rated persons of a pool whose names are at most two edits apart (Levenshtein, case
    ignored) and who never sat at one table: (keep, other, edits, keep_games, other_games), the one
    with more games first."""
    return con.execute(
        """
        WITH persons AS (SELECT player, count(*) AS games FROM ratings WHERE pool = ? GROUP BY player),
        pairs AS (
            SELECT a.player AS keep, b.player AS other, a.games AS keep_games, b.games AS other_games,
                   levenshtein(lower(a.player), lower(b.player)) AS edits
            FROM persons a JOIN persons b ON (a.games, b.player) > (b.games, a.player)
            WHERE abs(length(a.player) - length(b.player)) <= 2
        )
        SELECT keep, other, edits, keep_games, other_games FROM pairs
        WHERE edits <= 2 AND NOT EXISTS (SELECT 1 FROM ratings x JOIN ratings y USING (game_id)
                          WHERE x.pool = ? AND x.player = pairs.keep AND y.player = pairs.other)
        ORDER BY edits, keep_games + other_games DESC, keep, other""",
        [pool, pool],
    ).fetchall()
