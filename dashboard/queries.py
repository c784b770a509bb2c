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

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import duckdb
import polars as pl
import streamlit as st

from analysis import players as player_stats
from analysis import positions as position_stats
from analysis import store_read, timeline
from analysis.store_read import GameFilter, GameNotFound, StoreBusy, StoreError

__all__ = [
    "GameFilter", "GameNotFound", "StoreBusy", "StoreError", "WAIT_SECONDS", "DEFAULT_DB",
    "database_path", "store_version", "filter_choices", "selection_size", "overview", "game_choices", "replay_game",
    "replay_timeline", "notebook", "suggestion_stats", "accusation_stats", "position_stats_for",
    "player_summary", "data_quality", "rejected_problems",
]

DEFAULT_DB = "clue.duckdb"
WAIT_SECONDS = 5.0  # a page waits this long for an ingest batch to finish, then says the store is busy
CACHE = dict(show_spinner=False, max_entries=256, ttl=3600)
GAME_LIST_LIMIT = 2000  # games offered in the replay's chooser (newest first); any id can be typed
TOP = 10  # best and worst suggestions, lucky and unlucky guesses, ... shown per list


# ---------------------------------------------------------------- where the database is


def database_path(argv: Sequence[str] | None = None, environ: dict[str, str] | None = None) -> Path:
    """The database the app shows: ``--db FILE`` after ``streamlit run app.py --``, else
    ``$CLUE_STATS_DB``, else clue.duckdb in the working directory (as every command)."""
    args = list(sys.argv[1:] if argv is None else argv)
    env = os.environ if environ is None else environ
    for i, arg in enumerate(args):
        if arg == "--db" and i + 1 < len(args):
            return Path(args[i + 1]).expanduser().resolve()
        if arg.startswith("--db="):
            return Path(arg[len("--db="):]).expanduser().resolve()
    return Path(env.get("CLUE_STATS_DB") or DEFAULT_DB).expanduser().resolve()


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


def _chosen(filters: GameFilter) -> tuple[str, list[Any]]:
    """A CTE ``chosen(game_id)`` of the games under the filters, with its parameters."""
    where, params = filters.where("g")
    return f"chosen AS (SELECT g.game_id FROM games g WHERE {where})", params


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
def overview(path: str, version: str, filters: GameFilter) -> dict[str, Any]:
    """Counts of the selection and its games by edition, player count, source and month."""
    chosen, params = _chosen(filters)
    where, where_params = filters.where("g")
    with store_read.open_store(path, WAIT_SECONDS) as con:
        totals = _one(con, f"""
            WITH {chosen}
            SELECT count(*)::BIGINT AS games,
                   count(DISTINCT g.edition)::BIGINT AS editions,
                   count(DISTINCT g.source)::BIGINT AS sources,
                   count(*) FILTER (WHERE g.analysis_version IS NOT NULL)::BIGINT AS analysed,
                   count(*) FILTER (WHERE g.hands_known < g.n_players)::BIGINT AS hands_unknown,
                   count(*) FILTER (WHERE g.winner IS NOT NULL)::BIGINT AS won,
                   count(*) FILTER (WHERE g.played_at IS NULL)::BIGINT AS undated
            FROM games g JOIN chosen USING (game_id)""", params)
        totals["players"] = _one(con, f"""
            WITH {chosen}
            SELECT count(DISTINCT p.name)::BIGINT AS n FROM players p JOIN chosen USING (game_id)""", params)["n"]
        totals["stored_total"] = _one(con, "SELECT count(*)::BIGINT AS n FROM games")["n"]
        totals["rejected"] = _one(con, "SELECT count(*)::BIGINT AS n FROM rejected")["n"]
        by_edition = _frame(con, f"""
            SELECT g.edition, g.variant, count(*)::BIGINT AS games FROM games g WHERE {where}
            GROUP BY ALL ORDER BY games DESC, g.edition, g.variant""", where_params)
        by_players = _frame(con, f"""
            SELECT g.n_players, count(*)::BIGINT AS games FROM games g WHERE {where}
            GROUP BY ALL ORDER BY g.n_players""", where_params)
        by_source = _frame(con, f"""
            SELECT coalesce(g.source, '(not given)') AS source, count(*)::BIGINT AS games,
                   count(*) FILTER (WHERE g.analysis_version IS NOT NULL)::BIGINT AS analysed,
                   min(left(g.played_at, 10)) AS first_played, max(left(g.played_at, 10)) AS last_played
            FROM games g WHERE {where} GROUP BY ALL ORDER BY games DESC, source""", where_params)
        by_month = _frame(con, f"""
            SELECT left(g.played_at, 7) AS month, count(*)::BIGINT AS games FROM games g
            WHERE {where} AND g.played_at IS NOT NULL GROUP BY ALL ORDER BY month""", where_params)
    return {"totals": totals, "by_edition": by_edition, "by_players": by_players,
            "by_source": by_source, "by_month": by_month}


