"""analysis.league on the hand-made season: the leaderboard, head-to-head and the review's columns."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from clue_stats import pipeline
from clue_stats.analysis.corpus import league
from clue_stats.ingest import store
from clue_stats.ingest.store import GameFilter
from clue_stats.ingest.store.queries import league as league_reads
from tests.helpers import SEASON, write_games


@pytest.fixture(scope="module")
def season_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("league")
    db = root / "season.duckdb"
    pipeline.ingest_paths([str(write_games(root / "season.jsonl", SEASON))], db, analyse=False, workers=1)
    return db


@pytest.mark.slow
def test_the_leaderboard_counts_the_season(season_db: Path) -> None:
    with store.read_connection(season_db) as con:
        board = league.leaderboard(con, "people")
    rows = {r["player"]: r for r in board.to_dicts()}
    assert board["player"][0] == "Alice"
    assert {p: (r["games"], r["wins"]) for p, r in rows.items()} == {
        "Alice": (12, 6),
        "Bob": (12, 3),
        "Carol": (12, 2),
        "Dave": (11, 1),
    }
    alice = rows["Alice"]
    assert alice["win_rate"] == 0.5 and alice["win_low"] < 0.5 < alice["win_high"]
    assert alice["rating"] == pytest.approx(alice["mu"] - 3 * alice["sigma"])
    assert alice["last_played"] == "2026-10-16"
    # "Played until" gives the table as it stood then: Alice after her first two games only
    with store.read_connection(season_db) as con:
        early = league.leaderboard(con, "people", GameFilter(date_to="2026-09-04"))
    assert early.filter(early["player"] == "Alice")["games"].item() == 2


def test_head_to_head_counts_who_finished_ahead(season_db: Path) -> None:
    with store.read_connection(season_db) as con:
        versus = league_reads.head_to_head(con, "people", ["Alice"], ["Bob"])
    row = versus.to_dicts()[0]
    # by hand from SEASON: every game of Alice but s04 (11); Alice won
    # s01 s03 s05 s07 s09 s13; Bob won s02 s08 s12; in s10 both went out, Alice after Bob; s11 level
    assert (row["games"], row["ahead"], row["behind"], row["level"]) == (11, 7, 3, 1)
    assert row["share_ahead"] == pytest.approx(0.7)


def test_the_review_columns_are_read_where_the_store_has_them(season_db: Path, tmp_path: Path) -> None:
    """The leaderboard's review accuracy is over all the player's rated suggestions (one poor question
    in s01, three best ones in s02: 3 of 4 bits, 75 %), not the mean of her games' (0 % and 100 %)."""
    db = tmp_path / "reviewed.duckdb"
    db.write_bytes(season_db.read_bytes())
    with duckdb.connect(str(db)) as con:
        con.execute("ALTER TABLE players ADD COLUMN IF NOT EXISTS missed_win BOOLEAN")
        con.execute("UPDATE players SET missed_win = (name = 'Bob' AND game_id IN ('s03', 's05'))")
        for game_id, seq, expected in (("s01", 1, 0.0), ("s02", 1, 1.0), ("s02", 2, 1.0), ("s02", 3, 1.0)):
            con.execute(
                "INSERT INTO suggestions (game_id, seq, player, suspect, weapon, room, expected_gain_bits, "
                "best_gain_bits) VALUES (?, ?, 'Alice', 'green', 'rope', 'hall', ?, 1.0)",
                [game_id, seq, expected],
            )
    with store.read_connection(db) as con:
        board = {r["player"]: r for r in league.leaderboard(con, "people").to_dicts()}
        course = league.history(con, "people", ["Alice"])
    assert board["Alice"]["review_accuracy"] == pytest.approx(0.75)
    assert board["Alice"]["rated_suggestions"] == 4 and board["Bob"]["review_accuracy"] is None
    assert board["Bob"]["missed_wins"] == 2 and board["Alice"]["missed_wins"] == 0
    assert course["review_accuracy"].to_list()[:3] == [0.0, 1.0, None]  # game by game, each game's own
