"""Starting-position statistics: hand-checked helpers, and synthetic corpora with and without a
planted first-seat advantage (stored in a real DuckDB file)."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from clue_stats.analysis.corpus.positions import position_effects, seat_test, start_squares
from clue_stats.analysis.corpus.stats import binomial_p_value, chi_square_uniform, wilson_interval
from clue_stats.engine.board import load_board
from clue_stats.ingest import store
from clue_stats.ingest.store import GameFilter, GameRows, read_connection

CHARACTERS = ("scarlett", "mustard", "white", "green", "peacock", "plum")


def test_wilson_interval_by_hand() -> None:
    # p = 1/2, n = 20, z = 1.96: centre 0.5, half-width 1.96 * sqrt(1/80 + 1.96^2/1600) / (1 + 1.96^2/20)
    low, high = wilson_interval(10, 20)
    assert low == pytest.approx(0.29929, abs=1e-5) and high == pytest.approx(0.70071, abs=1e-5)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert all(math.isnan(x) for x in wilson_interval(0, 0))


def test_binomial_and_chi_square_by_hand() -> None:
    assert binomial_p_value(10, 20, 0.5) == pytest.approx(1.0)
    # 3 wins of 3 at rate 1/2, two-sided: P(3) + P(0) = 1/8 + 1/8
    assert binomial_p_value(3, 3, 0.5) == pytest.approx(0.25)
    statistic, df, p = chi_square_uniform([10, 0])
    assert (statistic, df) == (10.0, 1) and p == pytest.approx(0.0015654, rel=1e-4)
    assert chi_square_uniform([5, 5, 5])[2] == pytest.approx(1.0)


def _corpus(path: Path, games: int, first_seat_share: float, seed: int, n_players: int = 4) -> None:
    """Synthetic games: seat 0 (first to play) wins with the given share of the games that someone
    won, the others split the rest evenly; 5 % of games have no winner. Characters are shuffled."""
    rng = random.Random(seed)
    batch = []
    for i in range(games):
        gid = f"synthetic-{seed}-{i}"
        rows = GameRows(gid, f"sha-{gid}")
        chars = rng.sample(CHARACTERS, n_players)
        winner_seat: int | None
        if rng.random() < 0.05:
            winner_seat = None
        elif rng.random() < first_seat_share:
            winner_seat = 0
        else:
            winner_seat = rng.randrange(1, n_players)
        rows.add(
            "games",
            {
                "game_id": gid,
                "edition": "classic",
                "variant": "standard",
                "n_players": n_players,
                "source": "synthetic",
                "played_at": f"2026-{1 + i % 12:02d}-01",
                "winner": None if winner_seat is None else f"P{winner_seat}",
                "n_records": 1,
                "hands_known": 0,
                "content_sha256": f"sha-{gid}",
                "analysis_version": None,
            },
        )
        for seat in range(n_players):
            rows.add(
                "players",
                {
                    "game_id": gid,
                    "seat": seat,
                    "name": f"P{seat}",
                    "character": chars[seat],
                    "strategy": None,
                    "hand_size": 4,
                    "hand_known": False,
                    "turn_order": seat,
                    "won": seat == winner_seat,
                    "eliminated": False,
                    "first_certain_seq": None,
                },
            )
        batch.append(rows)
    with store.write_connection(path) as con:
        store.write_batch(con, batch, [])


@pytest.mark.slow
def test_planted_first_seat_advantage_is_found(tmp_path: Path) -> None:
    db = tmp_path / "planted.duckdb"
    _corpus(db, 1200, first_seat_share=0.40, seed=7)
    with read_connection(db) as con:
        seats = position_effects(con, "turn_order")
        test = seat_test(con)
    first = seats.filter(seats["turn_order"] == 0).row(0, named=True)
    assert first["games"] == 1200
    assert first["expected_rate"] == pytest.approx(first["games"] and seats["wins"].sum() / 1200 / 4)
    assert first["ci_low"] > first["expected_rate"]
    assert first["p_value"] < 1e-6
    row = test.row(0, named=True)
    assert row["games_won"] == seats["wins"].sum() and row["df"] == 3
    assert row["p_value"] < 1e-6
    assert row["wins_by_seat"][0] == first["wins"]


@pytest.mark.slow
def test_fair_corpus_reports_no_effect(tmp_path: Path) -> None:
    db = tmp_path / "fair.duckdb"
    _corpus(db, 1200, first_seat_share=0.25, seed=11)
    with read_connection(db) as con:
        seats = position_effects(con, "turn_order")
        test = seat_test(con)
        characters = position_effects(con, "character")
    assert test["p_value"][0] > 0.05
    assert (seats["p_value"] > 0.01).all()
    assert ((seats["ci_low"] <= seats["expected_rate"]) & (seats["expected_rate"] <= seats["ci_high"])).all()
    assert set(characters["character"]) == set(CHARACTERS)
    assert characters["games"].sum() == 1200 * 4
    assert (characters["p_value"] > 0.01).all()


@pytest.mark.slow
def test_expected_rate_counts_games_nobody_won(tmp_path: Path) -> None:
    # 4 two-player games, 3 of them won: no effect means each seat wins 3/4 / 2 of its games
    db = tmp_path / "small.duckdb"
    batch = []
    for i, winner in enumerate([0, 0, 1, None]):
        gid = f"g{i}"
        rows = GameRows(gid, gid)
        rows.add(
            "games",
            {
                "game_id": gid,
                "edition": "classic",
                "variant": "standard",
                "n_players": 2,
                "winner": None if winner is None else f"P{winner}",
                "n_records": 1,
                "hands_known": 0,
                "content_sha256": gid,
                "played_at": "2026-03-0" + str(i + 1),
            },
        )
        for seat in range(2):
            rows.add(
                "players",
                {
                    "game_id": gid,
                    "seat": seat,
                    "name": f"P{seat}",
                    "character": ("scarlett", "plum")[seat],
                    "hand_size": 9,
                    "hand_known": False,
                    "turn_order": seat,
                    "won": seat == winner,
                    "eliminated": False,
                },
            )
        batch.append(rows)
    with store.write_connection(db) as con:
        store.write_batch(con, batch, [])
    with read_connection(db) as con:
        seats = position_effects(con, "turn_order")
        squares = position_effects(con, "start_square")
        dated = position_effects(con, "turn_order", GameFilter(date_from="2026-03-02", date_to="2026-03-03"))
        none = position_effects(con, "turn_order", GameFilter(n_players=3))
    assert seats.select("turn_order", "games", "wins").rows() == [(0, 4, 2), (1, 4, 1)]
    assert seats["expected_rate"].to_list() == [0.375, 0.375]
    assert seats["win_rate"].to_list() == [0.5, 0.25]
    # the square named by who starts there, in the game's edition
    assert squares.filter(squares["wins"] == 2)["start_square"][0] == "Miss Scarlett's start"
    assert dated["games"].to_list() == [2, 2] and dated["wins"].to_list() == [1, 1]
    assert none.height == 0 and "p_value" in none.columns


def test_start_squares_cover_every_board_edition() -> None:
    squares = start_squares()
    classic = squares.filter(squares["edition"] == "classic")
    assert set(classic["character"]) >= set(CHARACTERS)
    board = load_board("classic")
    named = dict(zip(classic["character"], classic["start_square"]))
    assert named["plum"] == "Professor Plum's start" and named["green"] == "Reverend Green's start"
    assert named["orchid"] == named["white"] == "Mrs White's start"  # one square; the classic deck has no Dr Orchid
    # one name per square, and one square per name
    assert len({board.start_of(c) for c in named}) == len(set(named.values()))
    german = squares.filter(squares["edition"] == "de-2023")
    assert dict(zip(german["character"], german["start_square"]))["scarlett"] == "Lady Gloria's start"