# ---------------------------------------------------------------- one game


@st.cache_data(**CACHE)
def game_choices(path: str, version: str, filters: GameFilter) -> tuple[pl.DataFrame, int]:
    """The newest games of the selection (at most GAME_LIST_LIMIT) and how many there are in all."""
    where, params = filters.where("g")
    with store_read.open_store(path, WAIT_SECONDS) as con:
        total = _one(con, f"SELECT count(*)::BIGINT AS n FROM games g WHERE {where}", params)["n"]
        games = _frame(con, f"""
            SELECT g.game_id, g.played_at, g.edition, g.variant, g.n_players, g.winner
            FROM games g WHERE {where}
            ORDER BY g.played_at DESC NULLS LAST, g.ingested_at DESC, g.game_id LIMIT ?""",
                       [*params, GAME_LIST_LIMIT])
    return games, total


@dataclass(frozen=True)
class GameData:
    """What the replay shows of one stored game, besides the deduction: the game as rebuilt from
    its records and its stored rows (players, records, and the analysis where computed)."""

    game: Any  # engine.game.Game, rebuilt by analysis.store_read.load_game
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
        game = store_read.load_game(con, game_id)
        header = _one(con, "SELECT * FROM games WHERE game_id = ?", [game_id])
        players = _frame(con, "SELECT * FROM players WHERE game_id = ? ORDER BY seat", [game_id])
        events = _frame(con, "SELECT seq, line, type, player, payload FROM events WHERE game_id = ? ORDER BY seq", [game_id])
        suggestions = _frame(con, "SELECT * FROM suggestions WHERE game_id = ? ORDER BY seq", [game_id])
        accusations = _frame(con, "SELECT * FROM accusations WHERE game_id = ? ORDER BY seq", [game_id])
        problems = _frame(con, "SELECT seq, line, code, severity, message FROM problems WHERE game_id = ? ORDER BY seq NULLS FIRST", [game_id])
    return GameData(game, header, players, events, suggestions, accusations, problems)


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
    if column == "accuracy":
        return f"least(floor({column} / {width}), {round(1 / width) - 1}) * {width}"
    return f"floor({column} / {width}) * {width}"


@st.cache_data(**CACHE)
def suggestion_stats(path: str, version: str, filters: GameFilter) -> dict[str, Any]:
    """Gains and accuracy of the selection's suggestions: totals, histograms, per strategy and per
    player, label counts, and the best and worst suggestions."""
    chosen, params = _chosen(filters)
    base = f"""
        WITH {chosen},
        s AS (
            SELECT s.*, coalesce(p.strategy, '(not given)') AS strategy, i.gain_bits AS realised_gain,
                   g.edition, g.played_at
            FROM suggestions s JOIN chosen USING (game_id) JOIN games g USING (game_id)
            LEFT JOIN players p ON p.game_id = s.game_id AND p.name = s.player
            LEFT JOIN information i ON i.game_id = s.game_id AND i.seq = s.seq AND i.observer = s.player
        )"""
    summary = """count(*)::BIGINT AS suggestions,
                 avg(expected_gain_bits) AS mean_expected_gain, avg(realised_gain) AS mean_realised_gain,
                 avg(accuracy) AS mean_accuracy, quantile_cont(accuracy, 0.25) AS accuracy_q1,
                 median(accuracy) AS median_accuracy, quantile_cont(accuracy, 0.75) AS accuracy_q3"""
    with store_read.open_store(path, WAIT_SECONDS) as con:
        totals = _one(con, f"""{base}
            SELECT (SELECT count(*) FROM chosen)::BIGINT AS games,
                   count(*)::BIGINT AS suggestions, count(expected_gain_bits)::BIGINT AS with_expected,
                   count(accuracy)::BIGINT AS with_accuracy, count(realised_gain)::BIGINT AS with_realised,
                   avg(accuracy) AS mean_accuracy, avg(expected_gain_bits) AS mean_expected_gain
            FROM s""", params)
        gains = _frame(con, f"""{base}
            SELECT 'expected' AS kind, {_bins('expected_gain_bits', 0.25)} AS bin_start, count(*)::BIGINT AS suggestions
            FROM s WHERE expected_gain_bits IS NOT NULL GROUP BY ALL
            UNION ALL
            SELECT 'realised' AS kind, {_bins('realised_gain', 0.25)} AS bin_start, count(*)::BIGINT AS suggestions
            FROM s WHERE realised_gain IS NOT NULL GROUP BY ALL
            ORDER BY kind, bin_start""", params)
        accuracy = _frame(con, f"""{base}
            SELECT strategy, {_bins('accuracy', 0.05)} AS bin_start, count(*)::BIGINT AS suggestions
            FROM s WHERE accuracy IS NOT NULL GROUP BY ALL ORDER BY strategy, bin_start""", params)
        by_strategy = _frame(con, f"""{base}
            SELECT strategy, {summary} FROM s GROUP BY strategy ORDER BY suggestions DESC, strategy""", params)
        by_player = _frame(con, f"""{base}
            SELECT player, {summary} FROM s GROUP BY player ORDER BY suggestions DESC, player LIMIT 50""", params)
        labels = _frame(con, f"""{base}
            SELECT strategy, label, count(*)::BIGINT AS suggestions FROM s WHERE label IS NOT NULL
            GROUP BY ALL ORDER BY strategy, label""", params)
        columns = """game_id, seq, player, strategy, suspect, weapon, room, shown_by, expected_gain_bits,
                     best_gain_bits, best_suspect, best_weapon, best_room, accuracy, label, edition, played_at"""
        # best: the most accurate, and among equally accurate the most informative; worst: the reverse
        best = _frame(con, f"""{base}
            SELECT {columns} FROM s WHERE expected_gain_bits IS NOT NULL
            ORDER BY accuracy DESC NULLS LAST, expected_gain_bits DESC, game_id, seq LIMIT {TOP}""", params)
        worst = _frame(con, f"""{base}
            SELECT {columns} FROM s WHERE expected_gain_bits IS NOT NULL
            ORDER BY accuracy ASC NULLS LAST, expected_gain_bits ASC, game_id, seq LIMIT {TOP}""", params)
    return {"totals": totals, "gains": gains, "accuracy": accuracy, "by_strategy": by_strategy,
            "by_player": by_player, "labels": labels, "best": best, "worst": worst}


