from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import SAMPLES

# the suite reads English unless a test chooses a language (on a machine whose locale is German too)
os.environ["CLUE_STATS_LANG"] = "en"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Property tests (Hypothesis' @given, many examples each) belong to the slow tier: `make test`
    runs them, `make test-fast` (-m "not slow") leaves them out. The other slow tests say so with
    @pytest.mark.slow (or a file's pytestmark): every test of about a second or more (the browser, the
    Dask cluster, pages through AppTest, real processes, leagues, the long reference comparisons),
    so that the fast tier runs in under a minute (docs/performance.md)."""
    for item in items:
        if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            item.add_marker(pytest.mark.slow)


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
def _language_chosen_again() -> Iterator[None]:
    """A language a test chose (an AppTest run in this thread, a CLI run with --lang) ends with it."""
    from clue_stats.analysis import words

    words.set_language(None)
    yield
    words.set_language(None)


@pytest.fixture(autouse=True)
def _no_env_db(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLUE_STATS_DB", raising=False)
