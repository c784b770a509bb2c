"""The analysis of one game: :func:`analyse_game` takes a game and returns every row it adds to the
store, analysis included. Ingest, `clue-stats analyse`, the report and the Dask path all call it.

Each computer (information, suggestions, giveaway, accusations) is a pure function of the game and
of what the deduction engine says about it; this module only shares that work between them (each
observer's knowledge timeline is built once, the entropy table once) and writes the results into
the :class:`ingest.store.GameRows` the store will write.

The review (the best available gain, the best suggestion, accuracy, bits lost and label of every
rated suggestion, and each player's review accuracy) is the costliest part: every candidate
suggestion, every answer to it. Ingest computes it by default; the lighter level leaves it out.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from clue_stats.analysis import accusations, giveaway, information, statements, suggestions
from clue_stats.engine import budget, deduction, rules
from clue_stats.engine.game import Game, Suggest
from clue_stats.engine.knowledge import Knowledge
from clue_stats.engine.problems import Problem
from clue_stats.engine.rules import Replay
from clue_stats.ingest.rows import game_rows, problem_row
from clue_stats.ingest.store import ANALYSIS_CUT, GameRows

# Raise when a change alters any analysis column: `clue-stats analyse` recomputes older games.
# 2: the whole review by default, who is rated, labels from bits lost, review accuracy, missed_win.
# 3: the players' statements graded (statements, players.stated_precision and stated_recall).
ANALYSIS_VERSION = 3


class GameAnalysis:
    """The shared, lazily computed inputs of the computers for one game."""

    def __init__(self, game: Game):
        self.game = game
        self._timelines: dict[str | None, list[Knowledge]] = {}
        self._entropies: dict[str | None, list[float]] | None = None

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

    def partial(self) -> dict[str | None, bool]:
        return {o: deduction.partial_view(self.game, o) for o in deduction.observers(self.game)}


# What the first stages leave out when the budget cuts them (games.analysis_cut holds it then).
INFORMATION_STAGE = "every observer's information (the entropy over the game)"
CERTAINTY_STAGE = "when each player became certain, the accusations' timing and missed wins"


def information_kept(header: dict[str, Any]) -> bool:
    """Whether a game's stored analysis (its ``games`` row) holds its information rows."""
    return header.get("analysis_version") is not None and INFORMATION_STAGE not in (header.get("analysis_cut") or "")


def analysis_words(version: int | None, cut: str | None) -> str:
    """A stored game's analysis in words, from its ``games`` row (the games list, the replay)."""
    if version is None:
        return "not analysed"
    if version < ANALYSIS_VERSION:
        return f"analysed by an older version ({version})"
    if cut:
        return f"partly analysed: the counting budget left out {cut}"
    return "analysed"


@dataclass(frozen=True)
class Cut:
    """A stage of the analysis the budget stopped: what it left out, in words, and why."""

    what: str  # "the review of the suggestions at records 12 to 40"
    reason: str  # the budget's message: which limit stopped the count
    seq: int = 0  # the first record left out (0: the game as a whole)
    line: int | None = None

    def problem(self) -> Problem:
        return Problem("over_budget", f"{ANALYSIS_CUT}{self.what}: {self.reason}", seq=self.seq, line=self.line)


def _stage(limits: budget.Limits | None) -> contextlib.AbstractContextManager:
    """A fresh budget for one stage (none: no limit, the engine as a library)."""
    return budget.limited(limits) if limits is not None else contextlib.nullcontext()


def suggestions_at(records: list[Suggest]) -> str:
    """ "the suggestion at record 12", "the suggestions at records 12 to 40": records by their seq,
    the number the replay and the report show."""
    if len(records) == 1:
        return f"the suggestion at record {records[0].seq}"
    return f"the suggestions at records {records[0].seq} to {records[-1].seq}"


def _score_until_cut(
    game: Game,
    records: list[Suggest],
    ctx: GameAnalysis,
    review: bool,
    limits: budget.Limits | None,
    out: dict[int, dict[str, Any]],
) -> tuple[list[Suggest], budget.BudgetExceeded | None]:
    """Score the suggestions in record order under one stage's budget, into ``out``; those from the
    one whose count passed it on are returned, with the reason."""
    with _stage(limits):
        for i, r in enumerate(records):
            try:
                out[r.seq] = suggestions.score(game, r, ctx.before(r.player, r.seq), review)
            except budget.BudgetExceeded as exc:
                return records[i:], exc
    return [], None


