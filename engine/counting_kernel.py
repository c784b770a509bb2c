"""The counting dynamic program of engine.counting, compiled ahead of time on 64-bit integers.

It follows the same plan as :func:`engine.counting.run_python` (read that first: it is the
reference). A state is packed into one int64 key of bit fields, so that reading and changing it
takes shifts and masks, never a division:

    | room left in hand 0 | ... | room left in hand H-1 | envelope id per category (3) | clause slots met | tag | folded |

States are merged in an open-addressing hash table per step, and more of them than the reference
merges, with the same result:

- hands that every later step treats alike are interchangeable (the room left is sorted within
  each class, :func:`_classes`);
- the universal cards' fill is counted before their groups' envelope choices, so that those run
  on states without the room left;
- an envelope id is a label: once a slot is filled, which card filled it changes nothing that
  follows. So when a state's envelope gets its last id but one (its only id, when one slot is
  open), the state *folds*: the ids so far and the state's count are written down as a fold, and
  the state goes on with a mark in place of its ids, merged with every other state that differs
  only by them. The folded states' moves are written down too, and a backward pass over them
  gives each folded state's completions by the id its last open slot receives; each fold adds
  its count times those completions to its ids. The envelope ids multiply the states, and folding
  merges them away (docs/performance.md, "The deduction engine", gives the states). A tag is a label
  too: a folded state keeps its tag bits, and its completions are counted by the tag they end with.

:func:`fits` says when the compiled program gives exact counts. Its integers are int64, whose
arithmetic wraps: every sum and product the program forms is right modulo 2**64, however large the
true number (the program only adds and multiplies counts, never divides or compares them). Every
count it returns, the deals of one envelope (and tag), is at most the ways to deal the hands' room
left, (room left)! / prod(room left in hand h)!; when that is below 2**62 each returned count is the
true one, even where the partial counts on the way passed 2**64 (on a 30-card deck the spectator's
partial counts do). Past that, :func:`run_wide` runs the program again modulo primes below 2**31
(every product then fits int64) and rebuilds each count from its remainders (the Chinese remainder
theorem), while the state fits one key (:func:`compiled`); the caller runs the Python program only
beyond. :func:`wide` says when the counts of all envelopes together may pass 2**62: the caller then
adds them up as Python integers.

The program itself is machine code built with the package (engine/_kernels.pyx, compiled by the
build: nothing compiles at run time); this module prepares its inputs and reads its results.

The program adds up the bytes of the arrays it holds and checks the sum with the array it is about
to allocate against the budget's memory limit, before allocating it (:func:`_afford`).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from clue_stats.engine import budget
from clue_stats.engine._kernels import count as _run
from clue_stats.engine._kernels import plan_fields as plan_fields  # engine.counting.plan's fields
from clue_stats.engine._kernels import weighted_entropy

LIMIT = 1 << 62
_BINOM = np.array([[math.comb(n, k) for k in range(64)] for n in range(64)], dtype=np.int64)


def _layout(pl) -> tuple[list[int], list[int], list[int], list[int], int, int, int]:
    """Bit offsets and widths of the hands' room and the envelope ids; the offsets of the slots and
    of the tag; the bits used (with the flag of a folded state, the last). Kept on the plan."""
    if pl.packing is not None:
        return pl.packing
    offsets, widths = [], []
    at = 0
    for cap in pl.caps:
        w = max(1, cap.bit_length())
        offsets.append(at)
        widths.append(w)
        at += w
    env_offsets, env_widths = [], []
    for members in pl.members:
        w = len(members).bit_length()
        env_offsets.append(at)
        env_widths.append(w)
        at += w
    pl.packing = (offsets, widths, env_offsets, env_widths, at, at + pl.slots, at + pl.slots + pl.tags + 1)
    return pl.packing


def fill_bound(pl) -> int:
    """The ways to deal the hands' room left: a bound on every count the program returns."""
    return fill_ways(pl.caps)


