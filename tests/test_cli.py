"""The real CLI through typer's CliRunner: exit codes, messages, summaries, the database option."""

from __future__ import annotations

import json
import re

import pytest
import typer
from typer.testing import CliRunner

from clue_stats.cli import app
from clue_stats.engine.board import BoardFormatError, UnknownBoard
from clue_stats.engine.errors import ClueStatsError, InputError, StoreBusy, StoreError, UsageError
from clue_stats.engine.simulate import SimulationError
from clue_stats.engine.strategies import UnknownStrategy
from clue_stats.exit_codes import ExitCode
from clue_stats.ingest.notation_write import NotationWriteError
from clue_stats.ingest.store import read_connection
from clue_stats.typer_app import handled
from tests.helpers import FIXTURES, ROOT

runner = CliRunner()


def run(*args, env=None):
    return runner.invoke(app, [str(a) for a in args], env=env)


@pytest.mark.slow
def test_ingest_reports_a_summary_and_is_idempotent(samples, db):
    (samples / "notes.md").write_text("not a game")
    first = run("ingest", samples, "--db", db, "--no-analyse")
    assert first.exit_code == 0, first.output
    stored = int(re.search(r"(\d+) games stored", first.output).group(1))
    present = int(re.search(r"(\d+) the same as a stored game \(kept once\)", first.output).group(1))
    assert stored >= 9 and "1 skipped" in first.output
    assert present == 1  # the German game is there twice: as clue-log/1 and as notation
    second = run("ingest", samples, "--db", db, "--no-analyse", "--json")
    data = json.loads(second.stdout)
    assert second.exit_code == 0
    assert (data["games_stored"], data["games_skipped"], data["files_skipped"]) == (0, stored + present, 1)


def test_bad_input_gives_file_line_code_message_exit_3_and_the_rest_is_stored(tmp_path, samples, db):
    (samples / "broken.jsonl").write_bytes(b'{"type":"game","format":"clue-log/1","edition":"classic"\n')
    (samples / "latin1.jsonl").write_bytes((FIXTURES / "invalid" / "encoding.jsonl").read_bytes())
    (samples / "empty.jsonl").write_bytes(b"")
    result = run("ingest", samples, "--db", db, "--no-analyse")
    assert result.exit_code == 3
    # where the reader knows the column, it follows the line: the JSON ended where a ',' was expected
    assert re.search(r"broken\.jsonl:1:57: bad_json: not JSON: Expecting ',' delimiter", result.stderr)
    with read_connection(db) as con:
        assert con.rows("SELECT line, col FROM problems WHERE code = 'bad_json'") == [(1, 57)]
    assert re.search(r"latin1\.jsonl:6: encoding: ", result.stderr)
    assert re.search(r"empty\.jsonl:1: empty_file: ", result.stderr)
    assert "Traceback" not in result.output
    assert re.search(r"(9|\d\d) games stored", result.stdout)
    listed = json.loads(run("games", "--db", db, "--json").stdout)
    assert listed["rejected"] == 3 and listed["total"] >= 9


@pytest.mark.slow
def test_the_database_comes_from_the_environment_unless_given(samples, tmp_path):
    env_db = tmp_path / "env.duckdb"
    result = run("ingest", samples / "us-clue-family.jsonl", "--no-analyse", env={"CLUE_STATS_DB": str(env_db)})
    assert result.exit_code == 0 and env_db.exists()
    other = tmp_path / "other.duckdb"
    run("ingest", samples / "us-clue-family.jsonl", "--no-analyse", "--db", other, env={"CLUE_STATS_DB": str(env_db)})
    assert other.exists()


def test_validate_needs_no_database_and_names_every_problem(tmp_path):
    result = run("validate", FIXTURES / "invalid" / "passed_holding.jsonl", FIXTURES / "invalid" / "turn_order.jsonl")
    assert result.exit_code == 3
    assert re.search(
        r"passed_holding\.jsonl:10: passed_holding: Bob passes on Reverend Green, Dagger, Library while holding Dagger",
        result.stderr,
    )
    assert re.search(r"turn_order\.jsonl:7: turn_order: ", result.stderr)
    ok = run("validate", ROOT / "data" / "samples" / "de-2023-duel.jsonl", "--json")
    assert ok.exit_code == 0 and json.loads(ok.stdout)["games_valid"] == 1


def test_usage_errors_exit_2():
    assert run("ingest", "/no/such/folder").exit_code == 2
    assert run("ingest").exit_code == 2
    assert run("frobnicate").exit_code == 2


def test_a_file_that_is_not_a_database_is_a_usage_error(tmp_path, samples):
    bogus = tmp_path / "bogus.duckdb"
    bogus.write_text("hello")
    result = run("ingest", samples / "us-clue-family.jsonl", "--db", bogus)
    assert result.exit_code == 2
    assert "bogus.duckdb" in result.stderr and "Traceback" not in result.output


