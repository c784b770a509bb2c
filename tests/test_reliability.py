"""Hostile input, crashes and concurrency: nothing escapes, nothing half-stored, nothing lost."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clue_stats import pipeline
from clue_stats.ingest import cluelog, formats, store
from tests.helpers import FIXTURES, ROOT, SAMPLES

pytestmark = pytest.mark.slow  # about a second or more a test: make test-fast leaves them out

# `make fuzz` runs the fuzzing tests with this many times their examples (CLUE_STATS_FUZZ)
FUZZ = max(1, int(os.environ.get("CLUE_STATS_FUZZ", "1")))

VALID = (
    (FIXTURES / "invalid" / "passed_holding.jsonl")
    .read_text()
    .replace(
        '"weapon": "dagger", "room": "library", "responses": [{"player": "Ann", "shows": null}',
        '"weapon": "rope", "room": "library", "responses": [{"player": "Ann", "shows": null}',
    )
)
VALID_LINES = VALID.splitlines()


def check_text(data: bytes):
    """Every game of the input ends valid or rejected with problems; nothing raises."""
    import io

    outcomes = []
    for item in cluelog.iter_raw_games(io.BytesIO(data), "fuzz.jsonl"):
        if isinstance(item, cluelog.RawGame):
            outcome = pipeline.check(item)
            assert (outcome.rows is None) == (outcome.rejection is not None)
            if outcome.rejection is not None:
                assert outcome.problems and all(p.code and p.message for p in outcome.problems)
            outcomes.append(outcome)
    return outcomes


@settings(max_examples=150 * FUZZ, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2000))
def test_random_bytes_never_escape(data):
    check_text(data)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150 * FUZZ, deadline=None)
@given(st.lists(json_values, max_size=6))
def test_random_json_lines_never_escape(values):
    check_text(("\n".join(json.dumps(v) for v in values)).encode())


FIELD_VALUES = st.one_of(
    st.none(),
    st.integers(-3, 30),
    st.text(max_size=12),
    st.sampled_from(
        ["Ann", "Bob", "Cat", "green", "rope", "library", "?", "all", [], {}, ["Ann"], [1, 2], {"suspect": "x"}]
    ),
)


@settings(max_examples=250 * FUZZ, deadline=None)
@given(st.integers(0, len(VALID_LINES) - 1), st.data())
def test_valid_logs_mutated_record_by_record_never_escape(index, data):
    lines = list(VALID_LINES)
    record = json.loads(lines[index])
    action = data.draw(st.sampled_from(["set", "drop", "delete_line", "duplicate_line", "swap"]))
    if action == "set":
        key = data.draw(st.sampled_from(sorted(record) + ["x-extra", "responses", "correct", "cards"]))
        record[key] = data.draw(FIELD_VALUES)
        lines[index] = json.dumps(record)
    elif action == "drop" and len(record) > 1:
        record.pop(data.draw(st.sampled_from(sorted(record))))
        lines[index] = json.dumps(record)
    elif action == "delete_line":
        del lines[index]
    elif action == "duplicate_line":
        lines.insert(index, lines[index])
    elif action == "swap" and index + 1 < len(lines):
        lines[index], lines[index + 1] = lines[index + 1], lines[index]
    check_text(("\n".join(lines) + "\n").encode())


# Raw JSON text that Python's reader or encoder refuses, or that a terminal or Markdown would act on;
# put into a record's text as it stands (json.dumps could not write most of them).
REFUSED_VALUES = ["9" * 4301, "-" + "9" * 5000, "NaN", "Infinity", "-Infinity", "1e999", '"\\ud800"', '"a\\udfffb"']
HOSTILE_TEXT = [
    "[/]",
    "[link=http://evil.example/]Mom[/link]",
    "[link](http://evil.example/)",
    "\x1b]0;pwned\x07",
    "\x1b[2J\x1b[31mred",
    "\x9b2J",
    "\u202eevil",
    ":smile: [bold]x[/bold]",
    "<script>alert(1)</script>",
    "line\nbreak\r",
]
SENTINEL = "__hostile__"


def _leaves(value, path=()):
    """Every place in a record that holds a value (key paths), the containers included."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _leaves(item, (*path, i))


def _with_raw(record: dict, path: tuple, raw: str) -> str:
    """The record as a JSON line with the value at ``path`` replaced by the raw JSON text ``raw``."""
    target = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = SENTINEL
    return json.dumps(record).replace(json.dumps(SENTINEL), raw, 1)


def _strictly_stored(outcome) -> None:
    """What would be stored is JSON a strict reader takes back, and text an encoder writes."""
    from clue_stats.ingest import strict_json

    if outcome.rows is None:
        return
    for rows in outcome.rows.tables.values():
        for row in rows:
            for value in row.values():
                if isinstance(value, str):
                    value.encode("utf-8")
                elif isinstance(value, float):
                    assert value == value and abs(value) != float("inf"), row
    for event in outcome.rows.tables.get("events", []):
        strict_json.loads(event["payload"])


