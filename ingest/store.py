"""The DuckDB store: the stable tables of analysis.md and the only code that writes to them.

DuckDB lets one process write a file at a time, so a writer holds the file only while it writes a
batch: one transaction holds whole games (one or several), never part of one. Readers (dashboard,
reports) use :func:`read_connection`, a short-lived read-only connection that retries while a
writer holds the file.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import secrets
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from clue_stats.engine.errors import StoreBusy as StoreBusy  # re-exported: the store's own errors
from clue_stats.engine.errors import StoreError as StoreError
from clue_stats.engine.errors import UsageError
from clue_stats.ingest.kinds import CONTEST, DIGITAL, SIMULATED, SIMULATOR_SOURCE, TABLETOP

# The database when none is named: $CLUE_STATS_DB, else this file in the working folder.
DEFAULT_DB = "clue.duckdb"
SCHEMA_VERSION = 1
PSEUDONYM_SECRET = "pseudonym_secret"  # settings key; never exported
RAW_LIMIT = 1 << 20  # rejected games keep their first MiB

SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, applied_at TIMESTAMP NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    game_id VARCHAR PRIMARY KEY, edition VARCHAR NOT NULL, variant VARCHAR NOT NULL,
    n_players INTEGER NOT NULL, kind VARCHAR, source VARCHAR, played_at VARCHAR, place VARCHAR, perspective VARCHAR,
    winner VARCHAR, solution_suspect VARCHAR, solution_weapon VARCHAR, solution_room VARCHAR,
    source_file VARCHAR, line INTEGER, n_records INTEGER NOT NULL, hands_known INTEGER NOT NULL,
    content_sha256 VARCHAR NOT NULL, ingested_at TIMESTAMP NOT NULL, analysis_version INTEGER,
    analysis_cut VARCHAR
);
CREATE TABLE IF NOT EXISTS players (
    game_id VARCHAR NOT NULL, seat INTEGER NOT NULL, name VARCHAR NOT NULL, character VARCHAR,
    strategy VARCHAR, hand_size INTEGER NOT NULL, hand_known BOOLEAN NOT NULL, turn_order INTEGER,
    won BOOLEAN NOT NULL, eliminated BOOLEAN NOT NULL, first_certain_seq INTEGER,
    missed_win BOOLEAN, rated_suggestions INTEGER, review_accuracy DOUBLE,
    stated_precision DOUBLE, stated_recall DOUBLE,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS events (
    game_id VARCHAR NOT NULL, seq INTEGER NOT NULL, line INTEGER, type VARCHAR NOT NULL,
    player VARCHAR, payload JSON NOT NULL, PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS suggestions (
    game_id VARCHAR NOT NULL, seq INTEGER NOT NULL, player VARCHAR NOT NULL, suspect VARCHAR NOT NULL,
    weapon VARCHAR NOT NULL, room VARCHAR NOT NULL, shown_by VARCHAR, shown_card VARCHAR,
    expected_gain_bits DOUBLE, best_gain_bits DOUBLE, best_suspect VARCHAR, best_weapon VARCHAR,
    best_room VARCHAR, accuracy DOUBLE, label VARCHAR, giveaway_bits DOUBLE, bits_lost DOUBLE,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS information (
    game_id VARCHAR NOT NULL, seq INTEGER NOT NULL, observer VARCHAR, type VARCHAR NOT NULL,
    entropy_before DOUBLE NOT NULL, entropy_after DOUBLE NOT NULL, gain_bits DOUBLE NOT NULL,
    partial_view BOOLEAN NOT NULL
);
CREATE TABLE IF NOT EXISTS accusations (
    game_id VARCHAR NOT NULL, seq INTEGER NOT NULL, player VARCHAR NOT NULL, suspect VARCHAR NOT NULL,
    weapon VARCHAR NOT NULL, room VARCHAR NOT NULL, correct BOOLEAN, p_correct DOUBLE,
    first_certain_seq INTEGER, turns_waited INTEGER, PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS statements (
    game_id VARCHAR NOT NULL, seq INTEGER NOT NULL, line INTEGER, player VARCHAR NOT NULL, claim VARCHAR NOT NULL,
    category VARCHAR, card VARCHAR, about VARCHAR, stated_count INTEGER, actual_count INTEGER,
    grade VARCHAR NOT NULL, stated_units INTEGER NOT NULL, proven_units INTEGER NOT NULL, missed_units INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS problems (
    source_file VARCHAR, game_id VARCHAR, seq INTEGER, line INTEGER, code VARCHAR NOT NULL,
    severity VARCHAR NOT NULL, message VARCHAR NOT NULL, raw_sha256 VARCHAR
);
CREATE TABLE IF NOT EXISTS rejected (
    source_file VARCHAR, line INTEGER, game_id VARCHAR, code VARCHAR NOT NULL, message VARCHAR NOT NULL,
    raw VARCHAR, raw_sha256 VARCHAR NOT NULL, rejected_at TIMESTAMP NOT NULL
);
CREATE TABLE IF NOT EXISTS history (
    happened_at TIMESTAMP NOT NULL, game_id VARCHAR, event VARCHAR NOT NULL, source_file VARCHAR, line INTEGER,
    code VARCHAR, message VARCHAR, sha256 VARCHAR, raw VARCHAR
);
CREATE TABLE IF NOT EXISTS settings (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL);
CREATE TABLE IF NOT EXISTS ingest_runs (
    started_at TIMESTAMP NOT NULL, finished_at TIMESTAMP, paths VARCHAR NOT NULL, files_read INTEGER,
    files_skipped INTEGER, games_stored INTEGER, games_skipped INTEGER, games_rejected INTEGER
);
CREATE TABLE IF NOT EXISTS ratings (
    pool VARCHAR NOT NULL, game_index INTEGER NOT NULL, game_id VARCHAR NOT NULL, content_sha256 VARCHAR NOT NULL,
    seat INTEGER NOT NULL, name VARCHAR NOT NULL, player VARCHAR NOT NULL, rank INTEGER NOT NULL,
    mu_before DOUBLE NOT NULL, sigma_before DOUBLE NOT NULL, mu_after DOUBLE NOT NULL, sigma_after DOUBLE NOT NULL,
    rating_before DOUBLE NOT NULL, rating_after DOUBLE NOT NULL, PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS player_merges (
    name VARCHAR NOT NULL, merged_into VARCHAR NOT NULL, merged_at TIMESTAMP NOT NULL, unmerged_at TIMESTAMP
);
"""

