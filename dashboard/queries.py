"""Every read the dashboard makes, in one place: cached, over short-lived read-only connections.

Pages never open the database themselves. Each function here takes the database path, a *version*
token and the filters; the token changes whenever the file does (an ingest wrote to it), so a cached
result is never served for a database that has moved on, and nothing has to be invalidated by hand.
Connections come from ``ingest.store.read_connection``: read-only, and retrying for a few seconds
while ``clue-stats ingest`` holds the file, so the dashboard and ingest can run side by side. This
module writes no SQL: it caches calls to the store's reads and to the analysis's statistics, which
pass user values (filters, game ids, names) as SQL parameters and aggregate everything that could
reach Altair (it refuses over 5,000 rows).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import polars as pl
import streamlit as st

from clue_stats.analysis.corpus import agents, puzzles, ratings, summaries
from clue_stats.analysis.corpus import league as league_stats
from clue_stats.analysis.corpus import night as night_stats
from clue_stats.analysis.corpus import players as player_stats
from clue_stats.analysis.corpus import positions as position_stats
from clue_stats.analysis.review import post_mortem as report
from clue_stats.analysis.review import rows as review
from clue_stats.analysis.review import timeline, why
from clue_stats.analysis.review.post_mortem import over_budget_messages
from clue_stats.analysis.words import names
from clue_stats.engine import budget
from clue_stats.ingest import store
from clue_stats.ingest.store import KINDS, PEOPLE, GameFilter, GameNotFound, StoreBusy, StoreError, people_first, reads
from clue_stats.ingest.store.queries import league as league_reads
from clue_stats.ingest.store.queries import nights as night_reads

__all__ = [
    "KINDS",
    "PEOPLE",
    "people_first",
    "GameFilter",
    "GameNotFound",
    "StoreBusy",
    "StoreError",
    "WAIT_SECONDS",
    "database_path",
    "store_version",
    "filter_choices",
    "selection_size",
    "games_by_players",
    "games_by_edition",
    "edition_name",
    "overview",
    "club_latest",
    "game_choices",
    "replay_game",
    "replay_timeline",
    "notebook",
    "game_review",
    "puzzle_list",
    "puzzle_attempt",
    "suggestion_stats",
    "accusation_stats",
    "position_effects",
    "player_summary",
    "league_view",
    "league_board",
    "league_details",
    "person_view",
    "nights",
    "night_view",
    "data_quality",
    "rejected_problems",
]

WAIT_SECONDS = 5.0  # a page waits this long for an ingest batch to finish, then says the store is busy
# every read cached alike (st.cache_data typed by its options, not by a dict of them)
cached = st.cache_data(show_spinner=False, max_entries=256, ttl=3600)
LATEST_GAMES = 8  # games the Overview lists first
LATEST_NIGHTS = 5  # and nights
GAME_LIST_LIMIT = 2000  # games offered in the replay's chooser (newest first); any id can be typed


# ---------------------------------------------------------------- where the database is


def database_path(argv: Sequence[str] | None = None, environ: dict[str, str] | None = None) -> Path:
    """The database the app shows: ``--db FILE`` after ``streamlit run app.py --``, else
    ``$CLUE_STATS_DB``, else clue.duckdb in the working directory (as every command)."""
    args = list(sys.argv[1:] if argv is None else argv)
    for i, arg in enumerate(args):
        if arg == "--db" and i + 1 < len(args):
            return Path(args[i + 1]).expanduser().resolve()
        if arg.startswith("--db="):
            return Path(arg[len("--db=") :]).expanduser().resolve()
    return Path(store.database(None, environ)).expanduser().resolve()


def store_version(path: str | Path) -> str:
    """A token that changes whenever the database file (or its write-ahead log) changes."""
    parts = []
    for candidate in (Path(path), Path(f"{path}.wal")):
        try:
            st_ = candidate.stat()
        except FileNotFoundError:
            parts.append("-")
            continue
        parts.append(f"{st_.st_mtime_ns}:{st_.st_size}")
    return "/".join(parts)


def _open(path: str) -> AbstractContextManager[store.Store]:
    """A short-lived read-only store (waits WAIT_SECONDS for an ingest batch) that names every merged
    name as its person (ingest.store.persons)."""
    return store.read_connection(path, WAIT_SECONDS, persons=True)  # merged names as their person


# ---------------------------------------------------------------- filters and overview


@cached
def filter_choices(path: str, version: str) -> dict[str, list[Any]]:
    """The values each sidebar filter can take (editions, variants, player counts, sources, dates)."""
    with _open(path) as con:
        return store.filter_choices(con)


@cached
def selection_size(path: str, version: str, filters: GameFilter) -> int:
    """How many stored games the filters select."""
    with _open(path) as db:
        return reads.selection_size(db, filters)


@cached
def games_by_players(path: str, version: str, filters: GameFilter) -> dict[int, int]:
    """How many games of the selection were played by each number of players."""
    with _open(path) as db:
        rows = reads.games_by(db, "n_players", filters)
    return {int(n): int(g) for n, g in rows.iter_rows()}


@cached
def games_by_edition(path: str, version: str, filters: GameFilter) -> tuple[list[str], list[int]]:
    """How many games of the selection each edition has (editions, counts)."""
    with _open(path) as db:
        rows = reads.games_by(db, "edition", filters)
    return rows["edition"].to_list(), [int(g) for g in rows["games"].to_list()]


def edition_name(edition: str) -> str:
    """An edition's own name, for headings."""
    return names.edition_name(edition)


