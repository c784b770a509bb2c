"""`clue-stats report --night`: the night's summary on a hand-made season, through the real CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clue_stats import pipeline
from clue_stats.cli import app
from clue_stats.ingest import store
from tests.helpers import LATE_GAME, SEASON, XSS, write_games

pytestmark = pytest.mark.slow  # about a second or more a test: make test-fast leaves them out

runner = CliRunner()


@pytest.fixture(scope="module")
def season_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("night")
    late = root / "late.jsonl"
    late.write_text("".join(json.dumps(r) + "\n" for r in LATE_GAME), encoding="utf-8")
    db = root / "season.duckdb"
    pipeline.ingest_paths([str(write_games(root / "season.jsonl", SEASON)), str(late)], db, analyse=True, workers=1)
    return db


def report(db: Path, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["report", *args, "--db", str(db), "--out", "-"])
    return result.exit_code, result.output


def test_a_night_holds_its_games_and_those_after_midnight(season_db: Path) -> None:
    code, text = report(season_db, "--night", "2026-09-04", "--format", "md")
    assert code == 0, text
    games = re.findall(r"^\| \d+ \| \[([^\]]+)\]\(#([^)]+)\)", text, re.M)
    assert [g for g, _ in games] == ["s01", "s02", "late-waiter"]
    for _, anchor in games:  # every game listed links to its own section below
        assert f'<a id="{anchor}"></a>' in text
    assert "| **Alice** |" in text and "| **Bob** |" in text and "| **Anna** |" in text
    assert "s03" not in text  # the next week's game


def test_the_night_names_its_moments_and_each_players_rating_change(season_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "night.html"
    result = runner.invoke(
        app, ["report", "--night", "2026-09-04", "--db", str(season_db), "--out", str(out), "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == ["s01", "s02", "late-waiter"]
    page = out.read_text(encoding="utf-8")
    # the longest wait: Anna, certain after record 8 (the file's line 9, her second turn, the game's
    # third), one own turn before accusing, linked to her game
    wait = re.search(r"Longest wait after certainty</b></td><td>(.*?)</td>", page).group(1)
    assert "Anna was certain after line 9 (turn 3) of" in wait and "waited 1 turn before accusing and won" in wait
    assert 'href="#game-late-waiter"' in wait and 'id="game-late-waiter"' in page
    assert "Best suggestion" in page  # the late game's suggestions are rated (both hands in the log)
    # each player's rating change is the ratings table's: after their last game minus before their first
    with store.read_connection(season_db) as con:
        alice = con.execute(
            "SELECT arg_min(rating_before, game_index), arg_max(rating_after, game_index) FROM ratings "
            "WHERE player = 'Alice' AND game_id IN ('s01', 's02')"
        ).fetchall()[0]
    row = re.search(r"<tr><td[^>]*>Alice</td>(.*?)</tr>", page).group(1)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
    assert cells[0:2] == ["2", "1"]  # games, wins
    assert cells[4] == f"{alice[0]:.1f}" and cells[5].startswith(f"{alice[1]:.1f} (± ")
    assert cells[6] == f"{alice[1] - alice[0]:+.1f}"
    # a name holding HTML is text
    assert XSS not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script" not in page.lower()


def test_the_biggest_blunder_is_a_blunder_else_the_largest_loss(season_db: Path) -> None:
    """The night's most bits lost is read from the stored column, and called a blunder only when its
    label says so: a night whose worst suggestion is a mistake has a "largest loss"."""
    with store.read_connection(season_db) as con:
        worst = {
            night: con.execute(
                "SELECT bits_lost, label FROM suggestions WHERE game_id IN (SELECT unnest(?)) AND bits_lost > 0 "
                "ORDER BY bits_lost DESC, accuracy LIMIT 1",
                [games],
            ).fetchone()
            for night, games in {"2026-09-04": ["s01", "s02", "late-waiter"], "2026-09-11": ["s03"]}.items()
        }
    seen = set()
    for night, row in worst.items():
        if row is None:
            continue
        code, page = report(season_db, "--night", night)
        assert code == 0, page
        title = "Biggest blunder" if row[1] == "blunder" else "Largest loss"
        other = "Largest loss" if title == "Biggest blunder" else "Biggest blunder"
        said = re.search(rf"{title}</b></td><td>(.*?)</td>", page)
        assert said and f"{row[0]:.2f} bits lost" in said.group(1) and other not in page
        seen.add(title)
    assert seen, "the season needs a night with a suggestion that lost bits"


def test_a_range_of_nights_and_the_mistakes_a_user_can_make(season_db: Path) -> None:
    code, text = report(season_db, "--from", "2026-09-01", "--until", "2026-09-12", "--format", "md")
    assert code == 0
    assert re.search(
        r"^# Game nights September 1, 2026 to September 12, 2026$", text, re.M
    )  # dates as English writes them
    assert len(re.findall(r"^\| \d+ \| \[", text, re.M)) == 5  # s01 to s04 and the late game
    for args, message in [
        (["--night", "2026-13-01"], "not a date: '2026-13-01'"),
        (["--night", "2020-01-01"], "no stored game was played on the night of 2020-01-01"),
        (["--from", "2026-09-01"], "--from and --until go together"),
        (["--from", "2026-10-01", "--until", "2026-09-01"], "is after --until"),
        (["s01", "--night", "2026-09-04"], "not both"),
        ([], "give a game id"),
    ]:
        code, text = report(season_db, *args)
        assert code == 2 and message in text, (args, text)
        assert "Traceback" not in text
    code, text = report(season_db, "--night", "2020-01-01")
    assert "nights with games: " in text and "2026-10-16" in text


def test_the_night_page_says_when_a_player_was_certain_by_the_line_of_the_file(
    season_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Game night page's longest wait: Anna certain after the file's line 9, the game's third
    turn (record 8), in English and in German; never the record's number alone."""
    from tests.helpers import open_app

    def waits(at) -> list[str]:
        return [line for m in at.markdown for line in str(m.value).splitlines() if "**" in line and "9" in line]

    at = open_app(season_db, monkeypatch, "night", night="2026-09-04")
    assert not at.exception, [e.value for e in at.exception]
    [wait] = [w for w in waits(at) if "Longest wait" in w]
    assert "Anna was certain after line 9 (turn 3) and waited 1 own turn before accusing and won in " in wait
    monkeypatch.setenv("CLUE_STATS_LANG", "de")
    at = open_app(season_db, monkeypatch, "night", night="2026-09-04")
    [wait] = [w for w in waits(at) if "Längstes Warten" in w]
    assert "Anna war nach Zeile 9 (Zug 3) sicher" in wait and "record" not in wait
