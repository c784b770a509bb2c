"""A whole game recorded by taps on the Record page in headless Chromium at a phone's width (390 px):
set up, suggestions of at most six taps each, every record on disk at once, the same address reopened
going on where the game stood, the end, and the stored game's review; nothing wider than the screen,
every tap target at least 44 px high. Screenshots at 390 and 1280 px (``$CLUE_STATS_SCREENSHOTS``)."""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import urljoin

import pytest

from clue_stats.engine.editions import editions
from clue_stats.ingest import cluelog, store
from clue_stats.ingest.recording import folder_for
from tests.helpers import ARGS, CHROMIUM, dashboard_server, shots_folder

pytestmark = [
    pytest.mark.slow,  # a real browser
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]

IDLE = "() => !document.querySelector('[data-testid=\"stStatusWidgetRunningIcon\"]')"


def records(db: Path) -> list[dict]:
    found = list(folder_for(db).glob("*.jsonl"))
    if not found:
        return []
    (path,) = found
    (raw,) = cluelog.read_text(path.read_text(encoding="utf-8")).games
    return raw.records


def count_becomes(db: Path, n: int) -> None:
    """Wait (up to a minute) for the recording to hold n records after its game record."""
    deadline = time.monotonic() + 60
    while len(records(db)) - 1 != n:
        assert time.monotonic() < deadline, (n, records(db))
        time.sleep(0.2)


def wait_turn(page, player: str) -> None:
    """Wait for the next suggestion's buttons: the player whose turn it is chosen already."""
    chosen = groups(page).nth(0).locator('[aria-checked="true"]')
    page.wait_for_function(
        """who => [...document.querySelectorAll('[data-testid="stMain"] [aria-checked="true"]')]
                 .some(e => e.innerText.trim() === who) && !document.querySelector('[data-testid="stAlertContentError"]')""",
        arg=player,
        timeout=60_000,
    )
    idle(page)
    assert chosen.first.inner_text() == player


def idle(page) -> None:
    page.wait_for_timeout(300)
    page.wait_for_function(IDLE, timeout=60_000)


def tap(page, locator) -> None:
    locator.click()
    idle(page)


def groups(page):
    """The suggestion's button groups in order: who suggests, suspect, weapon, room, who showed, card."""
    return page.get_by_test_id("stMain").locator('[data-testid="stButtonGroup"]')


def in_group(page, k: int, name: str):
    return groups(page).nth(k).get_by_role("radio", name=name, exact=True)


def fits(page, width: int) -> None:
    """Nothing wider than the screen, and every button a finger can hit (44 px)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    wide = page.evaluate(
        """w => [...document.querySelectorAll('[data-testid="stMain"] *')]
               .filter(e => e.getBoundingClientRect().right > w + 1 && e.getBoundingClientRect().width > 0)
               .map(e => e.tagName + ' ' + (e.getAttribute('data-testid') || ''))""",
        width,
    )
    assert not wide, wide
    small = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="stMain"] button[data-variant], '
                    + '[data-testid="stMain"] button[data-testid^="stBaseButton"]')]
               .filter(b => b.offsetParent !== null && b.getBoundingClientRect().height < 44)
               .map(b => b.innerText)"""
    )
    assert not small, small


