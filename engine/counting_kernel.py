"""The counting dynamic program of engine.counting, compiled with numba on 64-bit integers.

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
adds them up as Python integers. It needs numba (a dependency of the package), which it imports
unconditionally.

The program adds up the bytes of the arrays it holds and checks the sum with the array it is about
to allocate against the budget's memory limit, before allocating it (:func:`_afford`).
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numba import njit

from clue_stats.engine import budget

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
        and not (len(pl.steps) and pl.steps[:, 1].max() >= WIDE_CARDS)
        and fill_bound(pl) < (1 << 64) * math.prod(PRIMES)
    )


def fits(pl) -> bool:
    return (
        fill_bound(pl) < LIMIT
        and _layout(pl)[6] < 62
        and sum(pl.caps) < 64
        and not (len(pl.steps) and pl.steps[:, 1].max() >= 64)  # group sizes index the binomials
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


@njit(cache=True)
def clause_steps(clauses, info, n_hands):
    """The steps of the clause cards (rows of engine.counting's plan table), the cards in that
    order, and the clause slots used at once.

    ``clauses``: per clause, its open hand then its cards, padded with -1. ``info``: per deck card,
    its possible places, its open hands (mask), 1 if the envelope is possible, its category, its tag
    bit. The order is greedy: a card that closes the most clauses, then the one with the fewest
    possible places, then the one opening the fewest clauses, then the card in most clauses (the
    lowest card on a tie). The possible places come before the clauses opened: a card with few
    places branches the states least (docs/performance.md, "The deduction engine", gives the
    saving)."""
    n_cl = clauses.shape[0]
    n_cards = info.shape[0]
    local = np.full(n_cards, -1, np.int64)  # deck card -> its number among the clause cards
    for i in range(n_cl):
        for j in range(1, clauses.shape[1]):
            if clauses[i, j] >= 0:
                local[clauses[i, j]] = 0
    cards = np.empty(n_cards, np.int64)
    m = 0
    for c in range(n_cards):
        if local[c] >= 0:
            local[c] = m
            cards[m] = c
            m += 1
    n_in = np.zeros(m, np.int64)  # per clause card: the clauses naming it
    naming = np.empty((m, max(n_cl, 1)), np.int64)
    left = np.zeros(n_cl, np.int64)  # per clause: its cards not placed yet
    for i in range(n_cl):
        for j in range(1, clauses.shape[1]):
            c = clauses[i, j]
            if c >= 0:
                q = local[c]
                naming[q, n_in[q]] = i
                n_in[q] += 1
                left[i] += 1
    started = np.zeros(n_cl, np.bool_)
    placed = np.zeros(m, np.bool_)
    order = np.empty(m, np.int64)
    for pos in range(m):
        best = -1
        b0 = b1 = b2 = b3 = 0
        for q in range(m):
            if placed[q]:
                continue
            closes = opens = 0
            for t in range(n_in[q]):
                i = naming[q, t]
                if left[i] == 1:
                    closes += 1
                elif not started[i]:
                    opens += 1
            k0, k1, k2, k3 = -closes, info[cards[q], 0], opens, -n_in[q]
            if best < 0 or k0 < b0 or (k0 == b0 and (k1 < b1 or (k1 == b1 and (k2 < b2 or (k2 == b2 and k3 < b3))))):
                best, b0, b1, b2, b3 = q, k0, k1, k2, k3
        order[pos] = best
        placed[best] = True
        for t in range(n_in[best]):
            left[naming[best, t]] -= 1
            started[naming[best, t]] = True
    # each clause holds a slot from its first card to its last; slots are reused once free
    first = np.full(n_cl, m, np.int64)
    last = np.full(n_cl, -1, np.int64)
    for pos in range(m):
        q = order[pos]
        for t in range(n_in[q]):
            i = naming[q, t]
            first[i] = min(first[i], pos)
            last[i] = max(last[i], pos)
    slot = np.zeros(n_cl, np.int64)
    free = np.empty(max(n_cl, 1), np.int64)
    n_free = 0
    slots = 0
    in_progress = np.zeros(n_cl, np.bool_)
    unopened = np.zeros(max(n_hands, 1), np.int64)  # per hand: its clauses not opened yet
    for i in range(n_cl):
        unopened[clauses[i, 0]] += 1
    env_ids = np.zeros(3, np.int64)
    steps = np.zeros((m, 8 + 2 * n_hands), np.int64)
    for pos in range(m):
        q = order[pos]
        c = cards[q]
        for i in range(n_cl):
            if first[i] == pos:
                if n_free:
                    n_free -= 1
                    slot[i] = free[n_free]
                else:
                    slot[i] = slots
                    slots += 1
                in_progress[i] = True
                unopened[clauses[i, 0]] -= 1
        for t in range(n_in[q]):
            i = naming[q, t]
            steps[pos, 8 + clauses[i, 0]] |= 1 << slot[i]
        closes = 0
        for i in range(n_cl):
            if last[i] == pos:
                closes |= 1 << slot[i]
                in_progress[i] = False
        for i in range(n_cl):
            if in_progress[i]:
                steps[pos, 8 + n_hands + clauses[i, 0]] |= 1 << slot[i]
        hands_unopened = 0
        for h in range(n_hands):
            if unopened[h]:
                hands_unopened |= 1 << h
        cat = info[c, 3]
        env_id = 0
        if info[c, 2]:
            env_ids[cat] += 1
            env_id = env_ids[cat]
        steps[pos, 0] = 0  # a card
        steps[pos, 1] = 1
        steps[pos, 2] = cat
        steps[pos, 3] = env_id
        steps[pos, 4] = info[c, 1]
        steps[pos, 5] = closes
        steps[pos, 6] = hands_unopened
        steps[pos, 7] = info[c, 4]
        for i in range(n_cl):
            if last[i] == pos:
                free[n_free] = slot[i]
                n_free += 1
    out = np.empty(m, np.int64)
    for pos in range(m):
        out[pos] = cards[order[pos]]
    return steps, out, slots


@njit(cache=True)
def _classes(steps, n_hands, cmask, tag_hand):
    """Per step, per hand: a class number (0: none) such that hands of one class are treated alike
    by every later step: the same cards may go to both, neither has a clause in progress or to
    come, neither is the tagged hand, and their room is stored in as many bits. States that differ
    only by a permutation of the room left among the hands of a class have the same future, so the
    program merges them (it sorts the room within each class)."""
    n_steps = steps.shape[0]
    out = np.zeros((n_steps, max(n_hands, 1)), np.int64)
    alike = np.zeros((n_hands, n_hands), np.bool_)  # the same width and the same later steps
    for a in range(n_hands):
        for b in range(n_hands):
            alike[a, b] = cmask[a] == cmask[b]
    taken = np.zeros(n_hands, np.bool_)  # a clause now or later, or the tag
    if tag_hand >= 0:
        taken[tag_hand] = True
    free = np.zeros(n_hands, np.bool_)
    for s in range(n_steps - 1, -1, -1):
        hands, unopened = steps[s, 4], steps[s, 6]
        for h in range(n_hands):
            free[h] = not taken[h] and steps[s, 8 + n_hands + h] == 0 and not (unopened >> h) & 1
        number = 0
        for h in range(n_hands):
            if not free[h] or out[s, h]:
                continue
            for g in range(h + 1, n_hands):
                if free[g] and not out[s, g] and alike[h, g]:
                    if not out[s, h]:
                        number += 1
                        out[s, h] = number
                    out[s, g] = number
        for a in range(n_hands):
            for b in range(n_hands):
                if ((hands >> a) & 1) != ((hands >> b) & 1):
                    alike[a, b] = False
        for h in range(n_hands):
            if steps[s, 8 + h] or steps[s, 8 + n_hands + h] or (unopened >> h) & 1:
                taken[h] = True
    return out


@njit(cache=True, inline="always")
def _canonical(key, classes, n_classes, off, cmask, digits, hands):
    """The key with the room left sorted (largest first) within each class of interchangeable hands."""
    for c in range(1, n_classes + 1):
        m = 0
        for h in range(classes.shape[0]):
            if classes[h] == c:
                d = (key >> off[h]) & cmask[h]
                # insertion sort, largest first
                j = m
                while j > 0 and digits[j - 1] < d:
                    digits[j] = digits[j - 1]
                    j -= 1
                digits[j] = d
                hands[m] = h
                m += 1
        for j in range(m):
            h = hands[j]
            key = (key & ~(cmask[h] << off[h])) | (digits[j] << off[h])
    return key


def envelope_entropy(pl) -> float:
    """The entropy in bits of the solutions' distribution, for a plan without ruled-out solutions:
    every member of an envelope id has the id's count, so the counts are weighed by the members
    instead of being spread over the solutions (nan when no deal is consistent)."""
    ids, n = run_arrays(pl)
    if wide(pl):  # the total may pass 2**63: Python integers
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
    sizes = np.zeros((3, max(len(m) for m in pl.members) + 1), dtype=np.int64)
    for cat in range(3):
        if pl.open_categories[cat]:
            sizes[cat, 1 : len(pl.members[cat]) + 1] = [len(m) for m in pl.members[cat]]
        else:
            sizes[cat, 0] = 1  # a known envelope card: id 0, one solution
    return _weighted_entropy(ids, n, sizes)


@njit(cache=True)
def _weighted_entropy(ids, n, sizes):
    total = 0
    acc = 0.0
    for i in range(n.shape[0]):
        mult = sizes[0, ids[i, 0]] * sizes[1, ids[i, 1]] * sizes[2, ids[i, 2]]
        if n[i] > 0 and mult > 0:
            total += mult * n[i]  # at most the plan's bound, below 2**62
            acc += mult * n[i] * np.log2(np.float64(n[i]))
    if total == 0:
        return np.nan
    return max(0.0, np.log2(np.float64(total)) - acc / total)


@njit(cache=True, inline="always")
def _slot(key, shift):
    return np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(shift))


@njit(cache=True, inline="always")
def _probe(t, shift, key):
    """The slot of ``key`` in the table t (key at 2j, value at 2j + 1): where it is, or the empty
    slot (key -1) where it goes."""
    mask = (t.shape[0] >> 1) - 1
    j = _slot(key, shift)
    while t[2 * j] != key and t[2 * j] != -1:
        j = (j + 1) & mask
    return j


@njit(cache=True, inline="always")
def _insert(t, shift, key, val, p):
    """Adds val at key in the table t (key at 2j, value at 2j + 1), modulo p when p is set;
    returns 1 when the key is new."""
    j = _probe(t, shift, key)
    if t[2 * j] == key:
        t[2 * j + 1] = _add(t[2 * j + 1], val, p)
        return 0
    t[2 * j] = key
    t[2 * j + 1] = val
    return 1


@njit(cache=True)
def _grow(t, shift):
    nt = np.full(t.shape[0] * 2, -1, np.int64)
    for j in range(0, t.shape[0], 2):
        if t[j] != -1:
            _insert(nt, shift - 1, t[j], t[j + 1], 0)
    return nt, shift - 1


@njit(cache=True)
def _slots(n):
    """The slots of a table for n keys (at most half full), a power of two."""
    size = 64
    while size < 2 * n:
        size *= 2
    return size


@njit(cache=True)
def _table(n):
    size = 64
    shift = 58
    while size < 2 * n:
        size *= 2
        shift -= 1
    return np.full(2 * size, -1, np.int64), shift


@njit(cache=True, inline="always")
def _mul(a, b, p):
    """a * b modulo p when p is set (a, b < p < 2**31), else modulo 2**64 (int64 wraps)."""
    if p:
        return (a * b) % p
    return a * b


@njit(cache=True, inline="always")
def _add(a, b, p):
    if p:
        return (a + b) % p
    return a + b


@njit(cache=True)
def _held(keys, e_from, f_env, more):
    """The bytes the counting program holds: the states (keys, counts, folded-state numbers), the
    moves and folds written down, and ``more`` int64s (the table being filled, ...)."""
    return 8 * (3 * keys.shape[0] + 4 * e_from.shape[0] + 3 * f_env.shape[0] + more)


@njit(cache=True, inline="always")
def _afford(work, memory, held, extra):
    """Whether the count may hold ``extra`` bytes more than ``held`` within ``memory``; work[2]
    keeps the most it held (or asked for, when it stops)."""
    need = held + extra
    if need > work[2]:
        work[2] = need
    return need <= memory


# -- the core both compiled programs share (this one and engine.gain_kernel) ----------------------


@njit(cache=True)
def _operations(table):
    """The operations of a plan: its steps (row numbers), with the universal cards' fill (-1) before
    the first envelope choice."""
    ops = np.empty(table.shape[0] + 1, np.int64)
    n_ops = 0
    filling = True
    for s in range(table.shape[0]):
        if table[s, 0] == 2 and filling:
            ops[n_ops] = -1
            n_ops += 1
            filling = False
        ops[n_ops] = s
        n_ops += 1
    return ops[:n_ops]


@njit(cache=True, inline="always")
def _start_key(caps0, off):
    """The state before any step: every open hand's room left, nothing else."""
    key0 = 0
    for h in range(off.shape[0]):
        key0 |= caps0[h] << off[h]
    return key0


@njit(cache=True)
def _most_successors(table, caps0):
    """The most successors a state can have at a group step (a bound: the ways to split the group
    among its hands, in the envelope or not)."""
    most = 0
    for s in range(table.shape[0]):
        if table[s, 0] == 1:
            n_ways = 2
            for h in range(caps0.shape[0]):
                if (table[s, 4] >> h) & 1:
                    n_ways *= min(caps0[h], table[s, 1]) + 1
            most = max(most, n_ways)
    return most


@njit(cache=True, inline="always")
def _complete(key, open_cats, eoff, emask):
    """Every open envelope slot of the state is filled."""
    for c in range(3):
        if open_cats[c] and (key >> eoff[c]) & emask[c] == 0:
            return False
    return True


@njit(cache=True, inline="always")
def _successors(
    table,
    s,
    keys,
    fidx,
    lo,
    n,
    eoff,
    emask,
    tag_offset,
    tag_hand,
    off,
    cmask,
    moff,
    keep,
    binom,
    p,
    digits,
    hl,
    xs,
    left,
    ways,
    suffix,
    sk,
    sw,
    sl,
    sh,
    ends,
):
    """The successors of the states keys[lo], keys[lo + 1], ... after operation ``s`` (a row of the
    plan's table, -1 the fill), as many states as the arrays sk, sw, sl and sh have room for: the
    successors' keys, ways (modulo p when p is set), the envelope id each put in the envelope
    (0: none) and the hand each gave the step's card (-1: the envelope, or a group or fill). State
    ``lo + k``'s successors end at ends[k] (and begin where state ``lo + k - 1``'s end). Returns the
    state after the last one expanded, or -1 when state ``lo`` alone has more successors than there
    is room for.

    ``fidx``: per state, its number among the folded states or -1 (empty: no state is folded); a
    folded state puts a mark in the envelope, not the card's id. ``tag_hand``: the hand whose cards
    of a card step add the step's tag bits (-1: none).

    One call expands many states: called per state, with the arrays it takes, the counting program
    took 1.6x the time (docs/performance.md, "The deduction core")."""
    n_hands = off.shape[0]
    kind = table[s, 0] if s >= 0 else -1
    c = table[s, 2] if s >= 0 else 0
    eid = table[s, 3] if s >= 0 else 0
    hm = table[s, 4] if s >= 0 else 0
    cl = (table[s, 5] << moff) if s >= 0 else 0
    unopened = table[s, 6] if s >= 0 else 0
    tag = (table[s, 7] << tag_offset) if s >= 0 and tag_hand >= 0 else 0
    env_mask = emask[c] << eoff[c]
    room = sk.shape[0]
    m = 0
    i = lo
    while i < n and i - lo < ends.shape[0] and room - m >= n_hands + 2:
        key = keys[i]
        env_free = (key & env_mask) == 0
        # the id put in the envelope: a folded state records it and keeps a mark
        env_add = (1 << eoff[c]) if fidx.shape[0] and fidx[i] >= 0 else (eid << eoff[c])
        over = False
        if kind == -1:  # the universal cards fill the room left
            sk[m] = key & keep
            sw[m] = _fill(key, off, cmask, binom, p)
            sl[m] = 0
            sh[m] = -1
            m += 1
        elif kind == 2:  # envelope choice of a universal group: it stays out, or a given member goes in
            sk[m] = key
            sw[m] = 1
            sl[m] = 0
            sh[m] = -1
            m += 1
            if env_free:
                sk[m] = key | env_add
                sw[m] = 1
                sl[m] = eid
                sh[m] = -1
                m += 1
        elif kind == 0:  # one card: in a clause, tagged, or placed alone
            if eid != 0 and env_free and (cl & ~key) == 0:
                sk[m] = (key | env_add) & ~cl
                sw[m] = 1
                sl[m] = eid
                sh[m] = -1
                m += 1
            for h in range(n_hands):
                if not (hm >> h) & 1:
                    continue
                d = (key >> off[h]) & cmask[h]
                if d == 0:
                    continue
                key2 = (key - (1 << off[h])) | (table[s, 8 + h] << moff)
                if h == tag_hand:
                    key2 |= tag
                if cl & ~key2:
                    continue  # a clause closes unmet
                if d == 1 and ((table[s, 8 + n_hands + h] << moff) & ~key2 or (unopened >> h) & 1):
                    continue  # the hand is full with a clause still to meet
                sk[m] = key2 & ~cl
                sw[m] = 1
                sl[m] = 0
                sh[m] = h
                m += 1
        else:  # a group of interchangeable cards
            nh = 0
            for h in range(n_hands):
                if (hm >> h) & 1:
                    hl[nh] = h
                    digits[nh] = (key >> off[h]) & cmask[h]
                    nh += 1
            suffix[nh] = 0
            for j in range(nh - 1, -1, -1):
                suffix[j] = suffix[j + 1] + digits[j]
            for in_env in range(2):
                if over or (in_env == 1 and (eid == 0 or not env_free)):
                    break
                base = key | (env_add if in_env else 0)
                total = table[s, 1] - in_env
                if total > suffix[0]:
                    continue
                if nh == 0:
                    if total == 0:
                        sk[m] = base
                        sw[m] = 1
                        sl[m] = eid if in_env else 0
                        sh[m] = -1
                        m += 1
                    continue
                # depth first over the cards given to each hand, most first
                j = 0
                left[0] = total
                ways[0] = 1
                xs[0] = min(total, digits[0]) + 1
                while j >= 0:
                    xs[j] -= 1
                    if xs[j] < 0 or left[j] - xs[j] > suffix[j + 1]:
                        j -= 1
                        continue
                    if j == nh - 1:
                        if left[j] == xs[j] and m == room:
                            over = True
                            break
                        if left[j] == xs[j]:
                            key2 = base
                            dead = False
                            for q in range(nh):
                                if xs[q]:
                                    key2 -= xs[q] << off[hl[q]]
                                    if xs[q] == digits[q] and (unopened >> hl[q]) & 1:
                                        dead = True
                            if not dead:
                                sk[m] = key2
                                sw[m] = _mul(ways[j], binom[left[j], xs[j]], p)
                                sl[m] = eid if in_env else 0
                                sh[m] = -1
                                m += 1
                        continue
                    ways[j + 1] = _mul(ways[j], binom[left[j], xs[j]], p)
                    left[j + 1] = left[j] - xs[j]
                    xs[j + 1] = min(left[j + 1], digits[j + 1]) + 1
                    j += 1
        if over:  # the state's successors are left to the next call, or are too many
            return -1 if i == lo else i
        ends[i - lo] = m
        i += 1
    return i


@njit(cache=True)
def _run(table, layout, n_hands, binom, limit, memory, p, work):
    """The plan's deals by envelope ids and tag (keys holding only those fields), and their counts,
    modulo p when p is set (else modulo 2**64). ``limit``: the most states the forward pass may
    generate; past it the program stops with no result and work[1] = 1. ``memory``: the most bytes
    it may hold; before an allocation past it, it stops with work[1] = 2. work[0]: the states
    generated; work[2]: the most bytes held (or about to be, when it stopped).

    Three passes: forwards over the operations (the steps, with the universal cards' fill before
    the first envelope choice), folding states as the module says and writing down the folded
    states' moves and the folds; the end (the fill of what is left, complete envelopes only);
    backwards over the folded states' moves, where each fold meets its completions."""
    off = layout[0:n_hands]
    cmask = layout[n_hands : 2 * n_hands]
    eoff = layout[2 * n_hands : 2 * n_hands + 3]
    emask = layout[2 * n_hands + 3 : 2 * n_hands + 6]
    moff = layout[2 * n_hands + 6]
    caps0 = layout[2 * n_hands + 7 : 3 * n_hands + 7]
    open_cats = layout[3 * n_hands + 7 : 3 * n_hands + 10]
    tag_hand = layout[3 * n_hands + 10]
    tag_all = layout[3 * n_hands + 11]
    tag_offset = layout[3 * n_hands + 12]
    folded = layout[3 * n_hands + 13]  # the flag of a folded state
    all_classes = _classes(table, n_hands, cmask, tag_hand)
    env_all = 0
    need = 0  # envelope slots to fill
    width_ids = 1
    for c in range(3):
        env_all |= emask[c] << eoff[c]
        need += open_cats[c]
        width_ids = max(width_ids, emask[c] + 1)
    # a state folds when its envelope gets its last id but one (its last id, with one open slot)
    fold_at = max(need - 1, 1) if need else 99
    n_tags = (tag_all >> tag_offset) + 1  # the tags a state can end with
    keep = env_all | tag_all | folded  # what the fill of the universal cards keeps
    ops = _operations(table)  # the steps, with the universal cards' fill before the first envelope choice
    n_ops = ops.shape[0]
    key0 = _start_key(caps0, off)
    keys = np.empty(1, np.int64)
    vals = np.empty(1, np.int64)
    fidx = np.full(1, -1, np.int64)  # per state: its number among the folded states, or -1
    keys[0] = key0
    vals[0] = 1
    n = 1
    width = max(n_hands, 1) + 1
    digits = np.empty(width, np.int64)
    hl = np.empty(width, np.int64)
    xs = np.empty(width, np.int64)
    left = np.empty(width, np.int64)
    ways = np.empty(width, np.int64)
    suffix = np.empty(width, np.int64)
    sd = np.empty(width, np.int64)  # scratch of _canonical
    sh = np.empty(width, np.int64)
    # the successors of the states expanded at once (state by state, at least one state's)
    most = max(width + 1, min(_most_successors(table, caps0), limit + 1))  # more is over the limit
    most = max(most, 1024)
    sk = np.empty(most, np.int64)  # their keys
    sw = np.empty(most, np.int64)  # their ways
    sl = np.empty(most, np.int64)  # the envelope id each put in the envelope (0: none)
    sg = np.empty(most, np.int64)  # the hand each gave the step's card (unused here)
    ends = np.empty(most, np.int64)  # where each state's successors end
    # the folded states' moves (op by op) and the folds (a labelled state entering a folded one)
    e_from = np.empty(1024, np.int64)
    e_to = np.empty(1024, np.int64)
    e_ways = np.empty(1024, np.int64)
    e_id = np.empty(1024, np.int64)
    e_start = np.zeros(n_ops + 1, np.int64)
    f_env = np.empty(1024, np.int64)
    f_val = np.empty(1024, np.int64)
    f_to = np.empty(1024, np.int64)
    f_start = np.zeros(n_ops + 1, np.int64)
    n_folded = np.zeros(n_ops + 1, np.int64)  # folded states before each op (and after the last)
    ne = 0
    nf = 0
    spent = 0  # states generated (successors, before they merge)
    growth = 2.0  # states after a step per state before, as last seen
    t, shift = _table(0)
    for o in range(n_ops):
        s = ops[o]
        n_classes = 0
        if s >= 0:
            for h in range(n_hands):
                n_classes = max(n_classes, all_classes[s, h])
        classes = all_classes[max(s, 0)]
        size = _slots(min(int(n * growth), limit) + 16)  # no more room than the limit needs
        if not _afford(work, memory, _held(keys, e_from, f_env, t.shape[0]), 16 * size):
            work[0] = spent
            work[1] = 2
            return np.empty(0, np.int64), np.empty(0, np.int64)
        t, shift = _table(min(int(n * growth), limit) + 16)
        used = 0
        lo = 0
        hi = 0
        for i in range(n):
            if i == hi:  # the next states' successors
                lo = i
                hi = _successors(
                    table,
                    s,
                    keys,
                    fidx,
                    i,
                    n,
                    eoff,
                    emask,
                    tag_offset,
                    tag_hand,
                    off,
                    cmask,
                    moff,
                    keep,
                    binom,
                    p,
                    digits,
                    hl,
                    xs,
                    left,
                    ways,
                    suffix,
                    sk,
                    sw,
                    sl,
                    sg,
                    ends,
                )
                if hi < 0:  # one state with more successors than the limit
                    work[0] = spent + sk.shape[0]
                    work[1] = 1
                    return np.empty(0, np.int64), np.empty(0, np.int64)
            val = vals[i]
            is_folded = fidx[i] >= 0
            q0 = ends[i - lo - 1] if i > lo else 0
            m = ends[i - lo] - q0
            spent += m
            if spent > limit:
                work[0] = spent
                work[1] = 1
                return np.empty(0, np.int64), np.empty(0, np.int64)
            more_e = max(2 * e_to.shape[0], ne + m) if ne + m > e_to.shape[0] else 0
            more_f = max(2 * f_to.shape[0], nf + m) if nf + m > f_to.shape[0] else 0
            more_t = 0
            while 4 * (used + m) > t.shape[0] << more_t:
                more_t += 1
            if (more_e or more_f or more_t) and not _afford(
                work,
                memory,
                _held(keys, e_from, f_env, t.shape[0]),
                32 * more_e + 24 * more_f + (8 * t.shape[0] << more_t if more_t else 0),
            ):
                work[0] = spent
                work[1] = 2
                return np.empty(0, np.int64), np.empty(0, np.int64)
            if more_e:
                e_from, e_to, e_ways, e_id = (
                    _more(e_from, ne + m),
                    _more(e_to, ne + m),
                    _more(e_ways, ne + m),
                    _more(e_id, ne + m),
                )
            if more_f:
                f_env, f_val, f_to = _more(f_env, nf + m), _more(f_val, nf + m), _more(f_to, nf + m)
            while 4 * (used + m) > t.shape[0]:  # at most half full after the state's successors
                t, shift = _grow(t, shift)
            for q in range(q0, q0 + m):
                key2 = sk[q]
                if n_classes:
                    key2 = _canonical(key2, classes, n_classes, off, cmask, sd, sh)
                if is_folded:
                    e_from[ne] = fidx[i]
                    e_to[ne] = key2
                    e_ways[ne] = sw[q]
                    e_id[ne] = sl[q]
                    ne += 1
                    used += _insert(t, shift, key2, 0, p)
                    continue
                if sl[q]:
                    filled = 0
                    for cat in range(3):
                        if (key2 >> eoff[cat]) & emask[cat]:
                            filled += 1
                    if filled == fold_at:
                        # the ids so far become a label of this fold; the state goes on with marks
                        env = key2 & env_all
                        key2 = (key2 & ~env_all) | folded
                        for cat in range(3):
                            if (env >> eoff[cat]) & emask[cat]:
                                key2 |= 1 << eoff[cat]
                        f_env[nf] = env
                        f_val[nf] = _mul(val, sw[q], p)
                        f_to[nf] = key2
                        nf += 1
                        used += _insert(t, shift, key2, 0, p)
                        continue
                used += _insert(t, shift, key2, _mul(val, sw[q], p), p)
        if not _afford(work, memory, _held(keys, e_from, f_env, t.shape[0]), 24 * used):
            work[0] = spent
            work[1] = 2
            return np.empty(0, np.int64), np.empty(0, np.int64)
        keys = np.empty(used, np.int64)
        vals = np.empty(used, np.int64)
        fidx = np.empty(used, np.int64)
        m = 0
        nfo = 0
        for j in range(0, t.shape[0], 2):
            if t[j] != -1:
                keys[m] = t[j]
                vals[m] = t[j + 1]
                fidx[m] = -1
                if t[j] & folded:
                    fidx[m] = nfo
                    t[j + 1] = nfo  # for the moves and folds into it, below
                    nfo += 1
                m += 1
        for q in range(e_start[o], ne):
            e_to[q] = t[2 * _find(t, shift, e_to[q]) + 1]
        for q in range(f_start[o], nf):
            f_to[q] = t[2 * _find(t, shift, f_to[q]) + 1]
        e_start[o + 1] = ne
        f_start[o + 1] = nf
        n_folded[o + 1] = nfo
        growth = max(1.0, used / n)
        n = used
        if n == 0:
            break
    # the end: each state times the ways the universal cards fill the room left (1 when counted
    # already), where every open envelope slot is filled
    out, shift = _table(64)
    used = 0
    # per folded state and final tag, its completions by the id its last open slot receives
    # (column tag * width_ids + id; id 0: every slot filled already)
    rows = n_folded[n_ops] if n else 0
    if not _afford(work, memory, _held(keys, e_from, f_env, t.shape[0] + out.shape[0]), 8 * rows * n_tags * width_ids):
        work[0] = spent
        work[1] = 2
        return np.empty(0, np.int64), np.empty(0, np.int64)
    after = np.zeros((rows, n_tags * width_ids), np.int64)
    for i in range(n):
        key = keys[i]
        complete = True
        for c in range(3):
            if open_cats[c] and (key >> eoff[c]) & emask[c] == 0:
                complete = False
        if not complete:
            continue
        fill = _fill(key, off, cmask, binom, p)
        if fidx[i] >= 0:
            after[fidx[i], ((key & tag_all) >> tag_offset) * width_ids] = fill
        else:
            used += _insert(out, shift, key & (env_all | tag_all), _mul(vals[i], fill, p), p)
            if 4 * used > out.shape[0]:
                if not _afford(
                    work, memory, _held(keys, e_from, f_env, t.shape[0] + out.shape[0] + after.size), 16 * out.shape[0]
                ):
                    work[0] = spent
                    work[1] = 2
                    return np.empty(0, np.int64), np.empty(0, np.int64)
                out, shift = _grow(out, shift)
    # backwards over the folded states' moves; each fold adds its count times its state's
    # completions to its ids (and the tag each completion ends with)
    if n:
        for o in range(n_ops - 1, -1, -1):
            if not _afford(
                work,
                memory,
                _held(keys, e_from, f_env, t.shape[0] + out.shape[0] + after.size),
                8 * n_folded[o] * n_tags * width_ids,
            ):
                work[0] = spent
                work[1] = 2
                return np.empty(0, np.int64), np.empty(0, np.int64)
            before = np.zeros((n_folded[o], n_tags * width_ids), np.int64)
            for q in range(e_start[o], e_start[o + 1]):
                a, b, w, x = e_from[q], e_to[q], e_ways[q], e_id[q]
                if x:
                    for g in range(0, n_tags * width_ids, width_ids):
                        before[a, g + x] = _add(before[a, g + x], _mul(w, after[b, g], p), p)
                else:
                    for y in range(n_tags * width_ids):
                        before[a, y] = _add(before[a, y], _mul(w, after[b, y], p), p)
            for q in range(f_start[o], f_start[o + 1]):
                env, val, b = f_env[q], f_val[q], f_to[q]
                last = -1  # the open slot the fold leaves, if any
                for c in range(3):
                    if open_cats[c] and (env >> eoff[c]) & emask[c] == 0:
                        last = c
                for g in range(n_tags):
                    for x in range(width_ids):
                        deals = after[b, g * width_ids + x]
                        if deals:
                            ids = env | (g << tag_offset)
                            if last >= 0:
                                ids |= x << eoff[last]
                            used += _insert(out, shift, ids, _mul(val, deals, p), p)
                            if 4 * used > out.shape[0]:
                                if not _afford(
                                    work,
                                    memory,
                                    _held(keys, e_from, f_env, t.shape[0] + out.shape[0] + after.size + before.size),
                                    16 * out.shape[0],
                                ):
                                    work[0] = spent
                                    work[1] = 2
                                    return np.empty(0, np.int64), np.empty(0, np.int64)
                                out, shift = _grow(out, shift)
            after = before
    work[0] = spent
    envs = np.empty(used, np.int64)
    counts = np.empty(used, np.int64)
    m = 0
    for j in range(0, out.shape[0], 2):
        if out[j] != -1:
            envs[m] = out[j]
            counts[m] = out[j + 1]
            m += 1
    return envs, counts


@njit(cache=True)
def _fill(key, off, cmask, binom, p):
    """The ways the universal cards fill the room left in the hands: (room left)! / prod(room left
    in hand h)!, a product of binomials (modulo p when p is set)."""
    room = 0
    for h in range(off.shape[0]):
        room += (key >> off[h]) & cmask[h]
    ways = 1
    for h in range(off.shape[0]):
        d = (key >> off[h]) & cmask[h]
        ways = _mul(ways, binom[room, d], p)
        room -= d
    return ways


@njit(cache=True)
def _more(a, n):
    """The array grown to hold at least n entries (its entries kept)."""
    out = np.empty(max(2 * a.shape[0], n), np.int64)
    out[: a.shape[0]] = a
    return out


@njit(cache=True)
def _find(t, shift, key):
    """The slot of a key in the table t."""
    mask = (t.shape[0] >> 1) - 1
    j = _slot(key, shift)
    while t[2 * j] != key:
        j = (j + 1) & mask
    return j
