"""The best available gain: the expected gain (engine.answers) of every suggestion a player could
make at a moment, counted together rather than one candidate at a time.

What the candidates share. All candidates of a moment are counted on the suggester's one
knowledge, and an answer depends only on where the three named cards lie: the first player in
answer order holding one of them refutes, with the named cards they hold. Write a card's *rank*
for its holder's place in the answer order (1 for the next player, ...; 0 for the envelope, the
suggester and the duel's set-aside cards: nobody shows it). The answers to (s, w, r) and the deals
giving each follow from the joint ranks of s, w and r, with the solution.

So one run of the counting program serves every candidate that shares a room and a suspect (or
a weapon): that card and the room are placed as cards of their own and the state records the
answer they give so far (the lowest rank among them and which of them have it); every card of the
other category is placed as a card of its own too, and each state carries, per such card, its
deals split by that card's rank (a vector; placing the card moves its whole row to the rank it
got). At the end each candidate's answers and their solution counts come from the state's answer
and the card's row. Where the deals of the reference need one run per refuter and candidate (36
candidates, up to 5 runs each in a 6-player board game), this needs one run per suspect.

Cards the suggester's knowledge treats alike give equal gains: two cards of a category whose
exchange maps the knowledge onto itself (the same possible places, and clauses and ruled-out
solutions unchanged by the swap) are interchangeable, and so are the candidates naming them. One
card of each such class is counted.

Exact as the reference: the counts are the same integers (the dynamic program of engine.counting,
with more cards placed one at a time); the gains are formed from them as engine.answers does, so
they agree to the last bits of the floating-point sums (tests/test_gains.py compares them with
the reference, one candidate at a time, on every suggestion of the test corpora and on random games).
The program runs compiled (engine.gain_kernel) when the counts fit 63 bits, and as plain Python
with exact integers otherwise, like the counting program.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from clue_stats.engine import budget, counting, counting_kernel, gain_kernel
from clue_stats.engine.counting import Plan, array_entropy, envelope_entropy
from clue_stats.engine.knowledge import ENVELOPE, ROOM_CARDS, Knowledge

Triple = tuple[str, str, str]
TIE = 1e-12  # gains closer than this are equal (sums of floats over the same exact counts)
BITS = (1, 2, 4)  # the named cards of an answer, by category: suspect, weapon, room
TAG_WIDTH = 6  # bits of the answer so far in a state: lowest rank (3 bits) and which cards (3)


def interchangeable(k: Knowledge, cards: Sequence[int]) -> list[list[int]]:
    """The cards (deck indices, one category) in classes of cards the knowledge treats alike: the
    exchange of two cards of a class maps every consistent deal onto a consistent deal. In deck
    order, each class in deck order."""
    clauses = k.clauses
    excluded = k.excluded
    classes: list[list[int]] = []
    for c in cards:
        for cls in classes:
            if _swappable(k, cls[0], c, clauses, excluded):
                cls.append(c)
                break
        else:
            classes.append([c])
    return classes


def _swappable(
    k: Knowledge, a: int, b: int, clauses: frozenset[tuple[int, int]], excluded: frozenset[tuple[int, int, int]]
) -> bool:
    if k.allowed[a] != k.allowed[b]:
        return False
    both = (1 << a) | (1 << b)
    for p, m in clauses:
        if m & both and m & both != both and (p, m ^ both) not in clauses:
            return False
    for t in excluded:
        if a in t or b in t:
            swapped = tuple(b if x == a else a if x == b else x for x in t)
            if swapped not in excluded:
                return False
    return True


def ranks(k: Knowledge, suggester: str) -> list[int]:
    """Per place: 0 for the envelope, the suggester and the set-aside cards, else the place's
    player's position in the answer order (1 for the next player clockwise)."""
    players = k.players
    seat = players.index(suggester)
    out = []
    for place in k.places:
        if place in (ENVELOPE, ROOM_CARDS) or place == suggester:
            out.append(0)
        else:
            out.append((players.index(place) - seat) % len(players))
    return out


def combine(answer: int, rank: int, bit: int) -> int:
    """The answer so far (lowest rank << 3 | the named cards with it) after a named card got a rank."""
    if rank == 0:
        return answer
    low = answer >> 3
    if low == 0 or rank < low:
        return rank << 3 | bit
    if rank == low:
        return answer | bit
    return answer