def test_a_whole_game_is_recorded_by_taps_on_a_phone(tmp_path):
    from playwright.sync_api import sync_playwright

    db = tmp_path / "club.duckdb"
    with store.write_connection(db):
        pass
    deck = editions()["us-classic"].deck
    name = deck.name
    shots = shots_folder(tmp_path)
    with dashboard_server(db) as (url, _port, _banner, _proc), sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(f"{url}/record")
            page.wait_for_selector("h1:has-text('Record a game')", timeout=60_000)
            idle(page)
            # the setup, in play order
            main = page.get_by_test_id("stMain")
            main.get_by_label("Edition").click()
            page.get_by_role("option", name="Clue (US classic)").click()
            idle(page)
            players = main.get_by_label("Players, in seat order (clockwise)")
            for who in ("Ann", "Bo", "Cy"):
                players.click()
                page.keyboard.type(who)
                page.keyboard.press("Enter")
                idle(page)
            page.keyboard.press("Escape")
            main.get_by_label("Who records").click()
            page.get_by_role("option", name="Ann", exact=True).click()
            idle(page)
            page.screenshot(path=str(shots / "record-setup-390.png"))
            tap(page, page.get_by_role("button", name="Start recording"))
            count_becomes(db, 0)
            assert records(db)[0]["players"] == [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}]
            assert records(db)[0]["perspective"] == "Ann"

            # a suggestion in six taps: Ann (chosen already), three cards, Cy showed, the card, save
            page.wait_for_selector("text=Who suggests")
            fits(page, 390)
            tap(page, in_group(page, 1, name("plum")))
            tap(page, in_group(page, 2, name("rope")))
            tap(page, in_group(page, 3, name("study")))
            tap(page, in_group(page, 4, "Cy"))
            tap(page, in_group(page, 5, name("rope")))
            page.screenshot(path=str(shots / "record-suggestion-390.png"))
            tap(page, page.get_by_role("button", name="Save the suggestion"))
            count_becomes(db, 1)
            assert records(db)[-1] == {
                "type": "suggest",
                "player": "Ann",
                "suspect": "plum",
                "weapon": "rope",
                "room": "study",
                "responses": [{"player": "Bo", "shows": None}, {"player": "Cy", "shows": "rope"}],
            }
            # Bo next (chosen already); nobody could show: five taps
            wait_turn(page, "Bo")
            for k, card in ((1, "green"), (2, "wrench"), (3, "hall")):
                tap(page, in_group(page, k, name(card)))
            tap(page, in_group(page, 4, "nobody"))
            page.screenshot(path=str(shots / "record-nobody-390.png"))
            tap(page, page.get_by_role("button", name="Save the suggestion"))
            count_becomes(db, 2)
            assert records(db)[-1]["responses"] == [{"player": "Cy", "shows": None}, {"player": "Ann", "shows": None}]
            # a mistake is shown where it was entered, and nothing is saved: Cy showed the Rope before
            wait_turn(page, "Cy")
            for k, card in ((1, "green"), (2, "rope"), (3, "hall")):
                tap(page, in_group(page, k, name(card)))
            tap(page, in_group(page, 4, "Ann"))
            tap(page, in_group(page, 5, name("rope")))
            before = records(db)
            tap(page, page.get_by_role("button", name="Save the suggestion"))
            error = page.locator('[data-testid="stAlertContentError"]')
            error.first.wait_for(timeout=60_000)
            assert error.count() == 1 and name("rope") in error.inner_text()
            assert records(db) == before
            fits(page, 390)
            page.screenshot(path=str(shots / "record-mistake-390.png"))

            # the same address on a second phone goes on where the game stands
            other = browser.new_page(viewport={"width": 390, "height": 844})
            other.goto(page.url)
            other.wait_for_selector("text=Who suggests", timeout=60_000)
            idle(other)
            chosen = groups(other).nth(0).locator('[aria-checked="true"]')
            assert chosen.inner_text() == "Cy"
            tap(other, other.get_by_role("button", name="Undo the last record"))
            count_becomes(db, 1)
            other.close()

            page.set_viewport_size({"width": 1280, "height": 900})
            page.reload()
            page.wait_for_selector("text=Who suggests", timeout=60_000)
            idle(page)
            fits(page, 1280)
            page.screenshot(path=str(shots / "record-1280.png"))
            page.set_viewport_size({"width": 390, "height": 844})

            # the recorder's own notebook, off until asked: Ann's exact view after the record so far
            assert page.locator('[data-testid="stVegaLiteChart"]').count() == 0
            tap(page, page.get_by_text("My notebook"))
            chart = page.locator('[data-testid="stVegaLiteChart"]').first
            chart.wait_for(timeout=60_000)
            chart.scroll_into_view_if_needed()
            idle(page)
            fits(page, 390)
            page.screenshot(path=str(shots / "record-notebook-390.png"))
            tap(page, page.get_by_text("My notebook"))  # off again for the rest

            # the end, and the game stored with its review
            tap(page, page.get_by_text("End of the game"))
            tap(page, page.get_by_role("button", name="End the game"))
            count_becomes(db, 2)
            assert records(db)[-1] == {"type": "end", "winner": None, "solution": None}
            tap(page, page.get_by_role("button", name="Save and review"))
            link = page.get_by_role("link", name="the game's review")
            link.wait_for(timeout=120_000)
            page.screenshot(path=str(shots / "record-stored-390.png"))
            href = link.get_attribute("href") or ""
            assert href.startswith("review?game=")
            page.goto(urljoin(page.url, href))  # a Markdown link opens a new tab; here, the same one
            page.wait_for_selector("h1:has-text('Game review')", timeout=60_000)
            idle(page)
            assert page.locator('[data-testid="stException"]').count() == 0
            page.screenshot(path=str(shots / "record-review-390.png"))
        finally:
            browser.close()
