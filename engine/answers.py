"""What a suggestion could bring its suggester: the possible answers, their chances, the expected gain.

Per analysis.md: the answers are "nobody showed" and every (first refuter, card shown); the chance of
an answer is the share of the suggester's consistent deals giving it, a refuter holding j of the
named cards showing each of them with chance 1/j. After an answer the suggester knows the passes
before the refuter and the card shown, and the counting distribution is recomputed as everywhere.

How it is counted: the deals in which every player before a refuter passed split by exactly which
named cards the refuter holds (a set S), and one run of the counting program gives that split
(engine.counting.split_by_holder). The chance of showing card c is the sum over the S holding c of
deals(S) / |S|; the distribution after "c shown" is the sum of their distributions; S empty is the
refuter passing too. So each refuter costs one count, where conditioning on every card and every
combination of the others would cost up to 21.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import numpy as np

from clue_stats.engine.counting import array_entropy, envelope_entropy, split_by_holder
from clue_stats.engine.knowledge import Knowledge

Answer = tuple[str, str] | None  # None: nobody showed; else (refuter, card shown)


def _answer_order(k: Knowledge, suggester: str) -> list[str]:
    players = k.players
    seat = players.index(suggester)
    return [players[(seat + step) % len(players)] for step in range(1, len(players))]


def _outcomes(
    k: Knowledge, suggester: str, triple: tuple[str, str, str]
) -> Iterator[tuple[Answer, Fraction, np.ndarray, Knowledge]]:
    """Every answer with deals: (answer, its weight in deals, the solution counts after it, the
    knowledge before the refuter's turn: everyone before passed)."""
    named = tuple(k.card_index[c] for c in dict.fromkeys(triple))
    names = k.deck.cards
    all_named = sum(1 << c for c in named)
    passed = k
    for refuter in _answer_order(k, suggester):
        j = k.places.index(refuter)
        weights = [Fraction(0)] * len(named)
        shown: list[np.ndarray | None] = [None] * len(named)
        nobody: np.ndarray | None = None
        for tag, counts in split_by_holder(passed, j, named).items():
            if not tag:
                nobody = counts
                continue
            held = [i for i in range(len(named)) if tag >> i & 1]
            deals = int(counts.sum())
            for i in held:
                weights[i] += Fraction(deals, len(held))
                shown[i] = counts if shown[i] is None else shown[i] + counts
        for i, c in enumerate(named):
            after = shown[i]
            if weights[i] and after is not None:  # a card with deals has its counts
                yield (refuter, names[c]), weights[i], after, passed
        if nobody is None:
            return
        passed = passed.updated(lacks=[(j, all_named)])
    if nobody is None:  # pragma: no cover - the loop ran (there are always two players or more)
        return
    deals = int(nobody.sum())  # every player passed
    if deals:
        yield None, Fraction(deals), nobody, passed


def answers(k: Knowledge, suggester: str, triple: tuple[str, str, str]) -> list[tuple[Answer, Fraction, Knowledge]]:
    """Every answer with a nonzero chance, its exact chance, and the suggester's knowledge after it."""
    outcomes = list(_outcomes(k, suggester, triple))
    total = sum(weight for _, weight, _, _ in outcomes)  # every deal gives one answer
    return [
        (answer, weight / total, passed if answer is None else passed.with_holds(*answer))
        for answer, weight, _, passed in outcomes
    ]


def expected_gain(k: Knowledge, suggester: str, triple: tuple[str, str, str]) -> float:
    """H(before) - sum over answers a of P(a) * H(after a), in bits."""
    before = envelope_entropy(k)
    outcomes = [(weight, array_entropy(counts)) for _, weight, counts, _ in _outcomes(k, suggester, triple)]
    total = sum(weight for weight, _ in outcomes)  # every deal gives one answer: the weights add up to all deals
    if not total:
        return float(before)
    return float(before - sum(float(weight / total) * h for weight, h in outcomes))
