"""What the dashboard and the reports read from the store: read-only, short-lived, by filters.

The dashboard may import only ``analysis``, so every read it needs lives here: opening the store
(a read-only connection that retries while a writer holds the file), the filters every corpus query
takes, the list of games, one game rebuilt from its stored records, and a game's analysis rows.
"""

from __future__ import annotations

import contextlib
import difflib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from clue_stats.engine.errors import UsageError
from clue_stats.engine.game import Game
from clue_stats.ingest import store
from clue_stats.ingest.cluelog import build_game
from clue_stats.ingest.kinds import KINDS as KINDS  # re-exported: the dashboard reads through analysis
from clue_stats.ingest.kinds import PEOPLE as PEOPLE
from clue_stats.ingest.raw import RawGame

StoreBusy = store.StoreBusy
StoreError = store.StoreError

# Tables of one game (the dashboard and reports read them with game_table() and stored_game()).
GAME_TABLES = store.GAME_TABLES


class GameNotFound(UsageError, LookupError):
    """No stored game has this id."""


@contextlib.contextmanager
def open_store(path: str | Path, wait_seconds: float = 10.0) -> Iterator[duckdb.DuckDBPyConnection]:
    """A short-lived read-only connection (retries while ingest holds the file)."""
    with store.read_connection(path, wait_seconds) as con:
        yield con


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


def frame(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None) -> pl.DataFrame:
    """A query's result as a polars frame (column names kept even when no row matches)."""
    # duckdb 2: a relation's .pl() fetches the whole result, so the connection is free again at once
    return con.sql(sql, params=list(params or [])).pl()


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


def list_games(
    con: duckdb.DuckDBPyConnection, filters: GameFilter = GameFilter(), limit: int | None = None
) -> tuple[pl.DataFrame, int]:
    """The stored games the filters select, newest played first (undated games last; among games
    played at the same time the last ingested first, then the highest id), at most ``limit`` of
    them, and how many the filters select in all."""
    where, params = filters.where("g")
    total = con.execute(f"SELECT count(*) FROM games g WHERE {where}", params).fetchall()[0][0]
    sql = (
        f"SELECT {', '.join('g.' + c for c in GAME_LIST_COLUMNS)} FROM games g WHERE {where} "
        "ORDER BY g.played_at DESC NULLS LAST, g.ingested_at DESC, g.game_id DESC"
    )
    if limit is not None:
        sql += " LIMIT ?"
        params = [*params, limit]
    return frame(con, sql, params), int(total)


def filter_choices(con: duckdb.DuckDBPyConnection) -> dict[str, list[Any]]:
    """The values each filter can take in this store (for the dashboard's selectors)."""
    out: dict[str, list[Any]] = {}
    for column in ("edition", "variant", "n_players", "source", "kind"):
        rows = con.execute(f"SELECT DISTINCT {column} FROM games WHERE {column} IS NOT NULL ORDER BY 1").fetchall()
        out[column] = [r[0] for r in rows]
    # fetchall, not fetchone: duckdb 2 keeps a partly fetched result open on the connection
    ((low, high),) = con.execute("SELECT min(left(played_at, 10)), max(left(played_at, 10)) FROM games").fetchall()
    out["played_at"] = [low, high]
    return out


def _not_found(con: duckdb.DuckDBPyConnection, game_id: str) -> GameNotFound:
    known = [r[0] for r in con.execute("SELECT game_id FROM games ORDER BY game_id").fetchall()]
    close = difflib.get_close_matches(game_id, known, n=3, cutoff=0.5)
    hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
    return GameNotFound(f"no stored game has the id {game_id!r}{hint}; `clue-stats games` lists them")


def game_from_payloads(payloads: list[str], lines: list[int | None] | None = None, game_id: str | None = None) -> Game:
    """Build a game from its records as stored (JSON text, the game record first); ``game_id``: the
    stored identity, kept whatever the rebuilt content would hash to. Raises StoreError when the
    records do not make a game."""
    try:
        records = [json.loads(p) for p in payloads]
    except ValueError as exc:
        raise StoreError(f"a stored game cannot be read back: a record is not JSON ({exc})") from None
    raw = RawGame(
        records=records, lines=list(lines) if lines is not None else [None] * len(records), text="\n".join(payloads)
    )
    game, problems = build_game(raw)
    if game is None:
        # a stored game was valid when stored; failing now means the reader changed under it
        raise StoreError(
            "a stored game cannot be read back: "
            + ("; ".join(f"{p.code}: {p.message}" for p in problems if p.is_error) or "no game record")
        )
    if game_id is not None:
        game.game_id = game_id
    return game


def stored_games(con: duckdb.DuckDBPyConnection, game_ids: list[str]) -> dict[str, tuple[list[str], list[int | None]]]:
    """game_id -> (payloads, lines) of each game, in seq order (one query for many games)."""
    rows = con.execute(
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


def game_table(con: duckdb.DuckDBPyConnection, table: str, game_id: str) -> pl.DataFrame:
    """One game's rows of a stored table, in record order."""
    if table not in GAME_TABLES:
        raise ValueError(f"not a table of one game: {table!r}")
    order = _GAME_ORDER.get(table, "seq")
    # problems of the id's rejected versions (raw_sha256 set) are theirs, not the stored game's
    only_stored = " AND raw_sha256 IS NULL" if table == "problems" else ""
    return frame(con, f"SELECT * FROM {table} WHERE game_id = ?{only_stored} ORDER BY {order}", [game_id])


@dataclass(frozen=True)
class StoredGame:
    """One stored game: rebuilt from its records, with its rows of every table (the one reader of a
    stored game, for the replay page and the report)."""

    game: Game
    header: dict[str, Any]  # the games row
    tables: dict[str, pl.DataFrame]  # every table of GAME_TABLES but games, in record order

    def rows(self, table: str) -> list[dict[str, Any]]:
        return self.tables[table].to_dicts()


def stored_game(con: duckdb.DuckDBPyConnection, game_id: str) -> StoredGame:
    """A stored game and all its rows (raises GameNotFound if no game has this id)."""
    tables = {t: game_table(con, t, game_id) for t in GAME_TABLES}
    header = tables.pop("games").to_dicts()
    events = tables["events"]
    if not header or events.is_empty():
        raise _not_found(con, game_id)
    game = game_from_payloads(events["payload"].to_list(), events["line"].to_list(), game_id)
    return StoredGame(game, header[0], tables)
