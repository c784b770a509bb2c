"""The documentation travels with the tool: `clue-stats docs`, the dashboard's Help page, and no
pointer in what a user reads to a file an installed tool does not have."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from typer.main import get_command
from typer.testing import CliRunner

from clue_stats.analysis.words import topics as docs
from clue_stats.cli import app
from tests.helpers import ROOT, SAMPLES

runner = CliRunner()
DOCS = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
SHIPPED = ["clue_stats", "engine", "ingest", "analysis", "dashboard"]


def test_every_file_of_docs_is_a_topic_listed_by_the_command():
    assert sorted(t.name for t in docs.topics()) == DOCS
    result = runner.invoke(app, ["docs", "--json"])
    assert result.exit_code == 0
    listed = json.loads(result.stdout)["topics"]
    assert sorted(t["name"] for t in listed) == DOCS
    league = next(t for t in listed if t["name"] == "league")
    assert league["title"] == (ROOT / "docs" / "league.md").read_text(encoding="utf-8").splitlines()[0][2:]
    table = runner.invoke(app, ["docs"], env={"COLUMNS": "160"}).stdout
    assert all(name in table for name in DOCS) and "clue-stats docs TOPIC" in table


@pytest.mark.parametrize(
    ("code", "title"), [("en", "Record a game"), ("de", "Partie aufzeichnen"), ("sv", "Spela in ett parti")]
)
def test_recording_a_game_is_the_first_topic_in_every_language(code: str, title: str) -> None:
    """A club's first question is how a game gets in: "Record a game" leads the list, in the reader's
    language (the topic is translated, not left English)."""
    assert json.loads(runner.invoke(app, ["docs", "--json"]).stdout)["topics"][0]["name"] == "recording"
    result = runner.invoke(app, ["--lang", code, "docs"], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    rows = [line.strip().split(None, 1) for line in result.stdout.splitlines() if line.strip()]
    assert rows[1] == ["recording", title]  # the first row under the table's head


def test_a_topic_is_printed_with_its_links_naming_the_command():
    raw = runner.invoke(app, ["docs", "analysis", "--raw"])
    assert raw.exit_code == 0
    written = (ROOT / "docs" / "analysis.md").read_text(encoding="utf-8")
    assert re.search(r"\]\([a-z-]+\.md", written), "the test needs a link between topics"
    assert raw.stdout.startswith(written.splitlines()[0])
    assert not re.search(r"\]\([a-z-]+\.md", raw.stdout)
    assert "](clue-stats docs " in raw.stdout
    shown = runner.invoke(app, ["docs", "league.md"], env={"COLUMNS": "100"})
    assert shown.exit_code == 0 and "The league" in shown.stdout and "# The league" not in shown.stdout


def test_an_unknown_topic_is_a_usage_error_naming_the_topics():
    result = runner.invoke(app, ["docs", "leage"])
    assert result.exit_code == 2
    assert "no help topic 'leage'" in result.stderr and "league" in result.stderr and "Traceback" not in result.output


def _strings_people_read(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module other than docstrings (captions, help texts, messages)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


@pytest.mark.slow
def test_what_people_read_points_only_at_topics_the_tool_has():
    """A caption, help text or report line that says "docs/league.md" sends an installed tool's user to a
    file they do not have; they are told `clue-stats docs league` or the Help page instead, of a topic
    that exists."""
    wrong, unknown = [], []
    for folder in SHIPPED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for line, text in _strings_people_read(path):
                if re.search(r"\bdocs/|\b[a-z-]+\.md\b", text):
                    wrong.append(f"{path.relative_to(ROOT)}:{line}: {text[:80]!r}")
                for name in re.findall(r"clue-stats docs ([a-z-]+)|help\?topic=([a-z-]+)", text):
                    if (name[0] or name[1]) not in DOCS:
                        unknown.append(f"{path.relative_to(ROOT)}:{line}: {name}")
    assert not wrong, wrong
    assert not unknown, unknown


@pytest.mark.slow
def test_no_command_help_points_at_a_file():
    commands = get_command(app).commands  # type: ignore[attr-defined]  # a group (typer's own click)
    assert "docs" in commands and "ingest" in commands
    for name in commands:
        result = runner.invoke(app, [name, "--help"], env={"COLUMNS": "200"})
        assert result.exit_code == 0, name
        assert not re.search(r"\bdocs/|\b[a-z-]+\.md\b", result.stdout), (name, result.stdout)


# ---------------------------------------------------------------- the dashboard's Help page


def _help_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **query: str) -> AppTest:
    from clue_stats import pipeline

    db = tmp_path / "help.duckdb"
    pipeline.ingest_paths([str(SAMPLES / "us-clue-family.jsonl")], db, analyse=False, workers=1)
    monkeypatch.setenv("CLUE_STATS_DB", str(db))
    at = AppTest.from_file(str(ROOT / "dashboard" / "app.py"), default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    at.switch_page("app_pages/help.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.slow
def test_the_help_page_shows_the_topic_of_its_address_with_links_to_other_topics(tmp_path, monkeypatch):
    at = _help_page(tmp_path, monkeypatch, topic="league")
    assert at.title[0].value == "Help"
    assert at.selectbox[0].value == "league"
    text = "\n".join(m.value for m in at.markdown)
    assert "The league: ratings, players" in text
    assert not re.search(r"\]\([a-z-]+\.md", text)
    assert "](?topic=report)" in text  # league.md links to report.md


@pytest.mark.slow
def test_the_help_page_says_so_for_a_topic_it_does_not_have(tmp_path, monkeypatch):
    at = _help_page(tmp_path, monkeypatch, topic="<script>")
    assert any("no help topic" in w.value for w in at.warning)
    assert at.selectbox[0].value == "getting-started"  # where a new reader starts
    assert not at.error


# ---------------------------------------------------------------- the topics in German and Swedish


def test_a_topic_is_cut_into_blocks_that_put_it_together_again():
    """Every translated topic, put together from its blocks untranslated, is the same Markdown: the
    same words in the same order, code blocks line for line (a paragraph's lines are joined)."""
    for name in docs.TRANSLATED:
        written = (ROOT / "docs" / f"{name}.md").read_text(encoding="utf-8")
        blocks = docs.blocks(written)
        again = "".join(b.text if not b.message else f"{b.prefix}{b.text}\n" for b in blocks)
        assert again.split() == written.split(), name
        fences = [b.text for b in blocks if not b.message and b.text.lstrip().startswith("```")]
        assert fences == re.findall(r"^```.*?^```\n", written, flags=re.S | re.M), name
        assert not any("```" in b.text for b in blocks if b.message), name  # code is never a message


@pytest.mark.parametrize("code", ["de", "sv"])
def test_the_translated_topics_are_in_the_language_and_their_links_find_their_headings(code):
    english = {t.name: t for t in docs.topics("en")}
    for t in docs.topics(code):
        if t.name not in docs.TRANSLATED:
            assert t.language == "en" and t.text == english[t.name].text
            continue
        assert t.language == code and t.title != english[t.name].title, t.name
        assert len(t.text.split()) > 0.7 * len(english[t.name].text.split())
        # every code block of the English is there, untouched
        assert re.findall(r"^```.*?^```", t.text, flags=re.S | re.M) == re.findall(
            r"^```.*?^```", english[t.name].text, flags=re.S | re.M
        )
        headings = [docs.slug(h) for h in re.findall(r"^#{1,6} (.+)$", t.text, flags=re.M)]
        assert len(headings) == len(set(headings)), (t.name, "two headings read the same")
    by_name = {t.name: t for t in docs.topics(code)}
    links = []
    for t in by_name.values():
        docs.relink(t.text, lambda name, anchor, source=t.name: links.append((source, name, anchor)) or "", code)
    assert any(anchor for _, _, anchor in links), "the test needs a link with an anchor"
    for source, target, anchor in links:
        assert target in by_name, (source, target)
        if anchor:
            heads = {docs.slug(h) for h in re.findall(r"^#{1,6} (.+)$", by_name[target].text, flags=re.M)}
            assert anchor[1:] in heads, (source, target, anchor)


def test_the_docs_command_speaks_the_chosen_language_and_json_stays_as_written():
    german = runner.invoke(app, ["--lang", "de", "docs", "league", "--raw"])
    assert german.exit_code == 0, german.output
    assert german.stdout.startswith("# ") and "Spieleabend" in german.stdout
    assert german.stdout.splitlines()[0] != (ROOT / "docs" / "league.md").read_text(encoding="utf-8").splitlines()[0]
    listing = runner.invoke(app, ["--lang", "sv", "docs"], env={"COLUMNS": "160"})
    assert docs.topic("league", "sv").title in listing.stdout
    as_json = runner.invoke(app, ["--lang", "de", "docs", "league", "--json"])
    assert json.loads(as_json.stdout)["markdown"] == (ROOT / "docs" / "league.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_help_page_shows_a_topic_in_the_readers_language_and_says_when_it_is_english(tmp_path, monkeypatch):
    at = _help_page(tmp_path, monkeypatch, topic="league")
    next(s for s in at.sidebar.selectbox if s.key == "language").set_value("de").run()
    assert at.title[0].value == "Hilfe"
    text = "\n".join(m.value for m in at.markdown)
    assert docs.topic("league", "de").title in text and "The league: ratings, players" not in text
    assert not at.info
    at.query_params["topic"] = "performance"
    at.selectbox[0].set_value("performance").run()
    assert any("auf Englisch" in i.value for i in at.info)


@pytest.mark.parametrize("code", ["en", "de", "sv"])
def test_the_dashboards_help_links_name_a_section_the_topic_has_in_every_language(code):
    """A caption's link to a section of a topic (help_link(..., "names-and-merging")) names its
    English heading's anchor; in every language it leads to that section's heading as the Help page
    spells it."""
    calls = [
        (topic, anchor)
        for path in sorted((ROOT / "dashboard").rglob("*.py"))
        for topic, anchor in re.findall(
            r'help_link\(\s*"([a-z-]+)",[^()]*(?:\([^()]*\))?[^()]*?,\s*"([a-z0-9_-]+)"\)', path.read_text()
        )
    ]
    assert len(calls) >= 3, calls
    for topic, anchor in calls:
        heading = docs.topic(topic, code).anchors.get(anchor)
        assert heading is not None, (topic, anchor)
        assert docs.heading_anchor(topic, anchor, code, docs.page_anchor) == docs.page_anchor(heading)
