"""Cross-game summaries of the stored analysis: suggestions and accusations over a selection of games.

Pure reads of the stored columns (no metric is computed again here: missed wins are
``players.missed_win``, labels ``suggestions.label``), usable from Python without Streamlit; the
dashboard's query module caches them. Everything a chart shows is aggregated in DuckDB first.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from clue_stats.analysis.computers.accuracy import review_accuracy_of
from clue_stats.analysis.corpus.review_accuracy import with_review_accuracy
from clue_stats.ingest.store import GameFilter, Store
from clue_stats.ingest.store.queries import summaries as reads
from clue_stats.ingest.store.queries.fragments import BEST, EXPECTED, REVIEWED

TOP = 10  # best and worst suggestions, lucky and unlucky guesses, ... per list
MISSED_LIMIT = 200  # missed wins listed (newest first)


def suggestion_summary(con: Store, filters: GameFilter = GameFilter()) -> dict[str, Any]:
    """Gains, accuracy and labels of the selection's suggestions: totals (with how many are not
    rated because the log does not hold the suggester's hand), histograms, per strategy and per
    player, label counts, and the best and worst suggestions.

    One pass joins the suggestions to their suggesters' seats and counts them at the finest grain any
    figure needs (strategy, player, label, accuracy bin, gain bin); every figure is then a sum over
    that small table. At 100,000 games the join is the costly part, so it is done once."""
    games, cut = reads.games_and_cut(con, filters)
    grain = reads.suggestion_grain(con, filters)
    ranked = {key: reads.ranked_suggestions(con, filters, key, TOP) for key in ("best", "worst")}
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
    games, _ = reads.games_and_cut(con, filters)
    grain = reads.accusation_grain(con, filters)
    lucky, unlucky = (reads.guesses(con, filters, won, TOP) for won in (True, False))
    seats = reads.certain_seats(con, filters)
    missed = reads.missed_wins(con, filters, MISSED_LIMIT)

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
