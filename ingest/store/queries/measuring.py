"""What the benchmarks (benchmarks/) read and write: corpora made larger for measuring (a corpus's games
copied under new ids, a synthetic club season for the ratings), and the few counts and tables a
benchmark prints. The program never calls these; they live here so that no SQL is written outside
the store, the benchmarks included (tests/test_layers.py)."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from clue_stats.ingest.store.connection import Store


def count_rows(con: Store, table: str) -> int:
    """How many rows ``table`` holds (a name of the schema's, never a user's value)."""
    ((n,),) = con.rows(f"SELECT count(*) FROM {table}")
    return int(n)


def only_game_id(con: Store) -> str:
    """The id of the one game a database holds (a benchmark's database of one game)."""
    ((game_id,),) = con.rows("SELECT game_id FROM games")
    return str(game_id)


def first_reviewed_game(con: Store, n_players: int) -> str | None:
    """The first (by id) analysed game of ``n_players`` players, or None."""
    rows = con.rows(
        "SELECT game_id FROM games WHERE analysis_version IS NOT NULL AND n_players = ? ORDER BY game_id LIMIT 1",
        [n_players],
    )
    return str(rows[0][0]) if rows else None


def commonest_n_players(con: Store) -> int:
    """The number of players most of the games have."""
    rows = con.rows("SELECT n_players FROM games GROUP BY ALL ORDER BY count(*) DESC LIMIT 1")
    return int(rows[0][0]) if rows else 0


def analysis_of_the_only_game(con: Store) -> tuple[int | None, str | None, int, int]:
    """(analysis version, why the analysis was cut or None, suggestions with a best gain, suggestions)
    of a database of one game."""
    ((version, cut),) = con.rows("SELECT analysis_version, analysis_cut FROM games")
    ((rated, suggestions),) = con.rows("SELECT count(best_gain_bits), count(*) FROM suggestions")
    return version, cut, int(rated), int(suggestions)


def replicate_games(con: Store, target: int, tables: Sequence[str]) -> None:
    """Copy every game's rows of ``tables`` (those keyed by game_id) under new ids (``id~i``) in one
    transaction until the database holds ``target`` games; the copies' dates are spread over three
    years so that date filters select real slices, and each copy is its own content."""
    base = count_rows(con, "games")
    copies = -(-(target - base) // base)
    con.execute(
        """
        CREATE TEMP TABLE copies AS
        SELECT game_id AS orig, game_id || '~' || i AS new_id, i FROM games, range(1, ? + 1) r(i)
        ORDER BY i, game_id LIMIT ?""",
        [copies, target - base],
    )
    with con.atomic():
        for table in tables:
            replace = "m.new_id AS game_id"
            if table == "games":
                replace += (
                    ", strftime(DATE '2023-01-01' + (hash(m.new_id) % 1095)::INTEGER, '%Y-%m-%d') AS played_at"
                    ", m.new_id AS content_sha256"
                )
            con.execute(
                f"INSERT INTO {table} SELECT t.* REPLACE ({replace}) FROM {table} t JOIN copies m ON t.game_id = m.orig"
            )
    con.execute("DROP TABLE copies")
    con.execute("CHECKPOINT")


def write_season(con: Store, games: int, people: int) -> None:
    """``games`` club games of 3 to 6 of ``people`` players, one every 20 minutes from 2020 on, each
    with its winner and some players out by a wrong accusation (the ratings benchmark's league)."""
    with con.atomic():
        con.execute(
            """
            INSERT INTO games (game_id, edition, variant, n_players, kind, source, played_at, winner,
                               n_records, hands_known, content_sha256, ingested_at)
            SELECT 'g' || i, 'classic', 'standard', 3 + i % 4, 'tabletop', 'bench',
                   strftime(TIMESTAMP '2020-01-01 19:00:00' + INTERVAL (i * 20) MINUTE, '%Y-%m-%dT%H:%M'),
                   'P' || ((i * 7 + (i % (3 + i % 4)) * 13) % ?), 10, 0, 'h' || i, now()
            FROM range(?) t(i)""",
            [people, games],
        )
        con.execute(
            """
            INSERT INTO players (game_id, seat, name, hand_size, hand_known, won, eliminated)
            SELECT 'g' || i, seat, 'P' || ((i * 7 + seat * 13) % ?), 4, false,
                   seat = i % (3 + i % 4), i % 3 = 0 AND seat = (i + 1) % (3 + i % 4)
            FROM range(?) t(i), range(6) s(seat) WHERE seat < 3 + i % 4""",
            [people, games],
        )
        con.execute(
            """
            INSERT INTO accusations (game_id, seq, player, suspect, weapon, room, correct)
            SELECT game_id, 1, name, 'plum', 'rope', 'hall', false FROM players WHERE eliminated"""
        )


def write_club_game(con: Store, game_id: str, played_at: str, names: Sequence[str]) -> None:
    """One classic club game of ``names`` (the first wins) played at ``played_at``; the caller rates it
    in the same transaction."""
    con.execute(
        """INSERT INTO games (game_id, edition, variant, n_players, kind, played_at, winner, n_records,
                              hands_known, content_sha256, ingested_at)
           VALUES (?, 'classic', 'standard', ?, 'tabletop', ?, ?, 10, 0, ?, now())""",
        [game_id, len(names), played_at, names[0], game_id],
    )
    for seat, name in enumerate(names):
        con.execute(
            "INSERT INTO players (game_id, seat, name, hand_size, hand_known, won, eliminated) "
            "VALUES (?, ?, ?, 6, false, ?, false)",
            [game_id, seat, name, seat == 0],
        )


def bits_lost_by_strategy(con: Store, quantiles: Sequence[float], nothing_lost_below: float) -> pl.DataFrame:
    """Per strategy of the suggesting player (and 'all'): suggestions, the share that lost at most
    ``nothing_lost_below`` bits, the quantiles of bits lost and the largest loss, rounded to 3 places."""
    columns = ", ".join(f"round(quantile_cont(s.bits_lost, {q}), 3) AS q{round(q * 100)}" for q in quantiles)
    return con.frame(
        f"""
        SELECT coalesce(p.strategy, 'all') AS strategy, count(*) AS suggestions,
               round(avg((s.bits_lost <= ?)::INTEGER), 3) AS lost_nothing, {columns},
               round(max(s.bits_lost), 3) AS max
        FROM suggestions s JOIN players p ON p.game_id = s.game_id AND p.name = s.player
        GROUP BY ROLLUP (p.strategy) ORDER BY p.strategy NULLS LAST""",
        [nothing_lost_below],
    )


def label_shares_by_strategy(con: Store, labels: Sequence[str]) -> pl.DataFrame:
    """Per strategy of the suggesting player (and 'all'): the share of its suggestions given each of
    ``labels``, rounded to 3 places."""
    columns = ", ".join(f'round(avg((s.label = ?)::INTEGER), 3) AS "{label}"' for label in labels)
    return con.frame(
        f"""
        SELECT coalesce(p.strategy, 'all') AS strategy, {columns}
        FROM suggestions s JOIN players p ON p.game_id = s.game_id AND p.name = s.player
        GROUP BY ROLLUP (p.strategy) ORDER BY p.strategy NULLS LAST""",
        list(labels),
    )
