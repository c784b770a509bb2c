"""The post-mortem as one self-contained HTML file: inline CSS, charts as inline SVG, no script.

Every string that comes from a log (player names, notes, the place, card names of a custom deck)
goes through :func:`esc`; nothing from a log is ever emitted as markup. A Content-Security-Policy
forbids scripts and every load from elsewhere, as a second fence behind the escaping, and keeps a
browser from fetching anything when the file is opened.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from collections.abc import Set as AbstractSet

from clue_stats.analysis.report import (
    NEGATIVE_GAIN,
    Brief,
    EntropyLine,
    GiveawayLine,
    Moment,
    Note,
    PlayerLine,
    PostMortem,
    StatedLine,
    SuggestionLine,
    TimingLine,
    plural,
)
from clue_stats.analysis.report import fmt_bits as bits
from clue_stats.analysis.report import fmt_share as share
from clue_stats.analysis.report_charts import entropy_chart, suggestion_chart, to_svg

CSP = "default-src 'none'; style-src 'unsafe-inline'"

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 60rem;
       padding: 0 1rem; color: #222; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; }
.meta { color: #555; margin-top: 0; }
table { border-collapse: collapse; margin: .6rem 0; font-size: .92rem; }
th, td { border-bottom: 1px solid #e4e4e4; padding: .25rem .6rem; text-align: left; vertical-align: top; }
th { background: #f6f6f6; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.chart { margin: 1rem 0; overflow-x: auto; } .chart svg { max-width: 100%; height: auto; }
.label-best { color: #1a7a40; } .label-good { color: #4d8a1f; } .label-inaccuracy { color: #9a7b00; }
.label-mistake { color: #b86b00; } .label-blunder { color: #b3261e; } .note { color: #555; font-style: italic; } .muted { color: #777; } .over-budget { border-left: 3px solid #b86b00; padding-left: 0.6em; }
"""


def esc(text: object) -> str:
    """Text for HTML content or a quoted attribute."""
    return html.escape(str(text), quote=True)


def cards(triple: tuple[str, str, str] | None) -> str:
    return "–" if triple is None else esc(", ".join(triple))


def _table(head: Iterable[str] | None, rows: Iterable[Iterable[str]], numeric: AbstractSet[int] = frozenset()) -> str:
    """Cells must be escaped already (they may hold markup the report itself made)."""
    out = ["<table>"]
    if head is not None:
        out += ["<thead><tr>", *(f"<th>{h}</th>" for h in head), "</tr></thead>"]
    out.append("<tbody>")
    for row in rows:
        out.append(
            "<tr>"
            + "".join(f'<td class="num">{c}</td>' if i in numeric else f"<td>{c}</td>" for i, c in enumerate(row))
            + "</tr>"
        )
    out.append("</tbody></table>")
    return "".join(out)


def _figure(svg: str, caption: str, name: str) -> str:
    return (
        f'<figure class="chart" data-chart="{name}">{svg}<figcaption class="muted">{esc(caption)}</figcaption></figure>'
    )


