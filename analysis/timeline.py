"""One game, record by record, for the dashboard's replay and the post-mortem report: every
observer's entropy after each record, one observer's notebook at one record, and when each player
became certain of the solution.
"""

from __future__ import annotations

import polars as pl

from clue_stats.analysis import accusations
from clue_stats.engine import deduction
from clue_stats.engine.game import Game


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


def notebook_frame(game: Game, observer: str | None, seq: int) -> pl.DataFrame:
    """card, name, category, place, probability: where each card is, for the observer after record
    ``seq`` (places: "envelope", the players, and "room_cards" in a duel). Exact counts, as floats."""
    if not 0 <= seq <= len(game.records):
        raise ValueError(f"seq {seq} is outside the game (0 to {len(game.records)})")
    if observer is not None and observer not in game.names:
        raise ValueError(f"{observer!r} is not a player of this game")
    k = deduction.knowledge_at(game, observer, seq)
    counts = deduction.count(k)
    rows: dict[str, list] = {"card": [], "name": [], "category": [], "place": [], "probability": []}
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
    timelines: dict[str, list] = {}

    def timeline(name: str) -> list:
        if name not in timelines:
            timelines[name] = deduction.knowledge_timeline(game, name)
        return timelines[name]

    return accusations.certainty(game, timeline, deduction.entropy_table(game))
