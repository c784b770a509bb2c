"""Every read the dashboard makes, in one place: cached, over short-lived read-only connections.

Pages never open the database themselves. Each function here takes the database path, a *version*
token and the filters; the token changes whenever the file does (an ingest wrote to it), so a cached
result is never served for a database that has moved on, and nothing has to be invalidated by hand.
Connections come from ``analysis.store_read.open_store``: read-only, and retrying for a few seconds
while ``clue-stats ingest`` holds the file, so the dashboard and ingest can run side by side.

User values (filters, game ids, names) always travel as SQL parameters, never inside the SQL text.
Everything that could reach Altair is aggregated in DuckDB first (Altair refuses over 5,000 rows).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import streamlit as st

from clue_stats.analysis import league as league_stats
from clue_stats.analysis import names, store_read, timeline
from clue_stats.analysis import players as player_stats
from clue_stats.analysis import positions as position_stats
from clue_stats.analysis.store_read import KINDS, PEOPLE, GameFilter, GameNotFound, StoreBusy, StoreError, people_first
from clue_stats.ingest import store

__all__ = [
    "KINDS",
    "PEOPLE",
    "people_first",
    "GameFilter",
    "GameNotFound",
    "StoreBusy",
    "StoreError",
    "WAIT_SECONDS",
    "database_path",
    "store_version",
    "filter_choices",
    "selection_size",
    "games_by_players",
    "games_by_edition",
    "edition_name",
    "overview",
    "game_choices",
    "replay_game",
    "replay_timeline",
    "notebook",
    "suggestion_stats",
    "accusation_stats",
    "position_effects",
    "player_summary",
    "league_view",
    "league_board",
    "league_details",
    "data_quality",
    "rejected_problems",
]

WAIT_SECONDS = 5.0  # a page waits this long for an ingest batch to finish, then says the store is busy
CACHE: dict[str, Any] = dict(show_spinner=False, max_entries=256, ttl=3600)
GAME_LIST_LIMIT = 2000  # games offered in the replay's chooser (newest first); any id can be typed
TOP = 10  # best and worst suggestions, lucky and unlucky guesses, ... shown per list
SUGGESTION_CARDS = ("suspect", "weapon", "room", "best_suspect", "best_weapon", "best_room", "shown_card")


# ---------------------------------------------------------------- where the database is


def database_path(argv: Sequence[str] | None = None, environ: dict[str, str] | None = None) -> Path:
    """The database the app shows: ``--db FILE`` after ``streamlit run app.py --``, else
    ``$CLUE_STATS_DB``, else clue.duckdb in the working directory (as every command)."""
    args = list(sys.argv[1:] if argv is None else argv)
    for i, arg in enumerate(args):
        if arg == "--db" and i + 1 < len(args):
            return Path(args[i + 1]).expanduser().resolve()
        if arg.startswith("--db="):
            return Path(arg[len("--db=") :]).expanduser().resolve()
    return Path(store.database(None, environ)).expanduser().resolve()


def store_version(path: str | Path) -> str:
    """A token that changes whenever the database file (or its write-ahead log) changes."""
    parts = []
    for candidate in (Path(path), Path(f"{path}.wal")):
        try:
            st_ = candidate.stat()
        except FileNotFoundError:
            parts.append("-")
            continue
        parts.append(f"{st_.st_mtime_ns}:{st_.st_size}")
    return "/".join(parts)


def _frame(con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[Any] = ()) -> pl.DataFrame:
    # duckdb 2: a relation's .pl() fetches the whole result, so the next query may follow at once
    return con.sql(sql, params=list(params)).pl()


def _one(con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[Any] = ()) -> dict[str, Any]:
    rows = _frame(con, sql, params).to_dicts()
    return rows[0] if rows else {}


def _selection(filters: GameFilter, alias: str) -> tuple[str, str, list[Any]]:
    """(join, condition, parameters) that keep the rows of ``alias`` whose game the filters select.
    Nothing at all without filters, so that an unfiltered page pays for no join; with filters an
    explicit join, which DuckDB runs faster than ``game_id IN (subquery)`` on millions of rows."""
    if filters == GameFilter():
        return "", "TRUE", []
    where, params = filters.where("sel_g")
    return f"JOIN games sel_g ON sel_g.game_id = {alias}.game_id", where, params


# ---------------------------------------------------------------- filters and overview


@st.cache_data(**CACHE)
def filter_choices(path: str, version: str) -> dict[str, list[Any]]:
    """The values each sidebar filter can take (editions, variants, player counts, sources, dates)."""
    with store_read.open_store(path, WAIT_SECONDS) as con:
        return store_read.filter_choices(con)


@st.cache_data(**CACHE)
def selection_size(path: str, version: str, filters: GameFilter) -> int:
    """How many stored games the filters select."""
    where, params = filters.where("g")
    with store_read.open_store(path, WAIT_SECONDS) as con:
        return int(_one(con, f"SELECT count(*)::BIGINT AS n FROM games g WHERE {where}", params)["n"])


@st.cache_data(**CACHE)
def games_by_players(path: str, version: str, filters: GameFilter) -> dict[int, int]:
    """How many games of the selection were played by each number of players."""
    where, params = filters.where("g")
    with store_read.open_store(path, WAIT_SECONDS) as con:
        rows = _frame(
            con, f"SELECT g.n_players, count(*)::BIGINT AS games FROM games g WHERE {where} GROUP BY ALL", params
        )
    return {int(n): int(g) for n, g in rows.iter_rows()}


@st.cache_data(**CACHE)
def games_by_edition(path: str, version: str, filters: GameFilter) -> tuple[list[str], list[int]]:
    """How many games of the selection each edition has (editions, counts)."""
    where, params = filters.where("g")
    with store_read.open_store(path, WAIT_SECONDS) as con:
        rows = _frame(
            con, f"SELECT g.edition, count(*)::BIGINT AS games FROM games g WHERE {where} GROUP BY ALL", params
        )
    return rows["edition"].to_list(), [int(g) for g in rows["games"].to_list()]


def edition_name(edition: str) -> str:
    """An edition's own name, for headings."""
    return names.edition_name(edition)


