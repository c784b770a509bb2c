"""The program of engine.gains compiled with numba on 64-bit integers.

It follows :func:`engine.gains.run_python` (read that first: it is the reference) and the state
packing of engine.counting_kernel (room left per open hand, envelope ids, clause slots met), with
the answer so far (the lowest rank among the named cards placed and which of them have it) in
:data:`engine.gains.TAG_WIDTH` bits above them. A state's value is a row of counts: per vector card
and rank, the deals. States are merged in an open-addressing hash table per step; the universal
cards' fill is counted before the envelope choices, as in the counting kernel, by the step before
it: that step's states go straight to the filled states (the room left gone), without a table of
their own. Then
:func:`_gains` forms each vector card's expected gain from the result, as engine.gains.gains_python.

:func:`fits` says when no count can overflow (the counting kernel's bound, and room for the tag).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from clue_stats.engine import budget, counting_kernel
from clue_stats.engine.counting_kernel import _BINOM, _afford, _fill, _layout


def fits(pl, tag_width: int) -> bool:
    """Every count the program returns, and every sum of them the gains form, stays below 2**62
    (the counting kernel's conditions, its sums over envelopes included), and the key has room for
    the answer's bits."""
    return counting_kernel.fits(pl) and not counting_kernel.wide(pl) and _layout(pl)[5] + tag_width < 62


def run(pl, hand_rank, role_bit, role_vec, tag0: int, width: int, n_ranks: int):
    """The program's result: (envelope ids per category, answers, rows), as engine.gains.run_python."""
    offsets, widths, env_offsets, env_widths, met_offset, tag_offset, _ = _layout(pl)
    # under a budget (engine.budget), the program stops once it has generated more states than
    # the count's allowance (work[1] = 1), or before it would hold more bytes than the memory
    # limit (work[1] = 2); work[0]: the states it generated, work[2]: the most bytes it held
    spending = budget.current()
    left, memory = spending.allowance() if spending is not None else (counting_kernel.LIMIT, counting_kernel.LIMIT)
    work = np.zeros(3, np.int64)
    env, tags, vecs = _run(
        pl.steps,
        np.array(role_bit, np.int64),
        np.array(role_vec, np.int64),
        np.array(hand_rank, np.int64),
        np.array(offsets, np.int64),
        np.array([(1 << w) - 1 for w in widths], np.int64),
        np.array(env_offsets, np.int64),
        np.array([(1 << w) - 1 for w in env_widths], np.int64),
        met_offset,
        np.array(pl.caps, np.int64),
        np.array(pl.open_categories, np.int64),
        tag_offset,
        _BINOM,
        tag0,
        width,
        n_ranks,
        left,
        memory,
        work,
    )
    if spending is not None:
        if work[1]:
            raise spending.stopped(int(work[0]), left, int(work[2]))
        spending.spend(int(work[0]), int(work[2]))
    ids = np.empty((len(env), 3), dtype=np.int64)
    for c in range(3):
        ids[:, c] = (env >> env_offsets[c]) & ((1 << env_widths[c]) - 1)
    return ids, tags, vecs


def gains(result, cells, excluded, row_of, fixed, n_ranks: int, v_bit: int, t_ranks, t_bit: int, before: float):
    """Each vector card's expected gain for each rank of the tag card in ``t_ranks``, as
    engine.gains.gains_python: a list (per rank) of lists (per vector card). ``cells``: the plan's
    :func:`cells`."""
    ids, tags, vecs = result
    flat = excluded.reshape(-1)
    rows, known = np.array(row_of, np.int64), np.array(fixed, np.int64)
    nw, nr = excluded.shape[1], excluded.shape[2]
    s_start, s_pos, w_start, w_pos, r_start, r_pos = cells
    return [
        _gains(
            ids,
            tags,
            vecs,
            s_start,
            s_pos,
            w_start,
            w_pos,
            r_start,
            r_pos,
            flat,
            nw,
            nr,
            n_ranks,
            v_bit,
            rows,
            known,
            t_rank,
            t_bit,
            before,
        ).tolist()
        for t_rank in t_ranks
    ]


def cells(pl, shape: tuple[int, int, int]) -> tuple[np.ndarray, ...]:
    """Per category, its cards by envelope id in the plan's result, as (start per id, positions):
    the cards (positions within the category) of id i are positions[start[i]:start[i + 1]]; id 0
    is the known envelope card, when there is one."""
    out: list[np.ndarray] = []
    first = 0
    for cat, size in enumerate(shape):
        if pl.open_categories[cat]:
            groups = [[], *pl.members[cat]]
        else:
            groups = [[pl.env_known[cat]]]
        start = [0]
        positions: list[int] = []
        for cards in groups:
            positions.extend(c - first for c in cards)
            start.append(len(positions))
        start.append(len(positions))
        out += [np.array(start, np.int64), np.array(positions, np.int64)]
        first += size
    return tuple(out)


@njit(cache=True, inline="always")
def _combine(answer, rank, bit):
    if rank == 0:
        return answer
    low = answer >> 3
    if low == 0 or rank < low:
        return (rank << 3) | bit
    if rank == low:
        return answer | bit
    return answer


@njit(cache=True, inline="always")
def _slot(key, shift):
    return np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(shift))


