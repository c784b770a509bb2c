"""Every page of the dashboard and both HTML reports on a phone (390 px) and a desktop (1280 px), in
English, German and Swedish: nothing wider than the screen (the document does not scroll sideways,
no element reaches past its right edge, no box cuts its content on the right) and no word broken
inside (a name, a label, a date drawn on two lines). One server, one browser, every page visited in
it; a screenshot of each (in $CLUE_STATS_SCREENSHOTS when set, to read them).
"""

from __future__ import annotations

import pytest

from clue_stats.analysis import words
from clue_stats.dashboard import pages
from tests.helpers import (
    ARGS,
    CHROMIUM,
    DUEL_GAME,
    build_corpus,
    dashboard_server,
    measure,
    problems,
    settle,
    shots_folder,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]

LOCALES = {"en": "en-GB", "de": "de-DE", "sv": "sv-SE"}
WIDTHS = (390, 1280)
NIGHT = "2026-11-06"  # the classic club's night of two games, in the samples
GAME = "classic-club-2026-11-06-2"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory):
    """The browser tests' corpus and each report in each language."""
    from typer.testing import CliRunner

    from clue_stats.cli import app

    root = tmp_path_factory.mktemp("layout")
    db = build_corpus(root, simulated=4)
    reports = {}
    for code in LOCALES:
        for name, args in (("game", [GAME]), ("night", ["--night", NIGHT])):
            out = root / f"{name}-{code}.html"
            done = CliRunner().invoke(app, ["--lang", code, "report", *args, "--db", str(db), "--out", str(out)])
            assert done.exit_code == 0, done.output
            reports[(name, code)] = out
    return db, reports


def test_every_page_and_report_fits_a_phone_and_a_desktop_without_a_word_broken(corpus, tmp_path):
    from playwright.sync_api import sync_playwright

    db, reports = corpus
    shots = shots_folder(tmp_path)
    found: dict[str, list[str]] = {}
    with dashboard_server(db) as (url, _port, _banner, _proc), sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            for code, locale in LOCALES.items():
                for width in WIDTHS:
                    page = browser.new_context(locale=locale, viewport={"width": width, "height": 1000}).new_page()
                    for registered in pages.PAGES:
                        query = {"replay": f"?game={DUEL_GAME}&seq=5", "review": f"?game={DUEL_GAME}"}
                        page.goto(f"{url}/{registered.slug}{query.get(registered.slug, '')}")
                        page.wait_for_selector("h1", timeout=120_000)  # the server's first page loads slowly
                        with words.speaking(code):
                            title = registered.name
                        settle(page, title, 0)
                        page.wait_for_timeout(300)  # charts and the HTML of tables drawn after the script
                        where = f"{registered.slug} {code} {width}"
                        found[where] = problems(measure(page))
                        page.screenshot(path=str(shots / f"{registered.slug}-{code}-{width}.png"))
                    for name in ("game", "night"):
                        page.goto(reports[(name, code)].as_uri())
                        where = f"{name} report {code} {width}"
                        found[where] = problems(measure(page))
                        page.screenshot(path=str(shots / f"report-{name}-{code}-{width}.png"), full_page=True)
                    page.context.close()
        finally:
            browser.close()
    assert len(found) == len(LOCALES) * len(WIDTHS) * (len(pages.PAGES) + 2)
    bad = {where: p for where, p in found.items() if p}
    assert not bad, "\n".join(f"{where}: {p}" for where, found_there in bad.items() for p in found_there)


def test_the_probe_finds_a_wide_element_and_a_broken_word():
    """The measure itself, on a page made to fail it: a box wider than the screen, a table cut in a
    scrolling box, and a name broken inside (word-break: break-all) where it would fit whole."""
    from playwright.sync_api import sync_playwright

    html = (
        "<html><body style='margin:0'><div style='width:600px'>wide</div>"
        "<div style='overflow-x:auto;width:200px'><table><tr><td>aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa</td>"
        "</tr></table></div>"
        "<p style='width:70px;word-break:break-all'>Kathrin Thomas</p></body></html>"
    )
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 800})
            page.set_content(html)
            found = problems(measure(page))
        finally:
            browser.close()
    assert found[0].startswith("the page scrolls sideways by"), found
    assert any(p.startswith("wider than the screen: div") and '"wide"' in p for p in found), found
    assert any(p.startswith("wider than the screen: div") and "aaaa" in p and "scrolls sideways" in p for p in found)
    assert any('"Thomas"' in p for p in found), found
