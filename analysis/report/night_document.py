"""The night's summary as a document (:mod:`analysis.report.document`), written as one self-contained HTML
page or as Markdown by the game report's renderers: the summary first (games, winners, the night's
best suggestion and biggest blunder, the longest wait after certainty, each player's review accuracy
and rating change), then every game's own post-mortem (:mod:`analysis.report.sections`), linked
from above. Every word passes :mod:`analysis.words`.

To add a section to the summary: write a function returning a :class:`Section` from the
:class:`Night` and append it in :func:`document`.
"""

from __future__ import annotations

from clue_stats.analysis.corpus.night import Night, NightGame, NightPlayer, Pick
from clue_stats.analysis.report import html, markdown
from clue_stats.analysis.report.document import (
    META,
    MUTED,
    STRONG,
    Document,
    Facts,
    Paragraph,
    Section,
    Span,
    Table,
    Text,
    compose,
    prefixed,
)
from clue_stats.analysis.report.sections import ANALYSE, DASH, footer, sections
from clue_stats.analysis.review.post_mortem import PostMortem, fmt_bits, fmt_share
from clue_stats.analysis.words import _, decimal, language, n_, when


def title(night: Night) -> str:
    if night.first == night.last:
        return _("Game night {date}").format(date=when(night.first))
    return _("Game nights {first} to {last}").format(first=when(night.first), last=when(night.last))


def _change(p: NightPlayer) -> str:
    if p.rating_change is None:
        return DASH
    shown = round(p.rating_change, 1)
    return ("-" if shown < 0 else "+") + decimal(abs(shown), 1)


def _rating(value: float | None, sigma: float | None = None) -> str:
    if value is None:
        return DASH
    return decimal(value, 1) + (f" (± {decimal(sigma, 1)})" if sigma is not None else "")


def _link(pick: Pick) -> Text:
    return Span(pick.game_id, link=pick.anchor)


def _highlights(night: Night) -> list[tuple[Text, Text]]:
    """(what, sentence) for the night's best suggestion, biggest blunder and longest wait, each
    linking to its game's section."""
    out: list[tuple[Text, Text]] = []
    if night.best is not None:
        b = night.best
        out.append(
            (
                _("Best suggestion"),
                compose(
                    _("{player}: {cards} ({where} of {game}): expected to learn {bits} bits, accuracy {accuracy}"),
                    player=b.player,
                    cards=", ".join(b.cards),
                    where=b.places(b.seq),
                    game=_link(b),
                    bits=fmt_bits(b.values["expected_gain_bits"]),
                    accuracy=fmt_share(b.values["accuracy"]),
                ),
            )
        )
    if night.blunder is not None:
        w = night.blunder
        instead = w.values["best_cards"]
        parts = dict(
            player=w.player,
            cards=", ".join(w.cards),
            where=w.places(w.seq),
            game=_link(w),
            bits=fmt_bits(w.values["bits_lost"]),
        )
        sentence = (
            compose(
                _("{player}: {cards} ({where} of {game}): {bits} bits lost; {best} was best"),
                best=", ".join(instead),
                **parts,
            )
            if instead and instead != w.cards
            else compose(_("{player}: {cards} ({where} of {game}): {bits} bits lost"), **parts)
        )
        out.append((_("Biggest blunder") if w.values["label"] == "blunder" else _("Largest loss"), sentence))
    if night.longest_wait is not None:
        t = night.longest_wait
        parts = dict(
            player=t.player,
            where=t.places(t.values["first_certain_seq"]),
            game=_link(t),
            turns=n_(t.values["turns_waited"], "{n} turn", "{n} turns"),
        )
        if t.values["correct"]:
            template = _("{player} was certain after {where} of {game} and waited {turns} before accusing and won")
        elif t.values["correct"] is False:
            template = _(
                "{player} was certain after {where} of {game} and waited {turns} before accusing and was wrong"
            )
        else:
            template = _("{player} was certain after {where} of {game} and waited {turns} before accusing")
        out.append((_("Longest wait after certainty"), compose(template, **parts)))
    return out


