"""The order of a night's games: `clue-stats night DATE GAME ...` and the night page record the order a
club played them in; the night, its report, the league's played order and the ratings follow it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clue_stats import pipeline
from clue_stats.analysis.corpus import league
from clue_stats.cli import app
from clue_stats.ingest import store
from tests.helpers import LATE_GAME, SEASON, open_app, write_games

pytestmark = pytest.mark.slow  # about a second or more a test: make test-fast leaves them out

runner = CliRunner()
NIGHT = "2026-09-04"  # s01 at 20:00, s02 at 21:30, late-waiter after midnight


@pytest.fixture
def season_db(tmp_path: Path) -> Path:
    late = tmp_path / "late.jsonl"
    late.write_text("".join(json.dumps(r) + "\n" for r in LATE_GAME), encoding="utf-8")
    db = tmp_path / "season.duckdb"
    pipeline.ingest_paths([str(write_games(tmp_path / "season.jsonl", SEASON)), str(late)], db, analyse=False)
    return db


def night(db: Path, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["night", "--db", str(db), *args])
    return result.exit_code, result.output


def order_of(db: Path) -> list[str]:
    code, text = night(db, NIGHT, "--json")
    assert code == 0, text
    return [g["game_id"] for g in json.loads(text)["games"]]


def rated_order(db: Path) -> list[str]:
    with store.read_connection(db) as con:
        rows = con.rows("SELECT DISTINCT game_index, game_id FROM ratings WHERE pool = 'people' ORDER BY game_index")
        return [game_id for _, game_id in rows]


def board(db: Path) -> list[tuple[str, float]]:
    with store.read_connection(db) as con:
        return [(r["player"], round(r["rating"], 9)) for r in league.leaderboard(con, "people").to_dicts()]


def test_a_club_orders_its_night_and_everything_follows(season_db: Path, tmp_path: Path) -> None:
    assert order_of(season_db) == ["s01", "s02", "late-waiter"]  # by their times
    before = board(season_db)
    code, text = night(season_db, NIGHT, "late-waiter", "s02")
    assert code == 0, text
    assert "in the order the club gave" in text
    # the games named first, the one not named after them
    assert order_of(season_db) == ["late-waiter", "s02", "s01"]
    # the night's report lists them so
    out = tmp_path / "night.html"
    result = runner.invoke(app, ["report", "--night", NIGHT, "--db", str(season_db), "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == ["late-waiter", "s02", "s01"]
    # the league rates them in that order: the night's games first among the season's, in the club's order
    assert rated_order(season_db)[:4] == ["late-waiter", "s02", "s01", "s03"]
    after = board(season_db)
    assert after != before  # s01 and s02 have the same four players: their order changes the ratings
    # the ratings computed again equal a computation from scratch in the new order
    scratch = tmp_path / "scratch.duckdb"
    shutil.copy(season_db, scratch)
    with store.write_connection(scratch) as con, con.atomic():
        con.execute("DELETE FROM ratings")
        pipeline.update_ratings(con, from_scratch=True)
    assert board(scratch) == after
    # and back to the games' times
    code, text = night(season_db, "--clear", NIGHT)
    assert code == 0, text
    assert order_of(season_db) == ["s01", "s02", "late-waiter"]
    assert board(season_db) == before


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["s01", "late-waitr"], "no stored game has the id 'late-waitr' (did you mean 'late-waiter'?)"),
        (["s03"], "game 's03' was played on the night of 2026-09-11; the night of 2026-09-04 holds"),
        (["s02", "s02"], "'s02': named twice"),
        (["--clear", "s01"], "give the games' order or --clear, not both"),
    ],
)
def test_an_order_that_cannot_be_is_refused_and_nothing_changes(season_db: Path, args: list[str], said: str) -> None:
    code, text = night(season_db, NIGHT, *args)
    assert code == 2, text
    assert said in " ".join(text.split()), text
    assert order_of(season_db) == ["s01", "s02", "late-waiter"]


def test_a_night_without_games_or_a_wrong_date_is_said(season_db: Path) -> None:
    code, text = night(season_db, "2026-09-05")
    assert code == 2 and "no stored game was played on the night of 2026-09-05" in text
    code, text = night(season_db, "2026-13-01", "s01")
    assert code == 2 and "not a date: '2026-13-01'" in text


def test_the_night_page_moves_a_game_up(season_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_app(season_db, monkeypatch, "night", night=NIGHT)
    assert not at.exception
    assert at.selectbox(key="night_choice").value == NIGHT
    at.button(key="night_up_2").click().run()  # "Move game 3 up": late-waiter before s02
    assert not at.exception, [e.value for e in at.exception]
    assert order_of(season_db) == ["s01", "late-waiter", "s02"]
    games = next(h.value for h in at.get("html") if 'data-label="game"' in h.value)
    assert games.index("late-waiter") < games.index("s02")  # the page shows the new order
    at.button(key="night_order_clear").click().run()
    assert order_of(season_db) == ["s01", "s02", "late-waiter"]
