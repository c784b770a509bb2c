"""Stage 4 of the notation reader: the mistakes a person makes writing at the table, with a caret.

The rules engine checks every game again (engine/rules.py); these checks exist because at the
table the useful message points into the line and names the earlier line it contradicts: a
forgotten responder, answers after a shown card, a card shown by someone who passed on it before,
a card in two hands. Only certain facts are used: what a line states (a shown card the writer saw,
a pass, a dealt hand, a reveal), never a guess about behaviour.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clue_stats.engine.editions import Deck
from clue_stats.engine.markers import T_, Said
from clue_stats.engine.problems import listed
from clue_stats.ingest.notation_parse import Parsed, Span


@dataclass(frozen=True)
class Finding:
    code: str
    what: str | Said
    parsed: Parsed
    span: Span


def _and(names: list[str]) -> str | Said:
    return listed(names, " and ")


@dataclass
class _Held:
    owner: str | None  # None: in nobody's hand
    how: str  # "dealt to Anna", "shown by Cleo", ...
    line: int


class _Notebook:
    """Who certainly holds which card, and who certainly does not, as the lines go."""

    def __init__(self, deck: Deck, names: tuple[str, ...]):
        self.deck = deck
        self.names = names
        self.held: dict[str, _Held] = {}
        self.passed: dict[str, dict[str, int]] = {n: {} for n in names}  # player -> card -> line
        self.found: list[Finding] = []

    def name(self, card: str) -> str:
        return self.deck.name(card)

    def flag(self, code: str, what: str | Said, parsed: Parsed, key: str) -> None:
        span = parsed.spans.get(key) or parsed.spans.get("player") or (0, 1)
        self.found.append(Finding(code, what, parsed, span))

    def holds(self, owner: str | None, card: str, how: str, parsed: Parsed, key: str) -> bool:
        """Record that ``owner`` holds ``card``; False (and a finding) if the notebook says otherwise."""
        line = parsed.line.number
        if owner is not None and card in self.passed[owner]:
            earlier = self.passed[owner][card]
            self.flag(
                "passed_holding",
                T_(
                    "{owner} has {card} here, but passed on line {earlier} when {card} was named: one of the two lines is wrong",
                    owner=owner,
                    card=self.name(card),
                    earlier=earlier,
                ),
                parsed,
                key,
            )
            return False
        known = self.held.get(card)
        if known is not None and known.owner != owner and known.line != line:
            where = f"{known.how} on line {known.line}"
            who = owner or "nobody"
            self.flag(
                "card_twice",
                T_(
                    "{card} is with {who} here, but was {where}: one of the two lines is wrong",
                    card=self.name(card),
                    who=who,
                    where=where,
                ),
                parsed,
                key,
            )
            return False
        if known is None:
            self.held[card] = _Held(owner, how, line)
        return True

    def passes(self, player: str, cards: tuple[str, ...], parsed: Parsed, key: str) -> None:
        line = parsed.line.number
        for card in cards:
            known = self.held.get(card)
            if known is not None and known.owner == player:
                self.flag(
                    "passed_holding",
                    T_(
                        "{player} passes, but holds {card} ({how} on line {line})",
                        player=player,
                        card=self.name(card),
                        how=known.how,
                        line=known.line,
                    ),
                    parsed,
                    key,
                )
                return
        for card in cards:
            self.passed[player].setdefault(card, line)

    def shows_unseen(self, player: str, cards: tuple[str, ...], parsed: Parsed, key: str) -> None:
        """A card shown that the writer did not see: the shower must be able to hold one of the three."""
        reasons = []
        for card in cards:
            if card in self.passed[player]:
                reasons.append(f"{self.name(card)} (passed on line {self.passed[player][card]})")
            elif card in self.held and self.held[card].owner != player:
                reasons.append(f"{self.name(card)} ({self.held[card].how} on line {self.held[card].line})")
            else:
                return
        self.flag(
            "shown_not_held",
            T_("{player} shows a card, but holds none of {reasons}", player=player, reasons=_and(reasons)),
            parsed,
            key,
        )

    def in_envelope(self, cards: tuple[str, ...], parsed: Parsed, keys: tuple[str, ...]) -> None:
        for card, key in zip(cards, keys):
            known = self.held.get(card)
            if known is not None and known.owner is not None:
                self.flag(
                    "envelope_card_dealt",
                    T_(
                        "{card} is in the solution here, but was {how} on line {line}",
                        card=self.name(card),
                        how=known.how,
                        line=known.line,
                    ),
                    parsed,
                    key,
                )


def _response_order(parsed: Parsed, names: tuple[str, ...], found: list[Finding]) -> bool:
    """The answers go clockwise from the suggester's left and stop at the card shown; False if not."""
    record = parsed.record
    suggester = record["player"]
    seat = names.index(suggester)
    expected = [names[(seat + k) % len(names)] for k in range(1, len(names))]
    responses: list[dict[str, Any]] = record["responses"]
    for k, response in enumerate(responses):
        who = response["player"]
        key = f"who{k}"
        if who == suggester:
            found.append(
                Finding(
                    "suggester_responds",
                    T_("{who} made this suggestion and does not answer it: remove '/ {who} ...'", who=who),
                    parsed,
                    parsed.spans[key],
                )
            )
            return False
        if k > 0 and responses[k - 1]["shows"] is not None:
            shower = responses[k - 1]["player"]
            found.append(
                Finding(
                    "after_shown",
                    T_(
                        "{shower} already showed a card, so nobody answers after: remove '/ {who} ...' (or make {shower}'s answer '-')",
                        shower=shower,
                        who=who,
                    ),
                    parsed,
                    parsed.spans[key],
                )
            )
            return False
        if k < len(expected) and who == expected[k]:
            continue
        before = responses[k - 1]["player"] if k > 0 else suggester
        if who in expected[k:]:
            skipped = expected[k : expected.index(who)]
            add = " ".join(f"/ {n} -" for n in skipped)
            if len(skipped) == 1:
                what = T_(
                    "{skipped} sits between {before} and {who} and answers first: write '{add}' before {who} if "
                    "{whom} passed",
                    skipped=_and(skipped),
                    whom=skipped[0],
                    before=before,
                    who=who,
                    add=add,
                )
            else:
                what = T_(
                    "{skipped} sit between {before} and {who} and answer first: write '{add}' before {who} if they "
                    "passed",
                    skipped=_and(skipped),
                    before=before,
                    who=who,
                    add=add,
                )
        else:
            what = (
                T_("{who} has already answered; after {before} comes {next}", who=who, before=before, next=expected[k])
                if k < len(expected)
                else T_("{who} has already answered; after {before} comes nobody", who=who, before=before)
            )
        found.append(Finding("response_order", what, parsed, parsed.spans[key]))
        return False
    if responses and responses[-1]["shows"] is None and len(responses) < len(expected):
        missing = expected[len(responses) :]
        add = " ".join(f"/ {n} -" for n in missing)
        what = T_(
            "nobody showed a card, so {missing} must answer too: add '{add}' (or write just '/ -' when nobody could show)",
            missing=_and(missing),
            add=add,
        )
        found.append(Finding("missing_responses", what, parsed, parsed.spans["end"]))
        return False
    return True