# Tables whose rows belong to one stored game, in the order they are written.
GAME_TABLES = ("games", "players", "events", "suggestions", "information", "accusations", "statements", "problems")


def pseudonym_secret(path: str | Path) -> str:
    """The database's own pseudonym secret (made when the database is first written, or now)."""
    with read_connection(path) as con:
        found = (
            con.execute("SELECT value FROM settings WHERE key = ?", [PSEUDONYM_SECRET]).fetchall()
            if _has_settings(con)
            else []
        )
    if found:
        return str(found[0][0])
    with write_connection(path) as con:  # a database made before the secret existed: it gets one now
        return str(con.execute("SELECT value FROM settings WHERE key = ?", [PSEUDONYM_SECRET]).fetchall()[0][0])


def _has_settings(con: duckdb.DuckDBPyConnection) -> bool:
    return bool(
        con.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = 'settings'").fetchall()[0][0]
    )


class NotADatabase(UsageError, StoreError):
    """The path names an existing file (or folder) that is not a DuckDB database: a usage mistake."""


DUCKDB_MAGIC = b"DUCK"  # bytes 8 to 12 of every DuckDB database file


def check_is_database(path: str | Path) -> None:
    """Refuse, before DuckDB sees it, a path that exists and is not a DuckDB database: DuckDB would
    open some other files (a CSV) as an empty database in memory, and the games would go nowhere."""
    if str(path) == ":memory:":
        return
    target = Path(path)
    if target.is_dir():
        raise NotADatabase(f"{path} is a folder, not a database file")
    try:
        with open(target, "rb") as f:
            head = f.read(12)
    except FileNotFoundError:
        return  # a new database
    except OSError as exc:
        raise NotADatabase(f"{path}: cannot read the database file: {exc.strerror or exc}") from None
    if head[8:12] != DUCKDB_MAGIC:
        raise NotADatabase(
            f"{path} is not a DuckDB database (it holds something else, left untouched); "
            "name a clue-stats database or a new file with --db"
        )


