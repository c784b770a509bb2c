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

from clue_stats.analysis import agents, names, store_read, summaries, timeline
from clue_stats.analysis import league as league_stats
from clue_stats.analysis import players as player_stats
from clue_stats.analysis import positions as position_stats
from clue_stats.analysis.store_read import (
    KINDS,
    PEOPLE,
    GameFilter,
    GameNotFound,
    StoreBusy,
    StoreError,
    people_first,
    selection,
)
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
    join_p, in_p, in_params = selection(filters, "p")
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
    with store_read.open_store(path, WAIT_SECONDS) as con:
        return store_read.list_games(con, filters, GAME_LIST_LIMIT)


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
    information: pl.DataFrame

    @property
    def over_budget(self) -> list[str]:
        """The messages of the game's over_budget problems (what the budget left out, and why)."""
        return self.problems.filter(pl.col("code") == "over_budget")["message"].to_list()


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
        information=t["information"],
    )


@st.cache_data(**CACHE)
def replay_timeline(path: str, version: str, game_id: str) -> tuple[pl.DataFrame | None, str | None]:
    """Envelope entropy of every observer after every record, and why it is missing (None: it is not).

    An analysed game's is read from its stored ``information`` rows (analysis.timeline); a game
    stored without analysis has it counted here, under the page's budget; a game stored over the
    budget is not counted again (it would pass the budget again): the reason is returned instead.
    When each player became certain is read from ``players.first_certain_seq`` (replay_game)."""
    data = replay_game(path, version, game_id)
    return timeline.game_entropy(
        data.game, data.header, data.information.to_dicts(), data.over_budget, timeline.page_limits()
    )


@st.cache_data(**CACHE)
def notebook(
    path: str, version: str, game_id: str, observer: str | None, seq: int
) -> tuple[pl.DataFrame | None, str | None]:
    """The observer's notebook after record ``seq`` (card, category, place, probability), counted
    under the page's budget; None and the reason when it passes it."""
    game = replay_game(path, version, game_id).game
    return timeline.notebook_within(game, observer, seq, timeline.page_limits())


# ---------------------------------------------------------------- suggestions


# ---------------------------------------------------------------- suggestions and accusations

SUGGESTION_CARDS = ("suspect", "weapon", "room", "best_suspect", "best_weapon", "best_room", "shown_card")


@st.cache_data(**CACHE)
def suggestion_stats(path: str, version: str, filters: GameFilter) -> dict[str, Any]:
    """Gains, accuracy and labels of the selection's suggestions (analysis.summaries)."""
    with store_read.open_store(path, WAIT_SECONDS) as con:
        data = summaries.suggestion_summary(con, filters)
        for key in ("best", "worst"):  # cards by the edition's names
            data[key] = names.name_columns(data[key], SUGGESTION_CARDS, con)
    return data


@st.cache_data(**CACHE)
def accusation_stats(path: str, version: str, filters: GameFilter) -> dict[str, Any]:
    """p_correct, turns waited, lucky and unlucky guesses and missed wins (analysis.summaries)."""
    with store_read.open_store(path, WAIT_SECONDS) as con:
        data = summaries.accusation_summary(con, filters)
        for key in ("lucky", "unlucky"):  # cards by the edition's names
            data[key] = names.name_columns(data[key], ("suspect", "weapon", "room"), con)
    return data


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


@st.cache_data(**CACHE)
def agent_summary(path: str, version: str, filters: GameFilter, by: str) -> dict[str, Any]:
    """The Agents page's read: the games the filters select of any kind, and per agent (program/model
    or name) the figures over the digital and contest games (analysis.agents)."""
    with store_read.open_store(path, WAIT_SECONDS) as con:
        return {"games": agents.games_of_any_kind(con, filters), "table": agents.agent_summary(con, filters, by=by)}


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
    join_p, in_p, params = selection(filters, "p")
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