@functools.lru_cache(maxsize=4096)
def fill_ways(caps: tuple[int, ...]) -> int:
    """The ways to deal the universal cards into the room left in each hand (a multinomial)."""
    ways = math.factorial(sum(caps))
    for cap in caps:
        ways //= math.factorial(cap)
    return ways


# primes below 2**31 for the counts past 63 bits (run_wide): 2**64 times all of them passes 2**430
PRIMES = (
    2147483647,
    2147483629,
    2147483587,
    2147483579,
    2147483563,
    2147483549,
    2147483543,
    2147483497,
    2147483489,
    2147483477,
    2147483423,
    2147483399,
)
WIDE_CARDS = 128  # the room left, and a group's size, index the binomials (run_wide's tables)


@functools.cache
def binomials(p: int) -> np.ndarray:
    """The binomials below WIDE_CARDS modulo p, or modulo 2**64 (as int64, wrapped) when p is 0."""
    m = p or 1 << 64
    table = np.array([[math.comb(n, k) % m for k in range(WIDE_CARDS)] for n in range(WIDE_CARDS)], dtype=np.uint64)
    return table.view(np.int64)


def compiled(pl) -> bool:
    """The compiled program can count the plan exactly: in int64 (:func:`fits`), or by
    :func:`run_wide` (the state's bits fit one int64, the moduli pass the bound)."""
    return (
        _layout(pl)[6] < 62
        and sum(pl.caps) < WIDE_CARDS
        and pl.largest < WIDE_CARDS
        and fill_bound(pl) < (1 << 64) * math.prod(PRIMES)
    )


def fits(pl) -> bool:
    return (
        fill_bound(pl) < LIMIT
        and _layout(pl)[6] < 62
        and sum(pl.caps) < 64
        and pl.largest < 64  # group sizes index the binomials
    )


def wide(pl) -> bool:
    """True when the counts of all envelopes together may pass 2**62 (each one alone does not, when
    the plan :func:`fits`): sums of them must then be taken as Python integers."""
    envelopes = 1
    for cat in range(3):
        if pl.open_categories[cat]:
            envelopes *= sum(len(m) for m in pl.members[cat])
    return fill_bound(pl) * envelopes >= LIMIT


def run(pl) -> dict[tuple[int, int, int, int], int]:
    """(Envelope id per category, tag) -> deals, like engine.counting.run_python."""
    ids, counts = run_arrays(pl)
    return {(a, b, c, t): n for (a, b, c, t), n in zip(ids.tolist(), counts.tolist())}


