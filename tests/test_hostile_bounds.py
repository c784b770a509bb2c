"""Hostile input, round three (issue 38): bounds checked before the damage, and one bad file, line or
game a problem of its own while the run goes on (exit 3, the rest stored)."""

from __future__ import annotations

import dataclasses
import gzip
import io
import json
import struct
import tracemalloc
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clue_stats import pipeline
from clue_stats.cli import app
from clue_stats.ingest import cluelog, formats
from clue_stats.ingest.importers import llm_transcript, speedclue_py
from clue_stats.ingest.raw import RawGame
from tests.helpers import SAMPLES

runner = CliRunner()
NOTATION = SAMPLES / "de-2023-anna-notebook.clue"
NIGHT = SAMPLES / "classic-club-night.jsonl"  # two games
PUB = SAMPLES / "uk-2020-pub.jsonl"  # two games
EXTERNAL = Path("/work/shared/external")
SPEEDCLUE_PY = EXTERNAL / "speedclue-pyport" / "pyport-3p-1.txt"
LLM = EXTERNAL / "llm-crewai" / "sample_game_output.txt"


def _validate(*paths: Path) -> pipeline.Summary:
    return pipeline.validate_paths([str(p) for p in paths], workers=1)


def _codes(summary: pipeline.Summary) -> list[str]:
    return [p.code for p in summary.problems]


def _peak(fn):
    tracemalloc.start()
    try:
        result = fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak


# -- 1. bounds before the damage


@pytest.mark.parametrize("name", ["bomb.clue.gz", "bomb.txt.gz"])
def test_a_gzip_bomb_is_stopped_at_the_limit_while_it_inflates(tmp_path, monkeypatch, name):
    monkeypatch.setattr(formats, "MAX_TEXT_BYTES", 256 << 10)
    path = tmp_path / name
    path.write_bytes(gzip.compress(b"a b\n" * (4 << 20), compresslevel=1))  # 16 MiB of short lines
    items, peak = _peak(lambda: formats.read_file(path))
    assert peak < 4 << 20, peak  # never the 16 MiB, nor a list of its 4 million lines
    if name.endswith(".clue.gz"):
        [problem] = list(items)
        assert problem.code == "file_too_large"
        assert "or more (counted as it was read: the rest was not read)" in problem.message
    else:  # a file of another client's format: skipped, and said why
        assert isinstance(items, formats.FileSkipped)
        assert items.problem is not None and items.problem.code == "file_skipped"
        assert "262,144 bytes a file of other clients' formats may hold" in items.problem.message


def test_a_zip_member_past_the_limit_is_stopped_while_it_inflates(tmp_path, monkeypatch):
    monkeypatch.setattr(formats, "MAX_TEXT_BYTES", 256 << 10)
    path = tmp_path / "night.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("big.clue", b"\n" * (16 << 20))
        archive.write(PUB, "pub.jsonl")
    # the member's size in the archive is believed no more than its bytes: the header lies here
    items, peak = _peak(lambda: list(formats.read_file(path)))  # type: ignore[arg-type]
    assert peak < 4 << 20, peak
    problems = [i for i in items if not isinstance(i, RawGame)]
    assert [(p.code, p.source_file) for p in problems] == [("file_too_large", f"{path}/big.clue")]
    assert len([i for i in items if isinstance(i, RawGame)]) == 2


def test_blank_lines_cost_no_object_each(tmp_path):
    """A .clue of blank lines and a .jsonl.gz of them: passed over a block at a time."""
    clue = tmp_path / "blank.clue"
    clue.write_bytes(b"\n" * (4 << 20) + NOTATION.read_bytes())
    items, peak = _peak(lambda: list(formats.read_file(clue)))  # type: ignore[arg-type]
    assert peak < 24 << 20, peak  # the file's 4 MiB and its text, not 4 million lines' objects
    [game] = items
    assert isinstance(game, RawGame) and game.first_line is not None and game.first_line > 4 << 20
    log = tmp_path / "blank.jsonl.gz"
    log.write_bytes(gzip.compress(b"\n" * (8 << 20) + PUB.read_bytes(), compresslevel=1))
    items, peak = _peak(lambda: list(formats.read_file(log)))  # type: ignore[arg-type]
    assert peak < 4 << 20, peak
    assert [i.lines[0] for i in items] == [(8 << 20) + 1, (8 << 20) + 34]  # the line numbers still the file's


