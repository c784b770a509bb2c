"""The league's reads, from the stored ``ratings`` and the review's columns: the pools' sizes, a
pool's leaderboard and each player's course, their best and worst suggestions, head-to-head, their
games and their labels (analysis.corpus.league adds the figures and the words)."""

from __future__ import annotations

import polars as pl

from clue_stats.ingest.store.connection import Store
from clue_stats.ingest.store.queries.fragments import has_column, missed_wins_aggregate, rated_cte, review_cte, summed
from clue_stats.ingest.store.reads import GameFilter


def pool_sizes(con: Store, filters: GameFilter = GameFilter()) -> pl.DataFrame:
    """Every pool with rated games in the selection: pool, games, players (in no order)."""
    where, params = filters.where("g")
    join = "" if filters == GameFilter() else f"JOIN games g USING (game_id) WHERE {where}"
    return con.frame(
        f"""
        SELECT pool, count(DISTINCT game_index)::BIGINT AS games, count(DISTINCT player)::BIGINT AS players
        FROM ratings {join} GROUP BY pool""",
        params,
    )


def leaderboard(con: Store, pool: str, filters: GameFilter = GameFilter()) -> pl.DataFrame:
    """One row per player of the pool, highest rating first: rating, mu, sigma (after their last
    selected game), rating_change, games, wins, the review's sums, missed_wins, mean_turns_waited,
    opponents (the median table's other players) and last_played."""
    rated, params = rated_cte(filters)
    missed = missed_wins_aggregate(con)
    return con.frame(
        f"""
        WITH {rated}, {review_cte("r")},
        waits AS (
            SELECT a.game_id, a.player, sum(a.turns_waited) AS waited, count(a.turns_waited) AS timed
            FROM accusations a SEMI JOIN r ON r.game_id = a.game_id GROUP BY ALL
        ),
        board AS (
            SELECT r.player,
                   arg_max(r.rating_after, r.game_index) AS rating,
                   arg_max(r.mu_after, r.game_index) AS mu,
                   arg_max(r.sigma_after, r.game_index) AS sigma,
                   arg_max(r.rating_after, r.game_index) - arg_min(r.rating_before, r.game_index) AS rating_change,
                   count(*)::BIGINT AS games,
                   count(*) FILTER (WHERE r.rank = 1)::BIGINT AS wins,  -- rank 1 is the winner's alone
                   {summed("rev")},
                   {missed} AS missed_wins,
                   (sum(w.waited) / nullif(sum(w.timed), 0))::DOUBLE AS mean_turns_waited,
                   arg_max(r.game_id, r.game_index) AS last_game,
                   round(median(t.seats))::BIGINT - 1 AS opponents
            FROM r JOIN players p ON p.game_id = r.game_id AND p.seat = r.seat
            LEFT JOIN waits w ON w.game_id = r.game_id AND w.player = r.name
            LEFT JOIN rev ON rev.game_id = r.game_id AND rev.player = r.name
            JOIN (SELECT game_id, count(*) AS seats FROM r GROUP BY game_id) t ON t.game_id = r.game_id
            GROUP BY r.player
        )
        SELECT board.* EXCLUDE (last_game), left(g.played_at, 10) AS last_played
        FROM board LEFT JOIN games g ON g.game_id = board.last_game
        ORDER BY rating DESC, games DESC, board.player""",
        [pool, *params],
    )


def course(con: Store, pool: str, players: list[str], points: int, filters: GameFilter = GameFilter()) -> pl.DataFrame:
    """Each player's selected games of the pool in at most ``points`` stretches: game (their n-th),
    game_id, played_at, mu, sigma, rating at the end of each, and the review's sums over it."""
    rated, params = rated_cte(filters)
    return con.frame(
        f"""
        WITH {rated}, {review_cte("r")},
        mine AS (
            SELECT r.player, r.game_index, r.game_id, r.mu_after, r.sigma_after, r.rating_after, g.played_at,
                   rev.review_expected_bits, rev.review_best_bits, rev.rated_suggestions,
                   row_number() OVER (PARTITION BY r.player ORDER BY r.game_index) AS game,
                   count(*) OVER (PARTITION BY r.player) AS n
            FROM r JOIN games g ON g.game_id = r.game_id
            LEFT JOIN rev ON rev.game_id = r.game_id AND rev.player = r.name
            WHERE r.player IN (SELECT unnest(?))
        )
        SELECT player, max(game)::BIGINT AS game, arg_max(game_id, game) AS game_id,
               arg_max(played_at, game) AS played_at,
               arg_max(mu_after, game) AS mu, arg_max(sigma_after, game) AS sigma,
               arg_max(rating_after, game) AS rating, {summed("mine")}
        FROM mine
        GROUP BY player, (game - 1) // greatest(1, ceil(n / {int(points)}))::BIGINT
        ORDER BY player, game""",
        [pool, *params, players],
    )