@st.cache_data(**CACHE)
def overview(path: str, version: str, filters: GameFilter) -> dict[str, Any]:
    """Counts of the selection and its games by edition, player count, source and month."""
    where, where_params = filters.where("g")
    join_p, in_p, in_params = _selection(filters, "p")
    with store_read.open_store(path, WAIT_SECONDS) as con:
        totals = _one(
            con,
            f"""
            SELECT count(*)::BIGINT AS games,
                   count(DISTINCT g.edition)::BIGINT AS editions,
                   count(DISTINCT g.source)::BIGINT AS sources,
                   count(*) FILTER (WHERE g.analysis_version IS NOT NULL)::BIGINT AS analysed,
                   count(*) FILTER (WHERE g.hands_known < g.n_players)::BIGINT AS hands_unknown,
                   count(*) FILTER (WHERE g.winner IS NOT NULL)::BIGINT AS won,
                   count(*) FILTER (WHERE g.played_at IS NULL)::BIGINT AS undated
            FROM games g WHERE {where}""",
            where_params,
        )
        totals["players"] = _one(
            con, f"SELECT count(DISTINCT p.name)::BIGINT AS n FROM players p {join_p} WHERE {in_p}", in_params
        )["n"]
        totals["stored_total"] = _one(con, "SELECT count(*)::BIGINT AS n FROM games")["n"]
        totals["rejected"] = _one(con, "SELECT count(*)::BIGINT AS n FROM rejected")["n"]
        by_edition = _frame(
            con,
            f"""
            SELECT g.edition, g.variant, count(*)::BIGINT AS games FROM games g WHERE {where}
            GROUP BY ALL ORDER BY games DESC, g.edition, g.variant""",
            where_params,
        )
        by_players = _frame(
            con,
            f"""
            SELECT g.n_players, count(*)::BIGINT AS games FROM games g WHERE {where}
            GROUP BY ALL ORDER BY g.n_players""",
            where_params,
        )
        by_kind = _frame(
            con, "SELECT kind, count(*)::BIGINT AS games FROM games GROUP BY ALL ORDER BY games DESC, kind"
        )
        by_source = _frame(
            con,
            f"""
            SELECT coalesce(g.source, '(not given)') AS source, count(*)::BIGINT AS games,
                   count(*) FILTER (WHERE g.analysis_version IS NOT NULL)::BIGINT AS analysed,
                   min(left(g.played_at, 10)) AS first_played, max(left(g.played_at, 10)) AS last_played
            FROM games g WHERE {where} GROUP BY ALL ORDER BY games DESC, source""",
            where_params,
        )
        by_month = _frame(
            con,
            f"""
            SELECT left(g.played_at, 7) AS month, count(*)::BIGINT AS games FROM games g
            WHERE {where} AND g.played_at IS NOT NULL GROUP BY ALL ORDER BY month""",
            where_params,
        )
    by_edition = by_edition.with_columns(
        pl.col("edition").map_elements(names.edition_name, return_dtype=pl.Utf8).alias("edition")
    )
    return {
        "totals": totals,
        "by_kind": by_kind,
        "by_edition": by_edition,
        "by_players": by_players,
        "by_source": by_source,
        "by_month": by_month,
    }