def test_read_lines_gives_the_lines_of_any_stream_in_pieces():
    """The buffered reader: lines split across its blocks, a long line skipped, the last line without
    its end, and runs of blank lines as one item."""
    long = b"y" * (cluelog.MAX_LINE_BYTES + 5)
    data = b"a\n" + b"x" * (cluelog.READ_BLOCK + 7) + b"\n \r\n\n" + long + b"\nlast"
    lines = list(cluelog.read_lines(io.BytesIO(data), skip_blank=True))
    assert [(n, d if d is None or len(d) < 20 else len(d), s) for n, d, s in lines] == [
        (1, b"a\n", 2),
        (2, cluelog.READ_BLOCK + 8, cluelog.READ_BLOCK + 8),
        (4, b"", 4),  # lines 3 and 4, blank
        (5, None, len(long) + 1),
        (6, b"last", 4),
    ]
    assert [n for n, _, _ in cluelog.read_lines(io.BytesIO(data))] == [1, 2, 3, 4, 5, 6]


def test_a_speedclue_reset_of_400_million_players_is_refused_before_a_seat_is_made():
    text = SPEEDCLUE_PY.read_text().replace("reset 3 0 Bi", "reset 400000000 0 Bi", 1)
    result, peak = _peak(lambda: speedclue_py.read(text, "pyport.txt"))
    assert peak < 16 << 20, peak  # never a list of 400 million seats (3.2 GB)
    messages = [str(p) for g in result.games for p in g.problems]
    assert any("told of a game of 400,000,000 players: the contest's server seats 2 to 6" in m for m in messages)


# -- 2. one bad file, line or game is its own problem; the run goes on


