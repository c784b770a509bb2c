"""Club nights (issue 24) on a club's database: the evening typed in the notation, a season of
hand-made games and a few simulated ones (tests/helpers.py club_db)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from clue_stats import pipeline
from clue_stats.analysis import league
from clue_stats.cli import app
from clue_stats.dashboard import pages
from clue_stats.dashboard.app_pages.tables import rows_html
from clue_stats.ingest import store
from tests.helpers import CLUB_GAMES, CLUB_NIGHT, ROOT, SEASON, club_db, write_games

runner = CliRunner()
APP = ROOT / "dashboard" / "app.py"


def open_page(db: Path, monkeypatch: pytest.MonkeyPatch, slug: str, **query: str) -> AppTest:
    """The app on ``db`` at the registered page ``slug``, no error shown."""
    monkeypatch.setenv("CLUE_STATS_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    if slug != pages.DEFAULT.slug:
        at.switch_page(pages.page(slug).file).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def texts(at: AppTest) -> str:
    parts = [*at.markdown, *at.caption, *at.info, *at.warning, *at.subheader, *at.title, *at.get("html")]
    return "\n".join(str(p.value) for p in parts)


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


def test_a_league_from_the_first_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One rated game is a league: every player in a table, by rating, each provisional, with the games
    it needs until it settles and the rating in words."""
    db = tmp_path / "one.duckdb"
    pipeline.ingest_paths([str(write_games(tmp_path / "one.jsonl", SEASON[:1]))], db, analyse=False, workers=1)
    at = open_page(db, monkeypatch, "players")
    assert "No league yet" not in texts(at)
    table = at.dataframe[0].value
    with store.read_connection(db) as con:
        board = league.leaderboard(con, "people")
    assert list(table["player"]) == board["player"].to_list() == ["Alice", "Bob", "Carol", "Dave"]  # Alice won
    assert list(table["rating"]) == sorted(table["rating"], reverse=True)
    for row in board.iter_rows(named=True):
        assert row["skill"] == f"{row['mu']:.0f} ± {row['sigma']:.0f}"
        assert row["provisional"] and row["games_to_settle"] > 0
    assert list(table["settled"]) == [f"provisional: about {n} more games" for n in board["games_to_settle"]]
    assert list(table["skill"]) == board["skill"].to_list()


def test_games_to_settle_counts_down_to_a_settled_rating() -> None:
    assert league.games_to_settle(league.SETTLED_SIGMA, 2) == 0
    assert league.settle_words(0) == "settled" and league.settle_words(1) == "provisional: about 1 more game"
    new = league.games_to_settle(25 / 3 - 1e-9, 2)
    assert 5 <= new <= 20  # about a dozen games at tables of three
    wider = [league.games_to_settle(s, 2) for s in (8.2, 7.5, 7.0, 6.5, 6.1)]
    assert wider == sorted(wider, reverse=True) and wider[-1] >= 1
    # the count is the model's: that many games of the kind assumed bring the uncertainty down to it
    curve = league._settling(2)
    assert curve[new] <= league.SETTLED_SIGMA < curve[new - 1]
