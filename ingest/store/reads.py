"""Every read of the store the program makes outside the analysis's statistics: the filters every
corpus query takes, the dashboard's counts, the list of games, one game rebuilt from its stored
records with its rows, the rejected games, the ingest history, and what `ingest` and `analyse` ask
before they work. Each takes an open :class:`Store` (read-only or not)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from clue_stats.engine.errors import UsageError
from clue_stats.engine.game import Game
from clue_stats.engine.markers import T_
from clue_stats.engine.problems import joined
from clue_stats.ingest.kinds import PEOPLE
from clue_stats.ingest.store.connection import Store
from clue_stats.ingest.store.payloads import game_from_payloads
from clue_stats.ingest.store.schema import GAME_TABLES

if TYPE_CHECKING:
    import polars as pl  # a frame's type: the frames are made by Store.frame, which imports polars


class GameNotFound(UsageError, LookupError):
    """No stored game has this id."""


@dataclass(frozen=True)
class GameFilter:
    """Which games a corpus query covers; None means "any". Dates are ISO (YYYY-MM-DD), inclusive,
    compared with the first ten characters of ``played_at`` (games without a date are left out
    when a date bound is given)."""

    edition: str | None = None
    variant: str | None = None
    n_players: int | None = None
    source: str | None = None
    date_from: str | None = None
    date_to: str | None = None
    kinds: tuple[str, ...] | None = None  # kinds of game (ingest.kinds); None: every kind

    def where(self, alias: str = "g") -> tuple[str, list[Any]]:
        """An SQL condition on the games table (under ``alias``) and its parameters."""
        clauses: list[str] = []
        params: list[Any] = []
        for column in ("edition", "variant", "n_players", "source"):
            value = getattr(self, column)
            if value is not None:
                clauses.append(f"{alias}.{column} = ?")
                params.append(value)
        if self.kinds is not None:
            clauses.append(f"{alias}.kind IN (SELECT unnest(?::VARCHAR[]))")
            params.append(list(self.kinds))
        if self.date_from is not None:
            clauses.append(f"left({alias}.played_at, 10) >= ?")
            params.append(self.date_from)
        if self.date_to is not None:
            clauses.append(f"left({alias}.played_at, 10) <= ?")
            params.append(self.date_to)
        return (" AND ".join(clauses) or "TRUE"), params


def people_first(kinds_present: list[str], include_others: bool = False) -> tuple[str, ...] | None:
    """The kinds a view shows by default: people's games (tabletop, digital) once the store holds
    any, so that bots and simulations never bury a club's games; every kind when asked, or when
    there are no people's games."""
    people = tuple(k for k in PEOPLE if k in kinds_present)
    if include_others or not people:
        return None
    return people


def selection(filters: GameFilter, alias: str) -> tuple[str, str, list[Any]]:
    """(join, condition, parameters) that keep the rows of ``alias`` whose game the filters select.
    Nothing at all without filters, so that an unfiltered query pays for no join; with filters an
    explicit join, which DuckDB runs faster than ``game_id IN (subquery)`` on millions of rows."""
    if filters == GameFilter():
        return "", "TRUE", []
    where, params = filters.where("sel_g")
    return f"JOIN games sel_g ON sel_g.game_id = {alias}.game_id", where, params


# what a list of games shows (the `games` command, the replay's chooser): ids, not names, as stored
GAME_LIST_COLUMNS = (
    "game_id",
    "played_at",
    "kind",
    "edition",
    "variant",
    "n_players",
    "source",
    "winner",
    "hands_known",
    "analysis_version",
    "analysis_cut",
)


def list_games(db: Store, filters: GameFilter = GameFilter(), limit: int | None = None) -> tuple[pl.DataFrame, int]:
    """The stored games the filters select, newest played first (undated games last; among games
    played at the same time the last ingested first, then the highest id), at most ``limit`` of
    them, and how many the filters select in all."""
    where, params = filters.where("g")
    total = db.execute(f"SELECT count(*) FROM games g WHERE {where}", params).fetchall()[0][0]
    sql = (
        f"SELECT {', '.join('g.' + c for c in GAME_LIST_COLUMNS)} FROM games g WHERE {where} "
        "ORDER BY g.played_at DESC NULLS LAST, g.ingested_at DESC, g.game_id DESC"
    )
    if limit is not None:
        sql += " LIMIT ?"
        params = [*params, limit]
    return db.frame(sql, params), int(total)


def filter_choices(db: Store) -> dict[str, list[Any]]:
    """The values each filter can take in this store (for the dashboard's selectors)."""
    out: dict[str, list[Any]] = {}
    for column in ("edition", "variant", "n_players", "source", "kind"):
        rows = db.execute(f"SELECT DISTINCT {column} FROM games WHERE {column} IS NOT NULL ORDER BY 1").fetchall()
        out[column] = [r[0] for r in rows]
    # fetchall, not fetchone: duckdb 2 keeps a partly fetched result open on the connection
    ((low, high),) = db.execute("SELECT min(left(played_at, 10)), max(left(played_at, 10)) FROM games").fetchall()
    out["played_at"] = [low, high]
    return out


