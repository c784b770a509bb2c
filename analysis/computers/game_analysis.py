"""The analysis of one game: :func:`analyse_game` takes a game and returns every row it adds to the
store, analysis included. Ingest, `clue-stats analyse`, the report and the Dask path all call it.

The statistics are the computers registered in :data:`analysis.computers.registry.COMPUTERS`, each a pure
function of the game and of what the deduction engine says about it, returning a typed result;
this module runs them (each stage under its own budget) and hands the results' columns to the
rows the store will write (:meth:`ingest.store.GameRows.apply`).

The review (the best available gain, the best suggestion, accuracy, bits lost and label of every
rated suggestion, and each player's review accuracy) is the costliest part: every candidate
suggestion, every answer to it. Ingest computes it by default; the lighter level leaves it out.
"""

from __future__ import annotations

from typing import Any

from clue_stats.analysis.computers.registry import (
    COMPUTERS,
    CertaintyComputer,
    Cut,
    GameAnalysis,
    InformationComputer,
    run_computers,
)
from clue_stats.analysis.computers.registry import suggestions_at as suggestions_at  # re-exported
from clue_stats.analysis.words import _
from clue_stats.engine import budget, rules
from clue_stats.engine.game import Game
from clue_stats.engine.problems import Problem
from clue_stats.engine.rules import Replay
from clue_stats.ingest.rows import game_rows, problem_row
from clue_stats.ingest.store import Columns, GameRows
from clue_stats.ingest.store.schema import ANALYSIS_VERSION

# What the first stages leave out when the budget cuts them (games.analysis_cut holds it then).
INFORMATION_STAGE = InformationComputer.what
CERTAINTY_STAGE = CertaintyComputer.what


def information_kept(header: dict[str, Any]) -> bool:
    """Whether a game's stored analysis (its ``games`` row) holds its information rows."""
    return header.get("analysis_version") is not None and INFORMATION_STAGE not in (header.get("analysis_cut") or "")


def analysis_words(version: int | None, cut: str | None) -> str:
    """A stored game's analysis in words, from its ``games`` row (the replay); what a cut left out is
    said by the game's over_budget problems (analysis.review.post_mortem.over_budget_messages)."""
    if version is None:
        return _("not analysed")
    if version < ANALYSIS_VERSION:
        return _("analysed by an older version ({version})").format(version=version)
    if cut:
        return _("partly analysed")
    return _("analysed")


__all__ = ["ANALYSIS_VERSION", "COMPUTERS", "GameAnalysis", "analyse_game", "analyse_within"]


def _analyse(rows: GameRows, game: Game, replay: Replay, review: bool, limits: budget.Limits | None) -> list[Cut]:
    """Run every computer over the game (each stage under a fresh budget of ``limits``; None: no
    limit) and map their results onto its rows: a stage past the budget leaves its columns empty
    and the others keep theirs. A game none of whose stages computed anything is not analysed at
    all; one cut in some is analysed, partly (``analysis_cut`` names what is missing). Returns the
    stages cut."""
    results, cuts = run_computers(GameAnalysis(game, replay, review, limits))
    for result in results:
        for columns in result.columns():
            rows.apply(columns)
    finished = any(result.computed for result in results)
    header = {
        "analysis_version": ANALYSIS_VERSION if finished else None,
        "analysis_cut": "; ".join(str(c.what) for c in cuts) or None,
    }
    rows.apply(Columns("games", values={None: header}))
    for cut in cuts:
        rows.add("problems", problem_row(game.game_id, rows.tables["games"][0]["source_file"], cut.problem()))
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
    cuts = _analyse(rows, game, replayed, review, limits)
    return rows, [cut.problem() for cut in cuts]
