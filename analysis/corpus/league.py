"""The league across games: pools, the leaderboard, each player's course, their best and worst
suggestions, and head-to-head. Reads the stored ``ratings`` (analysis/corpus/ratings.py) and the review's
columns; usable without Streamlit (the dashboard caches these functions, the night report calls
them too).
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache

import polars as pl

from clue_stats.analysis.corpus.ratings import POOLS, model
from clue_stats.analysis.corpus.review_accuracy import review_sums, summed, with_review_accuracy
from clue_stats.analysis.corpus.stats import wilson_interval
from clue_stats.analysis.words import _, n_
from clue_stats.analysis.words.names import edition_name, name_columns
from clue_stats.ingest.store import GameFilter, Store

SETTLED_SIGMA = 6.0  # a rating is provisional while its uncertainty (sigma) is wider than this
MAX_SETTLE_GAMES = 200  # games_to_settle says no more than this
HISTORY_POINTS = 400  # a player's course is cut into at most this many stretches of games
TOP = 5  # best and worst suggestions per player


def has_column(con: Store, table: str, column: str) -> bool:
    # a database written before the review's columns existed is still read
    return bool(
        con.execute(
            "SELECT count(*) FROM information_schema.columns WHERE table_name = ? AND column_name = ?", [table, column]
        ).fetchall()[0][0]
    )


def missed_wins_aggregate(con: Store, alias: str = "p") -> str:
    """An SQL aggregate over a player's seats (``players`` under ``alias``): their missed wins
    (``missed_win`` counted); NULL for a database written before the review's columns."""
    missed = f"count(*) FILTER (WHERE {alias}.missed_win)" if has_column(con, "players", "missed_win") else "NULL"
    return f"({missed})::BIGINT"


def review_cte(games: str) -> str:
    """A CTE ``rev``: the review's sums (analysis.corpus.review_accuracy) per game and player name, over the games
    of the CTE or table ``games`` (which has a ``game_id``)."""
    return (
        f"rev AS (SELECT s.game_id, s.player, {review_sums('s')} FROM suggestions s "
        f"SEMI JOIN {games} ON {games}.game_id = s.game_id GROUP BY ALL)"
    )


def _rated(filters: GameFilter) -> tuple[str, list]:
    """The selected games' ratings of one pool: a CTE ``r`` (needs the pool as first parameter)."""
    where, params = filters.where("g")
    if filters == GameFilter():
        return "r AS (SELECT * FROM ratings WHERE pool = ?)", []
    return (
        f"r AS (SELECT ratings.* FROM ratings JOIN games g USING (game_id) WHERE ratings.pool = ? AND {where})",
        params,
    )


def skill_words(mu: float, sigma: float) -> str:
    """A rating in plain words: the skill and its uncertainty, "24 ± 6" (mu ± sigma, rounded)."""
    return f"{mu:.0f} ± {sigma:.0f}"


@lru_cache(maxsize=16)
def _settling(opponents: int) -> tuple[float, ...]:
    """The uncertainty of a new player after each game of ``opponents`` settled opponents (skill 25,
    sigma SETTLED_SIGMA) in which they finish in the middle: from 25/3 down to SETTLED_SIGMA (falling)."""
    rate = model()
    player = rate.rating()
    curve = [player.sigma]
    while player.sigma > SETTLED_SIGMA and len(curve) <= MAX_SETTLE_GAMES:
        others = [[rate.rating(mu=25.0, sigma=SETTLED_SIGMA)] for _ in range(opponents)]
        middle = (opponents + 1) // 2
        teams = [*others[:middle], [player], *others[middle:]]
        player = rate.rate(teams, ranks=list(range(1, opponents + 2)))[middle][0]
        curve.append(player.sigma)
    return tuple(curve)


def games_to_settle(sigma: float, opponents: int) -> int:
    """About how many more games a rating of uncertainty ``sigma`` needs before it is settled
    (sigma <= SETTLED_SIGMA), at tables of ``opponents`` other players: 0 when it is settled."""
    if sigma <= SETTLED_SIGMA:
        return 0
    curve = _settling(max(1, min(int(opponents), 9)))
    # the player stands at the last game of the curve whose uncertainty is still at least theirs
    at = bisect_right([-s for s in curve], -sigma) - 1  # bisect needs a rising sequence
    return max(1, len(curve) - 1 - max(at, 0))


def settle_words(games_to_settle: int) -> str:
    """Whether a rating is settled, in words: "settled", or "provisional: about 3 more games"."""
    if games_to_settle <= 0:
        return _("settled")
    return n_(games_to_settle, "provisional: about {n} more game", "provisional: about {n} more games")


def pool_sizes(con: Store, filters: GameFilter = GameFilter()) -> pl.DataFrame:
    """Every pool with rated games in the selection (each has a league from its first game): pool,
    games, players."""
    where, params = filters.where("g")
    join = "" if filters == GameFilter() else f"JOIN games g USING (game_id) WHERE {where}"
    sizes = con.frame(
        f"""
        SELECT pool, count(DISTINCT game_index)::BIGINT AS games, count(DISTINCT player)::BIGINT AS players
        FROM ratings {join} GROUP BY pool""",
        params,
    )
    order = {p: i for i, p in enumerate(POOLS)}
    return (
        sizes.with_columns(pl.col("pool").replace_strict(order, default=len(order)).alias("_order"))
        .sort("_order")
        .drop("_order")
    )


