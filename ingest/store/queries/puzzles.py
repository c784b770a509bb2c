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
    return con.frame(
        f"""
        SELECT s.game_id, s.seq, e.line, {NIGHT_SQL.format(g="g")} AS night, g.played_at, g.edition, s.player,
               s.suspect, s.weapon, s.room, s.best_suspect, s.best_weapon, s.best_room, s.bits_lost, s.label,
               s.expected_gain_bits, s.best_gain_bits
        FROM suggestions s JOIN games g USING (game_id)
        LEFT JOIN events e ON e.game_id = s.game_id AND e.seq = s.seq
        WHERE {" AND ".join(where)}
        ORDER BY night DESC NULLS LAST, g.played_at DESC NULLS LAST, s.game_id, s.seq
        LIMIT {int(limit)}""",
        params,
    )
