"""Cross-game summaries of the stored analysis: suggestions and accusations over a selection of games.

Pure reads of the stored columns (no metric is computed again here: missed wins are
``players.missed_win``, labels ``suggestions.label``), usable from Python without Streamlit; the
dashboard's query module caches them. Everything a chart shows is aggregated in DuckDB first.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from clue_stats.analysis.computers.suggestions import review_accuracy_of
from clue_stats.analysis.corpus.review_accuracy import BEST, EXPECTED, REVIEWED, review_sums, with_review_accuracy
from clue_stats.ingest.store import GameFilter, Store, selection

TOP = 10  # best and worst suggestions, lucky and unlucky guesses, ... per list
MISSED_LIMIT = 200  # missed wins listed (newest first)


def _one(con: Store, sql: str, params: list[Any]) -> dict[str, Any]:
    rows = con.frame(sql, params).to_dicts()
    return rows[0] if rows else {}


def _games(con: Store, filters: GameFilter) -> tuple[int, int]:
    """The games the filters select, and how many of them the counting budget analysed only partly."""
    where, params = filters.where("g")
    row = _one(
        con,
        f"SELECT count(*)::BIGINT AS n, count(g.analysis_cut)::BIGINT AS cut FROM games g WHERE {where}",
        params,
    )
    return int(row["n"]), int(row["cut"])


def _bins(column: str, width: float) -> str:
    """The left edge of a histogram bin, computed in SQL (accuracy 1 falls in the last bin)."""
    if column.endswith("accuracy"):
        # least() skips NULLs in DuckDB, so an unrated suggestion must be kept out explicitly
        return f"CASE WHEN {column} IS NOT NULL THEN least(floor({column} / {width}), {round(1 / width) - 1}) * {width} END"
    return f"floor({column} / {width}) * {width}"


def suggestion_summary(con: Store, filters: GameFilter = GameFilter()) -> dict[str, Any]:
    """Gains, accuracy and labels of the selection's suggestions: totals (with how many are not
    rated because the log does not hold the suggester's hand), histograms, per strategy and per
    player, label counts, and the best and worst suggestions.

    One pass joins the suggestions to their suggesters' seats and counts them at the finest grain any
    figure needs (strategy, player, label, accuracy bin, gain bin); every figure is then a sum over
    that small table. At 100,000 games the join is the costly part, so it is done once."""
    join_s, in_s, selected = selection(filters, "s")
    games, cut = _games(con, filters)
    grain = con.frame(
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
    ranked = {}
    # best: the most accurate, and among equally accurate the most informative; worst: the most bits
    # lost, then the least accurate
    for key, order in (
        ("best", "{t}.accuracy DESC, {t}.expected_gain_bits DESC, {t}.game_id, {t}.seq"),
        ("worst", "{t}.bits_lost DESC, {t}.accuracy ASC, {t}.game_id, {t}.seq"),
    ):
        ranked[key] = con.frame(
            f"""
            WITH t AS (SELECT s.* FROM suggestions s {join_s} WHERE s.bits_lost IS NOT NULL AND {in_s}
                       ORDER BY {order.format(t="s")} LIMIT {TOP})
            SELECT t.game_id, t.seq, t.player, coalesce(p.strategy, '(not given)') AS strategy,
                   t.suspect, t.weapon, t.room, t.shown_by, t.expected_gain_bits, t.best_gain_bits,
                   t.best_suspect, t.best_weapon, t.best_room, t.accuracy, t.bits_lost, t.label,
                   g.edition, g.played_at
            FROM t JOIN games g USING (game_id)
            LEFT JOIN players p ON p.game_id = t.game_id AND p.name = t.player
            ORDER BY {order.format(t="t")}""",
            selected,
        )
    return {"totals": _suggestion_totals(grain, games, cut), **_suggestion_figures(grain), **ranked}


def _by(grain: pl.DataFrame, by: str) -> pl.DataFrame:
    return with_review_accuracy(
        grain.group_by(by)
        .agg(
            pl.col("n").sum().alias("suggestions"),
            pl.col("n_accuracy").sum().alias("rated"),
            pl.col("n_hand_unknown").sum().alias("hand_not_in_the_log"),
            (pl.col("sum_expected").sum() / pl.col("n_expected").sum()).alias("mean_expected_gain"),
            pl.col("sum_accuracy").sum().alias("sum_accuracy"),
            pl.col(EXPECTED).sum(),
            pl.col(BEST).sum(),
            pl.col(REVIEWED).sum(),
        )
        .with_columns(
            pl.when(pl.col("rated") > 0).then(pl.col("sum_accuracy") / pl.col("rated")).alias("mean_accuracy"),
        )
        .drop("sum_accuracy")
        .sort(["suggestions", by], descending=[True, False])
    ).drop(REVIEWED)


def _suggestion_totals(grain: pl.DataFrame, games: int, cut: int = 0) -> dict[str, Any]:
    def total(column: str) -> Any:
        return grain[column].sum() if grain.height else 0

    n_expected, n_accuracy = int(total("n_expected")), int(total("n_accuracy"))
    return {
        "games": games,
        # games whose analysis the counting budget cut (games.analysis_cut): some of their
        # suggestions' review or expected gain was left out
        "games_cut": cut,
        "suggestions": int(total("n")),
        "with_expected": n_expected,
        "with_accuracy": n_accuracy,
        "hand_not_in_the_log": int(total("n_hand_unknown")),
        # rated, in games stored without analysis (`ingest --no-analyse`): `clue-stats analyse` computes it
        "not_analysed": int(total("n")) - n_expected - int(total("n_hand_unknown")),
        # with an expected gain, not yet reviewed (`ingest --light`): `clue-stats analyse` completes it
        "awaiting_review": n_expected - n_accuracy,
        "mean_expected_gain": total("sum_expected") / n_expected if n_expected else None,
        "mean_accuracy": total("sum_accuracy") / n_accuracy if n_accuracy else None,
        "review_accuracy": review_accuracy_of(total(EXPECTED), total(BEST), int(total(REVIEWED))),
    }


def _suggestion_figures(grain: pl.DataFrame) -> dict[str, pl.DataFrame]:
    return {
        "gains": grain.filter(pl.col("gain_bin").is_not_null())
        .group_by("gain_bin")
        .agg(pl.col("n").sum().alias("suggestions"))
        .rename({"gain_bin": "bin_start"})
        .sort("bin_start"),
        "accuracy": grain.filter(pl.col("accuracy_bin").is_not_null())
        .group_by("strategy", "accuracy_bin")
        .agg(pl.col("n").sum().alias("suggestions"))
        .rename({"accuracy_bin": "bin_start"})
        .sort("strategy", "bin_start"),
        "by_strategy": _by(grain, "strategy"),
        "by_player": _by(grain, "player").head(50),
        "labels": grain.filter(pl.col("label").is_not_null())
        .group_by("strategy", "label")
        .agg(pl.col("n").sum().alias("suggestions"))
        .sort("strategy", "label"),
    }


def accusation_summary(con: Store, filters: GameFilter = GameFilter()) -> dict[str, Any]:
    """p_correct and turns waited of the selection's accusations, lucky and unlucky guesses, and the
    missed wins (``players.missed_win``) with the players who were certain."""
    join_a, in_a, selected = selection(filters, "a")
    join_p, in_p, _ = selection(filters, "p")
    outcome = "CASE WHEN a.correct THEN 'won' WHEN NOT a.correct THEN 'lost' ELSE 'unknown' END"
    columns = f"""a.game_id, a.seq, a.player, a.suspect, a.weapon, a.room, {outcome} AS outcome, a.p_correct,
                 a.first_certain_seq, a.turns_waited, g.winner, g.edition"""
    games, _ = _games(con, filters)
    # every accusation of the selection, counted by outcome, p_correct bin and turns waited
    grain = con.frame(
        f"""
        SELECT {outcome} AS outcome,
               CASE WHEN a.p_correct IS NOT NULL THEN least(floor(a.p_correct * 10), 9) / 10 END AS bin_start,
               a.p_correct >= 1 AS certain,
               CASE WHEN a.turns_waited IS NOT NULL THEN least(a.turns_waited, 10) END::INTEGER AS turns_waited,
               count(*)::BIGINT AS accusations, sum(a.turns_waited) AS sum_waited
        FROM accusations a {join_a} WHERE {in_a} GROUP BY ALL""",
        selected,
    )
    lucky = con.frame(
        f"""
        SELECT {columns} FROM accusations a JOIN games g USING (game_id) {join_a}
        WHERE a.p_correct < 1 AND a.correct AND {in_a}
        ORDER BY a.p_correct, a.game_id, a.seq LIMIT {TOP}""",
        selected,
    )
    unlucky = con.frame(
        f"""
        SELECT {columns} FROM accusations a JOIN games g USING (game_id) {join_a}
        WHERE a.p_correct < 1 AND NOT a.correct AND {in_a}
        ORDER BY a.p_correct DESC, a.game_id, a.seq LIMIT {TOP}""",
        selected,
    )
    seats = _one(
        con,
        f"""
        SELECT count(*) FILTER (WHERE p.first_certain_seq IS NOT NULL)::BIGINT AS certain_players,
               count(*) FILTER (WHERE p.missed_win)::BIGINT AS missed_wins
        FROM players p {join_p} WHERE {in_p}""",
        selected,
    )
    missed = con.frame(
        f"""
        WITH m AS (SELECT p.game_id, p.name, p.first_certain_seq FROM players p {join_p}
                   WHERE p.missed_win AND {in_p})
        SELECT m.game_id, m.name AS player, m.first_certain_seq, a.seq AS accused_at,
               a.correct AS accused_correct, g.winner, g.played_at
        FROM m JOIN games g USING (game_id)
        LEFT JOIN accusations a ON a.game_id = m.game_id AND a.player = m.name
        ORDER BY g.played_at DESC NULLS LAST, m.game_id, m.first_certain_seq LIMIT {MISSED_LIMIT}""",
        selected,
    )

    def total(condition: pl.Expr | None = None) -> int:
        rows = grain if condition is None else grain.filter(condition)
        return int(rows["accusations"].sum()) if rows.height else 0

    timed = grain.filter(pl.col("turns_waited").is_not_null())
    guess = pl.col("certain").not_()  # NULL (no p_correct) stays out
    totals = {
        "games": games,
        "accusations": total(),
        "correct": total(pl.col("outcome") == "won"),
        "wrong": total(pl.col("outcome") == "lost"),
        "with_p_correct": total(pl.col("bin_start").is_not_null()),
        "certain": total(pl.col("certain").fill_null(False)),
        "guesses": total(guess),
        "guesses_won": total(guess & (pl.col("outcome") == "won")),
        "guesses_lost": total(guess & (pl.col("outcome") == "lost")),
        "mean_turns_waited": float(timed["sum_waited"].sum()) / float(timed["accusations"].sum())
        if timed.height
        else None,
        **seats,
    }
    p_correct = (
        grain.filter(pl.col("bin_start").is_not_null())
        .group_by("outcome", "bin_start")
        .agg(pl.col("accusations").sum())
        .sort("outcome", "bin_start")
    )
    waited = timed.group_by("turns_waited", "outcome").agg(pl.col("accusations").sum()).sort("turns_waited", "outcome")
    return {
        "totals": totals,
        "p_correct": p_correct,
        "waited": waited,
        "lucky": lucky,
        "unlucky": unlucky,
        "missed": missed,
    }
