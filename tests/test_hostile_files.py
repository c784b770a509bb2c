"""Hostile files (issue 27 items 5 and 7): lines and files past their limits, compressed files, other
encodings and line ends; each read, or named for what it is, at its line."""

from __future__ import annotations

import gzip
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from clue_stats import pipeline
from clue_stats.ingest import formats
from clue_stats.ingest.cluelog import MAX_LINE_BYTES
from clue_stats.ingest.raw import RawGame
from tests.helpers import ROOT, SAMPLES, raw_games

NOTATION = SAMPLES / "de-2023-anna-notebook.clue"
LOG = SAMPLES / "uk-2020-pub.jsonl"
SPEEDCLUE_PY = ROOT.parent / "shared" / "external" / "speedclue-pyport" / "pyport-3p-1.txt"


def _problems(path: Path) -> list[str]:
    summary = pipeline.validate_paths([str(path)], workers=1)
    return [str(p) for p in summary.problems]


def test_a_line_past_the_limit_in_the_notation_is_a_problem_of_its_line_read_in_bounded_memory(tmp_path):
    text = NOTATION.read_text(encoding="utf-8")
    path = tmp_path / "long.clue"
    lines = text.splitlines()
    at = len(lines) + 2  # after the game, a blank line and then the long line
    path.write_text(text + "\n" + "x" * (20 * MAX_LINE_BYTES) + "\n" + text, encoding="utf-8")
    tracemalloc.start()
    try:
        items = list(formats.iter_file(path) or [])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * MAX_LINE_BYTES + 4 * len(text.encode()), peak  # the 20 MiB line never held
    problems = [i for i in items if not isinstance(i, RawGame)]
    assert [(p.code, p.line) for p in problems] == [("line_too_long", at)]
    assert (
        str(problems[0])
        == f"{path}:{at}: line_too_long: line of {20 * MAX_LINE_BYTES + 1:,} bytes is longer than the limit of {MAX_LINE_BYTES:,}"
    )
    assert len([i for i in items if isinstance(i, RawGame)]) == 2  # the games on either side are read


@pytest.mark.slow  # tracemalloc follows every allocation: 3 to 5 s
@pytest.mark.parametrize(
    "source,name,fmt,copies,bound",
    [
        (NOTATION, "many.clue", formats.NOTATION, 400, 6),  # 0.4 MB, 400 games; it held 50 times the file
        (SPEEDCLUE_PY, "server.txt", "speedclue-py", 80, 6),  # 1 MB, 160 games; it held 14 times
    ],
)
def test_a_file_is_read_a_game_at_a_time_in_memory_near_its_size(tmp_path, source, name, fmt, copies, bound):
    """Ingest reads a notation file's games, and a SpeedClue server transcript's, one at a time:
    only the text and the game being read are held (issue 38), and the games are those `read` gives."""
    text = source.read_text(encoding="utf-8")
    path = tmp_path / name
    path.write_text(text * copies, encoding="utf-8")
    size = path.stat().st_size
    tracemalloc.start()
    try:
        games = 0
        for item in formats.iter_file(path) or []:
            assert isinstance(item, RawGame), item
            games += 1
            _, peak = tracemalloc.get_traced_memory()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert games == len(formats.read_as(fmt, text, str(path)).games) * copies
    assert peak < bound * size, peak / size
    [first, *_] = formats.iter_file(path) or []
    assert isinstance(first, RawGame)
    assert first.records == formats.read_as(fmt, text, str(path)).games[0].records


def test_a_file_of_one_huge_line_is_one_problem(tmp_path):
    path = tmp_path / "huge.clue"
    path.write_bytes(b"game classic players Anna Ben Cleo " + b"x" * (3 * MAX_LINE_BYTES))
    assert _problems(path) == [
        f"{path}:1: line_too_long: line of {3 * MAX_LINE_BYTES + 35:,} bytes is longer than the limit of {MAX_LINE_BYTES:,}"
    ]


def test_a_notation_file_past_the_size_limit_is_not_read_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(formats, "MAX_TEXT_BYTES", 1000)
    path = tmp_path / "big.clue"
    path.write_text(NOTATION.read_text(encoding="utf-8") * 3, encoding="utf-8")
    assert path.stat().st_size > 1000

    def refuse(*args, **kwargs):
        raise AssertionError("read whole")

    monkeypatch.setattr(formats, "read_bounded", refuse)
    [problem] = _problems(path)
    assert problem.startswith(f"{path}:1: file_too_large: the file is {path.stat().st_size:,} bytes; ")
    assert "up to 1,000 bytes" in problem


