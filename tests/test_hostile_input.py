"""Hostile input (issue 16): every line its own problem, nothing dropped, nothing lost, the run finished."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clue_stats import pipeline
from clue_stats.cli import app
from clue_stats.ingest import cluelog, formats, notation, store
from tests.helpers import FIXTURES, SAMPLES

runner = CliRunner()

# a valid game of 15 lines, id "fixture" (the fixture with its one mistake mended)
VALID = (
    (FIXTURES / "invalid" / "passed_holding.jsonl")
    .read_text()
    .replace(
        '"weapon": "dagger", "room": "library", "responses": [{"player": "Ann", "shows": null}',
        '"weapon": "rope", "room": "library", "responses": [{"player": "Ann", "shows": null}',
    )
)
END = len(VALID.splitlines())  # the end record's line

# (what, the line, the code it must be reported with)
REFUSED = [
    ("4,301 digits", '{"type":"x-n","v":' + "9" * 4301 + "}", "bad_value"),
    ("lone surrogate", '{"type":"x-n","place":"\\ud800"}', "bad_value"),
    ("lone surrogate in a key", '{"type":"x-n","\\udfff":1}', "bad_value"),
    ("NaN", '{"type":"x-n","v":NaN}', "bad_value"),
    ("Infinity", '{"type":"x-n","v":[Infinity]}', "bad_value"),
    ("-Infinity", '{"type":"x-n","v":{"w":-Infinity}}', "bad_value"),
    ("1e999", '{"type":"x-n","v":1e999}', "bad_value"),
    ("duplicate key", '{"type":"x-n","v":1,"v":2}', "duplicate_key"),
    ("duplicate key in a response", None, "duplicate_key"),
]


def _bad_game(line: str | None) -> str:
    """VALID with the bad line put before its end record (so the line number is END)."""
    lines = VALID.replace('"id": "fixture"', '"id": "bad"').splitlines()
    if line is None:  # a suggestion whose response names its player twice
        index = next(i for i, text in enumerate(lines) if '"responses"' in text)
        lines[index] = lines[index].replace('"shows": ', '"shows": null, "shows": ', 1)
        return "\n".join(lines) + "\n", index + 1
    lines.insert(len(lines) - 1, line)
    return "\n".join(lines) + "\n", len(lines) - 1


@pytest.mark.slow
@pytest.mark.parametrize("what,line,code", REFUSED, ids=[r[0] for r in REFUSED])
def test_a_refused_value_is_a_problem_of_its_line_and_every_other_game_is_stored(tmp_path, db, what, line, code):
    folder = tmp_path / "night"
    folder.mkdir()
    (folder / "a.jsonl").write_text((SAMPLES / "classic-club-night.jsonl").read_text())
    bad, bad_line = _bad_game(line)
    (folder / "b.jsonl").write_text(VALID.replace('"id": "fixture"', '"id": "before"') + bad + VALID)
    (folder / "c.jsonl").write_text((SAMPLES / "uk-2020-pub.jsonl").read_text())
    result = runner.invoke(app, ["ingest", str(folder), "--db", str(db), "--no-analyse", "--json"])
    assert result.exit_code == 3, result.output
    data = json.loads(result.stdout)
    errors = [p for p in data["problems"] if p["severity"] == "error"]
    assert [(p["file"].endswith("b.jsonl"), p["line"], p["code"]) for p in errors] == [(True, END + bad_line, code)]
    assert data["games_rejected"] == 1
    with store.read_connection(db) as con:
        ids = {r[0] for r in con.execute("SELECT game_id FROM games").fetchall()}
        runs = con.execute("SELECT finished_at IS NOT NULL, games_stored FROM ingest_runs").fetchall()
        [(rejected_id, raw)] = con.execute("SELECT game_id, raw FROM rejected").fetchall()
        payloads = [r[0] for r in con.execute("SELECT payload FROM events").fetchall()]
    assert {"before", "fixture"} <= ids and len(ids) == data["games_stored"] >= 5
    assert runs == [(True, data["games_stored"])]
    assert rejected_id == "bad" and raw == bad  # the original text, as it was
    for payload in payloads:  # everything stored is JSON that a strict reader takes back
        json.loads(payload, parse_constant=lambda name: pytest.fail(f"{name} stored"))


def test_validate_reports_the_same_problem_and_goes_on(tmp_path):
    bad, bad_line = _bad_game('{"type":"x-n","v":' + "9" * 5000 + "}")
    (tmp_path / "b.jsonl").write_text(bad + VALID)
    summary = pipeline.validate_paths([str(tmp_path)], workers=1)
    assert summary.games_valid == 1 and summary.games_rejected == 1
    assert [(p.line, p.code) for p in summary.problems if p.is_error] == [(bad_line, "bad_value")]
    assert "5,000 digits" in summary.problems[0].message


@pytest.mark.slow
def test_an_extension_record_is_kept_whatever_it_holds(db, tmp_path):
    lines = VALID.splitlines()
    lines.insert(4, '{"type":"x-unreadable"}')
    lines.insert(6, '{"type":"x-other","v":[1,{"a":null}]}')
    (tmp_path / "x.jsonl").write_text("\n".join(lines) + "\n")
    summary = pipeline.ingest_paths([str(tmp_path)], db, analyse=False, workers=1)
    assert summary.games_stored == 1, [str(p) for p in summary.problems]
    with store.read_connection(db) as con:
        rows = con.execute("SELECT seq, line, type FROM events ORDER BY seq").fetchall()
    assert [r[0] for r in rows] == list(range(len(lines)))  # no seq missing
    assert [r[1] for r in rows] == list(range(1, len(lines) + 1))
    assert rows[4][2] == "x-unreadable" and rows[6][2] == "x-other"
    game, _ = cluelog.build_game(cluelog.read_text("\n".join(lines) + "\n").games[0])
    assert '{"type":"x-unreadable"}' in cluelog.write_game(game)


def test_an_unreadable_line_still_keeps_its_seq(tmp_path):
    lines = VALID.splitlines()
    lines.insert(4, '{"type":"x-n","v":NaN}')
    (raw,) = cluelog.read_text("\n".join(lines) + "\n").games
    game, problems = cluelog.build_game(raw)
    assert game is None and [(p.code, p.seq, p.line) for p in problems] == [("bad_value", 4, 5)]


@pytest.mark.slow
def test_a_duplicate_id_rejection_keeps_the_original_bytes(tmp_path, samples, db):
    pipeline.ingest_paths([str(samples / "us-clue-family.jsonl")], db, analyse=False, workers=1)
    changed = (
        (samples / "us-clue-family.jsonl").read_text().replace('"played_at":"2026-10-31"', '"played_at":"2026-11-01"')
    )
    changed = changed.replace('{"type":"game",', '{ "type" : "game" ,', 1)  # spacing a rewrite would lose
    (tmp_path / "changed.jsonl").write_text(changed)
    summary = pipeline.ingest_paths([str(tmp_path / "changed.jsonl")], db, analyse=False, workers=1)
    assert [p.code for p in summary.problems] == ["duplicate_id"]
    with store.read_connection(db) as con:
        [(raw,)] = con.execute("SELECT raw FROM rejected").fetchall()
    assert raw == changed


def test_the_run_is_finished_even_when_the_program_fails(samples, db, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(pipeline, "check", broken)
    with pytest.raises(RuntimeError):
        pipeline.ingest_paths([str(samples)], db, analyse=False, workers=1)
    with store.read_connection(db) as con:
        assert con.execute("SELECT finished_at IS NOT NULL, games_stored FROM ingest_runs").fetchall() == [(True, 0)]


# ---------------------------------------------------------------- the notation and the importers


@pytest.mark.parametrize("line", ["Anna turn 3 " + "9" * 5000, "Anna moves " + "9" * 5000 + ",3"])
def test_the_notation_refuses_a_huge_number_on_its_line(line):
    lines = (SAMPLES / "de-2023-anna-notebook.clue").read_text().splitlines()
    at = lines.index("Anna has Billard Heizungsrohr Biblio Rohrzange Gatow") + 2
    result = notation.read("\n".join(lines[:at] + [line] + lines[at:]) + "\n", "x.clue")
    (game,) = result.games
    assert [p.line for p in game.problems] == [at + 1]


@pytest.mark.parametrize(
    "value,code",
    [("9" * 4400, "bad_value"), ('"\\ud800"', "bad_value"), ("NaN", "bad_value"), ("1e999", "bad_value")],
)
def test_an_effect_clue_notebook_with_a_refused_value_is_a_problem(tmp_path, value, code):
    text = (FIXTURES / "importers" / "effect_clue" / "v6_observer.json").read_text()
    bad = text.replace('"version": 6,', f'"version": 6, "x": {value},', 1)
    path = tmp_path / "notebook.json"
    path.write_text(bad)
    items = list(formats.iter_file(path))  # still recognised as a notebook, and the problem said
    assert [(p.code, p.line) for p in items if not isinstance(p, cluelog.RawGame)] == [(code, 1)]


def test_an_effect_clue_duplicate_key_is_a_problem(tmp_path):
    text = (FIXTURES / "importers" / "effect_clue" / "v6_observer.json").read_text()
    path = tmp_path / "notebook.json"
    path.write_text(text.replace('"version": 6,', '"version": 6, "version": 6,', 1))
    assert [p.code for p in formats.iter_file(path)] == ["duplicate_key"]


@pytest.mark.parametrize(
    "change,code,line",
    [
        (("card_count: 5\n    - name: bo", "card_count: " + "9" * 5000 + "\n    - name: bo"), "bad_value", 6),
        (("card_count: 5\n    - name: bo", "card_count: 5\n      card_count: 4\n    - name: bo"), "duplicate_key", 7),
    ],
    ids=["5,000 digits", "duplicate key"],
)
def test_a_cluebot_sheet_with_a_refused_value_is_a_problem_of_its_line(tmp_path, change, code, line):
    text = (FIXTURES / "importers" / "cluebot" / "classic_sheet.yml").read_text()
    path = tmp_path / "sheet.yml"
    path.write_text(text.replace(*change, 1))
    assert [(p.code, p.line) for p in formats.iter_file(path)] == [(code, line)]


# ---------------------------------------------------------------- unreadable files and folders


def _folder_with_a_link_to_nothing(tmp_path):
    folder = tmp_path / "night"
    (folder / "deeper").mkdir(parents=True)
    (folder / "good.jsonl").write_text(VALID)
    (folder / "deeper" / "gone.jsonl").symlink_to(tmp_path / "deleted.jsonl")
    return folder


@pytest.mark.slow
def test_a_link_to_nothing_is_reported_unreadable_and_counted(tmp_path, db):
    folder = _folder_with_a_link_to_nothing(tmp_path)
    result = runner.invoke(app, ["ingest", str(folder), "--db", str(db), "--no-analyse", "--json"])
    assert result.exit_code == 3, result.output
    data = json.loads(result.stdout)
    assert (data["files_read"], data["files_unreadable"], data["games_stored"]) == (1, 1, 1)
    [problem] = data["problems"]
    assert problem["code"] == "unreadable" and problem["file"].endswith("gone.jsonl")
    with store.read_connection(db) as con:
        assert con.execute("SELECT code, source_file FROM rejected").fetchall() == [("unreadable", problem["file"])]
    text = runner.invoke(app, ["validate", str(folder)])
    assert text.exit_code == 3 and "1 unreadable" in text.stdout and "gone.jsonl:-: unreadable: " in text.stderr


def test_a_folder_that_cannot_be_listed_is_reported_unreadable(tmp_path, monkeypatch):
    import errno
    import os

    folder = _folder_with_a_link_to_nothing(tmp_path)
    locked = folder / "locked"
    locked.mkdir()
    (locked / "hidden.jsonl").write_text(VALID)
    real = os.scandir

    def scandir(path="."):
        if Path(path) == locked:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    summary = pipeline.validate_paths([str(folder)], workers=1)
    assert (summary.files_read, summary.files_unreadable, summary.games_valid) == (1, 2, 1)
    assert sorted((p.code, Path(p.source_file).name, p.message) for p in summary.problems) == [
        ("unreadable", "gone.jsonl", "a link to nothing"),
        ("unreadable", "locked", "cannot list the folder: Permission denied"),
    ]


def test_a_file_that_cannot_be_opened_is_unreadable_not_encoding(tmp_path, monkeypatch):
    import builtins
    import errno

    folder = _folder_with_a_link_to_nothing(tmp_path)
    (folder / "deeper" / "gone.jsonl").unlink()
    secret = folder / "secret.jsonl"
    secret.write_text(VALID)
    real = builtins.open

    def guarded(file, *args, **kwargs):
        if str(file) == str(secret):
            raise PermissionError(errno.EACCES, "Permission denied", str(file))
        return real(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", guarded)
    summary = pipeline.validate_paths([str(folder)], workers=1)
    assert (summary.files_read, summary.files_unreadable) == (1, 1)
    assert [(p.code, p.source_file, p.message) for p in summary.problems] == [
        ("unreadable", str(secret), "cannot read the file: Permission denied")
    ]


@pytest.mark.slow
def test_files_and_folders_without_permission_as_an_ordinary_user(tmp_path):
    """The real thing: chmod 000, read without root's power to read anything."""
    import os
    import shutil
    import subprocess
    import sys
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="clue-stats-perm-"))  # outside pytest's root-only folder
    try:
        base.chmod(0o755)
        (base / "locked").mkdir()
        (base / "locked" / "hidden.jsonl").write_text(VALID)
        (base / "secret.jsonl").write_text(VALID)
        (base / "good.jsonl").write_text(VALID)
        (base / "locked").chmod(0)
        (base / "secret.jsonl").chmod(0)
        # root reads anything: without the capabilities that let it, it obeys the modes like anyone
        caps = "-dac_override,-dac_read_search"
        ordinary = ["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}"] if os.geteuid() == 0 else []
        if ordinary and shutil.which("setpriv") is None:
            pytest.skip("running as root, and setpriv (util-linux) is not there to drop root's file capabilities")
        result = subprocess.run(
            [*ordinary, sys.executable, "-m", "clue_stats", "validate", str(base), "--json"],
            capture_output=True,
            text=True,
            cwd=base,
            timeout=300,
        )
    finally:
        (base / "locked").chmod(0o755)
        shutil.rmtree(base)
    assert result.returncode == 3, result.stderr
    data = json.loads(result.stdout)
    assert (data["files_read"], data["files_unreadable"], data["games_valid"]) == (1, 2, 1)
    assert sorted((p["code"], Path(p["file"]).name) for p in data["problems"]) == [
        ("unreadable", "locked"),
        ("unreadable", "secret.jsonl"),
    ]


def test_a_cluebot_sheet_that_repeats_itself_with_aliases_is_refused_before_it_is_expanded(tmp_path):
    text = (FIXTURES / "importers" / "cluebot" / "classic_sheet.yml").read_text()
    laughs = "".join(f"x{i}: &x{i} [{', '.join([f'*x{i - 1}'] * 10)}]\n" for i in range(1, 8))
    bomb = text.replace(
        "events:\n", f'x0: &x0 {{q: "ann white rope study", a: "cy"}}\n{laughs}events: *x7\nunused:\n', 1
    )
    path = tmp_path / "sheet.yml"
    path.write_text(bomb)  # 10 million events in a few lines
    [problem] = formats.iter_file(path)
    assert problem.code == "bad_import" and "alias" in problem.message
