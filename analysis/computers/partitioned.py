"""The per-game analysis, partitioned: run over Parquet exports of the `events` table on a Dask cluster.

The analysis of one game is a pure function of its records (:func:`analysis.computers.game_analysis.analyse_game`), so
a corpus too big for one machine splits into partitions of whole games that any number of workers
analyse independently. The stages:

1. :func:`partition_events` rewrites one or more `events.parquet` exports (`clue-stats export`) into
   files that each hold whole games, by a hash of the game id, with DuckDB (streaming, out of core:
   cheap next to the analysis of the games it moves: it only reads and writes them);
2. :func:`analyse_events` is the pure core: the events rows of some games in, their analysis rows
   out (the same rows `clue-stats ingest` stores), games that cannot be rebuilt reported, not raised;
3. :func:`analyse_file` runs it on one partition file and writes one Parquet file per output table;
4. :func:`run_partitioned` maps it over the partition files with ``dask.bag`` on a Dask cluster: a
   ``distributed.LocalCluster`` it starts (processes, one thread each: the analysis is mostly pure
   Python, so threads would share one GIL) or an existing cluster's scheduler address.

OUT must be on storage every worker can read and write (a shared file system on a real cluster):
the partitions are written to OUT/_partitions (removed at the end) and the results beside them.
Output: ``OUT/<table>/<partition>.parquet`` for each table of :data:`OUTPUT_TABLES`, with the store's
column types, so DuckDB reads them as ``read_parquet('OUT/suggestions/*.parquet')``.

    clue-stats analyse-partitioned EXPORT_DIR... OUT [--partitions N] [--workers 2] [--scheduler ADDR] [--light]
        [--budget-states N] [--budget-memory MIB] [--budget-seconds S]   (as ingest's, and its variables)
"""

from __future__ import annotations

import math
import shutil
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from clue_stats.analysis.computers import GAMES_PER_PARTITION
from clue_stats.analysis.computers.game_analysis import analyse_within
from clue_stats.engine.budget import Limits
from clue_stats.ingest.store import StoreError, game_from_payloads
from clue_stats.ingest.store.schema import TABLE

# Rows the analysis computes: the store's analysis tables, and players for first_certain_seq.
OUTPUT_TABLES = ("suggestions", "information", "accusations", "statements", "players")
EVENT_COLUMNS = ("game_id", "seq", "line", "payload")


@cache
def output_schema(table: str) -> pa.Schema:
    """The Arrow schema of a table as the store declares it (ingest.store.schema), so that every
    partition's file has the same types, even where a column is all NULL (the best available gain
    with ``review=False``)."""
    if table not in TABLE:
        raise ValueError(f"not a table of the store: {table!r}")
    return TABLE[table].arrow_schema()


@dataclass
class PartitionResult:
    """The analysis of the games of one partition."""

    tables: dict[str, pa.Table]
    games: int = 0  # games analysed
    failed: list[tuple[str, str]] = field(default_factory=list)  # (game_id, why) of games not analysed
    over_budget: list[tuple[str, str]] = field(default_factory=list)  # (game_id, what the budget left out)


@dataclass
class PartitionedSummary:
    partitions: int = 0
    games: int = 0
    rows: dict[str, int] = field(default_factory=dict)
    failed: list[tuple[str, str]] = field(default_factory=list)
    over_budget: list[tuple[str, str]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "partitions": self.partitions,
            "games": self.games,
            "rows": dict(self.rows),
            "failed": [{"game_id": g, "reason": r} for g, r in self.failed],
            "over_budget": [{"game_id": g, "message": m} for g, m in self.over_budget],
        }


def _parquet_files(source: str | Path | Iterable[str | Path]) -> list[Path]:
    """Parquet files named, or under folders (an export folder contributes its events.parquet)."""
    items = [source] if isinstance(source, (str, Path)) else list(source)
    files: list[Path] = []
    for item in map(Path, items):
        if item.is_dir():
            events = item / "events.parquet"
            files.extend([events] if events.is_file() else sorted(item.rglob("*.parquet")))
        else:
            files.append(item)
    if not files:
        raise FileNotFoundError(f"no Parquet files in {', '.join(map(str, items))}")
    return files


