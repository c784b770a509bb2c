"""The summaries' reads: the selection's suggestions counted at the finest grain any figure needs,
the best and worst of them, its accusations counted by outcome, chance and wait, the lucky and
unlucky guesses, and the missed wins (analysis.corpus.summaries adds them up)."""

from __future__ import annotations

from typing import Any

import polars as pl

from clue_stats.ingest.store.connection import Store
from clue_stats.ingest.store.queries.fragments import accused_unsure, review_sums
from clue_stats.ingest.store.reads import GameFilter, selection


def games_and_cut(con: Store, filters: GameFilter) -> tuple[int, int]:
    """The games the filters select, and how many of them the counting budget analysed only partly."""
    where, params = filters.where("g")
    row = con.one(
        f"SELECT count(*)::BIGINT AS n, count(g.analysis_cut)::BIGINT AS cut FROM games g WHERE {where}", params
    )
    return int(row["n"]), int(row["cut"])


def _bins(column: str, width: float) -> str:
    """The left edge of a histogram bin, computed in SQL (accuracy 1 falls in the last bin)."""
    if column.endswith("accuracy"):
        # least() skips NULLs in DuckDB, so an unrated suggestion must be kept out explicitly
        return f"CASE WHEN {column} IS NOT NULL THEN least(floor({column} / {width}), {round(1 / width) - 1}) * {width} END"
    return f"floor({column} / {width}) * {width}"


def suggestion_grain(con: Store, filters: GameFilter) -> pl.DataFrame:
    """The selection's suggestions joined to their suggesters' seats and counted at the finest grain
    any figure needs (strategy, player, label, accuracy bin, gain bin): n, n_expected, n_accuracy,
    n_hand_unknown, sum_expected, sum_accuracy and the review's sums. At 100,000 games the join is
    the costly part, so it is done once."""
    join_s, in_s, selected = selection(filters, "s")
    return con.frame(
        f"""
        SELECT coalesce(p.strategy, '(not given)') AS strategy, s.player, s.label,
               {_bins("s.accuracy", 0.05)} AS accuracy_bin, {_bins("s.expected_gain_bits", 0.25)} AS gain_bin,
               count(*)::BIGINT AS n, count(s.expected_gain_bits)::BIGINT AS n_expected,
               count(s.accuracy)::BIGINT AS n_accuracy,
               count(*) FILTER (WHERE NOT p.hand_known)::BIGINT AS n_hand_unknown,
               sum(s.expected_gain_bits) AS sum_expected, sum(s.accuracy) AS sum_accuracy,
               {review_sums("s")}
        FROM suggestions s {join_s} LEFT JOIN players p ON p.game_id = s.game_id AND p.name = s.player
        WHERE {in_s} GROUP BY ALL""",
        selected,
    )


# best: the most accurate, and among equally accurate the most informative; worst: the most bits
# lost, then the least accurate
_RANKED = {
    "best": "{t}.accuracy DESC, {t}.expected_gain_bits DESC, {t}.game_id, {t}.seq",
    "worst": "{t}.bits_lost DESC, {t}.accuracy ASC, {t}.game_id, {t}.seq",
}


def ranked_suggestions(con: Store, filters: GameFilter, key: str, top: int) -> pl.DataFrame:
    """The selection's ``top`` best or worst (``key``) rated suggestions, with their suggester's
    strategy, the game's edition and when it was played."""
    join_s, in_s, selected = selection(filters, "s")
    order = _RANKED[key]
    return con.frame(
        f"""
        WITH t AS (SELECT s.* FROM suggestions s {join_s} WHERE s.bits_lost IS NOT NULL AND {in_s}
                   ORDER BY {order.format(t="s")} LIMIT {int(top)})
        SELECT t.game_id, t.seq, t.player, coalesce(p.strategy, '(not given)') AS strategy,
               t.suspect, t.weapon, t.room, t.shown_by, t.expected_gain_bits, t.best_gain_bits,
               t.best_suspect, t.best_weapon, t.best_room, t.accuracy, t.bits_lost, t.label,
               g.edition, g.played_at
        FROM t JOIN games g USING (game_id)
        LEFT JOIN players p ON p.game_id = t.game_id AND p.name = t.player
        ORDER BY {order.format(t="t")}""",
        selected,
    )