@dataclass
class _Layout:
    """How the candidates of a moment are counted: the classes of interchangeable cards, which
    category's classes get a run each (the *tag* category) and which are counted as vectors."""

    before: float
    tag_cat: int  # 0: a run per suspect class, the weapons as vectors; 1: the reverse
    tag_classes: list[list[int]]
    vec_classes: list[list[int]]
    r_classes: list[list[int]]
    rank_of: list[int]
    runs: list[tuple[int, list[tuple[list[int], int]]]]  # (the run's tag card or -1, its finals)
    room_runs: list[tuple[int, list[tuple[list[int], int]]]]  # the same for the rooms


def _layout(k: Knowledge, suggester: str, rooms: Sequence[str]) -> _Layout:
    suspects, weapons, _ = k.category_indices()
    s_classes, w_classes = interchangeable(k, suspects), interchangeable(k, weapons)
    r_classes = interchangeable(k, sorted({k.card_index[r] for r in rooms}))
    rank_of = ranks(k, suggester)

    # a run per unknown class of one category and one for all its known cards (their rank joins
    # the answer at the end: the answer does not depend on the order the cards are placed in); the
    # category needing fewer runs is the one the runs are for, every card of the other is a vector
    def runs_needed(classes: list[list[int]]) -> int:
        known = sum(1 for cls in classes if _known(k, cls[0]))
        return len(classes) - known + (known > 0)

    tag_classes, vec_classes, tag_cat = (
        (s_classes, w_classes, 0) if runs_needed(s_classes) <= runs_needed(w_classes) else (w_classes, s_classes, 1)
    )
    return _Layout(
        envelope_entropy(k),
        tag_cat,
        tag_classes,
        vec_classes,
        r_classes,
        rank_of,
        _runs(k, tag_classes, rank_of),
        _runs(k, r_classes, rank_of),
    )


def _runs(k: Knowledge, classes: list[list[int]], rank_of: list[int]) -> list[tuple[int, list[tuple[list[int], int]]]]:
    """A run per class of cards not known, placing its card; one for every known class, whose
    card's rank (where it is known to be) joins each answer at the end: (the card placed or -1,
    its finals: (class, the rank joined))."""
    runs = [(cls[0], [(cls, 0)]) for cls in classes if not _known(k, cls[0])]
    known = [(cls, rank_of[_place(k, cls[0])]) for cls in classes if _known(k, cls[0])]
    if known:
        runs.append((-1, known))
    return runs


def candidate_gains(
    k: Knowledge, suggester: str, rooms: Sequence[str], exact: bool = False
) -> dict[tuple[int, int, int], float]:
    """The expected gain (engine.answers.expected_gain) of every candidate (suspect, weapon, room),
    by deck indices, the rooms those given. ``exact`` runs the plain-Python program with exact
    integers even where the compiled one fits (the reference the tests compare it with)."""
    suspects, weapons, _ = k.category_indices()
    if not k.consistent:  # no deal: every candidate's gain is the entropy before, nan (as expected_gain)
        before = envelope_entropy(k)
        return {(s, w, k.card_index[r]): before for s in suspects for w in weapons for r in rooms}
    lay = _layout(k, suggester, rooms)
    t_bit, v_bit = BITS[lay.tag_cat], BITS[1 - lay.tag_cat]
    vec_cards = [cls[0] for cls in lay.vec_classes]
    out: dict[tuple[int, int, int], float] = {}
    moment = _Moment.of(k)
    for r, r_finals in lay.room_runs:
        for t, finals in lay.runs:
            gains = _run_gains(
                k, lay.before, lay.rank_of, t, t_bit, r, vec_cards, v_bit, finals, r_finals, exact, moment
            )
            for (t_cls, _), by_room in zip(finals, gains):
                for (r_cls, _), row in zip(r_finals, by_room):
                    for v_cls, gain in zip(lay.vec_classes, row):
                        for a in t_cls:
                            for b in v_cls:
                                for rr in r_cls:
                                    out[(a, b, rr) if lay.tag_cat == 0 else (b, a, rr)] = gain
    return out


