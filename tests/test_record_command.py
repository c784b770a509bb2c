"""`clue-stats record FILE` through standard input: every sample game typed line by line, with typos
and undos mixed in, gives the game of the file read directly; stored with --ingest, its analysis is
that of the same game ingested from its file, row for row."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from clue_stats.cli import app
from clue_stats.ingest import cluelog, notation
from clue_stats.ingest.recording import is_header_line
from tests.helpers import raw_games

pytestmark = pytest.mark.slow  # a game stored with its review, a second a sample

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "data" / "samples"
# the tables a game's analysis fills; the runs' and the schema's own rows say when, not what
VOLATILE_TABLES = {"ingest_runs", "schema_version", "settings", "history", "player_merges", "rejected"}
# and where a record stands in its own file: a line of the .clue file, a line of the recording
VOLATILE_COLUMNS = {"source_file", "ingested_at", "happened_at", "rejected_at", "raw", "line"}


def sample_games() -> list[tuple[str, str]]:
    """(a name, the game as notation text): the .clue sample as it is, each game of the others written
    as notation (what a person would type for it)."""
    games = [("de-2023-anna-notebook.clue", (SAMPLES / "de-2023-anna-notebook.clue").read_text(encoding="utf-8"))]
    for path in sorted(SAMPLES.glob("*.jsonl")):
        for k, raw in enumerate(raw_games(path)):
            game, _ = cluelog.build_game(raw)
            assert game is not None
            games.append((f"{path.stem}-{k}", notation.write(cluelog.record_dicts(game))))
    return games


SAMPLE_GAMES = sample_games()


def run_cli(args: list[str], input: str = ""):
    return CliRunner().invoke(app, args, input=input)


def typed(text: str) -> tuple[str, set[int]]:
    """The game's lines as a hurried person types them: every third record first with a misspelt
    player (rejected), every fourth entered, taken back with `undo`, and entered again. Returns the
    input and the numbers of the lines that must be rejected."""
    out: list[str] = []
    rejected: set[int] = set()
    records = 0
    for raw in text.splitlines():
        body = raw.strip()
        if not body or body.startswith("#") or is_header_line(raw):
            out.append(raw)
            continue
        records += 1
        if records % 3 == 0:
            out.append("Zyx" + body)
            rejected.add(len(out))
        out.append(raw)
        if records % 4 == 0 and not body.startswith("end"):
            out.extend(["undo", raw])
    return "\n".join(out) + "\n", rejected


def direct_game(text: str):
    (raw,) = notation.read(text).games
    game, problems = cluelog.build_game(raw)
    assert game is not None, [str(p) for p in problems]
    return game


def recorded_game(path: Path):
    (raw,) = cluelog.read_text(path.read_text(encoding="utf-8")).games
    game, problems = cluelog.build_game(raw)
    assert game is not None, [str(p) for p in problems]
    return game


@pytest.mark.parametrize(("name", "text"), SAMPLE_GAMES, ids=[name for name, _ in SAMPLE_GAMES])
def test_every_sample_typed_with_typos_and_undos_is_the_game_of_its_file(tmp_path, name, text):
    given, rejected = typed(text)
    recording = tmp_path / "game.jsonl"
    result = run_cli(["record", str(recording)], input=given)
    assert result.exit_code == (3 if rejected else 0), result.output
    reported = {int(m) for m in re.findall(r"^<stdin>:(\d+):", result.stderr, re.M)}
    assert reported == rejected, result.stderr
    assert "unknown_player" in result.stderr or not rejected
    assert cluelog.record_dicts(recorded_game(recording)) == cluelog.record_dicts(direct_game(text))
    assert "finished" in result.stdout


def test_an_unfinished_recording_is_resumed_by_the_next_run(tmp_path):
    text = (SAMPLES / "de-2023-anna-notebook.clue").read_text(encoding="utf-8")
    lines = text.splitlines()
    cut = next(k for k, line in enumerate(lines) if line.startswith("Cleo: Bloom Heiz"))
    recording = tmp_path / "game.jsonl"
    first = run_cli(["record", str(recording)], input="\n".join(lines[:cut]) + "\n")
    assert first.exit_code == 0 and "unfinished" in first.stdout
    # the second run is given the header again (the whole rest of the file) and goes on
    header = [line for line in lines if is_header_line(line)]
    second = run_cli(["record", str(recording)], input="\n".join(header + lines[cut:]) + "\n")
    assert second.exit_code == 0, second.output
    assert cluelog.record_dicts(recorded_game(recording)) == cluelog.record_dicts(direct_game(text))
    changed = run_cli(["record", str(recording)], input="edition us-classic\nplayers Al, Bo, Cy\nshow\n")
    assert changed.exit_code == 3 and "another header" in changed.stderr


def test_a_broken_header_is_reported_and_nothing_is_recorded(tmp_path):
    recording = tmp_path / "game.jsonl"
    result = run_cli(
        ["record", str(recording)], input="edition de-2099\nplayers Anna, Ben\nAnna: Grün Dolch Salon / -\n"
    )
    assert result.exit_code == 3
    assert "<stdin>:1:" in result.stderr and "unknown_edition" in result.stderr
    assert not recording.exists()


def table_rows(db: Path) -> dict[str, list[tuple]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = [t for (t,) in con.execute("SELECT table_name FROM information_schema.tables").fetchall()]
        rows = {}
        for table in sorted(set(tables) - VOLATILE_TABLES):
            columns = [
                c
                for (c,) in con.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_name = ? ORDER BY ordinal_position",
                    [table],
                ).fetchall()
                if c not in VOLATILE_COLUMNS
            ]
            listed = ", ".join(f'"{c}"' for c in columns)
            rows[table] = sorted(
                con.execute(f'SELECT {listed} FROM "{table}"').fetchall(), key=lambda r: tuple(map(str, r))
            )
        return rows
    finally:
        con.close()


def test_a_recorded_game_stored_with_ingest_has_the_analysis_of_its_file_row_for_row(tmp_path):
    sample = SAMPLES / "de-2023-anna-notebook.clue"
    given, _ = typed(sample.read_text(encoding="utf-8"))
    recorded_db, direct_db = tmp_path / "recorded.duckdb", tmp_path / "direct.duckdb"
    result = run_cli(["record", str(tmp_path / "game.jsonl"), "--ingest", str(recorded_db)], input=given)
    assert result.exit_code == 3  # the typos were rejected; the game is stored all the same
    assert "stored as spieleabend-2026-11-20-1" in result.stdout
    assert "clue-stats report spieleabend-2026-11-20-1" in result.stdout
    assert run_cli(["ingest", str(sample), "--db", str(direct_db)]).exit_code == 0
    recorded, direct = table_rows(recorded_db), table_rows(direct_db)
    assert recorded.keys() == direct.keys()
    for table in direct:
        assert recorded[table] == direct[table], table
    assert direct["suggestions"] and direct["information"]  # the review is there, not only the records
    again = run_cli(["record", str(tmp_path / "game.jsonl"), "--ingest", str(recorded_db)], input="")
    assert again.exit_code == 0 and "stored before as spieleabend-2026-11-20-1" in again.stdout


def test_an_unfinished_game_is_not_stored(tmp_path):
    result = run_cli(
        ["record", str(tmp_path / "g.jsonl"), "--ingest", str(tmp_path / "db.duckdb")],
        input="edition de-2023\nplayers Anna, Ben, Cleo\nAnna: Grün Dolch Salon / -\n",
    )
    assert result.exit_code == 3 and "no end yet" in result.stderr
    assert not (tmp_path / "db.duckdb").exists()
