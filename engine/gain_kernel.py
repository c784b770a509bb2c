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
from clue_stats.engine.counting_kernel import (
    _BINOM,
    _afford,
    _complete,
    _fill,
    _grow,
    _layout,
    _most_successors,
    _operations,
    _probe,
    _slots,
    _start_key,
    _successors,
    _table,
)


def fits(pl, tag_width: int) -> bool:
    """Every count the program returns, and every sum of them the gains form, stays below 2**62
    (the counting kernel's conditions, its sums over envelopes included), and the key has room for
    the answer's bits."""
    return counting_kernel.fits(pl) and not counting_kernel.wide(pl) and _layout(pl)[5] + tag_width < 62


class Workspace:
    """The arrays the program's runs keep between them: the states of two steps (keys and rows of
    ``width`` counts) and the index of the new ones, grown as a run needs. The runs of one moment's
    candidates share one (their rows are as wide), so that only the first of them pays the page
    faults of fresh memory."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.arrays = (
            np.empty(64, np.int64),
            np.empty((64, width), np.int64),
            np.empty(64, np.int64),
            np.empty((64, width), np.int64),
            np.full(128, -1, np.int64),
        )


def run(pl, hand_rank, role_bit, role_vec, width: int, n_ranks: int, spaces: dict[int, Workspace] | None = None):
    """The program's result: (envelope ids per category, answers, rows), as engine.gains.run_python.
    ``spaces``: workspaces by row width, the runs before's (this run's is added when missing)."""
    space = spaces.get(width) if spaces is not None else None
    if space is None:
        space = Workspace(width)
        if spaces is not None:
            spaces[width] = space
    offsets, widths, env_offsets, env_widths, met_offset, tag_offset, _ = _layout(pl)
    # under a budget (engine.budget), the program stops once it has generated more states than
    # the count's allowance (work[1] = 1), or before it would hold more bytes than the memory
    # limit (work[1] = 2); work[0]: the states it generated, work[2]: the most bytes it held
    spending = budget.current()
    left, memory = spending.allowance() if spending is not None else (counting_kernel.LIMIT, counting_kernel.LIMIT)
    work = np.zeros(3, np.int64)
    env, tags, vecs, *arrays = _run(
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
        n_ranks,
        left,
        memory,
        work,
        *space.arrays,
    )
    space.arrays = tuple(arrays)
    if spending is not None:
        if work[1]:
            raise spending.stopped(int(work[0]), left, int(work[2]))
        spending.spend(int(work[0]), int(work[2]))
    ids = np.empty((len(env), 3), dtype=np.int64)
    for c in range(3):
        ids[:, c] = (env >> env_offsets[c]) & ((1 << env_widths[c]) - 1)
    return ids, tags, vecs


def gains(
    result, cells, excluded, row_of, fixed, n_ranks: int, v_bit: int, t_ranks, t_bit: int, r_ranks, before: float
):
    """Each vector card's expected gain for each rank of the tag card in ``t_ranks`` and of the
    room in ``r_ranks``, as engine.gains.gains_python: per tag rank, per room rank, per vector
    card. ``cells``: the plan's :func:`cells`."""
    ids, tags, vecs = result
    flat = excluded.reshape(-1)
    rows, known = np.array(row_of, np.int64), np.array(fixed, np.int64)
    nw, nr = excluded.shape[1], excluded.shape[2]
    s_start, s_pos, w_start, w_pos, r_start, r_pos = cells
    return [
        [
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
                r_rank,
                before,
            ).tolist()
            for r_rank in r_ranks
        ]
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


@njit(cache=True)
def _stopped(work, spent, reason, width, keys, vals, nkeys, nvals, ibuf):
    """The program's result when the budget stops it (work[1]: 1 the states, 2 the memory)."""
    work[0] = spent
    work[1] = reason
    empty = np.empty(0, np.int64)
    return empty, empty, np.zeros((0, width), np.int64), keys, vals, nkeys, nvals, ibuf


