# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled core of the two counting programs (engine.counting_kernel and engine.gain_kernel),
machine code built with the package (Cython; setup.py declares it, the C compiler of the machine
that builds the wheel or the editable install compiles it): nothing compiles at run time.

Read engine.counting_kernel first: its module docstring says how a state is packed and how the
counting program folds its states; engine.counting.run_python and engine.gains.run_python are the
references both programs follow. This file holds what runs per state: the expansion of states
(:c:func:`successors`, shared by both programs), the open-addressing tables of states, the
counting program's three passes (:func:`count`), the gain program's forward pass
(:func:`gain_rows`) and its gains (:func:`gains_of`), the plan both programs run
(:func:`plan_fields`, with the clause cards' order), the weighted entropy of a count, and the
knowledge's closure (:func:`close`, engine.knowledge's rules).

Counts are int64 and wrap modulo 2**64, as numba's did (setup.py compiles with -fwrapv, so the
wrap is defined): every sum and product is right modulo 2**64, and engine.counting_kernel.fits
says when the true counts are below 2**62.
"""

import numpy as np

cimport cython
cimport numpy as cnp
from libc.math cimport NAN, log2
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset

cnp.import_array()

# -- the plan's state, as the expansion of states reads it -------------------------------------------


cdef struct Core:
    # One plan's steps and state packing, the scratch of the expansion and the arrays its successors
    # go to: the state both programs hand to successors() (one structure instead of 27 arguments).
    const int64_t* table  # the plan's steps, row after row (engine.counting's columns)
    Py_ssize_t cols
    Py_ssize_t n_hands
    const int64_t* off  # per open hand: the offset of its room left ...
    const int64_t* cmask  # ... and its mask
    const int64_t* eoff  # per category: the offset of its envelope id ...
    const int64_t* emask  # ... and its mask
    int64_t moff  # the offset of the clause slots met
    int64_t keep  # what the fill of the universal cards keeps
    int64_t tag_offset
    int64_t tag_hand  # the hand whose cards add the step's tag bits (-1: none)
    const int64_t* binom  # binomials (modulo p), bcols to a row
    Py_ssize_t bcols
    int64_t p  # the modulus (0: 2**64)
    # scratch, n_hands + 1 each
    int64_t* digits
    int64_t* hl
    int64_t* xs
    int64_t* left
    int64_t* ways
    int64_t* suffix
    # the successors of the states expanded at once: keys, ways, the envelope id each put in the
    # envelope (0: none), the hand each gave the step's card (-1: the envelope, a group or the fill)
    int64_t* sk
    int64_t* sw
    int64_t* sl
    int64_t* sh
    Py_ssize_t room  # entries of sk, sw, sl, sh
    int64_t* ends  # where each state's successors end
    Py_ssize_t n_ends
    # the fill's ways by the room left in the hands, as last computed (FILL_SLOTS pairs: the room
    # left's bits of a key, -1 for none, and its ways): many states share their room left
    int64_t room_bits  # the bits of a key holding the room left in the hands
    int64_t* fills


cdef inline int64_t _mul(int64_t a, int64_t b, int64_t p) noexcept nogil:
    """a * b modulo p when p is set (a, b < p < 2**31), else modulo 2**64 (wraps)."""
    if p:
        return (a * b) % p
    return a * b


cdef inline int64_t _add(int64_t a, int64_t b, int64_t p) noexcept nogil:
    if p:
        return (a + b) % p
    return a + b


cdef enum:
    FILL_SLOTS = 512
    FILL_SHIFT = 55  # 64 - log2(FILL_SLOTS)


cdef inline int64_t fill_ways(Core* c, int64_t key) noexcept nogil:
    """The ways the universal cards fill the room left in the hands: (room left)! / prod(room left
    in hand h)!, a product of binomials (modulo p when p is set)."""
    cdef int64_t room = 0, ways = 1, d, bits = key & c.room_bits
    cdef Py_ssize_t h, j = 2 * <Py_ssize_t>((<uint64_t>bits * <uint64_t>0x9E3779B97F4A7C15ULL) >> FILL_SHIFT)
    if c.fills[j] == bits:
        return c.fills[j + 1]
    for h in range(c.n_hands):
        room += (key >> c.off[h]) & c.cmask[h]
    for h in range(c.n_hands):
        d = (key >> c.off[h]) & c.cmask[h]
        ways = _mul(ways, c.binom[room * c.bcols + d], c.p)
        room -= d
    c.fills[j] = bits
    c.fills[j + 1] = ways
    return ways


cdef inline bint complete(int64_t key, const int64_t* open_cats, const int64_t* eoff, const int64_t* emask) noexcept nogil:
    """Every open envelope slot of the state is filled."""
    cdef int cat
    for cat in range(3):
        if open_cats[cat] and (key >> eoff[cat]) & emask[cat] == 0:
            return False
    return True


cdef Py_ssize_t successors(Core* c, int64_t s, const int64_t* keys, const int64_t* fidx, Py_ssize_t n_fidx,
                           Py_ssize_t lo, Py_ssize_t n) noexcept nogil:
    """The successors of the states keys[lo], keys[lo + 1], ... after operation ``s`` (a row of the
    plan's table, -1 the fill), as many as c's arrays have room for (c.sk, c.sw, c.sl, c.sh).
    State ``lo + k``'s successors end at c.ends[k] (and begin where state ``lo + k - 1``'s end).
    Returns the state after the last one expanded, or -1 when state ``lo`` alone has more
    successors than there is room for.

    ``fidx``: per state, its number among the folded states or -1 (n_fidx 0: no state is folded);
    a folded state puts a mark in the envelope, not the card's id. One call expands many states:
    called per state the counting program took 1.6x the time (docs/performance.md)."""
    cdef Py_ssize_t n_hands = c.n_hands
    cdef const int64_t* row = c.table + s * c.cols if s >= 0 else c.table
    cdef int64_t kind = row[0] if s >= 0 else -1
    cdef int64_t cat = row[2] if s >= 0 else 0
    cdef int64_t eid = row[3] if s >= 0 else 0
    cdef int64_t hm = row[4] if s >= 0 else 0
    cdef int64_t cl = (row[5] << c.moff) if s >= 0 else 0
    cdef int64_t unopened = row[6] if s >= 0 else 0
    cdef int64_t tag = (row[7] << c.tag_offset) if s >= 0 and c.tag_hand >= 0 else 0
    cdef int64_t env_mask = c.emask[cat] << c.eoff[cat]
    cdef Py_ssize_t room = c.room, m = 0, i = lo, h, j, nh, q
    cdef int64_t key, key2, env_add, d, base, total
    cdef bint env_free, over = False, dead
    cdef int in_env
    cdef int64_t* digits = c.digits
    cdef int64_t* hl = c.hl
    cdef int64_t* xs = c.xs
    cdef int64_t* left = c.left
    cdef int64_t* ways = c.ways
    cdef int64_t* suffix = c.suffix
    cdef int64_t* sk = c.sk
    cdef int64_t* sw = c.sw
    cdef int64_t* sl = c.sl
    cdef int64_t* sh = c.sh
    while i < n and i - lo < c.n_ends and room - m >= n_hands + 2:
        key = keys[i]
        env_free = (key & env_mask) == 0
        # the id put in the envelope: a folded state records it and keeps a mark
        if n_fidx and fidx[i] >= 0:
            env_add = (<int64_t>1) << c.eoff[cat]
        else:
            env_add = eid << c.eoff[cat]
        over = False
        if kind == -1:  # the universal cards fill the room left
            sk[m] = key & c.keep
            sw[m] = fill_ways(c, key)
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
                d = (key >> c.off[h]) & c.cmask[h]
                if d == 0:
                    continue
                key2 = (key - ((<int64_t>1) << c.off[h])) | (row[8 + h] << c.moff)
                if h == c.tag_hand:
                    key2 |= tag
                if cl & ~key2:
                    continue  # a clause closes unmet
                if d == 1 and ((row[8 + n_hands + h] << c.moff) & ~key2 or (unopened >> h) & 1):
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
                    digits[nh] = (key >> c.off[h]) & c.cmask[h]
                    nh += 1
            suffix[nh] = 0
            for j in range(nh - 1, -1, -1):
                suffix[j] = suffix[j + 1] + digits[j]
            for in_env in range(2):
                if over or (in_env == 1 and (eid == 0 or not env_free)):
                    break
                base = key | (env_add if in_env else 0)
                total = row[1] - in_env
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
                                    key2 -= xs[q] << c.off[hl[q]]
                                    if xs[q] == digits[q] and (unopened >> hl[q]) & 1:
                                        dead = True
                            if not dead:
                                sk[m] = key2
                                sw[m] = _mul(ways[j], c.binom[left[j] * c.bcols + xs[j]], c.p)
                                sl[m] = eid if in_env else 0
                                sh[m] = -1
                                m += 1
                        continue
                    ways[j + 1] = _mul(ways[j], c.binom[left[j] * c.bcols + xs[j]], c.p)
                    left[j + 1] = left[j] - xs[j]
                    xs[j + 1] = min(left[j + 1], digits[j + 1]) + 1
                    j += 1
        if over:  # the state's successors are left to the next call, or are too many
            return -1 if i == lo else i
        c.ends[i - lo] = m
        i += 1
    return i


# -- buffers and tables ---------------------------------------------------------------------------


cdef int64_t* alloc(Py_ssize_t n) except NULL:
    cdef int64_t* a = <int64_t*>malloc(max(n, 1) * sizeof(int64_t))
    if a == NULL:
        raise MemoryError()
    return a


cdef int64_t* grown(int64_t* a, Py_ssize_t used, Py_ssize_t n) except NULL:
    """A new block for n entries holding a's first ``used`` (a freed), the rest zeros: both blocks
    are held while it copies, and the whole of the new one is written, so that the process holds
    what the memory budget reckons (tests/test_budget.py measures it)."""
    cdef int64_t* b = <int64_t*>malloc(max(n, 1) * sizeof(int64_t))
    if b == NULL:
        free(a)
        raise MemoryError()
    memcpy(b, a, used * sizeof(int64_t))
    memset(b + used, 0, (max(n, 1) - used) * sizeof(int64_t))
    free(a)
    return b


cdef struct Table:
    # an open-addressing table of keys (key at 2j, value at 2j + 1; key -1: empty)
    int64_t* t
    Py_ssize_t size  # entries of t: twice the slots
    int shift


cdef inline Py_ssize_t slot(int64_t key, int shift) noexcept nogil:
    return <Py_ssize_t>((<uint64_t>key * <uint64_t>0x9E3779B97F4A7C15ULL) >> shift)


cdef inline Py_ssize_t probe(const int64_t* t, Py_ssize_t size, int shift, int64_t key) noexcept nogil:
    """The slot of ``key``: where it is, or the empty slot (key -1) where it goes."""
    cdef Py_ssize_t mask = (size >> 1) - 1
    cdef Py_ssize_t j = slot(key, shift)
    while t[2 * j] != key and t[2 * j] != -1:
        j = (j + 1) & mask
    return j


cdef inline int insert(Table* tb, int64_t key, int64_t val, int64_t p) noexcept nogil:
    """Adds val at key (modulo p when p is set); 1 when the key is new."""
    cdef Py_ssize_t j = probe(tb.t, tb.size, tb.shift, key)
    if tb.t[2 * j] == key:
        tb.t[2 * j + 1] = _add(tb.t[2 * j + 1], val, p)
        return 0
    tb.t[2 * j] = key
    tb.t[2 * j + 1] = val
    return 1


cdef Py_ssize_t n_slots(int64_t n) noexcept nogil:
    """The slots of a table for n keys (at most half full), a power of two."""
    cdef Py_ssize_t size = 64
    while size < 2 * n:
        size *= 2
    return size


cdef int table_for(Table* tb, int64_t n) except -1:
    """A new empty table for n keys (the old one freed)."""
    cdef Py_ssize_t size = 64
    cdef int shift = 58
    while size < 2 * n:
        size *= 2
        shift -= 1
    cdef int64_t* t = alloc(2 * size)  # made before the old one is freed, as the budget reckons
    memset(t, 0xFF, 2 * size * sizeof(int64_t))
    free(tb.t)
    tb.t = t
    tb.size = 2 * size
    tb.shift = shift
    return 0


cdef int grow_table(Table* tb) except -1:
    """The table with twice the slots, its keys kept."""
    cdef Table nt
    nt.t = alloc(2 * tb.size)
    memset(nt.t, 0xFF, 2 * tb.size * sizeof(int64_t))
    nt.size = 2 * tb.size
    nt.shift = tb.shift - 1
    cdef Py_ssize_t j
    for j in range(0, tb.size, 2):
        if tb.t[j] != -1:
            insert(&nt, tb.t[j], tb.t[j + 1], 0)
    free(tb.t)
    tb.t = nt.t
    tb.size = nt.size
    tb.shift = nt.shift
    return 0


cdef inline Py_ssize_t find(const Table* tb, int64_t key) noexcept nogil:
    """The slot of a key that is in the table."""
    cdef Py_ssize_t mask = (tb.size >> 1) - 1
    cdef Py_ssize_t j = slot(key, tb.shift)
    while tb.t[2 * j] != key:
        j = (j + 1) & mask
    return j


cdef inline bint afford(int64_t* work, int64_t memory, int64_t held, int64_t extra) noexcept nogil:
    """Whether the count may hold ``extra`` bytes more than ``held`` within ``memory``; work[2]
    keeps the most it held (or asked for, when it stops)."""
    cdef int64_t need = held + extra
    if need > work[2]:
        work[2] = need
    return need <= memory


cdef Py_ssize_t operations(const int64_t* table, Py_ssize_t n_steps, Py_ssize_t cols, int64_t* ops) noexcept nogil:
    """The operations of a plan into ops (room for n_steps + 1): its steps (row numbers), with the
    universal cards' fill (-1) before the first envelope choice. Returns how many."""
    cdef Py_ssize_t n_ops = 0, s
    cdef bint filling = True
    for s in range(n_steps):
        if table[s * cols] == 2 and filling:
            ops[n_ops] = -1
            n_ops += 1
            filling = False
        ops[n_ops] = s
        n_ops += 1
    return n_ops