def partition_events(
    source: str | Path | Iterable[str | Path],
    out: str | Path,
    partitions: int | None = None,
    games_per_partition: int = GAMES_PER_PARTITION,
) -> list[Path]:
    """Rewrite events exports into ``partitions`` folders of whole games (OUT/part=K/); by default one partition per ``games_per_partition`` games. Returns the folders (empty
    partitions have none). A game's rows all land in one folder because the folder is chosen by a
    hash of its id alone; DuckDB may write a folder as several files, so the folder is the unit."""
    files = _parquet_files(source)
    folder = Path(out)
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    columns = ", ".join(f'"{c}"' for c in EVENT_COLUMNS)
    with duckdb.connect(":memory:") as con:
        # paths go to DuckDB as values (relations), never pasted into SQL: a folder may be "Bob's"
        events = con.read_parquet([f.as_posix() for f in files])
        if partitions is None:
            ((games,),) = events.aggregate("count(DISTINCT game_id)").fetchall()
            partitions = max(1, math.ceil(games / games_per_partition))
        parted = events.select(f"{columns}, CAST(hash(game_id) % {int(partitions)} AS INTEGER) AS part")
        parted.write_parquet(folder.as_posix(), partition_by=["part"])  # no order: each task sorts its own
    return sorted((p for p in folder.iterdir() if p.is_dir()), key=lambda p: int(p.name.split("=")[1]))


def read_partition(path: str | Path) -> pa.Table:
    """The events rows of one partition: a Parquet file, or a folder of them."""
    path = Path(path)
    files = sorted(path.glob("*.parquet")) if path.is_dir() else [path]
    tables = [pq.read_table(f, columns=list(EVENT_COLUMNS)) for f in files]
    # the JSON payload may arrive as an Arrow extension type or as text: text for every file
    tables = [
        t.set_column(t.schema.get_field_index("payload"), "payload", t.column("payload").cast(pa.string()))
        for t in tables
    ]
    return pa.concat_tables(tables) if tables else pa.table({c: pa.array([], pa.string()) for c in EVENT_COLUMNS})


def _games(events: pa.Table) -> Iterator[tuple[str, list[str], list[int | None], str | None]]:
    """(game_id, payloads, lines, problem) of each game in the table, records in seq order; problem
    says why a game cannot be analysed from these rows (else None)."""
    table = events.select(list(EVENT_COLUMNS)).sort_by([("game_id", "ascending"), ("seq", "ascending")])
    ids = table.column("game_id").to_pylist()
    seqs = table.column("seq").to_pylist()
    lines = table.column("line").to_pylist()
    payloads = table.column("payload").to_pylist()
    start = 0
    for end in range(1, len(ids) + 1):
        if end == len(ids) or ids[end] != ids[start]:
            problem = None
            if seqs[start:end] != list(range(end - start)):
                # a game split across partitions, rows lost, or one game in two exports: analysing
                # part of it (or it twice) would mislead
                problem = f"its records are not seq 0, 1, 2, ... once each (found seq {seqs[start:end][:6]}...)"
            yield ids[start], payloads[start:end], lines[start:end], problem
            start = end


def analyse_stored(
    game_id: str, payloads: list[str], lines: list[int | None], review: bool = True, limits: Limits | None = None
) -> tuple[dict[str, list[dict[str, Any]]], list[str]]:
    """The analysis rows of one stored game, by the function ingest uses, each stage under the
    budget ``limits`` (default: the environment's or the defaults, as ingest's), and the
    over_budget messages of the stages it cut. Raises StoreError when the records do not make a game."""
    game = game_from_payloads(payloads, lines, game_id)
    rows, cuts = analyse_within(game, None, None, review, limits or Limits.from_env())
    return {t: rows.tables.get(t, []) for t in OUTPUT_TABLES}, [p.message for p in cuts]