def suggestion_gain(
    k: Knowledge, suggester: str, triple: Triple, rooms: Sequence[str] | None = None, exact: bool = False
) -> float:
    """The expected gain of one suggestion (engine.answers.expected_gain), counted as
    :func:`candidate_gains` counts it among the candidates of ``rooms`` (by default the
    suggestion's room), to the last bit: the same run for its cards' classes, with only its own
    card of the other category placed. One run, where engine.answers needs one per refuter."""
    s, w, r = (k.card_index[c] for c in triple)
    if not k.consistent:
        return envelope_entropy(k)
    lay = _layout(k, suggester, rooms if rooms is not None else (triple[2],))
    t_card, v_card = (s, w) if lay.tag_cat == 0 else (w, s)
    t_cls = next(cls for cls in lay.tag_classes if t_card in cls)
    r_cls = next(cls for cls in lay.r_classes if r in cls)
    v_rep = next(cls for cls in lay.vec_classes if v_card in cls)[0]
    t, final = _final(lay.runs, t_cls)
    r_run, r_final = _final(lay.room_runs, r_cls)
    t_bit, v_bit = BITS[lay.tag_cat], BITS[1 - lay.tag_cat]
    return _run_gains(k, lay.before, lay.rank_of, t, t_bit, r_run, [v_rep], v_bit, [final], [r_final], exact)[0][0][0]


def _final(runs: list[tuple[int, list[tuple[list[int], int]]]], cls: list[int]) -> tuple[int, tuple[list[int], int]]:
    """The run serving a class, and the class's final in it."""
    return next((card, f) for card, finals in runs for f in finals if f[0] is cls)


def best_suggestion(k: Knowledge, suggester: str, rooms: Sequence[str], exact: bool = False) -> tuple[float, Triple]:
    """The largest expected gain over every suspect x weapon x the given rooms, and its suggestion
    (the first in deck order among equals): engine.answers.expected_gain of every candidate, counted
    together (see the module's docstring)."""
    if not rooms:
        raise ValueError("no room to suggest in")
    return best_of(k, candidate_gains(k, suggester, rooms, exact), rooms)


def best_of(k: Knowledge, gains: dict[tuple[int, int, int], float], rooms: Sequence[str]) -> tuple[float, Triple]:
    """The largest of the candidates' gains (from :func:`candidate_gains` over ``rooms``) and its
    suggestion, the first in deck order among equals."""
    cards = k.deck.cards
    suspects, weapons, _ = k.category_indices()
    best: tuple[float, Triple] | None = None
    for room in rooms:
        r = k.card_index[room]
        for s in suspects:
            for w in weapons:
                gain = gains[(s, w, r)]
                if best is None or gain > best[0] + TIE:
                    best = (gain, (cards[s], cards[w], room))
    if best is None:
        raise ValueError("no room to suggest in")
    return best


# -- one run: a card of one category and the room, with every card of the other category ----------


@dataclass
class _Moment:
    """What the runs of one moment's candidates have in common: the solutions ruled out (as the
    gains read them), the clause cards, and the plans made so far. A plan places every clause card
    as a card of its own already, so runs whose answer's cards are clause cards share one."""

    excluded: np.ndarray  # [suspect, weapon, room], by position in each category
    clause_cards: int  # a mask of deck indices
    plans: dict[tuple[int, ...], tuple[Plan, tuple[np.ndarray, ...] | None]] = field(default_factory=dict)

    @classmethod
    def of(cls, k: Knowledge) -> _Moment:
        ns, nw, nr = counting._shape(k)
        excluded = np.zeros((ns, nw, nr), dtype=np.bool_)
        for s, w, r in k.excluded:
            excluded[s, w - ns, r - ns - nw] = True
        clause_cards = 0
        for _, m in k.clauses:
            clause_cards |= m
        return cls(excluded, clause_cards)

    def plan(self, k: Knowledge, alone: tuple[int, ...]) -> tuple[Plan, tuple[np.ndarray, ...] | None]:
        """The plan placing ``alone`` (the carried cards, then the answer's) as cards of their own,
        and its cells (gain_kernel.cells) if the compiled program can run it (else None)."""
        key = tuple(c for c in alone if not self.clause_cards >> c & 1)
        made = self.plans.get(key)
        if made is None:
            pl = counting.plan(k, alone=key)
            cells = gain_kernel.cells(pl, self.excluded.shape) if gain_kernel.fits(pl, TAG_WIDTH) else None
            made = self.plans[key] = (pl, cells)
        return made


