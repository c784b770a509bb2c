"""A report as a document: sections of paragraphs, facts, tables of plain cells and figures, built
once and written by a renderer (:mod:`analysis.report.html`, :mod:`analysis.report.markdown`), as
python-chess's exporters write one game over one traversal. The game's report builds its document
in :mod:`analysis.report.sections`, the night's in :mod:`analysis.report.night_document`.

Every string here is plain text, as the log or the words (:mod:`analysis.words`) gave it; only a
renderer escapes, each for its own format. A piece of text is a :data:`Text`: a string, a
:class:`Span` that marks how part of it is shown (strong, muted, a note, code, a link to a
section), a :class:`Break`, or a tuple of them. A sentence that holds marked parts is written whole
and filled by :func:`compose`, so a translation can move the parts.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeAlias

STRONG, MUTED, NOTE, CODE = "strong", "muted", "note", "code"
META = "meta"  # a paragraph's style: the line under a title


@dataclass(frozen=True)
class Span:
    """Text shown a certain way: ``style`` is STRONG, MUTED, NOTE, CODE, or ``label-<label>`` (a
    suggestion's label, coloured in HTML); ``link`` makes it a link to the section of that id."""

    text: Text
    style: str | None = None
    link: str | None = None


@dataclass(frozen=True)
class Break:
    """A line break inside a cell (HTML) or a dash between its parts (Markdown)."""


Text: TypeAlias = str | Span | Break | tuple["Text", ...]


@dataclass(frozen=True)
class Paragraph:
    text: Text
    style: str | None = None  # MUTED, or META


@dataclass(frozen=True)
class Subheading:
    text: Text


@dataclass(frozen=True)
class Facts:
    """Labelled facts (the game in brief): a two-column table in HTML, a list in Markdown."""

    items: list[tuple[Text, Text]]


@dataclass(frozen=True)
class Items:
    """A list of plain items (what the counting budget left out)."""

    items: list[Text]


@dataclass(frozen=True)
class Table:
    head: list[Text]
    rows: list[list[Text]]
    numeric: frozenset[int] = frozenset()  # columns of numbers, set right
    text_only: frozenset[int] = frozenset()  # columns that stand in for a figure: only where figures are not drawn


@dataclass(frozen=True)
class Figure:
    """A chart: SVG in HTML (drawn only when rendered); a text renderer leaves it out."""

    name: str
    draw: Callable[[int], str]  # the SVG at a width in pixels (a desktop's and a phone's)
    caption: Text


@dataclass(frozen=True)
class Details:
    """More of the same, folded away in HTML; Markdown, a forum post, leaves it out."""

    summary: Text
    blocks: list[Block]


@dataclass(frozen=True)
class Aside:
    """Blocks set apart as a warning (what the counting budget left out)."""

    blocks: list[Block]


Block: TypeAlias = Paragraph | Subheading | Facts | Items | Table | Figure | Details | Aside


@dataclass
class Section:
    id: str
    title: Text
    blocks: list[Block] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)  # under this one (a night's games)
    back: tuple[Text, str] | None = None  # a closing link (text, section id)


@dataclass
class Document:
    title: Text
    meta: Text | None
    sections: list[Section]
    footer: Text
    lang: str = "en"  # the language its words are in (the HTML page's lang)


_FIELD = re.compile(r"\{(\w+)\}")


def compose(template: str, **parts: Text) -> Text:
    """A sentence with marked parts: ``compose(_("record {seq} of {game}"), seq="3", game=Span(...))``.
    The template is plain text with ``{name}`` fields (a translation may reorder them); each field
    is replaced by its part, kept as it is (a link stays a link)."""
    pieces: list[Text] = []
    at = 0
    for match in _FIELD.finditer(template):
        if match.start() > at:
            pieces.append(template[at : match.start()])
        pieces.append(parts[match.group(1)])
        at = match.end()
    if at < len(template):
        pieces.append(template[at:])
    return tuple(pieces)


def plain(text: Text) -> str:
    """The text without its marks."""
    if isinstance(text, str):
        return text
    if isinstance(text, Span):
        return plain(text.text)
    if isinstance(text, Break):
        return " "
    return "".join(plain(t) for t in text)


def prefixed(section: Section, prefix: str) -> Section:
    """A copy of a section whose ids are unique on a page of several games."""
    return Section(
        f"{prefix}-{section.id}",
        section.title,
        section.blocks,
        [prefixed(s, prefix) for s in section.sections],
        section.back,
    )