def _annotate(rows: GameRows, game: Game, review: bool = True, limits: budget.Limits | None = None) -> list[Cut]:
    """Fill the analysis columns and ``information`` rows of a game's rows, in place, stage by stage:
    every observer's information; certainty, accusation timing and missed wins; what refuters gave
    away; the suggestions' review (or, without ``review``, their expected gain). Each stage runs
    under a fresh budget of ``limits`` (None: no limit); a stage past it leaves its columns empty
    (the review from the suggestion whose count passed it on, those after it getting their expected
    gain in a stage of their own) and the others keep their results. Returns the stages cut."""
    ctx = GameAnalysis(game)
    cuts: list[Cut] = []

    def run(what: str, work: Callable[[], None]) -> bool:
        try:
            with _stage(limits):
                work()
        except budget.BudgetExceeded as exc:
            cuts.append(Cut(what, exc.message, line=game.header_line))
            return False
        return True

    def information_stage() -> None:
        rows.tables["information"] = information.information_rows(game, ctx.entropies, ctx.partial())

    finished = run(INFORMATION_STAGE, information_stage)

    accused = rows.tables.get("accusations", [])
    certain: dict[str, int | None] | None = None

    def certainty_stage() -> None:
        nonlocal certain
        found = accusations.certainty(game, ctx.timeline, ctx._entropies)
        timing = accusations.accusation_columns(game, ctx.timeline, found)
        for row in accused:
            row.update(timing[row["seq"]])
        certain = found

    finished |= run(CERTAINTY_STAGE, certainty_stage)

    graded: list[dict[str, Any]] | None = None

    def statements_stage() -> None:
        nonlocal graded
        graded = statements.statement_rows(game, ctx.before)
        rows.tables["statements"] = graded

    # a game with nothing stated computes nothing here (as the giveaways of a game with no hand)
    finished |= run("the grading of what the players stated", statements_stage) and bool(graded)

    given: dict[int, float | None] = {}
    run("what the refuters gave away", lambda: given.update(giveaway.giveaway_columns(game, ctx.before)))

    hands = game.hands()
    scored: dict[int, dict[str, Any]] = {}
    rated = [r for r in game.records if isinstance(r, Suggest) and r.player in hands]
    pending = rated
    if review:
        pending, exc = _score_until_cut(game, pending, ctx, True, limits, scored)
        if exc is not None:
            cuts.append(Cut(f"the review of {suggestions_at(pending)}", exc.message, pending[0].seq, pending[0].line))
    if pending:  # the expected gain alone, of those the review did not reach (or of all: the lighter level)
        left, exc = _score_until_cut(game, pending, ctx, False, limits, scored)
        if exc is not None:
            cuts.append(Cut(f"the expected gain of {suggestions_at(left)}", exc.message, left[0].seq, left[0].line))
    for row in rows.tables.get("suggestions", []):
        row.update(scored.get(row["seq"], suggestions.UNRATED))
        row["giveaway_bits"] = given.get(row["seq"])

    for row in rows.tables.get("players", []):
        name = row["name"]
        if certain is not None:
            row["first_certain_seq"] = certain[name]
            wrong = [a["seq"] for a in accused if a["player"] == name and a["correct"] is not True]
            eliminated_at = min(wrong) if row["eliminated"] and wrong else None
            row["missed_win"] = accusations.missed_win(game, name, certain[name], row["won"], eliminated_at)
        own = [r.seq for r in rated if r.player == name]
        row["rated_suggestions"] = len(own)
        reviewed = [
            (scored[s]["expected_gain_bits"], scored[s]["best_gain_bits"])
            for s in own
            if s in scored and scored[s]["best_gain_bits"] is not None
        ]
        row["review_accuracy"] = suggestions.review_accuracy(reviewed) if len(reviewed) == len(own) else None
        if graded is not None:
            row["stated_precision"], row["stated_recall"] = statements.precision_recall(
                [g for g in graded if g["player"] == name]
            )

    # a game none of whose stages computed anything is not analysed at all; one cut in some is analysed, partly
    finished |= bool(scored) or any(v is not None for v in given.values())
    for row in rows.tables.get("games", []):
        row["analysis_version"] = ANALYSIS_VERSION if finished else None
        row["analysis_cut"] = "; ".join(c.what for c in cuts) or None
        for cut in cuts:
            rows.add("problems", problem_row(game.game_id, row["source_file"], cut.problem()))
    return cuts


def analyse_game(
    game: Game,
    replayed: Replay | None = None,
    source_file: str | None = None,
    review: bool = True,
    limits: budget.Limits | None = None,
) -> GameRows:
    """Every row a game adds to the store, with its analysis: the one way a game is analysed.

    ``replayed``: the rules' replay of the game, when the caller has it (ingest validated the game
    with it); otherwise the game is replayed here (a stored game was validated when stored).
    ``review``: the whole review (best available gain, accuracy, bits lost, label, review
    accuracy); without it the lighter analysis for corpus work, which `clue-stats analyse` completes.
    ``limits``: the budget of each stage (None: no limit); a stage past it is left out, the others
    kept, and ``games.analysis_cut`` and an ``over_budget`` problem say what was left out."""
    return analyse_within(game, replayed, source_file, review, limits)[0]


def analyse_within(
    game: Game, replayed: Replay | None, source_file: str | None, review: bool, limits: budget.Limits | None
) -> tuple[GameRows, list[Problem]]:
    """:func:`analyse_game`, and the ``over_budget`` problem of each stage the budget cut (also
    among the rows' problems)."""
    if replayed is None:
        replayed = rules.replay(game)
    rows = game_rows(game, replayed, source_file)
    cuts = _annotate(rows, game, review, limits)
    return rows, [cut.problem() for cut in cuts]
