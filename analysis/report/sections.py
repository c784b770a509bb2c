"""The post-mortem of one game as a document (:mod:`analysis.report.document`): built once from a
:class:`analysis.review.post_mortem.PostMortem`, written by :mod:`analysis.report.html` and
:mod:`analysis.report.markdown`. Every word passes :mod:`analysis.words`.

To add a section: write a function here that returns a :class:`Section` (or None when it has
nothing to say) from the PostMortem's fields, and put it in :func:`sections`; both renderers and
the night's page then show it.
"""

from __future__ import annotations

from clue_stats.analysis.report.document import (
    CODE,
    MUTED,
    NOTE,
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
    compose,
)
from clue_stats.analysis.review.post_mortem import (
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
)
from clue_stats.analysis.review.post_mortem import fmt_bits as bits
from clue_stats.analysis.review.post_mortem import fmt_share as share
from clue_stats.analysis.review.rows import race, race_caption
from clue_stats.analysis.words import (
    _,
    kind_words,
    label_word,
    language,
    n_,
    number,
    significant,
    variant_words,
    when,
)
from clue_stats.analysis.words.records import Places
from clue_stats.ingest.store.schema import HEADERS, IN_BITS, REVIEW_COLUMNS, SHARES

DASH = "–"
ANALYSE = Span("clue-stats analyse", CODE)
SPARK = "▁▂▃▄▅▆▇█"
SPARK_WIDTH = 32


def footer() -> str:
    return _(
        "Made by clue-stats. Every probability is exact: counted over the deals consistent with what each player saw."
    )


def negative_gain() -> str:
    return _(
        "A value below 0 is not a mistake: an answer can rule out the deals that made one solution look "
        "likely, so the possible solutions become more evenly likely and the uncertainty grows, although "
        "the player knows more."
    )


def hand_not_in_log() -> str:
    return _("hand not in the log")


def not_analysed() -> Paragraph:
    return Paragraph(compose(_("Not analysed yet (run {command})."), command=ANALYSE), MUTED)


def cards(triple: tuple[str, str, str] | None) -> str:
    return DASH if triple is None else ", ".join(triple)


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


def records_line(b: Brief) -> str:
    counts = [
        n_(b.suggestions, "{n} suggestion", "{n} suggestions"),
        n_(b.accusations, "{n} accusation", "{n} accusations"),
    ]
    if b.turns:
        counts.append(n_(b.turns, "{n} turn", "{n} turns"))
    return _("{records} ({counts})").format(records=number(b.records), counts=", ".join(counts))


def _brief(b: Brief) -> Section:
    played = when(b.played_at)
    where = (
        _("{date} at {place}").format(date=played, place=b.place) if played and b.place else played or b.place or DASH
    )
    facts: list[tuple[Text, Text]] = [
        (_("Edition"), b.edition),
        (_("Played"), where),
        (_("Source"), kind_words(b.source) if b.source else DASH),  # a kind of game in words, else as written
        (_("Solution"), cards(b.solution) if b.solution else _("not known")),
        (_("Winner"), b.winner or _("nobody")),
        (_("Records"), records_line(b)),
    ]
    if b.variant != "standard":
        facts.insert(1, (_("Variant"), variant_words(b.variant)))
    if b.perspective:
        facts.insert(3, (_("Written from"), _("{player}’s notebook").format(player=b.perspective)))
    blocks: list[Block] = [
        Facts(facts),
        Table(
            [_("seat"), _("player"), _("character"), _("cards"), _("played"), _("review accuracy"), _("result")],
            [_player_row(p) for p in b.players],
            frozenset({0, 4, 5}),
        ),
    ]
    if not b.analysed:
        blocks.append(
            Paragraph(
                compose(
                    _(
                        "This game has not been analysed yet: run {command} for suggestion accuracy, accusation "
                        "timing and what refuters gave away."
                    ),
                    command=ANALYSE,
                ),
                MUTED,
            )
        )
    elif b.computed:
        blocks.append(
            Paragraph(
                compose(
                    _(
                        "The analysis was computed for this report; the database does not hold it ({command} stores it)."
                    ),
                    command=ANALYSE,
                ),
                MUTED,
            )
        )
    if b.over_budget:
        blocks.append(
            Aside(
                [
                    Paragraph(
                        compose(
                            _(
                                "Left out, over the counting budget (the other sections are whole; {command} with a "
                                "larger budget completes them):"
                            ),
                            command=ANALYSE,
                        )
                    ),
                    Items(list(b.over_budget)),
                ]
            )
        )
    return Section("brief", _("The game in brief"), blocks)


