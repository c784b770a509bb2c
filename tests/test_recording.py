"""The recording model (ingest/recording.py): a game recorded as it is played, one clue-log/1 file that
is valid after every accepted record, a rejected entry leaving it byte for byte, undo, resume, and a
kill at any moment leaving the last accepted state."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from clue_stats.ingest import cluelog, notation
from clue_stats.ingest.recording import (
    Recording,
    RecordingError,
    folder_for,
    header_from_notation,
    is_header_line,
    path_for,
)

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "data" / "samples" / "de-2023-anna-notebook.clue"


def sample_lines() -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(header lines, record lines) of the German sample, with their line numbers."""
    header, records = [], []
    for number, raw in enumerate(SAMPLE.read_text(encoding="utf-8").splitlines(), 1):
        if is_header_line(raw):
            header.append((number, raw))
        elif raw.strip() and not raw.lstrip().startswith("#"):
            records.append((number, raw))
    return header, records


def started(tmp_path: Path) -> tuple[Recording, list[tuple[int, str]]]:
    header_lines, record_lines = sample_lines()
    header, problems = header_from_notation(header_lines)
    assert header is not None, [str(p) for p in problems]
    recording, problems = Recording.start(tmp_path / "game.jsonl", header)
    assert recording is not None, [str(p) for p in problems]
    return recording, record_lines


def game_in(path: Path):
    result = cluelog.read_text(path.read_text(encoding="utf-8"))
    assert not result.problems and len(result.games) == 1
    game, problems = cluelog.build_game(result.games[0])
    assert game is not None, [str(p) for p in problems]
    return game


def test_every_accepted_record_is_on_disk_and_the_whole_game_is_the_file_read_directly(tmp_path):
    recording, record_lines = started(tmp_path)
    for k, (number, raw) in enumerate(record_lines, 1):
        outcome = recording.enter_line(raw, number)
        assert outcome.accepted, [str(p) for p in outcome.problems]
        assert len(game_in(recording.path).records) == k  # valid clue-log/1 after every record
    assert recording.finished
    (direct,) = notation.read(SAMPLE.read_text(encoding="utf-8"), str(SAMPLE)).games
    expected, _ = cluelog.build_game(direct)
    assert expected is not None
    assert cluelog.record_dicts(game_in(recording.path)) == cluelog.record_dicts(expected)
    assert game_in(recording.path).content_sha256 == expected.content_sha256


@pytest.mark.parametrize(
    ("line", "code", "words"),
    [
        ("Anna: Bloom Pisotle Musik / Ben Seil", "unknown_card", "did you mean 'Pistole'?"),
        ("Anna: Bloom Seil Musik / Cleo Seil", "response_order", "Ben sits between Anna and Cleo"),
        ("Anna: Bloom Seil Musik / Ben -", "missing_responses", "Cleo and Dirk must answer"),
        ("Ben: Bloom Seil Musik / Cleo Seil / Dirk ?", "after_shown", "Cleo already showed"),
        ("Ben: Bloom Billard Musik / Cleo Billard", "unknown_card", "is a room (Billardzimmer), not a weapon"),
        ("Ben: Bloom Seil Billard / Cleo Billard", "card_twice", "Billardzimmer"),
        ("edition de-2023", "bad_notation", "belongs to the header"),
        ("Zed: Bloom Seil Musik / Ben Seil", "unknown_player", "Zed"),
    ],
)
def test_a_rejected_entry_says_why_as_ingest_does_and_leaves_the_file_byte_for_byte(tmp_path, line, code, words):
    recording, record_lines = started(tmp_path)
    for number, raw in record_lines[:3]:
        assert recording.enter_line(raw, number).accepted
    before = recording.path.read_bytes()
    outcome = recording.enter_line(line, 40)
    assert not outcome.accepted
    assert code in {p.code for p in outcome.problems}, [str(p) for p in outcome.problems]
    assert words in " ".join(p.message for p in outcome.problems)
    assert all(p.line == 40 for p in outcome.problems)
    assert recording.path.read_bytes() == before
    assert recording.count == 3
    # the same line in a file is the same problem in ingest
    text = "\n".join(raw for _, raw in sample_lines()[0]) + "\n" + "\n".join(r for _, r in record_lines[:3])
    codes = {p.code for g in notation.read(text + "\n" + line + "\n").games for p in g.problems}
    assert code in codes or code == "card_twice" and "passed_holding" in codes or code == "bad_notation"


def test_the_rules_engine_rejects_what_the_notation_reads(tmp_path):
    recording, record_lines = started(tmp_path)
    for number, raw in record_lines:
        if raw.startswith("end"):
            break
        assert recording.enter_line(raw, number).accepted
    before = recording.path.read_bytes()
    outcome = recording.enter_line("end Anna: Grün Leuchter Halle", 90)  # Cleo was right: Porz did it
    assert not outcome.accepted and outcome.errors
    assert recording.path.read_bytes() == before


