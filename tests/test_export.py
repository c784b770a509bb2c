"""`clue-stats export`: Parquet and CSV files of every table, with stable pseudonyms on request."""

from __future__ import annotations

import json

import duckdb
from typer.testing import CliRunner

from clue_stats import pipeline
from clue_stats.cli import app

runner = CliRunner()


def test_export_writes_every_table_and_pseudonyms_hide_names(samples, db, tmp_path):
    pipeline.ingest_paths(
        [str(samples / "de-2023-anna-notebook.jsonl"), str(samples / "us-clue-family.jsonl")],
        db,
        analyse=False,
        workers=1,
    )
    plain = runner.invoke(app, ["export", "--db", str(db), "--out", str(tmp_path / "plain"), "--json"])
    assert plain.exit_code == 0, plain.output
    rows = json.loads(plain.stdout)["rows"]
    assert rows["games"] == 2 and rows["players"] == 7
    con = duckdb.connect()
    names = {r[0] for r in con.execute(f"SELECT name FROM '{tmp_path / 'plain' / 'players.parquet'}'").fetchall()}
    assert "Anna" in names

    hidden = runner.invoke(
        app,
        [
            "export",
            "--db",
            str(db),
            "--out",
            str(tmp_path / "p"),
            "--format",
            "csv",
            "--pseudonymise",
            "--salt",
            "club",
        ],
    )
    assert hidden.exit_code == 0, hidden.output
    text = "".join(p.read_text() for p in (tmp_path / "p").glob("*.csv"))
    for name in ("Anna", "Ben", "Cleo", "Dirk", "Mom", "Dad", "Sam", "Köln"):
        assert name not in text, name
    again = runner.invoke(
        app,
        [
            "export",
            "--db",
            str(db),
            "--out",
            str(tmp_path / "p2"),
            "--format",
            "csv",
            "--pseudonymise",
            "--salt",
            "club",
        ],
    )
    assert again.exit_code == 0
    assert (tmp_path / "p" / "players.csv").read_text() == (tmp_path / "p2" / "players.csv").read_text()
    # the same player keeps one pseudonym across tables
    anna = con.execute(
        f"SELECT name FROM read_csv('{tmp_path / 'p' / 'players.csv'}') WHERE seat = 0 AND game_id LIKE 'spiele%'"
    ).fetchone()[0]
    perspective = con.execute(
        f"SELECT perspective FROM read_csv('{tmp_path / 'p' / 'games.csv'}') WHERE game_id LIKE 'spiele%'"
    ).fetchone()[0]
    assert anna == perspective and anna.startswith("p-")


def test_pseudonyms_without_a_salt_use_the_databases_own_secret(samples, tmp_path, monkeypatch):
    import hashlib

    def anna(db, out) -> str:
        result = runner.invoke(app, ["export", "--db", str(db), "--out", str(out), "--format", "csv", "--pseudonymise"])
        assert result.exit_code == 0, result.output
        con = duckdb.connect()
        return con.execute(
            f"SELECT name FROM read_csv('{out / 'players.csv'}') WHERE seat = 0 AND game_id LIKE 'spiele%'"
        ).fetchone()[0]

    first, other = tmp_path / "first.duckdb", tmp_path / "other.duckdb"
    for db in (first, other):
        pipeline.ingest_paths([str(samples / "de-2023-anna-notebook.jsonl")], db, analyse=False, workers=1)
    once, twice, elsewhere = anna(first, tmp_path / "a"), anna(first, tmp_path / "b"), anna(other, tmp_path / "c")
    assert once == twice  # stable within one database
    assert once != elsewhere  # each database has a secret of its own
    assert once != "p-" + hashlib.sha256(b"Anna").hexdigest()[:10]  # not the plain hash anyone could compute
    secret = duckdb.connect(str(first), read_only=True).execute("SELECT value FROM settings").fetchall()[0][0]
    assert len(secret) == 64
    assert secret not in "".join(p.read_text() for p in (tmp_path / "a").glob("*.csv"))  # never exported


def test_export_without_out_writes_a_dated_folder_and_names_it(samples, db, tmp_path, monkeypatch):
    from datetime import date

    pipeline.ingest_paths([str(samples / "us-clue-family.jsonl")], db, analyse=False, workers=1)
    monkeypatch.chdir(tmp_path)
    folder = f"clue-stats-export-{date.today().isoformat()}"
    first = runner.invoke(app, ["export", "--db", str(db)])
    second = runner.invoke(app, ["export", "--db", str(db)])
    assert first.exit_code == second.exit_code == 0
    assert f"to {folder}:" in first.stdout and f"to {folder}-2:" in second.stdout
    assert (tmp_path / folder / "games.parquet").exists() and (tmp_path / f"{folder}-2" / "games.parquet").exists()
