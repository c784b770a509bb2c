"""One name per person in what people read: after ``clue-stats players merge "Katrin" "Kathrin"``
a reader opened with ``persons=True`` sees Katrin wherever the stored rows say Kathrin.

The stored rows keep the names as written (the logs are the record; ``players unmerge`` gives them
back). A reader that shows people (the dashboard, the reports, ``games``, the export) gets, for
every table with a column holding a name (ingest.store.schema, ``holds="name"``), a temporary view
of the same name that writes each merged name as its person: the games' winner, the players, every
record's player (and the names inside its payload, so that a game rebuilt for the replay seats the
person), suggestions, accusations, statements, the information rows' observers and the ratings.
A view is made only when a merge stands; the program's own reads (the analysis, the ratings, the
merge itself) read the tables as stored.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Protocol

import duckdb

from clue_stats.ingest.store.schema import TABLES, stored_source


class Executes(Protocol):
    """What runs a query: a DuckDB connection, or the store (ingest.store.connection, which imports
    this module: the store is named by what it does, not imported back)."""

    def execute(self, sql: str, /) -> duckdb.DuckDBPyConnection: ...


KEPT_AS_WRITTEN = ("player_merges",)  # the merges themselves name both names


def person_names(merges: Iterable[tuple[str, str]]) -> dict[str, str]:
    """name -> the person's name, from the standing merges (name, merged_into), followed to the end."""
    into = dict(merges)
    resolved: dict[str, str] = {}
    for name in into:
        seen = {name}
        person = into[name]
        while person in into and person not in seen:
            seen.add(person)
            person = into[person]
        resolved[name] = person
    return resolved


def standing_merges(con: Executes) -> list[tuple[str, str]]:
    """The merges not undone, oldest first (none in a database made before merges existed)."""
    try:
        rows = con.execute(
            "SELECT name, merged_into FROM player_merges WHERE unmerged_at IS NULL ORDER BY merged_at"
        ).fetchall()
    except duckdb.CatalogException:
        return []
    return [(a, b) for a, b in rows]


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _person_sql(column: str, names: dict[str, str]) -> str:
    cases = " ".join(f"WHEN {_literal(a)} THEN {_literal(b)}" for a, b in names.items())
    return f"CASE {column} {cases} ELSE {column} END"


def _payload_sql(column: str, names: dict[str, str]) -> str:
    """The JSON text with every string that is exactly a merged name written as the person."""
    sql = f"{column}::VARCHAR"
    for a, b in names.items():
        for ascii_only in (False, True):
            old, new = json.dumps(a, ensure_ascii=ascii_only), json.dumps(b, ensure_ascii=ascii_only)
            if old != new:
                sql = f"replace({sql}, {_literal(old)}, {_literal(new)})"
    return f"({sql})::JSON"


def show_persons(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """Shadow every table holding names with a temporary view that names persons (see the module);
    returns the merged names (name -> person), empty when no merge stands (then nothing is made)."""
    names = person_names(standing_merges(con))
    if not names:
        return names
    present = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
    for table in TABLES:
        columns = [c.name for c in table.columns if c.holds == "name"]
        if table.name in KEPT_AS_WRITTEN or table.name not in present or not (columns or table.name == "events"):
            continue
        stored = {
            r[0]
            for r in con.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = ?", [table.name]
            ).fetchall()
        }
        replaced = [f"{_person_sql(c, names)} AS {c}" for c in columns if c in stored]
        if table.name == "events" and "payload" in stored:
            replaced.append(f"{_payload_sql('payload', names)} AS payload")
        source = stored_source(con, table.name)  # with the columns an older version did not write
        con.execute(
            f"CREATE OR REPLACE TEMP VIEW {table.name} AS SELECT * REPLACE ({', '.join(replaced)}) FROM {source}"
        )
    return names