def test_a_record_from_the_page_is_checked_like_its_line(tmp_path):
    recording, record_lines = started(tmp_path)
    assert recording.enter_line(*reversed(record_lines[0])).accepted
    wrong = {
        "type": "suggest",
        "player": "Anna",
        "suspect": "plum",
        "weapon": "rope",
        "room": "lounge",
        "responses": [{"player": "Cleo", "shows": "rope"}],
    }
    before = recording.path.read_bytes()
    outcome = recording.enter(wrong)
    assert not outcome.accepted
    assert [p.code for p in outcome.problems] == ["response_order"]
    assert "Ben sits between Anna and Cleo" in outcome.problems[0].message
    assert recording.path.read_bytes() == before
    right = {**wrong, "responses": [{"player": "Ben", "shows": None}, {"player": "Cleo", "shows": "?"}]}
    outcome = recording.enter(right)
    assert outcome.accepted and outcome.line == "Anna: Professor Bloom Seil Salon / Ben - / Cleo ?"
    assert game_in(recording.path).records[-1].responses[1].shows == "?"


def test_undo_takes_back_the_last_record_as_often_as_asked(tmp_path):
    recording, record_lines = started(tmp_path)
    states = [recording.path.read_bytes()]
    for number, raw in record_lines[:4]:
        assert recording.enter_line(raw, number).accepted
        states.append(recording.path.read_bytes())
    for k in range(4, 0, -1):
        assert recording.undo() is not None
        assert recording.path.read_bytes() == states[k - 1]
    assert recording.undo() is None
    assert recording.path.read_bytes() == states[0]
    assert recording.enter_line(*reversed(record_lines[0])).accepted  # and on it goes
    assert recording.path.read_bytes() == states[1]


def test_an_unfinished_recording_is_resumed_from_its_file(tmp_path):
    recording, record_lines = started(tmp_path)
    for number, raw in record_lines[:6]:
        assert recording.enter_line(raw, number).accepted
    again = Recording.open(recording.path)
    assert again.count == 6 and not again.finished
    # the table's checks still know the earlier records: Ben showed the Seil on the first line
    outcome = again.enter_line("Cleo: Bloom Seil Musik / Dirk - / Anna - / Ben -", 50)
    assert not outcome.accepted and outcome.problems[0].code == "passed_holding"
    for number, raw in record_lines[6:]:
        assert again.enter_line(raw, number).accepted
    assert again.finished


def test_what_cannot_be_resumed_is_said(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "game"\n', encoding="utf-8")
    with pytest.raises(RecordingError, match="cannot be resumed"):
        Recording.open(bad)
    with pytest.raises(RecordingError, match="cannot read"):
        Recording.open(tmp_path / "missing.jsonl")
    recording, _ = started(tmp_path)
    with pytest.raises(RecordingError, match="exists already"):
        Recording.start(recording.path, recording.records[0])


def test_recording_ids_name_a_file_in_the_folder_beside_the_database(tmp_path):
    folder = folder_for(tmp_path / "club.duckdb")
    assert folder == tmp_path / "club.duckdb.recordings"
    assert path_for(folder, "a1b2c3") == folder / "a1b2c3.jsonl"
    for bad in ("../x", "a/b", "", "A B"):
        with pytest.raises(RecordingError):
            path_for(folder, bad)


CRASH_BETWEEN_WRITE_AND_RENAME = """
import os, signal, sys
from clue_stats.ingest.recording import Recording
recording = Recording.open(sys.argv[1])
def crash(src, dst):  # the new file is written and flushed; the process dies before the rename
    os.kill(os.getpid(), signal.SIGKILL)
os.replace = crash
recording.enter_line(sys.argv[2], 99)
"""


@pytest.mark.slow  # a Python process started per case
def test_a_crash_between_writing_and_renaming_leaves_the_last_accepted_state(tmp_path):
    recording, record_lines = started(tmp_path)
    for number, raw in record_lines[:3]:
        assert recording.enter_line(raw, number).accepted
    before = recording.path.read_bytes()
    done = subprocess.run(
        [sys.executable, "-c", CRASH_BETWEEN_WRITE_AND_RENAME, str(recording.path), record_lines[3][1]],
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert recording.path.read_bytes() == before
    assert Recording.open(recording.path).count == 3


RECORD_FOREVER = """
import sys
from clue_stats.ingest.recording import Recording
recording = Recording.open(sys.argv[1])
lines = sys.argv[2:]
print("ready", flush=True)
while True:
    for line in lines:
        recording.enter_line(line)
    while recording.undo() is not None:
        pass
"""


@pytest.mark.slow  # a Python process started per case
def test_a_kill_at_any_moment_leaves_a_state_that_was_accepted(tmp_path):
    recording, record_lines = started(tmp_path)
    lines = [raw for _, raw in record_lines[:8]]
    accepted = {recording.path.read_bytes()}
    for line in lines:
        recording.enter_line(line)
        accepted.add(recording.path.read_bytes())
    while recording.undo() is not None:
        pass
    for delay in (0.05, 0.13, 0.31, 0.47):
        child = subprocess.Popen(
            [sys.executable, "-c", RECORD_FOREVER, str(recording.path), *lines],
            stdout=subprocess.PIPE,
        )
        assert child.stdout is not None and child.stdout.readline() == b"ready\n"
        time.sleep(delay)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        child.stdout.close()
        assert recording.path.read_bytes() in accepted
        Recording.open(recording.path)  # and it resumes


def test_header_lines_with_a_mistake_say_where(tmp_path):
    header, problems = header_from_notation([(1, "edition de-2023"), (2, "players Anna, Ben, Anna")])
    assert header is None
    assert problems[0].code == "bad_players" and problems[0].line == 2
    assert "two players are called 'Anna'" in problems[0].message
    assert textwrap.dedent(problems[0].message).splitlines()[-1].strip().startswith("^")
