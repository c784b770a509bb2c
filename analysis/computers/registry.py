"""The statistics of one game, each a small computer (slippi-js's ``StatComputer``): a pure core
function in its own module (information, accusations, statements, giveaway, suggestions) behind one protocol,
and registered once, in :data:`COMPUTERS`. A computer reads the game through a :class:`GameAnalysis`
(the deduction work the computers share: each observer's knowledge timeline, the entropy table)
and the results of the computers before it, and returns a typed result; the result says which
stored columns it fills (:class:`ingest.store.Columns`) and the store maps them onto the game's
rows. Adding a statistic: a computer here, registered in COMPUTERS, its columns declared in
``ingest/store/schema.py`` (with the analysis version that adds them), its definition in
docs/analysis.md.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar

from clue_stats.analysis.computers import accusations, giveaway, information, statements, suggestions
from clue_stats.analysis.words import N_
from clue_stats.engine import budget, deduction, rules
from clue_stats.engine.game import Accuse, Game, Suggest
from clue_stats.engine.knowledge import Knowledge
from clue_stats.engine.markers import T_, Said
from clue_stats.engine.problems import Problem
from clue_stats.engine.rules import Replay
from clue_stats.ingest.store import Columns


class GameAnalysis:
    """One game and the shared, lazily computed inputs of the computers, with the level asked for
    (``review``) and the budget of a stage (``limits``; None: no limit)."""

    def __init__(
        self, game: Game, replay: Replay | None = None, review: bool = True, limits: budget.Limits | None = None
    ) -> None:
        self.game = game
        self._replay = replay
        self.review = review
        self.limits = limits
        self._timelines: dict[str | None, list[Knowledge]] = {}
        self._entropies: dict[str | None, list[float]] | None = None

    @property
    def replay(self) -> Replay:
        if self._replay is None:
            self._replay = rules.replay(self.game)
        return self._replay

    def timeline(self, observer: str | None) -> list[Knowledge]:
        if observer not in self._timelines:
            self._timelines[observer] = deduction.knowledge_timeline(self.game, observer)
        return self._timelines[observer]

    def before(self, observer: str | None, seq: int) -> Knowledge:
        """The observer's knowledge just before record ``seq`` (after seq - 1)."""
        return self.timeline(observer)[seq - 1]

    @property
    def entropies(self) -> dict[str | None, list[float]]:
        if self._entropies is None:
            self._entropies = deduction.entropy_table(self.game, self.timeline)
        return self._entropies

    @property
    def entropies_if_built(self) -> dict[str | None, list[float]] | None:
        return self._entropies

    def partial(self) -> dict[str | None, bool]:
        return {o: deduction.partial_view(self.game, o) for o in deduction.observers(self.game)}


class Result(Protocol):
    def columns(self) -> list[Columns]:
        """The stored columns this result fills."""
        ...

    @property
    def computed(self) -> bool:
        """Whether the result holds anything the analysis found (a game with none is not analysed)."""
        ...


R = TypeVar("R")


@dataclass
class Results:
    """The results of the computers that have run, by their type."""

    found: dict[type, Any] = field(default_factory=dict)

    def add(self, result: Any) -> None:
        self.found[type(result)] = result

    def of(self, kind: type[R]) -> R | None:
        return self.found.get(kind)


class StatComputer(Protocol):
    what: ClassVar[str]  # what it computes, in words: "every observer's information"
    # True: it spends the budget in stages of its own (a result and its cuts); else one stage, cut whole
    own_stages: ClassVar[bool]

    def compute(self, ctx: GameAnalysis, done: Results) -> Result | None:
        """The result (None: what it needs was not computed); may raise budget.BudgetExceeded."""
        ...


# ---------------------------------------------------------------- information


@dataclass
class Information:
    rows: list[dict[str, Any]]
    computed: bool = True
    _gains: dict[tuple[str | None, int], float] | None = field(default=None, repr=False)

    def columns(self) -> list[Columns]:
        return [Columns("information", rows=self.rows)]

    def gain(self, observer: str, seq: int) -> float | None:
        """What the observer learned at record ``seq``, in bits (None: no such row)."""
        if self._gains is None:
            self._gains = {(row["observer"], row["seq"]): row["gain_bits"] for row in self.rows}
        return self._gains.get((observer, seq))