def _brief(b: Brief) -> str:
    facts = [
        ("Edition", esc(b.edition)),
        ("Played", esc(" at ".join(x for x in (b.played_at, b.place) if x)) or "–"),
        ("Source", esc(b.source) if b.source else "–"),
        ("Solution", cards(b.solution) if b.solution else "not known"),
        ("Winner", esc(b.winner) if b.winner else "nobody"),
        (
            "Records",
            f"{b.records} ({plural(b.suggestions, 'suggestion')}, {plural(b.accusations, 'accusation')}"
            + (f", {plural(b.turns, 'turn')}" if b.turns else "")
            + ")",
        ),
    ]
    if b.variant.lower() != "standard":
        facts.insert(1, ("Variant", esc(b.variant)))
    if b.perspective:
        facts.insert(3, ("Written from", f"{esc(b.perspective)}’s notebook"))
    out = ['<section id="brief"><h2>The game in brief</h2>', _table(None, [(f"<b>{k}</b>", v) for k, v in facts])]
    rows = []
    for p in b.players:
        status = "won" if p.won else ("out (wrong accusation)" if p.eliminated else "")
        rows.append(
            (
                str(p.seat + 1),
                esc(p.name),
                esc(p.character) if p.character else "–",
                str(p.hand_size) + ("" if p.hand_known else ' <span class="muted">(hand not in the log)</span>'),
                str(p.turn_order + 1) if p.turn_order is not None else "–",
                _review(p),
                status,
            )
        )
    out.append(_table(["seat", "player", "character", "cards", "played", "review accuracy", "result"], rows, {0, 4, 5}))
    if not b.analysed:
        out.append(
            '<p class="muted">This game has not been analysed yet: run <code>clue-stats analyse</code> '
            "for suggestion accuracy, accusation timing and what refuters gave away.</p>"
        )
    elif b.computed:
        out.append(
            '<p class="muted">The analysis was computed for this report; the database does not hold it '
            "(<code>clue-stats analyse</code> stores it).</p>"
        )
    if b.over_budget:
        out.append(
            '<div class="over-budget"><p>Left out, over the counting budget (the other sections are whole; '
            "<code>clue-stats analyse</code> with a larger budget completes them):</p><ul>"
            + "".join(f"<li>{esc(message)}</li>" for message in b.over_budget)
            + "</ul></div>"
        )
    out.append("</section>")
    return "".join(out)


def _review(p: PlayerLine) -> str:
    """A player's review accuracy, or why there is none."""
    if not p.hand_known:
        return '<span class="muted">hand not in the log</span>'
    if p.review_accuracy is None:
        return "–"
    return f'{share(p.review_accuracy)} <span class="muted">({plural(p.rated_suggestions or 0, "suggestion")})</span>'


def _entropy(lines: list[EntropyLine], timing: list[TimingLine], charts: bool) -> str:
    out = [
        '<section id="entropy"><h2>Envelope entropy over the game</h2>',
        "<p>How uncertain each player was about the solution after every record, in bits (0 = certain). "
        "The dashed line is the table: a spectator who sees no cards.</p>",
    ]
    if not lines:
        out.append('<p class="muted">Not computed: over the counting budget (see the game in brief).</p></section>')
        return "".join(out)
    if charts and lines:
        out.append(
            _figure(
                to_svg(entropy_chart(lines, timing)), "Diamonds: correct accusations; crosses: wrong ones.", "entropy"
            )
        )
    rows = [
        (
            esc(line.observer) + (' <span class="muted">(partial view)</span>' if line.partial_view else ""),
            bits(line.start),
            bits(line.after_deal),
            bits(line.end),
            "–" if line.is_table else str(line.certain_seq) if line.certain_seq is not None else "never",
        )
        for line in lines
    ]
    out.append(_table(["observer", "start", "after the deal", "end", "certain after seq"], rows, {1, 2, 3, 4}))
    out.append("</section>")
    return "".join(out)


def _label(s: SuggestionLine) -> str:
    if not s.rated:
        return '<span class="muted">hand not in the log</span>'
    return f'<span class="label-{esc(s.label)}">{esc(s.label)}</span>' if s.label else "–"


def _suggestion_row(s: SuggestionLine) -> tuple[str, ...]:
    shown = "nobody" if s.shown_by is None else esc(s.shown_by) + (f": {esc(s.shown_card)}" if s.shown_card else "")
    return (
        str(s.seq),
        esc(s.player),
        cards(s.cards),
        shown,
        bits(s.expected_gain),
        bits(s.best_gain),
        "this one" if s.best_cards == s.cards else cards(s.best_cards),
        share(s.accuracy),
        bits(s.bits_lost),
        _label(s),
    )


SUGGESTION_HEAD = [
    "seq",
    "player",
    "suggested",
    "shown",
    "expected gain",
    "best available",
    "best instead",
    "accuracy",
    "bits lost",
    "label",
]