def _player_row(p: PlayerLine) -> list[Text]:
    status = _("won") if p.won else (_("out (wrong accusation)") if p.eliminated else "")
    hand: Text = str(p.hand_size) if p.hand_known else (str(p.hand_size), " ", Span(f"({hand_not_in_log()})", MUTED))
    return [
        str(p.seat + 1),
        p.name,
        p.character or DASH,
        hand,
        str(p.turn_order + 1) if p.turn_order is not None else DASH,
        _review(p),
        status,
    ]


def _review(p: PlayerLine) -> Text:
    """A player's review accuracy, or why there is none."""
    if not p.hand_known:
        return Span(hand_not_in_log(), MUTED)
    if p.review_accuracy is None:
        return DASH
    rated = n_(p.rated_suggestions or 0, "{n} suggestion", "{n} suggestions")
    return (share(p.review_accuracy), " ", Span(f"({rated})", MUTED))


def _entropy(pm: PostMortem, charts: bool) -> Section:
    lines = pm.entropy
    blocks: list[Block] = [
        Paragraph(_("How uncertain each player was about the solution after every record, in bits (0 = certain)."))
    ]
    section = Section("entropy", _("The race to the solution"), blocks)
    if not lines:
        blocks.append(Paragraph(_("Not computed: over the counting budget (see the game in brief)."), MUTED))
        return section
    if charts:
        from clue_stats.analysis.report.svg_charts import to_svg  # deferred: start-up
        from clue_stats.analysis.review.charts import race_chart  # deferred: start-up

        blocks.append(
            Figure(
                "entropy",
                lambda width: to_svg(race_chart(race(pm), width=width)),
                race_caption(),
            )
        )
    top = max((line.start for line in lines), default=0.0)
    blocks.append(
        Table(
            [_("observer"), _("start"), _("after the deal"), _("end"), _("certain after"), _("over the game")],
            [_entropy_row(line, top, pm.places) for line in lines],
            frozenset({1, 2, 3, 4}),
            text_only=frozenset({5}),
        )
    )
    return section


def _entropy_row(line: EntropyLine, top: float, places: Places) -> list[Text]:
    certain = DASH if line.is_table else places(line.certain_seq) if line.certain_seq is not None else _("never")
    return [
        (line.observer, (" ", Span("(" + _("partial view") + ")", MUTED))) if line.partial_view else line.observer,
        bits(line.start),
        bits(line.after_deal),
        bits(line.end),
        certain,
        Span(sparkline(line.series, top), CODE),
    ]


def _label(s: SuggestionLine) -> Text:
    if not s.rated:
        return Span(hand_not_in_log(), MUTED)
    return Span(label_word(s.label), f"label-{s.label}") if s.label else DASH


def _value(column: str, value: object) -> Text:
    """A stored value the review shows, as its declared unit writes it (bits, a share, a count)."""
    if value is None:
        return DASH
    if column in IN_BITS:
        return bits(value)  # type: ignore[arg-type]
    if column in SHARES:
        return share(value)  # type: ignore[arg-type]
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int):
        return number(value)
    return significant(value) if isinstance(value, float) else str(value)


def _suggestion_row(s: SuggestionLine, places: Places) -> list[Text]:
    if s.shown_by is None:
        shown = _("nobody")
    elif s.shown_card:
        shown = _("{player}: {card}").format(player=s.shown_by, card=s.shown_card)
    else:
        shown = s.shown_by
    return [
        places(s.seq),
        s.player,
        cards(s.cards),
        shown,
        _("this one") if s.best_cards == s.cards else cards(s.best_cards),
        *(_value(column, s.values.get(column)) for column in REVIEW_COLUMNS),
        _label(s),
    ]


def _why(s: SuggestionLine, reason: str, places: Places) -> Text:
    """ "Line 14 (turn 3), mistake, 0.56 bits lost: Mara named ..." (analysis.review.why says the reason)."""
    return _("{where}, {label}, {bits} bits lost: {reason}").format(
        where=places(s.seq, start=True),
        label=label_word(s.label) if s.label else DASH,
        bits=bits(s.bits_lost),
        reason=reason,
    )


