"""The user's documentation as topics: the Markdown files of docs/, which travel in the wheel as the
package ``clue_stats.docs``, so `clue-stats docs TOPIC` and the dashboard's Help page show what an
installed tool's user needs without a clone or a web page.

A topic is a file's name without ``.md`` (``league`` is docs/league.md); its title is the file's
first heading. Links between the files (``[labels](analysis.md#labels)``) are kept as written in the
Markdown and turned into the reader's own links by :func:`relink`.

The topics a player or a club reads (:data:`TRANSLATED`) are in German and Swedish too, the way
Sphinx translates a book: each is cut into blocks (:func:`blocks`: a heading, a paragraph, a list
item, a table row; code is never cut), each block one message of the ``docs`` catalogue beside the
program's (``analysis/locale/<lang>/LC_MESSAGES/docs.po``, filled by `make catalogues`, whose
extractor is :func:`extract`). A topic is put together again in the reader's language
(:func:`topic`), block by block; a block the catalogue lacks stays English, and the catalogue test
says which. Links into a translated topic follow its translated headings (:func:`relink`).
"""

from __future__ import annotations

import gettext
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import cache
from importlib.resources import files
from typing import IO, Any

from clue_stats.analysis import words
from clue_stats.engine.errors import UsageError
from clue_stats.engine.markers import T_

PACKAGE = "clue_stats.docs"
DOMAIN = "docs"  # the catalogue of the translated topics, beside the program's own

# The topics in every language: what a player, a club or a client's maker reads. The rest (how the
# engine counts, its measurements, how to add a language) is written for the project's developers
# and stays English; the Help page says so.
TRANSLATED = (
    "recording",
    "getting-started",
    "event-format",
    "notation",
    "importers",
    "analysis",
    "dashboard",
    "report",
    "league",
    "problems",
)

# The order a user reads them in: writing games down, getting them in, what is computed and shown,
# then the reference and the measurements. A file not named here comes after, by name.
READING_ORDER = (
    "recording",
    "getting-started",
    "event-format",
    "notation",
    "importers",
    "analysis",
    "dashboard",
    "report",
    "league",
    "problems",
    "board",
    "strategies",
    "arena",
    "deduction",
    "performance",
    "findings",
)

# A Markdown link to another file of docs/: [text](name.md) or [text](name.md#anchor)
_LINK = re.compile(r"\]\((?P<name>[a-z0-9-]+)\.md(?P<anchor>#[^)\s]*)?\)")


@dataclass(frozen=True)
class Topic:
    name: str  # the file's name without .md: what `clue-stats docs NAME` takes
    title: str  # the file's first heading
    text: str  # the Markdown
    language: str = words.SOURCE  # the language it is written in (English where not translated)
    # the heading (as written in this language) each English anchor ("#the-league") names
    anchors: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Block:
    """A piece of a topic's Markdown: a message to translate (``prefix`` + ``text`` + newline: the
    text unwrapped to one line, the prefix its heading marks, list marker and indent or quote), or
    lines kept as they are (``prefix`` None: code, blank lines, table rules, comments)."""

    line: int  # its first line, from 1
    text: str
    prefix: str | None = None

    @property
    def message(self) -> bool:
        return self.prefix is not None


_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6} )(.+?)\s*$")
_ITEM = re.compile(r"^(\s*(?:[-*+]|\d+[.)]) )(.*)$")
_QUOTE = re.compile(r"^(> ?)(.*)$")
_ROW = re.compile(r"^\s*\|")
_RULE = re.compile(r"^\s*\|?[\s:|-]+\|?\s*$")
_CODE = re.compile(r"`[^`]*`|\]\([^)]*\)|https?://\S+")


_FIGURE = re.compile(r"\d[.,]\d")  # a decimal or a thousands separator: each language writes it its way


def _readable(text: str) -> bool:
    """The text has words, or a figure ("26.4 %", "2,016"), outside its code, link targets and
    addresses."""
    plain = _CODE.sub("", text)
    return any(c.isalpha() for c in plain) or bool(_FIGURE.search(plain))


def blocks(text: str) -> list[Block]:
    """The topic's Markdown as blocks: each heading, paragraph, list item (its continuation lines
    joined to it), quoted paragraph and table row is a message; fenced code, blank lines, table
    rules and comments are kept as they are, as is a block with no words outside its code."""
    out: list[Block] = []
    lines = text.splitlines()
    i = 0

    def keep(start: int, end: int) -> None:
        out.append(Block(start + 1, "\n".join(lines[start:end]) + "\n"))

    while i < len(lines):
        line = lines[i]
        start = i
        if _FENCE.match(line):
            fence = _FENCE.match(line)[1]  # type: ignore[index]
            i += 1
            while i < len(lines) and not lines[i].lstrip().startswith(fence):
                i += 1
            i = min(i + 1, len(lines))
            keep(start, i)
            continue
        if not line.strip() or (_ROW.match(line) and _RULE.match(line)):
            keep(i, i + 1)
            i += 1
            continue
        if line.lstrip().startswith("<!--"):
            while i < len(lines) and "-->" not in lines[i]:
                i += 1
            i = min(i + 1, len(lines))
            keep(start, i)
            continue
        if _ROW.match(line):
            prefix, body = "", line
            i += 1
        elif m := _HEADING.match(line):
            prefix, body = m[1], m[2]
            i += 1
        else:
            m = _ITEM.match(line) or _QUOTE.match(line)
            prefix, body = (m[1], m[2]) if m else ("", line.strip())
            quoted = prefix.startswith(">")
            i += 1
            while i < len(lines):  # the lines that continue it
                nxt = lines[i]
                if not nxt.strip() or _FENCE.match(nxt) or _HEADING.match(nxt) or _ITEM.match(nxt) or _ROW.match(nxt):
                    break
                if quoted != nxt.startswith(">"):
                    break
                body += " " + (_QUOTE.match(nxt)[2] if quoted else nxt).strip()  # type: ignore[index]
                i += 1
        if _readable(body):
            out.append(Block(start + 1, body, prefix))
        else:
            keep(start, i)
    return out