# ---------------------------------------------------------------- one game


@st.cache_data(**CACHE)
def game_choices(path: str, version: str, filters: GameFilter) -> tuple[pl.DataFrame, int]:
    """The newest games of the selection (at most GAME_LIST_LIMIT) and how many there are in all."""
    where, params = filters.where("g")
    with store_read.open_store(path, WAIT_SECONDS) as con:
        total = _one(con, f"SELECT count(*)::BIGINT AS n FROM games g WHERE {where}", params)["n"]
        games = _frame(
            con,
            f"""
            SELECT g.game_id, g.played_at, g.edition, g.variant, g.n_players, g.winner
            FROM games g WHERE {where}
            ORDER BY g.played_at DESC NULLS LAST, g.ingested_at DESC, g.game_id LIMIT ?""",
            [*params, GAME_LIST_LIMIT],
        )
    return games, total


@dataclass(frozen=True)
class GameData:
    """What the replay shows of one stored game, besides the deduction: the game as rebuilt from
    its records and its stored rows (players, records, and the analysis where computed)."""

    game: Any  # engine.game.Game, rebuilt by analysis.store_read.stored_game
    header: dict[str, Any]
    players: pl.DataFrame
    events: pl.DataFrame
    suggestions: pl.DataFrame
    accusations: pl.DataFrame
    problems: pl.DataFrame


@st.cache_data(**CACHE)
def replay_game(path: str, version: str, game_id: str) -> GameData:
    """One game and its rows; raises GameNotFound for an unknown id."""
    with store_read.open_store(path, WAIT_SECONDS) as con:
        stored = store_read.stored_game(con, game_id)
    t = stored.tables
    return GameData(
        game=stored.game,
        header=stored.header,
        players=t["players"],
        events=t["events"].select("seq", "line", "type", "player", "payload"),
        suggestions=t["suggestions"],
        accusations=t["accusations"],
        problems=t["problems"].select("seq", "line", "code", "severity", "message"),
    )


@st.cache_data(**CACHE)
def replay_timeline(path: str, version: str, game_id: str) -> tuple[pl.DataFrame, dict[str, int | None]]:
    """Envelope entropy of every observer after every record, and when each player became certain.

    Computed by the deduction engine (through analysis.timeline) rather than read from the
    ``information`` table, so that a game stored with ``--no-analyse`` can be replayed as well."""
    game = replay_game(path, version, game_id).game
    return timeline.entropy_frame(game), dict(timeline.certainty(game))


@st.cache_data(**CACHE)
def notebook(path: str, version: str, game_id: str, observer: str | None, seq: int) -> pl.DataFrame:
    """The observer's notebook after record ``seq``: card, category, place, probability."""
    game = replay_game(path, version, game_id).game
    return timeline.notebook_frame(game, observer, seq)


# ---------------------------------------------------------------- suggestions


