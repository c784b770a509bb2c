"""The post-mortem as Markdown, for a club forum: the same sections as the HTML, charts as text.

Forums render Markdown, and many also pass raw HTML through, so every string from a log goes through
:func:`md_escape`: a backslash goes before every character that could start markup, a link or
formatting (CommonMark lets any ASCII punctuation be escaped): ``<`` and ``&``, so ``<script>`` and
entities stay text; ``*_~`` and the like, so nothing is emphasised; ``[`` and ``]``, so nothing links
or embeds; ``@``, ``:`` before a non-space and ``.`` before a letter or digit, because an escape
splits the text where autolink extensions look for e-mail addresses, ``http:`` and ``www.``; ``|``
for tables; ``{}$^=`` for forum extensions (attributes, maths, superscripts, highlights). Line
breaks become spaces, so a note cannot start a new block, and user text never starts a line, so
``-``, ``+``, ``#`` and digits cannot make lists or headings there ("Mrs. Peacock (1)" stays
readable).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from collections.abc import Set as AbstractSet

from clue_stats.analysis.report import (
    NEGATIVE_GAIN,
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

SPARK = "▁▂▃▄▅▆▇█"
SPARK_WIDTH = 32
MARKUP = "\\`*_~[]<>&|#{}@$^="
_MARKUP = re.compile("([" + re.escape(MARKUP) + "]|:(?=\\S)|\\.(?=\\w))")
_BREAKS = re.compile(r"[\r\n\t\f\v\u2028\u2029]+")


def md_escape(text: object) -> str:
    """Plain text that Markdown shows as it is (and never as HTML, a link or formatting)."""
    return _MARKUP.sub(r"\\\1", _BREAKS.sub(" ", str(text)))


def cards(triple: tuple[str, str, str] | None) -> str:
    return "–" if triple is None else md_escape(", ".join(triple))


def sparkline(series: list[tuple[int, float]], top: float, width: int = SPARK_WIDTH) -> str:
    """The entropy curve in block characters: one per slice of the game, the value at its end."""
    if not series or top <= 0:
        return ""
    last = series[-1][0]
    out = []
    for i in range(1, width + 1):
        at = last * i // width
        value = next((e for s, e in reversed(series) if s <= at), series[0][1])
        out.append(SPARK[min(len(SPARK) - 1, round(value / top * (len(SPARK) - 1)))])
    return "".join(out)


def _table(head: Iterable[str], rows: Iterable[Iterable[str]], numeric: AbstractSet[int] = frozenset()) -> list[str]:
    """Cells must be escaped already."""
    head = list(head)
    lines = [
        "| " + " | ".join(head) + " |",
        "|" + "|".join("---:" if i in numeric else "---" for i in range(len(head))) + "|",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines + [""]


def _brief(pm: PostMortem) -> list[str]:
    b = pm.brief
    where = " at ".join(x for x in (b.played_at, b.place) if x)
    out = ["## The game in brief", ""]
    out.append(f"- **Edition:** {md_escape(b.edition)}")
    if b.variant.lower() != "standard":
        out.append(f"- **Variant:** {md_escape(b.variant)}")
    if where:
        out.append(f"- **Played:** {md_escape(where)}")
    if b.source:
        out.append(f"- **Source:** {md_escape(b.source)}")
    if b.perspective:
        out.append(f"- **Written from:** {md_escape(b.perspective)}’s notebook")
    out.append(f"- **Solution:** {cards(b.solution) if b.solution else 'not known'}")
    out.append(f"- **Winner:** {md_escape(b.winner) if b.winner else 'nobody'}")
    out.append(
        f"- **Records:** {b.records} ({plural(b.suggestions, 'suggestion')}, {plural(b.accusations, 'accusation')}"
        + (f", {plural(b.turns, 'turn')}" if b.turns else "")
        + ")"
    )
    out.append("")
    rows = []
    for p in b.players:
        status = "won" if p.won else ("out" if p.eliminated else "")
        rows.append(
            (
                str(p.seat + 1),
                md_escape(p.name),
                md_escape(p.character) if p.character else "–",
                str(p.hand_size) + ("" if p.hand_known else " (hand not in the log)"),
                _review(p),
                status,
            )
        )
    out += _table(["seat", "player", "character", "cards", "review accuracy", "result"], rows, {0, 4})
    if not b.analysed:
        out += ["_Not analysed yet: run `clue-stats analyse` for accuracy, timing and giveaways._", ""]
    elif b.computed:
        out += ["_The analysis was computed for this report; `clue-stats analyse` stores it._", ""]
    if b.over_budget:
        out += [
            "Left out, over the counting budget (the other sections are whole; `clue-stats analyse` with a "
            "larger budget completes them):",
            "",
            *(f"- {md_escape(message)}" for message in b.over_budget),
            "",
        ]
    return out


def _review(p: PlayerLine) -> str:
    """A player's review accuracy, or why there is none."""
    if not p.hand_known:
        return "hand not in the log"
    if p.review_accuracy is None:
        return "–"
    return f"{share(p.review_accuracy)} ({plural(p.rated_suggestions or 0, 'suggestion')})"


