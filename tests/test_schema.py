"""The schema declared once (ingest.store.schema): what is made from the declarations agrees with them."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from clue_stats.analysis.computers.partitioned import output_schema
from clue_stats.dashboard.app_pages.tables import header
from clue_stats.ingest import export, store
from clue_stats.ingest.store.schema import ARROW_TYPES, MIGRATIONS, TABLE, TABLES


def _columns(con) -> dict[str, list[tuple[str, str, bool]]]:
    found = defaultdict(list)
    for table, column, kind, nullable in con.execute(
        "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns "
        "ORDER BY table_name, ordinal_position"
    ).fetchall():
        found[table].append((column, kind, nullable == "NO"))
    return dict(found)


def _declared(migrated_last: bool = False) -> dict[str, list[tuple[str, str, bool]]]:
    out = {}
    for t in TABLES:
        columns = [c for c in t.columns if not (migrated_last and c.migrated)]
        columns += [c for c in t.columns if migrated_last and c.migrated]
        out[t.name] = [(c.name, c.type, c.required or c.name in t.key) for c in columns]
    return out


def test_a_new_database_has_every_declared_column_with_its_type(tmp_path: Path) -> None:
    db = tmp_path / "new.duckdb"
    with store.write_connection(db):
        pass
    with duckdb.connect(str(db), read_only=True) as con:
        assert _columns(con) == _declared()


@pytest.mark.slow
def test_a_database_made_before_the_later_columns_gets_them_when_next_written(tmp_path: Path) -> None:
    """A database of the first release (no column added since): opened for writing, it has every
    declared column, the added ones last, and kind filled from the stored rows."""
    db = tmp_path / "old.duckdb"
    with duckdb.connect(str(db)) as con:
        for t in TABLES:
            first = [c for c in t.columns if not c.migrated]
            parts = [f"{c.name} {c.type}{' NOT NULL' if c.required else ''}" for c in first]
            con.execute(f"CREATE TABLE {t.name} ({', '.join(parts)})")
        con.execute("INSERT INTO schema_version VALUES (1, now())")
        con.execute(
            "INSERT INTO games (game_id, edition, variant, n_players, source, n_records, hands_known, "
            "content_sha256, ingested_at) VALUES ('g1', 'classic', 'standard', 2, 'clue-stats simulate', 3, 2, 'x', now())"
        )
    with store.write_connection(db):
        pass
    with duckdb.connect(str(db), read_only=True) as con:
        columns = _columns(con)
        kinds = con.execute("SELECT kind FROM games").fetchall()
    declared = _declared(migrated_last=True)
    # the added columns may be empty in an old database whatever the declaration says
    assert {t: [c[:2] for c in cols] for t, cols in columns.items()} == {
        t: [c[:2] for c in cols] for t, cols in declared.items()
    }
    assert kinds == [("simulated",)]
    assert {(t, c) for t, c, _, _ in MIGRATIONS} >= {("games", "kind"), ("suggestions", "bits_lost")}


def test_one_column_name_has_one_header_and_the_dashboard_shows_it() -> None:
    headers = defaultdict(set)
    for t in TABLES:
        for c in t.columns:
            headers[c.name].add(c.words)
    assert {name: words for name, words in headers.items() if len(words) > 1} == {}
    assert header("expected_gain_bits") == TABLE["suggestions"].column("expected_gain_bits").words
    assert header("source_file") == "file" and header("turns_waited") == "own turns waited"


def test_the_export_and_the_partitioned_path_read_the_declarations() -> None:
    assert export.NAME_COLUMNS["suggestions"] == ("player", "shown_by")
    assert set(export.LEFT_OUT["games"]) == {"source_file", "source", "place", "content_sha256"}
    for table in export.TABLES:  # every declared name column is pseudonymised, every text one left out
        for c in TABLE[table].columns:
            assert (c.name in export.NAME_COLUMNS.get(table, ())) == (c.holds == "name")
            assert (c.name in export.LEFT_OUT.get(table, ())) == (c.holds in ("text", "path", "hash"))
    schema = output_schema("suggestions")
    assert schema.field("best_gain_bits").type == pa.float64() and schema.field("seq").type == pa.int32()
    assert [f.name for f in schema] == [c.name for c in TABLE["suggestions"].columns]
    assert set(ARROW_TYPES) >= {c.type for t in TABLES for c in t.columns}