@cached
def overview(path: str, version: str, filters: GameFilter) -> dict[str, Any]:
    """Counts of the selection and its games by edition, player count, source and month."""
    with _open(path) as db:
        data = reads.overview(db, filters)
    data["by_edition"] = data["by_edition"].with_columns(
        pl.col("edition").map_elements(names.edition_name, return_dtype=pl.Utf8).alias("edition")
    )
    return data


@cached
def club_latest(path: str, version: str, filters: GameFilter) -> dict[str, Any]:
    """The Overview's first lines: the selection's latest games (editions by name) and the latest
    nights of the whole database (the store's latest_games, analysis.corpus.night's latest_nights)."""
    with _open(path) as con:
        games = night_reads.latest_games(con, filters, LATEST_GAMES)
        nights = night_stats.latest_nights(con, LATEST_NIGHTS)
    games = games.with_columns(pl.col("edition").map_elements(names.edition_name, return_dtype=pl.Utf8))
    return {"games": games, "nights": nights}


# ---------------------------------------------------------------- one game


@cached
def game_choices(path: str, version: str, filters: GameFilter) -> tuple[pl.DataFrame, int]:
    """The newest games of the selection (at most GAME_LIST_LIMIT) and how many there are in all."""
    with _open(path) as con:
        return store.list_games(con, filters, GAME_LIST_LIMIT)


@dataclass(frozen=True)
class GameData:
    """What the replay shows of one stored game, besides the deduction: the game as rebuilt from
    its records and its stored rows (players, records, and the analysis where computed)."""

    game: Any  # engine.game.Game, rebuilt by ingest.store.stored_game
    header: dict[str, Any]
    players: pl.DataFrame
    events: pl.DataFrame
    suggestions: pl.DataFrame
    accusations: pl.DataFrame
    problems: pl.DataFrame
    information: pl.DataFrame

    @property
    def over_budget(self) -> list[str]:
        """The messages of the game's over_budget problems (what the budget left out, and why), in
        the reader's language."""
        return over_budget_messages(self.problems.filter(pl.col("code") == "over_budget").to_dicts())


@cached
def replay_game(path: str, version: str, game_id: str) -> GameData:
    """One game and its rows; raises GameNotFound for an unknown id."""
    with _open(path) as con:
        stored = store.stored_game(con, game_id)
    t = stored.tables
    return GameData(
        game=stored.game,
        header=stored.header,
        players=t["players"],
        events=t["events"].select("seq", "line", "type", "player", "payload"),
        suggestions=t["suggestions"],
        accusations=t["accusations"],
        problems=t["problems"].select("seq", "line", "code", "severity", "message", "template", "fields"),
        information=t["information"],
    )


@cached
def replay_timeline(path: str, version: str, game_id: str) -> tuple[pl.DataFrame | None, str | None]:
    """Envelope entropy of every observer after every record, and why it is missing (None: it is not).

    An analysed game's is read from its stored ``information`` rows (analysis.review.timeline); a game
    stored without analysis has it counted here, under the page's budget; a game stored over the
    budget is not counted again (it would pass the budget again): the reason is returned instead.
    When each player became certain is read from ``players.first_certain_seq`` (replay_game)."""
    data = replay_game(path, version, game_id)
    return timeline.game_entropy(
        data.game, data.header, data.information.to_dicts(), data.over_budget, timeline.page_limits()
    )