def _entropy(lines: list[EntropyLine]) -> list[str]:
    out = [
        "## Envelope entropy over the game",
        "",
        "Bits of uncertainty about the solution (0 = certain); the curve runs from the first record to the last.",
        "",
    ]
    if not lines:
        return out + ["_Not computed: over the counting budget (see the game in brief)._", ""]
    top = max((line.start for line in lines), default=0.0)
    rows = [
        (
            md_escape(line.observer) + (" (partial view)" if line.partial_view else ""),
            bits(line.start),
            bits(line.after_deal),
            bits(line.end),
            "–" if line.is_table else str(line.certain_seq) if line.certain_seq is not None else "never",
            f"`{sparkline(line.series, top)}`",
        )
        for line in lines
    ]
    return out + _table(
        ["observer", "start", "after the deal", "end", "certain after seq", "over the game"], rows, {1, 2, 3, 4}
    )


def _suggestion_row(s: SuggestionLine) -> tuple[str, ...]:
    shown = (
        "nobody"
        if s.shown_by is None
        else md_escape(s.shown_by) + (f": {md_escape(s.shown_card)}" if s.shown_card else "")
    )
    return (
        str(s.seq),
        md_escape(s.player),
        cards(s.cards),
        shown,
        bits(s.expected_gain),
        bits(s.best_gain),
        "this one" if s.best_cards == s.cards else cards(s.best_cards),
        share(s.accuracy),
        bits(s.bits_lost),
        ("hand not in the log" if not s.rated else md_escape(s.label) if s.label else "–"),
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


def _suggestions(pm: PostMortem) -> list[str]:
    out = ["## Best and worst suggestions", ""]
    if not pm.suggestions:
        return out + ["No suggestions in this game.", ""]
    if not (pm.best or pm.worst):
        return out + ["_Accuracy has not been computed for this game (`clue-stats analyse`)._", ""]
    out += ["**Best**", ""] + _table(SUGGESTION_HEAD, map(_suggestion_row, pm.best), {0, 4, 5, 7, 8})
    if pm.worst:
        out += ["**Worst, and what was best instead**", ""] + _table(
            SUGGESTION_HEAD, map(_suggestion_row, pm.worst), {0, 4, 5, 7, 8}
        )
    else:
        out += ["Every suggestion was as good as any available.", ""]
    return out


def _timing(lines: list[TimingLine], analysed: bool) -> list[str]:
    if not analysed:
        return [
            "## When each player could have accused, and when they did",
            "",
            "_Not analysed yet (run `clue-stats analyse`)._",
            "",
        ]
    rows = []
    for t in lines:
        certain = "never" if t.certain_seq is None else f"{t.certain_seq} ({md_escape(t.certain_after)})"
        accused = "–" if t.accused_seq is None else f"{t.accused_seq}: {cards(t.accused_cards)}"
        rows.append(
            (
                md_escape(t.player),
                certain,
                accused,
                share(t.p_correct),
                str(t.turns_waited) if t.turns_waited is not None else "–",
                md_escape(t.verdict),
            )
        )
    return ["## When each player could have accused, and when they did", ""] + _table(
        ["player", "certain after seq", "accused at seq", "p(correct)", "turns waited", "verdict"], rows, {3, 4}
    )


def _giveaways(lines: list[GiveawayLine]) -> list[str]:
    out = ["## What each refuter gave away", ""]
    if not lines:
        return out + ["Nobody showed a card.", ""]
    rows = []
    for g in lines:
        largest = (
            "–"
            if g.largest is None
            else (
                f"{bits(g.largest.giveaway)} at seq {g.largest.seq} (showed {md_escape(g.largest.shown_card or 'a card')} "
                f"to {md_escape(g.largest.player)})"
            )
        )
        rows.append(
            (
                md_escape(g.refuter),
                str(g.refutations),
                "hand not in the log" if g.with_choice is None else str(g.with_choice),
                bits(g.total_bits) if g.known else "–",
                largest,
            )
        )
    return out + _table(["refuter", "cards shown", "with a choice", "bits given away", "largest"], rows, {1, 2, 3})


def _moments(moments: list[Moment], names: list[str], analysed: bool) -> list[str]:
    out = [
        "## Key moments",
        "",
        "The records that moved the players’ entropies the most (bits; positive = learned). " + NEGATIVE_GAIN,
        "",
    ]
    if not moments:
        return out + [
            "No record changed what the players knew."
            if analysed
            else "_Not analysed yet (run `clue-stats analyse`)._",
            "",
        ]
    head = ["seq", "what happened", *(md_escape(n) for n in names), "table", "moved"]
    rows = []
    for m in moments:
        what = md_escape(m.what) + (f" — _{md_escape(m.note)}_" if m.note else "")
        rows.append((str(m.seq), what, *(bits(m.gains.get(n)) for n in names), bits(m.table_gain), bits(m.moved)))
    return out + _table(head, rows, {0} | set(range(2, len(head))))


def _notes(notes: list[Note]) -> list[str]:
    if not notes:
        return []
    rows = [(str(n.seq), md_escape(n.what), md_escape(n.text)) for n in notes]
    return ["## Notes from the log", ""] + _table(["seq", "record", "note"], rows, {0})


def _stated(lines: list[StatedLine]) -> list[str]:
    if not lines:
        return []
    out = [
        "## What the players said they knew",
        "",
        "Each claim graded against the player's own view at that record: proven, possible (a guess), "
        "false for them; missed = cross-offs their view proved but they did not state.",
        "",
    ]
    rows = [
        (
            md_escape(s.player),
            str(s.statements),
            *(str(s.grades[g]) for g in ("proven", "possible", "false", "missed")),
            share(s.precision) if s.precision is not None else "–",
            share(s.recall) if s.recall is not None else "–",
        )
        for s in lines
    ]
    return out + _table(
        ["player", "statements", "proven", "possible", "false", "missed", "precision", "recall"],
        rows,
        {1, 2, 3, 4, 5, 6, 7},
    )


def render_markdown(pm: PostMortem) -> str:
    b = pm.brief
    lines = [f"# Post-mortem: {md_escape(b.game_id)}", ""]
    lines += _brief(pm) + _entropy(pm.entropy) + _suggestions(pm) + _timing(pm.timing, b.analysed)
    lines += _giveaways(pm.giveaways) + _stated(pm.stated) + _moments(pm.moments, pm.names, b.analysed)
    lines += _notes(pm.notes)
    lines += ["_Made by clue-stats; every probability is exact._", ""]
    return "\n".join(lines)
