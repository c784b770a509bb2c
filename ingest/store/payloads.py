"""A stored game read back: its records as the store keeps them (JSON text, the game record first)
built into a game again, as `clue-stats analyse`, the replay and the name migration need it."""

from __future__ import annotations

import json

from clue_stats.engine.errors import StoreError
from clue_stats.engine.game import Game
from clue_stats.engine.markers import T_
from clue_stats.ingest.cluelog import build_game
from clue_stats.ingest.raw import RawGame


def game_from_payloads(payloads: list[str], lines: list[int | None] | None = None, game_id: str | None = None) -> Game:
    """Build a game from its records as stored (JSON text, the game record first); ``game_id``: the
    stored identity, kept whatever the rebuilt content would hash to. Raises StoreError when the
    records do not make a game."""
    try:
        records = [json.loads(p) for p in payloads]
    except ValueError as exc:
        raise StoreError(T_("a stored game cannot be read back: a record is not JSON ({error})", error=exc)) from None
    raw = RawGame(
        records=records, lines=list(lines) if lines is not None else [None] * len(records), text="\n".join(payloads)
    )
    game, problems = build_game(raw)
    if game is None:
        # a stored game was valid when stored; failing now means the reader changed under it
        found = "; ".join(f"{p.code}: {p.message}" for p in problems if p.is_error)
        raise StoreError(T_("a stored game cannot be read back: {problems}", problems=found or T_("no game record")))
    if game_id is not None:
        game.game_id = game_id
    return game