def extract(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel's extraction method for a topic (`make catalogues`): each message block, at its line;
    nothing for a topic not :data:`TRANSLATED`."""
    name = getattr(fileobj, "name", "")
    if str(name).replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".md") not in TRANSLATED:
        return
    for block in blocks(fileobj.read().decode("utf-8")):
        if block.message:
            yield block.line, None, block.text, []


@cache
def _catalogue(code: str) -> gettext.NullTranslations:
    if code == words.SOURCE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, words.LOCALE_DIR, [code], fallback=True)


def slug(heading: str) -> str:
    """A heading's anchor as the Markdown files link to it (GitHub's: lowercase words joined by
    hyphens, punctuation but ``_`` dropped): what ``[text](name.md#anchor)`` names."""
    text = unicodedata.normalize("NFC", heading.replace("`", "")).lower()
    text = re.sub(r"[^\w\s-]", "", text)
    return re.sub(r"\s+", "-", text).strip("-")


# how the dashboard's Markdown (Streamlit's, @sindresorhus/slugify) spells letters in an anchor
_SPELLED = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "ø": "o", "œ": "oe"})


def page_anchor(heading: str) -> str:
    """A heading's anchor on the dashboard's Help page, as Streamlit writes it: letters spelt in
    ASCII ("läser" as "laeser", "utgåva" as "utgava"), "player's" as "players", every other run of
    characters a hyphen."""
    text = unicodedata.normalize("NFC", heading.replace("`", "")).lower().translate(_SPELLED)
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = re.sub(r"([a-z\d])['\u2019]([ts])(?![a-z\d])", r"\1\2", text)
    return re.sub(r"[^a-z\d]+", "-", text).strip("-")


def _translated(topic: Topic, code: str) -> Topic:
    """The topic in language ``code``, block by block (a block the catalogue lacks stays English),
    with the heading each English anchor names in it."""
    translate = code != words.SOURCE and topic.name in TRANSLATED
    catalogue = _catalogue(code if translate else words.SOURCE)
    parts, anchors, title = [], {}, topic.title
    for block in blocks(topic.text):
        if not block.message:
            parts.append(block.text)
            continue
        said = catalogue.gettext(block.text)
        parts.append(f"{block.prefix}{said}\n")
        if block.prefix and block.prefix.startswith("#"):
            anchors[slug(block.text)] = said
            if block.prefix == "# " and title == topic.title:
                title = said.replace("`", "")
    if not translate:
        return replace(topic, anchors=anchors)
    return Topic(topic.name, title, "".join(parts), code, anchors)


def _title(text: str, name: str) -> str:
    for line in text.splitlines():
        if line.startswith("# "):
            return line[2:].strip().replace("`", "")
    return name


def topics(code: str | None = None) -> list[Topic]:
    """Every topic, in reading order, in language ``code`` where it is translated (None: the
    reader's language; English: as written)."""
    return list(_topics_in(code or words.language()))


@cache
def _topics_in(code: str) -> tuple[Topic, ...]:
    """Every topic in one language, put together once (the files do not change while it runs)."""
    return tuple(_translated(t, code) for t in _english())


@cache
def _english() -> tuple[Topic, ...]:
    found = {}
    for f in files(PACKAGE).iterdir():
        if f.name.endswith(".md"):
            name = f.name.removesuffix(".md")
            text = f.read_text(encoding="utf-8")
            found[name] = Topic(name, _title(text, name), text)
    rank = {name: i for i, name in enumerate(READING_ORDER)}
    return tuple(found[n] for n in sorted(found, key=lambda n: (rank.get(n, len(rank)), n)))


def topic(name: str, code: str | None = None) -> Topic:
    """The topic called ``name`` (a file name with .md is taken too) in language ``code`` (as
    :func:`topics`); a UsageError naming every topic when there is none by that name."""
    wanted = name.strip().removesuffix(".md").lower()
    every = topics(code)
    for t in every:
        if t.name == wanted:
            return t
    raise UsageError(
        T_("no help topic {name}; the topics: {topics}", name=repr(name), topics=", ".join(t.name for t in every))
    )


def relink(
    text: str, link: Callable[[str, str], str], code: str | None = None, anchor: Callable[[str], str] = slug
) -> str:
    """``text`` with every link to another topic replaced by ``link(name, anchor)`` (anchor with its
    ``#``, or empty): the dashboard links to its Help page, the terminal names the command. An
    anchor names its heading in the topic in language ``code`` (None: the reader's language), as
    ``anchor`` spells a heading (:func:`page_anchor` for the dashboard)."""
    code = code or words.language()

    def one(m: re.Match[str]) -> str:
        named = (m["anchor"] or "")[1:]
        at = "#" + heading_anchor(m["name"], named, code, anchor) if named else ""
        return f"]({link(m['name'], at)})"

    return _LINK.sub(one, text)


def heading_anchor(name: str, anchor: str, code: str | None = None, spell: Callable[[str], str] = slug) -> str:
    """The anchor of a section of topic ``name`` named by its English anchor (``names-and-merging``)
    in language ``code`` (None: the reader's), as ``spell`` spells a heading (:func:`page_anchor` on
    the dashboard); the anchor as given when the topic has no such heading."""
    heading = next((t.anchors.get(anchor) for t in _topics_in(code or words.language()) if t.name == name), None)
    return spell(heading) if heading is not None else anchor