@settings(max_examples=150 * FUZZ, deadline=None)
@given(st.integers(0, len(VALID_LINES) - 1), st.data())
def test_refused_values_and_duplicate_keys_in_every_field_never_escape(index, data):
    lines = list(VALID_LINES)
    record = json.loads(lines[index])
    if data.draw(st.booleans()):
        path = data.draw(st.sampled_from([p for p in _leaves(record) if p]))
        lines[index] = _with_raw(record, path, data.draw(st.sampled_from(REFUSED_VALUES)))
        code = "bad_value"
    else:
        key = data.draw(st.sampled_from(sorted(record)))
        lines[index] = lines[index][:-1] + f', "{key}": {json.dumps(record[key])}}}'
        code = "duplicate_key"
    outcomes = check_text(("\n".join(lines) + "\n").encode())
    for outcome in outcomes:
        _strictly_stored(outcome)
    refused = [p for o in outcomes for p in o.problems if p.line == index + 1 and p.code == code]
    assert refused, [str(p) for o in outcomes for p in o.problems]


@settings(max_examples=20 * FUZZ, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, len(VALID_LINES) - 1), st.data())
def test_markup_and_escape_sequences_in_every_text_field_never_escape(tmp_path_factory, index, data):
    """Whatever text a field holds, the CLI prints it as text: no crash, no raw control character."""
    from typer.testing import CliRunner

    from clue_stats.cli import app

    lines = list(VALID_LINES)
    record = json.loads(lines[index])
    texts = [p for p in _leaves(record) if p and isinstance(_at(record, p), str)]
    hostile = data.draw(st.sampled_from(HOSTILE_TEXT))
    if texts:
        path = data.draw(st.sampled_from(texts))
        value = _at(record, path)
        replaced = data.draw(st.sampled_from([hostile, value + hostile]))
        lines[index] = _with_raw(record, path, json.dumps(replaced))
        if path and path[-1] == "name" and "players" in path:  # a player renamed: everywhere
            lines = [line.replace(json.dumps(value), json.dumps(replaced)) for line in lines]
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "game.jsonl").write_text("\n".join(lines) + "\n")
    db = folder / "x.duckdb"
    runner = CliRunner()
    results = [
        runner.invoke(app, ["validate", str(folder)]),
        runner.invoke(app, ["ingest", str(folder), "--db", str(db), "--no-analyse"]),
        runner.invoke(app, ["games", "--db", str(db)]),
    ]
    for result in results:
        assert result.exit_code in (0, 3), result.output
        for output in (result.stdout, result.stderr):
            assert "internal error" not in output
            assert not any(ch in output for ch in "\x1b\x07\x9b\u202e"), output


def _at(record, path):
    for key in path:
        record = record[key]
    return record


def test_deeply_nested_json_is_a_problem_not_a_crash(tmp_path, db):
    (tmp_path / "deep.jsonl").write_text(VALID + "[" * 200_000 + "]" * 200_000 + "\n")
    summary = pipeline.ingest_paths([str(tmp_path)], db, analyse=False, workers=1)
    assert summary.games_rejected == 1
    assert [p.code for p in summary.problems if p.is_error] == ["bad_json"]


def test_a_50_mb_line_is_reported_and_the_games_around_it_stored(tmp_path, db):
    path = tmp_path / "huge.jsonl"
    other = VALID.replace('"id": "fixture"', '"id": "after"')
    with path.open("w") as f:
        f.write(VALID)
        f.write('{"type":"x-blob","data":"' + "x" * (50 * 1024 * 1024) + '"}\n')
        f.write(other)
    summary = pipeline.ingest_paths([str(path)], db, analyse=False, workers=1)
    assert summary.games_stored == 1 and summary.games_rejected == 1
    [problem] = [p for p in summary.problems if p.is_error]
    assert problem.code == "line_too_long" and problem.line == 16
    with store.read_connection(db) as con:
        [(raw,)] = con.execute("SELECT raw FROM rejected").fetchall()
    assert len(raw) < 2 * 1024 * 1024