_OUTCOME = "CASE WHEN a.correct THEN 'won' WHEN NOT a.correct THEN 'lost' ELSE 'unknown' END"


def accusation_grain(con: Store, filters: GameFilter) -> pl.DataFrame:
    """Every accusation of the selection, counted by outcome (won, lost, unknown), p_correct bin
    (bin_start), whether it was certain (not :func:`accused_unsure`) and turns waited (10 and more in
    one): accusations, sum_waited."""
    join_a, in_a, selected = selection(filters, "a")
    return con.frame(
        f"""
        SELECT {_OUTCOME} AS outcome,
               CASE WHEN a.p_correct IS NOT NULL THEN least(floor(a.p_correct * 10), 9) / 10 END AS bin_start,
               NOT {accused_unsure("a")} AS certain,
               CASE WHEN a.turns_waited IS NOT NULL THEN least(a.turns_waited, 10) END::INTEGER AS turns_waited,
               count(*)::BIGINT AS accusations, sum(a.turns_waited) AS sum_waited
        FROM accusations a {join_a} WHERE {in_a} GROUP BY ALL""",
        selected,
    )


def guesses(con: Store, filters: GameFilter, won: bool, top: int) -> pl.DataFrame:
    """The selection's ``top`` luckiest guesses (accused unsure and ``won``: the least likely first)
    or unluckiest (unsure and lost: the most likely first)."""
    join_a, in_a, selected = selection(filters, "a")
    correct, order = ("a.correct", "a.p_correct") if won else ("NOT a.correct", "a.p_correct DESC")
    return con.frame(
        f"""
        SELECT a.game_id, a.seq, a.player, a.suspect, a.weapon, a.room, {_OUTCOME} AS outcome, a.p_correct,
               a.first_certain_seq, a.turns_waited, g.winner, g.edition
        FROM accusations a JOIN games g USING (game_id) {join_a}
        WHERE {accused_unsure("a")} AND {correct} AND {in_a}
        ORDER BY {order}, a.game_id, a.seq LIMIT {int(top)}""",
        selected,
    )


def certain_seats(con: Store, filters: GameFilter) -> dict[str, Any]:
    """certain_players (seats whose player became certain) and missed_wins of the selection."""
    join_p, in_p, selected = selection(filters, "p")
    return con.one(
        f"""
        SELECT count(*) FILTER (WHERE p.first_certain_seq IS NOT NULL)::BIGINT AS certain_players,
               count(*) FILTER (WHERE p.missed_win)::BIGINT AS missed_wins
        FROM players p {join_p} WHERE {in_p}""",
        selected,
    )


def missed_wins(con: Store, filters: GameFilter, limit: int) -> pl.DataFrame:
    """The selection's missed wins (``players.missed_win``), the latest played first: game_id, player,
    first_certain_seq, the accusation they made (accused_at, accused_correct), winner, played_at."""
    join_p, in_p, selected = selection(filters, "p")
    return con.frame(
        f"""
        WITH m AS (SELECT p.game_id, p.name, p.first_certain_seq FROM players p {join_p}
                   WHERE p.missed_win AND {in_p})
        SELECT m.game_id, m.name AS player, m.first_certain_seq, a.seq AS accused_at,
               a.correct AS accused_correct, g.winner, g.played_at
        FROM m JOIN games g USING (game_id)
        LEFT JOIN accusations a ON a.game_id = m.game_id AND a.player = m.name
        ORDER BY g.played_at DESC NULLS LAST, m.game_id, m.first_certain_seq LIMIT {int(limit)}""",
        selected,
    )
