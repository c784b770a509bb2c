"""What a suggestion could bring its suggester: the possible answers, their chances, the expected gain.

Per analysis.md: the answers are "nobody showed" and every (first refuter, card shown); the chance of
an answer is the share of the suggester's consistent deals giving it, a refuter holding j of the
named cards showing each of them with chance 1/j. After an answer the suggester knows the passes
before the refuter and the card shown, and the counting distribution is recomputed as everywhere.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from engine.counting import envelope_entropy, total_count
from engine.knowledge import Knowledge

Answer = tuple[str, str] | None  # None: nobody showed; else (refuter, card shown)


def _answer_order(k: Knowledge, suggester: str) -> list[str]:
    players = k.players
    seat = players.index(suggester)
    return [players[(seat + step) % len(players)] for step in range(1, len(players))]


def answers(k: Knowledge, suggester: str, triple: tuple[str, str, str]) -> list[tuple[Answer, Fraction, Knowledge]]:
    """Every answer with a nonzero chance, its exact chance, and the suggester's knowledge after it."""
    total = total_count(k)
    if not total:
        return []
    named = list(dict.fromkeys(triple))
    out: list[tuple[Answer, Fraction, Knowledge]] = []
    passed = k
    for refuter in _answer_order(k, suggester):
        for card in named:
            shown = passed.with_holds(refuter, card)
            if not shown.consistent:
                continue
            # split by how many of the other named cards the refuter also holds: with j in all,
            # this card is shown with chance 1/j
            others = [c for c in named if c != card]
            weight = Fraction(0)
            for extra in range(len(others) + 1):
                for held in combinations(others, extra):
                    kx = shown
                    for c in held:
                        kx = kx.with_holds(refuter, c)
                    lacked = [c for c in others if c not in held]
                    if lacked:
                        kx = kx.with_lacks(refuter, lacked)
                    n = total_count(kx)
                    if n:
                        weight += Fraction(n, extra + 1)
            if weight:
                out.append(((refuter, card), weight / total, shown))
        passed = passed.with_lacks(refuter, named)
        if not passed.consistent:
            break
    else:
        n = total_count(passed)
        if n:
            out.append((None, Fraction(n, total), passed))
    return out


def expected_gain(k: Knowledge, suggester: str, triple: tuple[str, str, str]) -> float:
    """H(before) - sum over answers a of P(a) * H(after a), in bits."""
    before = envelope_entropy(k)
    after = 0.0
    for _, p, ka in answers(k, suggester, triple):
        after += float(p) * envelope_entropy(ka)
    return before - after


def best_suggestion(k: Knowledge, suggester: str, rooms: list[str]) -> tuple[float, tuple[str, str, str]]:
    """The largest expected gain over every suspect x weapon x the given rooms, and its suggestion
    (the first in deck order among equals)."""
    best: tuple[float, tuple[str, str, str]] | None = None
    for room in rooms:
        for suspect in k.deck.suspects:
            for weapon in k.deck.weapons:
                triple = (suspect, weapon, room)
                gain = expected_gain(k, suggester, triple)
                if best is None or gain > best[0] + 1e-12:
                    best = (gain, triple)
    if best is None:
        raise ValueError("no room to suggest in")
    return best
