"""The open database: :class:`Store` owns one DuckDB connection, its lock retry, and the one
``atomic()`` every write runs in (sqlite-utils' ``Database`` is the model).

DuckDB lets one process write a file at a time, so a writer holds the file only while it writes a
batch: one transaction holds whole games (one or several), never part of one. Readers (dashboard,
reports) open a short-lived read-only store that retries while a writer holds the file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb
import nanoarrow as na

if TYPE_CHECKING:
    import polars as pl

from clue_stats.engine.errors import StoreBusy, StoreError, UsageError
from clue_stats.engine.markers import T_
from clue_stats.ingest.store.persons import show_persons
from clue_stats.ingest.store.schema import TABLE, ensure_schema, show_today_schema

# The database when none is named: $CLUE_STATS_DB, else this file in the working folder.
DEFAULT_DB = "clue.duckdb"
DUCKDB_MAGIC = b"DUCK"  # bytes 8 to 12 of every DuckDB database file
READ_WAIT_SECONDS = 10.0  # a reader waits this long for a writer's batch, then says the store is busy
WRITE_WAIT_SECONDS = 30.0


NO_SPACE = os.strerror(errno.ENOSPC)  # "No space left on device": DuckDB's IO errors quote it


class DiskFull(StoreError):
    """The database's disk filled up while writing: the transaction was rolled back."""


class NotADatabase(UsageError, StoreError):
    """The path names an existing file (or folder) that is not a DuckDB database: a usage mistake."""