def _launch(pl, layout: np.ndarray, p: int, binom: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One run of the compiled program, counting modulo p (0: modulo 2**64), under the budget in
    force (engine.budget): the program stops once it has generated more states than the count's
    allowance (work[1] = 1), or before it would hold more bytes than the memory limit (work[1] =
    2; work[2]: the bytes it would then have held). work[0]: the states it generated."""
    spending = budget.current()
    left, memory = spending.allowance() if spending is not None else (LIMIT, LIMIT)
    work = np.zeros(3, np.int64)
    envs, counts = _run(pl.steps, layout, len(pl.caps), binom, left, memory, p, work)
    if spending is not None:
        if work[1]:
            raise spending.stopped(int(work[0]), left, int(work[2]))
        spending.spend(int(work[0]), int(work[2]))
    return envs, counts


def _packed(pl) -> np.ndarray:
    """The plan's state packing and what the program reads beside its steps, as one int64 array."""
    offsets, widths, env_offsets, env_widths, met_offset, tag_offset, _ = _layout(pl)
    return np.array(
        [
            *offsets,
            *[(1 << w) - 1 for w in widths],
            *env_offsets,
            *[(1 << w) - 1 for w in env_widths],
            met_offset,
            *pl.caps,
            *pl.open_categories,
            pl.tag_hand,
            ((1 << pl.tags) - 1) << tag_offset,
            tag_offset,
            1 << (tag_offset + pl.tags),
        ],
        dtype=np.int64,
    )


def _ids(pl, envs: np.ndarray) -> np.ndarray:
    """The program's result keys as rows: the envelope id per category, then the tag."""
    _, _, env_offsets, env_widths, _, tag_offset, _ = _layout(pl)
    ids = np.empty((len(envs), 4), dtype=np.int64)
    for c in range(3):
        ids[:, c] = (envs >> env_offsets[c]) & ((1 << env_widths[c]) - 1)
    ids[:, 3] = envs >> tag_offset
    return ids


def run_arrays(pl) -> tuple[np.ndarray, np.ndarray]:
    """The same as arrays: one row per envelope (its id per category, then the tag), and counts."""
    envs, counts = _launch(pl, _packed(pl), 0, _BINOM)
    return _ids(pl, envs), counts


def run_wide(pl) -> dict[tuple[int, int, int, int], int]:
    """(Envelope id per category, tag) -> deals, for a plan the program runs (:func:`compiled`) whose
    counts may pass 2**62 (not :func:`fits`): it counts modulo 2**64 (its int64 arithmetic wraps),
    then again modulo primes below 2**31 (its products then fit int64) until the moduli multiplied
    pass the bound on every count; the Chinese remainder theorem gives each count, exact."""
    layout = _packed(pl)
    bound = fill_bound(pl)
    runs = [(1 << 64, _launch(pl, layout, 0, binomials(0)))]
    modulus = 1 << 64
    for p in PRIMES:
        if modulus > bound:
            break
        runs.append((p, _launch(pl, layout, p, binomials(p))))
        modulus *= p
    residues = [(m, dict(zip(envs.tolist(), counts.tolist()))) for m, (envs, counts) in runs]
    keys = sorted(set().union(*(r for _, r in residues)))
    out = {}
    for key, ids in zip(keys, _ids(pl, np.array(keys, dtype=np.int64)).tolist()):
        x, m = 0, 1
        for p, by_key in residues:  # Garner: x stays the count modulo the moduli so far
            x += m * ((by_key.get(key, 0) - x) * pow(m, -1, p) % p)
            m *= p
        if x:
            out[(ids[0], ids[1], ids[2], ids[3])] = x
    return out


def envelope_entropy(pl) -> float:
    """The entropy in bits of the solutions' distribution, for a plan without ruled-out solutions:
    every member of an envelope id has the id's count, so the counts are weighed by the members
    instead of being spread over the solutions (nan when no deal is consistent)."""
    envs, n = _launch(pl, _packed(pl), 0, _BINOM)
    if wide(pl):  # the total may pass 2**63: Python integers
        ids = _ids(pl, envs)
        weights = [
            math.prod(len(pl.members[cat][e - 1]) if pl.open_categories[cat] else 1 for cat, e in enumerate(row[:3]))
            for row in ids.tolist()
        ]
        counts = n.tolist()
        total = sum(w * c for w, c in zip(weights, counts))
        if not total:
            return math.nan
        acc = sum(w * c * math.log2(c) for w, c in zip(weights, counts) if c)
        return max(0.0, math.log2(total) - acc / total)
    # per category, the members of each id (a known envelope card: id 0, one solution)
    width = max(len(m) for m in pl.members) + 1
    sizes: list[int] = []
    for cat in range(3):
        if pl.open_categories[cat]:
            sizes += [0, *(len(m) for m in pl.members[cat])]
        else:
            sizes.append(1)
        sizes += [0] * (width * (cat + 1) - len(sizes))
    _, _, env_offsets, env_widths, _, _, _ = _layout(pl)
    masks = [(1 << w) - 1 for w in env_widths]
    return float(weighted_entropy(envs, n, np.array(sizes, np.int64), width, *env_offsets, *masks))


def _start_key(caps0: np.ndarray, off: np.ndarray) -> int:
    """The state before any step: every open hand's room left, nothing else."""
    return sum(int(cap) << int(o) for cap, o in zip(caps0, off))