def test_thousands_of_files_each_problem_reported(tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(10_000):
        (folder / f"f{i:05d}.jsonl").write_bytes(b"" if i % 2 else b"\n")
    (folder / "good.jsonl").write_text(VALID)
    summary = pipeline.validate_paths([str(folder)], workers=1)
    assert summary.files_read == 10_001 and summary.games_valid == 1
    assert sum(p.code == "empty_file" for p in summary.problems) == 10_000


def _corpus(folder: Path, games: int) -> None:
    from clue_stats.testing import random_game

    folder.mkdir()
    for start in range(0, games, 100):
        (folder / f"g{start:05d}.jsonl").write_text(
            "".join(
                cluelog.write_game(random_game(seed, n_players=4, n_suggestions=12))
                for seed in range(start, start + 100)
            )
        )


def _db_counts(db: Path) -> tuple:
    con = duckdb.connect(str(db), read_only=True)
    try:
        # killed before its schema was written (a slow start): the file holds no game, whole or part
        if not con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'games'").fetchone()[0]:
            return (0, 0, 0, 0, 0)
        games = con.execute("SELECT count(*), count(DISTINCT game_id) FROM games").fetchone()
        orphans = con.execute(
            "SELECT (SELECT count(*) FROM events WHERE game_id NOT IN (SELECT game_id FROM games)),"
            " (SELECT count(*) FROM players WHERE game_id NOT IN (SELECT game_id FROM games)),"
            " (SELECT count(*) FROM games g WHERE n_records <> (SELECT count(*) FROM events e WHERE e.game_id = g.game_id))"
        ).fetchone()
        return games + orphans
    finally:
        con.close()


def test_sigkill_in_the_middle_never_stores_a_partial_game(tmp_path):
    corpus = tmp_path / "corpus"
    _corpus(corpus, 1500)
    db = tmp_path / "killed.duckdb"
    command = [
        sys.executable,
        "-m",
        "clue_stats",
        "ingest",
        str(corpus),
        "--db",
        str(db),
        "--no-analyse",
        "--workers",
        "1",
    ]
    rng = random.Random(7)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for _ in range(3):
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=ROOT)
        time.sleep(rng.uniform(1.0, 3.0))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if db.exists():
            total, distinct, orphan_events, orphan_players, partial = _db_counts(db)
            assert total == distinct and orphan_events == orphan_players == partial == 0
    finished = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
    assert finished.returncode == 0, finished.stderr
    clean = tmp_path / "clean.duckdb"
    pipeline.ingest_paths([str(corpus)], clean, analyse=False, workers=1)
    assert _db_counts(db) == _db_counts(clean) == (1500, 1500, 0, 0, 0)


def test_readers_see_whole_games_while_ingest_writes(tmp_path):
    corpus = tmp_path / "corpus"
    _corpus(corpus, 1000)
    db = tmp_path / "live.duckdb"
    with store.write_connection(db):
        pass
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "clue_stats", "ingest", str(corpus), "--db", str(db), "--no-analyse", "--workers", "1"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen = []
    while proc.poll() is None:
        try:
            with store.read_connection(db, wait_seconds=20) as con:
                seen.append(
                    con.execute(
                        "SELECT count(*), (SELECT count(*) FROM games g WHERE n_records <> (SELECT count(*) FROM events e WHERE e.game_id = g.game_id)) FROM games"
                    ).fetchone()
                )
        except store.StoreBusy:
            pass
        time.sleep(0.05)
    assert proc.returncode == 0, proc.stderr.read()
    assert seen, "the reader never got in"
    assert all(partial == 0 for _, partial in seen)
    assert [n for n, _ in seen] == sorted(n for n, _ in seen)


def test_samples_with_html_in_names_are_stored_as_text(tmp_path, db):
    text = (SAMPLES / "us-clue-family.jsonl").read_text().replace('"Sam"', '"<script>alert(1)</script>"')
    (tmp_path / "x.jsonl").write_text(text)
    summary = pipeline.ingest_paths([str(tmp_path)], db, analyse=False, workers=1)
    assert summary.games_stored == 1
    with store.read_connection(db) as con:
        assert (
            con.execute("SELECT count(*) FROM players WHERE name = ?", ["<script>alert(1)</script>"]).fetchone()[0] == 1
        )


def _read_everything(fmt: str, text: str) -> None:
    """A reader hands back games and problems for any text; checking them never raises either."""
    result = formats.read_as(fmt, text, "fuzz")
    for raw in result.games:
        pipeline.check(raw)


@settings(max_examples=60 * FUZZ, deadline=None)
@given(st.sampled_from([n for n in formats.format_names() if n != formats.CLUE_LOG]), st.text(max_size=400))
def test_every_reader_survives_random_text(fmt, text):
    _read_everything(fmt, text)


@settings(max_examples=60 * FUZZ, deadline=None)
@given(st.data())
def test_every_reader_survives_its_own_fixtures_mutated(data):
    fixtures = sorted(p for p in (FIXTURES / "importers").rglob("*") if p.is_file()) + sorted(
        (FIXTURES / "notation").glob("*.clue")
    )
    path = data.draw(st.sampled_from(fixtures))
    text = path.read_text(encoding="utf-8", errors="replace")
    fmt = "notation" if path.suffix == ".clue" else formats.detect(path, text)
    if fmt is None:
        return
    lines = text.splitlines()
    if lines:
        i = data.draw(st.integers(0, len(lines) - 1))
        action = data.draw(st.sampled_from(["delete", "duplicate", "truncate", "garble"]))
        if action == "delete":
            del lines[i]
        elif action == "duplicate":
            lines.insert(i, lines[i])
        elif action == "truncate":
            lines[i] = lines[i][: data.draw(st.integers(0, max(0, len(lines[i]) - 1)))]
        else:
            lines[i] = data.draw(st.text(max_size=30))
    _read_everything(fmt, "\n".join(lines))