def database(named: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The database file: the one named (``--db``), else $CLUE_STATS_DB, else clue.duckdb here."""
    env = os.environ if environ is None else environ
    return named or env.get("CLUE_STATS_DB") or DEFAULT_DB


def check_is_database(path: str | Path) -> None:
    """Refuse, before DuckDB sees it, a path that exists and is not a DuckDB database: DuckDB would
    open some other files (a CSV) as an empty database in memory, and the games would go nowhere."""
    if str(path) == ":memory:":
        return
    target = Path(path)
    if target.is_dir():
        raise NotADatabase(T_("{path} is a folder, not a database file", path=path))
    try:
        with open(target, "rb") as f:
            head = f.read(12)
    except FileNotFoundError:
        return  # a new database
    except OSError as exc:
        raise NotADatabase(
            T_("{path}: cannot read the database file: {reason}", path=path, reason=exc.strerror or exc)
        ) from None
    if head[8:12] != DUCKDB_MAGIC:
        raise NotADatabase(
            T_(
                "{path} is not a DuckDB database (it holds something else, left untouched); "
                "name a clue-stats database or a new file with --db",
                path=path,
            )
        )


def _is_lock_error(exc: Exception) -> bool:
    text = str(exc).lower()
    return "lock" in text or "conflicting" in text or "being used" in text


def _connect(
    path: str | Path, read_only: bool, wait_seconds: float, threads: int | None = None
) -> duckdb.DuckDBPyConnection:
    check_is_database(path)
    deadline = time.monotonic() + wait_seconds
    delay = 0.02
    config: dict[str, str | bool | int | float | list[str]] = {"threads": threads} if threads else {}
    while True:
        try:
            return duckdb.connect(str(path), read_only=read_only, config=config)
        except duckdb.Error as exc:
            if not _is_lock_error(exc):
                raise StoreError(T_("{path}: cannot open the database: {error}", path=path, error=exc)) from None
            if time.monotonic() >= deadline:
                raise StoreBusy(
                    T_(
                        "{path} is held by another process (a running ingest, or a program that keeps it open) "
                        "and stayed busy for {seconds} s; close it and try again",
                        path=path,
                        seconds=format(wait_seconds, "g"),
                    )
                ) from None
            time.sleep(delay)
            delay = min(delay * 2, 0.5)


class Store:
    """One open database. Every write runs in :meth:`atomic` (nested blocks join the outer
    transaction, so a merge and its ratings commit together or not at all); reads go through
    :meth:`frame`, :meth:`rows` and :meth:`execute`. Open it with :func:`read_connection` or
    :func:`write_connection` (or :meth:`open`), which close it again."""

    def __init__(self, con: duckdb.DuckDBPyConnection, path: str | Path, writable: bool) -> None:
        self.con = con
        self.path = str(path)
        self.writable = writable
        self._depth = 0  # how many atomic() blocks are open

    @classmethod
    @contextlib.contextmanager
    def open(
        cls,
        path: str | Path,
        write: bool = False,
        wait_seconds: float | None = None,
        create: bool = True,
        threads: int | None = None,
    ) -> Iterator[Store]:
        """The database at ``path``: read-only (it must exist), or writable (made with the schema
        if new, unless not ``create``; an older one given its new columns); waits up to
        ``wait_seconds`` for a writer. ``threads``: DuckDB's threads (None: its default, one a core)."""
        if not (write and create) and not Path(path).exists():
            raise StoreError(T_("{path}: no such database (run `clue-stats ingest` first)", path=path))
        wait = wait_seconds if wait_seconds is not None else (WRITE_WAIT_SECONDS if write else READ_WAIT_SECONDS)
        con = _connect(path, not write, wait, threads)
        try:
            store = cls(con, path, write)
            if write:
                with store.atomic():
                    ensure_schema(con)
            else:
                show_today_schema(con)
            yield store
        except (duckdb.Error, OSError) as exc:
            if not write or (NO_SPACE not in str(exc) and getattr(exc, "errno", None) != errno.ENOSPC):
                raise
            raise DiskFull(
                T_(
                    "the disk holding {path} is full ({error}): what was being written is not stored, what was "
                    "stored before it is kept and the database opens as before; free some space and run the "
                    "command again",
                    path=path,
                    error=NO_SPACE,
                )
            ) from None
        finally:
            con.close()

    @contextlib.contextmanager
    def atomic(self) -> Iterator[Store]:
        """One transaction: committed when the block ends, rolled back when it raises (whatever it
        raises, KeyboardInterrupt included). A block inside another joins it."""
        if self._depth:
            self._depth += 1
            try:
                yield self
            finally:
                self._depth -= 1
            return
        self.con.execute("BEGIN TRANSACTION")
        self._depth = 1
        try:
            yield self
        except BaseException:
            # after a failed write (a full disk) DuckDB has rolled back itself, and saying so again
            # would hide the reason ("no transaction is active")
            with contextlib.suppress(duckdb.Error):
                self.con.execute("ROLLBACK")
            raise
        else:
            self.con.execute("COMMIT")
        finally:
            self._depth = 0

    # ------------------------------------------------------------ reading (and the writes' SQL)

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> duckdb.DuckDBPyConnection:
        return self.con.execute(sql, list(params or []))

    def sql(self, sql: str, params: Sequence[Any] | None = None) -> duckdb.DuckDBPyRelation:
        return self.con.sql(sql, params=list(params or []))

    def frame(self, sql: str, params: Sequence[Any] | None = None) -> pl.DataFrame:
        """A query's result as a polars frame (column names kept even when no row matches)."""
        import polars as pl  # deferred: start-up (ingest writes and reads rows, and never a frame)

        # through the Arrow C stream (the relation's __arrow_c_stream__), not .pl(), which imports
        # pyarrow (0.15 CPU s of every command's start; issue 37); the whole result is fetched at once,
        # so the connection is free again
        return pl.DataFrame(self.con.sql(sql, params=list(params or [])))

    def one(self, sql: str, params: Sequence[Any] | None = None) -> dict[str, Any]:
        """The first row of a query by column name ({} when none)."""
        result = self.con.execute(sql, list(params or []))
        names = [d[0] for d in result.description or []]
        rows = result.fetchall()
        return dict(zip(names, rows[0], strict=True)) if rows else {}

    def rows(self, sql: str, params: Sequence[Any] | None = None) -> list[tuple[Any, ...]]:
        # fetchall, not fetchone: duckdb 2 keeps a partly fetched result open on the connection
        return self.con.execute(sql, list(params or [])).fetchall()

    def register(self, name: str, data: Any) -> None:
        """``data`` (:class:`ArrowRows`, a polars frame or an Arrow table) readable as the view ``name``
        until unregistered."""
        polars = sys.modules.get("polars")  # a polars frame exists only where polars was imported
        self.con.register(name, _FrameStream(data) if polars and isinstance(data, polars.DataFrame) else data)

    def unregister(self, name: str) -> None:
        self.con.unregister(name)

    @contextlib.contextmanager
    def registered(self, name: str, data: Any) -> Iterator[None]:
        """``data`` (:class:`ArrowRows`, a polars frame or an Arrow table) readable as the view ``name``
        for the block."""
        self.register(name, data)
        try:
            yield
        finally:
            self.con.unregister(name)

    def create_function(self, *args: Any, **kwargs: Any) -> None:
        self.con.create_function(*args, **kwargs)


class _FrameStream:
    """A polars frame as DuckDB reads it without pyarrow: by the Arrow C stream interface (DuckDB
    converts a polars frame it is given through pyarrow, whose import costs 0.15 CPU s; issue 37).
    Each scan asks for a new stream, so a view of it may be read more than once."""

    def __init__(self, frame: pl.DataFrame) -> None:
        import polars as pl  # deferred: start-up (a frame was made, so polars is imported)

        # a column of nothing but nulls (polars' Null type) as text: DuckDB refuses the Null type's
        # batches from a stream (they carry nulls and, as Arrow allows, no validity bitmap); a NULL of
        # text is cast to the column it is written to like any NULL
        nulls = [name for name, dtype in frame.schema.items() if dtype == pl.Null]
        self.frame = frame.with_columns(pl.col(nulls).cast(pl.String)) if nulls else frame

    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        return self.frame.__arrow_c_stream__(requested_schema)


# The Arrow type of each of the store's SQL types (ingest.store.schema), as nanoarrow writes it
_ARROW = {
    "VARCHAR": na.string(),
    "JSON": na.string(),
    "INTEGER": na.int32(),
    "BIGINT": na.int64(),
    "DOUBLE": na.float64(),
    "BOOLEAN": na.bool_(),
    "TIMESTAMP": na.timestamp("us"),
}
_EPOCH = datetime(1970, 1, 1)
_MICROSECOND = timedelta(microseconds=1)


def _microseconds(value: datetime | None) -> int | None:
    """A TIMESTAMP as Arrow holds it: microseconds since 1970 (an aware time first made UTC, as
    DuckDB stores it)."""
    if value is None:
        return None
    if value.tzinfo is not None:
        value = value.astimezone(UTC).replace(tzinfo=None)
    return (value - _EPOCH) // _MICROSECOND


class ArrowRows:
    """Rows for DuckDB to read (:meth:`Store.registered`), column by column, each of its SQL type in
    ``types`` (the store's declared types: VARCHAR, JSON, INTEGER, BIGINT, DOUBLE, BOOLEAN,
    TIMESTAMP), held as Arrow arrays (nanoarrow's) and handed over by the Arrow C stream interface.
    Neither a polars frame nor a pyarrow table: polars' import is a sixth of a command's start (0.09
    CPU s), and pyarrow's constructors import pandas (0.7 CPU s) to ask of the values whether they
    are pandas objects; nanoarrow's import is 0.03 s, and its arrays reach DuckDB in two thirds of
    the time a polars frame takes (issue 37). Each scan asks for a new stream, so a view of it may
    be read more than once."""

    def __init__(self, columns: Mapping[str, Sequence[Any]], types: Mapping[str, str]) -> None:
        arrays = []
        for name, values in columns.items():
            sql_type = types[name]
            if sql_type == "TIMESTAMP":
                values = [_microseconds(v) for v in values]
            arrays.append(na.c_array(values, _ARROW[sql_type]))
        self.height = len(next(iter(columns.values()), ()))
        schema = na.struct({name: _ARROW[types[name]] for name in columns})
        self._batch = na.c_array_from_buffers(schema, self.height, [None], children=arrays)

    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        return na.c_array_stream(self._batch).__arrow_c_stream__(requested_schema)


def table_rows(table: str, columns: Mapping[str, Sequence[Any]]) -> ArrowRows:
    """Rows of the stored table ``table`` for DuckDB to read, each column of the type the schema
    declares for it."""
    declared = TABLE[table]
    return ArrowRows(columns, {c: declared.column(c).type for c in columns})


@contextlib.contextmanager
def read_connection(
    path: str | Path, wait_seconds: float = READ_WAIT_SECONDS, persons: bool = False
) -> Iterator[Store]:
    """A short-lived read-only store that retries while a writer holds the file; with ``persons``,
    one that names every merged name as its person (ingest.store.persons: for what people read)."""
    with Store.open(path, write=False, wait_seconds=wait_seconds) as store:
        if persons:
            show_persons(store.con)
        yield store


@contextlib.contextmanager
def write_connection(
    path: str | Path, wait_seconds: float = WRITE_WAIT_SECONDS, create: bool = True, threads: int | None = None
) -> Iterator[Store]:
    """A writable store, created with the schema if new (unless not ``create``: then it must
    exist); held only as long as the caller needs. ``threads``: DuckDB's (None: one a core)."""
    with Store.open(path, write=True, wait_seconds=wait_seconds, create=create, threads=threads) as store:
        yield store