def _suggestion_table(lines: list[SuggestionLine], places: Places) -> Table:
    # every column the review shows with a suggestion, by its declared header (ingest.store.schema.REVIEW_COLUMNS)
    head: list[Text] = [
        _("in the file"),
        _("player"),
        _("suggested"),
        _("shown"),
        _("best instead"),
        *(_(HEADERS[column]) for column in REVIEW_COLUMNS),
        _("label"),
    ]
    figures = frozenset(range(5, 5 + len(REVIEW_COLUMNS)))
    return Table(head, [_suggestion_row(s, places) for s in lines], figures)


def _suggestions(pm: PostMortem, charts: bool) -> Section:
    section = Section("suggestions", _("Best and worst suggestions"))
    blocks = section.blocks
    blocks.append(
        Paragraph(
            _(
                "Expected gain: the bits the suggester could expect to learn, before the answers. Best available: the "
                "most any suggestion open to them could have given, and which one. Accuracy = expected / best."
            )
        )
    )
    if not pm.suggestions:
        blocks.append(Paragraph(_("No suggestions in this game.")))
        return section
    if charts:
        from clue_stats.analysis.report.svg_charts import (  # deferred: start-up
            suggestion_chart,
            suggestion_window,
            to_svg,
        )

        suggestions = pm.suggestions
        window = suggestion_window(sum(1 for s in suggestions if s.expected_gain is not None))
        if any(s.expected_gain is not None for s in suggestions):
            blocks.append(
                Figure(
                    "suggestions",
                    lambda width: to_svg(suggestion_chart(suggestions, width)),  # type: ignore[arg-type]
                    _("Bars are coloured by label; a tick marks the best available gain.")
                    if window == 1
                    else _(
                        "Each bar is a run of {n} consecutive suggestions: their mean expected gain, coloured by "
                        "the label most of them got; a line marks their mean best available gain."
                    ).format(n=number(window)),
                )
            )
    if pm.best or pm.worst:
        blocks += [Subheading(_("Best")), _suggestion_table(pm.best, pm.places)]
        if pm.worst:
            blocks += [Subheading(_("Worst, and what was best instead")), _suggestion_table(pm.worst, pm.places)]
            whys = [_why(s, pm.whys[s.seq], pm.places) for s in pm.worst if s.seq in pm.whys]
            if whys:
                blocks += [Subheading(_("Why the best was better")), Items(whys)]
        else:
            blocks.append(Paragraph(_("Every suggestion was as good as any available.")))
    else:
        blocks.append(
            Paragraph(compose(_("Accuracy has not been computed for this game ({command})."), command=ANALYSE), MUTED)
        )
    blocks.append(
        Details(
            n_(len(pm.suggestions), "All {n} suggestion", "All {n} suggestions"),
            [_suggestion_table(pm.suggestions, pm.places)],
        )
    )
    return section


def _timing(lines: list[TimingLine], analysed: bool, places: Places) -> Section:
    section = Section("accusations", _("When each player could have accused, and when they did"))
    if not analysed:
        section.blocks.append(not_analysed())
        return section
    rows: list[list[Text]] = []
    for t in lines:
        certain: Text = (
            _("never") if t.certain_seq is None else (places(t.certain_seq), " ", Span(f"({t.certain_after})", MUTED))
        )
        accused = (
            DASH
            if t.accused_seq is None
            else _("{where}: {cards}").format(where=places(t.accused_seq), cards=cards(t.accused_cards))
        )
        waited = str(t.turns_waited) if t.turns_waited is not None else DASH
        rows.append([t.player, certain, accused, share(t.p_correct), waited, t.verdict])
    section.blocks += [
        Paragraph(
            _(
                "Certain: the first record after which only one solution was possible for them. p(correct): their "
                "probability of the accused solution just before accusing. Turns waited: own turns that ended after "
                "they were certain, before the accusing one."
            )
        ),
        Table(
            [
                _("player"),
                _("certain after"),
                _("accused at"),
                _("p(correct)"),
                _("turns waited"),
                _("verdict"),
            ],
            rows,
            frozenset({3, 4}),
        ),
    ]
    return section