@njit(cache=True)
def _index_slots(size):
    cap = 64
    while cap < size:
        cap *= 2
    return cap


@njit(cache=True)
def _index(size):
    """An empty hash index of at least ``size`` slots: keys, row numbers, shift."""
    cap = 64
    shift = 58
    while cap < size:
        cap *= 2
        shift -= 1
    return np.full(cap, -1, np.int64), np.empty(cap, np.int64), shift


@njit(cache=True)
def _more(keys, vals, used):
    """The keys and rows with twice the room, the first ``used`` kept (new rows zero)."""
    nk = np.empty(2 * keys.shape[0], np.int64)
    nk[:used] = keys[:used]
    nv = np.zeros((2 * keys.shape[0], vals.shape[1]), np.int64)
    nv[:used] = vals[:used]
    return nk, nv


@njit(cache=True)
def _run(
    table,
    role_bit,
    role_vec,
    hand_rank,
    off,
    cmask,
    eoff,
    emask,
    moff,
    caps0,
    open_cats,
    toff,
    binom,
    tag0,
    width,
    n_ranks,
    limit,
    memory,
    work,
):
    """(Envelope keys, answers, rows) of the complete deals: a row holds the deals, then per vector
    card placed (in step order) its deals by rank."""
    n_hands = off.shape[0]
    tmask = np.int64(63) << toff
    env_all = 0
    for c in range(3):
        env_all |= emask[c] << eoff[c]
    keep = env_all | tmask
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
    key0 = tag0 << toff
    for h in range(n_hands):
        key0 |= caps0[h] << off[h]
    keys = np.empty(1, np.int64)
    vals = np.zeros((1, width), np.int64)
    keys[0] = key0
    vals[0, 0] = 1
    n = 1
    act = 1  # the columns in use: the deals and the rows of the vector cards placed so far
    growth = 2.0  # states after an operation per state before, as last seen
    spent = 0  # states generated
    held = 0  # bytes of the states before and their index
    hw = max(n_hands, 1) + 1
    digits = np.empty(hw, np.int64)
    hl = np.empty(hw, np.int64)
    xs = np.empty(hw, np.int64)
    left = np.empty(hw, np.int64)
    ways = np.empty(hw, np.int64)
    suffix = np.empty(hw, np.int64)
    most = hw + 1
    for s in range(table.shape[0]):
        if table[s, 0] == 1:
            n_ways = 2
            for h in range(n_hands):
                if (table[s, 4] >> h) & 1:
                    n_ways *= min(caps0[h], table[s, 1]) + 1
            most = max(most, n_ways)
    sk = np.empty(most, np.int64)
    sw = np.empty(most, np.int64)
    sd = np.empty(most, np.int64)  # the hand a card step's card went to; -1: the envelope
    merged = False  # the fill was done with the step before it
    for o in range(n_ops):
        s = ops[o]
        if merged:
            merged = False
            continue
        # a step right before the fill does the fill too: its states go straight to the fill's
        # (fewer) states, without a table of their own
        fill_too = s >= 0 and o + 1 < n_ops and ops[o + 1] == -1
        kind = table[s, 0] if s >= 0 else -1
        c = table[s, 2] if s >= 0 else 0
        eid = table[s, 3] if s >= 0 else 0
        hm = table[s, 4] if s >= 0 else 0
        cl = (table[s, 5] << moff) if s >= 0 else 0
        unopened = table[s, 6] if s >= 0 else 0
        bit = role_bit[s] if s >= 0 else 0
        vj = role_vec[s] if s >= 0 else -1
        env_mask = emask[c] << eoff[c]
        room = int(n * growth) + 16
        # the arrays of the states before (and their index) stay while the new ones are filled
        if not _afford(work, memory, held, 8 * room * (1 + width) + 16 * _index_slots(2 * room)):
            work[0] = spent
            work[1] = 2
            return np.empty(0, np.int64), np.empty(0, np.int64), np.zeros((0, width), np.int64)
        nkeys = np.empty(room, np.int64)
        nvals = np.zeros((room, width), np.int64)
        used = 0
        hk, hi, shift = _index(2 * room)
        hmask = hk.shape[0] - 1
        for i in range(n):
            key = keys[i]
            env_free = (key & env_mask) == 0
            m = 0
            if kind == -1:  # the universal cards fill the room left
                sk[0] = key & keep
                sw[0] = _fill(key, off, cmask, binom, 0)
                sd[0] = -1
                m = 1
            elif kind == 2:  # envelope choice of a universal group
                sk[0] = key
                sw[0] = 1
                sd[0] = -1
                m = 1
                if env_free:
                    sk[1] = key | (eid << eoff[c])
                    sw[1] = 1
                    sd[1] = -1
                    m = 2
            elif kind == 0:  # one card
                if eid != 0 and env_free and (cl & ~key) == 0:
                    sk[m] = (key | (eid << eoff[c])) & ~cl
                    sw[m] = 1
                    sd[m] = -1
                    m += 1
                for h in range(n_hands):
                    if not (hm >> h) & 1:
                        continue
                    d = (key >> off[h]) & cmask[h]
                    if d == 0:
                        continue
                    key2 = (key - (1 << off[h])) | (table[s, 8 + h] << moff)
                    if cl & ~key2:
                        continue  # a clause closes unmet
                    if d == 1 and ((table[s, 8 + n_hands + h] << moff) & ~key2 or (unopened >> h) & 1):
                        continue  # the hand is full with a clause still to meet
                    sk[m] = key2 & ~cl
                    sw[m] = 1
                    sd[m] = h
                    m += 1
            else:  # a group of interchangeable cards
                nh = 0
                for h in range(n_hands):
                    if (hm >> h) & 1:
                        hl[nh] = h
                        digits[nh] = (key >> off[h]) & cmask[h]
                        nh += 1
                suffix[nh] = 0
                for jj in range(nh - 1, -1, -1):
                    suffix[jj] = suffix[jj + 1] + digits[jj]
                for in_env in range(2):
                    if in_env == 1 and (eid == 0 or not env_free):
                        break
                    base = key | ((eid << eoff[c]) if in_env else 0)
                    total = table[s, 1] - in_env
                    if total > suffix[0]:
                        continue
                    if nh == 0:
                        if total == 0:
                            sk[m] = base
                            sw[m] = 1
                            sd[m] = -1
                            m += 1
                        continue
                    jj = 0
                    left[0] = total
                    ways[0] = 1
                    xs[0] = min(total, digits[0]) + 1
                    while jj >= 0:
                        xs[jj] -= 1
                        if xs[jj] < 0 or left[jj] - xs[jj] > suffix[jj + 1]:
                            jj -= 1
                            continue
                        if jj == nh - 1:
                            if left[jj] == xs[jj]:
                                key2 = base
                                dead = False
                                for q in range(nh):
                                    if xs[q]:
                                        key2 -= xs[q] << off[hl[q]]
                                        if xs[q] == digits[q] and (unopened >> hl[q]) & 1:
                                            dead = True
                                if not dead:
                                    sk[m] = key2
                                    sw[m] = ways[jj] * binom[left[jj], xs[jj]]
                                    sd[m] = -1
                                    m += 1
                            continue
                        ways[jj + 1] = ways[jj] * binom[left[jj], xs[jj]]
                        left[jj + 1] = left[jj] - xs[jj]
                        xs[jj + 1] = min(left[jj + 1], digits[jj + 1]) + 1
                        jj += 1
            spent += m
            if spent > limit:  # past the budget's allowance: nothing is returned
                work[0] = spent
                work[1] = 1
                return np.empty(0, np.int64), np.empty(0, np.int64), np.zeros((0, width), np.int64)
            for q in range(m):
                key2 = sk[q]
                w = sw[q]
                rank = hand_rank[sd[q]] if sd[q] >= 0 else 0
                if bit:
                    key2 = (key2 & ~tmask) | (_combine((key2 >> toff) & 63, rank, bit) << toff)
                if fill_too:
                    w *= _fill(key2, off, cmask, binom, 0)
                    key2 &= keep
                jh = _slot(key2, shift)
                while hk[jh] != key2 and hk[jh] != -1:
                    jh = (jh + 1) & hmask
                if hk[jh] == key2:
                    r = hi[jh]
                else:
                    if used == room:  # more states than foreseen: twice the room, and a new index
                        rows_bytes = 8 * room * (1 + width)
                        if not _afford(
                            work,
                            memory,
                            held + rows_bytes + 16 * hk.shape[0],
                            2 * rows_bytes + 16 * _index_slots(4 * room),
                        ):
                            work[0] = spent
                            work[1] = 2
                            return np.empty(0, np.int64), np.empty(0, np.int64), np.zeros((0, width), np.int64)
                        nkeys, nvals = _more(nkeys, nvals, used)
                        room = nkeys.shape[0]
                        hk, hi, shift = _index(2 * room)
                        hmask = hk.shape[0] - 1
                        for q2 in range(used):
                            j2 = _slot(nkeys[q2], shift)
                            while hk[j2] != -1:
                                j2 = (j2 + 1) & hmask
                            hk[j2] = nkeys[q2]
                            hi[j2] = q2
                        jh = _slot(key2, shift)
                        while hk[jh] != -1:
                            jh = (jh + 1) & hmask
                    hk[jh] = key2
                    hi[jh] = used
                    nkeys[used] = key2
                    r = used
                    used += 1
                for x in range(act):
                    nvals[r, x] += vals[i, x] * w
                if vj >= 0:  # the card's row: every deal of the state, at the rank it got
                    nvals[r, 1 + vj * n_ranks + rank] += vals[i, 0] * w
        growth = max(1.0, used / n)
        held = 8 * nkeys.shape[0] * (1 + width) + 16 * hk.shape[0]  # keys and vals are views of these
        keys = nkeys[:used]
        vals = nvals[:used]
        n = used
        if vj >= 0:
            act = 1 + (vj + 1) * n_ranks
        merged = fill_too
        if n == 0:
            break
    # the end: complete envelopes, times the ways the universal cards fill the room left
    room = n + 16
    if not _afford(work, memory, held, 8 * room * (1 + width) + 16 * _index_slots(2 * room)):
        work[0] = spent
        work[1] = 2
        return np.empty(0, np.int64), np.empty(0, np.int64), np.zeros((0, width), np.int64)
    okeys = np.empty(room, np.int64)
    ovals = np.zeros((room, width), np.int64)
    used = 0
    hk, hi, shift = _index(2 * room)
    hmask = hk.shape[0] - 1
    for i in range(n):
        key = keys[i]
        complete = True
        for c in range(3):
            if open_cats[c] and (key >> eoff[c]) & emask[c] == 0:
                complete = False
        if not complete:
            continue
        fill = _fill(key, off, cmask, binom, 0)
        key2 = key & keep
        jh = _slot(key2, shift)
        while hk[jh] != key2 and hk[jh] != -1:
            jh = (jh + 1) & hmask
        if hk[jh] == key2:
            r = hi[jh]
        else:  # at most n keys: the room suffices
            hk[jh] = key2
            hi[jh] = used
            okeys[used] = key2
            r = used
            used += 1
        for x in range(act):
            ovals[r, x] += vals[i, x] * fill
    work[0] = spent
    env = np.empty(used, np.int64)
    tags = np.empty(used, np.int64)
    for i in range(used):
        env[i] = okeys[i] & env_all
        tags[i] = (okeys[i] >> toff) & 63
    return env, tags, ovals[:used].copy()


