"""Every write the program makes to the store: games and rejections in whole-game batches, their
retirement, deletion, the analysis written back, the league's ratings and merges. Each is one
``Store.atomic()`` block (a caller's block around several joins them into one transaction)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from clue_stats.engine.problems import Problem
from clue_stats.ingest.store.connection import ArrowRows, Store, read_connection, table_rows, write_connection
from clue_stats.ingest.store.schema import (
    ANALYSIS_TABLES,
    GAME_TABLES,
    PLAYER_ANALYSIS_COLUMNS,
    PSEUDONYM_SECRET,
    TABLE,
    now,
)

RAW_LIMIT = 1 << 20  # rejected games keep their first MiB


def pseudonym_secret(path: str | Path) -> str:
    """The database's own pseudonym secret (made when the database is first written, or now)."""
    with read_connection(path) as db:
        tables = db.rows("SELECT count(*) FROM information_schema.tables WHERE table_name = 'settings'")
        found = db.rows("SELECT value FROM settings WHERE key = ?", [PSEUDONYM_SECRET]) if tables[0][0] else []
    if found:
        return str(found[0][0])
    with write_connection(path) as db:  # a database made before the secret existed: it gets one now
        return str(db.rows("SELECT value FROM settings WHERE key = ?", [PSEUDONYM_SECRET])[0][0])


@dataclass(frozen=True)
class Columns:
    """A typed result of the analysis as the store takes it: values of some columns of one table's
    rows, by the row's key (``by``: ``seq`` of a record, ``name`` of a player; None: the game's one
    row, under the key None), or ``rows``: the table's rows whole (``information``)."""

    table: str
    by: str | None = None
    values: Mapping[Any, Mapping[str, Any]] = field(default_factory=dict)
    rows: list[dict[str, Any]] | None = None


@dataclass
class GameRows:
    """Every row one game adds, by table (dicts by column name); written in one transaction."""

    game_id: str
    content_sha256: str
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    raw: str | None = None  # the game's original text, stored if the game is rejected here

    def add(self, table: str, row: dict[str, Any]) -> None:
        self.tables.setdefault(table, []).append(row)

    def apply(self, columns: Columns) -> None:
        """Map a result onto the rows: its values into the rows they key, or its rows in place of
        the table's (a column the schema does not declare is a program error)."""
        declared = set(TABLE[columns.table].names())
        if columns.rows is not None:
            self.tables[columns.table] = list(columns.rows)
            given = {c for row in columns.rows for c in row}
        else:
            given = {c for values in columns.values.values() for c in values}
            for row in self.tables.get(columns.table, []):
                found = columns.values.get(None if columns.by is None else row[columns.by])
                if found is not None:
                    row.update(found)
        if not given <= declared:
            raise ValueError(f"{columns.table} has no column {', '.join(sorted(given - declared))}")


@dataclass
class Rejection:
    """A rejected game or unreadable file, with every problem found and its original text."""

    source_file: str | None
    line: int | None
    raw: str
    problems: list[Any]  # engine.problems.Problem
    game_id: str | None = None
    _sha256: str | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def raw_sha256(self) -> str:
        if self._sha256 is None:  # asked for several times as a batch is written
            self._sha256 = hashlib.sha256(self.raw.encode("utf-8", errors="replace")).hexdigest()
        return self._sha256


@dataclass
class BatchResult:
    stored: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)  # stored, in place of another version (``replace``)
    skipped: list[str] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)  # includes duplicate_id conflicts
    rejected_new: int = 0  # rejections not already in the store


def _insert(db: Store, table: str, rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    given = {c for row in rows for c in row}  # a column some game's rows lack is NULL in those
    columns = [c for c in TABLE[table].names() if c in given]
    if len(columns) < len(given):
        raise ValueError(f"{table} has no column {', '.join(sorted(given - set(columns)))}")
    with db.registered("incoming", table_rows(table, {c: [r.get(c) for r in rows] for c in columns})):
        db.execute(f"INSERT INTO {table} BY NAME SELECT * FROM incoming")


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


def said_columns(problem: Any) -> dict[str, Any]:
    """A problem's ``template`` and ``fields`` columns: its message as template and values (the
    values, the rule's code before it and the notation's line after it, as JSON)."""
    said = problem.said
    if said is None:
        return {"template": None, "fields": None}
    return {
        "template": said.template,
        "fields": json.dumps(said.parts(), ensure_ascii=False),
    }


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
            "col": p.column,
            "code": p.code,
            "severity": p.severity,
            "message": p.message,
            "raw_sha256": sha,
            **said_columns(p),
        }
        for p in rej.problems
    ]
    return rejected, problems