# ---------------------------------------------------------------- accusations


@st.cache_data(**CACHE)
def accusation_stats(path: str, version: str, filters: GameFilter) -> dict[str, Any]:
    """p_correct and turns waited of the selection's accusations, missed wins, lucky and unlucky guesses."""
    chosen, params = _chosen(filters)
    base = f"""
        WITH {chosen},
        a AS (
            SELECT a.*, CASE WHEN a.correct THEN 'won' WHEN NOT a.correct THEN 'lost' ELSE 'unknown' END AS outcome,
                   g.winner, g.played_at, g.edition
            FROM accusations a JOIN chosen USING (game_id) JOIN games g USING (game_id)
        )"""
    columns = "game_id, seq, player, suspect, weapon, room, outcome, p_correct, first_certain_seq, turns_waited, winner"
    with store_read.open_store(path, WAIT_SECONDS) as con:
        totals = _one(con, f"""{base}
            SELECT (SELECT count(*) FROM chosen)::BIGINT AS games,
                   count(*)::BIGINT AS accusations,
                   count(*) FILTER (WHERE correct)::BIGINT AS correct,
                   count(*) FILTER (WHERE NOT correct)::BIGINT AS wrong,
                   count(p_correct)::BIGINT AS with_p_correct,
                   count(*) FILTER (WHERE p_correct >= 1)::BIGINT AS certain,
                   count(*) FILTER (WHERE p_correct < 1)::BIGINT AS guesses,
                   count(*) FILTER (WHERE p_correct < 1 AND correct)::BIGINT AS guesses_won,
                   count(*) FILTER (WHERE p_correct < 1 AND NOT correct)::BIGINT AS guesses_lost,
                   avg(turns_waited) AS mean_turns_waited
            FROM a""", params)
        p_correct = _frame(con, f"""{base}
            SELECT outcome, least(floor(p_correct * 10), 9) / 10 AS bin_start, count(*)::BIGINT AS accusations
            FROM a WHERE p_correct IS NOT NULL GROUP BY ALL ORDER BY outcome, bin_start""", params)
        waited = _frame(con, f"""{base}
            SELECT least(turns_waited, 10)::INTEGER AS turns_waited, outcome, count(*)::BIGINT AS accusations
            FROM a WHERE turns_waited IS NOT NULL GROUP BY ALL ORDER BY turns_waited, outcome""", params)
        lucky = _frame(con, f"""{base}
            SELECT {columns} FROM a WHERE p_correct < 1 AND correct
            ORDER BY p_correct, game_id, seq LIMIT {TOP}""", params)
        unlucky = _frame(con, f"""{base}
            SELECT {columns} FROM a WHERE p_correct < 1 AND NOT correct
            ORDER BY p_correct DESC, game_id, seq LIMIT {TOP}""", params)
        # a missed win: the player was certain of the solution at some record, and did not win
        missed_base = f"""
            WITH {chosen},
            m AS (
                SELECT p.game_id, p.name AS player, p.first_certain_seq, g.winner, g.played_at,
                       a.seq AS accused_at, a.correct AS accused_correct
                FROM players p JOIN chosen USING (game_id) JOIN games g USING (game_id)
                LEFT JOIN accusations a ON a.game_id = p.game_id AND a.player = p.name
                WHERE p.first_certain_seq IS NOT NULL AND NOT p.won
            )"""
        missed_total = _one(con, f"{missed_base} SELECT count(*)::BIGINT AS n FROM m", params)["n"]
        missed = _frame(con, f"""{missed_base}
            SELECT game_id, player, first_certain_seq, accused_at, accused_correct, winner, played_at FROM m
            ORDER BY played_at DESC NULLS LAST, game_id, first_certain_seq LIMIT 200""", params)
        certain_players = _one(con, f"""
            WITH {chosen}
            SELECT count(*) FILTER (WHERE p.first_certain_seq IS NOT NULL)::BIGINT AS n,
                   count(*)::BIGINT AS seats
            FROM players p JOIN chosen USING (game_id)""", params)
    totals["missed_wins"] = missed_total
    totals["certain_players"] = certain_players.get("n", 0)
    return {"totals": totals, "p_correct": p_correct, "waited": waited, "lucky": lucky,
            "unlucky": unlucky, "missed": missed}


