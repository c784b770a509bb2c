"""The commands around the engine: notebook, board, simulate and convert, through the real CLI."""

from __future__ import annotations

import importlib.machinery
import json
import re
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from clue_stats.cli import app
from tests.helpers import ROOT, SAMPLES

runner = CliRunner()
SPEC = ROOT.parent / "shared" / "spec" / "board.md"


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_notebook_shows_exact_probabilities_and_json_uses_ids():
    path = SAMPLES / "de-2023-anna-notebook.jsonl"
    shown = run("notebook", path, "--observer", "anna", "--at", 2)
    assert shown.exit_code == 0, shown.output
    assert "Anna's notebook" in shown.stdout and "Musikzimmer" in shown.stdout  # German display names
    data = json.loads(run("notebook", path, "--observer", "Anna", "--at", 2, "--json").stdout)
    notebook = data["notebook"]
    # Anna holds her five cards for certain and nobody else can hold them
    for card in ("billiard_room", "lead_pipe", "library", "wrench", "mustard"):
        assert notebook[card]["Anna"] == 1.0 and notebook[card]["envelope"] == 0.0
    # Ben showed Anna the rope at seq 2
    assert notebook["rope"]["Ben"] == 1.0
    for card, places in notebook.items():
        assert abs(sum(places.values()) - 1.0) < 1e-9, card
    assert abs(sum(s["probability"] for s in data["most_likely"][:1]) - data["most_likely"][0]["probability"]) < 1e-12
    table = json.loads(run("notebook", path, "--observer", "table", "--at", 0, "--json").stdout)
    assert abs(table["entropy_bits"] - __import__("math").log2(324)) < 1e-9


def test_notebook_usage_errors():
    path = SAMPLES / "classic-club-night.jsonl"
    assert run("notebook", path, "--observer", "Alice").exit_code == 2  # two games: --game needed
    missing = run("notebook", path, "--game", "classic-club-2026-11-06-1", "--observer", "Zed")
    assert missing.exit_code == 2 and "Alice" in missing.stderr
    assert (
        run("notebook", path, "--game", "classic-club-2026-11-06-1", "--observer", "Alice", "--at", 999).exit_code == 2
    )


def spec_table() -> dict[str, dict[str, int]]:
    text = SPEC.read_text().splitlines()
    start = next(i for i, line in enumerate(text) if line.startswith("| start |"))
    lines = [line for line in text[start:] if line.startswith("| ")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    rows = {}
    for line in lines[1:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] in ("scarlett", "mustard", "white", "green", "peacock", "plum"):
            rows[cells[0]] = {room: int(v) for room, v in zip(header[1:], cells[1:])}
    return rows


def test_board_prints_the_shortest_path_table_of_the_spec():
    data = json.loads(run("board", "--json").stdout)
    if SPEC.exists():
        assert data == spec_table()
    assert data["peacock"]["conservatory"] == 7 and min(min(r.values()) for r in data.values()) == 7
    text = runner.invoke(app, ["board"], env={"COLUMNS": "160"}).stdout
    assert "Mrs Peacock" in text and "dining_room" not in text and "peacock" not in text
    assert re.search(r"Dining Room( +\d+){6}", text)
    german = run("board", "--edition", "de-2023").stdout
    assert "Speisezimmer" in german and "Anw" in german and "Dining" not in german


def test_simulate_is_reproducible_and_its_games_validate(tmp_path):
    a = run(
        "simulate",
        "--games",
        6,
        "--players",
        3,
        "--strategies",
        "notebook,random",
        "--seed",
        5,
        "--out",
        tmp_path / "a",
        "--json",
    )
    b = run(
        "simulate",
        "--games",
        6,
        "--players",
        3,
        "--strategies",
        "notebook,random",
        "--seed",
        5,
        "--out",
        tmp_path / "b",
        "--json",
    )
    assert a.exit_code == 0, a.output
    [fa] = json.loads(a.stdout)["files"]
    [fb] = json.loads(b.stdout)["files"]
    assert Path(fa).read_text() == Path(fb).read_text()
    checked = run("validate", tmp_path / "a", "--json")
    assert checked.exit_code == 0 and json.loads(checked.stdout)["games_valid"] == 6
    assert run("simulate", "--players", 3, "--strategies", "grandmaster", "--out", tmp_path / "c").exit_code == 2


def test_simulate_plays_a_custom_deck_without_a_board(tmp_path):
    made = run("simulate", "--games", 3, "--players", 6, "--deck", "10,8,12", "--out", tmp_path, "--json")
    assert made.exit_code == 0, made.output
    [path] = json.loads(made.stdout)["files"]
    header = json.loads(Path(path).read_text().splitlines()[0])
    assert header["edition"] == "custom" and header["variant"] == "live"
    assert [len(header["deck"][c]) for c in ("suspects", "weapons", "rooms")] == [10, 8, 12]
    checked = run("validate", path, "--json")
    assert checked.exit_code == 0 and json.loads(checked.stdout)["games_valid"] == 3
    for bad, words in (("10,x,12", "three numbers"), ("4,4,4", "need 6 suspects"), ("1,8,12", "at least 2")):
        refused = run("simulate", "--players", 6, "--deck", bad, "--out", tmp_path / "c")
        assert refused.exit_code == 2 and words in refused.output, refused.output


def test_convert_between_clue_log_and_notation_without_loss(tmp_path):
    jsonl = SAMPLES / "de-2023-anna-notebook.jsonl"
    to_notation = run("convert", jsonl, "--to", "notation", "--out", tmp_path / "game.clue")
    assert to_notation.exit_code == 0, to_notation.output
    back = run("convert", tmp_path / "game.clue")
    assert back.exit_code == 0, back.output
    direct = run("convert", jsonl)
    assert back.stdout == direct.stdout
    twin = run("convert", SAMPLES / "de-2023-anna-notebook.clue")
    assert twin.stdout == direct.stdout
    # `--out -` is standard output, as for `report` (it wrote a file named "-")
    dash = run("convert", jsonl, "--out", "-")
    assert dash.exit_code == 0 and dash.stdout == direct.stdout and not Path("-").exists()


def test_convert_reads_other_clients_and_reports_problems(tmp_path):
    cluebot = ROOT.parent / "shared" / "external" / "cluebot" / "examples" / "simple.yml"
    if cluebot.exists():
        result = run("convert", cluebot)
        assert result.exit_code in (0, 3), result.output
        records = [json.loads(line) for line in result.stdout.splitlines()]
        assert records and records[0]["type"] == "game" and records[0]["edition"] == "custom"
    junk = tmp_path / "junk.json"
    junk.write_text('{"hello": 1}')
    unknown = run("convert", junk)
    assert unknown.exit_code == 2 and "--from" in unknown.stderr


def test_no_command_compiles_anything_at_run_time():
    # the counting programs are machine code built with the package (engine/_kernels.pyx): a
    # command that counts loads the extension module and never imports a compiler
    from clue_stats.engine import _kernels

    assert _kernels.__file__ is not None
    assert _kernels.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    code = (
        "import sys; from typer.testing import CliRunner; from clue_stats.cli import app; "
        f"r = CliRunner().invoke(app, ['validate', {str(SAMPLES)!r}]); assert r.exit_code == 0, r.output; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'llvmlite', 'Cython')))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
