"""Starting-position effects: does the seat in turn order, the character or the start square win
more often than chance would have it? (analysis.md, "Starting-position effects")

Counting is done by the store's queries (ingest.store.queries.positions) over the ``games`` and
``players`` tables; polars adds the rates, the 95 %
Wilson intervals and the tests. Effects are always grouped by edition and player count: the 3rd seat
of a 3-player game is the last to play, the 3rd of a 6-player game is not.

The rate expected with no effect, for a cell, is the share of that cell's games that someone won,
divided by the number of players (a game nobody won gives no seat a win). For seats every game has
every seat, so this is the group's share; for characters and start squares it follows the games the
character actually played in.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import polars as pl

from clue_stats.analysis.corpus.stats import binomial_p_value, chi_square_uniform, wilson_interval
from clue_stats.analysis.words import language, speaking
from clue_stats.analysis.words.names import of_edition, square_name
from clue_stats.engine.board import BoardFormatError, load_board
from clue_stats.engine.editions import editions
from clue_stats.ingest.store import GameFilter, Store
from clue_stats.ingest.store.queries import positions as reads

DIMENSIONS = ("turn_order", "character", "start_square")


def _start_square_rows() -> tuple[tuple[str, str, str], ...]:
    """(edition, character, start square) for every edition with a board; the square is named by the
    edition's characters who start on it ("Professor Plum's start"), as people know it, in the
    reader's language."""
    return _start_square_rows_in(language())


@functools.cache
def _start_square_rows_in(code: str) -> tuple[tuple[str, str, str], ...]:
    rows = []
    for ed in editions().values():
        if not ed.board:
            continue
        try:
            board = load_board(ed.board)
        except BoardFormatError:
            continue
        for character, (row, col) in board.starts.items():
            with speaking(code):
                rows.append((ed.id, character, square_name(of_edition(ed.id), (row, col))))
    return tuple(sorted(rows))


def start_squares() -> pl.DataFrame:
    """edition, character, start_square: the square each character starts from on its edition's board."""
    rows = _start_square_rows()
    return pl.DataFrame(
        {"edition": [r[0] for r in rows], "character": [r[1] for r in rows], "start_square": [r[2] for r in rows]},
        schema={"edition": pl.Utf8, "character": pl.Utf8, "start_square": pl.Utf8},
    )


def _counts(con: Store, dimension: str, filters: GameFilter) -> pl.DataFrame:
    if dimension not in DIMENSIONS:
        raise ValueError(f"unknown dimension {dimension!r} (one of {', '.join(DIMENSIONS)})")
    return reads.position_counts(con, dimension, filters, start_squares() if dimension == "start_square" else None)


def position_effects(con: Store, dimension: str, filters: GameFilter = GameFilter()) -> pl.DataFrame:
    """One row per (edition, n_players, position): games, wins, win_rate, ci_low, ci_high (95 %
    Wilson), expected_rate (no effect) and p_value (exact two-sided binomial test against it)."""
    counts = _counts(con, dimension, filters)
    games = counts["games"].to_list()
    wins = counts["wins"].to_list()
    expected = [
        won / n / players if n else math.nan for won, n, players in zip(counts["games_won"], games, counts["n_players"])
    ]
    intervals = [wilson_interval(w, n) for w, n in zip(wins, games)]
    return counts.drop("games_won").with_columns(
        win_rate=pl.Series([w / n for w, n in zip(wins, games)], dtype=pl.Float64),
        ci_low=pl.Series([lo for lo, _ in intervals], dtype=pl.Float64),
        ci_high=pl.Series([hi for _, hi in intervals], dtype=pl.Float64),
        expected_rate=pl.Series(expected, dtype=pl.Float64),
        p_value=pl.Series([binomial_p_value(w, n, e) for w, n, e in zip(wins, games, expected)], dtype=pl.Float64),
    )


def seat_test(con: Store, filters: GameFilter = GameFilter()) -> pl.DataFrame:
    """The chi-square test of "no seat effect", per (edition, n_players), over the games with a
    winner whose turn order is known: games_won, chi2, df, p_value, and the wins per seat."""
    wins = reads.winning_seats(con, filters)
    rows: dict[str, list[Any]] = {
        "edition": [],
        "n_players": [],
        "games_won": [],
        "chi2": [],
        "df": [],
        "p_value": [],
        "wins_by_seat": [],
    }
    for (edition, n_players), group in wins.group_by(["edition", "n_players"], maintain_order=True):
        by_seat = [0] * int(n_players)
        for seat, w in zip(group["turn_order"], group["wins"]):
            by_seat[int(seat)] += int(w)
        statistic, df, p = chi_square_uniform(by_seat)
        rows["edition"].append(edition)
        rows["n_players"].append(int(n_players))
        rows["games_won"].append(sum(by_seat))
        rows["chi2"].append(statistic)
        rows["df"].append(df)
        rows["p_value"].append(p)
        rows["wins_by_seat"].append(by_seat)
    return pl.DataFrame(
        rows,
        schema={
            "edition": pl.Utf8,
            "n_players": pl.Int64,
            "games_won": pl.Int64,
            "chi2": pl.Float64,
            "df": pl.Int64,
            "p_value": pl.Float64,
            "wins_by_seat": pl.List(pl.Int64),
        },
    )