@cached
def notebook(
    path: str, version: str, game_id: str, observer: str | None, seq: int
) -> tuple[pl.DataFrame | None, str | None]:
    """The observer's notebook after record ``seq`` (card, category, place, probability), counted
    under the page's budget; None and the reason when it passes it."""
    game = replay_game(path, version, game_id).game
    return timeline.notebook_within(game, observer, seq, timeline.page_limits())


@cached
def game_review(path: str, version: str, game_id: str, lang: str) -> dict[str, Any]:
    """The review page's read of one game (analysis.review.rows over its post-mortem): the brief,
    the race to the solution, every suggestion and each player's figures, why each suggestion that
    lost bits did (counted under the page's budget), and why the entropy or those reasons are
    missing when they are; ``places`` says a record by its line (analysis.words.records.Places).
    Its sentences are in ``lang``, the reader's language (words.language(): part of the cache's
    key, so that each language has its own). Raises GameNotFound for an unknown id."""
    with _open(path) as con:
        data = report.gather(con, game_id)
    frame, missing = replay_timeline(path, version, game_id)
    empty = pl.DataFrame(schema={"seq": pl.Int64, "observer": pl.Utf8, "entropy": pl.Float64})
    pm = report.post_mortem(replace(data, entropy=frame if frame is not None else empty))
    whys, whys_missing = why.reasons(data.game, data.suggestions, timeline.page_limits())
    return {
        "brief": pm.brief,
        "race": review.race(pm),
        "moments": pm.moments,  # the report's key moments, computed once in the post-mortem
        "names": pm.names,
        "suggestions": pl.DataFrame(review.suggestion_rows(pm, data), infer_schema_length=None),
        "players": pl.DataFrame(review.player_rows(pm, data), infer_schema_length=None),
        "missing": missing,
        "whys": whys,  # record -> why the suggestion lost bits, in words (analysis.review.why)
        "whys_missing": whys_missing,
        "places": pm.places,
    }


@cached
def puzzle_list(path: str, version: str, player: str | None, night: str | None) -> dict[str, Any]:
    """The Puzzles page's read (analysis.corpus.puzzles): the players with puzzles, the nights, and the
    puzzles of the choice, cards by the edition's names (ids kept as ``*_id``)."""
    with _open(path) as con:
        everyone = puzzles.puzzles(con)
        chosen = everyone if player is None and night is None else puzzles.puzzles(con, player, night)
        ids = chosen.select(
            pl.col("suspect").alias("suspect_id"),
            pl.col("weapon").alias("weapon_id"),
            pl.col("room").alias("room_id"),
            pl.col("best_suspect").alias("best_suspect_id"),
            pl.col("best_weapon").alias("best_weapon_id"),
            pl.col("best_room").alias("best_room_id"),
        )
        named = names.name_columns(
            chosen, ["suspect", "weapon", "room", "best_suspect", "best_weapon", "best_room"], con
        )
    return {
        "players": sorted(set(everyone["player"].to_list())),
        "nights": sorted({n for n in everyone["night"].to_list() if n}, reverse=True),
        "puzzles": pl.concat([named, ids], how="horizontal"),
    }


@cached
def puzzle_attempt(
    path: str,
    version: str,
    game_id: str,
    seq: int,
    cards: tuple[str, str, str],
    best: tuple[str, str, str],
    best_gain: float,
    lang: str,
) -> tuple[Any, str | None]:
    """A suggestion the reader chose at a puzzle, rated against the best (analysis.corpus.puzzles.attempt)
    under the page's budget; None and the reason when it passes it. The reason is said in ``lang``,
    the reader's language (words.language(): part of the cache's key)."""
    game = replay_game(path, version, game_id).game
    try:
        return puzzles.attempt(game, seq, cards, best, best_gain, timeline.page_limits()), None
    except budget.BudgetExceeded as exc:
        return None, exc.message


# ---------------------------------------------------------------- suggestions and accusations

SUGGESTION_CARDS = ("suspect", "weapon", "room", "best_suspect", "best_weapon", "best_room", "shown_card")


