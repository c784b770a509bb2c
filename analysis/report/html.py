"""A report's document (:mod:`analysis.report.document`) as one self-contained HTML page: inline CSS,
charts as inline SVG, no script; fluid from a phone's 390 px to a desktop (wide tables scroll
inside their own box, the page never does).

Every string of the document is plain text and goes through :func:`esc`; nothing from a log is
ever emitted as markup. A Content-Security-Policy forbids scripts and every load from elsewhere, as
a second fence behind the escaping, and keeps a browser from fetching anything when the file is
opened.
"""

from __future__ import annotations

import html

from clue_stats.analysis.report.document import (
    CODE,
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
    Span,
    Subheading,
    Table,
    Text,
    plain,
)
from clue_stats.analysis.report.sections import document
from clue_stats.analysis.review.post_mortem import PostMortem

CSP = "default-src 'none'; style-src 'unsafe-inline'"

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 72rem;
       padding: 0 1rem; color: #222; line-height: 1.45; overflow-wrap: break-word; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; overflow-wrap: anywhere; }
h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; }
.meta { color: #555; margin-top: 0; }
.table { overflow-x: auto; margin: .6rem 0; }
table { border-collapse: collapse; font-size: .85rem; }
th, td { border-bottom: 1px solid #e4e4e4; padding: .25rem .35rem; text-align: left; vertical-align: top; }
th { background: #f6f6f6; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.chart { margin: 1rem 0; } .chart svg { max-width: 100%; height: auto; } .chart .narrow { display: none; }
.label-best { color: #1a7a40; } .label-good { color: #4d8a1f; } .label-inaccuracy { color: #9a7b00; }
.label-mistake { color: #b86b00; } .label-blunder { color: #b3261e; } .note { color: #555; font-style: italic; }
.muted { color: #777; } .over-budget { border-left: 3px solid #b86b00; padding-left: 0.6em; }
@media (max-width: 40rem) { body { margin: 1rem auto; padding: 0 .6rem; } h1 { font-size: 1.35rem; } h2 { font-size: 1.2rem; }
  th, td { padding: .2rem .4rem; }
  .chart .wide { display: none; } .chart .narrow { display: block; }
  .cards thead { display: none; }
  .cards table, .cards tbody, .cards tr, .cards td { display: block; width: 100%; box-sizing: border-box; }
  .cards tr { padding: .35rem 0; border-bottom: 1px solid #ccc; }
  .cards td { display: grid; grid-template-columns: 40% minmax(0, 1fr); gap: .6rem; border: none;
    padding: .1rem 0; text-align: left; }
  .cards td.num { text-align: left; }
  .cards td::before { content: attr(data-label); font-weight: 600; color: #555; } }
"""


def esc(text: object) -> str:
    """Text for HTML content or a quoted attribute."""
    return html.escape(str(text), quote=True)


def text(t: Text) -> str:
    if isinstance(t, str):
        return esc(t)
    if isinstance(t, Break):
        return "<br>"
    if isinstance(t, tuple):
        return "".join(text(part) for part in t)
    inner = text(t.text)
    if t.style == STRONG:
        inner = f"<b>{inner}</b>"
    elif t.style == CODE:
        inner = f"<code>{inner}</code>"
    elif t.style == NOTE:
        inner = f'<span class="note">{inner}</span>'
    elif t.style is not None:  # muted, label-<label>
        inner = f'<span class="{esc(t.style)}">{inner}</span>'
    return f'<a href="#{esc(t.link)}">{inner}</a>' if t.link else inner


def _table(table: Table, head: bool = True) -> str:
    columns = [i for i in range(len(table.head)) if i not in table.text_only]
    # a table with a head: on a phone a card a row, each cell beside its header (data-label)
    out = ['<div class="table cards"><table>' if head else '<div class="table"><table>']
    if head:
        out += ["<thead><tr>", *(f"<th>{text(table.head[i])}</th>" for i in columns), "</tr></thead>"]
    out.append("<tbody>")
    labels = {i: f' data-label="{esc(plain(table.head[i]))}"' if head else "" for i in columns}
    for row in table.rows:
        cells = (
            f'<td class="num"{labels[i]}>{text(row[i])}</td>'
            if i in table.numeric
            else f"<td{labels[i]}>{text(row[i])}</td>"
            for i in columns
        )
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def block(b: Block, level: int) -> str:
    """One block of a section whose heading is h``level``."""
    if isinstance(b, Paragraph):
        return f'<p class="{esc(b.style)}">{text(b.text)}</p>' if b.style else f"<p>{text(b.text)}</p>"
    if isinstance(b, Subheading):
        return f"<h{level + 1}>{text(b.text)}</h{level + 1}>"
    if isinstance(b, Facts):
        return _table(Table(["", ""], [[Span(k, STRONG), v] for k, v in b.items]), head=False)
    if isinstance(b, Items):
        return "<ul>" + "".join(f"<li>{text(item)}</li>" for item in b.items) + "</ul>"
    if isinstance(b, Table):
        return _table(b)
    if isinstance(b, Figure):
        from clue_stats.analysis.report.svg_charts import NARROW_WIDTH, WIDTH  # deferred: start-up

        return (
            f'<figure class="chart" data-chart="{esc(b.name)}"><div class="wide">{b.draw(WIDTH)}</div>'
            f'<div class="narrow">{b.draw(NARROW_WIDTH)}</div>'
            f'<figcaption class="muted">{text(b.caption)}</figcaption></figure>'
        )
    if isinstance(b, Details):
        inner = "".join(block(x, level) for x in b.blocks)
        return f"<details><summary>{text(b.summary)}</summary>{inner}</details>"
    if isinstance(b, Aside):
        return '<div class="over-budget">' + "".join(block(x, level) for x in b.blocks) + "</div>"
    raise TypeError(f"not a block: {b!r}")


def section(s: Section, level: int = 2) -> str:
    """A section and those under it; its heading is h``level``. A section holding others (a night's
    game) is an article."""
    tag = "article" if s.sections or s.back else "section"
    out = [f'<{tag} id="{esc(s.id)}"><h{level}>{text(s.title)}</h{level}>']
    out += [block(b, level) for b in s.blocks]
    out += [section(sub, level + 1) for sub in s.sections]
    if s.back is not None:
        out.append(f'<p><a href="#{esc(s.back[1])}">{text(s.back[0])}</a></p>')
    out.append(f"</{tag}>")
    return "".join(out)


def page_head(title: str, lang: str = "en") -> str:
    """The start of a self-contained page: no script, nothing loaded from elsewhere."""
    return (
        f'<!DOCTYPE html>\n<html lang="{esc(lang)}"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>"
    )


def render_document(doc: Document) -> str:
    """A document as one page."""
    out = [page_head(plain(doc.title), doc.lang), f"<h1>{text(doc.title)}</h1>"]
    if doc.meta:
        out.append(f'<p class="meta">{text(doc.meta)}</p>')
    out += [section(s) for s in doc.sections]
    out.append(f'<footer class="muted"><p>{text(doc.footer)}</p></footer></body></html>\n')
    return "".join(out)


def render_html(pm: PostMortem, charts: bool = True) -> str:
    """The whole report as one HTML document (charts=False leaves the SVG out, e.g. for quick tests)."""
    return render_document(document(pm, charts))