def _games(night: Night) -> Section:
    rows: list[list[Text]] = [
        [
            str(i),
            Span(g.game_id, link=g.anchor),
            when(g.played_at) or DASH,
            ", ".join(g.players),
            Span(g.winner, STRONG) if g.winner else Span(_("nobody"), MUTED),
        ]
        for i, g in enumerate(night.games, 1)
    ]
    return Section(
        "games",
        _("The games"),
        [Table([_("#"), _("game"), _("played on"), _("players"), _("winner")], rows, frozenset({0}))],
    )


def _moments(night: Night) -> Section:
    highlights = _highlights(night)
    nothing = Paragraph(
        compose(
            _(
                "No rated suggestion and no late accusation: the games were not reviewed, or their logs hold no "
                "hands ({command})."
            ),
            command=ANALYSE,
        ),
        MUTED,
    )
    return Section("highlights", _("The night’s moments"), [Facts(highlights) if highlights else nothing])


def _players(night: Night) -> Section:
    rows: list[list[Text]] = [
        [
            (p.player, " ", Span(f"({p.pool})", MUTED)) if p.pool != "people" else p.player,
            str(p.games),
            str(p.wins),
            fmt_share(p.review_accuracy),
            DASH if p.missed_wins is None else str(p.missed_wins),
            _rating(p.rating_before),
            _rating(p.rating_after, p.sigma_after),
            _change(p),
        ]
        for p in night.players
    ]
    head: list[Text] = [
        _("player"),
        _("games"),
        _("wins"),
        _("review accuracy"),
        _("missed wins"),
        _("rating before"),
        _("rating after"),
        _("change"),
    ]
    explained = _(
        "Review accuracy: the information their suggestions could expect to gain over the most the best "
        "suggestions could have (1 = the best every time), over all their rated suggestions of the night (summed, "
        "not a mean of games); – where none of their suggestions was rated (their hand is not in the log). Rating: the conservative rating "
        "(mu - 3 sigma; {command} explains it) before their first game of the night and after their last, with "
        "its uncertainty."
    )
    return Section(
        "players",
        _("The players"),
        [
            Paragraph(compose(explained, command=Span("clue-stats docs league", "code"))),
            Table(head, rows, frozenset(range(1, 8))),
        ],
    )


def _game(i: int, night_game: NightGame, pm: PostMortem | None, charts: bool) -> Section:
    g = night_game
    where = " · ".join(x for x in (when(g.played_at), g.place) if x)
    return Section(
        g.anchor,
        _("Game {i}: {game}").format(i=i, game=g.game_id),
        [Paragraph(where, META)] if where else [],
        [prefixed(s, g.anchor) for s in sections(pm, charts)] if pm is not None else [],
        back=(_("back to the games"), "games"),
    )


def document(night: Night, pms: dict[str, PostMortem], charts: bool = True) -> Document:
    """The night's page (charts=False leaves the games' figures out)."""
    places = sorted({g.place for g in night.games if g.place})
    meta = " · ".join([n_(len(night.games), "{n} game", "{n} games"), *([", ".join(places)] if places else [])])
    doc = Document(title=title(night), meta=meta, sections=[], footer=footer(), lang=language())
    if not night.games:
        doc.sections.append(
            Section(
                "games",
                _("The games"),
                [
                    Paragraph(
                        _(
                            "No stored game was played on this night (a night runs until 06:00 the next morning; "
                            "games without played_at belong to no night)."
                        )
                    )
                ],
            )
        )
        return doc
    doc.sections += [_games(night), _moments(night), _players(night)]
    doc.sections += [_game(i, g, pms.get(g.game_id), charts) for i, g in enumerate(night.games, 1)]
    return doc


def render_night_html(night: Night, pms: dict[str, PostMortem], charts: bool = True) -> str:
    return html.render_document(document(night, pms, charts))


def render_night_markdown(night: Night, pms: dict[str, PostMortem]) -> str:
    return markdown.render_document(document(night, pms, charts=False))
