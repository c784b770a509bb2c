"""Hostile text and paths on the way out (issue 16): printed as text, files where they belong."""

from __future__ import annotations

import json
import socket
import time

import pytest
from typer.testing import CliRunner

from clue_stats import pipeline
from clue_stats import typer_app as app_module
from clue_stats.commands import dashboard as dashboard_command
from clue_stats.ingest import store
from clue_stats.typer_app import app, printable
from tests.helpers import SAMPLES

runner = CliRunner()

MARKUP = "[/]"
LINK = "[link=http://evil.example/]Mom[/link]"
TITLE = "\x1b]0;pwned\x07"  # sets the terminal's title
CLEAR = "\x1b[2J"  # clears the screen
C1 = "\x9b2J"  # the one-byte CSI some terminals obey


@pytest.fixture
def wide(monkeypatch):
    """Table cells on one line each (the console is not a terminal here: 80 columns)."""
    monkeypatch.setattr(app_module.out, "_width", 400)  # the width rich keeps when set


def _hostile_game(tmp_path, db):
    """The family sample with its winner named MARKUP, a player named with ESC sequences and a
    source of rich link markup; stored."""
    text = (SAMPLES / "us-clue-family.jsonl").read_text()
    data = [json.loads(line) for line in text.splitlines()]
    names = [p["name"] for p in data[0]["players"]]
    winner = next(r["winner"] for r in data if r["type"] == "end")
    other = next(n for n in names if n != winner)
    hostile = {winner: MARKUP + LINK + TITLE + CLEAR + C1, other: f"{TITLE}Eve{CLEAR}{C1}"}
    text = text.replace(f'"{winner}"', json.dumps(hostile[winner])).replace(f'"{other}"', json.dumps(hostile[other]))
    text = text.replace('"source":"', f'"source":{json.dumps(LINK + TITLE + CLEAR + C1)[:-1]} ', 1)
    path = tmp_path / "hostile.jsonl"
    path.write_text(text)
    summary = pipeline.ingest_paths([str(path)], db, analyse=False, workers=1)
    assert summary.games_stored == 1, [str(p) for p in summary.problems]
    return hostile


