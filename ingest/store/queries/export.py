"""The export's reads: a stored table's columns, and one table written to a Parquet or CSV file with
its names and game ids through the connection's pseudonym functions (ingest.export registers them)."""

from __future__ import annotations

from collections.abc import Collection

from clue_stats.ingest.store.connection import Store


def table_columns(con: Store, table: str) -> list[str]:
    """The stored table's own columns, in order (the persons' view of it has the same, in the same order);
    none for a table newer than the database."""
    return [
        r[0]
        for r in con.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
            "AND table_catalog = current_database() AND table_schema = 'main' ORDER BY ordinal_position",
            [table],
        ).fetchall()
    ]


def write_table(
    con: Store,
    table: str,
    target: str,
    fmt: str,
    pseudonymise: bool = False,
    left_out: Collection[str] = (),
    names: Collection[str] = (),
) -> int:
    """Write ``table`` to the file ``target`` (``fmt`` parquet or csv) and return its rows. With
    ``pseudonymise`` the columns of ``left_out`` are left out, those of ``names`` and the game ids go
    through the SQL functions ``pseudonym`` and ``game_pseudonym``, and the events' payloads through
    ``pseudonymise_payload`` (functions the caller registered on the connection)."""
    select = []
    for column in table_columns(con, table):
        quoted = f'"{column}"'
        if pseudonymise and column in left_out:
            continue
        if pseudonymise and column in names:
            select.append(f"pseudonym({quoted}) AS {quoted}")
        elif pseudonymise and column == "game_id":
            select.append(f"game_pseudonym({quoted}) AS {quoted}")
        elif pseudonymise and table == "events" and column == "payload":
            select.append("pseudonymise_payload(CAST(payload AS VARCHAR)) AS payload")
        else:
            select.append(quoted)
    # the file name goes to DuckDB as a value, never pasted into SQL (a folder may be "Bob's")
    rows = con.sql(f"SELECT {', '.join(select)} FROM {table}")
    if fmt == "parquet":
        rows.write_parquet(target)
    else:
        rows.write_csv(target, header=True)
    ((written,),) = con.execute(f"SELECT count(*) FROM {table}").fetchall()
    return int(written)
