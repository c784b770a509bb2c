"""What the tests share, in one module: where things are, hand-checkable games from the docs, the
dashboard's test corpus and a season of club games for the league. Tests import one another never:
what two tests share lives here; the reference programs (the deduction tests' brute force, the plain
counting programs) and the seeded random games, which the benchmarks share too, live in
clue_stats/testing.py (tests/test_layers.py checks both).
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from clue_stats import pipeline
from clue_stats.engine.game import (
    Game,
)
from clue_stats.engine.simulate import simulate
from clue_stats.ingest import cluelog, formats
from clue_stats.ingest.cluelog import build_game, read_text
from clue_stats.ingest.raw import RawGame
from clue_stats.pipeline import analyse_store

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "data" / "samples"
FIXTURES = ROOT / "tests" / "fixtures"
DOCS = ROOT / "docs" / "analysis.md"


# ---------------------------------------------------------------- games from text and from the docs


def load(text: str) -> Game:
    read = read_text(text)
    assert not read.problems
    game, problems = build_game(read.games[0])
    assert game is not None and not problems
    return game


def raw_games(path: Path) -> list[RawGame]:
    """The games of a file as ingest reads them (``ingest.formats.iter_file``), before their checks."""
    return [item for item in formats.iter_file(path) or () if isinstance(item, RawGame)]


def docs_log(title: str) -> str:
    """The clue-log/1 block that follows a heading in docs/analysis.md."""
    text = DOCS.read_text(encoding="utf-8")
    start = text.index(title)
    block = re.search(r"```jsonl\n(.*?)```", text[start:], re.S)
    assert block is not None
    return block.group(1)


GIVEAWAY_LOG = """\
{"type":"game","format":"clue-log/1","id":"giveaway","edition":"custom","deck":{"suspects":["A","B","C"],"weapons":["X","Y","Z"],"rooms":["R","S","T"]},"players":[{"name":"Anna"},{"name":"Ben"},{"name":"Cleo"}]}
{"type":"deal","player":"Anna","cards":["a","x"]}
{"type":"deal","player":"Ben","cards":["b","r"]}
{"type":"deal","player":"Cleo","cards":["y","s"]}
{"type":"suggest","player":"Anna","suspect":"b","weapon":"y","room":"r","responses":[{"player":"Ben","shows":"b"}]}
{"type":"suggest","player":"Ben","suspect":"c","weapon":"y","room":"s","responses":[{"player":"Cleo","shows":"?"}]}
{"type":"accuse","player":"Cleo","suspect":"a","weapon":"z","room":"t","correct":false}
{"type":"end","winner":null,"solution":{"suspect":"c","weapon":"z","room":"t"}}
"""


# ---------------------------------------------------------------- seeded random games

# Games of two players small enough to check missed wins by hand: the worked example's deck and deals
# (docs/analysis.md). Anna holds Plum and the Rope, Ben Green and the Hall; the solution is Mustard,
# Knife, Study. After Anna's first suggestion (Ben shows the Hall) Anna knows the weapon and the
# room, and the suspect is Green or Mustard: a reveal of Ben's Green makes her certain.
ANNA_ASKS_GREEN = '{"type":"suggest","player":"Anna","suspect":"green","weapon":"knife","room":"hall","responses":[{"player":"Ben","shows":"hall"}]}'
REVEAL_GREEN = '{"type":"reveal","player":"Ben","card":"green","to":"all","cause":"a house rule"}'
TURN_ANNA = '{"type":"turn","player":"Anna"}'
TURN_BEN = '{"type":"turn","player":"Ben"}'
BEN_WINS = (
    '{"type":"accuse","player":"Ben","suspect":"mustard","weapon":"knife","room":"study","correct":true}',
    '{"type":"end","winner":"Ben","solution":{"suspect":"mustard","weapon":"knife","room":"study"}}',
)


def anna_and_ben(game_id: str, *records: str) -> str:
    """A clue-log/1 game: the header, both deals and Anna's first turn (seq 1 to 3), then ``records``."""
    header = {
        "type": "game",
        "format": "clue-log/1",
        "id": game_id,
        "edition": "custom",
        "deck": {"suspects": ["Plum", "Green", "Mustard"], "weapons": ["Rope", "Knife"], "rooms": ["Hall", "Study"]},
        "players": [{"name": "Anna"}, {"name": "Ben"}],
    }
    setup = [
        json.dumps(header),
        '{"type":"deal","player":"Anna","cards":["plum","rope"]}',
        '{"type":"deal","player":"Ben","cards":["green","hall"]}',
        TURN_ANNA,
    ]
    return "\n".join([*setup, *records]) + "\n"


