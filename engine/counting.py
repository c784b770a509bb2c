"""Exact counting of the deals consistent with an observer's knowledge.

N(s, w, r), the number of consistent deals with (s, w, r) in the envelope, is computed for every
solution at once. With the known cards set aside, the unknown cards fall into three kinds:

- **clause cards**, named in an open clause ("Ben holds one of these"): placed one at a time;
- **restricted free cards**, in no clause but not possible in every open hand: interchangeable
  within a group of equal possible places, so a group is placed at once, counted by binomials;
- **universal free cards**, possible in every open hand: whatever the rest did, they fill the room
  left in the hands in (room left)! / prod(room left in hand h)! ways, a multinomial.

A dynamic program runs over these steps (the envelope choices of the universal cards, then the
restricted groups, then the clause cards in an order that closes clauses early). Its state is the
room left in each open hand, which card (or group) went into each envelope slot so far, and which of
the clauses in progress are met. A clause whose last card is placed is either met, and forgotten
(so states merge), or its state is dropped; a hand that is full while one of its clauses is unmet
is dropped at once. A group's envelope choice stands for one given member of the group: by symmetry
every member of a group has the same count, so no division is ever needed.

The program runs compiled (engine.counting_kernel, machine code built with the package, 64-bit
integers): once when a bound on every count it returns fits in 63 bits, else modulo 2**64 and
modulo primes, the counts rebuilt by the Chinese remainder theorem (a state must still fit one 64-bit key); as plain Python with exact
big integers only past that. Both follow the same plan and are tested against each other and
against enumeration of all deals.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from clue_stats.engine import budget, counting_kernel
from clue_stats.engine.knowledge import Knowledge, _bits

Triple = tuple[str, str, str]
R = TypeVar("R")
_State = tuple[tuple[int, ...], tuple[int, ...], int, int]  # open hands' room, envelope ids, clauses met, tag

CARD, GROUP, ENVELOPE_CHOICE = 0, 1, 2  # kinds of step


@dataclass
class Counts:
    """The distribution over consistent deals, as exact integer counts."""

    total: int
    solutions: dict[Triple, int]  # (suspect, weapon, room) -> deals; only solutions with deals
    card_places: dict[str, dict[str, int]] = field(default_factory=dict)  # card -> place -> deals

    def probability(self, card: str, place: str) -> float:
        if not self.total:
            return math.nan
        return self.card_places[card].get(place, 0) / self.total

    def solution_probability(self, triple: Triple) -> float:
        if not self.total:
            return math.nan
        return self.solutions.get(triple, 0) / self.total

    def entropy(self) -> float:
        return entropy_of(self.solutions.values(), self.total)

    def certain_solution(self) -> Triple | None:
        if self.total and len(self.solutions) == 1:
            return next(iter(self.solutions))
        return None

    def certain_cards(self) -> dict[str, str]:
        """Card -> place, for every card whose place is certain."""
        if not self.total:
            return {}
        return {card: next(iter(places)) for card, places in self.card_places.items() if len(places) == 1}

    def most_likely(self, n: int) -> list[tuple[Triple, float]]:
        ranked = sorted(self.solutions.items(), key=lambda item: (-item[1], item[0]))
        return [(triple, deals / self.total) for triple, deals in ranked[:n]]


def entropy_of(counts: Iterable[int], total: int) -> float:
    """Entropy in bits of the distribution counts/total (nan when nothing is consistent)."""
    if not total:
        return math.nan
    # sum n/T log2(T/n) = log2 T - sum (n/T) log2 n: each n/T divided as integers first (exactly
    # rounded), so a count past a float's range (a deck of 500/500/500) never becomes a float
    acc = 0.0
    for n in counts:
        if n:
            acc += (n / total) * _log2(n)
    return max(0.0, _log2(total) - acc)


def _log2(n: int) -> float:
    if n < 1 << 1000:
        return math.log2(n)
    shift = n.bit_length() - 64
    return math.log2(n >> shift) + shift


# -- the plan ---------------------------------------------------------------------------------------

# A plan's steps are the rows of an int64 table, read the same way by both programs. Columns:
KIND = 0  # CARD, GROUP or ENVELOPE_CHOICE
SIZE = 1  # cards placed: 1 for a card, a group's size, 0 for an envelope choice
CAT = 2  # the category
ENV_ID = 3  # the card's or group's id in its category's envelope slot; 0: not possible there
HANDS = 4  # mask of the open hands the card(s) may go to
CLOSES = 5  # CARD: clause slots whose last card this is
UNOPENED = 6  # hands with a clause whose cards all come later
TAG = 7  # CARD: the bit it sets in the tag when placed in the tagged hand
MEETS = 8  # CARD: per open hand, the clause slots met by placing the card there; then per open
# hand (at MEETS + hands), the slots of its clauses still open after this step


@dataclass
class Plan:
    caps: tuple[int, ...]  # room left in each open hand
    open_categories: tuple[bool, bool, bool]  # envelope slots still to fill
    env_known: tuple[int, int, int]  # the known envelope card per category, or -1
    members: tuple[list[list[int]], list[list[int]], list[list[int]]]  # [cat][id - 1]: deck cards
    steps: np.ndarray  # one row per step, the columns above
    slots: int  # clause slots used at once
    bound: int  # bound on every count the program forms (product of possible places per card)
    tag_hand: int = -1  # the open hand whose tagged cards are recorded, or -1
    tags: int = 0  # bits of the tag (one per tagged card placed by a step)
    step_cards: tuple[int, ...] = ()  # per step: the card a CARD step places (deck index), else -1
    open_places: tuple[int, ...] = ()  # the place (index in knowledge.places) of each open hand
    largest: int = 1  # the most cards a step places (a group's), which index the binomials
    # the compiled programs' packing of a state (engine.counting_kernel._layout), worked out once
    packing: tuple[list[int], list[int], list[int], list[int], int, int, int] | None = field(
        default=None, repr=False, compare=False
    )


_CATEGORY_OF: dict[tuple[int, int, int], list[int]] = {}


def _category_of(k: Knowledge) -> list[int]:
    sizes = (len(k.deck.suspects), len(k.deck.weapons), len(k.deck.rooms))
    cat_of = _CATEGORY_OF.get(sizes)
    if cat_of is None:
        cat_of = _CATEGORY_OF[sizes] = [0] * sizes[0] + [1] * sizes[1] + [2] * sizes[2]
    return cat_of


def plan(k: Knowledge, tag_place: int = 0, tag_cards: tuple[int, ...] = (), alone: tuple[int, ...] = ()) -> Plan:
    """The program counting k's deals. With ``tag_place`` (a player) and ``tag_cards``, each tagged
    card still unknown is placed as a card of its own, and the program also records which of them
    that player receives: the count comes out split by that (see :func:`split_by_holder`). The
    cards of ``alone`` still unknown are placed as cards of their own too (untagged), so that a
    program reading ``step_cards`` can follow where each goes (engine.gains).

    The plan is made by compiled code (engine/_kernels.pyx, ``plan_fields``: it says the order of
    the steps), as the programs run: made at every count, in Python it cost as much as a count."""
    return Plan(
        *counting_kernel.plan_fields(k.allowed, k.sizes, _category_of(k), k.clauses, tag_place, tag_cards, alone)
    )


# -- running the plan -------------------------------------------------------------------------------


def run_python(pl: Plan) -> dict[tuple[int, int, int, int], int]:
    """The dynamic program with exact Python integers: (envelope id per category, tag) -> deals.
    The tag is the set of tagged cards the tagged hand received (0 in a plan without tags)."""
    n_hands = len(pl.caps)
    # under a budget (engine.budget): stop past the states the count may generate, or hold
    spending = budget.current()
    left, memory = spending.allowance() if spending is not None else (0, 0)
    spent = 0
    states: dict[_State, int] = {(pl.caps, (0, 0, 0), 0, 0): 1}
    most_held = memory // budget.BYTES_PER_HELD_STATE_PYTHON - len(states)  # beside the states before
    held = 1
    for st in pl.steps.tolist():
        new: dict[_State, int] = {}
        for (caps, env, met, tag), n in states.items():
            for caps2, env2, met2, ways in _successors(st, n_hands, caps, env, met):
                # a card step that takes a seat from the tagged hand put the card there
                tag2 = tag | st[TAG] if st[TAG] and caps2[pl.tag_hand] < caps[pl.tag_hand] else tag
                key = (caps2, env2, met2, tag2)
                new[key] = new.get(key, 0) + n * ways
                spent += 1
                if spending is not None and (spent > left or len(new) > most_held):
                    raise spending.stopped(spent, left, (len(states) + len(new)) * budget.BYTES_PER_HELD_STATE_PYTHON)
        held = max(held, len(states) + len(new))
        states = new
        if not states:
            break
        most_held = memory // budget.BYTES_PER_HELD_STATE_PYTHON - len(states)
    if spending is not None:
        spending.spend(spent, held * budget.BYTES_PER_HELD_STATE_PYTHON)
    if not states:
        return {}
    out: dict[tuple[int, int, int, int], int] = {}
    for (caps, env, _, tag), n in states.items():
        if any(is_open and not e for is_open, e in zip(pl.open_categories, env)):
            continue
        ids = (env[0], env[1], env[2], tag)
        out[ids] = out.get(ids, 0) + n * counting_kernel.fill_ways(caps)
    return out


def _successors(
    st: list[int], n_hands: int, caps: tuple[int, ...], env: tuple[int, ...], met: int
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], int, int]]:
    """The states after step ``st`` (a row of the plan) from one state, with the ways to get there."""
    cat, env_id, closes = st[CAT], st[ENV_ID], st[CLOSES]
    if st[KIND] == ENVELOPE_CHOICE:
        yield caps, env, met, 1
        if not env[cat]:
            yield caps, env[:cat] + (env_id,) + env[cat + 1 :], met, 1
        return
    if st[KIND] == CARD:
        if env_id and not env[cat]:
            if not closes & ~met:
                yield caps, env[:cat] + (env_id,) + env[cat + 1 :], met & ~closes, 1
        for h in _bits(st[HANDS]):
            if not caps[h]:
                continue
            met2 = met | st[MEETS + h]
            if closes & ~met2:
                continue
            if caps[h] == 1 and (st[MEETS + n_hands + h] & ~met2 or st[UNOPENED] >> h & 1):
                continue
            yield caps[:h] + (caps[h] - 1,) + caps[h + 1 :], env, met2 & ~closes, 1
        return
    # GROUP: its cards are spread over the envelope (at most one, a given member) and its hands
    hands = list(_bits(st[HANDS]))
    options = [(0, env)]
    if env_id and not env[cat]:
        options.append((1, env[:cat] + (env_id,) + env[cat + 1 :]))
    for in_env, env2 in options:
        for xs in _spread(st[SIZE] - in_env, [caps[h] for h in hands]):
            caps2 = list(caps)
            ways = 1
            left = st[SIZE] - in_env
            dead = False
            for h, x in zip(hands, xs):
                if x:
                    ways *= math.comb(left, x)
                    left -= x
                    caps2[h] -= x
                    if not caps2[h] and st[UNOPENED] >> h & 1:
                        dead = True
            if not dead:
                yield tuple(caps2), env2, met, ways


def _spread(total: int, limits: list[int]) -> Iterator[tuple[int, ...]]:
    """Every (x_0, x_1, ...) with 0 <= x_i <= limits[i] and sum total."""
    if not limits:
        if total == 0:
            yield ()
        return
    rest = sum(limits[1:])
    for x in range(max(0, total - rest), min(total, limits[0]) + 1):
        for tail in _spread(total - x, limits[1:]):
            yield (x, *tail)


def _run(pl: Plan) -> dict[tuple[int, int, int, int], int]:
    if counting_kernel.fits(pl):
        return counting_kernel.run(pl)
    if counting_kernel.compiled(pl):
        return counting_kernel.run_wide(pl)
    return run_python(pl)


# -- the count --------------------------------------------------------------------------------------


def _expand(k: Knowledge, pl: Plan, by_env: dict[tuple[int, int, int, int], int]) -> dict[tuple[int, int, int], int]:
    """Envelope ids -> the count of each solution (deck indices); ruled-out solutions dropped."""
    out: dict[tuple[int, int, int], int] = {}
    for env, n in by_env.items():
        if not n:
            continue
        lists = [
            [pl.env_known[cat]] if not pl.open_categories[cat] else pl.members[cat][env[cat] - 1] for cat in range(3)
        ]
        for s in lists[0]:
            for w in lists[1]:
                for r in lists[2]:
                    out[(s, w, r)] = n
    for t in k.excluded:
        out.pop(t, None)
    return out


_MEMOS: list[dict[Knowledge, Any]] = []


def _memo(limit: int) -> Callable[[Callable[[Knowledge], R]], Callable[[Knowledge], R]]:
    """Remember a function of knowledge (immutable, hashable) for the last `limit` or so inputs:
    answers, expected gains and entropy tables count the same knowledge again and again."""

    def wrap(f: Callable[[Knowledge], R]) -> Callable[[Knowledge], R]:
        cache: dict[Knowledge, R] = {}
        _MEMOS.append(cache)

        @functools.wraps(f)
        def memoised(k: Knowledge) -> R:
            try:
                return cache[k]
            except KeyError:
                pass
            if len(cache) >= limit:
                cache.clear()
            value = cache[k] = f(k)
            return value

        return memoised

    return wrap


def clear_caches() -> None:
    for cache in _MEMOS:
        cache.clear()


@_memo(2_000)
def _counted(k: Knowledge) -> tuple[Plan, dict[tuple[int, int, int, int], int]]:
    """The plan of k's count and the deals of each envelope id (one count, shared by the totals
    and the solutions)."""
    pl = plan(k)
    return pl, _run(pl)


# What one solution costs the dict of solutions (a 3-tuple of small integers, the count, the entry)
BYTES_PER_SOLUTION = 200


@_memo(2_000)
def solution_counts_by_index(k: Knowledge) -> dict[tuple[int, int, int], int]:
    """(suspect, weapon, room) deck indices -> deals; the caller must not change the dict. On a big
    deck with little known the solutions are many more than the envelope ids counted (500 suspects,
    weapons and rooms: 125 million): their dict is weighed against the budget's memory before it
    is made."""
    if not k.consistent:
        return {}
    pl, by_env = _counted(k)
    current = budget.current()
    if current is not None and current.limits.memory_mb:
        held = _solutions(pl, by_env) * BYTES_PER_SOLUTION
        if held > current.limits.memory_mb * (1 << 20):
            raise current.stopped(0, 1 << 62, held)
    return _expand(k, pl, by_env)


def _solutions(pl: Plan, by_env: dict[tuple[int, int, int, int], int]) -> int:
    """How many solutions the envelope ids of a count stand for (before any is ruled out)."""
    sizes: list[list[int]] = [
        [1] + [len(m) for m in pl.members[cat]] if pl.open_categories[cat] else [] for cat in range(3)
    ]
    total = 0
    for env, n in by_env.items():
        if n:
            ways = 1
            for cat in range(3):
                if sizes[cat]:
                    ways *= sizes[cat][env[cat]]
            total += ways
    return total


def split_by_holder(k: Knowledge, place: int, cards: tuple[int, ...]) -> dict[int, np.ndarray]:
    """k's deals split by which of ``cards`` the player at ``place`` holds, in one program:
    tag (bit i set: the player holds cards[i]) -> the deals of each solution as a dense array indexed
    [suspect, weapon, room] (positions within each category; int64, or Python integers where the
    exact program ran), tags with deals only."""
    if not k.consistent:
        return {}
    pl = plan(k, place, cards)
    ids, n = _rows(pl)
    held = sum(1 << i for i, c in enumerate(cards) if k.allowed[c] == 1 << place)  # known to be there
    maps = _card_maps(k, pl)
    out: dict[int, np.ndarray] = {}
    for tag in np.unique(ids[:, 3]).tolist():
        rows = ids[:, 3] == tag
        out[tag | held] = _dense(k, maps, ids[rows], n[rows])
    return out


def _shape(k: Knowledge) -> tuple[int, int, int]:
    ns, nw = len(k.deck.suspects), len(k.deck.weapons)
    return ns, nw, len(k.deck.cards) - ns - nw


def _rows(pl: Plan) -> tuple[np.ndarray, np.ndarray]:
    """The program's result as rows (envelope id per category, tag) and counts: int64 from the
    compiled program, Python integers (dtype object) from the exact one."""
    if counting_kernel.fits(pl):
        ids, n = counting_kernel.run_arrays(pl)
        return ids, n.astype(object) if counting_kernel.wide(pl) else n
    by_env = _run(pl)
    return np.array(list(by_env), dtype=np.int64).reshape(len(by_env), 4), np.array(list(by_env.values()), dtype=object)


def _card_maps(k: Knowledge, pl: Plan) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per category, each card's envelope id in the plan's result: its group's id, 0 for the known
    envelope card, -1 (a cell left empty) for a card that cannot be there."""
    maps = []
    start = 0
    for cat, size in enumerate(_shape(k)):
        to_id = np.full(size, -1, dtype=np.int64)
        if pl.open_categories[cat]:
            for gid, cards in enumerate(pl.members[cat], start=1):
                to_id[np.array(cards) - start] = gid
        else:
            to_id[pl.env_known[cat] - start] = 0
        maps.append(to_id)
        start += size
    return maps[0], maps[1], maps[2]