def _bins(column: str, width: float) -> str:
    """The left edge of a histogram bin, computed in SQL (accuracy 1 falls in the last bin)."""
    if column.endswith("accuracy"):
        # least() skips NULLs in DuckDB, so an unrated suggestion must be kept out explicitly
        return f"CASE WHEN {column} IS NOT NULL THEN least(floor({column} / {width}), {round(1 / width) - 1}) * {width} END"
    return f"floor({column} / {width}) * {width}"


@st.cache_data(**CACHE)
def suggestion_stats(path: str, version: str, filters: GameFilter) -> dict[str, Any]:
    """Gains and accuracy of the selection's suggestions: totals, histograms, per strategy and per
    player, label counts, and the best and worst suggestions.

    One pass joins the suggestions to their suggesters' strategies and counts them at the finest
    grain any figure needs (strategy, player, label, accuracy bin, gain bin); every figure is then a
    sum over that small table. At 100,000 games the join is the costly part, so it is done once per
    page rather than once per figure."""
    where, params = filters.where("g")
    join_s, in_s, selected = _selection(filters, "s")
    with store_read.open_store(path, WAIT_SECONDS) as con:
        games = _one(con, f"SELECT count(*)::BIGINT AS n FROM games g WHERE {where}", params)["n"]
        grain = _frame(
            con,
            f"""
            SELECT coalesce(p.strategy, '(not given)') AS strategy, s.player, s.label,
                   {_bins("s.accuracy", 0.05)} AS accuracy_bin, {_bins("s.expected_gain_bits", 0.25)} AS gain_bin,
                   count(*)::BIGINT AS n, count(s.expected_gain_bits)::BIGINT AS n_expected,
                   count(s.accuracy)::BIGINT AS n_accuracy,
                   sum(s.expected_gain_bits) AS sum_expected, sum(s.accuracy) AS sum_accuracy
            FROM suggestions s {join_s} LEFT JOIN players p ON p.game_id = s.game_id AND p.name = s.player
            WHERE {in_s} GROUP BY ALL""",
            selected,
        )
        ranked = {}
        # best: the most accurate, and among equally accurate the most informative; worst: the reverse
        for key, order in (
            ("best", "{t}.accuracy DESC NULLS LAST, {t}.expected_gain_bits DESC, {t}.game_id, {t}.seq"),
            ("worst", "{t}.accuracy ASC NULLS LAST, {t}.expected_gain_bits ASC, {t}.game_id, {t}.seq"),
        ):
            ranked[key] = _frame(
                con,
                f"""
                WITH t AS (SELECT s.* FROM suggestions s {join_s} WHERE s.expected_gain_bits IS NOT NULL AND {in_s}
                           ORDER BY {order.format(t="s")} LIMIT {TOP})
                SELECT t.game_id, t.seq, t.player, coalesce(p.strategy, '(not given)') AS strategy,
                       t.suspect, t.weapon, t.room, t.shown_by, t.expected_gain_bits, t.best_gain_bits,
                       t.best_suspect, t.best_weapon, t.best_room, t.accuracy, t.label, g.edition, g.played_at
                FROM t JOIN games g USING (game_id)
                LEFT JOIN players p ON p.game_id = t.game_id AND p.name = t.player
                ORDER BY {order.format(t="t")}""",
                selected,
            )
            ranked[key] = names.name_columns(ranked[key], SUGGESTION_CARDS, con)
    return {"totals": _suggestion_totals(grain, games), **_suggestion_figures(grain), **ranked}


def _summary(grain: pl.DataFrame, by: str) -> pl.DataFrame:
    return (
        grain.group_by(by)
        .agg(
            pl.col("n").sum().alias("suggestions"),
            (pl.col("sum_expected").sum() / pl.col("n_expected").sum()).alias("mean_expected_gain"),
            (pl.col("sum_accuracy").sum() / pl.col("n_accuracy").sum()).alias("mean_accuracy"),
            pl.col("n_accuracy").sum().alias("rated"),
        )
        .with_columns(
            pl.when(pl.col("rated") > 0).then(pl.col("mean_accuracy")).otherwise(None).alias("mean_accuracy"),
        )
        .sort(["suggestions", by], descending=[True, False])
    )


