"""Club nights (issue 24) on a club's database: the evening typed in the notation, a season of
hand-made games and a few simulated ones (tests/helpers.py club_db)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from clue_stats.cli import app
from clue_stats.dashboard.app_pages.tables import rows_html
from tests.helpers import CLUB_GAMES, CLUB_NIGHT, club_db

runner = CliRunner()


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return club_db(tmp_path_factory.mktemp("club"))


def test_rows_show_every_column_whole_and_stack_on_a_phone() -> None:
    """The phone-friendly table: key columns first, every cell present with its header beside it (the
    stacked rows under 640 px), links as links, names from logs as text."""
    frame = pl.DataFrame(
        {
            "replay": ["replay?game=g&seq=4"],
            "played_at": ["2026-11-20"],
            "player": ["<b>Katrin</b>"],
            "suggestion": ["Lady Gloria, Dolch, Küche"],
            "bits_lost": [1.2345],
            "accuracy": [0.5],
        }
    )
    html = rows_html(frame, first=("player", "suggestion"), links={"replay": "open replay"})
    headers = re.findall(r"<th(?: [^>]*)?>(.*?)</th>", html)
    assert headers == ["player", "suggestion", "replay", "played", "bits lost", "accuracy"]
    labels = re.findall(r'<td data-label="([^"]*)"', html)
    assert labels == headers  # each cell carries its header, shown beside it when rows stack
    assert '<td data-label="player" class="cs-key">&lt;b&gt;Katrin&lt;/b&gt;</td>' in html
    assert '<a href="replay?game=g&amp;seq=4" target="_self">open replay</a>' in html
    assert ">1.23</td>" in html and ">50.0%</td>" in html
    assert "@media (max-width: 640px)" in html and "content: attr(data-label)" in html


def test_the_night_lists_its_games_in_played_order(club: Path, tmp_path: Path) -> None:
    """The issue's case: the first two games of the night have a time, the third only the date; it
    was listed first ("Game 1"). Played order keeps it third, in the report and in the ratings."""
    result = runner.invoke(
        app, ["report", "--night", CLUB_NIGHT, "--db", str(club), "--out", str(tmp_path / "n.html"), "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == CLUB_GAMES
    result = runner.invoke(app, ["report", "--night", CLUB_NIGHT, "--db", str(club), "--out", "-", "--format", "md"])
    assert result.exit_code == 0, result.output
    sections = re.findall(r"^## Game (\d): (\S+)$", result.output, re.M)
    assert [(int(n), g.replace("\\", "")) for n, g in sections] == list(enumerate(CLUB_GAMES, 1))
