"""`clue-stats export`: Parquet and CSV files of every table, with stable pseudonyms on request."""

from __future__ import annotations

import json

import duckdb
import pytest
from typer.testing import CliRunner

from clue_stats import pipeline
from clue_stats.cli import app
from clue_stats.ingest.export import game_pseudonym
from clue_stats.ingest.store import PSEUDONYM_SECRET, game_from_payloads
from tests.helpers import FIXTURES

pytestmark = pytest.mark.slow  # about a second or more a test: make test-fast leaves them out

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
    game = game_pseudonym("spieleabend-2026-11-20-1", "club")
    anna = con.execute(
        f"SELECT name FROM read_csv('{tmp_path / 'p' / 'players.csv'}') WHERE seat = 0 AND game_id = ?", [game]
    ).fetchone()[0]
    perspective = con.execute(
        f"SELECT perspective FROM read_csv('{tmp_path / 'p' / 'games.csv'}') WHERE game_id = ?", [game]
    ).fetchone()[0]
    assert anna == perspective and anna.startswith("p-")


def test_pseudonyms_without_a_salt_use_the_databases_own_secret(samples, tmp_path, monkeypatch):
    import hashlib

    def anna(db, out) -> str:
        result = runner.invoke(app, ["export", "--db", str(db), "--out", str(out), "--format", "csv", "--pseudonymise"])
        assert result.exit_code == 0, result.output
        con = duckdb.connect()
        return con.execute(
            f"SELECT players.name FROM read_csv('{out / 'players.csv'}') AS players "
            f"JOIN read_csv('{out / 'games.csv'}') AS games USING (game_id) WHERE seat = 0 AND games.edition = 'de-2023'"
        ).fetchone()[0]

    first, other = tmp_path / "first.duckdb", tmp_path / "other.duckdb"
    for db in (first, other):
        pipeline.ingest_paths([str(samples / "de-2023-anna-notebook.jsonl")], db, analyse=False, workers=1)
    once, twice, elsewhere = anna(first, tmp_path / "a"), anna(first, tmp_path / "b"), anna(other, tmp_path / "c")
    assert once == twice  # stable within one database
    assert once != elsewhere  # each database has a secret of its own
    assert once != "p-" + hashlib.sha256(b"Anna").hexdigest()[:10]  # not the plain hash anyone could compute
    secret = (
        duckdb.connect(str(first), read_only=True)
        .execute("SELECT value FROM settings WHERE key = ?", [PSEUDONYM_SECRET])
        .fetchall()[0][0]
    )
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


# the effect-clue notebook with names that occur nowhere else, so any trace of them is found
QUELLS = {"Ana": "Annegret Quell", "Ben": "Bertold Quell", "Cyd": "Cydonia Quell", "Dot": "Dorothea Quell"}


def test_a_pseudonymised_export_holds_no_name_path_source_place_note_or_game_id(samples, tmp_path):
    folder = tmp_path / "Katrins-Notizen"
    folder.mkdir()
    notebook = (FIXTURES / "importers" / "effect_clue" / "v12_unordered_passes.json").read_text(encoding="utf-8")
    for short, full in QUELLS.items():
        notebook = notebook.replace(f'"{short}"', f'"{full}"')
    (folder / "abend.json").write_text(notebook, encoding="utf-8")
    night = (samples / "de-2023-anna-notebook.jsonl").read_text(encoding="utf-8").splitlines()
    header = json.loads(night[0]) | {"source": "Spielerunde bei Katrin"}
    turn = json.loads(night[2]) | {"note": "Katrin lacht"}
    (folder / "abend.jsonl").write_text("\n".join([json.dumps(header), night[1], json.dumps(turn), *night[3:]]) + "\n")
    (folder / "kaputt.jsonl").write_text((FIXTURES / "invalid" / "passed_holding.jsonl").read_text())
    db = tmp_path / "club.duckdb"
    ingested = runner.invoke(app, ["ingest", str(folder), "--db", str(db), "--no-analyse"])
    assert ingested.exit_code == 3, ingested.output  # the broken game rejected, the others stored
    with duckdb.connect(str(db), read_only=True) as con:
        stored = dict(con.execute("SELECT game_id, n_records FROM games").fetchall())
        # the notebook's x- fields hold players' names, and they are stored
        assert con.execute("SELECT count(*) FROM events WHERE payload::VARCHAR LIKE '%x-implied-passes%'").fetchone()[0]
    assert len(stored) == 2
    result = runner.invoke(
        app, ["export", "--db", str(db), "--out", str(tmp_path / "out"), "--format", "csv", "--pseudonymise"]
    )
    assert result.exit_code == 0, result.output
    text = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "out").glob("*.csv"))
    secrets = [*QUELLS.values(), "Anna", "Cleo", "Dirk", "Katrin", "Notizen", "abend", "kaputt", "Köln", "Spiel"]
    secrets += [str(tmp_path), *stored, "x-implied-passes", "x-passes-after-refuter"]
    assert [s for s in secrets if s in text] == []
    con = duckdb.connect()

    def csv(table: str) -> str:
        return f"read_csv('{tmp_path / 'out' / table}.csv')"

    games = dict(con.execute(f"SELECT game_id, n_records FROM {csv('games')}").fetchall())
    assert sorted(games.values()) == sorted(stored.values()) and all(g.startswith("g-") for g in games)
    rejected = {r[0] for r in con.execute(f"SELECT game_id FROM {csv('rejected')}").fetchall()}
    assert len(rejected) == 1 and all(g.startswith("g-") for g in rejected)
    for table in ("players", "events", "problems"):  # the tables still join on the game
        ids = {r[0] for r in con.execute(f"SELECT DISTINCT game_id FROM {csv(table)}").fetchall()}
        assert ids and ids <= set(games) | rejected, table
    # what is kept still makes the games: the records rebuild, with the pseudonyms for names
    for game_id, n_records in games.items():
        payloads = [
            r[0]
            for r in con.execute(
                f"SELECT payload FROM {csv('events')} WHERE game_id = ? ORDER BY seq", [game_id]
            ).fetchall()
        ]
        game = game_from_payloads(payloads, None, game_id)
        assert len(payloads) == n_records and all(p.name.startswith("p-") for p in game.players)