def _suggestion_totals(grain: pl.DataFrame, games: int) -> dict[str, Any]:
    n_expected = int(grain["n_expected"].sum()) if grain.height else 0
    n_accuracy = int(grain["n_accuracy"].sum()) if grain.height else 0
    return {
        "games": games,
        "suggestions": int(grain["n"].sum()) if grain.height else 0,
        "with_expected": n_expected,
        "with_accuracy": n_accuracy,
        "mean_expected_gain": grain["sum_expected"].sum() / n_expected if n_expected else None,
        "mean_accuracy": grain["sum_accuracy"].sum() / n_accuracy if n_accuracy else None,
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
        "by_strategy": _summary(grain, "strategy"),
        "by_player": _summary(grain, "player").head(50),
        "labels": grain.filter(pl.col("label").is_not_null())
        .group_by("strategy", "label")
        .agg(pl.col("n").sum().alias("suggestions"))
        .sort("strategy", "label"),
    }


# ---------------------------------------------------------------- accusations


@st.cache_data(**CACHE)
def accusation_stats(path: str, version: str, filters: GameFilter) -> dict[str, Any]:
    """p_correct and turns waited of the selection's accusations, missed wins, lucky and unlucky guesses."""
    where, params = filters.where("g")
    join_a, in_a, selected = _selection(filters, "a")
    join_p, in_p, _ = _selection(filters, "p")
    outcome = "CASE WHEN a.correct THEN 'won' WHEN NOT a.correct THEN 'lost' ELSE 'unknown' END"
    columns = f"""a.game_id, a.seq, a.player, a.suspect, a.weapon, a.room, {outcome} AS outcome, a.p_correct,
                 a.first_certain_seq, a.turns_waited, g.winner, g.edition"""
    with store_read.open_store(path, WAIT_SECONDS) as con:
        games = _one(con, f"SELECT count(*)::BIGINT AS n FROM games g WHERE {where}", params)["n"]
        # every accusation of the selection, counted by outcome, p_correct bin and turns waited
        grain = _frame(
            con,
            f"""
            SELECT {outcome} AS outcome,
                   CASE WHEN a.p_correct IS NOT NULL THEN least(floor(a.p_correct * 10), 9) / 10 END AS bin_start,
                   a.p_correct >= 1 AS certain,
                   CASE WHEN a.turns_waited IS NOT NULL THEN least(a.turns_waited, 10) END::INTEGER AS turns_waited,
                   count(*)::BIGINT AS accusations, sum(a.turns_waited) AS sum_waited
            FROM accusations a {join_a} WHERE {in_a} GROUP BY ALL""",
            selected,
        )
        lucky = _frame(
            con,
            f"""
            SELECT {columns} FROM accusations a JOIN games g USING (game_id) {join_a}
            WHERE a.p_correct < 1 AND a.correct AND {in_a}
            ORDER BY a.p_correct, a.game_id, a.seq LIMIT {TOP}""",
            selected,
        )
        unlucky = _frame(
            con,
            f"""
            SELECT {columns} FROM accusations a JOIN games g USING (game_id) {join_a}
            WHERE a.p_correct < 1 AND NOT a.correct AND {in_a}
            ORDER BY a.p_correct DESC, a.game_id, a.seq LIMIT {TOP}""",
            selected,
        )
        # a missed win: the player was certain of the solution at some record, and did not win
        seats = _one(
            con,
            f"""
            SELECT count(*) FILTER (WHERE p.first_certain_seq IS NOT NULL)::BIGINT AS certain_players,
                   count(*) FILTER (WHERE p.first_certain_seq IS NOT NULL AND NOT p.won)::BIGINT AS missed_wins
            FROM players p {join_p} WHERE {in_p}""",
            selected,
        )
        missed = _frame(
            con,
            f"""
            WITH m AS (SELECT p.game_id, p.name, p.first_certain_seq FROM players p {join_p}
                       WHERE p.first_certain_seq IS NOT NULL AND NOT p.won AND {in_p})
            SELECT m.game_id, m.name AS player, m.first_certain_seq, a.seq AS accused_at,
                   a.correct AS accused_correct, g.winner, g.played_at
            FROM m JOIN games g USING (game_id)
            LEFT JOIN accusations a ON a.game_id = m.game_id AND a.player = m.name
            ORDER BY g.played_at DESC NULLS LAST, m.game_id, m.first_certain_seq LIMIT 200""",
            selected,
        )
        lucky, unlucky = (names.name_columns(f, ("suspect", "weapon", "room"), con) for f in (lucky, unlucky))

    def total(condition: pl.Expr | None = None) -> int:
        rows = grain if condition is None else grain.filter(condition)
        return int(rows["accusations"].sum()) if rows.height else 0

    timed = grain.filter(pl.col("turns_waited").is_not_null())
    totals = {
        "games": games,
        "accusations": total(),
        "correct": total(pl.col("outcome") == "won"),
        "wrong": total(pl.col("outcome") == "lost"),
        "with_p_correct": total(pl.col("bin_start").is_not_null()),
        "certain": total(pl.col("certain").fill_null(False)),
        "guesses": total(pl.col("certain") == False),  # noqa: E712 (a polars comparison; NULL stays out)
        "guesses_won": total((pl.col("certain") == False) & (pl.col("outcome") == "won")),  # noqa: E712
        "guesses_lost": total((pl.col("certain") == False) & (pl.col("outcome") == "lost")),  # noqa: E712
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


# ---------------------------------------------------------------- corpus statistics from analysis


@st.cache_data(**CACHE)
def position_effects(path: str, version: str, filters: GameFilter, dimension: str) -> dict[str, pl.DataFrame]:
    """Starting-position effects (analysis.positions) for one dimension: "turn_order" (with the
    chi-square test over seats), "character" or "start_square". One dimension at a time, because
    each is a scan of every seat of the selection and a page shows one."""
    with store_read.open_store(path, WAIT_SECONDS) as con:
        effects = position_stats.position_effects(con, dimension, filters)
        if dimension == "character":
            effects = names.name_columns(effects, ["character"])
        test = position_stats.seat_test(con, filters) if dimension == "turn_order" else None
    return {"effects": effects, **({"seat_test": test} if test is not None else {})}


@st.cache_data(**CACHE)
def player_summary(path: str, version: str, filters: GameFilter, by: str) -> pl.DataFrame:
    """Per player (or strategy): games, wins, accuracy, turns waited, missed wins (analysis.players)."""
    with store_read.open_store(path, WAIT_SECONDS) as con:
        return player_stats.player_summary(con, filters, by=by)


# ---------------------------------------------------------------- the league (analysis.league)


@st.cache_data(**CACHE)
def league_view(path: str, version: str, filters: GameFilter, wanted: str | None) -> dict[str, Any]:
    """The Players page's first read, over one connection: the selection's size, its rated pools
    (pool, games, players, enough) and the leaderboard of the pool ``wanted`` (when it has enough
    games; else of the people's, else of the first that has): selected, pools, pool, board."""
    where, params = filters.where("g")
    with store_read.open_store(path, WAIT_SECONDS) as con:
        selected = _one(con, f"SELECT count(*)::BIGINT AS n FROM games g WHERE {where}", params)["n"]
        pools = league_stats.pool_sizes(con, filters)
        options = pools.filter(pl.col("enough"))["pool"].to_list()
        pool = wanted if wanted in options else ("people" if "people" in options else next(iter(options), None))
        board = league_stats.leaderboard(con, pool, filters) if pool is not None else pl.DataFrame()
    return {"selected": selected, "pools": pools, "pool": pool, "board": board}


@st.cache_data(**CACHE)
def league_board(path: str, version: str, filters: GameFilter, pool: str) -> pl.DataFrame:
    """The pool's leaderboard over the selection (analysis.league.leaderboard)."""
    with store_read.open_store(path, WAIT_SECONDS) as con:
        return league_stats.leaderboard(con, pool, filters)


@st.cache_data(**CACHE)
def league_details(
    path: str,
    version: str,
    filters: GameFilter,
    pool: str,
    course: tuple[str, ...],
    player: str | None,
    leaders: tuple[str, ...],
) -> dict[str, pl.DataFrame]:
    """What the Players page shows below its leaderboard, over one connection: the course of some
    players over time (``history``), one player's best and worst suggestions and head-to-head, and
    the head-to-head matrix of the leaders (analysis.league)."""
    empty = pl.DataFrame()
    with store_read.open_store(path, WAIT_SECONDS) as con:
        picks = league_stats.suggestions_of(con, pool, player, filters) if player is not None else {}
        return {
            "history": league_stats.history(con, pool, list(course), filters) if course else empty,
            "best": picks.get("best", empty),
            "worst": picks.get("worst", empty),
            "versus": league_stats.head_to_head(con, pool, [player], None, filters) if player is not None else empty,
            "matrix": league_stats.head_to_head(con, pool, list(leaders), list(leaders), filters)
            if len(leaders) >= 2
            else empty,
        }


# ---------------------------------------------------------------- data quality


@st.cache_data(**CACHE)
def data_quality(path: str, version: str, filters: GameFilter) -> dict[str, Any]:
    """Rejected games (all of them: a rejected game has no trusted edition or date to filter on),
    the warnings kept with the selection's stored games, and the ingest history."""
    join_p, in_p, params = _selection(filters, "p")
    with store_read.open_store(path, WAIT_SECONDS) as con:
        rejected_total = _one(con, "SELECT count(*)::BIGINT AS n FROM rejected")["n"]
        rejected = _frame(
            con,
            """
            SELECT r.source_file, r.line, r.game_id, r.code, r.message, r.rejected_at, r.raw_sha256,
                   (SELECT count(*) FROM problems p WHERE p.raw_sha256 = r.raw_sha256
                        AND p.source_file IS NOT DISTINCT FROM r.source_file)::BIGINT AS problems
            FROM rejected r ORDER BY r.rejected_at DESC, r.source_file, r.line LIMIT 500""",
        )
        rejected_codes = _frame(
            con,
            """
            SELECT code, count(*)::BIGINT AS rejected FROM rejected GROUP BY code ORDER BY rejected DESC, code""",
        )
        warnings = _frame(
            con,
            f"""
            SELECT p.code, p.severity, count(*)::BIGINT AS problems, count(DISTINCT p.game_id)::BIGINT AS games
            FROM problems p {join_p} WHERE p.raw_sha256 IS NULL AND p.game_id IS NOT NULL AND {in_p}
            GROUP BY ALL ORDER BY problems DESC, p.code""",
            params,
        )
        history = _frame(
            con,
            """
            SELECT happened_at, game_id, event, source_file, line, code, message FROM history
            ORDER BY happened_at DESC, game_id LIMIT 500""",
        )
        runs = _frame(
            con,
            """
            SELECT started_at, finished_at, paths, files_read, files_skipped, games_stored, games_skipped,
                   games_rejected FROM ingest_runs ORDER BY started_at DESC LIMIT 200""",
        )
    return {
        "rejected_total": rejected_total,
        "rejected": rejected,
        "rejected_codes": rejected_codes,
        "warnings": warnings,
        "history": history,
        "runs": runs,
    }


@st.cache_data(**CACHE)
def rejected_problems(path: str, version: str, raw_sha256: str, source_file: str | None) -> tuple[pl.DataFrame, str]:
    """Every problem found in one rejected game, and its original text."""
    with store_read.open_store(path, WAIT_SECONDS) as con:
        problems = _frame(
            con,
            """
            SELECT seq, line, code, severity, message FROM problems
            WHERE raw_sha256 = ? AND source_file IS NOT DISTINCT FROM ? ORDER BY line NULLS FIRST, seq""",
            [raw_sha256, source_file],
        )
        raw = (
            _one(
                con,
                "SELECT raw FROM rejected WHERE raw_sha256 = ? AND source_file IS NOT DISTINCT FROM ? LIMIT 1",
                [raw_sha256, source_file],
            ).get("raw")
            or ""
        )
    return problems, raw