class InformationComputer:
    what: ClassVar[str] = N_("every observer's information (the entropy over the game)")
    own_stages: ClassVar[bool] = False

    def compute(self, ctx: GameAnalysis, done: Results) -> Information:
        return Information(information.information_rows(ctx.game, ctx.entropies, ctx.partial()))


# ---------------------------------------------------------------- certainty, accusations, missed wins


def _eliminated_at(game: Game, replay: Replay, player: str) -> int | None:
    """The record of the wrong accusation that put ``player`` out (None: not out, or no such record)."""
    if player not in replay.eliminated:
        return None
    wrong = [
        r.seq
        for r in game.records
        if isinstance(r, Accuse)
        and r.player == player
        and (r.correct if r.correct is not None else (r.cards == replay.solution if replay.solution else None))
        is not True
    ]
    return min(wrong) if wrong else None


@dataclass
class Certainty:
    certain: dict[str, int | None]  # player -> the first record after which they were certain
    timing: dict[int, dict[str, Any]]  # accusation seq -> p_correct, first_certain_seq, turns_waited
    missed: dict[str, bool]
    computed: bool = True

    def columns(self) -> list[Columns]:
        players = {n: {"first_certain_seq": self.certain[n], "missed_win": self.missed[n]} for n in self.certain}
        return [Columns("accusations", "seq", self.timing), Columns("players", "name", players)]


class CertaintyComputer:
    what: ClassVar[str] = N_("when each player became certain, the accusations' timing and missed wins")
    own_stages: ClassVar[bool] = False

    def compute(self, ctx: GameAnalysis, done: Results) -> Certainty:
        game, replay = ctx.game, ctx.replay
        certain = accusations.certainty(game, ctx.timeline, ctx.entropies_if_built)
        timing = accusations.accusation_columns(game, ctx.timeline, certain)
        missed = {
            n: accusations.missed_win(game, n, certain[n], replay.winner == n, _eliminated_at(game, replay, n))
            for n in certain
        }
        return Certainty(certain, timing, missed)


# ---------------------------------------------------------------- what the players stated, graded


@dataclass
class Statements:
    graded: list[dict[str, Any]]  # the statements table's rows
    players: list[str]

    @property
    def computed(self) -> bool:  # a game with nothing stated computes nothing here
        return bool(self.graded)

    def columns(self) -> list[Columns]:
        per_player = {}
        for name in self.players:
            precision, recall = statements.precision_recall([g for g in self.graded if g["player"] == name])
            per_player[name] = {"stated_precision": precision, "stated_recall": recall}
        return [Columns("statements", rows=self.graded), Columns("players", "name", per_player)]


class StatementsComputer:
    what: ClassVar[str] = N_("the grading of what the players stated")
    own_stages: ClassVar[bool] = False

    def compute(self, ctx: GameAnalysis, done: Results) -> Statements:
        return Statements(statements.statement_rows(ctx.game, ctx.before), list(ctx.game.names))


# ---------------------------------------------------------------- what the refuters gave away


@dataclass
class Giveaway:
    given: dict[int, float | None]  # suggestion seq -> giveaway_bits
    choices: dict[int, int | None]  # suggestion seq -> refuter_choices: the named cards the first refuter held

    @property
    def computed(self) -> bool:
        return any(v is not None for v in self.given.values())

    def columns(self) -> list[Columns]:
        return [
            Columns(
                "suggestions",
                "seq",
                {s: {"giveaway_bits": v, "refuter_choices": self.choices[s]} for s, v in self.given.items()},
            )
        ]


class GiveawayComputer:
    what: ClassVar[str] = N_("what the refuters gave away")
    own_stages: ClassVar[bool] = False

    def compute(self, ctx: GameAnalysis, done: Results) -> Giveaway:
        game = ctx.game
        choices = {r.seq: giveaway.refuter_choices(game, r) for r in game.records if isinstance(r, Suggest)}
        return Giveaway(giveaway.giveaway_columns(game, ctx.before), choices)