def analyse_events(events: pa.Table, review: bool = True, limits: Limits | None = None) -> PartitionResult:
    """The analysis rows of every game whose events are in ``events`` (columns game_id, seq, line,
    payload; any row order), each stage of each game under the budget ``limits`` (as ingest's). Pure:
    the same rows in give the same rows out, wherever it runs."""
    collected: dict[str, list[dict[str, Any]]] = {t: [] for t in OUTPUT_TABLES}
    result = PartitionResult(tables={})
    for game_id, payloads, lines, problem in _games(events):
        if problem is not None:
            result.failed.append((game_id, problem))
            continue
        try:
            rows, cuts = analyse_stored(game_id, payloads, lines, review, limits)
        except (StoreError, ValueError, KeyError, TypeError) as exc:  # bad stored records: reported, the rest goes on
            result.failed.append((game_id, f"cannot rebuild the game: {exc}"))
            continue
        for table, table_rows in rows.items():
            collected[table].extend(table_rows)
        result.over_budget.extend((game_id, message) for message in cuts)
        result.games += 1
    for table in OUTPUT_TABLES:
        schema = output_schema(table)
        result.tables[table] = pa.Table.from_pylist(
            [{c: r.get(c) for c in schema.names} for r in collected[table]], schema=schema
        )
    return result


def analyse_file(
    path: str | Path, out: str | Path, review: bool = True, name: str | None = None, limits: Limits | None = None
) -> dict[str, Any]:
    """Analyse one partition (file or folder); write OUT/<table>/<name>.parquet; return counts and
    failures (plain data, cheap to send back to the client)."""
    path = Path(path)
    result = analyse_events(read_partition(path), review, limits)
    name = name or (path.name.replace("=", "-") if path.is_dir() else path.stem)
    for table, rows in result.tables.items():
        target = Path(out) / table / f"{name}.parquet"
        target.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(rows, target)
    return {
        "games": result.games,
        "rows": {t: result.tables[t].num_rows for t in OUTPUT_TABLES},
        "failed": result.failed,
        "over_budget": result.over_budget,
    }


def _analyse_item(item: tuple[str, str], out: str, review: bool, limits: Limits | None) -> dict[str, Any]:
    return analyse_file(item[0], out, review, item[1], limits)


def run_partitioned(
    source: str | Path | Iterable[str | Path],
    out: str | Path,
    partitions: int | None = None,
    workers: int = 2,
    scheduler: str | None = None,
    review: bool = True,
    repartition: bool = True,
    limits: Limits | None = None,
) -> PartitionedSummary:
    """Analyse every game of the events exports ``source`` on a Dask cluster, writing Parquet to OUT.

    ``scheduler``: the address of a running cluster (``tcp://host:8786``); without it a local cluster
    of ``workers`` processes is started and stopped. ``repartition=False`` takes the source files as
    partitions as they are (each must hold whole games: e.g. one export per database). ``limits``:
    the budget of each stage of each game's analysis (default: the environment's or the defaults,
    as ingest's), read here so that every worker counts under the same one."""
    import dask.bag as db  # deferred: start-up
    from distributed import Client, LocalCluster  # deferred: start-up

    limits = limits or Limits.from_env()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    out_text = str(out)
    for table in OUTPUT_TABLES:  # a rerun replaces, never mixes with, an earlier run's files
        shutil.rmtree(out / table, ignore_errors=True)
    files = partition_events(source, out / "_partitions", partitions) if repartition else _parquet_files(source)
    if scheduler is not None:
        client, cluster = Client(scheduler), None
    else:
        # processes with one thread each: the analysis holds the GIL; no dashboard server needed
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        # one task a partition; names by position, since sources may share a file name (events.parquet)
        bag = db.from_sequence([(str(f), f"part-{i:05d}") for i, f in enumerate(files)], npartitions=len(files))
        results = bag.map(_analyse_item, out=out_text, review=review, limits=limits).compute()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
        if repartition:  # a copy of every event: gone once analysed (repartitioning again is cheap)
            shutil.rmtree(out / "_partitions", ignore_errors=True)
    summary = PartitionedSummary(partitions=len(files), rows={t: 0 for t in OUTPUT_TABLES})
    for r in results:
        summary.games += r["games"]
        for table, n in r["rows"].items():
            summary.rows[table] += n
        summary.failed.extend(tuple(f) for f in r["failed"])
        summary.over_budget.extend(tuple(f) for f in r["over_budget"])
    return summary
