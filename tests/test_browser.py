"""The dashboard in a real browser: `clue-stats dashboard` serves it on localhost, headless Chromium
(Debian's package, driven by Playwright) opens every page, finds no error, sees the charts drawn,
steps the replay, and saves a screenshot of each page.

What AppTest cannot see is checked here: that Vega really draws the charts, that names holding HTML
reach the screen as text (no script runs, no dialog opens), and that the server listens on
127.0.0.1 only.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from clue_stats import pipeline
from clue_stats.dashboard import pages
from clue_stats.engine.editions import editions
from clue_stats.ingest import store
from tests.helpers import (
    ARGS,
    CHROMIUM,
    DUEL_GAME,
    SAMPLES,
    XSS_GAME,
    XSS_NAME,
    XSS_NOTE,
    build_corpus,
    dashboard_server,
    settle,
    shots_folder,
)

CHARTS = {  # registered page -> the charts it draws on the test corpus (a new page must say its own)
    "overview": 3,
    "review": 1,  # the race to the solution
    "puzzles": 1,  # the notebook, drawn as the replay draws it
    "replay": 3,
    "suggestions": 2,  # gains and accuracy; the strategies chart only with programs
    "accusations": 1,
    "positions": 0,  # every edition of the corpus has too few games: folded
    "players": 1,
    "agents": 0,  # a table of the programs that played, no chart
    "person": 1,  # the highest rated person: the rating over time (their suggestions need not be rated)
    "night": 0,  # the latest night: its games, moments and players in words and tables
    "quality": 1,
    "help": 0,
    "record": 0,  # the setup of a new recording
}

pytestmark = [
    pytest.mark.slow,  # a real browser: `make test` runs it, `make test-fast` does not
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium; .ci/run does)",
    ),
]


def listening_addresses(port: int) -> set[str]:
    """The local addresses a TCP socket listens on for this port (Linux: /proc/net/tcp[6])."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.split(":")
            if state == "0A" and int(hex_port, 16) == port:
                found.add(address)
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    # club games and simulated ones: the pages must show the club's by default, in names
    db = build_corpus(tmp_path_factory.mktemp("browser"), simulated=4)
    # the command works from any directory
    with dashboard_server(db, cwd=tmp_path_factory.mktemp("elsewhere")) as (url, port, banner, _):
        assert url in banner and str(db) in banner, banner
        yield url, port, db


def games_shown(page) -> int:
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="Games").first
    return int(metric.locator('[data-testid="stMetricValue"]').inner_text().replace(",", ""))


def card_ids() -> re.Pattern:
    """Every built-in card id as a person must never read it: snake_case ids, and the lower-case
    character ids ("white", "mustard") that are names only when capitalised."""
    ids = {c for ed in editions().values() for c in ed.deck.cards if "_" in c or c in ed.deck.suspects}
    return re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, ids), key=len, reverse=True)) + r")(?![\w-])")


def people_games(db) -> int:
    with store.read_connection(db) as con:
        return con.execute("SELECT count(*) FROM games WHERE kind IN ('tabletop', 'digital')").fetchall()[0][0]


# what a hostile name or note would make of the page were it markup, not text
INJECTED = """() => [...document.querySelectorAll('script')].some(s => s.textContent.includes('alert('))
                    || document.querySelectorAll('img[src="x"]').length > 0
                    || [...document.querySelectorAll('a')].some(a => a.protocol === 'javascript:')
                    || [...document.querySelectorAll('a')].some(a => a.hostname.endsWith('evil.example'))"""
# (a link to a page of the dashboard may carry such a name in its query: that is the name, as text)