# ---------------------------------------------------------------- the dashboard's corpus

XSS_NAME = "<script>alert(1)</script>"
LINK_NAME = "Dad [x](javascript:alert(2)) **b** [link](http://evil.example/) www.evil.example dad@evil.example"
XSS_NOTE = "<img src=x onerror=alert(3)> :red[shout] $x^2$"
ODD_SOURCE = "O'Brien's \"club\"; DROP TABLE games; --"
XSS_GAME = "xss-game"
CLUB_GAME = "classic-club-2026-11-06-1"
DUEL_GAME = "duell-2026-11-21"


def hostile_game(folder: Path) -> Path:
    """The family sample with a script tag and a Markdown link as player names, HTML in a note and
    SQL in its source: it must be stored and shown as the text it is."""
    rename = {"Mom": XSS_NAME, "Dad": LINK_NAME}
    records = [json.loads(line) for line in (SAMPLES / "us-clue-family.jsonl").read_text().splitlines() if line.strip()]
    for r in records:
        if r["type"] == "game":
            r.update(id=XSS_GAME, source=ODD_SOURCE)
            for p in r["players"]:
                p["name"] = rename.get(p["name"], p["name"])
        for key in ("player", "winner"):
            if key in r:
                r[key] = rename.get(r[key], r[key])
        for answer in r.get("responses", []):
            answer["player"] = rename.get(answer["player"], answer["player"])
    first_suggestion = next(r for r in records if r["type"] == "suggest")
    first_suggestion["note"] = XSS_NOTE
    path = folder / "hostile.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def simulated_games(folder: Path, games: int = 6) -> Path:
    path = folder / "simulated.jsonl"
    path.write_text(
        cluelog.write_games(simulate(games, 3, "classic", ("notebook", "random", "bluffer"), seed=3)), encoding="utf-8"
    )
    return path


def build_corpus(root: Path, simulated: int = 6) -> Path:
    """The test corpus: analysed games (with the whole review), ``simulated`` games
    between strategies, games stored without analysis, a hostile game and a rejected one."""
    root.mkdir(parents=True, exist_ok=True)
    db = root / "corpus.duckdb"
    pipeline.ingest_paths([str(SAMPLES / "de-2023-duel.jsonl")], db, analyse=True, workers=1)
    analyse_store(db, workers=1)  # only the duel is stored yet: nothing left to analyse
    analysed = [str(hostile_game(root))] + ([str(simulated_games(root, simulated))] if simulated else [])
    pipeline.ingest_paths(analysed, db, analyse=True, workers=1)
    pipeline.ingest_paths(
        [str(SAMPLES), str(FIXTURES / "invalid" / "passed_holding.jsonl")], db, analyse=False, workers=1
    )
    return db


# ---------------------------------------------------------------- a real browser (headless Chromium)