@cached
def suggestion_stats(path: str, version: str, filters: GameFilter) -> dict[str, Any]:
    """Gains, accuracy and labels of the selection's suggestions (analysis.corpus.summaries)."""
    with _open(path) as con:
        data = summaries.suggestion_summary(con, filters)
        for key in ("best", "worst"):  # cards by the edition's names
            data[key] = names.name_columns(data[key], SUGGESTION_CARDS, con)
    return data


@cached
def accusation_stats(path: str, version: str, filters: GameFilter) -> dict[str, Any]:
    """p_correct, turns waited, lucky and unlucky guesses and missed wins (analysis.corpus.summaries)."""
    with _open(path) as con:
        data = summaries.accusation_summary(con, filters)
        for key in ("lucky", "unlucky"):  # cards by the edition's names
            data[key] = names.name_columns(data[key], ("suspect", "weapon", "room"), con)
    return data


# ---------------------------------------------------------------- corpus statistics from analysis


@cached
def position_effects(path: str, version: str, filters: GameFilter, dimension: str) -> dict[str, pl.DataFrame]:
    """Starting-position effects (analysis.corpus.positions) for one dimension: "turn_order" (with the
    chi-square test over seats), "character" or "start_square". One dimension at a time, because
    each is a scan of every seat of the selection and a page shows one."""
    with _open(path) as con:
        effects = position_stats.position_effects(con, dimension, filters)
        if dimension == "character":
            effects = names.name_columns(effects, ["character"])
        test = position_stats.seat_test(con, filters) if dimension == "turn_order" else None
    return {"effects": effects, **({"seat_test": test} if test is not None else {})}


@cached
def player_summary(path: str, version: str, filters: GameFilter, by: str) -> pl.DataFrame:
    """Per player (or strategy): games, wins, accuracy, turns waited, missed wins (analysis.corpus.players)."""
    with _open(path) as con:
        return player_stats.player_summary(con, filters, by=by)


@cached
def agent_summary(path: str, version: str, filters: GameFilter, by: str) -> dict[str, Any]:
    """The Agents page's read: the games the filters select of any kind, and per agent (program/model
    or name) the figures over the digital and contest games (analysis.corpus.agents)."""
    with _open(path) as con:
        return {"games": agents.games_of_any_kind(con, filters), "table": agents.agent_summary(con, filters, by=by)}


# ---------------------------------------------------------------- the league (analysis.corpus.league)


@cached
def league_view(path: str, version: str, filters: GameFilter, wanted: str | None) -> dict[str, Any]:
    """The Players page's first read, over one connection: the selection's size, its rated pools
    (pool, games, players) and the leaderboard of the pool ``wanted`` (when the selection rates
    games of it; else of the people's, else of the first pool), and the people's names that may be
    one person (analysis.corpus.ratings.likely_duplicates): selected, pools, pool, board, duplicates."""
    with _open(path) as con:
        selected = reads.selection_size(con, filters)
        pools = league_stats.pool_sizes(con, filters)
        options = pools["pool"].to_list()
        pool = wanted if wanted in options else ("people" if "people" in options else next(iter(options), None))
        board = league_stats.leaderboard(con, pool, filters) if pool is not None else pl.DataFrame()
        duplicates = ratings.likely_duplicates(con)  # over every game: a hint, not a statistic of the selection
    return {"selected": selected, "pools": pools, "pool": pool, "board": board, "duplicates": duplicates}


@cached
def league_board(path: str, version: str, filters: GameFilter, pool: str) -> pl.DataFrame:
    """The pool's leaderboard over the selection (analysis.corpus.league.leaderboard)."""
    with _open(path) as con:
        return league_stats.leaderboard(con, pool, filters)


@cached
def league_details(
    path: str,
    version: str,
    filters: GameFilter,
    pool: str,
    course: tuple[str, ...],
    player: str | None,
    leaders: tuple[str, ...],
) -> dict[str, pl.DataFrame]:
    """What the Players page shows below its leaderboard, over one connection: the course of some
    players over time (``history``), one player's best and worst suggestions and head-to-head, and
    the head-to-head matrix of the leaders (analysis.corpus.league)."""
    empty = pl.DataFrame()
    with _open(path) as con:
        picks = league_stats.suggestions_of(con, pool, player, filters) if player is not None else {}
        return {
            "history": league_stats.history(con, pool, list(course), filters) if course else empty,
            "best": picks.get("best", empty),
            "worst": picks.get("worst", empty),
            "versus": league_reads.head_to_head(con, pool, [player], None, filters) if player is not None else empty,
            "matrix": league_reads.head_to_head(con, pool, list(leaders), list(leaders), filters)
            if len(leaders) >= 2
            else empty,
        }


