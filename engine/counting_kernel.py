"""The counting dynamic program of engine.counting, compiled with numba on 64-bit integers.

It follows the same plan as :func:`engine.counting.run_python` (read that first: it is the
reference); a state is packed into one int64 key,

    key = caps + CR * (envelope + ER * met)

with the room left per open hand and the envelope id per category in mixed radix, and the clause
slots met as bits. States are merged in an open-addressing hash table per step. :func:`fits` says
when every count and every key stays below 2**62, so that nothing can overflow; the caller runs the
Python program otherwise. Without numba the same functions run as plain Python (slowly), so the
module never fails to import.
"""

from __future__ import annotations

import math

import numpy as np

try:
    from numba import njit
except ImportError:  # pragma: no cover - numba is a dependency; this keeps the engine importable
    def njit(*args, **kwargs):
        if args and callable(args[0]):
            return args[0]
        return lambda f: f


LIMIT = 1 << 62
_BINOM = np.array([[math.comb(n, k) for k in range(64)] for n in range(64)], dtype=np.int64)


def _radices(bases: list[int]) -> tuple[np.ndarray, int]:
    radix = np.ones(len(bases), dtype=np.int64)
    r = 1
    for i, b in enumerate(bases):
        radix[i] = r
        r *= b
    return radix, r


def fits(pl) -> bool:
    caps_range = math.prod(c + 1 for c in pl.caps)
    env_range = math.prod(len(m) + 1 for m in pl.members)
    return (
        pl.bound < LIMIT
        and caps_range * env_range * (1 << pl.slots) < LIMIT
        and sum(pl.caps) < 64
        and all(st.size < 64 for st in pl.steps)
    )