def _not_found(db: Store, game_id: str) -> GameNotFound:
    known = [r[0] for r in db.execute("SELECT game_id FROM games ORDER BY game_id").fetchall()]
    close = difflib.get_close_matches(game_id, known, n=3, cutoff=0.5)
    hint = T_(" (did you mean {names}?)", names=joined(repr(c) for c in close)) if close else ""
    return GameNotFound(
        T_("no stored game has the id {id}{hint}; `clue-stats games` lists them", id=repr(game_id), hint=hint)
    )


def stored_games(db: Store, game_ids: list[str]) -> dict[str, tuple[list[str], list[int | None]]]:
    """game_id -> (payloads, lines) of each game, in seq order (one query for many games)."""
    rows = db.execute(
        "SELECT game_id, list(payload ORDER BY seq), list(line ORDER BY seq) FROM events "
        "WHERE game_id IN (SELECT unnest(?)) GROUP BY game_id",
        [game_ids],
    ).fetchall()
    return {gid: (list(payloads), list(lines)) for gid, payloads, lines in rows}


# How each table of one game is ordered: record order, the table's row last among observers.
_GAME_ORDER = {
    "games": "game_id",
    "players": "seat",
    "information": "seq, observer NULLS LAST",
    "problems": "seq NULLS FIRST, line",
}


def game_table(db: Store, table: str, game_id: str) -> pl.DataFrame:
    """One game's rows of a stored table, in record order."""
    if table not in GAME_TABLES:
        raise ValueError(f"not a table of one game: {table!r}")
    order = _GAME_ORDER.get(table, "seq")
    # problems of the id's rejected versions (raw_sha256 set) are theirs, not the stored game's
    only_stored = " AND raw_sha256 IS NULL" if table == "problems" else ""
    return db.frame(f"SELECT * FROM {table} WHERE game_id = ?{only_stored} ORDER BY {order}", [game_id])


@dataclass(frozen=True)
class StoredGame:
    """One stored game: rebuilt from its records, with its rows of every table (the one reader of a
    stored game, for the replay page and the report)."""

    game: Game
    header: dict[str, Any]  # the games row
    tables: dict[str, pl.DataFrame]  # every table of GAME_TABLES but games, in record order

    def rows(self, table: str) -> list[dict[str, Any]]:
        return self.tables[table].to_dicts()


def stored_game(db: Store, game_id: str) -> StoredGame:
    """A stored game and all its rows (raises GameNotFound if no game has this id)."""
    tables = {t: game_table(db, t, game_id) for t in GAME_TABLES}
    header = tables.pop("games").to_dicts()
    events = tables["events"]
    if not header or events.is_empty():
        raise _not_found(db, game_id)
    game = game_from_payloads(events["payload"].to_list(), events["line"].to_list(), game_id)
    return StoredGame(game, header[0], tables)


# ---------------------------------------------------------------- counts of a selection (the dashboard)


def selection_size(db: Store, filters: GameFilter) -> int:
    """How many stored games the filters select."""
    where, params = filters.where("g")
    return int(db.one(f"SELECT count(*)::BIGINT AS n FROM games g WHERE {where}", params)["n"])


def games_by(db: Store, column: str, filters: GameFilter) -> pl.DataFrame:
    """How many games of the selection have each value of a games column (``column``, ``games``)."""
    if column not in ("n_players", "edition"):
        raise ValueError(f"games are not counted by {column!r}")
    where, params = filters.where("g")
    return db.frame(f"SELECT g.{column}, count(*)::BIGINT AS games FROM games g WHERE {where} GROUP BY ALL", params)


