"""Every reader and importer, fed random bytes and mutated real files, answers with games and problems,
never an exception (issue 38): the files are read as ingest reads them (by name: each format's
extensions, also gzip-compressed and in a zip archive), and every game read is checked. A fault the
readers did not foresee would be caught by the pipeline's safety net as an `internal_error`: these
tests ask for none of those either."""

from __future__ import annotations

import gzip
import io
import os
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clue_stats import pipeline
from clue_stats.ingest import formats
from clue_stats.ingest.raw import RawGame
from tests.helpers import SAMPLES

pytestmark = pytest.mark.slow  # hundreds of examples: make test-fast leaves them out

FUZZ = max(1, int(os.environ.get("CLUE_STATS_FUZZ", "1")))
EXTERNAL = Path("/work/shared/external")
# the real files, read where they are: the samples and the other clients' records the project has
REAL = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".jsonl", ".clue")) + sorted(
    p for p in EXTERNAL.glob("*/*") if p.is_file() and p.name not in ("SOURCE.txt", "LICENSE")
)
# every extension a reader is offered files of (ingest.formats.registry, the importers included)
EXTENSIONS = sorted(formats.known_extensions())
SETTINGS = settings(
    max_examples=40 * FUZZ,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _read_everything(path: Path) -> list[RawGame | object]:
    """What ingest makes of a file: its items, each game checked. Nothing raises, and nothing is a
    fault of clue-stats (internal_error)."""
    found = formats.read_file(path)
    items = [] if isinstance(found, formats.FileSkipped) else list(found)
    problems = [] if not isinstance(found, formats.FileSkipped) or found.problem is None else [found.problem]
    for item in items:
        if isinstance(item, RawGame):
            outcome = pipeline.check(item, analyse=False)
            assert (outcome.rows is None) == (outcome.rejection is not None)
            problems.extend(outcome.problems)
        else:
            problems.append(item)
    assert not [str(p) for p in problems if p.code == "internal_error"]
    return items


def _mutated(data: bytes, draw) -> bytes:
    """A real file changed as files go wrong: cut short, a piece lost, doubled or overwritten with
    noise, a huge number or a deep nesting put in, a byte flipped."""
    if not data:
        return data
    at = draw(st.integers(0, len(data) - 1))
    end = draw(st.integers(at, min(len(data), at + 200)))
    action = draw(st.sampled_from(["truncate", "delete", "duplicate", "noise", "digits", "nesting", "flip", "blank"]))
    if action == "truncate":
        return data[:at]
    if action == "delete":
        return data[:at] + data[end:]
    if action == "duplicate":
        return data[:end] + data[at:end] + data[end:]
    if action == "noise":
        return data[:at] + draw(st.binary(min_size=1, max_size=40)) + data[end:]
    if action == "digits":
        return data[:at] + b"9" * draw(st.sampled_from([12, 4301, 5000])) + data[at:]
    if action == "nesting":
        return data[:at] + b"[" * 2000 + b"{[]: 1}" + b"]" * 2000 + data[at:]
    if action == "blank":
        return data[:at] + b"\n" * draw(st.integers(1, 5000)) + data[at:]
    flipped = bytearray(data)
    flipped[at] ^= 1 << draw(st.integers(0, 7))
    return bytes(flipped)


def _packed(name: str, data: bytes, how: str, folder: Path) -> Path:
    """The bytes as a file of that name: as they are, gzip-compressed, or in a zip archive."""
    if how == "gzip":
        path = folder / f"{name}.gz"
        path.write_bytes(gzip.compress(data, compresslevel=1))
    elif how == "zip":
        path = folder / "archive.zip"
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(name, data)
        path.write_bytes(buffer.getvalue())
    else:
        path = folder / name
        path.write_bytes(data)
    return path


@SETTINGS
@given(st.sampled_from(EXTENSIONS), st.binary(max_size=3000), st.sampled_from(["plain", "gzip", "zip"]))
def test_random_bytes_under_every_extension_are_problems_never_exceptions(tmp_path_factory, extension, data, how):
    folder = tmp_path_factory.mktemp("random")
    _read_everything(_packed(f"fuzz{extension}", data, how, folder))


@SETTINGS
@given(st.sampled_from(REAL), st.data(), st.sampled_from(["plain", "plain", "gzip", "zip"]))
def test_real_files_mutated_are_problems_never_exceptions(tmp_path_factory, real, data, how):
    mutated = _mutated(real.read_bytes(), data.draw)
    folder = tmp_path_factory.mktemp("mutated")
    _read_everything(_packed(real.name, mutated, how, folder))


@SETTINGS
@given(st.sampled_from(REAL), st.data())
def test_real_files_mutated_in_utf16_are_problems_never_exceptions(tmp_path_factory, real, data):
    encoded = real.read_text(encoding="utf-8").encode("utf-16")
    at = data.draw(st.integers(0, len(encoded)))
    change = data.draw(st.sampled_from([b"\x00\xd8", b"\x00\xdc", b"\x00", b"", b"\xff\xfe"]))
    folder = tmp_path_factory.mktemp("utf16")
    _read_everything(_packed(real.name, encoded[:at] + change + encoded[at:], "plain", folder))


@SETTINGS
@given(st.sampled_from(sorted(formats.format_names())), st.text(max_size=600))
def test_every_reader_of_the_registry_answers_any_text(fmt, text):
    """Each reader called as `convert --from` calls it: problems, never an exception."""
    result = formats.read_as(fmt, text, "fuzz")
    for raw in result.games:
        outcome = pipeline.check(raw)
        assert not [str(p) for p in outcome.problems if p.code == "internal_error"]


def test_the_real_files_are_there():
    """The property tests above read every format the project has a real file of."""
    assert len(REAL) >= 8
    assert {formats.detect(p, p.read_text(encoding="utf-8")) for p in REAL} >= {
        "clue-log",
        "notation",
        "speedclue-py",
        "llm-transcript",
    }