def response_order_findings(parsed: Parsed, names: tuple[str, ...]) -> list[Finding]:
    """The problems of the order of a suggestion's answers alone (of a line with other problems)."""
    found: list[Finding] = []
    _response_order(parsed, names, found)
    return found


def check(parsed: list[Parsed], deck: Deck, names: tuple[str, ...]) -> list[Finding]:
    """Every finding, in the order of the lines."""
    notebook = _Notebook(deck, names)
    found: list[Finding] = []
    for item in parsed:
        record = item.record
        kind = record["type"]
        before = len(notebook.found)
        if kind == "deal":
            for k, card in enumerate(record["cards"]):
                notebook.holds(record["player"], card, f"dealt to {record['player']}", item, f"card{k}")
        elif kind == "suggest":
            if not _response_order(item, names, found):
                continue
            named = (record["suspect"], record["weapon"], record["room"])
            for k, response in enumerate(record["responses"]):
                who, shows = response["player"], response["shows"]
                key = f"said{k}" if f"said{k}" in item.spans else "all_passed"
                if shows is None:
                    notebook.passes(who, named, item, key)
                elif shows == "?":
                    notebook.shows_unseen(who, named, item, key)
                elif shows not in named:
                    notebook.flag(
                        "shown_not_named",
                        T_(
                            "{who} shows {shows}, which is not one of {named}",
                            who=who,
                            shows=deck.name(shows),
                            named=listed(map(deck.name, named)),
                        ),
                        item,
                        key,
                    )
                else:
                    notebook.holds(who, shows, f"shown by {who}", item, key)
        elif kind == "reveal" and record["card"] != "?":
            owner = record["player"]
            notebook.holds(
                owner, record["card"], f"revealed as {owner}'s" if owner else "revealed in nobody's hand", item, "card"
            )
        elif kind == "accuse" and record.get("correct") is True:
            notebook.in_envelope(
                (record["suspect"], record["weapon"], record["room"]), item, ("suspect", "weapon", "room")
            )
        elif kind == "end" and record["solution"] is not None:
            s = record["solution"]
            notebook.in_envelope((s["suspect"], s["weapon"], s["room"]), item, ("suspect", "weapon", "room"))
        found.extend(notebook.found[before:])
    return found