cdef int64_t start_key(const int64_t* caps0, const int64_t* off, Py_ssize_t n_hands) noexcept nogil:
    """The state before any step: every open hand's room left, nothing else."""
    cdef int64_t key0 = 0
    cdef Py_ssize_t h
    for h in range(n_hands):
        key0 |= caps0[h] << off[h]
    return key0


cdef int64_t most_successors(const int64_t* table, Py_ssize_t n_steps, Py_ssize_t cols, const int64_t* caps0,
                             Py_ssize_t n_hands) noexcept nogil:
    """The most successors a state can have at a group step (a bound: the ways to split the group
    among its hands, in the envelope or not)."""
    cdef int64_t most = 0, n_ways
    cdef Py_ssize_t s, h
    for s in range(n_steps):
        if table[s * cols] == 1:
            n_ways = 2
            for h in range(n_hands):
                if (table[s * cols + 4] >> h) & 1:
                    n_ways *= min(caps0[h], table[s * cols + 1]) + 1
            most = max(most, n_ways)
    return most


cdef class Expansion:
    """The Core of one run and the buffers it points into (kept alive and freed with it)."""

    cdef Core core
    cdef int64_t* scratch
    cdef int64_t* out
    cdef object arrays  # the Python arrays the core points into

    def __cinit__(self):
        self.scratch = NULL
        self.out = NULL

    def __dealloc__(self):
        free(self.scratch)
        free(self.out)

    cdef int setup(self, const int64_t[:, ::1] table, const int64_t[::1] off, const int64_t[::1] cmask,
                   const int64_t[::1] eoff, const int64_t[::1] emask, int64_t moff, int64_t keep,
                   int64_t tag_offset, int64_t tag_hand, const int64_t[:, ::1] binom, int64_t p,
                   Py_ssize_t most) except -1:
        cdef Py_ssize_t n_hands = off.shape[0], width = max(n_hands, 1) + 1
        self.arrays = (table, off, cmask, eoff, emask, binom)
        self.core.table = &table[0, 0] if table.shape[0] else NULL
        self.core.cols = table.shape[1]
        self.core.n_hands = n_hands
        self.core.off = &off[0] if n_hands else NULL
        self.core.cmask = &cmask[0] if n_hands else NULL
        self.core.eoff = &eoff[0]
        self.core.emask = &emask[0]
        self.core.moff = moff
        self.core.keep = keep
        self.core.tag_offset = tag_offset
        self.core.tag_hand = tag_hand
        self.core.binom = &binom[0, 0]
        self.core.bcols = binom.shape[1]
        self.core.p = p
        self.scratch = alloc(6 * width + 2 * FILL_SLOTS)
        self.core.fills = self.scratch + 6 * width
        memset(self.core.fills, 0xFF, 2 * FILL_SLOTS * sizeof(int64_t))
        self.core.room_bits = 0
        cdef Py_ssize_t h
        for h in range(n_hands):
            self.core.room_bits |= cmask[h] << off[h]
        self.core.digits = self.scratch
        self.core.hl = self.scratch + width
        self.core.xs = self.scratch + 2 * width
        self.core.left = self.scratch + 3 * width
        self.core.ways = self.scratch + 4 * width
        self.core.suffix = self.scratch + 5 * width
        self.out = alloc(5 * most)
        self.core.sk = self.out
        self.core.sw = self.out + most
        self.core.sl = self.out + 2 * most
        self.core.sh = self.out + 3 * most
        self.core.ends = self.out + 4 * most
        self.core.room = most
        self.core.n_ends = most
        return 0



cdef int64_t layout_keep(const int64_t* L, Py_ssize_t n_hands) noexcept nogil:
    """The envelope ids' and the tag's bits of the counting program's packing (what the fill keeps,
    less the folded flag)."""
    cdef int64_t keep = L[3 * n_hands + 11]
    cdef int cat
    for cat in range(3):
        keep |= L[2 * n_hands + 3 + cat] << L[2 * n_hands + cat]
    return keep


def expand(const int64_t[:, ::1] table, const int64_t[::1] layout, Py_ssize_t n_hands, int64_t s,
           const int64_t[::1] keys, Py_ssize_t lo, Py_ssize_t room):
    """The successors of the states keys[lo], keys[lo + 1], ... after operation ``s``, as both
    programs expand them, with arrays of ``room`` entries (the counting program's packing
    ``layout``, engine.counting_kernel's; no state folded; binomials modulo 2**64). Returns the
    state after the last one expanded (-1: state ``lo`` alone has more successors than the room),
    then the successors' keys, ways, envelope ids and hands, and where each state's end. For the
    tests."""
    cdef const int64_t* L = &layout[0]
    cdef Expansion x = Expansion()
    x.setup(table, layout[0:n_hands], layout[n_hands:2 * n_hands], layout[2 * n_hands:2 * n_hands + 3],
            layout[2 * n_hands + 3:2 * n_hands + 6], L[2 * n_hands + 6], layout_keep(L, n_hands),
            L[3 * n_hands + 12], L[3 * n_hands + 10], BINOM, 0, room)
    cdef int64_t none = -1
    cdef Py_ssize_t hi = successors(&x.core, s, &keys[0], &none, 0, lo, keys.shape[0])
    cdef Py_ssize_t states = hi - lo if hi > lo else 0
    cdef Py_ssize_t m = x.core.ends[states - 1] if states else 0
    sk, sw, sl, sh = (np.array([a[q] for q in range(m)], np.int64)
                      for a in (_view(x.core.sk, m), _view(x.core.sw, m), _view(x.core.sl, m), _view(x.core.sh, m)))
    ends = np.array([x.core.ends[k] for k in range(states)], np.int64)
    return hi, sk, sw, sl, sh, ends


cdef list _view(const int64_t* a, Py_ssize_t m):
    return [a[q] for q in range(m)]


BINOM = np.array([[__import__("math").comb(n, k) for k in range(64)] for n in range(64)], dtype=np.int64)


# -- the counting program -------------------------------------------------------------------------


cdef int64_t* classes_of(const int64_t* steps, Py_ssize_t n_steps, Py_ssize_t cols, Py_ssize_t n_hands,
                         const int64_t* cmask, int64_t tag_hand) except NULL:
    """Per step, per hand (rows of max(n_hands, 1)): a class number (0: none) such that hands of one
    class are treated alike by every later step: the same cards may go to both, neither has a
    clause in progress or to come, neither is the tagged hand, and their room is stored in as many
    bits. States that differ only by a permutation of the room left among the hands of a class have
    the same future, so the program merges them (it sorts the room within each class)."""
    cdef Py_ssize_t cw = max(n_hands, 1), a, b, h, g, s
    cdef int64_t* out = alloc(n_steps * cw)
    memset(out, 0, max(n_steps * cw, 1) * sizeof(int64_t))
    cdef int64_t* alike = alloc(n_hands * n_hands)  # the same width and the same later steps
    cdef int64_t* taken = alloc(n_hands)  # a clause now or later, or the tag
    cdef int64_t* free_ = alloc(n_hands)
    cdef int64_t hands, unopened, number
    cdef const int64_t* row
    for a in range(n_hands):
        taken[a] = 0
        for b in range(n_hands):
            alike[a * n_hands + b] = cmask[a] == cmask[b]
    if tag_hand >= 0:
        taken[tag_hand] = 1
    for s in range(n_steps - 1, -1, -1):
        row = steps + s * cols
        hands, unopened = row[4], row[6]
        for h in range(n_hands):
            free_[h] = not taken[h] and row[8 + n_hands + h] == 0 and not (unopened >> h) & 1
        number = 0
        for h in range(n_hands):
            if not free_[h] or out[s * cw + h]:
                continue
            for g in range(h + 1, n_hands):
                if free_[g] and not out[s * cw + g] and alike[h * n_hands + g]:
                    if not out[s * cw + h]:
                        number += 1
                        out[s * cw + h] = number
                    out[s * cw + g] = number
        for a in range(n_hands):
            for b in range(n_hands):
                if ((hands >> a) & 1) != ((hands >> b) & 1):
                    alike[a * n_hands + b] = 0
        for h in range(n_hands):
            if row[8 + h] or row[8 + n_hands + h] or (unopened >> h) & 1:
                taken[h] = 1
    free(alike)
    free(taken)
    free(free_)
    return out


