"""The night's summary as one self-contained HTML page, or as Markdown: the summary first (games,
winners, the night's best suggestion and biggest blunder, the longest wait after certainty, each
player's review accuracy and rating change), then every game's own post-mortem, linked from above.

Every string from a log (names, places, ids) is escaped here, as in analysis.report_html.
"""

from __future__ import annotations

import re

from clue_stats.analysis.night import Night, NightPlayer, Pick
from clue_stats.analysis.report import PostMortem, fmt_bits, fmt_share, plural
from clue_stats.analysis.report_html import _table, esc, page_head, sections_html
from clue_stats.analysis.report_md import md_escape, render_markdown


def _change(p: NightPlayer) -> str:
    change = p.rating_change
    if change is None:
        return "–"
    return f"{change:+.1f}"


def _rating(value: float | None, sigma: float | None = None) -> str:
    if value is None:
        return "–"
    return f"{value:.1f}" + (f" (± {sigma:.1f})" if sigma is not None else "")


def _highlights(night: Night, link) -> list[tuple[str, str]]:
    """(what, sentence) for the night's best suggestion, biggest blunder and longest wait; ``link``
    makes the reference to a game's section."""
    out = []
    if night.best is not None:
        b = night.best
        out.append(
            (
                "Best suggestion",
                f"{b.player}: {', '.join(b.cards)} (record {b.seq} of {link(b)}): expected to learn "
                f"{fmt_bits(b.values['expected_gain_bits'])} bits, accuracy {fmt_share(b.values['accuracy'])}",
            )
        )
    if night.blunder is not None:
        w = night.blunder
        instead = w.values["best_cards"]
        out.append(
            (
                "Biggest blunder" if w.values["label"] == "blunder" else "Largest loss",
                f"{w.player}: {', '.join(w.cards)} (record {w.seq} of {link(w)}): "
                f"{fmt_bits(w.values['bits_lost'])} bits lost"
                + (f"; {', '.join(instead)} was best" if instead and instead != w.cards else ""),
            )
        )
    if night.longest_wait is not None:
        t = night.longest_wait
        verdict = "and won" if t.values["correct"] else ("and was wrong" if t.values["correct"] is False else "")
        out.append(
            (
                "Longest wait after certainty",
                f"{t.player} was certain after record {t.values['first_certain_seq']} of {link(t)} and waited "
                f"{plural(t.values['turns_waited'], 'turn')} before accusing {verdict}".rstrip(),
            )
        )
    return out


# ---------------------------------------------------------------- HTML


def _prefixed(html_text: str, prefix: str) -> str:
    """A game's sections with their ids made unique on a page of several games."""
    return re.sub(r'\bid="', f'id="{prefix}-', html_text)


def render_night_html(night: Night, pms: dict[str, PostMortem], charts: bool = True) -> str:
    out = [page_head(night.title), f"<h1>{esc(night.title)}</h1>"]
    places = sorted({g.place for g in night.games if g.place})
    out.append(
        f'<p class="meta">{esc(plural(len(night.games), "game"))}'
        + (f" · {esc(', '.join(places))}" if places else "")
        + "</p>"
    )
    if not night.games:
        out.append(
            "<p>No stored game was played on this night (a night runs until 06:00 the next morning; "
            "games without <code>played_at</code> belong to no night).</p></body></html>\n"
        )
        return "".join(out)
    out.append('<section id="games"><h2>The games</h2>')
    rows = []
    for i, g in enumerate(night.games, 1):
        rows.append(
            (
                str(i),
                f'<a href="#{esc(g.anchor)}">{esc(g.game_id)}</a>',
                esc(g.played_at or "–"),
                esc(", ".join(g.players)),
                f"<b>{esc(g.winner)}</b>" if g.winner else '<span class="muted">nobody</span>',
            )
        )
    out.append(_table(["#", "game", "played", "players", "winner"], rows, {0}) + "</section>")

    def link(pick: Pick) -> str:
        return f'<a href="#{esc(pick.anchor)}">{esc(pick.game_id)}</a>'

    highlights = _highlights_html(night, link)
    out.append('<section id="highlights"><h2>The night’s moments</h2>')
    out.append(
        _table(None, [(f"<b>{esc(k)}</b>", v) for k, v in highlights])
        if highlights
        else '<p class="muted">No rated suggestion and no late accusation: the games were not reviewed, '
        "or their logs hold no hands (<code>clue-stats analyse</code>).</p>"
    )
    out.append("</section>")
    out.append(
        '<section id="players"><h2>The players</h2><p>Review accuracy: the information their suggestions could '
        "expect to gain over the most the best suggestions could have (1 = the best every time), averaged over "
        "their games of the night; – where none of their suggestions was rated (their hand is not in the log). Rating: the conservative rating (mu - 3 sigma; `clue-stats docs league` explains it) before their "
        "first game of the night and after their last, with its uncertainty.</p>"
    )
    player_rows = [
        (
            esc(p.player) + (f' <span class="muted">({esc(p.pool)})</span>' if p.pool != "people" else ""),
            str(p.games),
            str(p.wins),
            fmt_share(p.review_accuracy),
            "–" if p.missed_wins is None else str(p.missed_wins),
            _rating(p.rating_before),
            _rating(p.rating_after, p.sigma_after),
            _change(p),
        )
        for p in night.players
    ]
    out.append(
        _table(
            ["player", "games", "wins", "review accuracy", "missed wins", "rating before", "rating after", "change"],
            player_rows,
            {1, 2, 3, 4, 5, 6, 7},
        )
        + "</section>"
    )
    for i, g in enumerate(night.games, 1):
        pm = pms.get(g.game_id)
        out.append(f'<article id="{esc(g.anchor)}" class="game"><h2>Game {i}: {esc(g.game_id)}</h2>')
        out.append(f'<p class="meta">{esc(" · ".join(x for x in (g.played_at, g.place) if x))}</p>')
        if pm is not None:
            out.append(_prefixed(sections_html(pm, charts), g.anchor).replace("<h2>", "<h3>").replace("</h2>", "</h3>"))
        out.append('<p><a href="#games">back to the games</a></p></article>')
    out.append(
        '<footer class="muted"><p>Made by clue-stats. Every probability is exact: counted over the deals '
        "consistent with what each player saw.</p></footer></body></html>\n"
    )
    return "".join(out)