def test_every_page_renders_in_chromium(server, tmp_path):
    from playwright.sync_api import sync_playwright

    url, port, db = server
    assert listening_addresses(port) == {"0100007F"}  # 127.0.0.1, and nothing else
    shots = shots_folder(tmp_path)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            dialogs: list[str] = []
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            for registered in pages.PAGES:
                path, title, charts = registered.slug, registered.title, CHARTS[registered.slug]
                query = {"replay": f"?game={DUEL_GAME}&seq=5", "review": f"?game={DUEL_GAME}"}.get(path, "")
                page.goto(f"{url}/{'' if registered == pages.DEFAULT else path}{query}")  # the default page is the root
                settle(page, title, charts)
                if path == "positions":  # a folded section opens and draws its chart
                    page.get_by_text("too few to show an effect").first.click()
                    settle(page, title, 1)
                assert page.locator('[data-testid="stException"]').count() == 0, path
                assert page.locator('[data-testid="stAlertContentError"]').count() == 0, path
                assert page.get_by_text("Page not found").count() == 0, path
                drawn = page.locator('[data-testid="stVegaLiteChart"]').count()
                assert drawn >= charts, (path, drawn)
                # what a person reads (text, metrics, chart labels): names, not ids; blanks, not None
                shown = page.locator('[data-testid="stMain"]').inner_text()
                if path != "help":  # the documentation shows the records' ids where it explains the format
                    assert not card_ids().search(shown), (path, card_ids().search(shown))
                assert not re.search(r"\bNone\b", shown), path
                assert not page.evaluate(INJECTED), path  # a hostile name is text on every page, not a link
                if path == "overview":
                    assert games_shown(page) == people_games(db)  # the club's games, not the simulations
                page.screenshot(path=str(shots / f"{path}.png"), full_page=True)

            # the replay steps in the browser too
            page.goto(f"{url}/replay?game={DUEL_GAME}&seq=0")
            settle(page, "Game replay", 2)  # no suggestion yet: no gain chart
            page.get_by_role("button", name="Next suggestion").click()
            page.wait_for_function("() => !document.body.innerText.includes('record 0 of')", timeout=30_000)
            assert "suggested" in page.locator('[data-testid="stMarkdownContainer"]').all_inner_texts()[
                0
            ] or "suggested" in page.inner_text("body")

            # hostile names and notes reach the screen as text
            page.goto(f"{url}/replay?game={XSS_GAME}&seq=4")
            settle(page, "Game replay", 3)
            body = page.inner_text("body")
            assert XSS_NAME in body and XSS_NOTE.split(" :")[0] in body
            assert not page.evaluate(INJECTED)
            page.screenshot(path=str(shots / "replay-hostile.png"), full_page=True)
            assert dialogs == []

            # `clue-stats ingest` while the page is open: the new game appears without a reload
            page.goto(url)
            settle(page, "Overview", 3)
            before = games_shown(page)
            fresh = db.parent / "fresh.jsonl"
            fresh.write_text(
                (SAMPLES / "us-clue-family.jsonl").read_text().replace('"us-family-2026-10-31"', '"fresh-game"')
            )
            # what `clue-stats ingest` runs (in this process, a different one from the server's)
            assert pipeline.ingest_paths([str(fresh)], db, analyse=False, workers=1).games_stored == 1
            page.wait_for_function(
                """n => { const m = [...document.querySelectorAll('[data-testid="stMetric"]')]
                                  .find(e => e.innerText.startsWith('Games'));
                          return m && m.innerText.includes(String(n)); }""",
                arg=before + 1,
                timeout=30_000,
            )
        finally:
            browser.close()


def test_the_help_pages_links_find_their_headings_in_german_and_swedish(server):
    """A link from one topic to a section of another (analysis.md to problems.md's budget) lands on
    that section's heading on the Help page, whose anchor Streamlit spells in its own way (in
    German "über" as "ueber"), in English, German and Swedish."""
    from playwright.sync_api import sync_playwright

    url, _, _ = server
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            for locale, title in (("en-GB", "Help"), ("de-DE", "Hilfe"), ("sv-SE", "Hjälp")):
                page = browser.new_context(locale=locale, viewport={"width": 1280, "height": 1000}).new_page()
                page.goto(f"{url}/help?topic=analysis")
                page.wait_for_selector(
                    f"h1:has-text('{title}')", timeout=120_000
                )  # the server's first page loads slowly
                settle(page, title, 0)
                # the topic is drawn after the title: wait for its first link to the other topic
                page.wait_for_selector("[data-testid='stMain'] a[href*='?topic=problems#']", timeout=30_000)
                links = page.eval_on_selector_all(
                    "[data-testid='stMain'] a[href*='?topic=problems#']", "els => els.map(e => e.getAttribute('href'))"
                )
                assert links, locale
                for href in links:
                    page.goto(f"{url}/help{href}")
                    settle(page, title, 0)
                    anchor = href.split("#", 1)[1]
                    # the topic is drawn after the page's title: wait for its heading (a timeout fails)
                    page.wait_for_selector(f"[id='{anchor}']", state="attached", timeout=30_000)
                    assert page.locator(f"[id='{anchor}']").count() == 1, (locale, href)
        finally:
            browser.close()
