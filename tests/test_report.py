"""The post-mortem report: sections and numbers against the stored analysis, escaping of hostile
names and notes (HTML and Markdown), no network resources, and the charts drawn by a real browser
with the network off."""

from __future__ import annotations

import dataclasses
import json
import math
import re
import shutil
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clue_stats.analysis.report.html import render_html
from clue_stats.analysis.report.markdown import md_escape, render_markdown, sparkline
from clue_stats.analysis.review.post_mortem import (
    ReportData,
    SuggestionLine,
    best_and_worst,
    gather,
    missing_analysis,
    post_mortem,
    with_analysis,
)
from clue_stats.cli import app
from clue_stats.ingest.store import read_connection
from clue_stats.pipeline import ingest_paths
from tests.helpers import ARGS, CHROMIUM, SAMPLES

runner = CliRunner()
MAIN = "us-family-2026-10-31"  # three players, every hand logged: quick to analyse in full
HOSTILE = "hostile-duel-1"
EVIL_NAME = "<script>alert(1)</script>"
EVIL_NOTE = 'I saw <img src=x onerror="alert(2)"> **bold** [a link](https://evil.example/x) & www.evil.example'


def _rename(value, old: str, new: str):
    """Every string equal to ``old`` inside a JSON value replaced by ``new``."""
    if isinstance(value, dict):
        return {k: _rename(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_rename(v, old, new) for v in value]
    return new if value == old else value


def _hostile_game(folder: Path) -> Path:
    """The duel sample with Mara renamed to a script tag, an HTML place, and a note holding HTML and Markdown."""
    records = [
        json.loads(line)
        for line in (SAMPLES / "de-2023-duel.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    records = [_rename(r, "Mara", EVIL_NAME) for r in records]
    records[0]["id"] = HOSTILE
    records[0]["place"] = "<b>Pub</b> & <i>grill</i>"
    first_suggestion = next(i for i, r in enumerate(records) if r["type"] == "suggest")
    records[first_suggestion]["note"] = EVIL_NOTE + "\nsecond line # not a heading"
    path = folder / "hostile.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Path:
    """A real database: the US family sample and the hostile duel, ingested, then analysed in full
    (`clue-stats analyse`: the whole review)."""
    from clue_stats.pipeline import analyse_store

    folder = tmp_path_factory.mktemp("report")
    games = folder / "games"
    games.mkdir()
    shutil.copy(SAMPLES / "us-clue-family.jsonl", games)
    _hostile_game(games)
    db = folder / "clue.duckdb"
    summary = ingest_paths([str(games)], db, analyse=False, workers=1)  # analysed once, in full, below
    assert (summary.games_stored, summary.games_rejected) == (2, 0)
    assert analyse_store(db, workers=1).games_analysed == 2
    return db


@pytest.fixture(scope="module")
def main(store) -> tuple[ReportData, str]:
    with read_connection(store) as con:
        data = gather(con, MAIN)
    return data, render_html(post_mortem(data))


@pytest.fixture(scope="module")
def hostile(store) -> tuple[str, str]:
    with read_connection(store) as con:
        pm = post_mortem(gather(con, HOSTILE))
    return render_html(pm), render_markdown(pm)


def _sql(db: Path, sql: str, params: list | None = None) -> list[tuple]:
    with read_connection(db) as con:
        return con.execute(sql, params or []).fetchall()


class Page(HTMLParser):
    """Elements, attributes and the text of each section (by its id), from the standard library."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.sections: dict[str, str] = {}
        self.text: list[str] = []
        self._section: str | None = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "section":
            self._section = dict(attrs).get("id")
            self.sections[self._section] = ""

    def handle_endtag(self, tag):
        if tag == "section":
            self._section = None

    def handle_data(self, data):
        self.text.append(data)
        if self._section is not None:
            self.sections[self._section] += data + " "


# --- sections and numbers ---------------------------------------------------------------------------


@pytest.mark.slow
def test_the_report_has_every_section_in_order(main):
    data, html = main
    page = Page(html)
    assert list(page.sections) == ["brief", "entropy", "suggestions", "accusations", "giveaways", "moments"]
    assert [a.get("data-chart") for t, a in page.tags if t == "figure"] == ["entropy", "suggestions"]
    brief = page.sections["brief"]
    # the edition's own display names, not ids
    assert "Colonel Mustard, Rope, Study" in brief and "Clue (US classic)" in brief
    assert "Mrs. Peacock" in brief and "Mom" in brief and "October 31, 2026" in brief  # a date in words
    assert "17 (12 suggestions, 1 accusation)" in brief


def test_entropy_rows_start_at_log2_324_and_match_the_timeline(main):
    from clue_stats.analysis.review.timeline import entropy_frame

    data, html = main
    pm = post_mortem(data)
    frame = entropy_frame(data.game)
    assert [line.observer for line in pm.entropy] == ["Mom", "Dad", "Sam", "table"]
    for line in pm.entropy:
        assert line.start == pytest.approx(math.log2(6 * 6 * 9))
        who = frame["observer"].is_null() if line.is_table else frame["observer"] == line.observer
        assert [e for _, e in line.series] == pytest.approx(frame.filter(who).sort("seq")["entropy"].to_list())
        assert len(line.series) == len(data.game.records) + 1
        # the stored information rows agree with the timeline at every informative record
        observer = None if line.is_table else line.observer
        for row in (r for r in data.information if r["observer"] == observer):
            assert row["entropy_before"] == pytest.approx(dict(line.series)[row["seq"] - 1])
            assert row["entropy_after"] == pytest.approx(dict(line.series)[row["seq"]])
    assert "8.34" in Page(html).sections["entropy"]


def test_best_and_worst_suggestions_follow_the_stored_accuracy(store, main):
    data, html = main
    pm = post_mortem(data)
    stored = _sql(
        store,
        "SELECT seq, accuracy, best_suspect FROM suggestions WHERE game_id = ? AND accuracy IS NOT NULL "
        "ORDER BY accuracy DESC, expected_gain_bits DESC, seq",
        [MAIN],
    )
    assert len(stored) == 12
    assert [s.seq for s in pm.best] == [row[0] for row in stored[:3]]
    worst_stored = [row for row in sorted(stored, key=lambda r: r[1]) if row[1] < 1 - 1e-9]
    assert pm.worst and pm.worst[0].accuracy == pytest.approx(worst_stored[0][1])
    for s in pm.worst:
        # what was best instead is named, in display names
        assert s.best_cards is not None and s.best_gain >= s.expected_gain - 1e-9
        assert all(name in data.game.deck.display.values() for name in s.best_cards)
    section = Page(html).sections["suggestions"]
    assert "what was best instead" in section.lower()
    assert f"{pm.worst[0].accuracy:.0%}" in section


def test_accusation_timing_matches_the_store(store, main):
    data, html = main
    pm = post_mortem(data)
    ((seq, player, p_correct, turns_waited, correct),) = _sql(
        store, "SELECT seq, player, p_correct, turns_waited, correct FROM accusations WHERE game_id = ?", [MAIN]
    )
    certain = dict(_sql(store, "SELECT name, first_certain_seq FROM players WHERE game_id = ?", [MAIN]))
    line = next(t for t in pm.timing if t.player == player)
    assert (line.accused_seq, line.correct, line.turns_waited) == (seq, correct, turns_waited)
    assert line.p_correct == pytest.approx(p_correct)
    assert {t.player: t.certain_seq for t in pm.timing} == certain
    section = Page(html).sections["accusations"]
    # Mom's accusation is the file's line 17, after 12 suggestions, one a turn: the 13th turn
    assert data.game.records[seq - 1].line == 17
    assert "line 17 (turn 13): " in section and f"{p_correct:.0%}" in section


def test_giveaways_add_up_per_refuter(store, main):
    data, _ = main
    pm = post_mortem(data)
    stored = _sql(
        store,
        "SELECT shown_by, count(*), sum(giveaway_bits), max(giveaway_bits) FROM suggestions "
        "WHERE game_id = ? AND shown_by IS NOT NULL GROUP BY shown_by",
        [MAIN],
    )
    assert {g.refuter: g.refutations for g in pm.giveaways} == {r[0]: r[1] for r in stored}
    for refuter, _, total, largest in stored:
        line = next(g for g in pm.giveaways if g.refuter == refuter)
        assert line.total_bits == pytest.approx(total or 0.0)
        assert (line.largest.giveaway if line.largest else 0.0) == pytest.approx(largest or 0.0)
    # every hand is in this log, so the refutations that offered a choice can be counted directly
    hands = data.game.hands()
    for g in pm.giveaways:
        asked = [r for r in data.game.records if r.type == "suggest" and r.shower and r.shower.player == g.refuter]
        assert g.with_choice == sum(len(hands[g.refuter] & set(r.cards)) > 1 for r in asked)


def test_key_moments_are_the_records_that_moved_the_most(store, main):
    data, html = main
    pm = post_mortem(data)
    ranked = _sql(
        store,
        """
        SELECT i.seq, sum(abs(i.gain_bits)) AS moved FROM information i JOIN players p
          ON p.game_id = i.game_id AND p.name = i.observer
        WHERE i.game_id = ? GROUP BY i.seq HAVING moved > 1e-12 ORDER BY moved DESC, i.seq LIMIT 5""",
        [MAIN],
    )
    assert [(m.seq, round(m.moved, 9)) for m in pm.moments] == [(s, round(v, 9)) for s, v in ranked]
    top = pm.moments[0]
    assert top.gains and set(top.gains) <= set(data.game.names)
    assert f"{top.moved:.2f}" in Page(html).sections["moments"]


def test_notes_are_shown(hostile):
    page = Page(hostile[0])
    assert list(page.sections)[-1] == "notes"
    # the note is shown beside its record, in words
    assert re.search(
        r"line \d+ \(turn 1\) Jonas suggested [^;]+;.* I saw <img", page.sections["notes"].replace("\n", " ")
    )


@pytest.mark.slow
def test_the_report_names_a_record_by_the_line_of_its_file_and_the_turn(store, main):
    """Every suggestion in the report is said as the club typed it: its line in the file and its turn
    (the family sample: a game line, three deals, then a suggestion a turn from line 5), in HTML and
    Markdown and in every language; the record's number (seq) is not shown."""
    from clue_stats.analysis.words import speaking

    data, html = main
    suggestions = [r for r in data.game.records if r.type == "suggest"]
    assert [(r.line, r.seq) for r in suggestions[:2]] == [(5, 4), (6, 5)]
    turn = {r.seq: t for t, r in enumerate(suggestions, start=1)}
    page = Page(html).sections["suggestions"]
    pm = post_mortem(data)
    md = render_markdown(pm)
    for r in suggestions:  # HTML: every suggestion; Markdown: the best and the worst
        assert f"line {r.line} (turn {turn[r.seq]})" in page
    shown = [data.game.records[s.seq - 1] for s in pm.best + pm.worst]
    assert len(shown) == 6
    for r in shown:
        assert f"| line {r.line} (turn {turn[r.seq]}) | {r.player} |" in md
    assert "| record |" not in md and "| in the file | player |" in md
    for code, said in (("de", "Zeile {line} (Zug {turn})"), ("sv", "rad {line} (drag {turn})")):
        with speaking(code):
            pm = post_mortem(data)
            md, page = render_markdown(pm), Page(render_html(pm)).sections["suggestions"]
        for r in suggestions:
            assert said.format(line=r.line, turn=turn[r.seq]) in page
        for r in shown:
            assert f"| {said.format(line=r.line, turn=turn[r.seq])} | {r.player} |" in md


def test_a_record_read_from_no_file_is_said_by_its_number_and_says_so():
    from clue_stats.analysis.words.records import Places

    places = Places((1, None, 7), (None, None, 2))
    assert [places(0), places(1), places(2)] == ["line 1", "record 1 (no line of the file known)", "line 7 (turn 2)"]
    assert places(2, start=True) == "Line 7 (turn 2)"


def test_markdown_has_the_same_sections(store):
    with read_connection(store) as con:
        pm = post_mortem(gather(con, MAIN))
    md = render_markdown(pm)
    headings = re.findall(r"^## (.+)$", md, flags=re.M)
    assert headings == [
        "The game in brief",
        "The race to the solution",
        "Best and worst suggestions",
        "When each player could have accused, and when they did",
        "What each refuter gave away",
        "Key moments",
    ]  # and no notes: this log has none
    assert "- **Solution:** Colonel Mustard, Rope, Study" in md
    for line in pm.entropy:
        assert sparkline(line.series, pm.entropy[0].start) in md


# --- escaping ------------------------------------------------------------------------------------------


def test_hostile_names_and_notes_are_text_in_html(hostile):
    html, _ = hostile
    page = Page(html)
    tags = {t for t, _ in page.tags}
    assert "script" not in tags and "img" not in tags and "a" not in tags and "i" not in tags
    assert not re.search(r"<\s*script|<\s*img", html, flags=re.I)
    assert not [name for _, attrs in page.tags for name in attrs if name.startswith("on")]
    text = " ".join(page.text)
    assert EVIL_NAME in text  # shown, as text, in the tables ...
    assert EVIL_NOTE in text
    assert "<b>Pub</b> & <i>grill</i>" in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    # ... and in the chart legend, escaped by Vega
    svg = html[html.index("<svg") : html.index("</svg>")]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg


def test_hostile_names_and_notes_are_text_in_markdown(hostile):
    from markdown_it import MarkdownIt

    _, md = hostile
    # a forum that passes raw HTML through, with tables
    rendered = MarkdownIt("commonmark", {"html": True}).enable("table").render(md)
    assert not re.search(r"<\s*script|<\s*img|<a\s|<strong>bold|<i>|<b>Pub", rendered, flags=re.I)
    page = Page(rendered)
    text = " ".join(page.text)
    assert EVIL_NAME in text and "<b>Pub</b> & <i>grill</i>" in text
    assert "**bold** [a link](https://evil.example/x)" in text
    assert "second line # not a heading" in text  # the line break became a space, not a new block
    assert sum(t in ("h1", "h2", "h3", "h4", "h5", "h6") for t, _ in page.tags) == 1 + md.count("\n## ")


@pytest.mark.parametrize(
    "text", ["<script>x</script>", "*a* _b_ `c` [d](e) ![f](g) <h@i.j> www.k.l http://m.n |o| #p ~q~ &amp; $r$ \\s"]
)
def test_md_escape_leaves_only_text(text):
    from markdown_it import MarkdownIt

    rendered = MarkdownIt("commonmark", {"html": True}).render(md_escape(text))
    body = rendered.removeprefix("<p>").removesuffix("</p>\n")
    assert "<" not in body.replace("&lt;", "")  # no element at all
    page = Page(rendered)
    assert "".join(page.text).strip() == text


def test_no_network_resources_in_the_html(main, hostile):
    # the hostile note holds an address as text; nothing else may
    for html in (main[1], hostile[0].replace("https://evil.example/x", "")):
        assert "http://" not in html and "https://" not in html
        page = Page(html)
        assert not [a for _, a in page.tags if any(k in a for k in ("src", "href"))]
        assert not re.search(r"@import|url\(", html)
        csp = [a["content"] for t, a in page.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
        assert csp and "default-src 'none'" in csp[0]


# --- pure parts on small cases ---------------------------------------------------------------------


def _line(seq, accuracy, expected, best=1.0):
    return SuggestionLine(
        seq=seq,
        player="A",
        cards=("s", "w", "r"),
        shown_by=None,
        shown_card=None,
        expected_gain=expected,
        best_gain=best,
        best_cards=("s", "w", "r"),
        accuracy=accuracy,
        label=None,
        giveaway=None,
        bits_lost=None if expected is None else best - expected,
    )


def test_best_and_worst_rank_by_accuracy_then_gain():
    lines = [
        _line(1, 1.0, 0.5),
        _line(2, 0.4, 0.4),
        _line(3, 1.0, 0.9),
        _line(4, 0.9, 0.9),
        _line(5, 0.4, 0.2, 2.0),
        _line(6, None, None),
    ]
    best, worst = best_and_worst(lines, n=2)
    assert [s.seq for s in best] == [3, 1]
    assert [s.seq for s in worst] == [5, 2]  # the most bits lost first (5: 1.8 bits; 2: 0.6)
    best, worst = best_and_worst([_line(1, 1.0, 0.0), _line(2, 1.0, 0.3)], n=3)
    assert [s.seq for s in best] == [2, 1] and worst == []


def test_sparkline_reads_the_value_at_the_end_of_each_slice():
    series = [(0, 8.0), (1, 8.0), (2, 4.0), (3, 4.0), (4, 0.0)]
    assert sparkline(series, 8.0, width=4) == "█▅▅▁"
    assert sparkline([], 8.0) == "" and sparkline(series, 0.0) == ""


def _chart_values(chart) -> list[list[dict]]:
    """The rows each layer of a chart draws."""
    spec = chart.to_dict()  # altair keeps inline rows under "datasets", by name
    return [spec["datasets"][layer.get("data", spec.get("data"))["name"]] for layer in spec["layer"]]


def test_a_long_games_suggestions_are_drawn_a_bar_per_run_of_suggestions(monkeypatch):
    """Past MAX_BARS rated suggestions the chart draws runs of consecutive ones: their mean expected
    and best gains and the label most of them got, never a bar per suggestion."""
    from clue_stats.analysis.report import svg_charts as report_charts

    labels = ["best", "blunder", "blunder", "good", "best", "mistake", "mistake"]  # a tie: the better
    lines = [
        dataclasses.replace(_line(10 + i, 0.5, i / 10, best=1.0 + i), label=label) for i, label in enumerate(labels)
    ]
    assert len(_chart_values(report_charts.suggestion_chart(lines))[0]) == 7  # a bar each
    monkeypatch.setattr(report_charts, "MAX_BARS", 3)
    assert report_charts.suggestion_window(7) == 3
    bars = _chart_values(report_charts.suggestion_chart(lines))[0]
    assert [(b["seq"], b["to"], b["label"]) for b in bars] == [
        (10, 13, "blunder"),
        (13, 16, "best"),
        (16, 17, "mistake"),
    ]
    assert [b["expected"] for b in bars] == pytest.approx([0.1, 0.4, 0.6])
    assert [b["best"] for b in bars] == pytest.approx([2.0, 5.0, 7.0])


def test_a_long_entropy_line_keeps_the_last_change_of_each_window(monkeypatch):
    from clue_stats.analysis.review import rows as game_review

    series = [(seq, float(seq % 2)) for seq in range(101)]  # a change at every record
    assert game_review.steps(series) == [(seq, round(h, 6)) for seq, h in series]
    monkeypatch.setattr(game_review, "MAX_POINTS", 10)
    kept = game_review.steps(series)
    assert kept[0] == (0, 0.0) and kept[-1] == (100, 0.0) and len(kept) <= 12
    # each a point of the line (the value from its record on), the last change in its window of 11
    assert all(h == float(seq % 2) for seq, h in kept)
    assert [seq for seq, _ in kept[1:-1]] == [10, 21, 32, 43, 54, 65, 76, 87, 98, 99]


# --- the command ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_command_writes_html_and_markdown(store, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["report", MAIN, "--db", str(store)])
    assert result.exit_code == 0, result.output
    written = tmp_path / f"{MAIN}.html"
    assert written.exists() and "<svg" in written.read_text(encoding="utf-8")
    assert f"wrote the post-mortem of {MAIN} to {MAIN}.html" in result.stdout
    result = runner.invoke(app, ["report", MAIN, "--db", str(store), "--json", "--out", "again.html"])
    summary = json.loads(result.stdout)
    # every suggestion as the review stored it: each column of the table but the game's id, by its ids
    suggestions = summary.pop("suggestions")
    with read_connection(store) as con:
        stored = con.frame("SELECT * EXCLUDE (game_id) FROM suggestions WHERE game_id = ? ORDER BY seq", [MAIN])
    assert suggestions == stored.to_dicts() and len(suggestions) == 12
    assert {"bits_lost", "gained_bits", "shown_by", "best_suspect"} <= set(suggestions[0])
    assert summary == {
        "game_id": MAIN,
        "out": "again.html",
        "format": "html",
        "bytes": (tmp_path / "again.html").stat().st_size,
        "analysis_computed": False,
    }
    result = runner.invoke(app, ["report", MAIN, "--db", str(store), "--format", "md", "--out", "-"])
    assert result.exit_code == 0 and result.stdout.startswith(f"# Post-mortem: {MAIN}")
    target = tmp_path / "sub" / "r.md"
    target.parent.mkdir()
    assert (
        runner.invoke(app, ["report", HOSTILE, "--db", str(store), "--format", "MD", "--out", str(target)]).exit_code
        == 0
    )
    assert target.read_text(encoding="utf-8").startswith(f"# Post-mortem: {HOSTILE}")


@pytest.mark.slow
def test_the_command_explains_mistakes(store, tmp_path):
    missing = runner.invoke(app, ["report", "us-family-2026-10", "--db", str(store)])
    assert missing.exit_code == 2 and f"did you mean '{MAIN}'" in missing.stderr and "Traceback" not in missing.output
    bad_format = runner.invoke(app, ["report", MAIN, "--db", str(store), "--format", "pdf"])
    assert bad_format.exit_code == 2 and "--format must be html or md" in bad_format.stderr
    no_db = runner.invoke(app, ["report", MAIN, "--db", str(tmp_path / "none.duckdb")])
    assert no_db.exit_code == 1 and "no such database" in no_db.stderr
    no_folder = runner.invoke(app, ["report", MAIN, "--db", str(store), "--out", str(tmp_path / "x" / "y.html")])
    assert no_folder.exit_code == 2 and "no such folder" in no_folder.stderr


DUEL = "duell-2026-11-21"


@pytest.mark.slow
def test_a_game_stored_without_analysis_gets_it_computed_for_the_report(tmp_path):
    from clue_stats.pipeline import analyse_store

    db = tmp_path / "plain.duckdb"
    ingest_paths([str(SAMPLES / "de-2023-duel.jsonl")], db, analyse=False, workers=1)
    with read_connection(db) as con:
        plain = gather(con, DUEL)
    assert missing_analysis(plain) == "the analysis"
    # --stored-only: what the store holds, and says how to get the rest
    pm = post_mortem(plain)
    assert not pm.brief.analysed and pm.best == [] and pm.moments == [] and len(pm.entropy) == 3
    html, md = render_html(pm, charts=False), render_markdown(pm)
    assert "clue-stats analyse" in html and "clue-stats analyse" in md
    stored_only = runner.invoke(app, ["report", DUEL, "--db", str(db), "--stored-only", "--out", "-", "--format", "md"])
    assert (
        stored_only.exit_code == 0
        and "computing" not in stored_only.stderr
        and "Not analysed yet" in stored_only.stdout
    )
    # by default the command computes it in memory, and says so
    computed = runner.invoke(app, ["report", DUEL, "--db", str(db), "--out", "-", "--format", "md"])
    assert computed.exit_code == 0 and f"computing the analysis of {DUEL}" in computed.stderr
    assert "The analysis was computed for this report" in computed.stdout and "**Worst" in computed.stdout
    # ... and it is exactly what `clue-stats analyse` then stores
    in_memory = with_analysis(plain)
    analyse_store(db, workers=1)
    with read_connection(db) as con:
        stored = gather(con, DUEL)
    assert missing_analysis(stored) is None and in_memory.computed and not stored.computed
    for table in ("suggestions", "accusations", "information"):
        assert _comparable(getattr(in_memory, table)) == _comparable(getattr(stored, table)), table
    assert [p["first_certain_seq"] for p in in_memory.players] == [p["first_certain_seq"] for p in stored.players]
    assert render_markdown(post_mortem(in_memory)).replace(
        "_The analysis was computed for this report; the database does not hold it (`clue-stats analyse` stores it)._\n\n",
        "",
    ) == render_markdown(post_mortem(stored))


@pytest.mark.slow
def test_refuters_whose_hand_is_not_in_the_log_say_so(tmp_path):
    """Anna's notebook holds her hand only: whether the others had a choice of card is not known,
    and the refuters' table says why instead of a bare dash, in HTML and in Markdown."""
    db = tmp_path / "notebook.duckdb"
    ingest_paths([str(SAMPLES / "de-2023-anna-notebook.jsonl")], db, analyse=True, workers=1)
    with read_connection(db) as con:
        [(game_id,)] = con.execute("SELECT game_id FROM games").fetchall()
        pm = post_mortem(gather(con, game_id))
    refuters = {g.refuter: g for g in pm.giveaways}
    assert refuters["Anna"].with_choice is not None and refuters["Ben"].with_choice is None
    section = Page(render_html(pm, charts=False)).sections["giveaways"]
    assert re.search(r"Ben \d+ hand not in the log", section) and not re.search(r"Anna \d+ hand not", section)
    assert re.search(r"\| Ben \| \d+ \| hand not in the log \|", render_markdown(pm))


def _comparable(rows: list[dict]) -> list[dict]:
    """Rows with floats rounded (the store keeps doubles; the analysis may hand over exact fractions)."""

    def value(v):
        return round(float(v), 9) if isinstance(v, (float, Fraction)) else v

    return sorted(
        ({k: value(v) for k, v in row.items()} for row in rows), key=lambda r: (r["seq"], str(r.get("observer")))
    )


def test_timing_verdicts_on_a_game_small_enough_to_check_by_hand():
    from clue_stats.analysis.computers.accusations import missed_win, turns_waited
    from clue_stats.analysis.review.post_mortem import timing_lines
    from clue_stats.ingest.store import game_from_payloads

    records = [
        {
            "type": "game",
            "format": "clue-log/1",
            "id": "t",
            "edition": "classic",
            "players": [{"name": "A"}, {"name": "B"}, {"name": "C"}, {"name": "D"}],
        },
        {"type": "turn", "player": "A"},  # 1
        {
            "type": "suggest",
            "player": "A",
            "suspect": "plum",
            "weapon": "rope",
            "room": "hall",
            "responses": [{"player": "B", "shows": "?"}],
        },  # 2: A certain from here
        {"type": "turn", "player": "B"},  # 3
        {
            "type": "suggest",
            "player": "B",
            "suspect": "green",
            "weapon": "rope",
            "room": "hall",
            "responses": [{"player": "C", "shows": "?"}],
        },  # 4: B certain from here, and has turn 3 left
        {"type": "turn", "player": "C"},  # 5: C's only turn ends where the next begins
        {"type": "turn", "player": "A"},  # 6: C certain from here: too late
        {"type": "accuse", "player": "A", "suspect": "plum", "weapon": "rope", "room": "hall", "correct": True},  # 7
        {"type": "end", "winner": "A", "solution": {"suspect": "plum", "weapon": "rope", "room": "hall"}},
    ]
    game = game_from_payloads([json.dumps(r) for r in records])
    certain = {"A": 2, "B": 4, "C": 6, "D": None}
    waited = turns_waited(game, "A", 2, 7)
    assert waited == 1  # turn 1 ended after seq 2; turn 6 is the accusing one
    # players.missed_win as the analysis computes it: B had the rest of turn 3, C no turn left
    missed = {n: missed_win(game, n, certain[n], n == "A", None) for n in "ABCD"}
    assert missed == {"A": False, "B": True, "C": False, "D": False}
    data = ReportData(
        game=game,
        header={"winner": "A", "analysis_version": 1},
        players=[
            {"seat": i, "name": n, "first_certain_seq": certain[n], "missed_win": missed[n]}
            for i, n in enumerate("ABCD")
        ],
        suggestions=[],
        information=[],
        accusations=[
            {
                "seq": 7,
                "player": "A",
                "suspect": "plum",
                "weapon": "rope",
                "room": "hall",
                "correct": True,
                "p_correct": 1.0,
                "turns_waited": waited,
            }
        ],
    )
    verdicts = {t.player: t.verdict for t in timing_lines(data)}
    assert verdicts == {
        "A": "waited 1 own turn after being certain",
        "B": "missed win: certain, never accused",
        "C": "certain, but had no turn left to accuse",
        "D": "never certain, never accused",
    }
    line = timing_lines(data)[0]
    assert (line.certain_seq, line.accused_seq, line.accused_cards) == (2, 7, ("Professor Plum", "Rope", "Hall"))
    assert line.certain_after == "A suggested Professor Plum, Rope, Hall; B showed a card"


# --- a real browser, network off ------------------------------------------------------------------


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium")
@pytest.mark.slow  # a real browser
def test_chromium_offline_shows_the_charts_and_runs_no_script(store, tmp_path, hostile):
    from playwright.sync_api import sync_playwright

    reports = {"main": tmp_path / "main.html", "hostile": tmp_path / "hostile.html"}
    with read_connection(store) as con:
        reports["main"].write_text(render_html(post_mortem(gather(con, MAIN))), encoding="utf-8")
    reports["hostile"].write_text(hostile[0], encoding="utf-8")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            context = browser.new_context(offline=True)
            requested: list[str] = []

            def only_files(route):
                requested.append(route.request.url)
                if route.request.url.startswith("file://"):
                    route.continue_()
                else:
                    route.abort()

            context.route("**/*", only_files)
            page = context.new_page()
            dialogs: list[str] = []
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            for name, path in reports.items():
                page.goto(path.as_uri())
                page.wait_for_load_state("load")
                # each chart is drawn twice, for a wide screen and for a phone: the wide one shows here
                assert page.locator("figure.chart .narrow svg").count() == 2, name
                charts = page.locator("figure.chart .wide svg")
                assert charts.count() == 2, name
                for i in range(2):
                    box = charts.nth(i).bounding_box()
                    assert box is not None and box["width"] > 300 and box["height"] > 150
                    # drawn marks: the entropy lines and the suggestion bars
                    assert charts.nth(i).locator("path").count() > 10
                legend = page.locator("figure[data-chart=entropy] svg text").all_text_contents()
                players = [
                    r[0]
                    for r in _sql(
                        store, "SELECT name FROM players WHERE game_id = ?", [MAIN if name == "main" else HOSTILE]
                    )
                ]
                assert len(players) >= 2 and set(players) <= set(legend)
                if name == "hostile":
                    assert EVIL_NAME in page.inner_text("#brief")
                    assert page.locator("script, img").count() == 0
                # fluid on a phone: wide tables scroll in their own box, the page never sideways
                page.set_viewport_size({"width": 390, "height": 844})
                assert page.evaluate("document.documentElement.scrollWidth") <= 390, name
                page.set_viewport_size({"width": 1280, "height": 720})
            assert dialogs == []
            assert all(url.startswith("file://") for url in requested)
        finally:
            browser.close()


def test_a_player_has_one_colour_in_the_review_the_replay_and_the_report(store, main):
    """Each player's colour, chosen once per game by seat (analysis.review.charts.player_colours): the
    same in the review's race chart, the replay's chart and the HTML report's race (its SVG)."""
    from clue_stats.analysis.review.charts import player_colours, race_chart
    from clue_stats.analysis.review.rows import race
    from clue_stats.dashboard.app_pages.replay_charts import uncertainty

    data, page = main
    pm = post_mortem(data)
    seats = [p.name for p in data.game.players]
    colours = player_colours(seats)
    assert len(set(colours.values())) == len(seats)  # a colour each

    def scale_of(spec: dict) -> dict[str, str]:
        found: dict[str, str] = {}

        def walk(node: object) -> None:
            if isinstance(node, dict):
                colour = node.get("color")
                if isinstance(colour, dict) and colour.get("field") == "observer" and "scale" in colour:
                    found.update(zip(colour["scale"]["domain"], colour["scale"]["range"]))
                for value in node.values():
                    walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)

        walk(spec)
        return found

    review = scale_of(race_chart(race(pm)).to_dict())
    replay = scale_of(uncertainty(10, seats[0], tuple(seats), "the table").to_dict())
    for name in seats:
        assert review[name] == replay[name] == colours[name], name
    # the report draws each player's line in that colour: the SVG strokes them so
    figure = page.split('data-chart="entropy"', 1)[1].split("</figure>", 1)[0]
    for name in seats:
        assert f'stroke="{colours[name]}"' in figure, name