def classes(const int64_t[:, ::1] steps, Py_ssize_t n_hands, const int64_t[::1] cmask, int64_t tag_hand):
    """:c:func:`classes_of` as an array (n_steps, max(n_hands, 1)), for the tests."""
    cdef Py_ssize_t n_steps = steps.shape[0], cw = max(n_hands, 1), i
    cdef int64_t* out = classes_of(&steps[0, 0] if n_steps else NULL, n_steps, steps.shape[1], n_hands,
                                   &cmask[0] if n_hands else NULL, tag_hand)
    result = np.empty((n_steps, cw), np.int64)
    cdef int64_t[:, ::1] r = result
    for i in range(n_steps * cw):
        r[i // cw, i % cw] = out[i]
    free(out)
    return result


cdef inline int64_t canonical(int64_t key, const int64_t* cls, int64_t n_classes, Py_ssize_t n_hands,
                              const int64_t* off, const int64_t* cmask, int64_t* digits, int64_t* hands) noexcept nogil:
    """The key with the room left sorted (largest first) within each class of interchangeable hands."""
    cdef int64_t c, d, h
    cdef Py_ssize_t m, j, hh
    for c in range(1, n_classes + 1):
        m = 0
        for hh in range(n_hands):
            if cls[hh] == c:
                d = (key >> off[hh]) & cmask[hh]
                # insertion sort, largest first
                j = m
                while j > 0 and digits[j - 1] < d:
                    digits[j] = digits[j - 1]
                    j -= 1
                digits[j] = d
                hands[m] = hh
                m += 1
        for j in range(m):
            h = hands[j]
            key = (key & ~(cmask[h] << off[h])) | (digits[j] << off[h])
    return key


cdef inline int64_t held_bytes(Py_ssize_t n_keys, Py_ssize_t n_moves, Py_ssize_t n_folds, Py_ssize_t more) noexcept nogil:
    """The bytes the counting program holds: the states (keys, counts, folded-state numbers), the
    moves and folds written down, and ``more`` int64s (the table being filled, ...)."""
    return 8 * (3 * n_keys + 4 * n_moves + 3 * n_folds + more)


cdef struct Counting:
    # the buffers of one run of the counting program (freed together)
    int64_t* classes
    int64_t* ops
    int64_t* keys
    int64_t* vals
    int64_t* fidx
    int64_t* e_from
    int64_t* e_to
    int64_t* e_ways
    int64_t* e_id
    int64_t* e_start
    int64_t* f_env
    int64_t* f_val
    int64_t* f_to
    int64_t* f_start
    int64_t* n_folded
    int64_t* sd
    int64_t* sh
    int64_t* after
    int64_t* before
    Table t
    Table out


cdef void release(Counting* b) noexcept nogil:
    free(b.classes)
    free(b.ops)
    free(b.keys)
    free(b.vals)
    free(b.fidx)
    free(b.e_from)
    free(b.e_to)
    free(b.e_ways)
    free(b.e_id)
    free(b.e_start)
    free(b.f_env)
    free(b.f_val)
    free(b.f_to)
    free(b.f_start)
    free(b.n_folded)
    free(b.sd)
    free(b.sh)
    free(b.after)
    free(b.before)
    free(b.t.t)
    free(b.out.t)


cdef tuple _nothing():
    return np.empty(0, np.int64), np.empty(0, np.int64)


def count(const int64_t[:, ::1] table, const int64_t[::1] layout, Py_ssize_t n_hands,
          const int64_t[:, ::1] binom, int64_t limit, int64_t memory, int64_t p, int64_t[::1] work):
    """The plan's deals by envelope ids and tag (keys holding only those fields), and their counts,
    modulo p when p is set (else modulo 2**64). ``limit``: the most states the forward pass may
    generate; past it the program stops with no result and work[1] = 1. ``memory``: the most bytes
    it may hold; before an allocation past it, it stops with work[1] = 2. work[0]: the states
    generated; work[2]: the most bytes held (or about to be, when it stopped).

    Three passes: forwards over the operations (the steps, with the universal cards' fill before
    the first envelope choice), folding states as engine.counting_kernel says and writing down the
    folded states' moves and the folds; the end (the fill of what is left, complete envelopes
    only); backwards over the folded states' moves, where each fold meets its completions."""
    cdef Counting b
    memset(&b, 0, sizeof(Counting))
    try:
        return _count(&b, table, layout, n_hands, binom, limit, memory, p, &work[0])
    finally:
        release(&b)


cdef tuple _count(Counting* b, const int64_t[:, ::1] table, const int64_t[::1] layout, Py_ssize_t n_hands,
                  const int64_t[:, ::1] binom, int64_t limit, int64_t memory, int64_t p, int64_t* work):
    cdef const int64_t* L = &layout[0]
    cdef const int64_t* off = L
    cdef const int64_t* cmask = L + n_hands
    cdef const int64_t* eoff = L + 2 * n_hands
    cdef const int64_t* emask = L + 2 * n_hands + 3
    cdef int64_t moff = L[2 * n_hands + 6]
    cdef const int64_t* caps0 = L + 2 * n_hands + 7
    cdef const int64_t* open_cats = L + 3 * n_hands + 7
    cdef int64_t tag_hand = L[3 * n_hands + 10]
    cdef int64_t tag_all = L[3 * n_hands + 11]
    cdef int64_t tag_offset = L[3 * n_hands + 12]
    cdef int64_t folded = L[3 * n_hands + 13]  # the flag of a folded state
    cdef Py_ssize_t n_steps = table.shape[0], cols = table.shape[1], cw = max(n_hands, 1)
    cdef const int64_t* steps = &table[0, 0] if n_steps else NULL
    b.classes = classes_of(steps, n_steps, cols, n_hands, cmask, tag_hand)
    cdef int64_t env_all = 0, need = 0, width_ids = 1
    cdef int cat
    for cat in range(3):
        env_all |= emask[cat] << eoff[cat]
        need += open_cats[cat]
        width_ids = max(width_ids, emask[cat] + 1)
    # a state folds when its envelope gets its last id but one (its last id, with one open slot)
    cdef int64_t fold_at = max(need - 1, 1) if need else 99
    cdef int64_t n_tags = (tag_all >> tag_offset) + 1  # the tags a state can end with
    cdef int64_t keep = env_all | tag_all | folded  # what the fill of the universal cards keeps
    b.ops = alloc(n_steps + 1)
    cdef Py_ssize_t n_ops = operations(steps, n_steps, cols, b.ops)
    # the states: keys, counts, per state its number among the folded states or -1
    b.keys = alloc(1)
    b.vals = alloc(1)
    b.fidx = alloc(1)
    b.keys[0] = start_key(caps0, off, n_hands)
    b.vals[0] = 1
    b.fidx[0] = -1
    cdef Py_ssize_t n = 1, width = cw + 1
    b.sd = alloc(width)  # scratch of canonical()
    b.sh = alloc(width)
    # the successors of the states expanded at once (state by state, at least one state's)
    cdef int64_t most = max(width + 1, min(most_successors(steps, n_steps, cols, caps0, n_hands), limit + 1))
    most = max(most, 1024)
    cdef Expansion x = Expansion()
    x.setup(table, layout[0:n_hands], layout[n_hands:2 * n_hands], layout[2 * n_hands:2 * n_hands + 3],
            layout[2 * n_hands + 3:2 * n_hands + 6], moff, keep, tag_offset, tag_hand, binom, p, most)
    cdef Core* core = &x.core
    cdef int64_t* sk = core.sk
    cdef int64_t* sw = core.sw
    cdef int64_t* sl = core.sl
    cdef int64_t* ends = core.ends
    # the folded states' moves (op by op) and the folds (a labelled state entering a folded one)
    cdef Py_ssize_t cap_e = 1024, cap_f = 1024, ne = 0, nf = 0, more_e, more_f
    b.e_from = alloc(cap_e)
    b.e_to = alloc(cap_e)
    b.e_ways = alloc(cap_e)
    b.e_id = alloc(cap_e)
    b.f_env = alloc(cap_f)
    b.f_val = alloc(cap_f)
    b.f_to = alloc(cap_f)
    b.e_start = alloc(n_ops + 1)
    b.f_start = alloc(n_ops + 1)
    b.n_folded = alloc(n_ops + 1)  # folded states before each op (and after the last)
    memset(b.e_start, 0, (n_ops + 1) * sizeof(int64_t))
    memset(b.f_start, 0, (n_ops + 1) * sizeof(int64_t))
    memset(b.n_folded, 0, (n_ops + 1) * sizeof(int64_t))
    cdef int64_t spent = 0  # states generated (successors, before they merge)
    cdef double growth = 2.0  # states after a step per state before, as last seen
    table_for(&b.t, 0)
    cdef Py_ssize_t o, i, q, q0, m, used, lo, hi, j, nfo, h, more_t
    cdef int64_t s, n_classes, val, key2, env, filled, size
    cdef const int64_t* cls
    cdef bint is_folded
    cdef int64_t* old_keys
    cdef int64_t* old_vals
    cdef int64_t* old_fidx
    for o in range(n_ops):
        s = b.ops[o]
        n_classes = 0
        if s >= 0:
            for h in range(n_hands):
                n_classes = max(n_classes, b.classes[s * cw + h])
        cls = b.classes + max(s, 0) * cw
        size = n_slots(min(<int64_t>(n * growth), limit) + 16)  # no more room than the limit needs
        if not afford(work, memory, held_bytes(n, cap_e, cap_f, b.t.size), 16 * size):
            work[0] = spent
            work[1] = 2
            return _nothing()
        table_for(&b.t, min(<int64_t>(n * growth), limit) + 16)
        used = 0
        lo = 0
        hi = 0
        for i in range(n):
            if i == hi:  # the next states' successors
                lo = i
                hi = successors(core, s, b.keys, b.fidx, n, i, n)
                if hi < 0:  # one state with more successors than the limit
                    work[0] = spent + most
                    work[1] = 1
                    return _nothing()
            val = b.vals[i]
            is_folded = b.fidx[i] >= 0
            q0 = ends[i - lo - 1] if i > lo else 0
            m = ends[i - lo] - q0
            spent += m
            if spent > limit:
                work[0] = spent
                work[1] = 1
                return _nothing()
            more_e = max(2 * cap_e, ne + m) if ne + m > cap_e else 0
            more_f = max(2 * cap_f, nf + m) if nf + m > cap_f else 0
            more_t = 0
            while 4 * (used + m) > b.t.size << more_t:
                more_t += 1
            if (more_e or more_f or more_t) and not afford(
                work, memory, held_bytes(n, cap_e, cap_f, b.t.size),
                32 * more_e + 24 * more_f + ((8 * b.t.size) << more_t if more_t else 0),
            ):
                work[0] = spent
                work[1] = 2
                return _nothing()
            if more_e:
                b.e_from = grown(b.e_from, cap_e, more_e)
                b.e_to = grown(b.e_to, cap_e, more_e)
                b.e_ways = grown(b.e_ways, cap_e, more_e)
                b.e_id = grown(b.e_id, cap_e, more_e)
                cap_e = more_e
            if more_f:
                b.f_env = grown(b.f_env, cap_f, more_f)
                b.f_val = grown(b.f_val, cap_f, more_f)
                b.f_to = grown(b.f_to, cap_f, more_f)
                cap_f = more_f
            while 4 * (used + m) > b.t.size:  # at most half full after the state's successors
                grow_table(&b.t)
            for q in range(q0, q0 + m):
                key2 = sk[q]
                if n_classes:
                    key2 = canonical(key2, cls, n_classes, n_hands, off, cmask, b.sd, b.sh)
                if is_folded:
                    b.e_from[ne] = b.fidx[i]
                    b.e_to[ne] = key2
                    b.e_ways[ne] = sw[q]
                    b.e_id[ne] = sl[q]
                    ne += 1
                    used += insert(&b.t, key2, 0, p)
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
                                key2 |= (<int64_t>1) << eoff[cat]
                        b.f_env[nf] = env
                        b.f_val[nf] = _mul(val, sw[q], p)
                        b.f_to[nf] = key2
                        nf += 1
                        used += insert(&b.t, key2, 0, p)
                        continue
                used += insert(&b.t, key2, _mul(val, sw[q], p), p)
        if not afford(work, memory, held_bytes(n, cap_e, cap_f, b.t.size), 24 * used):
            work[0] = spent
            work[1] = 2
            return _nothing()
        # the new states' arrays are made before the old ones are freed, as the budget reckons
        old_keys, old_vals, old_fidx = b.keys, b.vals, b.fidx
        b.keys = b.vals = b.fidx = NULL
        try:
            b.keys = alloc(used)
            b.vals = alloc(used)
            b.fidx = alloc(used)
        finally:
            free(old_keys)
            free(old_vals)
            free(old_fidx)
        m = 0
        nfo = 0
        for j in range(0, b.t.size, 2):
            if b.t.t[j] != -1:
                b.keys[m] = b.t.t[j]
                b.vals[m] = b.t.t[j + 1]
                b.fidx[m] = -1
                if b.t.t[j] & folded:
                    b.fidx[m] = nfo
                    b.t.t[j + 1] = nfo  # for the moves and folds into it, below
                    nfo += 1
                m += 1
        for q in range(b.e_start[o], ne):
            b.e_to[q] = b.t.t[2 * find(&b.t, b.e_to[q]) + 1]
        for q in range(b.f_start[o], nf):
            b.f_to[q] = b.t.t[2 * find(&b.t, b.f_to[q]) + 1]
        b.e_start[o + 1] = ne
        b.f_start[o + 1] = nf
        b.n_folded[o + 1] = nfo
        growth = max(1.0, <double>used / n)
        n = used
        if n == 0:
            break
    # the end: each state times the ways the universal cards fill the room left (1 when counted
    # already), where every open envelope slot is filled
    table_for(&b.out, 64)
    used = 0
    # per folded state and final tag, its completions by the id its last open slot receives
    # (column tag * width_ids + id; id 0: every slot filled already)
    cdef int64_t rows = b.n_folded[n_ops] if n else 0
    cdef int64_t wide = n_tags * width_ids, after_size = rows * wide, before_size
    if not afford(work, memory, held_bytes(n, cap_e, cap_f, b.t.size + b.out.size), 8 * rows * wide):
        work[0] = spent
        work[1] = 2
        return _nothing()
    b.after = alloc(after_size)
    memset(b.after, 0, max(after_size, 1) * sizeof(int64_t))
    cdef int64_t key, fill
    for i in range(n):
        key = b.keys[i]
        if not complete(key, open_cats, eoff, emask):
            continue
        fill = fill_ways(core, key)
        if b.fidx[i] >= 0:
            b.after[b.fidx[i] * wide + ((key & tag_all) >> tag_offset) * width_ids] = fill
        else:
            used += insert(&b.out, key & (env_all | tag_all), _mul(b.vals[i], fill, p), p)
            if 4 * used > b.out.size:
                if not afford(work, memory, held_bytes(n, cap_e, cap_f, b.t.size + b.out.size + after_size),
                              16 * b.out.size):
                    work[0] = spent
                    work[1] = 2
                    return _nothing()
                grow_table(&b.out)
    # backwards over the folded states' moves; each fold adds its count times its state's
    # completions to its ids (and the tag each completion ends with)
    cdef int64_t a, bb, w, xid, g, y, last, deals, ids
    if n:
        for o in range(n_ops - 1, -1, -1):
            before_size = b.n_folded[o] * wide
            if not afford(work, memory, held_bytes(n, cap_e, cap_f, b.t.size + b.out.size + after_size),
                          8 * before_size):
                work[0] = spent
                work[1] = 2
                return _nothing()
            b.before = alloc(before_size)
            memset(b.before, 0, max(before_size, 1) * sizeof(int64_t))
            for q in range(b.e_start[o], b.e_start[o + 1]):
                a, bb, w, xid = b.e_from[q], b.e_to[q], b.e_ways[q], b.e_id[q]
                if xid:
                    for g in range(0, wide, width_ids):
                        b.before[a * wide + g + xid] = _add(b.before[a * wide + g + xid],
                                                           _mul(w, b.after[bb * wide + g], p), p)
                else:
                    for y in range(wide):
                        b.before[a * wide + y] = _add(b.before[a * wide + y], _mul(w, b.after[bb * wide + y], p), p)
            for q in range(b.f_start[o], b.f_start[o + 1]):
                env, val, bb = b.f_env[q], b.f_val[q], b.f_to[q]
                last = -1  # the open slot the fold leaves, if any
                for cat in range(3):
                    if open_cats[cat] and (env >> eoff[cat]) & emask[cat] == 0:
                        last = cat
                for g in range(n_tags):
                    for xid in range(width_ids):
                        deals = b.after[bb * wide + g * width_ids + xid]
                        if deals:
                            ids = env | (g << tag_offset)
                            if last >= 0:
                                ids |= xid << eoff[last]
                            used += insert(&b.out, ids, _mul(val, deals, p), p)
                            if 4 * used > b.out.size:
                                if not afford(
                                    work, memory,
                                    held_bytes(n, cap_e, cap_f, b.t.size + b.out.size + after_size + before_size),
                                    16 * b.out.size,
                                ):
                                    work[0] = spent
                                    work[1] = 2
                                    return _nothing()
                                grow_table(&b.out)
            free(b.after)
            b.after = b.before
            b.before = NULL
            after_size = before_size
    work[0] = spent
    envs = np.empty(used, np.int64)
    counts = np.empty(used, np.int64)
    cdef int64_t[::1] ev = envs
    cdef int64_t[::1] cv = counts
    m = 0
    for j in range(0, b.out.size, 2):
        if b.out.t[j] != -1:
            ev[m] = b.out.t[j]
            cv[m] = b.out.t[j + 1]
            m += 1
    return envs, counts


def weighted_entropy(const int64_t[::1] envs, const int64_t[::1] n, const int64_t[::1] sizes, Py_ssize_t width,
                     int64_t off0, int64_t off1, int64_t off2, int64_t mask0, int64_t mask1, int64_t mask2):
    """The entropy in bits of the solutions, each envelope id's count weighed by its members
    (engine.counting_kernel.envelope_entropy); nan when no deal is consistent. ``envs``: the
    counting program's keys, each category's id at ``off`` under ``mask``; ``sizes``: per category
    (``width`` to a category), the members of each id."""
    cdef int64_t total = 0, mult
    cdef double acc = 0.0
    cdef Py_ssize_t i
    for i in range(n.shape[0]):
        mult = (sizes[(envs[i] >> off0) & mask0] * sizes[width + ((envs[i] >> off1) & mask1)]
                * sizes[2 * width + ((envs[i] >> off2) & mask2)])
        if n[i] > 0 and mult > 0:
            total += mult * n[i]  # at most the plan's bound, below 2**62
            acc += mult * n[i] * log2(<double>n[i])
    if total == 0:
        return NAN
    return max(0.0, log2(<double>total) - acc / total)


# the columns of a plan's steps (engine.counting: KIND, SIZE, CAT, ENV_ID, HANDS, CLOSES, UNOPENED,
# TAG, then MEETS on) and its kinds of step
cdef enum:
    MEETS = 8
    CARD = 0
    GROUP = 1
    ENVELOPE_CHOICE = 2


cdef inline int64_t n_bits(int64_t x) noexcept nogil:
    cdef int64_t n = 0
    while x:
        x &= x - 1
        n += 1
    return n


cdef inline Py_ssize_t bit_index(int64_t x) noexcept nogil:
    """The bit of a one-bit mask (-1 for 0)."""
    cdef Py_ssize_t i = -1
    while x:
        x >>= 1
        i += 1
    return i


# lists and tuples indexed as Python indexes them (checked, a negative index from the end), unlike the
# rest of this file: what this reads is handed to it, not arrays it made
@cython.boundscheck(True)
@cython.wraparound(True)
def plan_fields(tuple allowed, tuple sizes, list cat_of, frozenset clauses, Py_ssize_t tag_place,
                tuple tag_cards, tuple alone):
    """The fields of engine.counting.Plan, in its order, for a knowledge given by its cards' possible
    places (``allowed``, bit masks), its places' sizes, each card's category and its clauses (place,
    bit mask of deck indices); engine.counting.plan says what the tag and the cards placed alone are.

    The steps: the clause cards first (from one state, while the hands are still full, states are
    fewest), in an order that closes clauses early (:func:`_clause_steps`), each its own envelope
    id; then the free cards by (possible hands, category where the envelope is possible): the
    restricted groups, then the envelope choices of the universal groups, which touch no hand; the
    tagged (and alone) cards in no clause last of the cards placed in hands, one at a time (the tag
    multiplies the states)."""
    cdef Py_ssize_t n_cards = len(allowed), n_places = len(sizes), c, p, i, n_hands = 0, n_unknown = 0
    cdef Py_ssize_t m, row, ncols
    cdef int64_t mask, hands, all_hands
    cdef int64_t* steps
    if n_places > 62:
        raise ValueError(f"{n_places} places: a card's places are a 64-bit mask here")
    cdef Py_ssize_t nc = max(n_cards, 1)
    cdef int64_t* scratch = <int64_t*>calloc(nc * 9 + 2 * n_places + 3, sizeof(int64_t))
    if scratch == NULL:
        raise MemoryError()
    cdef int64_t* masks = scratch
    cdef int64_t* cat = masks + nc
    cdef int64_t* hands_of = cat + nc
    cdef int64_t* unknown = hands_of + nc
    cdef int64_t* inf = unknown + nc  # per card, 5 to a row: what _clause_steps reads
    cdef int64_t* known_count = inf + 5 * nc
    cdef int64_t* hand_of = known_count + n_places  # place -> its number among the open hands
    cdef int64_t env_known[3]
    bound = 1
    try:
        env_known[0] = env_known[1] = env_known[2] = -1
        for c in range(n_cards):
            masks[c] = allowed[c]
            cat[c] = cat_of[c]
            mask = masks[c]
            if mask & (mask - 1) == 0:
                p = bit_index(mask)
                known_count[p if p >= 0 else n_places - 1] += 1
                if p == 0:
                    env_known[cat[c]] = c
            else:
                unknown[n_unknown] = c
                n_unknown += 1
                bound *= n_bits(mask)
        open_hands = []
        for p in range(n_places):
            hand_of[p] = -1
        for p in range(1, n_places):
            if sizes[p] > known_count[p]:
                hand_of[p] = n_hands
                n_hands += 1
                open_hands.append(p)
        all_hands = ((<int64_t>1) << n_hands) - 1
        # per unknown card: its possible places, open hands, whether the envelope is possible, its
        # category and its tag bit (0 for known cards)
        for i in range(n_unknown):
            c = unknown[i]
            mask = masks[c]
            hands = 0
            for p in range(n_places):
                if (mask >> p) & 1 and hand_of[p] >= 0:
                    hands |= (<int64_t>1) << hand_of[p]
            hands_of[c] = hands
            inf[5 * c] = n_bits(mask)
            inf[5 * c + 1] = hands
            inf[5 * c + 2] = mask & 1
            inf[5 * c + 3] = cat[c]
        tag_bit = {}  # tagged cards the player may hold, but need not
        if tag_place and hand_of[tag_place] >= 0:
            for i in range(len(tag_cards)):
                c = tag_cards[i]
                if (masks[c] >> tag_place) & 1 and masks[c] != (<int64_t>1) << tag_place:
                    tag_bit[c] = (<int64_t>1) << i
            for c, bit in tag_bit.items():
                inf[5 * c + 4] = bit
        singles = dict(tag_bit)  # cards placed one at a time, with their tag bit
        for c in alone:
            if masks[c] & (masks[c] - 1):
                singles.setdefault(c, 0)
        members = ([], [], [])
        ordered = sorted([(hand_of[p], cards) for p, cards in clauses])
        clause_cards = 0
        for _, cards in ordered:
            clause_cards |= cards
        steps_c, order_a, slots = _ordered_clauses(ordered, inf, n_cards, n_hands)
        order = order_a.tolist()
        for c in order:  # envelope ids count up in the order of the steps
            if masks[c] & 1:
                members[cat[c]].append([c])
        groups = {}
        for i in range(n_unknown):
            c = unknown[i]
            if not ((clause_cards >> c) & 1 or c in singles):
                groups.setdefault((hands_of[c], cat[c] if masks[c] & 1 else -1), []).append(c)
        rest = []  # rows of the groups and the cards alone, then of the envelope choices
        rest_cards = []
        choices = []
        largest = 1
        for (hands, ct), cards in sorted(groups.items()):
            env_id = 0
            if ct >= 0:
                members[ct].append(cards)
                env_id = len(members[ct])
            if hands != all_hands:
                rest.append((GROUP, len(cards), max(ct, 0), env_id, hands, 0))
                rest_cards.append(-1)
                largest = max(largest, len(cards))
            elif env_id:
                choices.append((ENVELOPE_CHOICE, 0, ct, env_id, 0, 0))
        for c, bit in singles.items():
            if not (clause_cards >> c) & 1:
                env_id = 0
                if masks[c] & 1:
                    members[cat[c]].append([c])
                    env_id = len(members[cat[c]])
                rest.append((CARD, 1, cat[c], env_id, hands_of[c], bit))
                rest_cards.append(c)
        m = steps_c.shape[0]
        rest += choices
        ncols = MEETS + 2 * n_hands
        steps_a = np.zeros((m + len(rest), ncols), np.int64)
        steps = data(steps_a)
        if m:
            memcpy(steps, data(steps_c), m * ncols * sizeof(int64_t))
        for i in range(len(rest)):
            r = rest[i]
            row = (m + i) * ncols
            steps[row] = r[0]
            steps[row + 1] = r[1]
            steps[row + 2] = r[2]
            steps[row + 3] = r[3]
            steps[row + 4] = r[4]
            steps[row + 7] = r[5]
        return (
            tuple([sizes[p] - known_count[p] for p in open_hands]),
            (env_known[0] == -1, env_known[1] == -1, env_known[2] == -1),
            (env_known[0], env_known[1], env_known[2]),
            members,
            steps_a,
            slots,
            bound,
            hand_of[tag_place] if tag_bit else -1,
            len(tag_cards) if tag_bit else 0,
            (*order, *rest_cards, *[-1] * len(choices)),
            tuple(open_hands),
            largest,
        )
    finally:
        free(scratch)


cdef tuple _ordered_clauses(list clauses, const int64_t* inf, Py_ssize_t n_cards, Py_ssize_t n_hands):
    """The steps of the clause cards (rows of engine.counting's plan table), the cards in that
    order, and the clause slots used at once. ``clauses``: (open hand, cards as a bit mask of deck
    indices) per clause, in order; ``inf``: per deck card, 5 to a row, its possible places, its open
    hands (mask), 1 if the envelope is possible, its category, its tag bit. The order is greedy: a
    card that closes the most clauses, then the one with the fewest possible places, then the one
    opening the fewest clauses, then the card in most clauses (the lowest card on a tie). The
    possible places come before the clauses opened: a card with few places branches the states
    least (docs/performance.md, "The deduction engine", gives the saving)."""
    cdef Py_ssize_t n_cl = len(clauses), i, j, c, ccols = 1
    cdef object mask
    for i in range(n_cl):
        ccols = max(ccols, 1 + (<object>clauses[i][1]).bit_count())
    # the scratch, in one zeroed block
    cdef Py_ssize_t ncl = max(n_cl, 1), nc = max(n_cards, 1)
    cdef int64_t* scratch = <int64_t*>calloc(
        nc * 5 + nc * ncl + ncl * (7 + ccols) + max(n_hands, 1) + 3, sizeof(int64_t)
    )
    if scratch == NULL:
        raise MemoryError()
    cdef int64_t* local = scratch  # deck card -> its number among the clause cards
    cdef int64_t* cards = local + nc
    cdef int64_t* n_in = cards + nc  # per clause card: the clauses naming it
    cdef int64_t* placed = n_in + nc
    cdef int64_t* order = placed + nc
    cdef int64_t* naming = order + nc  # per clause card, ncl to a row: the clauses naming it
    cdef int64_t* left = naming + nc * ncl  # per clause: its cards not placed yet
    cdef int64_t* started = left + ncl
    cdef int64_t* first = started + ncl
    cdef int64_t* last = first + ncl
    cdef int64_t* slot_of = last + ncl
    cdef int64_t* free_slots = slot_of + ncl
    cdef int64_t* in_progress = free_slots + ncl
    cdef int64_t* ctab = in_progress + ncl  # per clause, ccols to a row: its open hand, its cards, -1
    cdef int64_t* unopened = ctab + ncl * ccols  # per hand: its clauses not opened yet
    cdef int64_t* env_ids = unopened + max(n_hands, 1)
    cdef tuple row
    try:
        for i in range(n_cl):
            row = clauses[i]
            ctab[i * ccols] = row[0]
            mask = row[1]
            j = 1
            c = 0
            while mask:
                if mask & 1:
                    ctab[i * ccols + j] = c
                    j += 1
                mask >>= 1
                c += 1
            while j < ccols:
                ctab[i * ccols + j] = -1
                j += 1
        return _clause_steps(ctab, n_cl, ccols, inf, n_hands, n_cards, local, cards, n_in, placed, order, naming,
                             ncl, left, started, first, last, slot_of, free_slots, in_progress, unopened, env_ids)
    finally:
        free(scratch)


cdef tuple _clause_steps(const int64_t* ctab, Py_ssize_t n_cl, Py_ssize_t ccols, const int64_t* inf,
                         Py_ssize_t n_hands, Py_ssize_t n_cards, int64_t* local, int64_t* cards, int64_t* n_in,
                         int64_t* placed, int64_t* order, int64_t* naming, Py_ssize_t ncl, int64_t* left,
                         int64_t* started, int64_t* first, int64_t* last, int64_t* slot_of, int64_t* free_slots,
                         int64_t* in_progress, int64_t* unopened, int64_t* env_ids):
    cdef Py_ssize_t i, j, c, q, t, m = 0, pos, best, n_free = 0, slots = 0, h
    cdef int64_t b0 = 0, b1 = 0, b2 = 0, b3 = 0, k0, k1, k2, k3, closes, opens, hands_unopened, env_id, ct
    for c in range(n_cards):
        local[c] = -1
    for i in range(n_cl):
        for j in range(1, ccols):
            if ctab[i * ccols + j] >= 0:
                local[ctab[i * ccols + j]] = 0
    for c in range(n_cards):
        if local[c] >= 0:
            local[c] = m
            cards[m] = c
            m += 1
    for i in range(n_cl):
        for j in range(1, ccols):
            c = ctab[i * ccols + j]
            if c >= 0:
                q = local[c]
                naming[q * ncl + n_in[q]] = i
                n_in[q] += 1
                left[i] += 1
    for pos in range(m):
        best = -1
        b0 = b1 = b2 = b3 = 0
        for q in range(m):
            if placed[q]:
                continue
            closes = opens = 0
            for t in range(n_in[q]):
                i = naming[q * ncl + t]
                if left[i] == 1:
                    closes += 1
                elif not started[i]:
                    opens += 1
            k0, k1, k2, k3 = -closes, inf[cards[q] * 5], opens, -n_in[q]
            if best < 0 or k0 < b0 or (k0 == b0 and (k1 < b1 or (k1 == b1 and (k2 < b2 or (k2 == b2 and k3 < b3))))):
                best, b0, b1, b2, b3 = q, k0, k1, k2, k3
        order[pos] = best
        placed[best] = 1
        for t in range(n_in[best]):
            left[naming[best * ncl + t]] -= 1
            started[naming[best * ncl + t]] = 1
    # each clause holds a slot from its first card to its last; slots are reused once free
    for i in range(n_cl):
        first[i] = m
        last[i] = -1
    for pos in range(m):
        q = order[pos]
        for t in range(n_in[q]):
            i = naming[q * ncl + t]
            first[i] = min(first[i], pos)
            last[i] = max(last[i], pos)
    for i in range(n_cl):
        unopened[ctab[i * ccols]] += 1
    steps_a = np.zeros((m, 8 + 2 * n_hands), np.int64)
    cdef int64_t[:, ::1] steps = steps_a
    for pos in range(m):
        q = order[pos]
        c = cards[q]
        for i in range(n_cl):
            if first[i] == pos:
                if n_free:
                    n_free -= 1
                    slot_of[i] = free_slots[n_free]
                else:
                    slot_of[i] = slots
                    slots += 1
                in_progress[i] = 1
                unopened[ctab[i * ccols]] -= 1
        for t in range(n_in[q]):
            i = naming[q * ncl + t]
            steps[pos, 8 + ctab[i * ccols]] |= (<int64_t>1) << slot_of[i]
        closes = 0
        for i in range(n_cl):
            if last[i] == pos:
                closes |= (<int64_t>1) << slot_of[i]
                in_progress[i] = 0
        for i in range(n_cl):
            if in_progress[i]:
                steps[pos, 8 + n_hands + ctab[i * ccols]] |= (<int64_t>1) << slot_of[i]
        hands_unopened = 0
        for h in range(n_hands):
            if unopened[h]:
                hands_unopened |= (<int64_t>1) << h
        ct = inf[c * 5 + 3]
        env_id = 0
        if inf[c * 5 + 2]:
            env_ids[ct] += 1
            env_id = env_ids[ct]
        steps[pos, 0] = 0  # a card
        steps[pos, 1] = 1
        steps[pos, 2] = ct
        steps[pos, 3] = env_id
        steps[pos, 4] = inf[c * 5 + 1]
        steps[pos, 5] = closes
        steps[pos, 6] = hands_unopened
        steps[pos, 7] = inf[c * 5 + 4]
        for i in range(n_cl):
            if last[i] == pos:
                free_slots[n_free] = slot_of[i]
                n_free += 1
    out = np.empty(m, np.int64)
    cdef int64_t* ov = data(out)
    for pos in range(m):
        ov[pos] = cards[order[pos]]
    return steps_a, out, slots


# -- the knowledge's closure ------------------------------------------------------------------------


cdef list card_bits(object mask):
    """The cards (bit positions) of a card mask, lowest first (a Python integer: decks are large)."""
    cdef list out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# lists indexed as Python indexes them, as plan_fields
@cython.boundscheck(True)
@cython.wraparound(True)
def close(Py_ssize_t ns, Py_ssize_t nw, sizes, list allowed, clauses, excluded):
    """engine.knowledge's closure: every derived fact applied until nothing changes. ``ns``, ``nw``:
    the deck's suspects and weapons (the rooms follow); ``sizes``: cards per place (the envelope's
    first); ``allowed``: per card, the bit mask of its possible places (set to the closed masks);
    ``clauses``: (place, card mask) pairs, each place holding one of the cards; ``excluded``: the
    solutions ruled out, by card. Returns (allowed, clauses, excluded), or None when no deal is left.

    Each rule only restates what every consistent deal already satisfies, so the set of consistent
    deals never changes; the rules just make equal knowledge look equal and make counting cheaper.
    A card's places are a 64-bit mask here (a game has at most 8 places); a set of cards is a
    Python integer, a bit a card, whatever the deck's size."""
    cdef Py_ssize_t n_cards = len(allowed), n_places = len(sizes), p, card, c, axis, j, size, room, picked, lo, hi
    cdef int64_t pm
    cdef bint changed = True
    if n_places > 62:
        raise ValueError(f"{n_places} places: a card's places are a 64-bit mask here")
    bounds = ((0, ns), (ns, ns + nw), (ns + nw, n_cards))  # each category's cards
    one = 1  # a Python integer: the sets of cards are shifted from it
    category_cards = ((one << ns) - 1, ((one << nw) - 1) << ns, ((one << n_cards) - 1) >> (ns + nw) << (ns + nw))
    cdef int64_t* al = <int64_t*>malloc(max(n_cards, 1) * sizeof(int64_t))
    if al == NULL:
        raise MemoryError()
    try:
        for card in range(n_cards):
            al[card] = allowed[card]
        while changed:
            changed = False
            # per place: the cards known there, the cards possible there (from the cards by their
            # possible places: fewer masks than cards)
            with_mask = {}
            for card in range(n_cards):
                with_mask[al[card]] = with_mask.get(al[card], 0) | (one << card)
            if 0 in with_mask:
                return None
            known = [0] * n_places
            possible = [0] * n_places
            for key, cards in with_mask.items():
                pm = key
                if pm & (pm - 1) == 0:
                    p = bit_index(pm)
                    known[p] |= cards
                for p in range(n_places):
                    if (pm >> p) & 1:
                        possible[p] |= cards
            # places that are players or the room cards: a full place excludes every other card, a
            # place with exactly as many possible cards as its size holds them all
            for p in range(1, n_places):
                size = sizes[p]
                n_known, n_possible = known[p].bit_count(), possible[p].bit_count()
                if n_known > size or n_possible < size:
                    return None
                if possible[p] != known[p]:
                    if n_known == size:
                        for card in card_bits(possible[p] & ~known[p]):
                            al[card] &= ~((<int64_t>1) << p)
                        changed = True
                    elif n_possible == size:
                        for card in card_bits(possible[p] & ~known[p]):
                            al[card] = (<int64_t>1) << p
                        changed = True
            if changed:
                continue
            # the envelope: exactly one card of each category
            for cat_cards in category_cards:
                in_env = possible[0] & cat_cards
                sure = known[0] & cat_cards
                if not in_env or sure & (sure - 1):
                    return None
                if sure and in_env != sure:
                    for c in card_bits(in_env & ~sure):
                        al[c] &= ~1
                    changed = True
                elif not sure and in_env & (in_env - 1) == 0:
                    al[in_env.bit_length() - 1] = 1
                    changed = True
            if changed:
                continue
            # ruled-out solutions: keep those still possible; a card in no possible solution is not
            # in the envelope
            if excluded:
                env = []
                for lo, hi in bounds:
                    env.append({c for c in range(lo, hi) if al[c] & 1})
                excluded = {t for t in excluded if t[0] in env[0] and t[1] in env[1] and t[2] in env[2]}
                for axis in range(3):
                    others = 1
                    for j in range(3):
                        if j != axis:
                            others *= len(env[j])
                    for c in env[axis]:
                        if sum([1 for t in excluded if t[axis] == c]) == others:
                            al[c] &= ~1
                            changed = True
                if changed:
                    continue
            # clauses: drop satisfied ones, shrink to possible cards, a single possible card is held
            new_clauses = set()
            for place, m in clauses:
                p = place
                if m & known[p]:
                    continue
                m &= possible[p]
                if m == 0:
                    return None
                if m & (m - 1) == 0:
                    al[m.bit_length() - 1] = (<int64_t>1) << p
                    changed = True
                    continue
                new_clauses.add((place, m))
            # a clause that contains another of the same player adds nothing
            of_player = {}
            for place, m in new_clauses:
                of_player.setdefault(place, []).append(m)
            clauses = set()
            for place, masks in of_player.items():
                for m in masks:
                    if len(masks) == 1 or not any([n != m and n & m == n for n in masks]):
                        clauses.add((place, m))
            if changed:
                continue
            # as many pairwise disjoint open clauses as free slots: each slot holds a card of its own
            # clause, so the player holds nothing outside them (one free slot: the clauses' common cards)
            by_player = {}
            for place, m in clauses:
                by_player.setdefault(place, []).append(m)
            for place, masks in by_player.items():
                p = place
                room = sizes[p] - known[p].bit_count()
                if room == 1:
                    inside = -1
                    for m in masks:
                        inside &= m
                else:
                    inside = 0
                    picked = 0
                    for m in sorted(masks, key=_size_then_cards):
                        if not m & inside:
                            inside |= m
                            picked += 1
                    if picked > room:
                        return None
                    if picked < room:
                        continue
                stray = possible[p] & ~known[p] & ~inside
                if stray:
                    for card in card_bits(stray):
                        al[card] &= ~((<int64_t>1) << p)
                    changed = True
        for card in range(n_cards):
            allowed[card] = al[card]
        return allowed, clauses, excluded
    finally:
        free(al)


def _size_then_cards(m):
    return (m.bit_count(), m)


# -- the gain program -----------------------------------------------------------------------------


cdef inline int64_t combine(int64_t answer, int64_t rank, int64_t bit) noexcept nogil:
    """The answer so far (the lowest rank among the named cards placed, and which of them have it)
    after a named card of ``rank`` (0: not in the refuter's hand) is placed."""
    cdef int64_t low
    if rank == 0:
        return answer
    low = answer >> 3
    if low == 0 or rank < low:
        return (rank << 3) | bit
    if rank == low:
        return answer | bit
    return answer


cdef inline int64_t* data(cnp.ndarray a) noexcept:
    return <int64_t*>cnp.PyArray_DATA(a)


cdef int shift_of(Py_ssize_t size) noexcept nogil:
    """The shift of an index of ``size`` slots (a power of two, 64 or more)."""
    cdef int shift = 58
    while (<int64_t>64 << (58 - shift)) < size:
        shift -= 1
    return shift


cdef cnp.ndarray grown_index(cnp.ndarray index, int shift):
    """The index with twice the slots, its keys kept."""
    cdef Py_ssize_t size = index.shape[0], j
    out = np.full(2 * size, -1, np.int64)
    cdef Table tb
    tb.t = data(out)
    tb.size = 2 * size
    tb.shift = shift - 1
    cdef int64_t* old = data(index)
    for j in range(0, size, 2):
        if old[j] != -1:
            insert(&tb, old[j], old[j + 1], 0)
    return out


def gain_rows(const int64_t[:, ::1] table, const int64_t[::1] role_bit, const int64_t[::1] role_vec,
              const int64_t[::1] hand_rank, const int64_t[::1] off, const int64_t[::1] cmask,
              const int64_t[::1] eoff, const int64_t[::1] emask, int64_t moff, const int64_t[::1] caps0,
              const int64_t[::1] open_cats, int64_t toff, const int64_t[:, ::1] binom, int64_t n_ranks,
              int64_t limit, int64_t memory, int64_t[::1] work_, cnp.ndarray keys, cnp.ndarray vals,
              cnp.ndarray nkeys, cnp.ndarray nvals, cnp.ndarray ibuf):
    """(Envelope keys, answers, rows) of the complete deals: a row holds the deals, then per vector
    card placed (in step order) its deals by rank (``n_ranks`` columns); then the workspace's arrays, for the next run
    (engine.gain_kernel.Workspace: keys and rows of two steps' states, and the index of the new
    ones, grown as a run needs; a fresh allocation a step would cost the system's page faults on
    every row, as much as the counting itself on a big deck).

    Under a budget the program stops once it has generated more states than ``limit`` (work[1] =
    1), or before it would hold more bytes than ``memory`` (work[1] = 2); work[0]: the states it
    generated, work[2]: the most bytes it held.

    While it runs, a state's row leaves out each vector card's rank 0 (its deals less those of the
    other ranks, once the card is placed): the workspace's rows are 1 + cards * (n_ranks - 1) wide,
    a sixth less memory to add in a 6-player game. The result's rows have every rank."""
    cdef int64_t* work = &work_[0]
    cdef Py_ssize_t width = vals.shape[1], n_hands = off.shape[0], nr1 = n_ranks - 1
    cdef Py_ssize_t n_vec = (width - 1) // nr1 if nr1 else 0
    cdef Py_ssize_t out_width = 1 + n_vec * n_ranks
    cdef int64_t tmask = (<int64_t>63) << toff
    cdef int64_t env_all = 0
    cdef int cat
    for cat in range(3):
        env_all |= emask[cat] << eoff[cat]
    cdef int64_t keep = env_all | tmask
    cdef Py_ssize_t n_steps = table.shape[0], cols = table.shape[1]
    cdef const int64_t* steps = &table[0, 0] if n_steps else NULL
    cdef const int64_t* caps = &caps0[0] if n_hands else NULL
    cdef const int64_t* offs = &off[0] if n_hands else NULL
    ops_a = np.empty(n_steps + 1, np.int64)
    cdef int64_t* ops = data(ops_a)
    cdef Py_ssize_t n_ops = operations(steps, n_steps, cols, ops)
    cdef int64_t* K = data(keys)
    cdef int64_t* V = data(vals)
    cdef int64_t* NK = data(nkeys)
    cdef int64_t* NV = data(nvals)
    K[0] = start_key(caps, offs, n_hands)
    V[0] = 1
    cdef Py_ssize_t n = 1, act = 1, act2  # act: the columns in use (the deals, the rows of the vector cards placed)
    cdef double growth = 2.0  # states after an operation per state before, as last seen
    cdef int64_t spent = 0  # states generated
    cdef Py_ssize_t hw = max(n_hands, 1) + 1
    # the successors of the states expanded at once (state by state, at least one state's)
    cdef int64_t most = max(max(hw + 1, most_successors(steps, n_steps, cols, caps, n_hands)), 1024)
    cdef Expansion x = Expansion()
    x.setup(table, off, cmask, eoff, emask, moff, keep, 0, -1, binom, 0, most)
    cdef Core* core = &x.core
    cdef int64_t* sk = core.sk
    cdef int64_t* sw = core.sw
    cdef int64_t* sd = core.sh  # the hand a card step's card went to; -1: the envelope
    cdef int64_t* ends = core.ends
    cdef bint merged = False, fill_too  # merged: the fill was done with the step before it
    cdef Py_ssize_t o, i, j, q, q0, m, used, lo, hi, r, xx, size, isize
    cdef int64_t s, bit, vj, key2, w, rank, held, vi0
    cdef int shift
    cdef int64_t* index
    cdef int64_t* vrow
    cdef int64_t* nrow
    cdef cnp.ndarray index_a
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
        act2 = 1 + (vj + 1) * nr1 if vj >= 0 else act  # the columns in use after this step
        # the index of the new states, at most half full: the front of the workspace's
        size = n_slots(<int64_t>(n * growth) + 16)
        if 2 * size > ibuf.shape[0]:
            if not afford(work, memory, 8 * (keys.shape[0] + nkeys.shape[0]) * (1 + width), 16 * size):
                return _stopped(work, spent, 2, out_width, keys, vals, nkeys, nvals, ibuf)
            ibuf = np.empty(2 * size, np.int64)
        index_a = ibuf
        index = data(ibuf)
        isize = 2 * size
        memset(index, 0xFF, isize * sizeof(int64_t))
        shift = shift_of(size)
        used = 0
        lo = 0
        hi = 0
        for i in range(n):
            if i == hi:  # the next states' successors (there is room for every state's)
                lo = i
                hi = successors(core, s, K, NULL, 0, i, n)
            q0 = ends[i - lo - 1] if i > lo else 0
            m = ends[i - lo] - q0
            spent += m
            if spent > limit:  # past the budget's allowance: nothing is returned
                return _stopped(work, spent, 1, out_width, keys, vals, nkeys, nvals, ibuf)
            if used + m > nkeys.shape[0]:  # more states than there is room for: twice the room
                held = 8 * (keys.shape[0] + nkeys.shape[0]) * (1 + width) + 8 * ibuf.shape[0]
                if not afford(work, memory, held, 16 * nkeys.shape[0] * (1 + width)):
                    return _stopped(work, spent, 2, out_width, keys, vals, nkeys, nvals, ibuf)
                nkeys, nvals = _rows(nkeys, nvals, used, used + m)
                NK = data(nkeys)
                NV = data(nvals)
            while 4 * (used + m) > isize:
                held = 8 * (keys.shape[0] + nkeys.shape[0]) * (1 + width) + 8 * ibuf.shape[0]
                if not afford(work, memory, held, 16 * isize):
                    return _stopped(work, spent, 2, out_width, keys, vals, nkeys, nvals, ibuf)
                if index_a is ibuf:
                    index_a = grown_index(ibuf[:isize], shift)
                else:
                    index_a = grown_index(index_a, shift)
                shift -= 1
                isize = index_a.shape[0]
                index = data(index_a)
                if isize > ibuf.shape[0]:
                    ibuf = index_a
            vrow = V + i * width
            vi0 = vrow[0]
            for q in range(q0, q0 + m):
                key2 = sk[q]
                w = sw[q]
                rank = hand_rank[sd[q]] if sd[q] >= 0 else 0
                if bit:
                    key2 = (key2 & ~tmask) | (combine((key2 >> toff) & 63, rank, bit) << toff)
                if fill_too:
                    w *= fill_ways(core, key2)
                    key2 &= keep
                j = probe(index, isize, shift, key2)
                if index[2 * j] == -1:  # a new state: its row is this successor's
                    index[2 * j] = key2
                    index[2 * j + 1] = used
                    NK[used] = key2
                    nrow = NV + used * width
                    used += 1
                    if w == 1:
                        memcpy(nrow, vrow, act * sizeof(int64_t))
                    else:
                        for xx in range(act):
                            nrow[xx] = vrow[xx] * w
                    if act2 > act:  # the columns of the card this step places
                        memset(nrow + act, 0, (act2 - act) * sizeof(int64_t))
                else:
                    nrow = NV + index[2 * j + 1] * width
                    if w == 1:  # most successors (a card placed alone): a sum the compiler vectorises
                        for xx in range(act):
                            nrow[xx] += vrow[xx]
                    else:
                        for xx in range(act):
                            nrow[xx] += vrow[xx] * w
                if vj >= 0 and rank:  # the card's row: every deal of the state, at the rank it got
                    nrow[vj * nr1 + rank] += vi0 * w
        growth = max(1.0, <double>used / n)
        keys, nkeys = nkeys, keys
        vals, nvals = nvals, vals
        K, NK = NK, K
        V, NV = NV, V
        n = used
        act = act2
        merged = fill_too
        if n == 0:
            break
    # the end: complete envelopes, times the ways the universal cards fill the room left
    held = 8 * (keys.shape[0] + nkeys.shape[0]) * (1 + width) + 8 * ibuf.shape[0]
    if not afford(work, memory, held, 8 * (n + 16) * (1 + width) + 16 * n_slots(n + 16)):
        return _stopped(work, spent, 2, out_width, keys, vals, nkeys, nvals, ibuf)
    okeys_a = np.empty(n + 16, np.int64)
    ovals_a = np.zeros((n + 16, width), np.int64)  # without the ranks 0, as the states
    cdef int64_t* okeys = data(okeys_a)
    cdef int64_t* ovals = data(ovals_a)
    used = 0
    cdef Table out
    out.t = NULL
    table_for(&out, n + 16)  # at most n keys: the room suffices
    cdef int64_t key, fill
    cdef const int64_t* oc = &open_cats[0]
    try:
        for i in range(n):
            key = K[i]
            if not complete(key, oc, &eoff[0], &emask[0]):
                continue
            fill = fill_ways(core, key)
            key2 = key & keep
            j = probe(out.t, out.size, out.shift, key2)
            if out.t[2 * j] == -1:
                out.t[2 * j] = key2
                out.t[2 * j + 1] = used
                okeys[used] = key2
                used += 1
            r = out.t[2 * j + 1]
            vrow = V + i * width
            nrow = ovals + r * width
            for xx in range(act):
                nrow[xx] += vrow[xx] * fill
    finally:
        free(out.t)
    work[0] = spent
    env_a = np.empty(used, np.int64)
    tags_a = np.empty(used, np.int64)
    cdef int64_t* env = data(env_a)
    cdef int64_t* tags = data(tags_a)
    for i in range(used):
        env[i] = okeys[i] & env_all
        tags[i] = (okeys[i] >> toff) & 63
    # every rank: a vector card's rank 0 is its deals less those at the other ranks
    rows_a = np.empty((used, out_width), np.int64)
    cdef int64_t* rows = data(rows_a)
    cdef int64_t rest
    for i in range(used):
        vrow = ovals + i * width
        nrow = rows + i * out_width
        nrow[0] = vrow[0]
        for j in range(n_vec):
            rest = vrow[0]
            for xx in range(1, n_ranks):
                nrow[1 + j * n_ranks + xx] = vrow[1 + j * nr1 + xx - 1]
                rest -= vrow[1 + j * nr1 + xx - 1]
            nrow[1 + j * n_ranks] = rest
    return env_a, tags_a, rows_a, keys, vals, nkeys, nvals, ibuf


cdef tuple _stopped(int64_t* work, int64_t spent, int64_t reason, Py_ssize_t width, keys, vals, nkeys, nvals, ibuf):
    # width: the result's rows' (every rank)
    """The program's result when the budget stops it (work[1]: 1 the states, 2 the memory)."""
    work[0] = spent
    work[1] = reason
    empty = np.empty(0, np.int64)
    return empty, empty, np.zeros((0, width), np.int64), keys, vals, nkeys, nvals, ibuf


cdef tuple _rows(cnp.ndarray keys, cnp.ndarray vals, Py_ssize_t used, Py_ssize_t n):
    """The states' keys and rows with room for at least n (the first ``used`` kept)."""
    cdef Py_ssize_t size = max(2 * keys.shape[0], n)
    nk = np.empty(size, np.int64)
    nk[:used] = keys[:used]
    nv = np.empty((size, vals.shape[1]), np.int64)
    nv[:used] = vals[:used]
    return nk, nv


cdef double entropy_of(const int64_t* counts, Py_ssize_t n) noexcept nogil:
    cdef int64_t total = 0
    cdef double acc = 0.0, v
    cdef Py_ssize_t x
    for x in range(n):
        total += counts[x]
    if total == 0:
        return NAN
    for x in range(n):
        if counts[x] > 0:
            v = <double>counts[x]
            acc += v * log2(v)
    return max(0.0, log2(<double>total) - acc / total)


cdef double entropy_by_unit(const int64_t* counts, const int64_t* times, Py_ssize_t n_units,
                            const int64_t* cell_unit, Py_ssize_t n_cells, double* terms) noexcept nogil:
    """:func:`entropy_of` of the cells, from the counts of their units (a unit's count is that of
    each of its ``times[u]`` cells; ``cell_unit``: each cell's unit, -1 for none): the same terms
    summed in the same order, so the same float to the last bit, with a logarithm per unit."""
    cdef int64_t total = 0
    cdef double acc = 0.0, v
    cdef Py_ssize_t x
    for x in range(n_units):
        total += counts[x] * times[x]
        v = <double>counts[x]
        terms[x] = v * log2(v) if counts[x] > 0 else 0.0
    if total == 0:
        return NAN
    for x in range(n_cells):
        if cell_unit[x] >= 0 and counts[cell_unit[x]] > 0:
            acc += terms[cell_unit[x]]
    return max(0.0, log2(<double>total) - acc / total)


def gains_of(const int64_t[:, ::1] ids, const int64_t[::1] tags, const int64_t[:, ::1] vecs,
             const int64_t[::1] s_start, const int64_t[::1] s_pos, const int64_t[::1] w_start,
             const int64_t[::1] w_pos, const int64_t[::1] r_start, const int64_t[::1] r_pos,
             const unsigned char[::1] excluded, Py_ssize_t nw, Py_ssize_t nr, Py_ssize_t n_ranks, int64_t v_bit,
             const int64_t[::1] row_of, const int64_t[::1] fixed, const int64_t[::1] t_ranks, int64_t t_bit,
             const int64_t[::1] r_ranks, double before):
    """Each vector card's expected gain (engine.gains.gains_python) from the gain program's result,
    for each rank of the tag card in ``t_ranks`` and of the room in ``r_ranks``: an array (tag
    rank, room rank, vector card).

    The deals are summed by *unit*: with no solution ruled out, a unit is an envelope id per
    category (every solution of its cards has the same deals, counted once and weighed by their
    number); otherwise a unit is a solution (a cell)."""
    cdef Py_ssize_t n_vec = row_of.shape[0], n_cells = excluded.shape[0], n_answers = 8 * n_ranks
    cdef Py_ssize_t n_rows = ids.shape[0], j, row, rank, p, q, t, cell, answer, x, held, n_out, size, n_seen, k
    cdef Py_ssize_t na = s_start.shape[0] - 1, nb = w_start.shape[0] - 1, nc = r_start.shape[0] - 1, n_units
    cdef int64_t a, b, c, v, total, bit, ranks_seen
    cdef double weight, total_w, acc
    cdef bint grouped = True
    for cell in range(n_cells):
        if excluded[cell]:
            grouped = False
            break
    unit_a = np.full(max(na * nb * nc, 1) if grouped else 1, -1, np.int64)  # (a, b, c) -> its unit
    cdef int64_t* unit = data(unit_a)
    row_unit_a = np.empty(max(n_rows, 1), np.int64)
    cdef int64_t* row_unit = data(row_unit_a)
    times_a = np.ones(max(n_cells, n_rows, 1), np.int64)  # per unit: its solutions
    cdef int64_t* times = data(times_a)
    cell_unit_a = np.full(max(n_cells, 1), -1, np.int64)  # per cell: its unit
    cdef int64_t* cell_unit = data(cell_unit_a)
    terms_a = np.empty(max(n_rows, 1), np.float64)
    cdef double* terms = <double*>cnp.PyArray_DATA(terms_a)
    if grouped:
        n_units = 0
        for row in range(n_rows):
            a, b, c = ids[row, 0], ids[row, 1], ids[row, 2]
            x = (a * nb + b) * nc + c
            if unit[x] < 0:
                unit[x] = n_units
                times[n_units] = (s_start[a + 1] - s_start[a]) * (w_start[b + 1] - w_start[b]) * (r_start[c + 1] - r_start[c])
                for p in range(s_start[a], s_start[a + 1]):
                    for q in range(w_start[b], w_start[b + 1]):
                        for t in range(r_start[c], r_start[c + 1]):
                            cell_unit[(s_pos[p] * nw + w_pos[q]) * nr + r_pos[t]] = n_units
                n_units += 1
            row_unit[row] = unit[x]
    else:
        n_units = n_cells
    cdef Py_ssize_t zc = max(n_units, 1)
    # per answer its deals by unit; only the answers a vector card's deals reach are summed and
    # cleared (a few of the 8 * n_ranks: clearing them all took most of the time)
    z_a = np.zeros((n_answers, zc), np.int64)
    cdef int64_t* z = data(z_a)
    sums_a = np.zeros(n_answers, np.int64)
    cdef int64_t* sums = data(sums_a)
    seen_a = np.empty(n_answers, np.int64)  # the answers reached, in the order first reached
    cdef int64_t* seen = data(seen_a)
    shown_a = np.zeros(zc, np.int64)
    cdef int64_t* shown = data(shown_a)
    cdef int64_t* zrow
    out = np.empty((t_ranks.shape[0], r_ranks.shape[0], n_vec), np.float64)
    cdef double* ov = <double*>cnp.PyArray_DATA(out)
    weights_a = np.empty(3 * n_ranks + 1, np.float64)
    hs_a = np.empty(3 * n_ranks + 1, np.float64)
    cdef double[::1] weights = weights_a
    cdef double[::1] hs = hs_a
    cdef Py_ssize_t ti, ri, o
    cdef int64_t t_rank, r_rank
    for o in range(t_ranks.shape[0] * r_ranks.shape[0] * n_vec):
        ti = o // (r_ranks.shape[0] * n_vec)
        ri = o // n_vec % r_ranks.shape[0]
        j = o % n_vec
        t_rank = t_ranks[ti]
        r_rank = r_ranks[ri]
        n_seen = 0
        for row in range(n_rows):
            a, b, c = ids[row, 0], ids[row, 1], ids[row, 2]
            for rank in range(n_ranks):
                if row_of[j] >= 0:
                    v = vecs[row, 1 + row_of[j] * n_ranks + rank]
                else:
                    v = vecs[row, 0] if rank == fixed[j] else 0
                if v == 0:
                    continue
                answer = combine(combine(combine(tags[row], rank, v_bit), t_rank, t_bit), r_rank, 4)
                if sums[answer] == 0:  # first reached (a reached answer's mark: -1 until summed)
                    sums[answer] = -1
                    seen[n_seen] = answer
                    n_seen += 1
                zrow = z + answer * zc
                if grouped:
                    zrow[row_unit[row]] += v
                    continue
                for p in range(s_start[a], s_start[a + 1]):
                    for q in range(w_start[b], w_start[b + 1]):
                        for t in range(r_start[c], r_start[c + 1]):
                            cell = (s_pos[p] * nw + w_pos[q]) * nr + r_pos[t]
                            if not excluded[cell]:
                                zrow[cell] += v
        ranks_seen = 0  # the refuters' ranks of the answers with deals
        for k in range(n_seen):
            answer = seen[k]
            total = 0
            zrow = z + answer * zc
            for x in range(n_units):
                total += zrow[x] * times[x]
            sums[answer] = total
            if total:
                ranks_seen |= (<int64_t>1) << (answer >> 3)
        n_out = 0
        for rank in range(1, n_ranks):
            if not (ranks_seen >> rank) & 1:
                continue
            for bit in (1, 2, 4):
                weight = 0.0
                memset(shown, 0, zc * sizeof(int64_t))
                for held in range(1, 8):
                    answer = rank * 8 + held
                    if held & bit and sums[answer] > 0:
                        size = (held & 1) + (held >> 1 & 1) + (held >> 2 & 1)
                        weight += <double>sums[answer] / <double>size
                        zrow = z + answer * zc
                        for x in range(n_units):
                            shown[x] += zrow[x]
                if weight > 0:
                    weights[n_out] = weight
                    hs[n_out] = (entropy_by_unit(shown, times, n_units, cell_unit, n_cells, terms) if grouped
                                   else entropy_of(shown, n_cells))
                    n_out += 1
        if sums[0] > 0:
            weights[n_out] = <double>sums[0]
            hs[n_out] = entropy_by_unit(z, times, n_units, cell_unit, n_cells, terms) if grouped else entropy_of(z, n_cells)
            n_out += 1
        for k in range(n_seen):  # cleared for the next vector card
            answer = seen[k]
            memset(z + answer * zc, 0, zc * sizeof(int64_t))
            sums[answer] = 0
        total_w = 0.0
        for q in range(n_out):
            total_w += weights[q]
        if total_w == 0:
            ov[o] = before
            continue
        acc = 0.0
        for q in range(n_out):
            acc += weights[q] / total_w * hs[q]
        ov[o] = before - acc
    return out
