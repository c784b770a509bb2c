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
from clue_stats.analysis.corpus.review_accuracy import with_review_accuracy
from clue_stats.analysis.corpus.stats import wilson_interval
from clue_stats.analysis.words import _, n_
from clue_stats.analysis.words.names import edition_name, name_columns
from clue_stats.ingest.store import GameFilter, Store
from clue_stats.ingest.store.queries import league as reads

SETTLED_SIGMA = 6.0  # a rating is provisional while its uncertainty (sigma) is wider than this
MAX_SETTLE_GAMES = 200  # games_to_settle says no more than this
HISTORY_POINTS = 400  # a player's course is cut into at most this many stretches of games
TOP = 5  # best and worst suggestions per player


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
    sizes = reads.pool_sizes(con, filters)
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
    board = reads.leaderboard(con, pool, filters)
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
    course = reads.course(con, pool, players, HISTORY_POINTS, filters)
    return with_review_accuracy(course)


def suggestions_of(
    con: Store, pool: str, player: str, filters: GameFilter = GameFilter(), top: int = TOP
) -> dict[str, pl.DataFrame]:
    """A player's best and worst rated suggestions in the pool's selected games (best: the least bits
    lost, the most informative first; worst: the most bits lost), cards and edition by their names, with
    the line of its file each was typed on (``line``) beside its record number (``seq``)."""
    out = reads.rated_suggestions(con, pool, player, top, filters)
    for key in out:
        out[key] = name_columns(
            out[key], ["suspect", "weapon", "room", "best_suspect", "best_weapon", "best_room"], con
        ).with_columns(pl.col("edition").map_elements(edition_name, return_dtype=pl.Utf8))
    return out


def person_games(con: Store, pool: str, player: str, filters: GameFilter = GameFilter()) -> pl.DataFrame:
    """A player's selected games of the pool, the last played first: game_id, played_at, edition (by
    name), players at the table, rank, won, their rating before and after it."""
    games = reads.person_games(con, pool, player, filters)
    return games.with_columns(pl.col("edition").map_elements(edition_name, return_dtype=pl.Utf8))
