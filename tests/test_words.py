"""The languages: every catalogue whole (every message of the code, translated, none left over, the
compiled .mo the .po), the language chosen as people expect (--lang, CLUE_STATS_LANG, the system's
locale, English), numbers, dates and plurals as each language writes them, and the reports in German
and Swedish with no English message left in them."""

from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from typer.testing import CliRunner

from clue_stats import help_screens, pipeline
from clue_stats.analysis import words
from clue_stats.cli import app
from clue_stats.ingest import store
from tests.helpers import LATE_GAME, ROOT, SAMPLES, SEASON, write_games

runner = CliRunner()
TRANSLATED = [code for code in words.LANGUAGES if code != words.SOURCE]
KEYWORDS = {"_": None, "N_": None, "T_": None, "n_": (2, 3), "nT_": (2, 3)}  # as `make catalogues` extracts them
FIELD = re.compile(r"\{\w+\}")


def _source_messages() -> set[str | tuple[str, str]]:
    found: set[str | tuple[str, str]] = set()
    for folder in ("analysis", "clue_stats", "dashboard", "ingest", "engine"):
        for _file, _line, message, _comments, _context in extract_from_dir(
            ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            found.add(message if isinstance(message, str) else (message[0], message[1]))
    return found | set(help_screens.texts(app))  # the --help texts (make catalogues extracts them too)


def _catalogue(code: str):
    with (words.LOCALE_DIR / code / "LC_MESSAGES" / f"{words.DOMAIN}.po").open("rb") as f:
        return read_po(f, locale=code)


@pytest.mark.slow
@pytest.mark.parametrize("code", TRANSLATED)
def test_every_catalogue_has_every_message_translated_and_none_left_over(code: str) -> None:
    source = _source_messages()
    catalogue = _catalogue(code)
    held = {m.id for m in catalogue if m.id}
    assert not source - held, (
        f"{code}: messages not in the catalogue (make catalogues): {sorted(map(str, source - held))}"
    )
    assert not held - source, f"{code}: messages the code no longer says: {sorted(map(str, held - source))}"
    for m in catalogue:
        if not m.id:
            continue
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        assert all(strings) and not m.fuzzy, f"{code}: {m.id!r} is not translated"
        # what pybabel compile checks (a "% i" in the English is a printf placeholder to it): make catalogues
        # stops on an error
        assert not m.check(catalogue), f"{code}: {m.id!r}: {m.check(catalogue)}"
        # a translation keeps the fields its sentence fills in
        for s in strings:
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            assert set(FIELD.findall(s)) <= set(FIELD.findall(" ".join(ids))), (code, m.id, s)
            assert set(FIELD.findall(ids[-1])) - {"{n}"} <= set(FIELD.findall(s)), (code, m.id, s)
    # the program reads the .mo: it must be the .po compiled
    with (words.LOCALE_DIR / code / "LC_MESSAGES" / f"{words.DOMAIN}.mo").open("rb") as f:
        compiled = {_key(m.id): _key(m.string) for m in read_mo(f) if m.id}
    assert compiled == {_key(m.id): _key(m.string) for m in catalogue if m.id}, f"{code}: the .mo is older than the .po"


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_docs_catalogue_has_every_block_of_the_translated_topics_and_none_left_over(code: str) -> None:
    """The translated topics (analysis.words.topics.TRANSLATED) as `make catalogues` extracts them: every block
    in the docs catalogue, translated, none left over, pybabel's checks passed, the .mo the .po."""
    source = {
        message
        for _file, _line, message, _comments, _context in extract_from_dir(
            ROOT / "docs", method_map=[("**.md", "clue_stats.analysis.words.topics:extract")]
        )
    }
    assert len(source) > 500  # every translated topic's blocks
    with (words.LOCALE_DIR / code / "LC_MESSAGES" / "docs.po").open("rb") as f:
        catalogue = read_po(f, locale=code)
    held = {m.id for m in catalogue if m.id}
    assert not source - held, f"{code}: blocks not in the docs catalogue (make catalogues): {sorted(source - held)[:5]}"
    assert not held - source, f"{code}: blocks the topics no longer have: {sorted(map(str, held - source))[:5]}"
    for m in catalogue:
        if m.id:
            assert m.string and not m.fuzzy, f"{code}: {m.id[:80]!r} is not translated"
            assert "\n" not in m.string and not m.check(catalogue), (code, m.id[:80])
    with (words.LOCALE_DIR / code / "LC_MESSAGES" / "docs.mo").open("rb") as f:
        compiled = {m.id: m.string for m in read_mo(f) if m.id}
    assert compiled == {m.id: m.string for m in catalogue if m.id}, f"{code}: the docs .mo is older than the .po"


def _key(value):
    return tuple(value) if isinstance(value, (list, tuple)) else value


def test_the_language_is_chosen_as_people_expect(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("CLUE_STATS_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr(words.system_locale, "getlocale", lambda: (None, None))
    words._default.cache_clear()  # the system locale is asked once per environment
    assert words.choose() == "en"  # nothing says: English
    monkeypatch.setenv("LANG", "sv_SE.UTF-8")
    assert words.choose() == "sv"  # the system's locale
    monkeypatch.setenv("CLUE_STATS_LANG", "de")
    assert words.choose() == "de"  # the variable over the locale
    assert words.choose("sv-SE") == "sv"  # --lang over both
    monkeypatch.setenv("CLUE_STATS_LANG", "fr")
    assert words.choose() == "sv"  # a language we do not have is passed over
    with pytest.raises(ValueError, match="--lang must be one of en, de, sv, not 'fr'"):
        words.choose("fr")


def test_numbers_dates_and_plurals_as_each_language_writes_them() -> None:
    said = {}
    for code in words.LANGUAGES:
        with words.speaking(code):
            said[code] = (
                words.n_(1, "{n} game", "{n} games"),
                words.n_(1007, "{n} game", "{n} games"),
                words.decimal(0.8234),
                words.percent(0.28),
                words.percent(0.995, 1),
                words.when("2026-09-04T20:30"),
                words.label_word("blunder"),
            )
    # English dates through Babel too, never the log's ISO with its "T"
    assert said["en"] == ("1 game", "1,007 games", "0.82", "28%", "99.5%", "September 4, 2026, 8:30\u202fPM", "blunder")
    assert said["de"] == (
        "1 Partie",
        "1.007 Partien",
        "0,82",
        "28\xa0%",
        "99,5\xa0%",
        "4. September 2026, 20:30",
        "Patzer",
    )
    assert said["sv"] == (
        "1 parti",
        "1\xa0007 partier",
        "0,82",
        "28\xa0%",
        "99,5\xa0%",
        "4 september 2026 20:30",
        "blunder",
    )
    with words.speaking("de"):
        assert [words.label_word(x) for x in ("inaccuracy", "mistake")] == ["Ungenauigkeit", "Fehler"]
    with words.speaking("sv"):
        assert [words.label_word(x) for x in ("inaccuracy", "mistake")] == ["felaktighet", "misstag"]


# --- the reports in German and Swedish ---------------------------------------------------------------


class _Text(HTMLParser):
    """The text a reader sees (charts' SVG text included), and the table headers."""

    def __init__(self, page: str):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.heads: list[str] = []
        self._in: list[str] = []
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        self._in.append(tag)

    def handle_endtag(self, tag):
        while self._in and self._in.pop() != tag:
            pass

    def handle_data(self, data):
        if "style" in self._in or "title" in self._in:
            return
        self.parts.append(data)
        if self._in and self._in[-1] == "th":
            self.heads.append(data.strip())

    @property
    def text(self) -> str:
        return " ".join(" ".join(self.parts).split())


def _english(code: str) -> tuple[list[str], set[str]]:
    """What of the English source text would show that a page in ``code`` has passed the catalogue
    by: every phrase of two words or more of a message the language says differently, and the
    single words."""
    phrases, single = [], set()
    for m in _catalogue(code):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        for english in ids:
            if english in strings:
                continue
            for piece in FIELD.split(english):
                piece = piece.strip(" .,:;()–-")
                if " " in piece and len(piece) >= 8:
                    phrases.append(piece)
                elif piece and " " not in piece:
                    single.add(piece)
    return phrases, single


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The US family sample and the season of the night's tests, ingested and analysed."""
    root = tmp_path_factory.mktemp("words")
    games = root / "games"
    games.mkdir()
    shutil.copy(SAMPLES / "us-clue-family.jsonl", games)
    (games / "late.jsonl").write_text("".join(json.dumps(r) + "\n" for r in LATE_GAME), encoding="utf-8")
    write_games(games / "season.jsonl", SEASON)
    db = root / "clue.duckdb"
    pipeline.ingest_paths([str(games)], db, analyse=True, workers=1)
    return db


def _report(db: Path, code: str, *args: str) -> str:
    result = runner.invoke(app, ["--lang", code, "report", *args, "--db", str(db), "--out", "-"])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.slow
@pytest.mark.parametrize("code", TRANSLATED)
def test_both_reports_in_german_and_swedish_hold_no_english_message(season: Path, code: str) -> None:
    phrases, single = _english(code)
    pages = {
        "game html": _report(season, code, "us-family-2026-10-31"),
        "night html": _report(season, code, "--night", "2026-09-04"),
    }
    markdown = {
        "game md": _report(season, code, "us-family-2026-10-31", "--format", "md"),
        "night md": _report(season, code, "--night", "2026-09-04", "--format", "md"),
    }
    for name, page in pages.items():
        assert f'<html lang="{code}">' in page, name
        seen = _Text(page)
        assert "<svg" in page and seen.heads, name
        left = [p for p in phrases if p in seen.text]
        assert not left, f"{code} {name}: English left: {left}"
        assert not [h for h in seen.heads if h in single], f"{code} {name}: English headers: {seen.heads}"
    for name, text in markdown.items():
        plain = text.replace("\\", "")
        left = [p for p in phrases if p in plain]
        assert not left, f"{code} {name}: English left: {left}"
        headings = re.findall(r"^#+ (.+)$", plain, flags=re.M)
        assert headings and not [h for h in headings if h in single], headings
    title = {"de": "# Nachbetrachtung: us-family-2026-10-31", "sv": "# Efteranalys: us-family-2026-10-31"}[code]
    assert markdown["game md"].startswith(title)
    night = {"de": "# Spieleabend 4. September 2026", "sv": "# Spelkväll 4 september 2026"}[code]
    assert markdown["night md"].startswith(night)


@pytest.mark.slow
def test_the_command_line_speaks_the_chosen_language_and_json_never_changes(
    season: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "r.html"
    german = runner.invoke(
        app, ["--lang", "de", "report", "us-family-2026-10-31", "--db", str(season), "--out", str(out)]
    )
    assert german.exit_code == 0 and f"Nachbetrachtung von us-family-2026-10-31 nach {out} geschrieben" in german.stdout
    assert "<h1>Nachbetrachtung: us-family-2026-10-31</h1>" in out.read_text(encoding="utf-8")
    monkeypatch.setenv("CLUE_STATS_LANG", "sv")
    swedish = runner.invoke(app, ["report", "--night", "2026-09-04", "--db", str(season), "--out", str(out)])
    assert swedish.exit_code == 0 and f"sammanfattningen av 3 partier skrevs till {out}" in swedish.stdout
    summaries = [
        json.loads(
            runner.invoke(
                app,
                ["--lang", code, "report", "us-family-2026-10-31", "--db", str(season), "--out", str(out), "--json"],
            ).stdout
        )
        for code in ("en", "de", "sv")
    ]
    assert [sorted(s) for s in summaries] == [sorted(summaries[0])] * 3
    assert {(s["game_id"], s["format"]) for s in summaries} == {("us-family-2026-10-31", "html")}
    wrong = runner.invoke(app, ["--lang", "fr", "report", "us-family-2026-10-31", "--db", str(season)])
    # a language we do not have: said in the environment's (CLUE_STATS_LANG=sv here)
    assert wrong.exit_code == 2 and "--lang måste vara ett av en, de, sv, inte 'fr'" in wrong.stderr
    assert "Traceback" not in wrong.output
    monkeypatch.setenv("CLUE_STATS_LANG", "en")
    wrong = runner.invoke(app, ["--lang", "fr", "report", "us-family-2026-10-31", "--db", str(season)])
    assert wrong.exit_code == 2 and "--lang must be one of en, de, sv, not 'fr'" in wrong.stderr


def test_problem_messages_are_said_in_the_readers_language_with_their_code_and_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`file:line: code: message`: the message in German or Swedish (--lang, CLUE_STATS_LANG), the
    code, the place and the values (names, cards, the notation's line and caret) as they are; the
    English message stays in --json and in the database."""
    from tests.helpers import FIXTURES

    held = str(FIXTURES / "invalid" / "passed_holding.jsonl")
    said = {
        "en": "passed_holding.jsonl:10: passed_holding: Bob passes on Reverend Green, Dagger, Library while holding Dagger",
        "de": "passed_holding.jsonl:10: passed_holding: Bob passt bei Reverend Green, Dagger, Library, hat aber Dagger",
        "sv": "passed_holding.jsonl:10: passed_holding: Bob passar på Reverend Green, Dagger, Library men har Dagger",
    }
    for code, line in said.items():
        result = runner.invoke(app, ["--lang", code, "validate", held])
        assert result.exit_code == 3 and result.stderr.splitlines()[0].endswith(line), result.stderr
    monkeypatch.setenv("CLUE_STATS_LANG", "sv")
    db = tmp_path / "c.duckdb"
    stored = runner.invoke(app, ["ingest", held, "--db", str(db)])
    assert said["sv"] in stored.stderr
    assert json.loads(runner.invoke(app, ["validate", held, "--json"]).stdout)["problems"][0]["message"] == (
        "Bob passes on Reverend Green, Dagger, Library while holding Dagger"
    )
    with store.read_connection(db) as con:
        [(message,)] = con.sql("SELECT message FROM problems WHERE code = 'passed_holding'").fetchall()
    assert message == "Bob passes on Reverend Green, Dagger, Library while holding Dagger"
    # a phrase inside a message is said in the language too: where the card already is, a "did you mean"
    twice = str(FIXTURES / "invalid" / "card_twice.jsonl")
    german = runner.invoke(app, ["--lang", "de", "ingest", twice, "--db", str(db)])
    assert (
        "card_twice.jsonl:4: card_twice: Dagger wird an Cat ausgeteilt, ist aber schon in der Hand von Bob"
        in german.stderr
    )
    with store.read_connection(db) as con:
        [(message, template, fields)] = con.sql(
            "SELECT message, template, fields FROM problems WHERE code = 'card_twice'"
        ).fetchall()
    assert message == "Dagger is dealt to Cat but is already in Bob's hand"
    with words.speaking("sv"):
        assert words.said(message, template, fields) == "Dagger delas ut till Cat men är redan på Bobs hand"
    mistakes = str(FIXTURES / "notation" / "several-mistakes.clue")
    swedish = runner.invoke(app, ["--lang", "sv", "validate", mistakes])
    assert (
        ":8:26: unknown_player: okänd spelare 'Bne' (menade du 'Ben'?); spelarna är Anna, Ben, Cleo" in swedish.stderr
    )
    edition = runner.invoke(app, ["--lang", "de", "validate", str(FIXTURES / "invalid" / "unknown_edition.jsonl")])
    assert "unknown_edition: unbekannt (Ausgabe): 'clasic' (meinten Sie 'classic' oder 'us-classic'?)" in edition.stderr
    # the notation: the message translated, the line as typed and its caret kept under the word
    clue = tmp_path / "abend.clue"
    clue.write_text(
        "game abend\nedition de-2023\nplayers Anna Ben Cleo\n\nAnna: Grün Seil Salon / Ben - / Cleo Seil\nCleo Weiß\n"
    )
    german = runner.invoke(app, ["--lang", "de", "validate", str(clue)])
    assert (
        "abend.clue:6:1: bad_notation: ein Eintrag beginnt mit dem Namen eines Spielers und dann ':' für einen "
        "Verdacht ('Anna: Grün Seil Salon / Ben -'), '!' für eine Anklage, oder has, reveals, turn, moves, peeks, "
        "draws\n    Cleo Weiß\n    ^^^^"
    ) in german.stderr, german.stderr


def _entry_point(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    """`clue-stats ARGS` through the installed command's entry point (clue_stats.cli:main): its exit
    code and what it wrote to stderr, without colour."""
    import sys

    from clue_stats import cli

    monkeypatch.setattr(sys, "argv", ["clue-stats", *argv])
    monkeypatch.setattr(sys.modules["__main__"], "__package__", None, raising=False)  # the name: clue-stats
    monkeypatch.setenv("COLUMNS", "200")  # typer's panel on one line
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        cli.main()
    words.set_language(None)
    return exited.value.code, re.sub(r"\x1b\[[0-9;]*m", "", capsys.readouterr().err)


def test_usage_errors_are_said_in_the_readers_language_and_stay_as_they_were_in_english(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`clue-stats: ...` of a usage error of ours (a UsageError written with T_) and typer's own
    (an unknown option, a missing argument, an unknown command), in German and Swedish by --lang or
    CLUE_STATS_LANG, exit 2, no traceback; in English exactly as before (typer's own words)."""
    from clue_stats.cli import app
    from clue_stats.engine.errors import UsageError
    from clue_stats.engine.markers import T_

    error = UsageError(T_("no such file: {path}", path="x.jsonl"))
    assert (str(error), error.message, error.said.template) == ("no such file: x.jsonl",) * 2 + (
        "no such file: {path}",
    )
    with words.speaking("de"):
        assert words.error_message(error) == "Datei nicht gefunden: x.jsonl"

    said = {
        "de": (
            "clue-stats: Datei oder Ordner nicht gefunden: /nonexistent\n",
            "Unbekannte Option: --bogus",
            "Fehlendes Argument 'paths'.",
            "Unbekannter Befehl 'gams'. Meinten Sie 'games'?",
            ("Aufruf: clue-stats ingest", "Hilfe erhalten Sie mit 'clue-stats ingest --help'.", "Fehler"),
        ),
        "sv": (
            "clue-stats: filen eller mappen finns inte: /nonexistent\n",
            "Okänd flagga: --bogus",
            "Argumentet 'paths' saknas.",
            "Okänt kommando 'gams'. Menade du 'games'?",
            ("Användning: clue-stats ingest", "Skriv 'clue-stats ingest --help' för att få hjälp.", "Fel"),
        ),
    }
    for code, (ours, option, argument, command, layout) in said.items():
        for chosen in (["--lang", code], [f"--lang={code}"]):
            assert _entry_point([*chosen, "validate", "/nonexistent"], monkeypatch, capsys) == (2, ours)
            for args, message in ((["ingest", "--bogus"], option), (["ingest"], argument), (["gams"], command)):
                exit_code, shown = _entry_point([*chosen, *args], monkeypatch, capsys)
                assert exit_code == 2 and message in shown and "Traceback" not in shown, (code, args, shown)
                if args[0] == "ingest":
                    assert all(part in shown for part in layout), shown
                assert "Usage:" not in shown and "No such" not in shown and "Missing" not in shown, shown
        monkeypatch.setenv("CLUE_STATS_LANG", code)  # the environment's language where --lang is not given
        assert _entry_point(["ingest", "--bogus"], monkeypatch, capsys)[1].count(option) == 1
        assert _entry_point(["validate", "/nonexistent"], monkeypatch, capsys) == (2, ours)
        monkeypatch.setenv("CLUE_STATS_LANG", "en")

    assert _entry_point(["validate", "/nonexistent"], monkeypatch, capsys) == (
        2,
        "clue-stats: no such file or folder: /nonexistent\n",
    )
    for args in (["ingest", "--bogus"], ["ingest"], ["gams"], ["games", "--limit", "x"], ["games", "--db"]):
        exit_code, shown = _entry_point(args, monkeypatch, capsys)
        # typer's own main (standalone) shows it the same, word for word
        with pytest.raises(SystemExit) as typers:
            app(args)
        assert (exit_code, shown) == (typers.value.code, re.sub(r"\x1b\[[0-9;]*m", "", capsys.readouterr().err))
        assert exit_code == 2 and "Error" in shown and "Traceback" not in shown, shown
    assert "No such option: --bogus" in _entry_point(["ingest", "--bogus"], monkeypatch, capsys)[1]
    assert "Usage: clue-stats ingest" in _entry_point(["ingest"], monkeypatch, capsys)[1]


@pytest.mark.slow
def test_the_command_lines_summaries_are_in_german_and_swedish(tmp_path: Path) -> None:
    """What a person reads of ingest, validate, games, analyse and delete (not --json): counts, words
    and numbers as each language writes them."""
    from tests.helpers import FIXTURES

    paths = [str(SAMPLES / "us-clue-family.jsonl"), str(FIXTURES / "invalid" / "passed_holding.jsonl")]
    said = {
        "de": [
            "2 Dateien gelesen, 0 übersprungen; 1 Partie gültig, 1 abgelehnt",
            "2 Dateien gelesen, 0 übersprungen; 1 Partie gespeichert, 1 abgelehnt in ",
            "1 abgelehnte Partie oder Datei in der Tabelle `rejected` aufbewahrt.",
            "0 Partien analysiert in ",
            "1 Partie gelöscht",
        ],
        "sv": [
            "2 filer lästa, 0 överhoppade; 1 parti giltigt, 1 avvisat",
            "2 filer lästa, 0 överhoppade; 1 parti lagrat, 1 avvisat på ",
            "1 avvisat parti eller fil sparat i tabellen `rejected`.",
            "0 partier analyserade på ",
            "1 parti raderat",
        ],
    }
    for code, (valid, stored, games, analysed, deleted) in said.items():
        db = str(tmp_path / f"{code}.duckdb")
        checked = runner.invoke(app, ["--lang", code, "validate", *paths])
        assert checked.exit_code == 3 and checked.stdout.strip().endswith(valid), checked.stdout
        ingested = runner.invoke(app, ["--lang", code, "ingest", *paths, "--db", db])
        assert ingested.exit_code == 3 and ingested.stdout.startswith(stored), ingested.stdout
        assert f"s  ->  {db}" in ingested.stdout
        listed = runner.invoke(app, ["--lang", code, "games", "--db", db])
        assert listed.exit_code == 0 and listed.stdout.strip().endswith(games), listed.stdout
        assert runner.invoke(app, ["--lang", code, "analyse", "--db", db]).stdout.startswith(analysed)
        gone = runner.invoke(app, ["--lang", code, "delete", "us-family-2026-10-31", "--db", db])
        assert gone.stdout.startswith(deleted), gone.stdout
    english = runner.invoke(app, ["--lang", "en", "validate", *paths])
    assert english.stdout.strip().endswith("2 files read, 0 skipped; 1 game valid, 1 rejected")


# words of English that no German or Swedish sentence of the command line holds: one in an output in
# those languages means a string passed by the catalogue (an f-string, a stored id shown as it is)
ENGLISH_WORDS = {
    "the", "of", "and", "with", "after", "from", "into", "each", "no", "such", "first", "envelope",
    "room", "kind", "played", "game", "games", "player", "players", "notebook", "deal", "deals",
    "database", "people", "table", "card", "seat", "seats", "winner", "edition", "most",
    "likely", "solutions", "fewest", "moves", "board", "stored", "read", "skipped", "valid",
    "rejected", "analysed", "names", "last", "known",
}  # fmt: skip


def _english_words(text: str, *values: str) -> set[str]:
    """The words of ENGLISH_WORDS in a command's output, its files' paths, the commands it names and
    the given values (ids, names) taken out first."""
    for value in sorted(values, key=len, reverse=True):
        text = text.replace(value, " ")
    text = re.sub(r"\S+\.(jsonl|clue|duckdb|html|md)\b|`[^`]*`|\brejected\b|clue-stats [\w-]+", " ", text)
    return {w for w in re.findall(r"[^\W\d_]+", text.lower())} & ENGLISH_WORDS


@pytest.mark.slow
def test_every_commands_words_are_german_or_swedish_with_only_its_values_as_written(tmp_path: Path) -> None:
    """The summaries, tables and messages of ingest, games, players, board, notebook and analyse
    (a missing database), and a duel's report, in German and Swedish: no English word but in a
    value (an id, a file)."""
    samples = tmp_path / "samples"
    assert runner.invoke(app, ["samples", str(samples)]).exit_code == 0
    db = str(tmp_path / "club.duckdb")
    assert runner.invoke(app, ["ingest", str(samples), "--db", db]).exit_code == 0
    listed = json.loads(runner.invoke(app, ["games", "--db", db, "--json"]).stdout)["games"]
    ids = [g["game_id"] for g in listed] + [g["edition"] for g in listed] + [str(tmp_path), "classic", "table"]
    duel, notebook = samples / "de-2023-duel.jsonl", samples / "de-2023-anna-notebook.jsonl"
    commands = [
        ["ingest", str(samples), "--db", db],
        ["games", "--db", db],
        ["players", "--db", db, "--all"],
        ["board", "--edition", "de-2023"],
        ["notebook", str(notebook), "--observer", "Anna"],
        ["notebook", str(duel), "--observer", "table", "--top", "2"],
        ["analyse", "--db", str(tmp_path / "missing.duckdb")],
    ]
    heads = {
        "de": ("Notizblock von Anna in spieleabend-2026-11-20-1 nach Eintrag 17, Zeile 18 (Zug 15)", "Fallakte"),
        "sv": ("Anteckningsbladet för Anna i spieleabend-2026-11-20-1 efter post 17, rad 18 (drag 15)", "kuvert"),
    }
    for code in TRANSLATED:
        said = {" ".join(c[:2]): runner.invoke(app, ["--lang", code, *c]) for c in commands}
        for command, result in said.items():
            assert "Traceback" not in result.output, (code, command, result.output)
            left = _english_words(result.output, *ids)
            assert not left, f"{code} {command}: English {sorted(left)} in:\n{result.output}"
        duel_report = runner.invoke(app, ["--lang", code, "report", "duell-2026-11-21", "--db", db, "--out", "-"])
        left = _english_words(_Text(duel_report.stdout).text, *ids)
        assert duel_report.exit_code == 0 and not left, f"{code} the duel's report: English {sorted(left)}"
        notebook_said = said[f"notebook {notebook}"].stdout
        assert notebook_said.startswith(heads[code][0]) and heads[code][1] in notebook_said, notebook_said
        assert said["analyse --db"].exit_code == 1 and said["analyse --db"].stderr.startswith("clue-stats: ")
    english = runner.invoke(app, ["notebook", str(notebook), "--observer", "Anna"]).stdout
    assert english.startswith("Anna's notebook in spieleabend-2026-11-20-1 after seq 17, line 18 (turn 15)")
    assert _english_words(english) >= {"envelope", "notebook"}  # the check finds English where it is


def _help_screens(code: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """`clue-stats --lang CODE ... --help` of the app and of every command, as the `clue-stats`
    command shows it (clue_stats.usage_errors.run), each with the click command it is of."""
    import typer.main

    from clue_stats.usage_errors import run

    monkeypatch.setenv("COLUMNS", "400")  # a text on one line

    def paths(command, path):
        yield path, command
        for name, sub in getattr(command, "commands", {}).items():
            yield from paths(sub, [*path, name])

    for path, command in paths(typer.main.get_command(app), []):
        monkeypatch.setattr("sys.argv", ["clue-stats", "--lang", code, *path, "--help"])
        with pytest.raises(SystemExit) as done:
            run(app)
        assert done.value.code == 0, path
        yield path, command, " ".join(capsys.readouterr().out.replace("│", " ").split())


def _opening(text: str, n: int = 4) -> str:
    return " ".join(text.split()[:n])


@pytest.mark.slow
@pytest.mark.parametrize("code", TRANSLATED)
def test_every_commands_help_is_in_the_readers_language(
    code: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every --help screen in German and Swedish: each text of the command and its options in the
    language and none in English, typer's own words too ("Optionen", "Aufruf:"); English again after."""
    with words.speaking(code):
        said = {text: words._(text) for text in help_screens.texts(app)}
    screens = 0
    for path, command, shown in _help_screens(code, monkeypatch, capsys):
        screens += 1
        shown_params = [p for p in command.params if getattr(p, "help", None) and not getattr(p, "hidden", False)]
        texts = [command.help, *(p.help for p in shown_params)]
        for text in filter(None, texts):
            assert _opening(said[text]) in shown, (path, said[text], shown)
            if _opening(said[text]) != _opening(text):
                assert _opening(text) not in shown, (path, text)
        assert shown.startswith(said["Usage:"] + " "), shown[:80]
        assert said["Show this message and exit."] in shown and said["Options"] in shown, path
        assert said["[OPTIONS]"] in shown and "[OPTIONS]" not in shown, path
        if getattr(command, "commands", None):
            assert said["COMMAND [ARGS]..."] in shown and "COMMAND [ARGS]" not in shown, path
        for param in shown_params:  # the type beside each one ("<Ganzzahl>"), none as typer writes it
            typed = help_screens._type_of(param, command)
            if typed:
                assert said[typed] in shown and typed not in shown, (path, typed)
    assert screens >= 17  # the app, its commands and `players`' own
    monkeypatch.setattr("sys.argv", ["clue-stats", "--lang", "en", "board", "--help"])
    with pytest.raises(SystemExit):
        from clue_stats.usage_errors import run

        run(app)
    english = capsys.readouterr().out
    assert "Usage: " in english and "board [OPTIONS]" in english and "─ Options ─" in english
    assert "[default: classic]" in english and "Show this message and exit." in english
    assert "<str>" in english


# --- the dashboard --------------------------------------------------------------------------------

# the pages translated so far (docs/translating.md says which)
DONE_PAGES = (
    "quality",
    "help",
    "review",
    "replay",
    "puzzles",
    "suggestions",
    "overview",
    "night",
    "accusations",
    "agents",
    "players",
    "person",
    "positions",
)


@pytest.fixture(scope="module")
def dashboard_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The club (its evening, the season's nights, a few simulated games: tests.helpers.club_db), an
    agents' transcript (the Agents page), the US family sample and a game the checks reject (the
    quality page has something to say): every translated page has its content, not an empty state."""
    from tests.helpers import FIXTURES, club_db

    root = tmp_path_factory.mktemp("dashboard-words")
    db = club_db(root)
    agents = FIXTURES / "importers" / "llm_transcript" / "three_agents.txt"
    paths = [str(SAMPLES / "us-clue-family.jsonl"), str(agents), str(FIXTURES / "invalid" / "passed_holding.jsonl")]
    pipeline.ingest_paths(paths, db, analyse=True, workers=1)
    return db


def _page_text(at, slug: str) -> list[str]:
    """Every string the page and its sidebar show a reader: text, widgets' labels and options, the
    tables' headers (grids' and rows'), the charts' titles, axes, legends and tooltips' titles, but
    the documentation itself (the Help page's topic: English)."""
    seen = [e.value for e in (*at.title, *at.subheader, *at.caption, *at.info, *at.warning, *at.error)]
    seen += [e.value for e in at.markdown] if slug != "help" else []
    seen += [w.label for w in (*at.metric, *at.selectbox, *at.toggle, *at.date_input, *at.button, *at.expander)]
    seen += [w.label for w in (*at.segmented_control, *at.multiselect, *at.radio)]
    seen += [str(o) for w in (*at.segmented_control, *at.radio) for o in w.options]
    seen += [at.sidebar.subheader[0].value] if at.sidebar.subheader else []
    return seen + _table_headers(at) + _chart_words(at)


def _table_headers(at) -> list[str]:
    """The headers of every table: a grid's (its column configuration's label, else the column's
    name) and those of the rows drawn as HTML."""
    heads = []
    for grid in at.dataframe:
        config = json.loads(grid.proto.columns or "{}")
        heads += [(config.get(c) or {}).get("label") or str(c) for c in grid.value.columns]
    for block in at.html:
        heads += _Text(block.value).heads
    return heads


def _chart_words(at) -> list[str]:
    """What an Altair chart writes: its titles, each channel's title (else its field's name, which
    Vega-Lite shows as the title, unless another layer titles that channel), a scale's named values
    (a legend's words)."""
    found: list[str] = []
    untitled: list[tuple[str, str]] = []  # (channel, field) shown as its title unless a layer titles it
    titled: set[str] = set()
    quiet = ("x2", "y2", "detail", "order", "text", "href", "key")  # channels that show no title

    def walk(node, channel: str | None = None) -> None:
        if isinstance(node, dict):
            title = node.get("title")
            if isinstance(title, str):
                found.append(title)
            elif isinstance(title, dict) and isinstance(title.get("text"), str):
                found.append(title["text"])
            if channel is not None:
                parts = [node.get(part) for part in ("axis", "legend") if isinstance(node.get(part), dict)]
                hidden = any(part in node and node[part] is None for part in ("axis", "legend"))
                if "title" in node or any("title" in t for t in parts) or hidden:
                    titled.add(channel)
                elif isinstance(node.get("field"), str):
                    untitled.append((channel, node["field"]))
            domain = (node.get("scale") or {}).get("domain") if isinstance(node.get("scale"), dict) else None
            found.extend(d for d in domain or () if isinstance(d, str))
            for key, value in node.items():
                if key == "encoding" and isinstance(value, dict):
                    for name, enc in value.items():
                        for item in enc if isinstance(enc, list) else [enc]:
                            if name == "tooltip":  # each tooltip line shows its own title
                                walk(item, f"tooltip {id(item)}")
                            else:
                                walk(item, None if name in quiet else name)
                elif key != "datasets":
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    for chart in at.get("vega_lite_chart"):
        untitled.clear()
        titled.clear()
        walk(json.loads(chart.proto.spec))
        found.extend(field for channel, field in untitled if channel not in titled)
    return found


@pytest.mark.slow
@pytest.mark.parametrize("code", TRANSLATED)
def test_the_dashboards_translated_pages_hold_no_english_and_the_switch_stays(
    dashboard_db: Path, code: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from streamlit.testing.v1 import AppTest

    from clue_stats.dashboard import pages

    monkeypatch.setenv("CLUE_STATS_DB", str(dashboard_db))
    phrases, single = _english(code)
    translated = {m.string for m in _catalogue(code) if m.id and isinstance(m.string, str)}
    with store.read_connection(dashboard_db) as con:
        people = {name for (name,) in con.execute("SELECT DISTINCT name FROM players").fetchall()}
    at = AppTest.from_file(str(ROOT / "dashboard" / "app.py"), default_timeout=120)
    at.run()
    assert at.session_state["language"] == "en"  # no browser locale in AppTest: CLUE_STATS_LANG (en)
    switch = next(s for s in at.sidebar.selectbox if s.key == "language")
    switch.set_value(code).run()
    for slug in DONE_PAGES:
        at.switch_page(pages.page(slug).file).run()
        assert not at.exception, [e.value for e in at.exception]
        assert at.session_state["language"] == code  # the switch stays for the session
        shown = _page_text(at, slug)
        assert len(shown) > 8, f"{code} {slug}: next to nothing shown: {shown}"
        heads = _table_headers(at)
        # a column may be a player's (the key moments: each player's gain): a name is no English
        untranslated = [h for h in heads if h not in translated | {"#"} | people]
        assert not untranslated, f"{code} {slug}: headers not translated: {untranslated}"
        left = [p for p in phrases for s in shown if p in s]
        assert not left, f"{code} {slug}: English left: {left}"
        # a word the language writes as English does ("variant" in Swedish) is not left over
        assert not [s for s in shown if s in single - translated], f"{code} {slug}: English words: {shown}"
        # a header or a chart's title is a word of the catalogue, never a column's name
        ids = [s for s in shown if "_" in s and " " not in s]
        assert not ids, f"{code} {slug}: column names shown: {ids}"
        with words.speaking(code):
            assert at.title[0].value == pages.page(slug).name != pages.page(slug).title
    expected = {"de": ("Datenqualität", "Abgelehnte Partien"), "sv": ("Datakvalitet", "Avvisade partier")}[code]
    at.switch_page(pages.page("quality").file).run()
    assert (at.title[0].value, at.subheader[0].value) == expected


def test_a_budget_message_writes_its_counts_as_the_language_does(tmp_path: Path) -> None:
    """What the budget left out, and why: the limit and the counts as each language writes a number
    ("3.000" in German, "3,000" in English), in the command's problem lines and in the report."""
    family = str(SAMPLES / "us-clue-family.jsonl")
    db = tmp_path / "cut.duckdb"
    english = runner.invoke(app, ["ingest", family, "--db", str(db), "--budget-states", "3000"])
    assert "more than the limit of 3,000 states" in english.stderr, english.stderr
    german = runner.invoke(
        app, ["--lang", "de", "ingest", family, "--db", str(tmp_path / "de.duckdb"), "--budget-states", "3000"]
    )
    assert "die Grenze von 3.000 Zuständen" in german.stderr and "3,000" not in german.stderr, german.stderr
    report = runner.invoke(app, ["--lang", "de", "report", "us-family-2026-10-31", "--db", str(db), "--out", "-"])
    assert report.exit_code == 0, report.output
    assert "die Grenze von 3.000 Zuständen" in report.stdout and "3,000" not in report.stdout


def test_an_edition_is_named_in_the_readers_language_where_it_has_no_name_of_its_own() -> None:
    # an edition's own name is a name ("Cluedo (Deutschland 2023)"); a custom deck has none
    from clue_stats.analysis.words.names import CUSTOM, edition_name

    named = {}
    for code in words.LANGUAGES:
        with words.speaking(code):
            named[code] = (edition_name(CUSTOM), edition_name("classic"))
    assert (
        named["en"][0] == "custom deck" and named["de"][0] == "eigener Kartensatz" and named["sv"][0] == "egen kortlek"
    )
    # a built-in edition's name in the reader's language too
    assert (named["en"][1], named["de"][1], named["sv"][1]) == (
        "Cluedo (classic)",
        "Cluedo (klassisch)",
        "Cluedo (klassisk)",
    )


@pytest.mark.parametrize("code", ["en", *TRANSLATED])
def test_a_flag_shows_no_type_on_the_help_screen(
    code: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--version, --help, --json take no value: no '<bool>' after them (nor its translation); --lang
    shows the languages it takes, not '<str>'."""
    with words.speaking(code):
        boolean = words._("<bool>") if code != "en" else "<bool>"
    screens = {" ".join(path): shown for path, _command, shown in _help_screens(code, monkeypatch, capsys)}
    for path, shown in screens.items():
        assert "<bool>" not in shown and boolean not in shown, path
    assert "--lang en|de|sv" in screens[""] and "<str>" not in screens[""].split("--lang")[1][:20]