def _run_gains(
    k: Knowledge,
    before: float,
    rank_of: list[int],
    t: int,
    t_bit: int,
    r: int,
    vec_cards: list[int],
    v_bit: int,
    finals: list[tuple[list[int], int]],
    r_finals: list[tuple[list[int], int]],
    exact: bool,
    moment: _Moment | None = None,
) -> list[list[list[float]]]:
    """Expected gain of (t2, v, r2) for each (class of t2, rank) of ``finals``, each (class of r2,
    rank) of ``r_finals`` and each v of vec_cards, from one run. The run places t and r (each
    unknown; -1: none) in its answer; each final's rank (0 for the card placed) joins the answer at
    the end. ``moment``: what the runs of k's candidates have in common (made here if not given)."""
    moment = moment or _Moment.of(k)
    unknown_vec = [c for c in vec_cards if not _known(k, c)]
    # the vector cards first, then the answer's cards: the answer so far splits the states, so the
    # later it comes the fewer states carry it (measured on benchmarks/best_gain.py's games)
    pl, cells = moment.plan(k, (*unknown_vec, *(c for c in (t, r) if c >= 0)))
    excluded = moment.excluded
    hand_rank = [rank_of[p] for p in pl.open_places]
    n_ranks = max(rank_of) + 1
    role_bit = [0] * len(pl.steps)
    role_vec = [-1] * len(pl.steps)
    row_of = [-1] * len(vec_cards)  # per vector card: its row, in the order the steps place them
    rows = 0
    for s, c in enumerate(pl.step_cards):
        if c < 0:
            continue
        if c == t:
            role_bit[s] = t_bit
        elif c == r and r >= 0:
            role_bit[s] = 4
        elif c in unknown_vec:
            role_vec[s] = rows
            row_of[vec_cards.index(c)] = rows
            rows += 1
    fixed = [rank_of[_place(k, c)] if _known(k, c) else -1 for c in vec_cards]
    width = 1 + rows * n_ranks
    if not exact and cells is not None:
        result = gain_kernel.run(pl, hand_rank, role_bit, role_vec, width, n_ranks)
        t_ranks = [rank for _, rank in finals]
        r_ranks = [rank for _, rank in r_finals]
        out: list[list[list[float]]] = gain_kernel.gains(
            result, cells, excluded, row_of, fixed, n_ranks, v_bit, t_ranks, t_bit, r_ranks, before
        )
        return out
    maps = counting._card_maps(k, pl)
    by_env = run_python(pl, hand_rank, role_bit, role_vec, width, n_ranks)
    return [
        [
            gains_python(by_env, maps, excluded, row_of, fixed, n_ranks, v_bit, t_rank, t_bit, r_rank, before)
            for _, r_rank in r_finals
        ]
        for _, t_rank in finals
    ]


def _known(k: Knowledge, c: int) -> bool:
    return k.allowed[c] & (k.allowed[c] - 1) == 0


def _place(k: Knowledge, c: int) -> int:
    return k.allowed[c].bit_length() - 1