def rated_suggestions(
    con: Store, pool: str, player: str, top: int, filters: GameFilter = GameFilter()
) -> dict[str, pl.DataFrame]:
    """A player's ``top`` best (least bits lost, the most informative first) and worst (most bits
    lost) rated suggestions in the pool's selected games, cards and edition as ids, with the line
    of its file each was typed on (``line``)."""
    rated, params = rated_cte(filters)
    lost = "s.bits_lost" if has_column(con, "suggestions", "bits_lost") else "s.best_gain_bits - s.expected_gain_bits"
    out = {}
    for key, order in (
        ("best", "bits_lost ASC, expected_gain_bits DESC, game_id, seq"),
        ("worst", "bits_lost DESC, expected_gain_bits ASC, game_id, seq"),
    ):
        # the top ones first, then their lines (every rated suggestion joined to the events first cost
        # a player's page a third of a second at 100,000 games)
        out[key] = con.frame(
            f"""
            WITH {rated}, chosen AS (
                SELECT s.game_id, s.seq, g.played_at, g.edition, s.suspect, s.weapon, s.room,
                       s.expected_gain_bits, s.best_gain_bits, {lost} AS bits_lost, s.accuracy, s.label,
                       s.best_suspect, s.best_weapon, s.best_room
                FROM r JOIN suggestions s ON s.game_id = r.game_id AND s.player = r.name
                JOIN games g ON g.game_id = r.game_id
                WHERE r.player = ? AND s.accuracy IS NOT NULL
                ORDER BY {order} LIMIT {int(top)}
            )
            SELECT c.*, e.line
            FROM chosen c LEFT JOIN events e ON e.game_id = c.game_id AND e.seq = c.seq
            ORDER BY {order}""",
            [pool, *params, player],
        )
    return out


def head_to_head(
    con: Store,
    pool: str,
    players: list[str],
    opponents: list[str] | None = None,
    filters: GameFilter = GameFilter(),
) -> pl.DataFrame:
    """For each player of ``players`` and each opponent (of ``opponents``, else anyone) they sat at
    one table with: games together, how often the player finished ahead, behind, or level (by the
    ranks rated), and share_ahead (of the games in which one finished ahead of the other)."""
    rated, params = rated_cte(filters)
    them = "TRUE" if opponents is None else "player IN (SELECT unnest(?))"
    return con.frame(
        f"""
        WITH {rated},
        mine AS (SELECT game_id, player, rank FROM r WHERE player IN (SELECT unnest(?))),
        theirs AS (SELECT game_id, player, rank FROM r WHERE {them})
        SELECT a.player, b.player AS opponent, count(*)::BIGINT AS games,
               count(*) FILTER (WHERE a.rank < b.rank)::BIGINT AS ahead,
               count(*) FILTER (WHERE a.rank > b.rank)::BIGINT AS behind,
               count(*) FILTER (WHERE a.rank = b.rank)::BIGINT AS level,
               (count(*) FILTER (WHERE a.rank < b.rank)
                / nullif(count(*) FILTER (WHERE a.rank <> b.rank), 0))::DOUBLE AS share_ahead
        FROM mine a JOIN theirs b ON a.game_id = b.game_id AND a.player <> b.player
        GROUP BY ALL ORDER BY a.player, games DESC, opponent""",
        [pool, *params, players, *([] if opponents is None else [opponents])],
    )


def person_games(con: Store, pool: str, player: str, filters: GameFilter = GameFilter()) -> pl.DataFrame:
    """A player's selected games of the pool, the last played first: game_id, played_at, edition (its
    id), players at the table, rank, won, their rating before and after it."""
    rated, params = rated_cte(filters)
    return con.frame(
        f"""
        WITH {rated}
        SELECT r.game_id, g.played_at, g.edition, g.n_players AS players, r.rank, (r.rank = 1) AS won,
               r.rating_before, r.rating_after
        FROM r JOIN games g USING (game_id) WHERE r.player = ?
        ORDER BY r.game_index DESC""",
        [pool, *params, player],
    )


def label_counts(con: Store, pool: str, player: str, filters: GameFilter = GameFilter()) -> pl.DataFrame:
    """How many of a player's rated suggestions in the pool's selected games got each label: label, suggestions."""
    rated, params = rated_cte(filters)
    return con.frame(
        f"""
        WITH {rated}
        SELECT s.label, count(*)::BIGINT AS suggestions
        FROM r JOIN suggestions s ON s.game_id = r.game_id AND s.player = r.name
        WHERE r.player = ? AND s.label IS NOT NULL GROUP BY s.label""",
        [pool, *params, player],
    )
