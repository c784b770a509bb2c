"""The references the deduction benchmark compares against, run on the same knowledge.

- :func:`plain_solution_counts`: a plain card-by-card dynamic program, without the engine's
  optimisations: cards in deck order, one at a time (no grouping of interchangeable cards, no order
  that closes clauses early, no compiled kernel, no reuse across records or observers). Its state is
  the room left in every place, the envelope's cards so far and the clauses met so far; a clause is
  checked when its last card is placed. Exact, like the engine.
- :func:`plain_vector_counts` (in clue_stats/testing.py, which the tests share too): the same plain program
  with the envelope out of the state: the state is the room left in every hand and the clauses not
  met yet, and each state carries a vector (a dict) of counts by the envelope's cards so far. The
  reference for big decks (benchmarks/big_decks.py), where envelopes in the state multiply the states.
- :func:`sampled_entropy`: rejection sampling: deal at random, keep the deals consistent with the
  knowledge, estimate the entropy from the kept envelopes, until the time given runs out.
"""

from __future__ import annotations

import math
import random
import time

from clue_stats.engine.knowledge import Knowledge, _bits
from clue_stats.testing import OutOfTime, plain_vector_counts

__all__ = ["OutOfTime", "plain_solution_counts", "plain_vector_counts", "plain_entropy", "sampled_entropy"]


def plain_solution_counts(k: Knowledge, deadline: float | None = None) -> dict[tuple[int, int, int], int]:
    if not k.consistent:
        return {}
    n_cards = len(k.allowed)
    ranges = k.category_indices()
    cat_of = [next(i for i, r in enumerate(ranges) if c in r) for c in range(n_cards)]
    clauses = sorted(k.clauses)
    last = [max(_bits(m)) for _, m in clauses]
    states: dict[tuple, int] = {(tuple(k.sizes[1:]), (-1, -1, -1), 0): 1}
    for c in range(n_cards):
        closing = sum(1 << i for i, last_card in enumerate(last) if last_card == c)
        new: dict[tuple, int] = {}
        for j, ((caps, env, met), n) in enumerate(states.items()):
            if deadline is not None and j % 1024 == 0 and time.process_time() > deadline:
                raise OutOfTime
            for p in _bits(k.allowed[c]):
                if p == 0:
                    if env[cat_of[c]] != -1:
                        continue
                    caps2, env2, met2 = caps, env[: cat_of[c]] + (c,) + env[cat_of[c] + 1 :], met
                else:
                    if not caps[p - 1]:
                        continue
                    caps2 = caps[: p - 1] + (caps[p - 1] - 1,) + caps[p:]
                    env2 = env
                    met2 = met
                    for i, (q, m) in enumerate(clauses):
                        if q == p and m >> c & 1:
                            met2 |= 1 << i
                if closing & ~met2:
                    continue
                key = (caps2, env2, met2)
                new[key] = new.get(key, 0) + n
        states = new
    out: dict[tuple[int, int, int], int] = {}
    for (_, env, _), n in states.items():
        if env not in k.excluded:
            out[env] = out.get(env, 0) + n
    return out


def plain_entropy(k: Knowledge, deadline: float | None = None) -> float:
    counts = plain_solution_counts(k, deadline)
    total = sum(counts.values())
    if not total:
        return math.nan
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def sampled_entropy(k: Knowledge, seconds: float, rng: random.Random) -> tuple[float, int]:
    """Plug-in entropy of the envelopes of random deals consistent with k, and how many were kept."""
    ranges = [list(r) for r in k.category_indices()]
    places = []
    for p, size in enumerate(k.sizes[1:], start=1):
        places += [p] * size
    clauses = list(k.clauses)
    kept: dict[tuple[int, int, int], int] = {}
    n_kept = 0
    deadline = time.process_time() + seconds
    while time.process_time() < deadline:
        envelope = tuple(rng.choice(r) for r in ranges)
        rest = [c for c in range(len(k.allowed)) if c not in envelope]
        rng.shuffle(rest)
        where = dict(zip(rest, places))
        for c in envelope:
            where[c] = 0
        if any(not k.allowed[c] >> p & 1 for c, p in where.items()):
            continue
        if any(not any(where[c] == p for c in _bits(m)) for p, m in clauses):
            continue
        if envelope in k.excluded:
            continue
        kept[envelope] = kept.get(envelope, 0) + 1
        n_kept += 1
    if not n_kept:
        return math.nan, 0
    return -sum(n / n_kept * math.log2(n / n_kept) for n in kept.values()), n_kept