@njit(cache=True)
def _entropy(counts):
    total = 0
    for x in range(counts.shape[0]):
        total += counts[x]
    if total == 0:
        return np.nan
    acc = 0.0
    for x in range(counts.shape[0]):
        if counts[x] > 0:
            v = np.float64(counts[x])
            acc += v * np.log2(v)
    return max(0.0, np.log2(np.float64(total)) - acc / total)


@njit(cache=True)
def _gains(
    ids,
    tags,
    vecs,
    s_start,
    s_pos,
    w_start,
    w_pos,
    r_start,
    r_pos,
    excluded,
    nw,
    nr,
    n_ranks,
    v_bit,
    row_of,
    fixed,
    t_rank,
    t_bit,
    before,
):
    n_vec = row_of.shape[0]
    n_cells = excluded.shape[0]
    z = np.zeros((8 * n_ranks, n_cells), np.int64)
    sums = np.zeros(8 * n_ranks, np.int64)
    shown = np.zeros(n_cells, np.int64)
    out = np.empty(n_vec, np.float64)
    weights = np.empty(3 * n_ranks + 1, np.float64)
    hs = np.empty(3 * n_ranks + 1, np.float64)
    for j in range(n_vec):
        z[:, :] = 0
        for row in range(ids.shape[0]):
            a, b, c = ids[row, 0], ids[row, 1], ids[row, 2]
            for rank in range(n_ranks):
                if row_of[j] >= 0:
                    v = vecs[row, 1 + row_of[j] * n_ranks + rank]
                else:
                    v = vecs[row, 0] if rank == fixed[j] else 0
                if v == 0:
                    continue
                answer = _combine(_combine(tags[row], rank, v_bit), t_rank, t_bit)
                for p in range(s_start[a], s_start[a + 1]):
                    for q in range(w_start[b], w_start[b + 1]):
                        for t in range(r_start[c], r_start[c + 1]):
                            cell = (s_pos[p] * nw + w_pos[q]) * nr + r_pos[t]
                            if not excluded[cell]:
                                z[answer, cell] += v
        for answer in range(8 * n_ranks):
            total = 0
            for x in range(n_cells):
                total += z[answer, x]
            sums[answer] = total
        n_out = 0
        for rank in range(1, n_ranks):
            for bit in (1, 2, 4):
                weight = 0.0
                shown[:] = 0
                for held in range(1, 8):
                    answer = rank * 8 + held
                    if held & bit and sums[answer]:
                        size = (held & 1) + (held >> 1 & 1) + (held >> 2 & 1)
                        weight += sums[answer] / size
                        for x in range(n_cells):
                            shown[x] += z[answer, x]
                if weight > 0:
                    weights[n_out] = weight
                    hs[n_out] = _entropy(shown)
                    n_out += 1
        if sums[0]:
            weights[n_out] = sums[0]
            hs[n_out] = _entropy(z[0])
            n_out += 1
        total_w = 0.0
        for q in range(n_out):
            total_w += weights[q]
        if total_w == 0:
            out[j] = before
            continue
        acc = 0.0
        for q in range(n_out):
            acc += weights[q] / total_w * hs[q]
        out[j] = before - acc
    return out