def database(named: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The database file: the one named (``--db``), else $CLUE_STATS_DB, else clue.duckdb here."""
    env = os.environ if environ is None else environ
    return named or env.get("CLUE_STATS_DB") or DEFAULT_DB


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def _is_lock_error(exc: Exception) -> bool:
    text = str(exc).lower()
    return "lock" in text or "conflicting" in text or "being used" in text


def _connect(path: str | Path, read_only: bool, wait_seconds: float) -> duckdb.DuckDBPyConnection:
    check_is_database(path)
    deadline = time.monotonic() + wait_seconds
    delay = 0.02
    while True:
        try:
            return duckdb.connect(str(path), read_only=read_only)
        except duckdb.Error as exc:
            if not _is_lock_error(exc):
                raise StoreError(f"{path}: cannot open the database: {exc}") from None
            if time.monotonic() >= deadline:
                raise StoreBusy(
                    f"{path} is held by another process (a running ingest, or a program that keeps it "
                    f"open) and stayed busy for {wait_seconds:g} s; close it and try again"
                ) from None
            time.sleep(delay)
            delay = min(delay * 2, 0.5)


@contextlib.contextmanager
def read_connection(path: str | Path, wait_seconds: float = 10.0) -> Iterator[duckdb.DuckDBPyConnection]:
    """A short-lived read-only connection that retries while a writer holds the file."""
    if not Path(path).exists():
        raise StoreError(f"{path}: no such database (run `clue-stats ingest` first)")
    con = _connect(path, True, wait_seconds)
    try:
        yield con
    finally:
        con.close()


@contextlib.contextmanager
def write_connection(path: str | Path, wait_seconds: float = 30.0) -> Iterator[duckdb.DuckDBPyConnection]:
    """A write connection, created with the schema if new; held only as long as the caller needs."""
    con = _connect(path, False, wait_seconds)
    try:
        ensure_schema(con)
        yield con
    except (duckdb.Error, OSError) as exc:
        if NO_SPACE not in str(exc) and getattr(exc, "errno", None) != errno.ENOSPC:
            raise
        raise DiskFull(
            f"the disk holding {path} is full ({NO_SPACE}): what was being written is not stored, "
            "what was stored before it is kept and the database opens as before; free some space and "
            "run the command again"
        ) from None
    finally:
        con.close()


NO_SPACE = os.strerror(errno.ENOSPC)  # "No space left on device": DuckDB's IO errors quote it


class DiskFull(StoreError):
    """The database's disk filled up while writing: the transaction was rolled back."""


# Columns added after a table was first released: added to an older database when it is next opened
# for writing, with the values its stored rows imply.
MIGRATIONS = (
    (
        "games",
        "kind",
        "VARCHAR",
        # the rule of ingest.kinds.kind_of, for games stored before the column existed
        f"""UPDATE games SET kind = CASE
            WHEN source = '{SIMULATOR_SOURCE}' THEN '{SIMULATED}'
            WHEN (SELECT count(*) FILTER (WHERE p.strategy IS NULL) FROM players p WHERE p.game_id = games.game_id) = 0
                THEN '{CONTEST}'
            WHEN (SELECT count(p.strategy) FROM players p WHERE p.game_id = games.game_id) > 0 THEN '{DIGITAL}'
            ELSE '{TABLETOP}' END
           WHERE kind IS NULL""",
    ),
    # the analysis columns of analysis version 2: NULL until `clue-stats analyse` fills them in (the
    # games' older analysis_version tells it to)
    ("players", "missed_win", "BOOLEAN", None),
    ("players", "rated_suggestions", "INTEGER", None),
    ("players", "review_accuracy", "DOUBLE", None),
    ("suggestions", "bits_lost", "DOUBLE", None),
    # analysis version 3: each player's stated deductions graded (the statements table)
    ("players", "stated_precision", "DOUBLE", None),
    ("players", "stated_recall", "DOUBLE", None),
    # what the budget cut from a game's analysis, in words (NULL: nothing)
    ("games", "analysis_cut", "VARCHAR", None),
)


def ensure_schema(con: duckdb.DuckDBPyConnection) -> None:
    con.execute(SCHEMA)
    for table, column, sql_type, fill in MIGRATIONS:
        present = con.execute(
            "SELECT count(*) FROM information_schema.columns WHERE table_name = ? AND column_name = ?", [table, column]
        ).fetchall()[0][0]
        if not present:
            con.execute(f"ALTER TABLE {table} ADD COLUMN {column} {sql_type}")
            if fill is not None:
                con.execute(fill)
    # the secret of this database's pseudonyms (export --pseudonymise without --salt): random, made once
    con.execute(
        "INSERT INTO settings SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM settings WHERE key = ?)",
        [PSEUDONYM_SECRET, secrets.token_hex(32), PSEUDONYM_SECRET],
    )
    row = con.execute("SELECT max(version) FROM schema_version").fetchone()
    if row is None or row[0] is None:
        con.execute("INSERT INTO schema_version VALUES (?, ?)", [SCHEMA_VERSION, now()])
    elif row[0] > SCHEMA_VERSION:
        raise StoreError(f"the database has schema version {row[0]}; this clue-stats knows up to {SCHEMA_VERSION}")


@dataclass
class GameRows:
    """Every row one game adds, by table (dicts by column name); written in one transaction."""

    game_id: str
    content_sha256: str
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    raw: str | None = None  # the game's original text, stored if the game is rejected here

    def add(self, table: str, row: dict[str, Any]) -> None:
        self.tables.setdefault(table, []).append(row)


@dataclass
class Rejection:
    """A rejected game or unreadable file, with every problem found and its original text."""

    source_file: str | None
    line: int | None
    raw: str
    problems: list[Any]  # engine.problems.Problem
    game_id: str | None = None

    @property
    def raw_sha256(self) -> str:
        return hashlib.sha256(self.raw.encode("utf-8", errors="replace")).hexdigest()


@dataclass
class BatchResult:
    stored: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)  # stored, in place of another version (``replace``)
    skipped: list[str] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)  # includes duplicate_id conflicts
    rejected_new: int = 0  # rejections not already in the store


