"""Types of the compiled core of the counting programs (engine/_kernels.pyx, built with the package)."""

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

Int64s = npt.NDArray[np.int64]

BINOM: Int64s

def expand(
    table: Int64s, layout: Int64s, n_hands: int, s: int, keys: Int64s, lo: int, room: int
) -> tuple[int, Int64s, Int64s, Int64s, Int64s, Int64s]: ...
def classes(steps: Int64s, n_hands: int, cmask: Int64s, tag_hand: int) -> Int64s: ...
def count(
    table: Int64s, layout: Int64s, n_hands: int, binom: Int64s, limit: int, memory: int, p: int, work: Int64s
) -> tuple[Int64s, Int64s]: ...
def weighted_entropy(
    envs: Int64s,
    n: Int64s,
    sizes: Int64s,
    width: int,
    off0: int,
    off1: int,
    off2: int,
    mask0: int,
    mask1: int,
    mask2: int,
) -> float: ...
def plan_fields(
    allowed: tuple[int, ...],
    sizes: tuple[int, ...],
    cat_of: list[int],
    clauses: frozenset[tuple[int, int]],
    tag_place: int,
    tag_cards: tuple[int, ...],
    alone: tuple[int, ...],
) -> tuple[Any, ...]: ...
def gain_rows(
    table: Int64s,
    role_bit: Int64s,
    role_vec: Int64s,
    hand_rank: Int64s,
    off: Int64s,
    cmask: Int64s,
    eoff: Int64s,
    emask: Int64s,
    moff: int,
    caps0: Int64s,
    open_cats: Int64s,
    toff: int,
    binom: Int64s,
    n_ranks: int,
    limit: int,
    memory: int,
    work: Int64s,
    keys: Int64s,
    vals: Int64s,
    nkeys: Int64s,
    nvals: Int64s,
    ibuf: Int64s,
) -> tuple[Int64s, Int64s, Int64s, Int64s, Int64s, Int64s, Int64s, Int64s]: ...
def gains_of(
    ids: Int64s,
    tags: Int64s,
    vecs: Int64s,
    s_start: Int64s,
    s_pos: Int64s,
    w_start: Int64s,
    w_pos: Int64s,
    r_start: Int64s,
    r_pos: Int64s,
    excluded: npt.NDArray[np.uint8],
    nw: int,
    nr: int,
    n_ranks: int,
    v_bit: int,
    row_of: Int64s,
    fixed: Int64s,
    t_ranks: Int64s,
    t_bit: int,
    r_ranks: Int64s,
    before: float,
) -> npt.NDArray[np.float64]: ...
def close(
    ns: int,
    nw: int,
    sizes: Sequence[int],
    allowed: list[int],
    clauses: Iterable[tuple[int, int]],
    excluded: Iterable[tuple[int, int, int]],
) -> tuple[list[int], set[tuple[int, int]], set[tuple[int, int, int]]] | None: ...