# ---------------------------------------------------------------- corpus statistics from analysis


@st.cache_data(**CACHE)
def position_stats_for(path: str, version: str, filters: GameFilter) -> dict[str, pl.DataFrame]:
    """Starting-position effects (analysis.positions) by turn order, character and start square,
    and the chi-square test over seats."""
    with store_read.open_store(path, WAIT_SECONDS) as con:
        return {
            "turn_order": position_stats.seat_effects(con, filters),
            "character": position_stats.character_effects(con, filters),
            "start_square": position_stats.start_square_effects(con, filters),
            "seat_test": position_stats.seat_test(con, filters),
        }


@st.cache_data(**CACHE)
def player_summary(path: str, version: str, filters: GameFilter, by: str) -> pl.DataFrame:
    """Per player (or strategy): games, wins, accuracy, turns waited, missed wins (analysis.players)."""
    with store_read.open_store(path, WAIT_SECONDS) as con:
        return player_stats.player_summary(con, filters, by=by)


# ---------------------------------------------------------------- data quality


@st.cache_data(**CACHE)
def data_quality(path: str, version: str, filters: GameFilter) -> dict[str, Any]:
    """Rejected games (all of them: a rejected game has no trusted edition or date to filter on),
    the warnings kept with the selection's stored games, and the ingest history."""
    chosen, params = _chosen(filters)
    with store_read.open_store(path, WAIT_SECONDS) as con:
        rejected_total = _one(con, "SELECT count(*)::BIGINT AS n FROM rejected")["n"]
        rejected = _frame(con, """
            SELECT r.source_file, r.line, r.game_id, r.code, r.message, r.rejected_at, r.raw_sha256,
                   (SELECT count(*) FROM problems p WHERE p.raw_sha256 = r.raw_sha256
                        AND p.source_file IS NOT DISTINCT FROM r.source_file)::BIGINT AS problems
            FROM rejected r ORDER BY r.rejected_at DESC, r.source_file, r.line LIMIT 500""")
        rejected_codes = _frame(con, """
            SELECT code, count(*)::BIGINT AS rejected FROM rejected GROUP BY code ORDER BY rejected DESC, code""")
        warnings = _frame(con, f"""
            WITH {chosen}
            SELECT p.code, p.severity, count(*)::BIGINT AS problems, count(DISTINCT p.game_id)::BIGINT AS games
            FROM problems p JOIN chosen USING (game_id) WHERE p.raw_sha256 IS NULL
            GROUP BY ALL ORDER BY problems DESC, p.code""", params)
        runs = _frame(con, """
            SELECT started_at, finished_at, paths, files_read, files_skipped, games_stored, games_skipped,
                   games_rejected FROM ingest_runs ORDER BY started_at DESC LIMIT 200""")
    return {"rejected_total": rejected_total, "rejected": rejected, "rejected_codes": rejected_codes,
            "warnings": warnings, "runs": runs}


@st.cache_data(**CACHE)
def rejected_problems(path: str, version: str, raw_sha256: str, source_file: str | None) -> tuple[pl.DataFrame, str]:
    """Every problem found in one rejected game, and its original text."""
    with store_read.open_store(path, WAIT_SECONDS) as con:
        problems = _frame(con, """
            SELECT seq, line, code, severity, message FROM problems
            WHERE raw_sha256 = ? AND source_file IS NOT DISTINCT FROM ? ORDER BY line NULLS FIRST, seq""",
                          [raw_sha256, source_file])
        raw = _one(con, "SELECT raw FROM rejected WHERE raw_sha256 = ? AND source_file IS NOT DISTINCT FROM ? LIMIT 1",
                   [raw_sha256, source_file]).get("raw") or ""
    return problems, raw
