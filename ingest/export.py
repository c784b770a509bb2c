"""Export the stable tables as Parquet or CSV files, optionally with players' names replaced.

Pseudonyms are stable: the same name with the same secret gives the same pseudonym in every export
(`p-` and the first 10 hex digits of HMAC-SHA-256 of the name, keyed with the secret), so a club can
share its statistics without its members' names and still follow a player across games. The secret
is the ``--salt`` given, else a random one the database keeps (its ``settings`` table, never
exported): nobody without it can turn a pseudonym back into a name by hashing guesses. With pseudonyms, free text that
may hold names (notes, problem messages, rejected games' raw text) is left out of the export.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

import duckdb

from clue_stats.ingest.store import pseudonym_secret, read_connection

TABLES = (
    "games",
    "players",
    "events",
    "suggestions",
    "information",
    "accusations",
    "problems",
    "rejected",
    "history",
    "ingest_runs",
)

# table -> columns holding a player's name
NAME_COLUMNS = {
    "games": ("winner", "perspective"),
    "players": ("name",),
    "events": ("player",),
    "suggestions": ("player", "shown_by"),
    "information": ("observer",),
    "accusations": ("player",),
}
# table -> free-text columns left out of a pseudonymised export
TEXT_COLUMNS = {
    "problems": ("message",),
    "rejected": ("raw", "message"),
    "history": ("raw", "message"),
    "games": ("source_file", "place"),
}


def pseudonym(name: str | None, salt: str) -> str | None:
    if name is None:
        return None
    return "p-" + hmac.new(salt.encode("utf-8"), name.encode("utf-8"), hashlib.sha256).hexdigest()[:10]


def pseudonymise_payload(payload: str, salt: str) -> str:
    """Replace every player name in a clue-log/1 record (fields that hold names), drop notes."""
    record = json.loads(payload)

    def alias(name: Any) -> Any:
        return pseudonym(name, salt) if isinstance(name, str) else name

    for key in ("player", "winner", "perspective"):
        if key in record:
            record[key] = alias(record[key])
    if isinstance(record.get("players"), list):
        record["players"] = [{**p, "name": alias(p.get("name"))} for p in record["players"]]
    if isinstance(record.get("responses"), list):
        record["responses"] = [{**r, "player": alias(r.get("player"))} for r in record["responses"]]
    if isinstance(record.get("to"), list) and record.get("type") == "reveal":
        record["to"] = [alias(n) for n in record["to"]]
    for key in ("note", "place", "source"):
        record.pop(key, None)
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    return [
        r[0]
        for r in con.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = ? ORDER BY ordinal_position", [table]
        ).fetchall()
    ]


def export(
    db: str | Path, out: str | Path, fmt: str = "parquet", pseudonymise: bool = False, salt: str = ""
) -> dict[str, int]:
    """Write each table to OUT/<table>.<fmt>; returns rows written per table. Pseudonyms use ``salt``,
    or the database's own secret when it is empty."""
    if fmt not in ("parquet", "csv"):
        raise ValueError(f"unknown export format {fmt!r}: parquet or csv")
    if pseudonymise and not salt:
        salt = pseudonym_secret(db)
    folder = Path(out)
    written: dict[str, int] = {}
    with read_connection(db) as con:  # first: a database that cannot be read leaves no folder behind
        folder.mkdir(parents=True, exist_ok=True)
        # "special": NULL reaches the function (duckdb 1.x and 2.x both take the string; 2.x's stubs want its enum)
        con.create_function(
            "pseudonym",
            lambda name: pseudonym(name, salt),
            ["VARCHAR"],
            "VARCHAR",
            null_handling="special",
        )  # type: ignore[call-overload]
        con.create_function("pseudonymise_payload", lambda p: pseudonymise_payload(p, salt), ["VARCHAR"], "VARCHAR")
        for table in TABLES:
            columns = _columns(con, table)
            if not columns:  # a table newer than the database (made by an older clue-stats)
                continue
            select = []
            for column in columns:
                quoted = f'"{column}"'
                if pseudonymise and column in TEXT_COLUMNS.get(table, ()):
                    continue
                if pseudonymise and column in NAME_COLUMNS.get(table, ()):
                    select.append(f"pseudonym({quoted}) AS {quoted}")
                elif pseudonymise and table == "events" and column == "payload":
                    select.append("pseudonymise_payload(CAST(payload AS VARCHAR)) AS payload")
                else:
                    select.append(quoted)
            # the file name goes to DuckDB as a value, never pasted into SQL (a folder may be "Bob's")
            rows = con.sql(f"SELECT {', '.join(select)} FROM {table}")
            target = str(folder / f"{table}.{fmt}")
            if fmt == "parquet":
                rows.write_parquet(target)
            else:
                rows.write_csv(target, header=True)
            ((written[table],),) = con.execute(f"SELECT count(*) FROM {table}").fetchall()
    return written
