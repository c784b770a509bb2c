"""The names' read: the `game` records of stored games of one edition (a custom deck's names are
declared there; analysis.words.names reads them)."""

from __future__ import annotations

from clue_stats.ingest.store.connection import Store


def deck_records(con: Store, edition: str, game_ids: list[str]) -> list[tuple[str, str]]:
    """(game_id, payload of its `game` record) of the games of ``game_ids`` played with ``edition``."""
    return [
        (game_id, payload)
        for game_id, payload in con.execute(
            "SELECT e.game_id, e.payload FROM events e JOIN games g USING (game_id) "
            "WHERE g.edition = ? AND e.seq = 0 AND e.game_id IN (SELECT unnest(?))",
            [edition, game_ids],
        ).fetchall()
    ]