def run_python(
    pl: Plan,
    hand_rank: list[int],
    role_bit: list[int],
    role_vec: list[int],
    width: int,
    n_ranks: int,
) -> dict[tuple[int, int, int, int], list[int]]:
    """The counting program (engine.counting.run_python) with the answer so far in the state and a
    row of deals per state: (envelope id per category, answer) -> [deals, then per vector card
    placed (in the order of its steps) its deals by rank]. Exact Python integers."""
    n_hands = len(pl.caps)
    # under a budget (engine.budget), stop once more states are generated than the count's
    # allowance, or the states held (of the step before and this one) pass its memory
    spending = budget.current()
    per_state = budget.BYTES_PER_HELD_STATE_PYTHON + budget.BYTES_PER_ROW_COUNT_PYTHON * width
    left, memory = spending.allowance() if spending is not None else (0, 0)
    spent = 0
    held = 1
    states: dict[tuple[Any, ...], list[int]] = {(pl.caps, (0, 0, 0), 0, 0): [1] + [0] * (width - 1)}
    for s, st in enumerate(pl.steps.tolist()):
        bit, j = role_bit[s], role_vec[s]
        new: dict[tuple[Any, ...], list[int]] = {}
        for (caps, env, met, tag), vec in states.items():
            for caps2, env2, met2, ways in counting._successors(st, n_hands, caps, env, met):
                tag2 = tag
                vec2 = [x * ways for x in vec]
                if bit or j >= 0:
                    rank = 0 if env2 != env else hand_rank[next(h for h in range(n_hands) if caps2[h] != caps[h])]
                    if bit:
                        tag2 = combine(tag, rank, bit)
                    if j >= 0:
                        vec2[1 + j * n_ranks + rank] = vec2[0]
                key = (caps2, env2, met2, tag2)
                old = new.get(key)
                new[key] = vec2 if old is None else [a + b for a, b in zip(old, vec2)]
                spent += 1
                if spending is not None and (spent > left or (len(states) + len(new)) * per_state > memory):
                    raise spending.stopped(spent, left, (len(states) + len(new)) * per_state)
        held = max(held, len(states) + len(new))
        states = new
        if not states:
            break
    if spending is not None:
        spending.spend(spent, held * per_state)
    if not states:
        return {}
    out: dict[tuple[int, int, int, int], list[int]] = {}
    for (caps, env, _, tag), vec in states.items():
        if any(is_open and not e for is_open, e in zip(pl.open_categories, env)):
            continue
        fill = counting_kernel.fill_ways(caps)
        ids = (env[0], env[1], env[2], tag)
        sums = out.get(ids, [0] * len(vec))
        out[ids] = [a + fill * b for a, b in zip(sums, vec)]
    return out


def gains_python(
    by_env: dict[tuple[int, int, int, int], list[int]],
    maps: tuple[np.ndarray, np.ndarray, np.ndarray],
    excluded: np.ndarray,
    row_of: list[int],
    fixed: list[int],
    n_ranks: int,
    v_bit: int,
    t_rank: int,
    t_bit: int,
    r_rank: int,
    before: float,
) -> list[float]:
    """Each vector card's expected gain from the result of :func:`run_python` (a vector card known
    to be at rank ``fixed[j]`` has no row: all its deals have that rank), the tag card's rank
    ``t_rank`` and the room's ``r_rank`` joining the answer, as engine.answers forms it: the answers (refuter by rank, card
    shown in suspect, weapon, room order; then nobody), their chances (a refuter holding j named
    cards shows each with chance 1/j) and the entropy of the solutions after each."""
    shape = tuple(len(m) for m in maps)
    out = []
    for j in range(len(row_of)):
        by_answer: dict[int, np.ndarray] = {}
        for (a, b, c, tag), vec in by_env.items():
            for rank in range(n_ranks):
                if row_of[j] >= 0:
                    n = vec[1 + row_of[j] * n_ranks + rank]
                else:
                    n = vec[0] if rank == fixed[j] else 0
                if n:
                    answer = combine(combine(combine(tag, rank, v_bit), t_rank, t_bit), r_rank, 4)
                    if answer not in by_answer:
                        by_answer[answer] = np.zeros(tuple(x + 2 for x in shape), dtype=object)
                    by_answer[answer][a, b, c] += n
        dense = {}
        for answer, by_id in by_answer.items():
            d = by_id[np.ix_(*maps)]
            d[excluded] = 0
            dense[answer] = d
        out.append(_gain(dense, n_ranks, before))
    return out


def _gain(dense: dict[int, np.ndarray], n_ranks: int, before: float) -> float:
    outcomes: list[tuple[Fraction, float]] = []
    for rank in range(1, n_ranks):
        for bit in BITS:
            weight = Fraction(0)
            shown: np.ndarray | None = None
            for answer, counts in dense.items():
                if answer >> 3 == rank and answer & bit:
                    weight += Fraction(int(counts.sum()), (answer & 7).bit_count())
                    shown = counts if shown is None else shown + counts
            if weight:
                assert shown is not None
                outcomes.append((weight, array_entropy(shown)))
    nobody = dense.get(0)
    if nobody is not None and int(nobody.sum()):
        outcomes.append((Fraction(int(nobody.sum())), array_entropy(nobody)))
    total = sum(weight for weight, _ in outcomes)
    if not total:
        return before
    return before - sum(float(weight / total) * h for weight, h in outcomes)
