"""The catalogue check (clue_stats/catalogue_check.py, run by `make catalogues`): the German and Swedish
catalogues hold none of the terms their lists forbid (the players' words of ../shared/spec/glossary.md)
and no count written by hand; a wrong term or a hand-written plural planted in a copy is found."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from clue_stats import catalogue_check
from clue_stats.analysis import words

TRANSLATED = [code for code in words.LANGUAGES if code != words.SOURCE]


@pytest.mark.slow
def test_the_catalogues_hold_no_forbidden_term_and_no_count_written_by_hand() -> None:
    findings = catalogue_check.check()
    assert not findings, "\n".join(map(str, findings))


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_language_has_its_list_of_forbidden_terms(code: str) -> None:
    terms = _terms(code)
    assert len(terms) > 10 and all(t.wrong and t.right for t in terms)


def _plant(tmp_path: Path, code: str, domain: str, msgid: str, msgstr: str | tuple[str, str]) -> Path:
    """A copy of one catalogue with one message given another translation."""
    with (words.LOCALE_DIR / code / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        catalogue = read_po(f, locale=code)
    message = catalogue.get(msgid)
    assert message is not None, msgid
    message.string = msgstr
    out = io.BytesIO()
    write_po(out, catalogue, width=100)
    path = tmp_path / code / "LC_MESSAGES" / f"{domain}.po"
    path.parent.mkdir(parents=True)
    path.write_bytes(out.getvalue())
    return path


def _terms(code: str) -> list[catalogue_check.Term]:
    return catalogue_check.read_terms(words.LOCALE_DIR / code / catalogue_check.TERMS_FILE)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("code", "domain", "msgid", "planted", "wrong"),
    [
        ("de", "clue_stats", "suggestions by label", "Verdachte nach Einstufung", "Verdachte"),
        ("de", "clue_stats", "hand not in the log", "Blatt nicht im Protokoll", "Blatt"),
        ("de", "clue_stats", "Your suggestion", "Dein Verdacht", "Dein"),
        (
            "de",
            "docs",
            "Ratings and the league (tables `ratings`, `player_merges`)",
            "Ratings und die Liga (Tabellen `ratings`, `player_merges`)",
            "Ratings",
        ),  # fmt: skip
        ("sv", "clue_stats", "rating", "Ranking", "Ranking"),
        ("sv", "clue_stats", "verdict", "omdöme", "omdöme"),
        ("sv", "clue_stats", "review", "genomgång", "genomgång"),
    ],
)
def test_a_planted_wrong_term_is_found(
    tmp_path: Path, code: str, domain: str, msgid: str, planted: str, wrong: str
) -> None:
    path = _plant(tmp_path, code, domain, msgid, planted)
    findings = list(catalogue_check.check_catalogue(path, code, _terms(code)))
    assert len(findings) == 1 and findings[0].msgid == msgid and repr(wrong) in findings[0].problem, findings


def test_a_term_is_forbidden_only_where_its_list_says() -> None:
    """Blatt is a notebook's sheet, never a hand; omdöme is a label, not a verdict."""
    blatt = next(t for t in _terms("de") if t.wrong == "Blatt")
    assert blatt.applies("hand not in the log") and not blatt.applies("not a cluebot sheet")
    omdome = next(t for t in _terms("sv") if t.wrong == "omdöme")
    assert omdome.applies("verdict") and not omdome.applies("label")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("code", "msgid", "planted"),
    [
        (
            "de",
            "seat {missing} is given no hand",
            ("Platz/Plätze {missing} bekommen keine Hand", "Plätze {missing} bekommen keine Hand"),
        ),
        ("de", "hand not in the log", "Hand nicht im Protokoll (Zeile(n) 3)"),
        ("de", "no {category} in this line", "kein(e) {category} in dieser Zeile"),
        (
            "sv",
            "seat {missing} is given no hand",
            ("plats(er) {missing} får ingen hand", "platserna {missing} får ingen hand"),
        ),
    ],
)
def test_a_planted_count_written_by_hand_is_found(
    tmp_path: Path, code: str, msgid: str, planted: str | tuple[str, str]
) -> None:
    path = _plant(tmp_path, code, "clue_stats", msgid, planted)
    findings = list(catalogue_check.check_catalogue(path, code, _terms(code)))
    assert findings and all(f.msgid == msgid for f in findings), findings
    assert any("a count written by hand" in f.problem for f in findings), findings


@pytest.mark.slow
def test_the_command_fails_on_a_planted_wrong_term_and_passes_without_it(tmp_path: Path, capsys) -> None:
    """What `make catalogues` runs: exit 1 naming the catalogue and the message, 0 on the catalogues."""
    _plant(tmp_path, "de", "clue_stats", "hand not in the log", "Blatt nicht im Protokoll")
    shutil.copy(words.LOCALE_DIR / "de" / catalogue_check.TERMS_FILE, tmp_path / "de")
    assert catalogue_check.main([str(tmp_path)]) == 1
    said = capsys.readouterr().err
    assert "clue_stats.po: 'hand not in the log': 'Blatt': the players' word is 'Hand" in said


def test_what_the_check_counts_as_a_hand_written_plural() -> None:
    for text in (
        "{n} line(s)",
        "Zeile(n) {n}",
        "kein(e) Karte",
        "plats(er)",
        "rad(er) hoppades över",
        "Platz/Plätze 1, 2",
    ):
        assert catalogue_check.hand_plural(text), text
    for text in (
        "`data/editions/*.toml`",
        "Halle (Hall)",
        "3 (Green, Knife, Hall)",
        "ja/nein",
        "[x](a.md)",
        "(e.g. 10)",
    ):
        assert catalogue_check.hand_plural(text) is None, text


def test_a_wrong_line_in_a_list_names_its_file_and_line(tmp_path: Path) -> None:
    terms = tmp_path / "forbidden-terms.txt"
    terms.write_text("# comment\nBlatt | Hand\nonly one column\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"forbidden-terms.txt:3:"):
        catalogue_check.read_terms(terms)
