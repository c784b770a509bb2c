from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import SAMPLES


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "test.duckdb"


@pytest.fixture
def samples(tmp_path: Path) -> Path:
    """A private copy of the sample folder (tests may add files to it)."""
    target = tmp_path / "samples"
    shutil.copytree(SAMPLES, target)
    return target


@pytest.fixture(autouse=True)
def _no_env_db(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLUE_STATS_DB", raising=False)
