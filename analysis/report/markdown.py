"""A report's document (:mod:`analysis.report.document`) as Markdown, for a club forum: the sections the
HTML writes, without its figures (the entropy table's curve in text stands in for the chart) and
without what the HTML folds away.

Forums render Markdown, and many also pass raw HTML through, so every string from a log goes through
:func:`md_escape`: a backslash goes before every character that could start markup, a link or
formatting (CommonMark lets any ASCII punctuation be escaped): ``<`` and ``&``, so ``<script>`` and
entities stay text; ``*_~`` and the like, so nothing is emphasised; ``[`` and ``]``, so nothing links
or embeds; ``@``, ``:`` before a non-space and ``.`` before a letter or digit, because an escape
splits the text where autolink extensions look for e-mail addresses, ``http:`` and ``www.`` (a
decimal point or a colon after a digit is left as it is: "0.82", "20:00"); ``|`` for tables; ``{}$^`` and ``==`` for
forum extensions (attributes, maths, superscripts, highlights; a lone ``=`` is left as it is). Line
breaks become spaces, so a note cannot start a new block, and user text never starts a line, so
``-``, ``+``, ``#`` and digits cannot make lists or headings there ("Mrs. Peacock (1)" stays
readable).
"""

from __future__ import annotations

import re

from clue_stats.analysis.report.document import (
    CODE,
    META,
    MUTED,
    NOTE,
    STRONG,
    Aside,
    Block,
    Break,
    Details,
    Document,
    Facts,
    Figure,
    Items,
    Paragraph,
    Section,
    Subheading,
    Table,
    Text,
    plain,
)
from clue_stats.analysis.report.sections import document, sparkline
from clue_stats.analysis.review.post_mortem import PostMortem

__all__ = ["md_escape", "render_document", "render_markdown", "sparkline"]

MARKUP = "\\`*_~[]<>&|#{}@$^"
_MARKUP = re.compile(
    "([" + re.escape(MARKUP) + "]|(?<!\\d):(?=\\S)|\\.(?=[^\\W\\d])|(?<!\\d)\\.(?=\\d)|=(?==)|(?<==)=)"
)
_BREAKS = re.compile(r"[\r\n\t\f\v\u2028\u2029]+")


def md_escape(text: object) -> str:
    """Plain text that Markdown shows as it is (and never as HTML, a link or formatting)."""
    return _MARKUP.sub(r"\\\1", _BREAKS.sub(" ", str(text)))


def text(t: Text) -> str:
    if isinstance(t, str):
        return md_escape(t)
    if isinstance(t, Break):
        return " — "
    if isinstance(t, tuple):
        return "".join(text(part) for part in t)
    if t.style == CODE:  # a code span shows its text as it is: only the report's own commands and curves go there
        inner = "`" + plain(t.text).replace("`", "'") + "`"
    else:
        inner = text(t.text)
        if t.style == STRONG:
            inner = f"**{inner}**"
        elif t.style == NOTE:
            inner = f"_{inner}_"
    return f"[{inner}](#{t.link})" if t.link else inner


def _table(table: Table) -> list[str]:
    columns = range(len(table.head))
    lines = [
        "| " + " | ".join(text(table.head[i]) for i in columns) + " |",
        "|" + "|".join("---:" if i in table.numeric else "---" for i in columns) + "|",
    ]
    lines += ["| " + " | ".join(text(row[i]) for i in columns) + " |" for row in table.rows]
    return lines + [""]


def block(b: Block) -> list[str]:
    if isinstance(b, Paragraph):
        return [f"_{text(b.text)}_" if b.style in (MUTED, META) else text(b.text), ""]
    if isinstance(b, Subheading):
        return [f"**{text(b.text)}**", ""]
    if isinstance(b, Facts):
        return [f"- **{text(k)}:** {text(v)}" for k, v in b.items] + [""]
    if isinstance(b, Items):
        return [f"- {text(item)}" for item in b.items] + [""]
    if isinstance(b, Table):
        return _table(b)
    if isinstance(b, Aside):
        return [line for inner in b.blocks for line in block(inner)]
    if isinstance(b, (Figure, Details)):  # a forum post: no charts, nothing folded away
        return []
    raise TypeError(f"not a block: {b!r}")


def section(s: Section, level: int = 2) -> list[str]:
    lines = [f'<a id="{s.id}"></a>', ""] if s.sections or s.back else []  # a section others link to
    lines += [f"{'#' * level} {text(s.title)}", ""]
    for b in s.blocks:
        lines += block(b)
    for sub in s.sections:
        lines += section(sub, level + 1)
    return lines


def render_document(doc: Document) -> str:
    lines = [f"# {text(doc.title)}", ""]
    if doc.meta:
        lines += [f"_{text(doc.meta)}_", ""]
    for s in doc.sections:
        lines += section(s)
    lines += [f"_{text(doc.footer)}_", ""]
    return "\n".join(lines)


def render_markdown(pm: PostMortem) -> str:
    return render_document(document(pm, charts=False))
