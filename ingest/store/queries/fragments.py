"""SQL pieces several queries share: the review's sums per game and player (review accuracy over
several games is their ratio: analysis.corpus.review_accuracy), a game's rating pool, its played
order and its night, and whether an older database has a column."""

from __future__ import annotations

from typing import Any

from clue_stats.ingest.kinds import CONTEST, DIGITAL, SIMULATED, TABLETOP
from clue_stats.ingest.store.connection import Store
from clue_stats.ingest.store.reads import GameFilter

# the three sums of the review, as columns of the frames the views read
EXPECTED, BEST, REVIEWED = "review_expected_bits", "review_best_bits", "rated_suggestions"


def review_sums(alias: str = "s") -> str:
    """SQL aggregates over rows of ``suggestions`` (under ``alias``): the expected and the best
    available gains of the reviewed suggestions, summed, and how many there are."""
    return (
        f"sum({alias}.expected_gain_bits) FILTER (WHERE {alias}.best_gain_bits IS NOT NULL) AS {EXPECTED}, "
        f"sum({alias}.best_gain_bits) AS {BEST}, count({alias}.best_gain_bits)::BIGINT AS {REVIEWED}"
    )


def summed(alias: str) -> str:
    """SQL aggregates that add up :func:`review_sums` columns of ``alias`` over a coarser grouping."""
    return (
        f"sum({alias}.{EXPECTED}) AS {EXPECTED}, sum({alias}.{BEST}) AS {BEST}, "
        f"coalesce(sum({alias}.{REVIEWED}), 0)::BIGINT AS {REVIEWED}"
    )


def review_cte(games: str) -> str:
    """A CTE ``rev``: the review's sums per game and player name, over the games of the CTE or table
    ``games`` (which has a ``game_id``)."""
    return (
        f"rev AS (SELECT s.game_id, s.player, {review_sums('s')} FROM suggestions s "
        f"SEMI JOIN {games} ON {games}.game_id = s.game_id GROUP BY ALL)"
    )


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


def rated_cte(filters: GameFilter) -> tuple[str, list[Any]]:
    """The selected games' ratings of one pool: a CTE ``r`` (needs the pool as first parameter)."""
    where, params = filters.where("g")
    if filters == GameFilter():
        return "r AS (SELECT * FROM ratings WHERE pool = ?)", []
    return (
        f"r AS (SELECT ratings.* FROM ratings JOIN games g USING (game_id) WHERE ratings.pool = ? AND {where})",
        params,
    )


# The pool of a game (alias g: games), from its kind (ingest.kinds): people's tabletop and digital
# games are rated together, bot contests and clue-stats' simulations each on their own.
POOL_OF_KIND = {TABLETOP: "people", DIGITAL: "people", CONTEST: "bots", SIMULATED: "simulations"}
POOL_SQL = (
    "CASE {g}.kind "
    + " ".join(f"WHEN '{kind}' THEN '{pool}'" for kind, pool in POOL_OF_KIND.items() if pool != "people")
    + " ELSE 'people' END"
)

NIGHT_ENDS_HOUR = 6  # a game played before 06:00 belongs to the night before
_STAMP = "try_cast(replace(left({g}.played_at, 19), 'T', ' ') AS TIMESTAMP)"
# the night a game belongs to, as YYYY-MM-DD (alias g: games)
NIGHT_SQL = (
    f"CASE WHEN length({{g}}.played_at) > 10 AND {_STAMP} IS NOT NULL "
    f"THEN strftime({_STAMP} - INTERVAL {NIGHT_ENDS_HOUR} HOUR, '%Y-%m-%d') "
    "ELSE left({g}.played_at, 10) END"
)

# Played order. Night by night (a game without played_at: the day it was stored); within a night,
# first the order the club gave its games (table night_order: `clue-stats night`, the night page),
# then each game's moment: its played_at as written (ISO text sorts in time order); a game with a date
# but no time takes the time of the game typed before it in its file on that date, so that it stays
# where it was typed among the timed ones (a club that timed the first two games of a night and not
# the third: the third is third); a game without played_at, its ingest time. Ties (one moment, or
# dates alone) in the order the games were stored and read: ingested_at, then the source file and
# the line. PLAYED_SQL gives every game its night (night_key), its place in the club's order
# (position, NULL where none was given) and its moment (played_key); ORDER_SQL orders by them, {k}
# being the alias of PLAYED_SQL's rows and {g} that of games.
_TIMED = "CASE WHEN length(played_at) > 10 THEN replace(played_at, ' ', 'T') END"
PLAYED_SQL = f"""
SELECT game_id, coalesce(
    {_TIMED},
    CASE WHEN played_at IS NOT NULL THEN coalesce(
        last_value({_TIMED} IGNORE NULLS) OVER (
            PARTITION BY source_file, left(played_at, 10) ORDER BY line NULLS LAST, ingested_at, game_id
            ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
        played_at) END,
    strftime(ingested_at, '%Y-%m-%dT%H:%M:%S')) AS played_key,
    coalesce({NIGHT_SQL.format(g="games")}, strftime(ingested_at, '%Y-%m-%d')) AS night_key,
    night_order.position
FROM games LEFT JOIN night_order USING (game_id)"""
ORDER_SQL = (
    "{k}.night_key, {k}.position NULLS LAST, {k}.played_key, {g}.ingested_at, {g}.source_file NULLS LAST, "
    "{g}.line NULLS LAST, {g}.game_id"
)
# the same order, the last played first
ORDER_DESC_SQL = (
    "{k}.night_key DESC, {k}.position DESC NULLS FIRST, {k}.played_key DESC, {g}.ingested_at DESC, "
    "{g}.source_file DESC NULLS FIRST, {g}.line DESC NULLS FIRST, {g}.game_id DESC"
)


def accused_unsure(alias: str = "a") -> str:
    """Whether an accusation (``accusations`` under ``alias``) was made unsure: its ``p_correct``, the
    exact share of the accuser's consistent deals with that solution, below 1 (other solutions were
    still possible for them); NULL where no p_correct is stored. The one definition the Agents page's
    "accusations at p < 1" and the Accusations page's guesses read (docs/analysis.md)."""
    return f"({alias}.p_correct < 1)"