def test_every_command_is_documented_in_the_readme():
    import typer.main

    readme = (ROOT / "README.md").read_text()
    command = typer.main.get_command(app)
    for name in command.commands:
        assert f"clue-stats {name}" in readme, name


def test_version_and_counts_in_words(samples, db):
    from importlib.metadata import version

    shown = run("--version")
    assert shown.exit_code == 0 and shown.stdout.strip() == f"clue-stats {version('clue-stats')}"
    one = run("ingest", samples / "us-clue-family.jsonl", "--db", db, "--no-analyse")
    assert one.stdout.startswith("1 file read, 0 skipped; 1 game stored,"), one.stdout
    assert run("delete", "us-family-2026-10-31", "--db", db).stdout.startswith("1 game deleted")
    assert run("validate", samples / "us-clue-family.jsonl").stdout.startswith("1 file read, 0 skipped; 1 game valid")


def test_samples_copies_the_installed_sample_games_out_and_keeps_what_is_there(tmp_path):
    target = tmp_path / "games"
    first = run("samples", target, "--json")
    assert first.exit_code == 0, first.output
    copied = json.loads(first.stdout)["files"]
    assert sorted(p.name for p in target.iterdir()) == copied
    assert "classic-club-night.jsonl" in copied and "de-2023-anna-notebook.clue" in copied
    assert (target / "classic-club-night.jsonl").read_bytes() == (
        ROOT / "data/samples/classic-club-night.jsonl"
    ).read_bytes()
    (target / "classic-club-night.jsonl").write_text("mine")
    again = run("samples", target)
    assert again.exit_code == 2 and "--force" in again.stderr
    assert (target / "classic-club-night.jsonl").read_text() == "mine"
    assert run("samples", target, "--force").exit_code == 0
    assert (target / "classic-club-night.jsonl").read_text() != "mine"
    assert run("samples", target / "classic-club-night.jsonl").exit_code == 2


@pytest.mark.parametrize(
    "error, code",
    [
        (UsageError("x"), ExitCode.USAGE),
        (InputError("x"), ExitCode.INPUT_REJECTED),
        (StoreError("x"), ExitCode.FAILURE),
        (StoreBusy("x"), ExitCode.FAILURE),
        (UnknownBoard("x"), ExitCode.USAGE),
        (BoardFormatError("x"), ExitCode.INPUT_REJECTED),
        (SimulationError("x"), ExitCode.USAGE),
        (UnknownStrategy("x"), ExitCode.USAGE),
        (NotationWriteError("x"), ExitCode.INPUT_REJECTED),
        (ClueStatsError("x"), ExitCode.FAILURE),
        (ValueError("x"), ExitCode.FAILURE),  # the program's own failure: one line, no traceback
    ],
)
def test_every_error_takes_its_familys_exit_code_in_one_place(error, code, capsys):
    @handled
    def command() -> None:
        raise error

    with pytest.raises(typer.Exit) as stopped:
        command()
    assert stopped.value.exit_code == code
    assert "x" in capsys.readouterr().err


@pytest.mark.slow
def test_the_partitioned_analysis_goes_through_the_same_handling(tmp_path):
    """It is a command of `clue-stats` (run here as ``python -m clue_stats``), not a script of its own."""
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "clue_stats", "analyse-partitioned", str(tmp_path / "none"), str(tmp_path / "out")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == ExitCode.USAGE
    assert "clue-stats: no such file or folder" in result.stderr and "Traceback" not in result.stderr


def test_a_dash_reads_standard_input_in_either_format(db):
    """`-` is standard input, read on purpose: clue-log/1 (it starts with "{") streamed, else the
    notation; its problems name <stdin>."""
    jsonl = (ROOT / "data" / "samples" / "de-2023-anna-notebook.jsonl").read_text(encoding="utf-8")
    notation = (ROOT / "data" / "samples" / "de-2023-anna-notebook.clue").read_text(encoding="utf-8")
    checked = runner.invoke(app, ["validate", "-"], input=jsonl)
    assert checked.exit_code == 0, checked.output
    assert "1 file read, 0 skipped; 1 game valid" in checked.stdout
    stored = runner.invoke(app, ["ingest", "-", "--db", str(db), "--no-analyse"], input=notation)
    assert stored.exit_code == 0, stored.output
    assert "1 game stored" in stored.stdout
    broken = runner.invoke(app, ["validate", "-"], input=jsonl + '{"type":"turn",\n')
    assert broken.exit_code == ExitCode.INPUT_REJECTED
    assert re.search(r"<stdin>:\d+:\d+: bad_json: ", broken.stderr)
