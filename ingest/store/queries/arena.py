"""The arena's reads (analysis.corpus.arena): a tournament's rule breaks and its games counted."""

from __future__ import annotations

import polars as pl

from clue_stats.ingest.store.connection import Store
from clue_stats.ingest.store.reads import GameFilter


def rule_breaks(con: Store, filters: GameFilter, limit: int = 200) -> pl.DataFrame:
    """The ``rule_break`` findings of the selected games, in game order: game_id, program (the player
    named at the finding's record), message, template, fields. At most ``limit``."""
    where, params = filters.where("g")
    return con.frame(
        f"""
        SELECT p.game_id, e.player AS program, p.message, p.template, p.fields
        FROM problems p JOIN games g ON g.game_id = p.game_id
        JOIN events e ON e.game_id = p.game_id AND e.seq = p.seq
        WHERE p.code = 'rule_break' AND {where}
        ORDER BY p.game_id, p.seq LIMIT {int(limit)}""",
        params,
    )


def games_won(con: Store, filters: GameFilter) -> tuple[int, int]:
    """(games, games with a winner) of the selected games."""
    where, params = filters.where("g")
    row = con.execute(f"SELECT count(*), count(winner) FROM games g WHERE {where}", params).fetchall()[0]
    return int(row[0]), int(row[1])