@njit(cache=True)
def _shift(size):
    """The shift of an index of ``size`` slots (a power of two, 64 or more), as _table gives it."""
    shift = 58
    while (64 << (58 - shift)) < size:
        shift -= 1
    return shift


@njit(cache=True)
def _rows(keys, vals, used, n):
    """The states' keys and rows with room for at least n (the first ``used`` kept)."""
    size = max(2 * keys.shape[0], n)
    nk = np.empty(size, np.int64)
    nk[:used] = keys[:used]
    nv = np.empty((size, vals.shape[1]), np.int64)
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
    n_ranks,
    limit,
    memory,
    work,
    keys,
    vals,
    nkeys,
    nvals,
    ibuf,
):
    """(Envelope keys, answers, rows) of the complete deals: a row holds the deals, then per vector
    card placed (in step order) its deals by rank; then the workspace's arrays, for the next run.

    The states of the step before and those being made live in two pairs of arrays (keys, vals
    and nkeys, nvals) kept from step to step and from run to run (grown when full, twice the room),
    and the index of the new states is the front of ``ibuf``: a fresh allocation a step would cost
    the system's page faults on every row, as much as the counting itself on a big deck."""
    width = vals.shape[1]
    n_hands = off.shape[0]
    tmask = np.int64(63) << toff
    env_all = 0
    for c in range(3):
        env_all |= emask[c] << eoff[c]
    keep = env_all | tmask
    ops = _operations(table)
    n_ops = ops.shape[0]
    keys[0] = _start_key(caps0, off)
    vals[0, 0] = 1
    n = 1
    act = 1  # the columns in use: the deals and the rows of the vector cards placed so far
    growth = 2.0  # states after an operation per state before, as last seen
    spent = 0  # states generated
    hw = max(n_hands, 1) + 1
    digits = np.empty(hw, np.int64)
    hl = np.empty(hw, np.int64)
    xs = np.empty(hw, np.int64)
    left = np.empty(hw, np.int64)
    ways = np.empty(hw, np.int64)
    suffix = np.empty(hw, np.int64)
    # the successors of the states expanded at once (state by state, at least one state's)
    most = max(hw + 1, _most_successors(table, caps0), 1024)
    sk = np.empty(most, np.int64)  # their keys
    sw = np.empty(most, np.int64)  # their ways
    sl = np.empty(most, np.int64)  # the envelope id each put in the envelope (unused here)
    sd = np.empty(most, np.int64)  # the hand a card step's card went to; -1: the envelope
    ends = np.empty(most, np.int64)  # where each state's successors end
    unfolded = np.empty(0, np.int64)  # no state folds here
    merged = False  # the fill was done with the step before it
    for o in range(n_ops):
        s = ops[o]
        if merged:
            merged = False
            continue
        # a step right before the fill does the fill too: its states go straight to the fill's
        # (fewer) states, without a table of their own
        fill_too = s >= 0 and o + 1 < n_ops and ops[o + 1] == -1
        bit = role_bit[s] if s >= 0 else 0
        vj = role_vec[s] if s >= 0 else -1
        act2 = 1 + (vj + 1) * n_ranks if vj >= 0 else act  # the columns in use after this step
        # the index of the new states, at most half full: the front of the workspace's
        size = _slots(int(n * growth) + 16)
        if 2 * size > ibuf.shape[0]:
            if not _afford(work, memory, 8 * (keys.shape[0] + nkeys.shape[0]) * (1 + width), 16 * size):
                return _stopped(work, spent, 2, width, keys, vals, nkeys, nvals, ibuf)
            ibuf = np.empty(2 * size, np.int64)
        index = ibuf[: 2 * size]
        index[:] = -1
        shift = _shift(size)
        used = 0
        lo = 0
        hi = 0
        for i in range(n):
            if i == hi:  # the next states' successors (there is room for every state's)
                lo = i
                hi = _successors(
                    table,
                    s,
                    keys,
                    unfolded,
                    i,
                    n,
                    eoff,
                    emask,
                    0,
                    -1,
                    off,
                    cmask,
                    moff,
                    keep,
                    binom,
                    0,
                    digits,
                    hl,
                    xs,
                    left,
                    ways,
                    suffix,
                    sk,
                    sw,
                    sl,
                    sd,
                    ends,
                )
            q0 = ends[i - lo - 1] if i > lo else 0
            m = ends[i - lo] - q0
            spent += m
            if spent > limit:  # past the budget's allowance: nothing is returned
                return _stopped(work, spent, 1, width, keys, vals, nkeys, nvals, ibuf)
            if used + m > nkeys.shape[0]:  # more states than there is room for: twice the room
                held = 8 * (keys.shape[0] + nkeys.shape[0]) * (1 + width) + 8 * ibuf.shape[0]
                if not _afford(work, memory, held, 16 * nkeys.shape[0] * (1 + width)):
                    return _stopped(work, spent, 2, width, keys, vals, nkeys, nvals, ibuf)
                nkeys, nvals = _rows(nkeys, nvals, used, used + m)
            while 4 * (used + m) > index.shape[0]:
                held = 8 * (keys.shape[0] + nkeys.shape[0]) * (1 + width) + 8 * ibuf.shape[0]
                if not _afford(work, memory, held, 16 * index.shape[0]):
                    return _stopped(work, spent, 2, width, keys, vals, nkeys, nvals, ibuf)
                index, shift = _grow(index, shift)
                if index.shape[0] > ibuf.shape[0]:
                    ibuf = index
            for q in range(q0, q0 + m):
                key2 = sk[q]
                w = sw[q]
                rank = hand_rank[sd[q]] if sd[q] >= 0 else 0
                if bit:
                    key2 = (key2 & ~tmask) | (_combine((key2 >> toff) & 63, rank, bit) << toff)
                if fill_too:
                    w *= _fill(key2, off, cmask, binom, 0)
                    key2 &= keep
                j = _probe(index, shift, key2)
                if index[2 * j] == -1:
                    index[2 * j] = key2
                    index[2 * j + 1] = used
                    nkeys[used] = key2
                    nvals[used, :act2] = 0
                    r = used
                    used += 1
                else:
                    r = index[2 * j + 1]
                for x in range(act):
                    nvals[r, x] += vals[i, x] * w
                if vj >= 0:  # the card's row: every deal of the state, at the rank it got
                    nvals[r, 1 + vj * n_ranks + rank] += vals[i, 0] * w
        growth = max(1.0, used / n)
        keys, nkeys = nkeys, keys
        vals, nvals = nvals, vals
        n = used
        act = act2
        merged = fill_too
        if n == 0:
            break
    # the end: complete envelopes, times the ways the universal cards fill the room left
    held = 8 * (keys.shape[0] + nkeys.shape[0]) * (1 + width) + 8 * ibuf.shape[0]
    if not _afford(work, memory, held, 8 * (n + 16) * (1 + width) + 16 * _slots(n + 16)):
        return _stopped(work, spent, 2, width, keys, vals, nkeys, nvals, ibuf)
    okeys = np.empty(n + 16, np.int64)
    ovals = np.zeros((n + 16, width), np.int64)
    used = 0
    out, shift = _table(n + 16)  # at most n keys: the room suffices
    for i in range(n):
        key = keys[i]
        if not _complete(key, open_cats, eoff, emask):
            continue
        fill = _fill(key, off, cmask, binom, 0)
        key2 = key & keep
        j = _probe(out, shift, key2)
        if out[2 * j] == -1:
            out[2 * j] = key2
            out[2 * j + 1] = used
            okeys[used] = key2
            used += 1
        r = out[2 * j + 1]
        for x in range(act):
            ovals[r, x] += vals[i, x] * fill
    work[0] = spent
    env = np.empty(used, np.int64)
    tags = np.empty(used, np.int64)
    for i in range(used):
        env[i] = okeys[i] & env_all
        tags[i] = (okeys[i] >> toff) & 63
    return env, tags, ovals[:used].copy(), keys, vals, nkeys, nvals, ibuf


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
    r_rank,
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
                answer = _combine(_combine(_combine(tags[row], rank, v_bit), t_rank, t_bit), r_rank, 4)
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