def overview(db: Store, filters: GameFilter) -> dict[str, Any]:
    """Counts of the selection (totals) and its games by kind, edition, player count, source and month."""
    where, where_params = filters.where("g")
    join_p, in_p, in_params = selection(filters, "p")
    totals = db.one(
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
    totals["players"] = db.one(
        f"SELECT count(DISTINCT p.name)::BIGINT AS n FROM players p {join_p} WHERE {in_p}", in_params
    )["n"]
    totals["stored_total"] = db.one("SELECT count(*)::BIGINT AS n FROM games")["n"]
    totals["rejected"] = rejected_count(db)
    return {
        "totals": totals,
        "by_kind": db.frame("SELECT kind, count(*)::BIGINT AS games FROM games GROUP BY ALL ORDER BY games DESC, kind"),
        "by_edition": db.frame(
            f"""
            SELECT g.edition, g.variant, count(*)::BIGINT AS games FROM games g WHERE {where}
            GROUP BY ALL ORDER BY games DESC, g.edition, g.variant""",
            where_params,
        ),
        "by_players": db.frame(
            f"""
            SELECT g.n_players, count(*)::BIGINT AS games FROM games g WHERE {where}
            GROUP BY ALL ORDER BY g.n_players""",
            where_params,
        ),
        "by_source": db.frame(
            f"""
            SELECT coalesce(g.source, '(not given)') AS source, count(*)::BIGINT AS games,
                   count(*) FILTER (WHERE g.analysis_version IS NOT NULL)::BIGINT AS analysed,
                   min(left(g.played_at, 10)) AS first_played, max(left(g.played_at, 10)) AS last_played
            FROM games g WHERE {where} GROUP BY ALL ORDER BY games DESC, source""",
            where_params,
        ),
        "by_month": db.frame(
            f"""
            SELECT left(g.played_at, 7) AS month, count(*)::BIGINT AS games FROM games g
            WHERE {where} AND g.played_at IS NOT NULL GROUP BY ALL ORDER BY month""",
            where_params,
        ),
    }


# ---------------------------------------------------------------- data quality: rejections and history


def rejected_count(db: Store) -> int:
    """How many rejected games (and unreadable files) the store keeps."""
    return int(db.rows("SELECT count(*) FROM rejected")[0][0])


def data_quality(db: Store, filters: GameFilter) -> dict[str, Any]:
    """Rejected games (all of them: a rejected game has no trusted edition or date to filter on),
    the warnings kept with the selection's stored games, and the ingest history."""
    join_p, in_p, params = selection(filters, "p")
    return {
        "rejected_total": rejected_count(db),
        "rejected": db.frame(
            """
            SELECT r.source_file, r.line, r.game_id, r.code, r.message, r.rejected_at, r.raw_sha256,
                   (SELECT count(*) FROM problems p WHERE p.raw_sha256 = r.raw_sha256
                        AND p.source_file IS NOT DISTINCT FROM r.source_file)::BIGINT AS problems
            FROM rejected r ORDER BY r.rejected_at DESC, r.source_file, r.line LIMIT 500"""
        ),
        "rejected_codes": db.frame(
            "SELECT code, count(*)::BIGINT AS rejected FROM rejected GROUP BY code ORDER BY rejected DESC, code"
        ),
        "warnings": db.frame(
            f"""
            SELECT p.code, p.severity, count(*)::BIGINT AS times, count(DISTINCT p.game_id)::BIGINT AS games
            FROM problems p {join_p} WHERE p.raw_sha256 IS NULL AND p.game_id IS NOT NULL AND {in_p}
            GROUP BY ALL ORDER BY times DESC, p.code""",
            params,
        ),
        "history": db.frame(
            """
            SELECT happened_at, game_id, event, source_file, line, code, message FROM history
            ORDER BY happened_at DESC, game_id LIMIT 500"""
        ),
        "runs": db.frame(
            """
            SELECT started_at, finished_at, paths, files_read, files_skipped, games_stored, games_skipped,
                   games_rejected FROM ingest_runs ORDER BY started_at DESC LIMIT 200"""
        ),
    }


def rejected_problems(db: Store, raw_sha256: str, source_file: str | None) -> tuple[pl.DataFrame, str]:
    """Every problem found in one rejected game (its message as template and values too, for the
    reader's language), and its original text."""
    problems = db.frame(
        """
        SELECT seq, line, code, severity, message, template, fields::VARCHAR AS fields FROM problems
        WHERE raw_sha256 = ? AND source_file IS NOT DISTINCT FROM ? ORDER BY line NULLS FIRST, seq""",
        [raw_sha256, source_file],
    )
    raw = db.one(
        "SELECT raw FROM rejected WHERE raw_sha256 = ? AND source_file IS NOT DISTINCT FROM ? LIMIT 1",
        [raw_sha256, source_file],
    ).get("raw")
    return problems, raw or ""


# ---------------------------------------------------------------- what ingest and analyse ask first


def stored_hashes(db: Store) -> frozenset[str]:
    """The content hashes of every stored game (ingest recognises a stored game by it)."""
    return frozenset(h for (h,) in db.rows("SELECT content_sha256 FROM games"))


# Per stored game: whether its analysis is the given version's, whole (no stage cut by the budget)
# and holds the whole review (a rated suggestion, one with an expected gain, has a best available gain too).
_REVIEW_STATE = """
    SELECT g.game_id, g.source_file,
           g.analysis_version IS NULL OR g.analysis_version < ? OR g.analysis_cut IS NOT NULL AS outdated,
           coalesce(bool_or(s.expected_gain_bits IS NOT NULL AND s.best_gain_bits IS NULL), FALSE) AS unreviewed
    FROM games g LEFT JOIN suggestions s ON s.game_id = g.game_id
    GROUP BY g.game_id, g.source_file, g.analysis_version, g.analysis_cut
"""


def analyse_targets(db: Store, analysis_version: int) -> tuple[list[tuple[str, str | None]], int]:
    """(game_id, source_file) of every game whose analysis is older than ``analysis_version``, was
    cut by the budget or lacks the whole review, and how many of them are outdated."""
    rows = db.rows(_REVIEW_STATE + " ORDER BY g.game_id", [analysis_version])
    return [(gid, source) for gid, source, old, thin in rows if old or thin], sum(1 for r in rows if r[2])


def review_counts(db: Store, analysis_version: int) -> tuple[int, int]:
    """(stored games, games with this version's whole review)."""
    ((total, reviewed),) = db.rows(
        f"SELECT count(*), count(*) FILTER (WHERE NOT outdated AND NOT unreviewed) FROM ({_REVIEW_STATE})",
        [analysis_version],
    )
    return int(total), int(reviewed)