# ---------------------------------------------------------------- the suggestions' review


@dataclass(frozen=True)
class Cut:
    """A stage of the analysis the budget stopped: what it left out, in words, and why."""

    what: str | Said  # "the review of the suggestions from line 14 (turn 3) to line 52 (turn 40)"
    reason: str  # the budget's message: which limit stopped the count
    seq: int = 0  # the first record left out (0: the game as a whole)
    line: int | None = None
    said: Said | None = None  # the budget's message as template and values (engine.budget)

    def problem(self) -> Problem:
        """The over_budget problem; its message starts with ANALYSIS_CUT, as the store finds it."""
        what = self.what if isinstance(self.what, Said) else Said(self.what)  # a stage's what: a template of its own
        message = T_("the analysis left out {what}: {reason}", what=what, reason=self.said or self.reason)
        return Problem.of("over_budget", message, seq=self.seq, line=self.line)


def suggestions_at(game: Game, records: Sequence[Suggest]) -> Said:
    """ "the suggestion at line 14 (turn 3)", "the suggestions from line 14 (turn 3) to line 52 (turn
    40)": records by the line of the file they came from and the turn (Game.where), as a phrase of a
    problem's message."""
    if len(records) == 1:
        return T_("the suggestion at {where}", where=game.where(records[0].seq))
    return T_(
        "the suggestions from {first} to {last}", first=game.where(records[0].seq), last=game.where(records[-1].seq)
    )


def stage(limits: budget.Limits | None) -> contextlib.AbstractContextManager[object]:
    """A fresh budget for one stage (none: no limit, the engine as a library)."""
    return budget.limited(limits) if limits is not None else contextlib.nullcontext()


@dataclass
class Review:
    players: list[str]
    suggestions: list[Suggest]  # every suggestion of the game
    rated: list[Suggest]  # those whose suggester's hand is in the log
    scored: dict[int, dict[str, Any]]  # seq -> the suggestion's analysis columns, of those counted
    cuts: list[Cut]

    @property
    def computed(self) -> bool:
        return bool(self.scored)

    def own(self, player: str) -> list[int]:
        return [r.seq for r in self.rated if r.player == player]

    def columns(self) -> list[Columns]:
        per_suggestion = {r.seq: self.scored.get(r.seq, suggestions.UNRATED) for r in self.suggestions}
        players = {}
        for name in self.players:
            own = self.own(name)
            reviewed = [
                (self.scored[s]["expected_gain_bits"], self.scored[s]["best_gain_bits"])
                for s in own
                if s in self.scored and self.scored[s]["best_gain_bits"] is not None
            ]
            players[name] = {
                "rated_suggestions": len(own),
                "review_accuracy": suggestions.review_accuracy(reviewed) if len(reviewed) == len(own) else None,
            }
        return [Columns("suggestions", "seq", per_suggestion), Columns("players", "name", players)]


class ReviewComputer:
    """The review (or, at the lighter level, the expected gain alone) of every rated suggestion, in
    record order: a suggestion whose count passes the budget cuts the review from it on, and those
    left get their expected gain in a stage of their own."""

    what: ClassVar[str] = N_("the review of the suggestions")
    own_stages: ClassVar[bool] = True

    def compute(self, ctx: GameAnalysis, done: Results) -> Review:
        game = ctx.game
        hands = game.hands()
        every = [r for r in game.records if isinstance(r, Suggest)]
        review = Review(list(game.names), every, [r for r in every if r.player in hands], {}, [])
        pending = review.rated
        if ctx.review:
            pending, exc = self._score_until_cut(ctx, pending, True, review.scored)
            if exc is not None:
                review.cuts.append(
                    Cut(
                        T_("the review of {suggestions}", suggestions=suggestions_at(game, pending)),
                        exc.message,
                        pending[0].seq,
                        pending[0].line,
                        exc.said,
                    )
                )
        if pending:  # the expected gain alone, of those the review did not reach (or of all: the lighter level)
            left, exc = self._score_until_cut(ctx, pending, False, review.scored)
            if exc is not None:
                review.cuts.append(
                    Cut(
                        T_("the expected gain of {suggestions}", suggestions=suggestions_at(game, left)),
                        exc.message,
                        left[0].seq,
                        left[0].line,
                        exc.said,
                    )
                )
        return review

    @staticmethod
    def _score_until_cut(
        ctx: GameAnalysis, records: list[Suggest], review: bool, out: dict[int, dict[str, Any]]
    ) -> tuple[list[Suggest], budget.BudgetExceeded | None]:
        with stage(ctx.limits):
            for i, r in enumerate(records):
                try:
                    out[r.seq] = suggestions.score(ctx.game, r, ctx.before(r.player, r.seq), review)
                except budget.BudgetExceeded as exc:
                    return records[i:], exc
        return [], None


