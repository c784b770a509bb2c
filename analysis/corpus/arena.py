"""An arena tournament's result, from the store: one row per program (the league's leaderboard of
the bots' pool and the Agents comparison, over the tournament's games) and the pairwise table.

Nothing is computed twice: games, wins and their 95 % Wilson interval, the openskill rating and the
review accuracy are the league's (:func:`analysis.corpus.league.leaderboard`); accusations at p < 1, missed
wins and rule breaks are the Agents comparison's (:func:`analysis.corpus.agents.agent_summary`); the pairwise
table is the league's head to head. A tournament's games share their ``source``
(``clue-stats arena <tournament>``).
"""

from __future__ import annotations

from typing import Any

import polars as pl

from clue_stats.analysis.corpus.agents import agent_cells, agent_summary
from clue_stats.analysis.corpus.league import leaderboard, skill_words
from clue_stats.analysis.words import _, number, percent
from clue_stats.ingest.kinds import CONTEST
from clue_stats.ingest.store import GameFilter, Store
from clue_stats.ingest.store.queries import arena as arena_reads
from clue_stats.ingest.store.queries.league import head_to_head

POOL = "bots"  # the ratings' pool of contest games (analysis.ratings)
SOURCE = "clue-stats arena"  # the games' source, followed by the tournament's id


def tournament_filter(tournament: str | None) -> GameFilter:
    """The games of one tournament (its id), or of every arena game stored (None: by source prefix
    there is no filter, so every contest game)."""
    return GameFilter(source=f"{SOURCE} {tournament}" if tournament else None, kinds=(CONTEST,))


def arena_leaderboard(con: Store, tournament: str | None = None) -> pl.DataFrame:
    """One row per program, best rating first: program, rating, mu, sigma, games, wins, win_rate,
    win_low, win_high (the league's), and every column of the Agents comparison by player name (an
    arena player is named by its program): review_accuracy (low, high), accusations at p < 1
    (unsure_rate), missed wins (missed_rate), rule breaks (break_rate), each with its interval."""
    filters = tournament_filter(tournament)
    board = leaderboard(con, POOL, filters).select(
        "player", "rating", "mu", "sigma", "games", "wins", "win_rate", "win_low", "win_high"
    )
    agents = agent_summary(con, filters, by="name")
    if board.height == 0 or agents.height == 0:
        return board.rename({"player": "program"})
    return board.join(agents.rename({"agent": "player"}), on="player", how="left").rename({"player": "program"})


def pairwise(con: Store, tournament: str | None = None) -> pl.DataFrame:
    """Each program against each other at one table: games, ahead, behind, level, share_ahead."""
    board = leaderboard(con, POOL, tournament_filter(tournament))
    players = board["player"].to_list()
    if not players:
        return pl.DataFrame(schema={"player": pl.Utf8, "opponent": pl.Utf8, "games": pl.Int64})
    return head_to_head(con, POOL, players, filters=tournament_filter(tournament))


def leaderboard_cells(row: dict[str, Any]) -> dict[str, str]:
    """One leaderboard row as people read it, in their language."""
    wins = _("{figure} ({low} to {high}), {part} of {whole}").format(
        figure=percent(row["win_rate"]),
        low=percent(row["win_low"]),
        high=percent(row["win_high"]),
        part=number(row["wins"]),
        whole=number(row["games"]),
    )
    cells = agent_cells(row)
    return {
        "program": row["program"],
        "games": number(row["games"]),
        "wins": wins,
        "rating": _("{rating} (skill {skill})").format(
            rating=f"{row['rating']:.1f}", skill=skill_words(row["mu"], row["sigma"])
        ),
        "review_accuracy": cells["review_accuracy"],
        "unsure": cells["unsure"],
        "missed_wins": cells["missed_wins"],
        "rule_breaks": cells["rule_breaks"],
    }


def rule_breaks(con: Store, tournament: str | None = None, limit: int = 200) -> pl.DataFrame:
    """The tournament's rule breaks, in game order: game_id, program (the player named at the
    finding's record), message (its code first, English), template and fields (to say it in the
    reader's language: analysis.words.said). At most ``limit``."""
    return arena_reads.rule_breaks(con, tournament_filter(tournament), limit)


def games_played(con: Store, tournament: str | None = None) -> tuple[int, int]:
    """(games, games won) of the tournament."""
    return arena_reads.games_won(con, tournament_filter(tournament))


def game_number(game_id: str) -> int:
    """A game's number in its tournament, from its id (``arena-<tournament>-<number>``)."""
    tail = game_id.rsplit("-", 1)[-1]
    return int(tail) if tail.isdigit() else 0