def run(pl) -> dict[tuple[int, int, int], int]:
    n_hands = len(pl.caps)
    n_steps = len(pl.steps)
    caps0 = np.array(pl.caps, dtype=np.int64)
    crad, cr = _radices([c + 1 for c in pl.caps])
    erad, er = _radices([len(m) + 1 for m in pl.members])
    width = max(n_hands, 1)
    kind = np.empty(n_steps, np.int64)
    size = np.empty(n_steps, np.int64)
    cat = np.empty(n_steps, np.int64)
    env_id = np.empty(n_steps, np.int64)
    hands = np.empty(n_steps, np.int64)
    closes = np.empty(n_steps, np.int64)
    unopened = np.empty(n_steps, np.int64)
    meets = np.zeros((n_steps, width), np.int64)
    needs = np.zeros((n_steps, width), np.int64)
    for i, st in enumerate(pl.steps):
        kind[i], size[i], cat[i], env_id[i], hands[i] = st.kind, st.size, st.category, st.env_id, st.hands
        closes[i], unopened[i] = st.closes, st.unopened
        if st.meets:
            meets[i, :n_hands] = st.meets
        if st.needs:
            needs[i, :n_hands] = st.needs
    open_cats = np.array(pl.open_categories, dtype=np.int64)
    key0 = int(np.dot(caps0, crad))
    by_env = _run(key0, caps0, crad, cr, erad, er, kind, size, cat, env_id, hands, meets, closes, needs, unopened,
                  open_cats, _BINOM)
    out = {}
    for e in np.flatnonzero(by_env):
        e = int(e)
        ids = tuple((e // int(erad[c])) % (len(pl.members[c]) + 1) for c in range(3))
        out[ids] = int(by_env[e])
    return out


@njit(cache=True)
def _hash(key):
    x = np.uint64(key)
    x ^= x >> np.uint64(31)
    x *= np.uint64(0x9E3779B97F4A7C15)
    x ^= x >> np.uint64(29)
    return np.int64(x >> np.uint64(2))


@njit(cache=True)
def _insert(tk, tv, key, val):
    """Adds val at key; returns 1 when the key is new."""
    mask = tk.shape[0] - 1
    j = _hash(key) & mask
    while True:
        k = tk[j]
        if k == key:
            tv[j] += val
            return 0
        if k == -1:
            tk[j] = key
            tv[j] = val
            return 1
        j = (j + 1) & mask


@njit(cache=True)
def _grow(tk, tv):
    nk = np.full(tk.shape[0] * 2, -1, np.int64)
    nv = np.zeros(tk.shape[0] * 2, np.int64)
    for j in range(tk.shape[0]):
        if tk[j] != -1:
            _insert(nk, nv, tk[j], tv[j])
    return nk, nv


@njit(cache=True)
def _run(key0, caps0, crad, cr, erad, er, kind, size, cat, env_id, hands, meets, closes, needs, unopened,
         open_cats, binom):
    n_hands = caps0.shape[0]
    keys = np.empty(1, np.int64)
    vals = np.empty(1, np.int64)
    keys[0] = key0
    vals[0] = 1
    n = 1
    digits = np.empty(max(n_hands, 1), np.int64)
    hl = np.empty(max(n_hands, 1), np.int64)
    xs = np.empty(max(n_hands, 1) + 1, np.int64)
    left = np.empty(max(n_hands, 1) + 1, np.int64)
    ways = np.empty(max(n_hands, 1) + 1, np.int64)
    suffix = np.empty(max(n_hands, 1) + 1, np.int64)
    for s in range(kind.shape[0]):
        tsize = 64
        while tsize < 2 * n:
            tsize *= 2
        tk = np.full(tsize, -1, np.int64)
        tv = np.zeros(tsize, np.int64)
        used = 0
        c = cat[s]
        eid = env_id[s]
        st_kind = kind[s]
        for i in range(n):
            key = keys[i]
            val = vals[i]
            caps = key % cr
            rest = key // cr
            env = rest % er
            met = rest // er
            env_free = (env // erad[c]) % _base(erad, er, c) == 0
            if st_kind == 2:  # envelope choice of a universal group
                used += _insert(tk, tv, key, val)
                if env_free:
                    used += _insert(tk, tv, caps + cr * (env + eid * erad[c] + er * met), val)
            elif st_kind == 0:  # one clause card
                cl = closes[s]
                if eid != 0 and env_free and (cl & ~met) == 0:
                    used += _insert(tk, tv, caps + cr * (env + eid * erad[c] + er * (met & ~cl)), val)
                hm = hands[s]
                for h in range(n_hands):
                    if not (hm >> h) & 1:
                        continue
                    d = (caps // crad[h]) % (caps0[h] + 1)
                    if d == 0:
                        continue
                    met2 = met | meets[s, h]
                    if cl & ~met2:
                        continue
                    if d == 1 and ((needs[s, h] & ~met2) != 0 or (unopened[s] >> h) & 1):
                        continue
                    used += _insert(tk, tv, caps - crad[h] + cr * (env + er * (met2 & ~cl)), val)
            else:  # a group of interchangeable cards
                nh = 0
                hm = hands[s]
                for h in range(n_hands):
                    if (hm >> h) & 1:
                        hl[nh] = h
                        digits[nh] = (caps // crad[h]) % (caps0[h] + 1)
                        nh += 1
                suffix[nh] = 0
                for j in range(nh - 1, -1, -1):
                    suffix[j] = suffix[j + 1] + digits[j]
                for in_env in range(2):
                    if in_env == 1 and (eid == 0 or not env_free):
                        break
                    env2 = env + eid * erad[c] * in_env
                    total = size[s] - in_env
                    if total > suffix[0]:
                        continue
                    if nh == 0:
                        if total == 0:
                            used += _insert(tk, tv, caps + cr * (env2 + er * met), val)
                        continue
                    # depth-first over x_0, x_1, ... (cards per hand), largest first
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
                            if left[j] == xs[j]:
                                w = ways[j] * binom[left[j], xs[j]]
                                caps2 = caps
                                dead = False
                                for q in range(nh):
                                    if xs[q]:
                                        caps2 -= xs[q] * crad[hl[q]]
                                        if xs[q] == digits[q] and (unopened[s] >> hl[q]) & 1:
                                            dead = True
                                if not dead:
                                    used += _insert(tk, tv, caps2 + cr * (env2 + er * met), val * w)
                                    if 2 * used > tk.shape[0]:
                                        tk, tv = _grow(tk, tv)
                            continue
                        ways[j + 1] = ways[j] * binom[left[j], xs[j]]
                        left[j + 1] = left[j] - xs[j]
                        xs[j + 1] = min(left[j + 1], digits[j + 1]) + 1
                        j += 1
            if 2 * used > tk.shape[0]:
                tk, tv = _grow(tk, tv)
        keys = np.empty(used, np.int64)
        vals = np.empty(used, np.int64)
        m = 0
        for j in range(tk.shape[0]):
            if tk[j] != -1:
                keys[m] = tk[j]
                vals[m] = tv[j]
                m += 1
        n = used
        if n == 0:
            break
    # the universal cards fill what room is left; every open envelope slot must be filled
    by_env = np.zeros(er, np.int64)
    for i in range(n):
        key = keys[i]
        caps = key % cr
        env = (key // cr) % er
        ok = True
        for c in range(3):
            if open_cats[c] and (env // erad[c]) % _base(erad, er, c) == 0:
                ok = False
        if not ok:
            continue
        fill = 1
        room = 0
        for h in range(n_hands):
            room += (caps // crad[h]) % (caps0[h] + 1)
        for h in range(n_hands):
            d = (caps // crad[h]) % (caps0[h] + 1)
            fill *= binom[room, d]
            room -= d
        by_env[env] += vals[i] * fill
    return by_env


@njit(cache=True)
def _base(erad, er, c):
    return (erad[c + 1] // erad[c]) if c < 2 else er // erad[c]