def test_gzip_and_zip_files_are_read(tmp_path):
    (tmp_path / "pub.jsonl.gz").write_bytes(gzip.compress(LOG.read_bytes()))
    (tmp_path / "anna.clue.gz").write_bytes(gzip.compress(NOTATION.read_bytes()))
    with zipfile.ZipFile(tmp_path / "night.zip", "w") as archive:
        archive.write(LOG, "logs/pub.jsonl")
        archive.write(NOTATION, "anna.clue")
        archive.writestr("readme.md", "not a game")
    summary = pipeline.validate_paths([str(tmp_path)], workers=1)
    expected = 2 * (len(raw_games(LOG)) + len(raw_games(NOTATION)))
    assert (summary.files_read, summary.games_valid, summary.problems) == (3, expected, [])


def test_a_compressed_file_under_a_text_name_is_named_for_what_it_is(tmp_path):
    (tmp_path / "pub.jsonl").write_bytes(gzip.compress(LOG.read_bytes()))
    (tmp_path / "anna.clue").write_bytes(gzip.compress(NOTATION.read_bytes()))
    problems = _problems(tmp_path)
    assert problems == [
        f"{tmp_path}/anna.clue:1: encoding: a gzip-compressed file, not text: name it .jsonl.gz or .clue.gz to have it read, or gunzip it",
        f"{tmp_path}/pub.jsonl:1: encoding: a gzip-compressed file, not text: name it .jsonl.gz or .clue.gz to have it read, or gunzip it",
    ]


@pytest.mark.parametrize("source", [LOG, NOTATION], ids=["clue-log", "notation"])
def test_utf16_with_its_byte_order_mark_is_read(tmp_path, source):
    path = tmp_path / f"u16{source.suffix}"
    path.write_text(source.read_text(encoding="utf-8"), encoding="utf-16")
    assert path.read_bytes()[:2] in (b"\xff\xfe", b"\xfe\xff")
    summary = pipeline.validate_paths([str(path)], workers=1)
    assert (summary.games_valid, summary.problems) == (len(raw_games(source)), [])


def test_latin1_and_utf16_without_a_mark_are_named(tmp_path):
    text = NOTATION.read_text(encoding="utf-8")
    (tmp_path / "latin1.clue").write_bytes(text.encode("latin-1"))
    (tmp_path / "u16le.jsonl").write_bytes(LOG.read_text(encoding="utf-8").encode("utf-16-le"))
    problems = _problems(tmp_path)
    line = text.encode("latin-1")[: text.index("ö")].count(b"\n") + 1
    byte = len(text[: text.index("ö")].encode("latin-1")) + 1
    assert problems[0] == (
        f"{tmp_path}/latin1.clue:{line}: encoding: not UTF-8 (byte {byte} of the file, 0xF6, which is 'ö' in "
        "Latin-1 / Windows-1252: save the file as UTF-8)"
    )
    assert problems[1] == (
        f"{tmp_path}/u16le.jsonl:1: encoding: UTF-16 without a byte order mark, it seems (every other byte is 0): "
        "save it as UTF-8"
    )


def test_lines_ended_by_cr_alone_are_read_in_the_notation_and_named_in_clue_log(tmp_path):
    (tmp_path / "mac.clue").write_bytes(NOTATION.read_bytes().replace(b"\n", b"\r"))
    (tmp_path / "mac.jsonl").write_bytes(LOG.read_bytes().replace(b"\n", b"\r"))
    summary = pipeline.validate_paths([str(tmp_path)], workers=1)
    assert summary.games_valid == len(raw_games(NOTATION))
    assert [p.code for p in summary.problems if p.is_error][-1] == "bad_json"
    assert any(
        "the file's lines end in CR alone, as on old Macs: save it with LF line ends" in p.message
        for p in summary.problems
    )


def test_convert_from_a_named_format_reports_a_long_line_at_its_line(tmp_path):
    from typer.testing import CliRunner

    from clue_stats.cli import app

    text = NOTATION.read_text(encoding="utf-8")
    path = tmp_path / "anna.txt"  # not a name ingest reads: the format is named
    path.write_text(text + "\n" + "x" * (2 * MAX_LINE_BYTES) + "\n", encoding="utf-8")
    at = len(text.splitlines()) + 2
    result = CliRunner().invoke(app, ["convert", str(path), "--from", "notation"])
    assert f"{path}:{at}: line_too_long: " in result.stderr
    assert result.stdout.count('"type":"game"') + result.stdout.count('"type": "game"') == len(raw_games(NOTATION))