def write_batch(db: Store, games: list[GameRows], rejections: list[Rejection], replace: bool = False) -> BatchResult:
    """Store new games (idempotent by id and content hash) and rejections, in one transaction.

    A game whose id is stored with other content is a conflict (rejected as ``duplicate_id``), unless
    ``replace``: then it is stored as that id's new version, the old one leaving a ``history`` row.
    Storing a valid version of an id (or finding it stored already) moves that id's rejected versions
    out of ``rejected`` and their problems out of ``problems`` into ``history``: they are no longer
    current, and Data quality and the replay stop showing them."""
    result = BatchResult()
    at = now()
    with db.atomic():
        ids = [g.game_id for g in games]
        existing: dict[str, str] = {}
        if ids:
            existing = dict(
                db.execute(
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
                _retire_version(db, g.game_id, at)
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
            _insert(db, table, tables[table])
        _retire_rejections(db, result.stored + result.skipped, at)
        all_rejections = rejections + result.rejected
        result.rejected = all_rejections
        if all_rejections:
            # stored before: matched by file and text together (by text alone, every empty file's
            # rejection would fetch every empty file's row stored before it: n * n over a folder)
            incoming = table_rows(
                "rejected",
                {
                    "source_file": [r.source_file for r in all_rejections],
                    "raw_sha256": [r.raw_sha256 for r in all_rejections],
                },
            )
            with db.registered("incoming_rejections", incoming):
                seen = set(
                    db.rows(
                        "SELECT DISTINCT r.source_file, r.raw_sha256 FROM rejected r JOIN incoming_rejections i "
                        "ON r.raw_sha256 = i.raw_sha256 AND r.source_file IS NOT DISTINCT FROM i.source_file"
                    )
                )
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
            _insert(db, "rejected", rejected_rows)
            _insert(db, "problems", problem_rows)
    return result


def _retire_rejections(db: Store, game_ids: list[str], at: datetime) -> None:
    """Rejected versions of ids that now have a valid stored version: into ``history``."""
    if not game_ids:
        return
    db.execute(
        "INSERT INTO history SELECT ?, game_id, 'rejected_version_superseded', source_file, line, code, message, "
        "raw_sha256, raw FROM rejected WHERE game_id IN (SELECT unnest(?))",
        [at, game_ids],
    )
    db.execute("DELETE FROM rejected WHERE game_id IN (SELECT unnest(?))", [game_ids])
    db.execute("DELETE FROM problems WHERE raw_sha256 IS NOT NULL AND game_id IN (SELECT unnest(?))", [game_ids])


def _retire_version(db: Store, game_id: str, at: datetime) -> None:
    """A stored version about to be replaced: a ``history`` row, and its rows gone."""
    db.execute(
        "INSERT INTO history SELECT ?, game_id, 'stored_version_replaced', source_file, line, NULL, "
        "'replaced by ingest --replace', content_sha256, NULL FROM games WHERE game_id = ?",
        [at, game_id],
    )
    _delete_rows(db, [game_id])


def _delete_rows(db: Store, game_ids: list[str]) -> None:
    """Every row of these stored games (the problems of their rejected versions are not theirs)."""
    for table in GAME_TABLES:
        only_stored = " AND raw_sha256 IS NULL" if table == "problems" else ""
        db.execute(f"DELETE FROM {table} WHERE game_id IN (SELECT unnest(?)){only_stored}", [game_ids])


def start_run(db: Store, paths: list[str]) -> datetime:
    started = now()
    db.execute("INSERT INTO ingest_runs (started_at, paths) VALUES (?, ?)", [started, " ".join(paths)])
    return started


def finish_run(db: Store, started: datetime, **counts: int) -> None:
    db.execute(
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


def delete_games(db: Store, game_ids: list[str]) -> list[str]:
    """Remove stored games and every row that belongs to them; returns the ids that were found."""
    with db.atomic():
        found = [r[0] for r in db.rows("SELECT game_id FROM games WHERE game_id IN (SELECT unnest(?))", [game_ids])]
        _delete_rows(db, found)
    return found


def set_night_order(db: Store, night_games: list[str], ordered: list[str] | None) -> None:
    """Give a night's games (``night_games``: all of them) the club's order ``ordered`` (every one
    of them, first played first), or take it back (None: their times order them again); run it in the
    caller's ``atomic()`` that rates the games again, so that the two commit together."""
    with db.atomic():
        db.execute("DELETE FROM night_order WHERE game_id IN (SELECT unnest(?))", [night_games])
        if ordered:
            at = now()
            rows = table_rows(
                "night_order",
                {"game_id": ordered, "position": list(range(len(ordered))), "ordered_at": [at] * len(ordered)},
            )
            with db.registered("incoming_order", rows):
                db.execute("INSERT INTO night_order BY NAME SELECT * FROM incoming_order")


# The start of the message of an over_budget problem of the analysis (a stage the budget cut), and
# of the one an older clue-stats wrote for a game it left unanalysed: replaced with the analysis.
ANALYSIS_CUT = "the analysis left out "
_ANALYSIS_PROBLEMS = (ANALYSIS_CUT, "the game was not analysed: ")


def replace_analysis(db: Store, games: list[GameRows]) -> list[str]:
    """Replace the analysis of stored games (their suggestions, information and accusations rows,
    the players columns of PLAYER_ANALYSIS_COLUMNS, games.analysis_version and analysis_cut, and the
    over_budget problems of the analysis) in one transaction; returns the ids replaced (games no
    longer stored are left out)."""
    ids = [g.game_id for g in games]
    if not ids:
        return []
    with db.atomic():
        stored = {
            r[0] for r in db.execute("SELECT game_id FROM games WHERE game_id IN (SELECT unnest(?))", [ids]).fetchall()
        }
        games = [g for g in games if g.game_id in stored]
        found = [g.game_id for g in games]
        for table in ANALYSIS_TABLES:
            db.execute(f"DELETE FROM {table} WHERE game_id IN (SELECT unnest(?))", [found])
            _insert(db, table, [row for g in games for row in g.tables.get(table, [])])
        cut = "code = 'over_budget' AND (" + " OR ".join("starts_with(message, ?)" for _ in _ANALYSIS_PROBLEMS) + ")"
        db.execute(f"DELETE FROM problems WHERE game_id IN (SELECT unnest(?)) AND {cut}", [found, *_ANALYSIS_PROBLEMS])
        _insert(
            db,
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
            incoming = table_rows(
                "players",
                {
                    "game_id": [r["game_id"] for r in players],
                    "seat": [r["seat"] for r in players],
                    **{column: [r.get(column) for r in players] for column in PLAYER_ANALYSIS_COLUMNS},
                },
            )
            with db.registered("incoming_players", incoming):
                assignments = ", ".join(f"{c} = i.{c}" for c in PLAYER_ANALYSIS_COLUMNS)
                db.execute(
                    f"UPDATE players SET {assignments} FROM incoming_players i "
                    "WHERE players.game_id = i.game_id AND players.seat = i.seat"
                )
        versions = [g.tables["games"][0] for g in games if g.tables.get("games")]
        if versions:
            incoming = table_rows(
                "games",
                {
                    "game_id": [v["game_id"] for v in versions],
                    "analysis_version": [v.get("analysis_version") for v in versions],
                    "analysis_cut": [v.get("analysis_cut") for v in versions],
                },
            )
            with db.registered("incoming_games", incoming):
                db.execute(
                    "UPDATE games SET analysis_version = i.analysis_version, analysis_cut = i.analysis_cut "
                    "FROM incoming_games i WHERE games.game_id = i.game_id"
                )
    return found


# ---------------------------------------------------------------- the league (analysis/corpus/ratings.py computes)


def replace_ratings(db: Store, changes: list[tuple[str, int, ArrowRows]]) -> None:
    """For each (pool, from_index, rows): drop the pool's ratings from that game on and insert the
    recomputed rows, all in one transaction (the earlier games' ratings stay as they are)."""
    if not changes:
        return
    with db.atomic():
        for pool, from_index, rows in changes:
            db.execute("DELETE FROM ratings WHERE pool = ? AND game_index >= ?", [pool, from_index])
            if rows.height:
                with db.registered("incoming_ratings", rows):
                    db.execute("INSERT INTO ratings BY NAME SELECT * FROM incoming_ratings")


def record_merge(db: Store, name: str, merged_into: str) -> None:
    """Record that ``name`` is the same person as ``merged_into`` and drop the ratings: run it in
    the caller's ``atomic()`` that computes them anew, so that the two commit together."""
    with db.atomic():
        db.execute("INSERT INTO player_merges VALUES (?, ?, ?, NULL)", [name, merged_into, now()])
        db.execute("DELETE FROM ratings")


def undo_merge(db: Store, name: str) -> int:
    """Undo the standing merge of ``name`` (kept in the table as undone) and drop the ratings, in the
    caller's ``atomic()`` that computes them anew; returns how many were undone."""
    with db.atomic():
        (count,) = db.execute(
            "SELECT count(*) FROM player_merges WHERE name = ? AND unmerged_at IS NULL", [name]
        ).fetchall()[0]
        if count:
            db.execute("UPDATE player_merges SET unmerged_at = ? WHERE name = ? AND unmerged_at IS NULL", [now(), name])
            db.execute("DELETE FROM ratings")
    return int(count)
