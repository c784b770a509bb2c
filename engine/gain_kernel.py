"""The program of engine.gains, compiled ahead of time on 64-bit integers.

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

The program is machine code built with the package (engine/_kernels.pyx: ``gain_rows`` and
``gains_of``); this module prepares its inputs and reads its results.
"""

from __future__ import annotations

import threading

import numpy as np

from clue_stats.engine import budget, counting_kernel
from clue_stats.engine._kernels import gain_rows as _run
from clue_stats.engine._kernels import gains_of as _gains
from clue_stats.engine.counting_kernel import _BINOM, _layout


def fits(pl, tag_width: int) -> bool:
    """Every count the program returns, and every sum of them the gains form, stays below 2**62
    (the counting kernel's conditions, its sums over envelopes included), and the key has room for
    the answer's bits."""
    return counting_kernel.fits(pl) and not counting_kernel.wide(pl) and _layout(pl)[5] + tag_width < 62


# A thread's workspace is kept for its next runs unless it has grown past this (bytes)
KEEP_BYTES = 128 << 20
_LOCAL = threading.local()


def _owner(a: np.ndarray) -> np.ndarray:
    """The array owning a's memory."""
    return a if a.base is None else a.base


def _largest(arrays: list[np.ndarray], n: int) -> list[np.ndarray]:
    """The n largest of the arrays (each once)."""
    return sorted({id(a): a for a in arrays}.values(), key=lambda a: a.size, reverse=True)[:n]


class Workspace:
    """The arrays the program's runs keep between them: the states of two steps (keys, and rows of
    counts as wide as the run needs) and the index of the new ones, grown as a run needs. A
    thread keeps one for all its runs, of every width (the rows are views of flat arrays), so that
    only the first runs pay for growing them and for the page faults of fresh memory; one that has
    grown past :data:`KEEP_BYTES`, or past the memory the budget in force gives a count, is let go
    after its run."""

    def __init__(self) -> None:
        self.keys = [np.empty(64, np.int64), np.empty(64, np.int64)]
        self.rows = [np.empty(64 * 64, np.int64), np.empty(64 * 64, np.int64)]
        self.index = np.full(128, -1, np.int64)

    def arrays(self, width: int) -> tuple[np.ndarray, ...]:
        """(keys, rows, next keys, next rows, index) for rows of ``width`` counts."""
        out: list[np.ndarray] = []
        for keys, owner in zip(self.keys, self.rows):
            rows = owner.reshape(-1)
            n = min(keys.size, rows.size // width)
            out += [keys[:n], rows[: n * width].reshape(n, width)]
        return (*out, self.index)

    def keep(self, arrays: tuple[np.ndarray, ...]) -> None:
        """Take back the arrays a run returned (the same or grown ones, the two steps' in either
        order), keeping the largest of them and of those held (their contents are not needed
        again, only their room: a run of narrower rows must not shrink the room of wider ones)."""
        keys, rows, nkeys, nrows, index = arrays
        self.keys = _largest([*self.keys, _owner(keys), _owner(nkeys)], 2)
        self.rows = _largest([*self.rows, _owner(rows), _owner(nrows)], 2)
        self.index = _largest([self.index, _owner(index)], 1)[0]

    def nbytes(self) -> int:
        return sum(a.nbytes for a in (*self.keys, *self.rows, self.index))


def workspace() -> Workspace:
    """The calling thread's workspace."""
    space = getattr(_LOCAL, "space", None)
    if space is None:
        space = _LOCAL.space = Workspace()
    return space


def run(pl, hand_rank, role_bit, role_vec, width: int, n_ranks: int):
    """The program's result: (envelope ids per category, answers, rows), as engine.gains.run_python."""
    space = workspace()
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
        *space.arrays(1 + (width - 1) // n_ranks * (n_ranks - 1)),  # the states' rows leave out rank 0
    )
    space.keep(tuple(arrays))
    if space.nbytes() > min(KEEP_BYTES, memory):  # never kept past what one count may hold
        _LOCAL.space = None
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
    flat = excluded.reshape(-1).view(np.uint8)
    rows, known = np.array(row_of, np.int64), np.array(fixed, np.int64)
    nw, nr = excluded.shape[1], excluded.shape[2]
    s_start, s_pos, w_start, w_pos, r_start, r_pos = cells
    out: list[list[list[float]]] = _gains(
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
        np.array(t_ranks, np.int64),
        t_bit,
        np.array(r_ranks, np.int64),
        before,
    ).tolist()
    return out


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