# ---------------------------------------------------------------- information gained against expected


def gained_against_expected(gained: float | None, expected: float | None) -> float | None:
    """Bits a suggestion actually taught its suggester less the bits it was expected to (positive:
    the answer taught more than the average answer would have)."""
    return None if gained is None or expected is None else gained - expected


@dataclass
class GainedAgainstExpected:
    gained: dict[int, float | None]  # rated suggestion seq -> bits the suggester gained at it
    against: dict[int, float | None]  # ... less its expected gain
    players: dict[str, float | None]  # player -> the sum over their rated suggestions
    computed: bool = False  # read from the information and the review: adds nothing of its own

    def columns(self) -> list[Columns]:
        per_suggestion = {
            s: {"gained_bits": self.gained[s], "gained_vs_expected_bits": self.against[s]} for s in self.gained
        }
        per_player = {n: {"gained_vs_expected_bits": v} for n, v in self.players.items()}
        return [Columns("suggestions", "seq", per_suggestion), Columns("players", "name", per_player)]


class GainedAgainstExpectedComputer:
    """The game review's "information gained against expected" (issue 23): per rated suggestion,
    the bits its suggester actually gained at it against its expected gain; per player, the sum."""

    what: ClassVar[str] = N_("the information gained against expected")
    own_stages: ClassVar[bool] = False

    def compute(self, ctx: GameAnalysis, done: Results) -> GainedAgainstExpected | None:
        info, review = done.of(Information), done.of(Review)
        if info is None or review is None:
            return None
        gained = {r.seq: info.gain(r.player, r.seq) for r in review.rated}
        expected = {s: review.scored.get(s, suggestions.UNRATED)["expected_gain_bits"] for s in gained}
        against = {s: gained_against_expected(gained[s], expected[s]) for s in gained}
        players: dict[str, float | None] = {}
        for name in review.players:
            own = [against[s] for s in review.own(name)]
            players[name] = sum(v for v in own if v is not None) if own and None not in own else None
        return GainedAgainstExpected(gained, against, players)


# Every statistic of one game, in the order they run (a computer reads the results of those before it).
COMPUTERS: list[StatComputer] = [
    InformationComputer(),
    CertaintyComputer(),
    StatementsComputer(),
    GiveawayComputer(),
    ReviewComputer(),
    GainedAgainstExpectedComputer(),
]


def run_computers(ctx: GameAnalysis, computers: Sequence[StatComputer] = COMPUTERS) -> tuple[list[Any], list[Cut]]:
    """Every computer in turn, each under a fresh budget of ``ctx.limits``: one past it is cut (its
    columns left empty) and the others keep their results. Returns the results and the cuts."""
    done = Results()
    cuts: list[Cut] = []
    for computer in computers:
        try:
            if computer.own_stages:
                result = computer.compute(ctx, done)
            else:
                with stage(ctx.limits):
                    result = computer.compute(ctx, done)
        except budget.BudgetExceeded as exc:
            cuts.append(Cut(computer.what, exc.message, line=ctx.game.header_line, said=exc.said))
            continue
        if result is not None:
            done.add(result)
            cuts.extend(getattr(result, "cuts", ()))
    return list(done.found.values()), cuts