def _suggestions(pm: PostMortem, charts: bool) -> str:
    out = [
        '<section id="suggestions"><h2>Best and worst suggestions</h2>',
        "<p>Expected gain: the bits the suggester could expect to learn, before the answers. Best available: the "
        "most any suggestion open to them could have given, and which one. Accuracy = expected / best.</p>",
    ]
    if not pm.suggestions:
        out.append("<p>No suggestions in this game.</p></section>")
        return "".join(out)
    chart = suggestion_chart(pm.suggestions) if charts else None
    if chart is not None:
        out.append(
            _figure(to_svg(chart), "Bars are coloured by label; a tick marks the best available gain.", "suggestions")
        )
    if pm.best or pm.worst:
        out.append("<h3>Best</h3>" + _table(SUGGESTION_HEAD, map(_suggestion_row, pm.best), {0, 4, 5, 7, 8}))
        if pm.worst:
            out.append(
                "<h3>Worst, and what was best instead</h3>"
                + _table(SUGGESTION_HEAD, map(_suggestion_row, pm.worst), {0, 4, 5, 7, 8})
            )
        else:
            out.append("<p>Every suggestion was as good as any available.</p>")
    else:
        out.append(
            '<p class="muted">Accuracy has not been computed for this game (<code>clue-stats analyse</code>).</p>'
        )
    out.append(
        f"<details><summary>All {len(pm.suggestions)} suggestions</summary>"
        + _table(SUGGESTION_HEAD, map(_suggestion_row, pm.suggestions), {0, 4, 5, 7, 8})
        + "</details></section>"
    )
    return "".join(out)


def _timing(lines: list[TimingLine], analysed: bool) -> str:
    if not analysed:
        return (
            '<section id="accusations"><h2>When each player could have accused, and when they did</h2>'
            '<p class="muted">Not analysed yet (run <code>clue-stats analyse</code>).</p></section>'
        )
    rows = []
    for t in lines:
        certain = (
            "never" if t.certain_seq is None else f'{t.certain_seq} <span class="muted">({esc(t.certain_after)})</span>'
        )
        accused = "–" if t.accused_seq is None else f"{t.accused_seq}: {cards(t.accused_cards)}"
        rows.append(
            (
                esc(t.player),
                certain,
                accused,
                share(t.p_correct),
                str(t.turns_waited) if t.turns_waited is not None else "–",
                esc(t.verdict),
            )
        )
    return (
        '<section id="accusations"><h2>When each player could have accused, and when they did</h2>'
        "<p>Certain: the first record after which only one solution was possible for them. p(correct): their "
        "probability of the accused solution just before accusing. Turns waited: own turns that ended after "
        "they were certain, before the accusing one.</p>"
        + _table(
            ["player", "certain after seq", "accused at seq", "p(correct)", "turns waited", "verdict"], rows, {3, 4}
        )
        + "</section>"
    )


def _giveaways(lines: list[GiveawayLine]) -> str:
    out = [
        '<section id="giveaways"><h2>What each refuter gave away</h2>',
        "<p>When a refuter held several of the named cards, the card they chose told the suggester more or less: "
        "given away = what the suggester learned from the card shown minus the least any card they held could "
        "have told (0 with no choice).</p>",
    ]
    if not lines:
        out.append("<p>Nobody showed a card.</p></section>")
        return "".join(out)
    rows = []
    for g in lines:
        choice = '<span class="muted">hand not in the log</span>' if g.with_choice is None else str(g.with_choice)
        largest = (
            "–"
            if g.largest is None
            else (
                f"{bits(g.largest.giveaway)} at seq {g.largest.seq} (showed {esc(g.largest.shown_card or 'a card')} "
                f"to {esc(g.largest.player)})"
            )
        )
        total = bits(g.total_bits) if g.known else "–"
        rows.append((esc(g.refuter), str(g.refutations), choice, total, largest))
    out.append(_table(["refuter", "cards shown", "with a choice", "bits given away", "largest"], rows, {1, 2, 3}))
    out.append("</section>")
    return "".join(out)


