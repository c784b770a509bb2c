"""The league in a real browser: the Players page served by `clue-stats dashboard` and the night's
summary written by `clue-stats report --night`, both opened in headless Chromium (Playwright), with a
player called ``<script>alert(1)</script>`` who must be shown as text. Screenshots at 1400x1000 go to
$CLUE_STATS_SCREENSHOTS (or the test's temporary folder)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clue_stats import pipeline
from clue_stats.cli import app
from tests.helpers import (
    ARGS,
    CHROMIUM,
    LATE_GAME,
    SEASON,
    XSS,
    dashboard_server,
    settle,
    shots_folder,
    write_games,
)

pytestmark = [
    pytest.mark.slow,  # a real browser: `make test` runs it, `make test-fast` does not
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium; .ci/run does)",
    ),
]

INJECTED = """() => [...document.querySelectorAll('script')].some(s => s.textContent.includes('alert('))
                    || [...document.querySelectorAll('a')].some(a => a.href.startsWith('javascript:'))"""


@pytest.fixture(scope="module")
def league_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("league-browser")
    late = root / "late.jsonl"
    late.write_text("".join(json.dumps(r) + "\n" for r in LATE_GAME), encoding="utf-8")
    season = write_games(root / "season.jsonl", SEASON, rename={"Dave": XSS})
    db = root / "league.duckdb"
    pipeline.ingest_paths([str(season), str(late)], db, analyse=True, workers=1)
    return db


def test_the_players_page_in_chromium(league_db: Path, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    shots = shots_folder(tmp_path)
    with dashboard_server(league_db) as (url, _, _, _):
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                dialogs: list[str] = []
                page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
                page.goto(f"{url}/players")
                settle(page, "Players", 3)  # the skill bands, the course over time, the head-to-head matrix
                assert page.locator('[data-testid="stException"]').count() == 0
                assert page.locator('[data-testid="stAlertContentError"]').count() == 0
                body = page.inner_text("body")
                assert "Leaderboard" in body and "Head-to-head" in body
                # the grid draws its cells on a canvas: the name is read from the chart's axis and the
                # head-to-head table's cells, where it is text
                assert XSS in body or "<script>alert(1)</…" in body
                assert not page.evaluate(INJECTED)
                assert dialogs == []
                main = '[data-testid="stMain"]'
                height = page.evaluate(f"() => document.querySelector('{main}').scrollHeight")
                for i, y in enumerate(range(0, min(height, 6000), 900)):
                    page.evaluate(f"() => document.querySelector('{main}').scrollTo(0, {y})")
                    page.wait_for_timeout(400)
                    page.screenshot(path=str(shots / f"league-players-{i}.png"))
            finally:
                browser.close()


def test_the_night_report_in_chromium(league_db: Path, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    out = tmp_path / "night.html"
    result = CliRunner().invoke(app, ["report", "--night", "2026-09-04", "--db", str(league_db), "--out", str(out)])
    assert result.exit_code == 0, result.output
    shots = shots_folder(tmp_path)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            dialogs: list[str] = []
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.goto(out.as_uri())
            page.wait_for_selector("h1:has-text('Game night September 4, 2026')")
            body = page.inner_text("body")
            assert XSS in body  # the name, as text
            assert "Longest wait after certainty" in body and "Best suggestion" in body
            assert not page.evaluate(INJECTED)
            assert page.locator("svg").count() >= 3  # each game's charts, drawn into the file
            page.screenshot(path=str(shots / "league-night-0.png"))
            # the summary's link leads to the game's own section
            page.locator("#games a", has_text="late-waiter").click()
            page.wait_for_function("() => location.hash === '#game-late-waiter'")
            top = page.evaluate("() => document.getElementById('game-late-waiter').getBoundingClientRect().top")
            assert -5 < top < 200  # scrolled to it (sub-pixel above the top edge counts)
            page.screenshot(path=str(shots / "league-night-1.png"))
            assert dialogs == []
        finally:
            browser.close()