def _dense(k: Knowledge, maps: tuple[np.ndarray, np.ndarray, np.ndarray], ids: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Counts by envelope id spread over the cards (see :func:`_card_maps`), ruled-out solutions 0."""
    by_id = np.zeros((len(maps[0]) + 2, len(maps[1]) + 2, len(maps[2]) + 2), dtype=n.dtype)
    if len(n):
        by_id[ids[:, 0], ids[:, 1], ids[:, 2]] = n
    out: np.ndarray = by_id[np.ix_(*maps)]
    if k.excluded:
        ns, nw = len(maps[0]), len(maps[1])
        for s, w, r in k.excluded:
            out[s, w - ns, r - ns - nw] = 0
    return out


def array_entropy(counts: np.ndarray) -> float:
    """Entropy in bits of a distribution given by counts (nan when they are all 0)."""
    if counts.dtype == object:
        return entropy_of(counts.ravel().tolist(), int(counts.sum()))
    total = int(counts.sum())
    if not total:
        return math.nan
    nz = counts[counts > 0].astype(np.float64)
    return max(0.0, math.log2(total) - float((nz * np.log2(nz)).sum()) / total)


def solution_counts(k: Knowledge) -> dict[Triple, int]:
    """(suspect, weapon, room) -> number of consistent deals with it in the envelope (nonzero only)."""
    cards = k.deck.cards
    return {(cards[s], cards[w], cards[r]): n for (s, w, r), n in solution_counts_by_index(k).items()}


@_memo(50_000)
def total_count(k: Knowledge) -> int:
    """The consistent deals, summed over the envelope ids of the count (each standing for as many
    solutions as its groups' cards), without a dict of every solution (125 million on a deck of
    500/500/500)."""
    if not k.consistent:
        return 0
    pl, by_env = _counted(k)
    total = 0
    for env, n in by_env.items():
        if n:
            total += n * math.prod(
                len(pl.members[cat][env[cat] - 1]) if pl.open_categories[cat] else 1 for cat in range(3)
            )
    for excluded in k.excluded:  # a solution ruled out: its deals are not counted
        total -= _deals_of(pl, by_env, excluded)
    return total


def _deals_of(pl: Plan, by_env: dict[tuple[int, int, int, int], int], triple: tuple[int, int, int]) -> int:
    """The deals of one solution (deck indices) in a count: those of the envelope id its cards fall in."""
    env: list[int | None] = []
    for cat, card in enumerate(triple):
        if not pl.open_categories[cat]:
            if card != pl.env_known[cat]:
                return 0
            env.append(None)
            continue
        gid = next((g for g, cards in enumerate(pl.members[cat], start=1) if card in cards), None)
        if gid is None:
            return 0
        env.append(gid)
    return sum(n for key, n in by_env.items() if all(want is None or key[cat] == want for cat, want in enumerate(env)))


@_memo(50_000)
def envelope_entropy(k: Knowledge) -> float:
    """Entropy in bits of the observer's distribution over solutions (nan if nothing is consistent)."""
    if not k.consistent:
        return math.nan
    pl = plan(k)
    if not k.excluded and counting_kernel.fits(pl):
        return counting_kernel.envelope_entropy(pl)
    by_env = _run(pl)
    if k.excluded:
        counts = _expand(k, pl, by_env)
        return entropy_of(counts.values(), sum(counts.values()))
    weighted: list[tuple[int, int]] = []  # (the deals of one solution, how many solutions have them)
    for env, n in by_env.items():
        if not n:
            continue
        mult = 1
        for cat in range(3):
            if pl.open_categories[cat]:
                mult *= len(pl.members[cat][env[cat] - 1])
        weighted.append((n, mult))
    total = sum(n * mult for n, mult in weighted)
    if not total:
        return math.nan
    # (n * mult) / total divided as integers first: counts past a float's range never become floats
    return max(0.0, _log2(total) - sum(((n * mult) / total) * _log2(n) for n, mult in weighted))


@_memo(256)  # a record that teaches nothing leaves the knowledge as it was: counted once (10^5 statements)
def count(k: Knowledge) -> Counts:
    """Everything: the total, the solutions, and each card's count per place (the notebook).
    The same knowledge gives the same Counts object: read it, never change it.

    A card's count in a hand is the total of the knowledge with that fact added. Two cards in no
    clause, of one category and with the same possible places are interchangeable (swapping them
    maps consistent deals onto consistent deals) unless a ruled-out solution names one of them, so
    one of them is counted for both."""
    solutions = solution_counts(k)
    total = sum(solutions.values())
    card_places: dict[str, dict[str, int]] = {}
    cards = k.deck.cards
    in_clause = 0
    for _, m in k.clauses:
        in_clause |= m
    cat_of = _category_of(k)
    twins: dict[tuple[int, int], dict[str, int]] = {}
    for c, mask in enumerate(k.allowed):
        per_place: dict[str, int] = {}
        key = (mask, cat_of[c])
        symmetric = not k.excluded and not in_clause >> c & 1
        if symmetric and key in twins:
            card_places[cards[c]] = dict(twins[key])
            continue
        if total:
            places = list(_bits(mask))
            if len(places) == 1:
                per_place[k.places[places[0]]] = total
            else:
                # the envelope's count comes from the solutions; each other place by conditioning
                for p in places:
                    if p == 0:
                        n = sum(v for t, v in solutions.items() if cards[c] in t)
                    else:
                        n = total_count(k.updated(holds=[(p, c)]))
                    if n:
                        per_place[k.places[p]] = n
        if symmetric:
            twins[key] = per_place
        card_places[cards[c]] = per_place
    return Counts(total=total, solutions=solutions, card_places=card_places)