def open_app(db: Path, monkeypatch: Any, page: str = "overview", all_kinds: bool = True, **query: str) -> Any:
    """The dashboard (Streamlit's AppTest) on ``db`` at a registered page, with a link's ``query``;
    ``all_kinds``: with the sidebar's switch that adds bot and simulated games to the people's games
    shown by default (most tests compare with every game). ``monkeypatch``: pytest's, for the
    database's variable."""
    from streamlit.testing.v1 import AppTest

    from clue_stats.dashboard import pages

    monkeypatch.setenv("CLUE_STATS_DB", str(db))
    at = AppTest.from_file(str(ROOT / "dashboard" / "app.py"), default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    if all_kinds and any(t.key == "filter_all_kinds" for t in at.toggle):
        at.toggle(key="filter_all_kinds").set_value(True).run()
    if page != pages.DEFAULT.slug:
        at.switch_page(pages.page(page).file).run()
    return at


CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def dashboard_server(db: Path, cwd: Path | None = None) -> Iterator[tuple[str, int, str, subprocess.Popen[str]]]:
    """`clue-stats dashboard` on ``db`` at a free port, once it answers: (its url, the port, the
    first line it printed, the command's process). Stopped, with the Streamlit server it started,
    when the block ends (if it has not stopped already)."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "clue_stats", "dashboard", "--db", str(db), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        cwd=cwd,
    )
    try:
        assert proc.stdout is not None and proc.stderr is not None
        banner = proc.stdout.readline()
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"the dashboard did not start: {proc.stderr.read()}") from None
                time.sleep(0.2)
        yield url, port, banner, proc
    finally:
        with contextlib.suppress(ProcessLookupError):  # a test may have stopped it already
            os.killpg(proc.pid, signal.SIGTERM)  # the command and the Streamlit server it started
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def shots_folder(tmp_path: Path) -> Path:
    """Where a browser test writes its screenshots: $CLUE_STATS_SCREENSHOTS (to read them), else
    the test's own folder."""
    shots = Path(os.environ.get("CLUE_STATS_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    return shots


def settle(page, title: str, charts: int) -> None:
    """Wait until the page's script has run and Vega has drawn its charts."""
    page.wait_for_selector(f"h1:has-text('{title}')", timeout=30_000)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidgetRunningIcon\"]')", timeout=30_000
    )
    if charts:
        page.wait_for_function(
            """n => [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
                   .filter(c => { const d = c.querySelector('canvas, svg.marks');
                                  return d && d.getBoundingClientRect().width > 50 && d.getBoundingClientRect().height > 50; })
                   .length >= n""",
            arg=charts,
            timeout=30_000,
        )


# ---------------------------------------------------------------- a game night (tests/test_night.py)

XSS = "<script>alert(1)</script>"

# After midnight, so still the night of 2026-09-04: Anna is certain after record 8 (line 9), waits one turn of
# hers, and wins; the other seat is a player whose name is a script tag.
LATE_GAME = [
    {
        "type": "game",
        "format": "clue-log/1",
        "id": "late-waiter",
        "edition": "custom",
        "deck": {"suspects": ["Plum", "Green", "Mustard"], "weapons": ["Rope", "Knife"], "rooms": ["Hall", "Study"]},
        "played_at": "2026-09-05T00:30",
        "source": "tabletop",
        "players": [{"name": "Anna"}, {"name": XSS}],
    },
    {"type": "deal", "player": "Anna", "cards": ["plum", "rope"]},
    {"type": "deal", "player": XSS, "cards": ["green", "hall"]},
    {"type": "turn", "player": "Anna"},
    {
        "type": "suggest",
        "player": "Anna",
        "suspect": "green",
        "weapon": "knife",
        "room": "hall",
        "responses": [{"player": XSS, "shows": "hall"}],
    },
    {"type": "turn", "player": XSS},
    {
        "type": "suggest",
        "player": XSS,
        "suspect": "plum",
        "weapon": "rope",
        "room": "study",
        "responses": [{"player": "Anna", "shows": "rope"}],
    },
    {"type": "turn", "player": "Anna"},
    {
        "type": "suggest",
        "player": "Anna",
        "suspect": "mustard",
        "weapon": "knife",
        "room": "study",
        "responses": [{"player": XSS, "shows": None}],
    },
    {"type": "turn", "player": XSS},
    {
        "type": "suggest",
        "player": XSS,
        "suspect": "green",
        "weapon": "rope",
        "room": "hall",
        "responses": [{"player": "Anna", "shows": "rope"}],
    },
    {"type": "turn", "player": "Anna"},
    {"type": "accuse", "player": "Anna", "suspect": "mustard", "weapon": "knife", "room": "study", "correct": True},
    {"type": "end", "winner": "Anna", "solution": {"suspect": "mustard", "weapon": "knife", "room": "study"}},
]


# ---------------------------------------------------------------- a season of club games (the league's tests)

# A small hand-made season for the ratings, the Players page and the night report.

SOLUTION = {"suspect": "green", "weapon": "rope", "room": "hall"}
WRONG = [
    ("plum", "rope", "hall"),
    ("white", "dagger", "hall"),
    ("green", "knife", "study"),
    ("peacock", "rope", "hall"),
]


def game_lines(
    game_id: str,
    played_at: str | None,
    players: list[str],
    winner: str | None,
    eliminated: tuple[str, ...] = (),
    source: str = "tabletop",
    strategies: dict[str, str] | None = None,
) -> list[str]:
    """One valid clue-log/1 game without hands: the eliminated accuse wrongly in the order given,
    then the winner (if any) accuses correctly."""
    header = {"type": "game", "format": "clue-log/1", "id": game_id, "edition": "classic", "source": source}
    if played_at is not None:
        header["played_at"] = played_at
    header["players"] = [
        {"name": p, **({"strategy": strategies[p]} if strategies and p in strategies else {})} for p in players
    ]
    lines = [header]
    for i, who in enumerate(eliminated):
        s, w, r = WRONG[i % len(WRONG)]
        lines.append({"type": "accuse", "player": who, "suspect": s, "weapon": w, "room": r, "correct": False})
    if winner is not None:
        lines.append({"type": "accuse", "player": winner, **SOLUTION, "correct": True})
    lines.append({"type": "end", "winner": winner, "solution": SOLUTION if winner else None})
    return [json.dumps(x, ensure_ascii=False) for x in lines]


# (id, played_at, players, winner, eliminated): Alice wins 6 of 12, Bob 3, Carol 2, Dave 1
SEASON = [
    ("s01", "2026-09-04T20:00", ["Alice", "Bob", "Carol", "Dave"], "Alice", ("Dave",)),
    ("s02", "2026-09-04T21:30", ["Alice", "Bob", "Carol", "Dave"], "Bob", ()),
    ("s03", "2026-09-11T20:00", ["Alice", "Bob", "Carol"], "Alice", ("Carol", "Bob")),
    ("s04", "2026-09-11T21:10", ["Alice", "Carol", "Dave"], "Carol", ()),
    ("s05", "2026-09-18T20:00", ["Alice", "Bob", "Carol", "Dave"], "Alice", ("Bob",)),
    ("s06", "2026-09-18T21:00", ["Bob", "Carol", "Dave"], "Dave", ("Carol",)),
    ("s07", "2026-09-25T20:00", ["Alice", "Bob", "Carol", "Dave"], "Alice", ()),
    ("s08", "2026-09-25T21:00", ["Alice", "Bob", "Dave"], "Bob", ("Alice",)),
    ("s09", "2026-10-02T20:00", ["Alice", "Bob", "Carol", "Dave"], "Alice", ("Dave", "Carol")),
    ("s10", "2026-10-02T21:00", ["Alice", "Bob", "Carol", "Dave"], None, ("Bob", "Dave", "Alice", "Carol")),
    ("s11", "2026-10-09T20:00", ["Alice", "Bob", "Carol", "Dave"], "Carol", ()),
    ("s12", "2026-10-09T21:00", ["Alice", "Bob", "Carol"], "Bob", ()),
    ("s13", "2026-10-16T20:00", ["Alice", "Bob", "Carol", "Dave"], "Alice", ("Carol",)),
]


def write_games(path: Path, games, rename: dict[str, str] | None = None) -> Path:
    """Write games (tuples as in SEASON) to one file; ``rename`` writes some names otherwise."""
    rename = rename or {}
    lines: list[str] = []
    for game_id, played_at, players, winner, eliminated in games:
        players = [rename.get(p, p) for p in players]
        winner = rename.get(winner, winner) if winner else None
        eliminated = tuple(rename.get(p, p) for p in eliminated)
        lines += game_lines(game_id, played_at, players, winner, eliminated)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# ---------------------------------------------------------------- a club's nights (issue 24)

# A night of three games typed in the notation (German 2023 with four players, UK 2020 with three, a
# duel), every hand known but the duel's; Katrin is spelled "Kathrin" in the second game (the two
# never sat at one table). The first two games have a time, the third only the date: it is third.
CLUB_EVENING = FIXTURES / "club" / "club-evening.clue"
CLUB_NIGHT = "2026-11-20"
CLUB_GAMES = ["club-2026-11-20-1", "club-2026-11-20-2", "club-2026-11-20-3"]


def club_db(root: Path, simulated: int = 3) -> Path:
    """A database of a club: the evening above (ingested as --kind tabletop), the hand-made season of
    SEASON (other people, nights in September and October) and a few simulated games."""
    db = root / "club.duckdb"
    pipeline.ingest_paths([str(CLUB_EVENING)], db, analyse=True, workers=1, kind="tabletop")
    pipeline.ingest_paths(
        [str(write_games(root / "season.jsonl", SEASON)), str(simulated_games(root, simulated))],
        db,
        analyse=True,
        workers=1,
    )
    return db


# What a browser test measures of a page's layout (tests/test_browser_layout.py): anything wider than
# the screen, and words broken inside (a single word split over two lines).
# Run in the page: every visible element whose box reaches past the viewport's right edge (outside a
# box that scrolls sideways by design, such as Streamlit's data grid, whose cells are drawn in a
# canvas), and every text node whose word is drawn on two lines (its first and last letter on
# different line boxes). Returns short descriptions, at most 12 of each.
MEASURE = r"""
() => {
  const width = document.documentElement.clientWidth;
  const found = { scroll: document.documentElement.scrollWidth - width, wide: [], broken: [] };
  const describe = (el) => {
    const id = el.getAttribute && (el.getAttribute('data-testid') || el.className || el.tagName);
    return `${el.tagName.toLowerCase()}[${String(id).slice(0, 40)}] "${(el.innerText || el.textContent || '').trim().slice(0, 40)}"`;
  };
  // Streamlit's data grid draws its cells in a canvas and scrolls them with its key columns pinned
  const GRID = '[data-testid="stDataFrame"], [data-testid="stDataFrameResizable"]';
  // what scrolls sideways by design: code (a JSON line as it is written), the documentation's own
  // tables on the Help page (its Markdown, many columns of reference)
  const SCROLLS = 'pre, code, [data-testid="stCode"], [data-testid="stMarkdownContainer"] table';
  // what a person cannot see is not measured: the sidebar folded away on a phone, hidden elements
  const shown = (el) => {
    if (el.closest('[data-testid="stSidebar"][aria-expanded="false"]')) return false;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.right <= 0) return false;
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none';
  };
  const clipped = (el) => {
    for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.overflowX !== 'visible' && e.getBoundingClientRect().right <= width + 1) return true;
    }
    return false;
  };
  for (const el of document.querySelectorAll('body *')) {
    if (found.wide.length >= 12) break;
    if (!shown(el) || el.closest(GRID)) continue;
    const s = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    if (s.position !== 'fixed' && r.right > width + 1 && !clipped(el)) {
      found.wide.push(`${describe(el)} right=${Math.round(r.right)}`);
    } else if ((s.overflowX === 'auto' || s.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1
               && !['TEXTAREA', 'PRE'].includes(el.tagName) && !el.closest(SCROLLS)) {
      // a box whose content scrolls sideways: a table cut on the right until one scrolls it
      found.wide.push(`${describe(el)} scrolls sideways by ${el.scrollWidth - el.clientWidth} px`);
    }
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node && found.broken.length < 12; node = walker.nextNode()) {
    const text = node.textContent;
    if (!text || !text.trim() || !node.parentElement) continue;
    const parent = node.parentElement;
    if (!shown(parent) || parent.closest(GRID)) continue;
    if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEXTAREA', 'CODE', 'PRE'].includes(parent.tagName)) continue;
    if (parent.closest('pre, code, [data-testid="stCode"], svg')) continue;
    const re = /[\p{L}\p{N}][\p{L}\p{N}'’:._-]*[\p{L}\p{N}]/gu;
    let m;
    while ((m = re.exec(text)) && found.broken.length < 12) {
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0);
      if (rects.length < 2) continue;
      // a word longer than its line (a file's path, a long id) must break somewhere: not a fault
      const whole = rects.reduce((sum, r) => sum + r.width, 0);
      const room = parent.getBoundingClientRect().right - Math.min(...rects.map(r => r.left));
      if (whole > room - 1) continue;
      const tops = new Set(rects.map(r => Math.round(r.top)));
      if (tops.size < 2) continue;
      // a hyphen or a slash is a place a word may break: only a break between two letters counts
      const parts = m[0].split(/[-/]/);
      if (parts.length > 1) {
        let inside = false;
        let at = m.index;
        for (const part of parts) {
          range.setStart(node, at);
          range.setEnd(node, at + part.length);
          const t = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
          if (t.size > 1) inside = true;
          at += part.length + 1;
        }
        if (!inside) continue;
      }
      found.broken.push(`"${m[0]}" in ${describe(parent)}`);
    }
  }
  return found;
}
"""


def measure(page: Any) -> dict[str, Any]:
    """The page's overflow in pixels (document), the elements wider than the screen and the words
    broken inside."""
    return page.evaluate(MEASURE)


def problems(found: dict[str, Any]) -> list[str]:
    out = []
    if found["scroll"] > 1:
        out.append(f"the page scrolls sideways by {found['scroll']} px")
    out += [f"wider than the screen: {w}" for w in found["wide"]]
    out += [f"a word broken inside: {b}" for b in found["broken"]]
    return out


def html_column(table: str, label: str) -> list[str]:
    """The cells of one column of a table drawn by the dashboard's rows (each cell carries its header as
    data-label), as a person reads them: tags dropped, entities unescaped."""
    cells = re.findall(rf'<td data-label="{re.escape(label)}"[^>]*>(.*?)</td>', table, re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", cell)) for cell in cells]
