"""One game, record by record, for the dashboard's replay and the post-mortem report: every
observer's entropy after each record, one observer's notebook at one record, and when each player
became certain of the solution.

A stored, analysed game's entropy over the game is read from its ``information`` rows
(:func:`stored_entropy_frame`): counting it again is what the analysis did once already. Whatever is
counted here counts under the budget in force (engine.budget), as the callers set it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from typing import Any

import polars as pl

from clue_stats.analysis.computers import accusations
from clue_stats.analysis.computers.game_analysis import information_kept
from clue_stats.analysis.words import _, error_message
from clue_stats.engine import budget, deduction
from clue_stats.engine.game import Deal, Game
from clue_stats.engine.knowledge import Knowledge


def entropy_frame(game: Game) -> pl.DataFrame:
    """seq, observer (None: the table), entropy: every observer's envelope entropy after each record."""
    table = deduction.entropy_table(game)
    seqs: list[int] = []
    observers: list[str | None] = []
    values: list[float] = []
    for observer, series in table.items():
        seqs.extend(range(len(series)))
        observers.extend([observer] * len(series))
        values.extend(series)
    return pl.DataFrame(
        {"seq": seqs, "observer": observers, "entropy": values},
        schema={"seq": pl.Int64, "observer": pl.Utf8, "entropy": pl.Float64},
    )


def stored_entropy_frame(game: Game, information: list[dict[str, Any]]) -> pl.DataFrame:
    """:func:`entropy_frame` from a game's stored ``information`` rows, as the analysis counted them.

    An observer's knowledge changes only at a deal (their own) and at the informative records, which
    have rows (docs/analysis.md): past the last deal each record's entropy is the entropy_after of
    the last row up to it, read in one pass. Up to the last deal, between two informative records
    the knowledge does not change (a row's entropy_after holds until the next row's
    entropy_before), and those records' knowledge is built to tell where it is the same; the few
    entropies the rows do not give (the game record, the deals before play) are counted."""
    stored: dict[tuple[int, str | None], tuple[float, float]] = {
        (r["seq"], r["observer"]): (r["entropy_before"], r["entropy_after"]) for r in information
    }
    last_deal = max((r.seq for r in game.records if isinstance(r, Deal)), default=0)
    n = len(game.records) + 1
    seqs: list[int] = []
    observers: list[str | None] = []
    values: list[float] = []
    for observer in deduction.observers(game):
        # the knowledge after each record up to the last deal (a long game's play is not replayed)
        timeline = deduction.knowledge_timeline(game, observer, records=last_deal)
        series = [math.nan] * n
        for seq in range(n):
            if (seq, observer) in stored:
                series[seq] = stored[seq, observer][1]
        # back from each informative record up to just past the last deal: its entropy_before holds
        # as far as the knowledge is the same
        for seq in range(min(last_deal + 1, n - 1), 0, -1):
            if (seq, observer) in stored:
                before, k = stored[seq, observer][0], timeline[seq - 1]
                at = seq - 1
                while at >= 0 and timeline[at] is k and math.isnan(series[at]):
                    series[at] = before
                    at -= 1
        # forward: a record that changes nothing keeps the entropy after the one before it
        for seq in range(1, last_deal + 1):
            if math.isnan(series[seq]) and timeline[seq] is timeline[seq - 1] and not math.isnan(series[seq - 1]):
                series[seq] = series[seq - 1]
        for seq in range(last_deal + 1):
            if math.isnan(series[seq]):
                series[seq] = deduction.envelope_entropy(timeline[seq])
        # past the last deal only the informative records change it
        for seq in range(last_deal + 1, n):
            if math.isnan(series[seq]):
                series[seq] = series[seq - 1]
        seqs.extend(range(n))
        observers.extend([observer] * n)
        values.extend(series)
    return pl.DataFrame(
        {"seq": seqs, "observer": observers, "entropy": values},
        schema={"seq": pl.Int64, "observer": pl.Utf8, "entropy": pl.Float64},
    )


# A page of the dashboard counts (a game stored without analysis, one observer's notebook) under
# the budget of ingest (its variables; `clue-stats dashboard` takes the options), and for at most
# this many seconds of counting, so that no page waits long on one game.
PAGE_SECONDS = 20.0


def page_limits() -> budget.Limits:
    limits = budget.Limits.from_env()
    return dataclasses.replace(limits, seconds=min(limits.seconds or PAGE_SECONDS, PAGE_SECONDS))


def _within(limits: budget.Limits | None) -> contextlib.AbstractContextManager[object]:
    return budget.limited(limits) if limits is not None else contextlib.nullcontext()


def game_entropy(
    game: Game,
    header: dict[str, Any],
    information: list[dict[str, Any]],
    over_budget: list[str],
    limits: budget.Limits | None = None,
) -> tuple[pl.DataFrame | None, str | None]:
    """A stored game's :func:`entropy_frame`, and why it is missing when it is (None): read from its
    information rows where its analysis holds them; else counted, under ``limits`` (None: the
    budget in force), unless the game was stored over the budget (``over_budget``: the messages of
    its over_budget problems): counting it again would pass the budget again."""
    try:
        with _within(limits):
            if information_kept(header):
                return stored_entropy_frame(game, information), None
            if over_budget:
                return None, _("the game was stored over the counting budget")
            return entropy_frame(game), None
    except budget.BudgetExceeded as exc:
        return None, _("counting it passed the budget: {reason}").format(reason=error_message(exc))


def notebook_within(
    game: Game, observer: str | None, seq: int, limits: budget.Limits
) -> tuple[pl.DataFrame | None, str | None]:
    """:func:`notebook_frame` counted under ``limits``; None and the reason when it passes them."""
    try:
        with budget.limited(limits):
            return notebook_frame(game, observer, seq), None
    except budget.BudgetExceeded as exc:
        return None, error_message(exc)


def notebook_frame(game: Game, observer: str | None, seq: int) -> pl.DataFrame:
    """card, name, category, place, probability: where each card is, for the observer after record
    ``seq`` (places: "envelope", the players, and "room_cards" in a duel). Exact counts, as floats."""
    if not 0 <= seq <= len(game.records):
        raise ValueError(f"seq {seq} is outside the game (0 to {len(game.records)})")
    if observer is not None and observer not in game.names:
        raise ValueError(f"{observer!r} is not a player of this game")
    k = deduction.knowledge_at(game, observer, seq)
    counts = deduction.count(k)
    rows: dict[str, list[str | float]] = {"card": [], "name": [], "category": [], "place": [], "probability": []}
    for card in game.deck.cards:
        per_place = counts.card_places.get(card, {})
        for place in k.places:
            rows["card"].append(card)
            rows["name"].append(game.deck.name(card))
            rows["category"].append(game.deck.category(card))
            rows["place"].append(place)
            rows["probability"].append(per_place.get(place, 0) / counts.total if counts.total else float("nan"))
    return pl.DataFrame(
        rows,
        schema={"card": pl.Utf8, "name": pl.Utf8, "category": pl.Utf8, "place": pl.Utf8, "probability": pl.Float64},
    )


def certainty(game: Game) -> dict[str, int | None]:
    """player -> the first seq after which they were certain of the solution (None if never)."""
    timelines: dict[str, list[Knowledge]] = {}

    def timeline(name: str) -> list[Knowledge]:
        if name not in timelines:
            timelines[name] = deduction.knowledge_timeline(game, name)
        return timelines[name]

    return accusations.certainty(game, timeline, deduction.entropy_table(game))