def _insert(con: duckdb.DuckDBPyConnection, table: str, rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    columns = list(rows[0])
    frame = pa.table({c: [r.get(c) for r in rows] for c in columns})
    con.register("incoming", frame)
    try:
        con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM incoming")
    finally:
        con.unregister("incoming")


REJECTED_SHOWN = 20  # errors a rejected game's message gives (each of MESSAGE_LIMIT characters at most)


def _rejection_message(errors: list[Any]) -> str:
    """The rejected game's errors in one message: the first REJECTED_SHOWN, then how many more
    (every one is a row of the problems table)."""
    if not errors:
        return "rejected"
    shown = "; ".join(
        f"line {p.line}: {p.code}: {p.message}" if p.line is not None else f"{p.code}: {p.message}"
        for p in errors[:REJECTED_SHOWN]
    )
    more = len(errors) - REJECTED_SHOWN
    return shown + (f"; and {more:,} more errors (in the problems table)" if more > 0 else "")


def _rejection_rows(rej: Rejection, at: datetime) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    raw = (
        rej.raw
        if len(rej.raw.encode("utf-8", errors="replace")) <= RAW_LIMIT
        else rej.raw.encode("utf-8", errors="replace")[:RAW_LIMIT].decode("utf-8", errors="ignore")
    )
    sha = rej.raw_sha256
    errors = [p for p in rej.problems if p.is_error] or rej.problems
    first = errors[0] if errors else None
    rejected = [
        {
            "source_file": rej.source_file,
            "line": first.line if first is not None and first.line is not None else rej.line,
            "game_id": rej.game_id,
            "code": first.code if first is not None else "rejected",
            "message": _rejection_message(errors),
            "raw": raw,
            "raw_sha256": sha,
            "rejected_at": at,
        }
    ]
    problems = [
        {
            "source_file": rej.source_file,
            "game_id": rej.game_id,
            "seq": p.seq,
            "line": p.line,
            "code": p.code,
            "severity": p.severity,
            "message": p.message,
            "raw_sha256": sha,
        }
        for p in rej.problems
    ]
    return rejected, problems


def write_batch(
    con: duckdb.DuckDBPyConnection, games: list[GameRows], rejections: list[Rejection], replace: bool = False
) -> BatchResult:
    """Store new games (idempotent by id and content hash) and rejections, in one transaction.

    A game whose id is stored with other content is a conflict (rejected as ``duplicate_id``), unless
    ``replace``: then it is stored as that id's new version, the old one leaving a ``history`` row.
    Storing a valid version of an id (or finding it stored already) moves that id's rejected versions
    out of ``rejected`` and their problems out of ``problems`` into ``history``: they are no longer
    current, and Data quality and the replay stop showing them."""
    from clue_stats.engine.problems import Problem

    result = BatchResult()
    at = now()
    con.execute("BEGIN TRANSACTION")
    try:
        ids = [g.game_id for g in games]
        existing: dict[str, str] = {}
        if ids:
            existing = dict(
                con.execute(
                    "SELECT game_id, content_sha256 FROM games WHERE game_id IN (SELECT unnest(?))", [ids]
                ).fetchall()
            )
        tables: dict[str, list[dict[str, Any]]] = {t: [] for t in GAME_TABLES}
        for g in games:
            known = existing.get(g.game_id)
            if known == g.content_sha256:
                result.skipped.append(g.game_id)
                continue
            if known is not None and replace:
                _retire_version(con, g.game_id, at)
                result.replaced.append(g.game_id)
            elif known is not None:
                if g.raw is not None:
                    raw = g.raw
                else:  # rows made without their text (a game converted in memory): its records
                    raw = "".join(str(e["payload"]) + "\n" for e in g.tables.get("events", []))
                header = g.tables["games"][0]
                result.rejected.append(
                    Rejection(
                        source_file=header.get("source_file"),
                        line=header.get("line"),
                        raw=raw,
                        game_id=g.game_id,
                        problems=[
                            Problem(
                                "duplicate_id",
                                f"game id {g.game_id!r} is already stored with other content "
                                "(ingest with --replace to store this version in its place)",
                                seq=0,
                                line=header.get("line"),
                                source_file=header.get("source_file"),
                            )
                        ],
                    )
                )
                continue
            existing[g.game_id] = g.content_sha256
            result.stored.append(g.game_id)
            for table in GAME_TABLES:
                rows = g.tables.get(table, [])
                if table == "games":
                    rows = [{**r, "ingested_at": at} for r in rows]
                tables[table].extend(rows)
        for table in GAME_TABLES:
            _insert(con, table, tables[table])
        _retire_rejections(con, result.stored + result.skipped, at)
        all_rejections = rejections + result.rejected
        result.rejected = all_rejections
        if all_rejections:
            shas = [r.raw_sha256 for r in all_rejections]
            seen = {
                (f, s)
                for f, s in con.execute(
                    "SELECT source_file, raw_sha256 FROM rejected WHERE raw_sha256 IN (SELECT unnest(?))", [shas]
                ).fetchall()
            }
            rejected_rows, problem_rows = [], []
            for rej in all_rejections:
                key = (rej.source_file, rej.raw_sha256)
                if key in seen:
                    continue
                seen.add(key)
                result.rejected_new += 1
                r_rows, p_rows = _rejection_rows(rej, at)
                rejected_rows += r_rows
                problem_rows += p_rows
            _insert(con, "rejected", rejected_rows)
            _insert(con, "problems", problem_rows)
        con.execute("COMMIT")
    except BaseException:
        _rollback(con)
        raise
    return result


def _rollback(con: duckdb.DuckDBPyConnection) -> None:
    """Undo the transaction, if DuckDB has not already: after a failed write (a full disk) it has
    rolled back itself, and saying so again would hide the reason ("no transaction is active")."""
    try:
        con.execute("ROLLBACK")
    except duckdb.TransactionException:
        pass


def _retire_rejections(con: duckdb.DuckDBPyConnection, game_ids: list[str], at: datetime) -> None:
    """Rejected versions of ids that now have a valid stored version: into ``history``."""
    if not game_ids:
        return
    con.execute(
        "INSERT INTO history SELECT ?, game_id, 'rejected_version_superseded', source_file, line, code, message, "
        "raw_sha256, raw FROM rejected WHERE game_id IN (SELECT unnest(?))",
        [at, game_ids],
    )
    con.execute("DELETE FROM rejected WHERE game_id IN (SELECT unnest(?))", [game_ids])
    con.execute("DELETE FROM problems WHERE raw_sha256 IS NOT NULL AND game_id IN (SELECT unnest(?))", [game_ids])


def _retire_version(con: duckdb.DuckDBPyConnection, game_id: str, at: datetime) -> None:
    """A stored version about to be replaced: a ``history`` row, and its rows gone."""
    con.execute(
        "INSERT INTO history SELECT ?, game_id, 'stored_version_replaced', source_file, line, NULL, "
        "'replaced by ingest --replace', content_sha256, NULL FROM games WHERE game_id = ?",
        [at, game_id],
    )
    _delete_rows(con, [game_id])


def _delete_rows(con: duckdb.DuckDBPyConnection, game_ids: list[str]) -> None:
    """Every row of these stored games (the problems of their rejected versions are not theirs)."""
    for table in GAME_TABLES:
        only_stored = " AND raw_sha256 IS NULL" if table == "problems" else ""
        con.execute(f"DELETE FROM {table} WHERE game_id IN (SELECT unnest(?)){only_stored}", [game_ids])


def start_run(con: duckdb.DuckDBPyConnection, paths: list[str]) -> datetime:
    started = now()
    con.execute("INSERT INTO ingest_runs (started_at, paths) VALUES (?, ?)", [started, " ".join(paths)])
    return started


def finish_run(con: duckdb.DuckDBPyConnection, started: datetime, **counts: int) -> None:
    con.execute(
        "UPDATE ingest_runs SET finished_at = ?, files_read = ?, files_skipped = ?, games_stored = ?, "
        "games_skipped = ?, games_rejected = ? WHERE started_at = ?",
        [
            now(),
            counts["files_read"],
            counts["files_skipped"],
            counts["games_stored"],
            counts["games_skipped"],
            counts["games_rejected"],
            started,
        ],
    )


def delete_games(con: duckdb.DuckDBPyConnection, game_ids: list[str]) -> list[str]:
    """Remove stored games and every row that belongs to them; returns the ids that were found."""
    found = [
        r[0]
        for r in con.execute("SELECT game_id FROM games WHERE game_id IN (SELECT unnest(?))", [game_ids]).fetchall()
    ]
    con.execute("BEGIN TRANSACTION")
    try:
        _delete_rows(con, found)
        con.execute("COMMIT")
    except BaseException:
        _rollback(con)
        raise
    return found


# The start of the message of an over_budget problem of the analysis (a stage the budget cut), and
# of the one an older clue-stats wrote for a game it left unanalysed: replaced with the analysis.
ANALYSIS_CUT = "the analysis left out "
_ANALYSIS_PROBLEMS = (ANALYSIS_CUT, "the game was not analysed: ")

# Rows the analysis computes: replaced as a whole when a game is analysed again (clue-stats analyse).
ANALYSIS_TABLES = ("suggestions", "information", "accusations", "statements")
# ... and the players columns it fills in.
PLAYER_ANALYSIS_COLUMNS = {
    "first_certain_seq": pa.int32(),
    "missed_win": pa.bool_(),
    "rated_suggestions": pa.int32(),
    "review_accuracy": pa.float64(),
    "stated_precision": pa.float64(),
    "stated_recall": pa.float64(),
}


def replace_analysis(con: duckdb.DuckDBPyConnection, games: list[GameRows]) -> list[str]:
    """Replace the analysis of stored games (their suggestions, information and accusations rows,
    the players columns of PLAYER_ANALYSIS_COLUMNS, games.analysis_version and analysis_cut, and the
    over_budget problems of the analysis) in one transaction; returns the ids replaced (games no
    longer stored are left out)."""
    ids = [g.game_id for g in games]
    if not ids:
        return []
    con.execute("BEGIN TRANSACTION")
    try:
        stored = {
            r[0] for r in con.execute("SELECT game_id FROM games WHERE game_id IN (SELECT unnest(?))", [ids]).fetchall()
        }
        games = [g for g in games if g.game_id in stored]
        found = [g.game_id for g in games]
        for table in ANALYSIS_TABLES:
            con.execute(f"DELETE FROM {table} WHERE game_id IN (SELECT unnest(?))", [found])
            _insert(con, table, [row for g in games for row in g.tables.get(table, [])])
        cut = "code = 'over_budget' AND (" + " OR ".join("starts_with(message, ?)" for _ in _ANALYSIS_PROBLEMS) + ")"
        con.execute(f"DELETE FROM problems WHERE game_id IN (SELECT unnest(?)) AND {cut}", [found, *_ANALYSIS_PROBLEMS])
        _insert(
            con,
            "problems",
            [
                row
                for g in games
                for row in g.tables.get("problems", [])
                if row["code"] == "over_budget" and row["message"].startswith(ANALYSIS_CUT)
            ],
        )
        players = [r for g in games for r in g.tables.get("players", [])]
        if players:
            frame = pa.table(
                {
                    "game_id": [r["game_id"] for r in players],
                    "seat": [r["seat"] for r in players],
                    **{
                        column: pa.array([r.get(column) for r in players], kind)
                        for column, kind in PLAYER_ANALYSIS_COLUMNS.items()
                    },
                }
            )
            con.register("incoming_players", frame)
            try:
                assignments = ", ".join(f"{c} = i.{c}" for c in PLAYER_ANALYSIS_COLUMNS)
                con.execute(
                    f"UPDATE players SET {assignments} FROM incoming_players i "
                    "WHERE players.game_id = i.game_id AND players.seat = i.seat"
                )
            finally:
                con.unregister("incoming_players")
        versions = [g.tables["games"][0] for g in games if g.tables.get("games")]
        if versions:
            frame = pa.table(
                {
                    "game_id": [v["game_id"] for v in versions],
                    "analysis_version": pa.array([v.get("analysis_version") for v in versions], pa.int32()),
                    "analysis_cut": pa.array([v.get("analysis_cut") for v in versions], pa.string()),
                }
            )
            con.register("incoming_games", frame)
            try:
                con.execute(
                    "UPDATE games SET analysis_version = i.analysis_version, analysis_cut = i.analysis_cut "
                    "FROM incoming_games i WHERE games.game_id = i.game_id"
                )
            finally:
                con.unregister("incoming_games")
        con.execute("COMMIT")
    except BaseException:
        _rollback(con)
        raise
    return found


# ---------------------------------------------------------------- the league (analysis/ratings.py computes)


def replace_ratings(con: duckdb.DuckDBPyConnection, changes: list[tuple[str, int, pa.Table]]) -> None:
    """For each (pool, from_index, rows): drop the pool's ratings from that game on and insert the
    recomputed rows, all in one transaction (the earlier games' ratings stay as they are)."""
    if not changes:
        return
    con.execute("BEGIN TRANSACTION")
    try:
        for pool, from_index, rows in changes:
            con.execute("DELETE FROM ratings WHERE pool = ? AND game_index >= ?", [pool, from_index])
            if rows.num_rows:
                con.register("incoming_ratings", rows)
                try:
                    con.execute("INSERT INTO ratings BY NAME SELECT * FROM incoming_ratings")
                finally:
                    con.unregister("incoming_ratings")
        con.execute("COMMIT")
    except BaseException:
        _rollback(con)
        raise


def record_merge(con: duckdb.DuckDBPyConnection, name: str, merged_into: str) -> None:
    """Record that ``name`` is the same person as ``merged_into``; the ratings are computed anew."""
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute("INSERT INTO player_merges VALUES (?, ?, ?, NULL)", [name, merged_into, now()])
        con.execute("DELETE FROM ratings")
        con.execute("COMMIT")
    except BaseException:
        _rollback(con)
        raise


def undo_merge(con: duckdb.DuckDBPyConnection, name: str) -> int:
    """Undo the standing merge of ``name`` (kept in the table as undone); returns how many were undone."""
    con.execute("BEGIN TRANSACTION")
    try:
        (count,) = con.execute(
            "SELECT count(*) FROM player_merges WHERE name = ? AND unmerged_at IS NULL", [name]
        ).fetchall()[0]
        if count:
            con.execute(
                "UPDATE player_merges SET unmerged_at = ? WHERE name = ? AND unmerged_at IS NULL", [now(), name]
            )
            con.execute("DELETE FROM ratings")
        con.execute("COMMIT")
    except BaseException:
        _rollback(con)
        raise
    return int(count)
