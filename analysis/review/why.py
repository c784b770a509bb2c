"""Why a suggestion was worse than the best one, in words, from the exact numbers (issue 23.4).

For a rated suggestion that lost bits, the answers it could get and their exact chances
(engine.answers: the share of the suggester's consistent deals giving each answer), which of its
cards the suggester already knew the place of, and the same for the best suggestion open to them;
:func:`sentence` says it as a player reads it. Computed on demand from the game and the stored
best suggestion (one count per refuter and suggestion), under a budget; the dashboard's review
page and the report call the same :func:`game_whys`, so both say the same.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from clue_stats.analysis import words
from clue_stats.analysis.computers.suggestions import known_cards
from clue_stats.analysis.words import _, error_message, n_
from clue_stats.analysis.words.records import card_name, listed
from clue_stats.engine import budget, deduction
from clue_stats.engine.answers import answers
from clue_stats.engine.counting import envelope_entropy
from clue_stats.engine.game import Game, Suggest
from clue_stats.engine.knowledge import Knowledge

Triple = tuple[str, str, str]


@dataclass(frozen=True)
class Chance:
    refuter: str | None  # None: nobody could show a card
    card: str | None  # the card shown (id)
    chance: Fraction  # exact


@dataclass(frozen=True)
class Asked:
    """One suggestion seen from its suggester's knowledge just before it."""

    cards: Triple  # ids
    known: tuple[str, ...]  # the named cards whose place the suggester already knew (ids)
    answers: tuple[Chance, ...]  # every answer with a chance above 0, most likely first
    expected_gain: float  # bits

    def chance_of(self, refuter: str | None, card: str | None = None) -> Fraction:
        return sum(
            (a.chance for a in self.answers if a.refuter == refuter and (card is None or a.card == card)), Fraction(0)
        )


@dataclass(frozen=True)
class Why:
    seq: int
    player: str
    made: Asked
    best: Asked


def asked(k: Knowledge, suggester: str, cards: Triple) -> Asked:
    """The answers a suggestion could get and their exact chances, from the suggester's knowledge."""
    found = answers(k, suggester, cards)
    chances = [Chance(None if a is None else a[0], None if a is None else a[1], p) for a, p, _ in found]
    before = envelope_entropy(k)
    after = sum(float(p) * envelope_entropy(after_k) for _, p, after_k in found)
    chances.sort(key=lambda c: (-c.chance, c.refuter is None, c.refuter or "", c.card or ""))
    return Asked(cards, known_cards(k, cards), tuple(chances), float(before - after))


def why(game: Game, k: Knowledge, record: Suggest, best: Triple) -> Why:
    return Why(record.seq, record.player, asked(k, record.player, record.cards), asked(k, record.player, best))


def percent(p: Fraction) -> str:
    """A chance as a whole percentage, never "0 %" or "100 %" for one that is neither."""
    value = round(float(p) * 100)
    if value == 0 and p > 0:
        return "< " + words.percent(0.01)
    if value == 100 and p < 1:
        return "> " + words.percent(0.99)
    return words.percent(value / 100)


def bits(value: float) -> str:
    """Bits to two decimals; what rounds to zero is 0.00, never -0.00."""
    return words.decimal(round(value, 2) + 0.0)


def either(items: list[str]) -> str:
    """Items as alternatives: a; a or b; a, b or c."""
    return (", ".join(items[:-1]) + _(" or ") + items[-1]) if len(items) > 1 else "".join(items)


def _answers(game: Game, a: Asked) -> str:
    """ "Ben could show Green (38 %) or the Hall (38 %); nobody could show a card (25 %)"."""
    parts = []
    refuters = list(dict.fromkeys(c.refuter for c in a.answers if c.refuter is not None))
    for refuter in refuters:
        shown = [c for c in a.answers if c.refuter == refuter]
        cards = either(
            [
                f"{card_name(game, c.card)} ({percent(c.chance)}"
                + (_(", already known") if c.card in a.known else "")
                + ")"
                for c in shown
            ]
        )
        parts.append(_("{player} could show {cards}").format(player=refuter, cards=cards))
    nobody = a.chance_of(None)
    if nobody:
        parts.append(_("nobody could show a card ({chance})").format(chance=percent(nobody)))
    return "; ".join(parts)


def _known(game: Game, a: Asked) -> str:
    if not a.known:
        return _("none of them placed yet")
    cards = listed([card_name(game, c) for c in a.known])
    return n_(len(a.known), "already knowing where {cards} was", "already knowing where {cards} were", cards=cards)


def sentence(game: Game, w: Why) -> str:
    """The reason in words, every figure from the exact counts: the suggestion's answers and their
    chances, what the suggester already knew of its cards, and the same of the best one."""
    made = ", ".join(card_name(game, c) for c in w.made.cards)
    best = ", ".join(card_name(game, c) for c in w.best.cards)
    return _(
        "{player} named {made}, {made_known}: {made_answers}; {made_bits} bits expected. "
        "The best, {best}, {best_known}: {best_answers}; {best_bits} bits expected."
    ).format(
        player=w.player,
        made=made,
        made_known=_known(game, w.made),
        made_answers=_answers(game, w.made),
        made_bits=bits(w.made.expected_gain),
        best=best,
        best_known=_known(game, w.best),
        best_answers=_answers(game, w.best),
        best_bits=bits(w.best.expected_gain),
    )


def reasons(
    game: Game, suggestions: list[dict[str, Any]], limits: budget.Limits | None = None
) -> tuple[dict[int, str], str | None]:
    """:func:`sentence` of every suggestion :func:`game_whys` explains, by record; and why the rest
    is missing (None: nothing is). What the review page and the report show."""
    whys, missing = game_whys(game, suggestions, limits)
    return {seq: sentence(game, w) for seq, w in whys.items()}, missing


def game_whys(
    game: Game, suggestions: list[dict[str, Any]], limits: budget.Limits | None = None
) -> tuple[dict[int, Why], str | None]:
    """The reasons of every rated suggestion of the game that lost bits (its stored best suggestion
    another), by record, counted under ``limits``; and why the rest is missing when the budget
    stopped it (None: nothing is)."""
    records = {r.seq: r for r in game.records if isinstance(r, Suggest)}
    wanted = [
        row
        for row in suggestions
        if row.get("bits_lost") and row.get("best_suspect") and row["seq"] in records and row["bits_lost"] > 1e-9
    ]
    out: dict[int, Why] = {}
    if not wanted:
        return out, None
    timelines: dict[str, list[Knowledge]] = {}
    try:
        with budget.limited(limits) if limits is not None else contextlib.nullcontext():
            for row in wanted:
                record = records[row["seq"]]
                if record.player not in timelines:
                    timelines[record.player] = deduction.knowledge_timeline(game, record.player)
                k = timelines[record.player][record.seq - 1]
                out[record.seq] = why(game, k, record, (row["best_suspect"], row["best_weapon"], row["best_room"]))
    except budget.BudgetExceeded as exc:
        return out, error_message(exc)
    return out, None


def with_reasons(pm: Any, data: Any, limits: budget.Limits | None = None) -> Any:
    """The post-mortem (analysis.review.post_mortem.PostMortem of ``data``, a ReportData) with its ``whys``
    filled in under ``limits``; what the budget stopped is said with the game's other cuts."""
    whys, missing = reasons(data.game, data.suggestions, limits)
    brief = pm.brief
    if missing is not None:
        cut = _("why each suggestion lost bits: {reason}").format(reason=missing)
        brief = replace(brief, over_budget=[*brief.over_budget, cut])
    return replace(pm, whys=whys, brief=brief)