def _giveaways(lines: list[GiveawayLine], places: Places) -> Section:
    section = Section("giveaways", _("What each refuter gave away"))
    section.blocks.append(
        Paragraph(
            _(
                "When a refuter held several of the named cards, the card they chose told the suggester more or less: "
                "given away = what the suggester learned from the card shown minus the least any card they held could "
                "have told (0 with no choice)."
            )
        )
    )
    if not lines:
        section.blocks.append(Paragraph(_("Nobody showed a card.")))
        return section
    rows: list[list[Text]] = []
    for g in lines:
        largest = (
            DASH
            if g.largest is None
            else _("{bits} at {where} (showed {card} to {player})").format(
                bits=bits(g.largest.giveaway),
                where=places(g.largest.seq),
                card=g.largest.shown_card or _("a card"),
                player=g.largest.player,
            )
        )
        choice: Text = Span(hand_not_in_log(), MUTED) if g.with_choice is None else str(g.with_choice)
        rows.append([g.refuter, str(g.refutations), choice, bits(g.total_bits) if g.known else DASH, largest])
    section.blocks.append(
        Table(
            [_("refuter"), _("cards shown"), _("with a choice"), _("bits given away"), _("largest")],
            rows,
            frozenset({1, 2, 3}),
        )
    )
    return section


def _stated(lines: list[StatedLine]) -> Section | None:
    if not lines:
        return None
    rows: list[list[Text]] = [
        [
            s.player,
            str(s.statements),
            *(str(s.grades[g]) for g in ("proven", "possible", "false", "missed")),
            share(s.precision),
            share(s.recall),
        ]
        for s in lines
    ]
    head: list[Text] = [
        _("player"),
        _("statements"),
        _("proven"),
        _("possible"),
        _("false"),
        _("missed"),
        _("precision"),
        _("recall"),
    ]
    return Section(
        "stated",
        _("What the players said they knew"),
        [
            Paragraph(
                _(
                    "Each claim graded against the player's own view at that record: proven, possible (a guess), "
                    "false for them; missed = cross-offs their view proved but they did not state. Precision = "
                    "proven / stated, recall = proven / (proven + missed)."
                )
            ),
            Table(head, rows, frozenset(range(1, 8))),
        ],
    )


def _moments(moments: list[Moment], names: list[str], analysed: bool, places: Places) -> Section:
    section = Section("moments", _("Key moments"))
    section.blocks.append(
        Paragraph(
            _(
                "The records that moved the players’ entropies the most (sum of every player’s change, in bits; "
                "positive = learned)."
            )
            + " "
            + negative_gain()
        )
    )
    if not moments:
        section.blocks.append(
            Paragraph(_("No record changed what the players knew."), MUTED) if analysed else not_analysed()
        )
        return section
    head: list[Text] = [_("in the file"), _("what happened"), *names, _("table"), _("moved")]
    rows: list[list[Text]] = []
    for m in moments:
        what: Text = (m.what, Break(), Span(f"“{m.note}”", NOTE)) if m.note else m.what
        rows.append([places(m.seq), what, *(bits(m.gains.get(n)) for n in names), bits(m.table_gain), bits(m.moved)])
    section.blocks.append(Table(head, rows, frozenset(range(2, len(head)))))
    return section


def _notes(notes: list[Note], places: Places) -> Section | None:
    if not notes:
        return None
    rows: list[list[Text]] = [[places(n.seq), n.what, Span(n.text, NOTE)] for n in notes]
    head: list[Text] = [_("in the file"), _("what happened"), _("note")]
    return Section("notes", _("Notes from the log"), [Table(head, rows, frozenset())])


def sections(pm: PostMortem, charts: bool = True) -> list[Section]:
    """The report's sections, in order (a night's page holds those of several games)."""
    b = pm.brief
    found = [
        _brief(b),
        _entropy(pm, charts),
        _suggestions(pm, charts),
        _timing(pm.timing, b.analysed, pm.places),
        _giveaways(pm.giveaways, pm.places),
        _stated(pm.stated),
        _moments(pm.moments, pm.names, b.analysed, pm.places),
        _notes(pm.notes, pm.places),
    ]
    return [s for s in found if s is not None]


def document(pm: PostMortem, charts: bool = True) -> Document:
    """The whole post-mortem (charts=False leaves the figures out, e.g. for quick tests)."""
    b = pm.brief
    return Document(
        title=_("Post-mortem: {game}").format(game=b.game_id),
        meta=" · ".join(x for x in (b.edition, when(b.played_at), b.place) if x),
        sections=sections(pm, charts),
        footer=footer(),
        lang=language(),
    )