@pytest.mark.slow
def test_games_prints_names_as_written_without_markup_or_escape_sequences(tmp_path, db, wide):
    _hostile_game(tmp_path, db)
    result = runner.invoke(app, ["games", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert MARKUP in result.stdout  # not a MarkupError, not swallowed
    assert LINK.split("]")[0] + "]" in result.stdout  # the link markup shown, not made a hyperlink


@pytest.mark.slow
def test_names_with_escape_sequences_are_shown_escaped_on_stdout_and_stderr(tmp_path, db, wide):
    hostile = _hostile_game(tmp_path, db)
    name = next(n for n in hostile.values() if "Eve" in n)
    with store.read_connection(db) as con:
        [(game_id,)] = con.execute("SELECT game_id FROM games").fetchall()
    result = runner.invoke(app, ["report", game_id, "--db", str(db), "--format", "md", "--out", str(tmp_path / "r.md")])
    assert result.exit_code == 0, result.output
    # a problem line on stderr that quotes the name: a hand size that does not add up
    lines = (tmp_path / "hostile.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    header["id"] = "other"
    for p in header["players"]:
        p["hand_size"] = 1
    (tmp_path / "bad.jsonl").write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    validate = runner.invoke(app, ["validate", str(tmp_path / "bad.jsonl")])
    assert validate.exit_code == 3
    assert printable(name) in validate.stderr
    for output in (result.stdout, result.stderr, validate.stdout, validate.stderr):
        assert "\x1b" not in output and "\x07" not in output and "\x9b" not in output
    listed = runner.invoke(app, ["games", "--db", str(db)])
    assert "Mom[/link]\\x1b]0;pwned\\x07\\x1b[2J\\x9b2J" in listed.stdout and "\x1b" not in listed.stdout


@pytest.mark.slow
def test_json_output_escapes_every_control_character(tmp_path, db):
    _hostile_game(tmp_path, db)
    result = runner.invoke(app, ["games", "--db", str(db), "--json"])
    assert result.exit_code == 0
    assert "\x1b" not in result.stdout and "\x9b" not in result.stdout
    assert json.loads(result.stdout)["games"][0]["source"].startswith(LINK)


def test_printable_escapes_controls_and_keeps_text():
    assert printable("Köchin Weiß [/] 🙂") == "Köchin Weiß [/] 🙂"
    assert printable("a\x1b[2Jb\x00\x7f\x85\u202e\r\n") == "a\\x1b[2Jb\\x00\\x7f\\x85\\u202e\\r\\n"
    assert printable("one\ntwo", keep_lines=True) == "one\ntwo"


# ---------------------------------------------------------------- --db naming something else


@pytest.mark.parametrize("command", [["ingest", str(SAMPLES / "us-clue-family.jsonl")], ["games"], ["export"]])
@pytest.mark.parametrize("content", [b"a,b\n1,2\n", b"", b"SQLite format 3\x00" + bytes(200)])
def test_db_naming_a_file_that_is_not_a_database_is_a_usage_error_and_the_file_untouched(
    tmp_path, monkeypatch, command, content
):
    monkeypatch.chdir(tmp_path)
    night = tmp_path / "night.csv"
    night.write_bytes(content)
    result = runner.invoke(app, [*command, "--db", str(night)])
    assert result.exit_code == 2, result.output
    assert f"{night} is not a DuckDB database" in result.stderr
    assert night.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["night.csv"]


def test_db_naming_a_folder_is_a_usage_error(tmp_path):
    result = runner.invoke(app, ["games", "--db", str(tmp_path)])
    assert result.exit_code == 2 and "is a folder" in result.stderr


def test_the_dashboard_refuses_a_file_that_is_not_a_database(tmp_path):
    night = tmp_path / "night.csv"
    night.write_text("a,b\n")
    result = runner.invoke(app, ["dashboard", "--db", str(night), "--port", "1"])
    assert result.exit_code == 2 and "is not a DuckDB database" in result.stderr


# ---------------------------------------------------------------- file names from ids


@pytest.mark.slow
def test_a_report_of_a_game_with_a_300_character_id_gets_a_short_file_name(tmp_path, db, monkeypatch):
    long_id = "club-night-" + "x" * 289
    text = (SAMPLES / "us-clue-family.jsonl").read_text()
    header = json.loads(text.splitlines()[0])
    text = text.replace(f'"id":"{header["id"]}"', f'"id":"{long_id}"', 1)
    (tmp_path / "long.jsonl").write_text(text)
    assert pipeline.ingest_paths([str(tmp_path / "long.jsonl")], db, analyse=False, workers=1).games_stored == 1
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["report", long_id, "--db", str(db), "--format", "md", "--stored-only"])
    assert result.exit_code == 0, result.output
    [written] = tmp_path.glob("club-night-*.md")
    assert len(written.name) <= 90
    other = long_id[:-1] + "y"  # the same first 80 characters: another file
    from clue_stats.commands.report import _file_stem

    assert _file_stem(other) != _file_stem(long_id) and _file_stem("club-1") == "club-1"


# ---------------------------------------------------------------- the dashboard's port


def test_a_port_held_only_by_time_wait_sockets_is_free():
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    client = socket.create_connection(("127.0.0.1", port))
    accepted, _ = server.accept()
    accepted.close()  # the server side closes first: its end of the connection goes to TIME_WAIT
    time.sleep(0.05)
    client.close()
    server.close()
    time.sleep(0.05)
    plain = socket.socket()
    try:
        with pytest.raises(OSError):  # what the check did before: bind without SO_REUSEADDR
            plain.bind(("127.0.0.1", port))
    finally:
        plain.close()
    assert dashboard_command.port_free("127.0.0.1", port)


def test_a_port_with_a_listening_server_is_still_taken():
    with socket.socket() as busy:
        busy.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        assert not dashboard_command.port_free("127.0.0.1", busy.getsockname()[1])


# ---------------------------------------------------------------- --out


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_export_into_a_folder_with_quotes_in_its_name(tmp_path, samples, db, fmt):
    import duckdb

    pipeline.ingest_paths([str(samples / "us-clue-family.jsonl")], db, analyse=False, workers=1)
    folder = tmp_path / 'Bob\'s "exports"; DROP TABLE games; --'
    result = runner.invoke(app, ["export", "--db", str(db), "--out", str(folder), "--format", fmt])
    assert result.exit_code == 0, result.output
    reader = "read_parquet" if fmt == "parquet" else "read_csv"
    con = duckdb.connect()
    assert con.execute(f"SELECT count(*) FROM {reader}(?)", [str(folder / f"games.{fmt}")]).fetchone()[0] == 1
    with store.read_connection(db) as stored:
        assert stored.execute("SELECT count(*) FROM games").fetchone()[0] == 1


@pytest.mark.slow
@pytest.mark.parametrize("command", [["export"], ["simulate", "--games", "1"]])
def test_out_naming_a_file_is_a_usage_error(tmp_path, samples, db, command):
    pipeline.ingest_paths([str(samples / "us-clue-family.jsonl")], db, analyse=False, workers=1)
    taken = tmp_path / "notes.txt"
    taken.write_text("mine")
    for out in (taken, taken / "inside"):
        db_option = ["--db", str(db)] if command[0] == "export" else []
        result = runner.invoke(app, [*command, *db_option, "--out", str(out)])
        assert result.exit_code == 2, result.output
        assert "name a folder" in result.stderr and "internal error" not in result.stderr
    assert taken.read_text() == "mine"


def test_convert_out_naming_a_folder_is_a_usage_error(tmp_path):
    result = runner.invoke(app, ["convert", str(SAMPLES / "us-clue-family.jsonl"), "--out", str(tmp_path)])
    assert result.exit_code == 2 and "is a folder" in result.stderr