def _zip_with_a_bad_member(path: Path, how: str) -> None:
    """A zip of two good clue-log/1 members and one broken as ``how`` says, written byte by byte."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        archive.write(PUB, "a.jsonl")
        archive.write(NIGHT, "bad.jsonl")
        archive.write(SAMPLES / "us-clue-family.jsonl", "c.jsonl")
    data = bytearray(path.read_bytes())
    # the central directory's entry of bad.jsonl, and its local header
    entry = next(i for i in _all(data, b"PK\x01\x02") if data[i + 46 : i + 46 + 9] == b"bad.jsonl")
    local = struct.unpack_from("<I", data, entry + 42)[0]
    if how == "checksum":
        start = local + 30 + 9 + 40
        data[start] ^= 0x20  # a byte of the content changed: its CRC-32 no longer matches
    elif how == "size":
        size = struct.unpack_from("<I", data, entry + 24)[0]
        struct.pack_into("<I", data, entry + 24, size + 1000)  # the uncompressed size the directory gives
        struct.pack_into("<I", data, entry + 20, size + 1000)
    elif how == "method":
        struct.pack_into("<H", data, entry + 10, 98)  # PPMd: a method zipfile cannot inflate
        struct.pack_into("<H", data, local + 8, 98)
    elif how == "encrypted":
        for at in (entry + 8, local + 6):
            struct.pack_into("<H", data, at, struct.unpack_from("<H", data, at)[0] | 1)
    path.write_bytes(bytes(data))


def _all(data: bytearray, needle: bytes) -> list[int]:
    found, at = [], data.find(needle)
    while at >= 0:
        found.append(at)
        at = data.find(needle, at + 1)
    return found


@pytest.mark.parametrize("how", ["checksum", "size", "method", "encrypted"])
def test_a_broken_zip_member_is_its_own_problem_and_the_others_are_stored(tmp_path, db, how):
    path = tmp_path / "night.zip"
    _zip_with_a_bad_member(path, how)
    result = runner.invoke(app, ["ingest", str(path), "--db", str(db), "--no-analyse", "--json"])
    assert result.exit_code == 3, result.output
    assert "internal error" not in result.output
    summary = json.loads(result.stdout)
    assert summary["games_stored"] >= 3  # a.jsonl's two and c.jsonl's one (and bad.jsonl's games before the break)
    bad = [p for p in summary["problems"] if p["file"] == f"{path}/bad.jsonl"]
    assert bad and bad[-1]["code"] == "unreadable", bad
    assert "cannot be read" in bad[-1]["message"]


def test_a_utf16_log_with_a_lone_surrogate_is_a_problem_of_its_line(tmp_path, db):
    encoded = bytearray(PUB.read_text(encoding="utf-8").encode("utf-16"))  # with its byte order mark
    at = encoded.index('"Tom","cards":["plum","dining_room"'.encode("utf-16-le")) + 2  # line 36, the second game's
    encoded[at : at + 2] = b"\x00\xd8"  # half of a surrogate pair
    path = tmp_path / "pub.jsonl"
    path.write_bytes(bytes(encoded))
    summary = pipeline.ingest_paths([str(path)], db, analyse=False, workers=1)
    assert summary.exit_code == 3 and summary.games_stored == 1
    [problem] = [p for p in summary.problems if p.code == "encoding"]
    assert problem.line == 36
    assert problem.message == "half of a UTF-16 surrogate pair (a character cut in two) at byte 26 of the line"


def test_a_utf16_log_with_a_stray_last_byte_is_a_problem(tmp_path):
    path = tmp_path / "pub.jsonl"
    path.write_bytes(PUB.read_text(encoding="utf-8").encode("utf-16") + b"\n")
    summary = _validate(path)
    assert summary.games_valid == 2
    [problem] = summary.problems
    assert problem.code == "encoding" and "odd number of bytes" in problem.message


@pytest.mark.parametrize(
    "change, message",
    [
        (("reset 3 0 Bi", "reset \u00b3 0 Bi"), "the player count of 'reset' is not a number: '³'"),
        (("|round 1, active_id 1", "|round 1, active_id " + "9" * 5000), "is not a seat of this game"),
        (("|round 1, active_id 1", "|round " + "9" * 5000 + ", active_id 1"), None),
    ],
)
def test_a_speedclue_line_that_python_would_choke_on_is_a_problem_of_its_line(tmp_path, change, message):
    path = tmp_path / "pyport.txt"
    path.write_text(SPEEDCLUE_PY.read_text().replace(*change, 1))
    summary = _validate(path, SPEEDCLUE_PY)
    assert "internal_error" not in _codes(summary)
    if message is not None:
        assert summary.exit_code == 3
        assert any(message in p.message for p in summary.problems), [str(p) for p in summary.problems]
    assert summary.games_valid >= 1  # the untouched transcript


def test_a_speedclue_target_that_is_no_list_of_cards_is_a_problem_of_its_line():
    text = SPEEDCLUE_PY.read_text() + "\nplayer#2-ai01.py lose. target: [{[]: 1}]\n"
    result = speedclue_py.read(text, "pyport.txt")
    messages = [p.message for g in result.games for p in g.problems]
    assert "the target of player#2-ai01.py's loss is not a list of cards: '[{[]: 1}]'" in messages


def test_an_llm_hand_that_is_no_list_of_cards_and_a_huge_status_count_are_problems(tmp_path):
    text = LLM.read_text()
    path = tmp_path / "cards.txt"
    path.write_text(text.replace("Cards: ['Mr. Green', 'Ballroom', 'Kitchen']", "Cards: [{[]: 1}, 'Ballroom']", 1))
    status = tmp_path / "status.txt"
    status.write_text(text.replace("STATUS: 5 suspects", "STATUS: " + "9" * 5000 + " suspects", 1))
    summary = _validate(path, status)
    assert summary.exit_code == 3 and "internal_error" not in _codes(summary)
    assert any(p.message.startswith("a hand is not a list of cards: ") for p in summary.problems)
    game = llm_transcript._Game(llm_transcript.edition("us-classic").deck, "status.txt")
    game.summarising = "White"
    game.in_summary = True
    match = llm_transcript.TEMPLATES[[k for k, _ in llm_transcript.TEMPLATES].index("status")][1].match(
        "STATUS: " + "9" * 5000 + " suspects, 6 weapons, 7 rooms remaining"
    )
    game.on_status(match, 7)
    assert [p.code for p in game.problems] == ["import_dropped"]
    assert game.records[0]["remaining"] == {"weapons": 6, "rooms": 7}


def test_an_unknown_card_in_an_agents_status_is_a_warning_not_a_rejection():
    game = llm_transcript._Game(llm_transcript.edition("us-classic").deck, "status.txt")
    game.summarising, game.in_summary = "White", True
    pattern = dict(llm_transcript.TEMPLATES)["status"]
    game.on_status(pattern.match("STATUS: 2 suspects (Mr. Green, Mr. Nobody), 6 weapons, 7 rooms remaining"), 9)
    assert [p.code for p in game.problems] == ["import_dropped"]
    assert "Mr. Nobody" in game.problems[0].message
    assert game.records[0]["remaining"] == {"weapons": 6, "rooms": 7}


def test_a_reader_that_fails_on_one_file_leaves_the_others_stored(tmp_path, db, monkeypatch):
    """Whatever a reader raises on one file is that file's problem (internal_error), exit 3."""
    bad = tmp_path / "a.txt"
    bad.write_text(SPEEDCLUE_PY.read_text())
    (tmp_path / "b.jsonl").write_text(PUB.read_text())

    def broken(text, source_file=None):
        raise OverflowError("int too large to convert")

    registry = dict(formats.registry())
    registry["speedclue-py"] = dataclasses.replace(registry["speedclue-py"], read=broken, items=broken)
    monkeypatch.setattr(formats, "registry", lambda: registry)
    summary = pipeline.ingest_paths([str(tmp_path)], db, analyse=False, workers=1)
    assert summary.exit_code == 3 and summary.games_stored == 2
    [problem] = summary.problems
    assert problem.code == "internal_error" and problem.source_file == str(bad)
    assert "OverflowError: int too large to convert" in problem.message