def _highlights_html(night: Night, link) -> list[tuple[str, str]]:
    # the sentence is built from plain text, then escaped; the game's link is put in afterwards
    marker = "\x00{}\x00"
    plain = _highlights(night, lambda pick: marker.format(pick.anchor))
    picks = {p.anchor: p for p in (night.best, night.blunder, night.longest_wait) if p is not None}
    out = []
    for what, sentence in plain:
        parts = sentence.split("\x00")
        html_parts = [link(picks[part]) if i % 2 else esc(part) for i, part in enumerate(parts)]
        out.append((what, "".join(html_parts)))
    return out


# ---------------------------------------------------------------- Markdown


def _md_table(head: list[str], rows: list[tuple[str, ...]]) -> list[str]:
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head), *("| " + " | ".join(r) + " |" for r in rows), ""]


def render_night_markdown(night: Night, pms: dict[str, PostMortem]) -> str:
    lines = [f"# {md_escape(night.title)}", "", md_escape(plural(len(night.games), "game")), ""]
    if not night.games:
        lines += ["No stored game was played on this night.", ""]
        return "\n".join(lines)
    lines += ["## The games", ""]
    lines += _md_table(
        ["#", "game", "played", "players", "winner"],
        [
            (
                str(i),
                f"[{md_escape(g.game_id)}](#{g.anchor})",
                md_escape(g.played_at or "–"),
                md_escape(", ".join(g.players)),
                f"**{md_escape(g.winner)}**" if g.winner else "nobody",
            )
            for i, g in enumerate(night.games, 1)
        ],
    )
    marker = "\x00{}\x00"
    highlights = _highlights(night, lambda pick: marker.format(pick.anchor))
    picks = {p.anchor: p for p in (night.best, night.blunder, night.longest_wait) if p is not None}
    lines += ["## The night's moments", ""]
    for what, sentence in highlights:
        parts = sentence.split("\x00")
        text = "".join(
            f"[{md_escape(picks[part].game_id)}](#{part})" if i % 2 else md_escape(part) for i, part in enumerate(parts)
        )
        lines += [f"- **{what}**: {text}"]
    if not highlights:
        lines += ["No rated suggestion and no late accusation."]
    lines += [
        "",
        "## The players",
        "",
        "Review accuracy: expected over best available gain of their rated suggestions, averaged over their games "
        "of the night; – where none was rated (their hand is not in the log).",
        "",
    ]
    lines += _md_table(
        ["player", "games", "wins", "review accuracy", "missed wins", "rating before", "rating after", "change"],
        [
            (
                md_escape(p.player),
                str(p.games),
                str(p.wins),
                fmt_share(p.review_accuracy),
                "–" if p.missed_wins is None else str(p.missed_wins),
                _rating(p.rating_before),
                _rating(p.rating_after, p.sigma_after),
                _change(p),
            )
            for p in night.players
        ],
    )
    for i, g in enumerate(night.games, 1):
        lines += [f'<a id="{g.anchor}"></a>', "", f"## Game {i}: {md_escape(g.game_id)}", ""]
        pm = pms.get(g.game_id)
        if pm is not None:
            body = render_markdown(pm).split("\n")[1:]  # without its own title
            body = [("#" + line) if line.startswith("#") else line for line in body]
            lines += [line for line in body if not line.startswith("_Made by clue-stats")]
    lines += ["_Made by clue-stats; every probability is exact._", ""]
    return "\n".join(lines)
