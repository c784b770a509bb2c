"""The puzzles' read: rated suggestions of some labels, with their night and line (analysis.corpus.puzzles)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from clue_stats.ingest.store.connection import Store
from clue_stats.ingest.store.queries.fragments import NIGHT_SQL


def labelled_suggestions(
    con: Store, labels: Sequence[str], player: str | None = None, night: str | None = None, limit: int = 500
) -> pl.DataFrame:
    """The stored suggestions labelled one of ``labels`` (of ``player``, of ``night``): game_id, seq,
    line, night, played_at, edition, player, the cards named and the best ones, bits lost, label,
    expected and best gain; newest night first, in record order; at most ``limit``."""
    where = ["s.label IN (SELECT unnest(?))"]
    params: list[Any] = [list(labels)]
    if player is not None:
        where.append("s.player = ?")
        params.append(player)
    if night is not None:
        where.append(f"{NIGHT_SQL.format(g='g')} = ?")
        params.append(night)
    # the newest ``limit`` first, then their lines: joining every labelled suggestion of a large store
    # to the events before the limit cost the Puzzles page most of a second at 100,000 games
    order = "night DESC NULLS LAST, played_at DESC NULLS LAST, game_id, seq"
    return con.frame(
        f"""
        WITH chosen AS (
            SELECT s.game_id, s.seq, {NIGHT_SQL.format(g="g")} AS night, g.played_at, g.edition, s.player,
                   s.suspect, s.weapon, s.room, s.best_suspect, s.best_weapon, s.best_room, s.bits_lost, s.label,
                   s.expected_gain_bits, s.best_gain_bits
            FROM suggestions s JOIN games g USING (game_id)
            WHERE {" AND ".join(where)}
            ORDER BY {order}
            LIMIT {int(limit)}
        )
        SELECT c.game_id, c.seq, e.line, c.night, c.played_at, c.edition, c.player, c.suspect, c.weapon, c.room,
               c.best_suspect, c.best_weapon, c.best_room, c.bits_lost, c.label, c.expected_gain_bits,
               c.best_gain_bits
        FROM chosen c LEFT JOIN events e ON e.game_id = c.game_id AND e.seq = c.seq
        ORDER BY {order}""",
        params,
    )