@cached
def person_view(path: str, version: str, filters: GameFilter, player: str) -> dict[str, Any]:
    """The Player page's read of one person of the people's league, over one connection: their row of
    the leaderboard (``row``, None when they have no rated game in the selection), their games, the
    course of their rating and review accuracy (``history``), label counts, best and worst suggestions
    and head-to-head (analysis.corpus.league)."""
    pool = "people"
    with _open(path) as con:
        board = league_stats.leaderboard(con, pool, filters)
        mine = board.filter(pl.col("player") == player)
        if mine.height == 0:
            return {"row": None, "players": board["player"].to_list()}
        picks = league_stats.suggestions_of(con, pool, player, filters)
        return {
            "row": mine.row(0, named=True),
            "players": board["player"].to_list(),
            "games": league_stats.person_games(con, pool, player, filters),
            "history": league_stats.history(con, pool, [player], filters),
            "labels": league_reads.label_counts(con, pool, player, filters),
            "best": picks["best"],
            "worst": picks["worst"],
            "versus": league_reads.head_to_head(con, pool, [player], None, filters),
        }


# ---------------------------------------------------------------- game nights (analysis.corpus.night)


@cached
def nights(path: str, version: str) -> list[str]:
    """Every night with a stored game (YYYY-MM-DD), the latest first."""
    with _open(path) as con:
        return list(reversed(night_reads.nights_played(con)))


@cached
def night_view(path: str, version: str, night: str) -> dict[str, Any]:
    """What the Night page shows of one night (analysis.corpus.night.stored_night): its games in played order
    (``games``), its players with their ratings before and after (``players``), and its moments
    (``best``, ``blunder``, ``longest_wait``: dicts, or None), each with the line of its record; and
    whether the club gave the games their order (``ordered``)."""
    with _open(path) as con:
        summary, _ = night_stats.stored_night(con, night, night)
        ordered = night_reads.night_ordered(con, [g.game_id for g in summary.games])
        lines = {
            g.game_id: dict(reads.game_table(con, "events", g.game_id).select("seq", "line").iter_rows())
            for g in summary.games
        }
    games = pl.DataFrame(
        [
            {
                "game_id": g.game_id,
                "played_at": g.played_at,
                "place": g.place,
                "edition": g.edition,  # named on the page: this view is kept for every language
                "players": ", ".join(g.players),
                "winner": g.winner,
            }
            for g in summary.games
        ],
        schema={c: pl.Utf8 for c in ("game_id", "played_at", "place", "edition", "players", "winner")},
    )
    players = pl.DataFrame(
        [{**vars(p), "rating_change": p.rating_change} for p in summary.players],
        schema={
            "player": pl.Utf8,
            "pool": pl.Utf8,
            "games": pl.Int64,
            "wins": pl.Int64,
            "review_accuracy": pl.Float64,
            "missed_wins": pl.Int64,
            "rating_before": pl.Float64,
            "rating_after": pl.Float64,
            "sigma_after": pl.Float64,
            "rating_change": pl.Float64,
        },
    )
    moments = {
        key: None if pick is None else {**vars(pick), "line": lines.get(pick.game_id, {}).get(pick.seq)}
        for key, pick in (("best", summary.best), ("blunder", summary.blunder), ("longest_wait", summary.longest_wait))
    }
    return {"games": games, "players": players, "ordered": ordered, **moments}


# ---------------------------------------------------------------- data quality


@cached
def data_quality(path: str, version: str, filters: GameFilter) -> dict[str, Any]:
    """Rejected games (all of them: a rejected game has no trusted edition or date to filter on),
    the warnings kept with the selection's stored games, and the ingest history."""
    with _open(path) as db:
        return reads.data_quality(db, filters)


@cached
def rejected_problems(path: str, version: str, raw_sha256: str, source_file: str | None) -> tuple[pl.DataFrame, str]:
    """Every problem found in one rejected game, and its original text."""
    with _open(path) as db:
        return reads.rejected_problems(db, raw_sha256, source_file)