def _stated(lines: list[StatedLine]) -> str:
    if not lines:
        return ""
    rows = [
        (
            esc(s.player),
            str(s.statements),
            *(str(s.grades[g]) for g in ("proven", "possible", "false", "missed")),
            share(s.precision) if s.precision is not None else "–",
            share(s.recall) if s.recall is not None else "–",
        )
        for s in lines
    ]
    return "".join(
        [
            '<section id="stated"><h2>What the players said they knew</h2>',
            "<p>Each claim graded against the player's own view at that record: proven, possible (a guess), "
            "false for them; missed = cross-offs their view proved but they did not state. Precision = proven / "
            "stated, recall = proven / (proven + missed).</p>",
            _table(
                ["player", "statements", "proven", "possible", "false", "missed", "precision", "recall"],
                rows,
                {1, 2, 3, 4, 5, 6, 7},
            ),
            "</section>",
        ]
    )


def _moments(moments: list[Moment], names: list[str], analysed: bool) -> str:
    out = [
        '<section id="moments"><h2>Key moments</h2>',
        "<p>The records that moved the players’ entropies the most (sum of every player’s change, in bits; "
        "positive = learned). " + NEGATIVE_GAIN + "</p>",
    ]
    if not moments:
        out.append(
            '<p class="muted">'
            + (
                "No record changed what the players knew."
                if analysed
                else "Not analysed yet (run <code>clue-stats analyse</code>)."
            )
            + "</p></section>"
        )
        return "".join(out)
    head = ["seq", "what happened", *(esc(n) for n in names), "table", "moved"]
    rows = []
    for m in moments:
        what = esc(m.what) + (f'<br><span class="note">“{esc(m.note)}”</span>' if m.note else "")
        rows.append((str(m.seq), what, *(bits(m.gains.get(n)) for n in names), bits(m.table_gain), bits(m.moved)))
    numeric = set(range(2, len(head))) | {0}
    out.append(_table(head, rows, numeric) + "</section>")
    return "".join(out)


def _notes(notes: list[Note]) -> str:
    if not notes:
        return ""
    rows = [(str(n.seq), esc(n.what), f'<span class="note">{esc(n.text)}</span>') for n in notes]
    return (
        '<section id="notes"><h2>Notes from the log</h2>' + _table(["seq", "record", "note"], rows, {0}) + "</section>"
    )


def sections_html(pm: PostMortem, charts: bool = True) -> str:
    """The report's sections, without the page around them (the night's summary holds several)."""
    b = pm.brief
    return "".join(
        [
            _brief(b),
            _entropy(pm.entropy, pm.timing, charts),
            _suggestions(pm, charts),
            _timing(pm.timing, b.analysed),
            _giveaways(pm.giveaways),
            _stated(pm.stated),
            _moments(pm.moments, pm.names, b.analysed),
            _notes(pm.notes),
        ]
    )


def page_head(title: str) -> str:
    """The start of a self-contained page: no script, nothing loaded from elsewhere."""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>"
    )


def render_html(pm: PostMortem, charts: bool = True) -> str:
    """The whole report as one HTML document (charts=False leaves the SVG out, e.g. for quick tests)."""
    b = pm.brief
    title = f"Post-mortem: {b.game_id}"
    subtitle = " · ".join(esc(x) for x in (b.edition, b.played_at, b.place) if x)
    return "".join(
        [
            page_head(title),
            f'<h1>{esc(title)}</h1><p class="meta">{subtitle}</p>',
            sections_html(pm, charts),
            '<footer class="muted"><p>Made by clue-stats. Every probability is exact: counted over the deals '
            "consistent with what each player saw.</p></footer></body></html>\n",
        ]
    )
