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

from dataclasses import replace

from clue_stats.analysis import accusations, giveaway, information, suggestions
from clue_stats.engine import budget, deduction, rules
from clue_stats.engine.game import Game
from clue_stats.engine.knowledge import Knowledge
from clue_stats.engine.problems import Problem
from clue_stats.engine.rules import Replay
from clue_stats.ingest.rows import game_rows
from clue_stats.ingest.store import GameRows

# Raise when a change alters any analysis column: `clue-stats analyse` recomputes older games.
# 2: the whole review by default, who is rated, labels from bits lost, review accuracy, missed_win.
ANALYSIS_VERSION = 2


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


def _annotate(rows: GameRows, game: Game, review: bool = True) -> GameRows:
    """Fill the analysis columns and ``information`` rows of a game's rows, in place (and return them)."""
    ctx = GameAnalysis(game)
    rows.tables["information"] = information.information_rows(game, ctx.entropies, ctx.partial())

    scored = suggestions.suggestion_columns(game, ctx.before, review)
    given = giveaway.giveaway_columns(game, ctx.before)
    for row in rows.tables.get("suggestions", []):
        row.update(scored[row["seq"]])
        row["giveaway_bits"] = given[row["seq"]]

    certain = accusations.certainty(game, ctx.timeline, ctx.entropies)
    timing = accusations.accusation_columns(game, ctx.timeline, certain)
    for row in rows.tables.get("accusations", []):
        row.update(timing[row["seq"]])

    for row in rows.tables.get("players", []):
        name = row["name"]
        row["first_certain_seq"] = certain[name]
        wrong = [
            a["seq"] for a in rows.tables.get("accusations", []) if a["player"] == name and a["correct"] is not True
        ]
        eliminated_at = min(wrong) if row["eliminated"] and wrong else None
        row["missed_win"] = accusations.missed_win(game, name, certain[name], row["won"], eliminated_at)
        gains = [
            (s["expected_gain_bits"], s["best_gain_bits"])
            for s in rows.tables.get("suggestions", [])
            if s["player"] == name and s["expected_gain_bits"] is not None
        ]
        row["rated_suggestions"] = len(gains)
        reviewed = [(e, b) for e, b in gains if b is not None]
        row["review_accuracy"] = suggestions.review_accuracy(reviewed) if len(reviewed) == len(gains) else None

    for row in rows.tables.get("games", []):
        row["analysis_version"] = ANALYSIS_VERSION
    return rows


def analyse_game(
    game: Game, replayed: Replay | None = None, source_file: str | None = None, review: bool = True
) -> GameRows:
    """Every row a game adds to the store, with its analysis: the one way a game is analysed.

    ``replayed``: the rules' replay of the game, when the caller has it (ingest validated the game
    with it); otherwise the game is replayed here (a stored game was validated when stored).
    ``review``: the whole review (best available gain, accuracy, bits lost, label, review
    accuracy); without it the lighter analysis for corpus work, which `clue-stats analyse` completes."""
    if replayed is None:
        replayed = rules.replay(game)
    return _annotate(game_rows(game, replayed, source_file), game, review=review)


def analyse_within(
    game: Game, replayed: Replay | None, source_file: str | None, review: bool, limits: budget.Limits
) -> tuple[GameRows, Problem | None]:
    """:func:`analyse_game` under a budget (engine.budget). Past it: the game's rows without their
    analysis (``analysis_version`` empty), and the ``over_budget`` problem saying why, which is
    among the rows' problems too."""
    if replayed is None:
        replayed = rules.replay(game)
    try:
        with budget.limited(limits):
            return analyse_game(game, replayed, source_file, review=review), None
    except budget.BudgetExceeded as exc:
        stopped = Problem("over_budget", f"the game was not analysed: {exc.message}", seq=0, line=game.header_line)
        return game_rows(game, replace(replayed, problems=[*replayed.problems, stopped]), source_file), stopped
