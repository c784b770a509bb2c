"""The catalogues' words checked against the players' words (``../shared/spec/glossary.md``): each
translation of both catalogues of a language (``clue_stats.po``, ``docs.po``) is searched for the
terms its list forbids, and every message, English or translated, for a count written by hand
("line(s)", "Zeile(n)", "Platz/Plätze"), which ``n_`` / ``nT_`` say in the form the count wants.

The list of a language is ``analysis/locale/<lang>/forbidden-terms.txt``, one term a line::

    wrong term | right term | only where the English says (a regex) | not where the English says

matched as whole words, case-insensitive, outside code spans (`` `like this` ``), a message's
fields (``{name}``) and what a person types as it is ('edition custom', --edition, game.edition). The last two columns are optional: "Blatt | Hand | | sheet" forbids Blatt for a
hand but keeps it for a notebook's sheet. ``make catalogues`` and the tests run it;
``python -m clue_stats.catalogue_check [LOCALE_DIR]`` prints each finding and exits 1 if any.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.pofile import read_po

from clue_stats.analysis import words

LOCALE_DIR = words.LOCALE_DIR
TERMS_FILE = "forbidden-terms.txt"
DOMAINS = ("clue_stats", "docs")
# what a message's words are not: code spans, fields, a link's target, what a person types as it is
# (a value in single quotes, an option, a dotted name: 'edition custom', --edition, game.edition)
_NOT_WORDS = re.compile(r"`[^`]*`|\{[^{}]*\}|\]\([^)]*\)|'[^'\s][^']*'|--[\w-]+|\w+(?:\.\w+)+")
# a count written by hand: "line(s)", "Zeile(n)", "kein(e)", "plats(er)", "rad(er)", "Platz/Plätze"
_HAND_PLURAL = re.compile(r"\w\((?:s|es|n|en|e|er|r|ar|or|na|ne)\)", re.I)
_SLASHED = re.compile(r"\b(\w{3,})/(\w{3,})\b")


@dataclass(frozen=True)
class Term:
    wrong: str
    right: str
    only_where: re.Pattern[str] | None
    not_where: re.Pattern[str] | None
    pattern: re.Pattern[str]

    def applies(self, english: str) -> bool:
        return (self.only_where is None or bool(self.only_where.search(english))) and not (
            self.not_where is not None and self.not_where.search(english)
        )


@dataclass(frozen=True)
class Finding:
    catalogue: Path
    msgid: str
    problem: str

    def __str__(self) -> str:
        head = self.msgid if len(self.msgid) <= 70 else self.msgid[:70] + "…"
        return f"{self.catalogue}: {head!r}: {self.problem}"


def read_terms(path: Path) -> list[Term]:
    """A language's forbidden terms (``#`` starts a comment); a line of the wrong form raises ValueError
    naming the file and line."""
    terms = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cells = [c.strip() for c in line.split("|")]
        if len(cells) < 2 or len(cells) > 4 or not cells[0] or not cells[1]:
            raise ValueError(f"{path}:{number}: expected 'wrong | right [| only where | not where]', not {line!r}")
        cells += [""] * (4 - len(cells))
        only, unless = (re.compile(c, re.I) if c else None for c in cells[2:])
        words = r"\s+".join(re.escape(w) for w in cells[0].split())
        terms.append(Term(cells[0], cells[1], only, unless, re.compile(rf"(?<!\w){words}(?!\w)", re.I)))
    return terms


def _words(text: str) -> str:
    return _NOT_WORDS.sub(" ", text)


def hand_plural(text: str) -> str | None:
    """A count written by hand in a message ("Zeile(n)", "Platz/Plätze"), or None."""
    words = _words(text)
    found = _HAND_PLURAL.search(words)
    if found:
        start = words.rfind(" ", 0, found.start()) + 1
        return words[start : found.end()]
    for one, many in _SLASHED.findall(words):
        if _plain(many).startswith(_plain(one)[:-1]) or _plain(one).startswith(_plain(many)[:-1]):
            return f"{one}/{many}"
    return None


def _plain(word: str) -> str:
    return word.lower().translate(str.maketrans("äöüå", "aoua"))


def check_catalogue(path: Path, code: str, terms: list[Term]) -> Iterator[Finding]:
    with path.open("rb") as f:
        catalogue = read_po(f, locale=code)
    for message in catalogue:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        strings = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        english = " ".join(ids)
        for text in (*ids, *(s for s in strings if s)):
            written = hand_plural(text)
            if written:
                yield Finding(path, ids[0], f"a count written by hand: {written!r} (say it with n_ or nT_)")
        for term in terms:
            if not term.applies(english):
                continue
            for text in strings:
                found = term.pattern.search(_words(text or ""))
                if found:
                    yield Finding(path, ids[0], f"{found.group()!r}: the players' word is {term.right!r}")


def check(locale_dir: Path = LOCALE_DIR) -> list[Finding]:
    """Every finding in the catalogues of every language under ``locale_dir``."""
    findings: list[Finding] = []
    for folder in sorted(p for p in locale_dir.iterdir() if p.is_dir()):
        terms_file = folder / TERMS_FILE
        terms = read_terms(terms_file) if terms_file.exists() else []
        for domain in DOMAINS:
            path = folder / "LC_MESSAGES" / f"{domain}.po"
            if path.exists():
                findings.extend(check_catalogue(path, folder.name, terms))
    return findings


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    try:
        findings = check(Path(args[0]) if args else LOCALE_DIR)
    except (OSError, ValueError) as exc:
        print(f"catalogue check: {exc}", file=sys.stderr)
        return 2
    for finding in findings:
        print(finding, file=sys.stderr)
    if findings:
        print(f"catalogue check: findings: {len(findings)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