def test_a_check_that_fails_on_one_game_rejects_that_game_only(tmp_path, db, monkeypatch):
    path = tmp_path / "pub.jsonl"
    path.write_text(PUB.read_text())
    real = pipeline._check
    calls = []

    def failing(raw, *args):
        calls.append(raw)
        if len(calls) == 1:
            raise OverflowError("cannot fit 'int' into an index-sized integer")
        return real(raw, *args)

    monkeypatch.setattr(pipeline, "_check", failing)
    summary = pipeline.ingest_paths([str(path)], db, analyse=False, workers=1)
    assert summary.exit_code == 3 and summary.games_stored == 1 and summary.games_rejected == 1
    assert [p.code for p in summary.problems] == ["internal_error"]


# -- 7. skipped files say why


def test_a_zip_without_its_central_directory_is_skipped_and_said(tmp_path):
    path = tmp_path / "cut.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.write(PUB, "pub.jsonl")
    data = path.read_bytes()
    path.write_bytes(data[: data.index(b"PK\x01\x02")])  # the central directory cut off
    summary = _validate(path)
    assert summary.files_skipped == 1 and summary.exit_code == 0
    [problem] = summary.problems
    assert problem.code == "file_skipped" and problem.source_file == str(path)
    assert problem.message.startswith("not read: not a zip archive that can be read (")


def test_a_zip_inside_a_zip_is_skipped_and_said(tmp_path):
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as archive:
        archive.write(PUB, "pub.jsonl")
    path = tmp_path / "outer.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("inner.zip", inner.getvalue())
        archive.writestr("more.jsonl.gz", gzip.compress(PUB.read_bytes()))
        archive.write(NIGHT, "night.jsonl")
    summary = _validate(path)
    assert summary.games_valid == 2
    assert [(p.code, p.source_file) for p in summary.problems] == [
        ("file_skipped", f"{path}/inner.zip"),
        ("file_skipped", f"{path}/more.jsonl.gz"),
    ]
    assert "inside a zip archive (unpack it to have it read)" in summary.problems[0].message


def test_a_custom_deck_of_500_500_500_cards_is_checked_and_analysed_not_overflowed(tmp_path):
    """A 12 KB file: 125 million solutions, counts past a float's range. The consistency is counted
    by envelope groups (no dict of every solution), the entropy divides as integers first, and the
    run stores the game (before: OverflowError, 'internal error', exit 1)."""
    deck = {c: [f"{c[0].upper()}{i}" for i in range(500)] for c in ("suspects", "weapons", "rooms")}
    records = [
        {"type": "game", "format": "clue-log/1", "id": "big", "edition": "custom", "deck": deck,
         "players": [{"name": "A"}, {"name": "B"}, {"name": "C"}]},
        {"type": "suggest", "player": "A", "suspect": "S1", "weapon": "W1", "room": "R1",
         "responses": [{"player": "B", "shows": None}, {"player": "C", "shows": "?"}]},
    ]  # fmt: skip
    path = tmp_path / "big.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert path.stat().st_size < 13_000
    [raw] = [i for i in formats.read_file(path) if isinstance(i, RawGame)]  # type: ignore[union-attr]
    outcome = pipeline.check(raw, analyse=True)
    assert outcome.rows is not None, [str(p) for p in outcome.problems]
    assert {p.code for p in outcome.problems} <= {"no_end", "no_deals", "over_budget"}
    # the dict of its 125 million solutions is weighed against the memory budget before it is made
    from clue_stats.engine import budget, counting
    from clue_stats.engine.knowledge import initial_knowledge
    from clue_stats.ingest.cluelog import build_game

    game, _ = build_game(raw)
    assert game is not None
    knowledge = initial_knowledge(game)
    counting.clear_caches()
    with budget.limited(budget.Limits(memory_mb=64)), pytest.raises(budget.BudgetExceeded) as stopped:
        counting.solution_counts_by_index(knowledge)
    assert stopped.value.reason == "memory"
    assert "it was about to hold" in str(stopped.value)
    assert counting.total_count(knowledge) > 10**308  # counted all the same, past any float