def leaderboard(con: Store, pool: str, filters: GameFilter = GameFilter()) -> pl.DataFrame:
    """One row per player of the pool, highest conservative rating first (openskill's ordinal, mu - 3
    sigma): rating (after their last selected game), mu, sigma, skill (the two in words, "24 ± 6"),
    provisional (sigma above SETTLED_SIGMA) and games_to_settle (about how many more games at their
    usual table size until it is not), rating_change (over the selection), games, wins, win_rate with
    its 95 % Wilson interval (win_low, win_high), review_accuracy (over all their rated suggestions of
    the selection: analysis.review) and rated_suggestions, missed_wins, mean_turns_waited (over their
    timed accusations), last_played."""
    rated, params = _rated(filters)
    missed = missed_wins_aggregate(con)
    board = con.frame(
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
    intervals = [wilson_interval(w, n) for w, n in zip(board["wins"].to_list(), board["games"].to_list())]
    return (
        with_review_accuracy(board)
        .with_columns(
            (pl.col("wins") / pl.col("games")).alias("win_rate"),
            pl.Series("win_low", [lo for lo, _ in intervals], dtype=pl.Float64),
            pl.Series("win_high", [hi for _, hi in intervals], dtype=pl.Float64),
            pl.Series("skill", [skill_words(m, s) for m, s in zip(board["mu"], board["sigma"])], dtype=pl.Utf8),
            (pl.col("sigma") > SETTLED_SIGMA).alias("provisional"),
            pl.Series(
                "games_to_settle",
                [games_to_settle(s, n) for s, n in zip(board["sigma"], board["opponents"])],
                dtype=pl.Int64,
            ),
        )
        .select(
            "player",
            "rating",
            "mu",
            "sigma",
            "skill",
            "provisional",
            "games_to_settle",
            "rating_change",
            "games",
            "wins",
            "win_rate",
            "win_low",
            "win_high",
            "review_accuracy",
            "rated_suggestions",
            "missed_wins",
            "mean_turns_waited",
            "last_played",
        )
    )


def history(con: Store, pool: str, players: list[str], filters: GameFilter = GameFilter()) -> pl.DataFrame:
    """Each player's course over their selected games: their n-th game (``game``), played_at, mu,
    sigma and conservative rating after it, and their review accuracy in it. A player with more than
    HISTORY_POINTS games is shown in as many stretches of games (the rating at the end of each, the
    review accuracy over all the stretch's rated suggestions), so that a chart stays small."""
    rated, params = _rated(filters)
    course = con.frame(
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
        GROUP BY player, (game - 1) // greatest(1, ceil(n / {HISTORY_POINTS}))::BIGINT
        ORDER BY player, game""",
        [pool, *params, players],
    )
    return with_review_accuracy(course)


def suggestions_of(
    con: Store, pool: str, player: str, filters: GameFilter = GameFilter(), top: int = TOP
) -> dict[str, pl.DataFrame]:
    """A player's best and worst rated suggestions in the pool's selected games (best: the least bits
    lost, the most informative first; worst: the most bits lost), cards and edition by their names, with
    the line of its file each was typed on (``line``) beside its record number (``seq``)."""
    rated, params = _rated(filters)
    lost = "s.bits_lost" if has_column(con, "suggestions", "bits_lost") else "s.best_gain_bits - s.expected_gain_bits"
    out = {}
    for key, order in (
        ("best", "bits_lost ASC, expected_gain_bits DESC, game_id, seq"),
        ("worst", "bits_lost DESC, expected_gain_bits ASC, game_id, seq"),
    ):
        out[key] = con.frame(
            f"""
            WITH {rated}
            SELECT s.game_id, s.seq, g.played_at, g.edition, s.suspect, s.weapon, s.room, s.expected_gain_bits,
                   s.best_gain_bits, {lost} AS bits_lost, s.accuracy, s.label, s.best_suspect, s.best_weapon,
                   s.best_room, e.line
            FROM r JOIN suggestions s ON s.game_id = r.game_id AND s.player = r.name
            JOIN games g ON g.game_id = r.game_id
            LEFT JOIN events e ON e.game_id = s.game_id AND e.seq = s.seq
            WHERE r.player = ? AND s.accuracy IS NOT NULL
            ORDER BY {order} LIMIT {int(top)}""",
            [pool, *params, player],
        )
        out[key] = name_columns(
            out[key], ["suspect", "weapon", "room", "best_suspect", "best_weapon", "best_room"], con
        ).with_columns(pl.col("edition").map_elements(edition_name, return_dtype=pl.Utf8))
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
    rated, params = _rated(filters)
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
    """A player's selected games of the pool, the last played first: game_id, played_at, edition (by
    name), players at the table, rank, won, their rating before and after it."""
    rated, params = _rated(filters)
    games = con.frame(
        f"""
        WITH {rated}
        SELECT r.game_id, g.played_at, g.edition, g.n_players AS players, r.rank, (r.rank = 1) AS won,
               r.rating_before, r.rating_after
        FROM r JOIN games g USING (game_id) WHERE r.player = ?
        ORDER BY r.game_index DESC""",
        [pool, *params, player],
    )
    return games.with_columns(pl.col("edition").map_elements(edition_name, return_dtype=pl.Utf8))


def label_counts(con: Store, pool: str, player: str, filters: GameFilter = GameFilter()) -> pl.DataFrame:
    """How many of a player's rated suggestions in the pool's selected games got each label: label, suggestions."""
    rated, params = _rated(filters)
    return con.frame(
        f"""
        WITH {rated}
        SELECT s.label, count(*)::BIGINT AS suggestions
        FROM r JOIN suggestions s ON s.game_id = r.game_id AND s.player = r.name
        WHERE r.player = ? AND s.label IS NOT NULL GROUP BY s.label""",
        [pool, *params, player],
    )
