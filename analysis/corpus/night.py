"""The night's summary: every game of a game night (or of several), as facts ready to format.

A night is a date: the games whose ``played_at`` falls on it, and those played after midnight until
06:00 the next morning (a club's night runs late). Games without a ``played_at`` belong to no night.
:func:`gather_night` reads, :func:`night_moments` picks the night's moments from the games'
post-mortems; :mod:`analysis.report.night_document` makes the page's document; each game's own
post-mortem (analysis.review.post_mortem) follows the summary on the same page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from clue_stats.analysis.corpus.review_accuracy import with_review_accuracy
from clue_stats.analysis.review.post_mortem import PostMortem, SuggestionLine, gather, post_mortem
from clue_stats.analysis.words.records import Places
from clue_stats.engine.errors import UsageError
from clue_stats.engine.markers import T_
from clue_stats.ingest.store import Store
from clue_stats.ingest.store.queries import nights as reads


@dataclass(frozen=True)
class NightGame:
    game_id: str
    anchor: str  # the id of its section on the page
    night: str
    played_at: str | None
    place: str | None
    edition: str
    pool: str
    players: list[str]  # names in seat order
    winner: str | None


@dataclass(frozen=True)
class Pick:
    """One suggestion or accusation worth naming, with the game it is in."""

    game_id: str
    anchor: str
    seq: int
    player: str
    cards: tuple[str, str, str]
    values: dict[str, Any]
    places: Places = field(default_factory=Places)  # its game's lines and turns: how the page names a record


@dataclass(frozen=True)
class NightPlayer:
    player: str  # the person (after merges)
    pool: str
    games: int
    wins: int
    review_accuracy: float | None  # over all their rated suggestions of the night (analysis.corpus.review_accuracy)
    missed_wins: int | None
    rating_before: float | None  # conservative rating before their first game of the night
    rating_after: float | None  # after their last
    sigma_after: float | None

    @property
    def rating_change(self) -> float | None:
        if self.rating_before is None or self.rating_after is None:
            return None
        return self.rating_after - self.rating_before


@dataclass
class Night:
    first: str
    last: str
    games: list[NightGame]
    best: Pick | None = None  # the night's best suggestion
    blunder: Pick | None = None  # the most bits lost: a blunder by its label, else only the largest loss
    longest_wait: Pick | None = None  # the accusation made the most own turns after certainty
    players: list[NightPlayer] = field(default_factory=list)


def parse_date(text: str) -> str:
    """A date as YYYY-MM-DD, or UsageError (a ValueError) with the reason."""
    try:
        return date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise UsageError(T_("not a date: {text} (write it as YYYY-MM-DD)", text=repr(text))) from None


def anchor(game_id: str) -> str:
    """A section id made of the game id (ids come from logs and may hold any character)."""
    return "game-" + (re.sub(r"[^0-9A-Za-z_-]+", "-", game_id).strip("-") or "x")


def gather_night(con: Store, first: str, last: str) -> Night:
    """The summary of the nights from ``first`` to ``last``: reads only."""
    ids = reads.night_game_ids(con, first, last)
    night = Night(first, last, [])
    if not ids:
        return night
    anchors: dict[str, str] = {}
    for game_id in ids:
        a = anchor(game_id)
        while a in anchors.values():  # two ids that differ only in odd characters
            a += "-"
        anchors[game_id] = a
    seats = reads.seat_names(con, ids)
    info = reads.night_games(con, ids)
    for game_id in ids:
        n, played_at, place, edition, pool, winner = info[game_id]
        night.games.append(
            NightGame(game_id, anchors[game_id], n, played_at, place, edition, pool, seats.get(game_id, []), winner)
        )
    night.players = _players(con, ids)
    return night


def night_moments(night: Night, pms: dict[str, PostMortem]) -> None:
    """Fill in the night's best suggestion, biggest blunder and longest wait after certainty from the
    games' post-mortems (so that an analysis computed for the report counts as a stored one)."""
    rated = [
        (g, s, s.accuracy, s.expected_gain)
        for g in night.games
        if g.game_id in pms
        for s in pms[g.game_id].suggestions
        if s.accuracy is not None and s.expected_gain is not None
    ]
    if rated:
        # best: among the most accurate, the most informative; blunder: the most bits lost
        g, s, _, _ = max(rated, key=lambda r: (r[2], r[3]))
        night.best = _suggestion_pick(g, s, pms[g.game_id].places)
        g, s, _, _ = max(rated, key=lambda r: (r[1].bits_lost or 0.0, -r[2]))
        night.blunder = _suggestion_pick(g, s, pms[g.game_id].places) if (s.bits_lost or 0.0) > 0 else None
    waits = [
        (g, t, t.turns_waited, t.accused_seq, t.accused_cards)
        for g in night.games
        if g.game_id in pms
        for t in pms[g.game_id].timing
        if t.turns_waited and t.accused_seq is not None and t.accused_cards is not None
    ]
    if waits:
        g, t, _, seq, cards = max(waits, key=lambda w: w[2])
        night.longest_wait = Pick(
            g.game_id,
            g.anchor,
            seq,
            t.player,
            cards,
            {"turns_waited": t.turns_waited, "first_certain_seq": t.certain_seq, "correct": t.correct},
            pms[g.game_id].places,
        )


def _suggestion_pick(g: NightGame, s: SuggestionLine, places: Places) -> Pick:
    return Pick(
        g.game_id,
        g.anchor,
        s.seq,
        s.player,
        s.cards,
        {
            "expected_gain_bits": s.expected_gain,
            "best_gain_bits": s.best_gain,
            "bits_lost": s.bits_lost,
            "label": s.label,
            "accuracy": s.accuracy,
            "best_cards": s.best_cards,
        },
        places,
    )


def _players(con: Store, ids: list[str]) -> list[NightPlayer]:
    rows = reads.night_players(con, ids)
    rows = with_review_accuracy(rows).drop("rated_suggestions")
    return [NightPlayer(**row) for row in rows.iter_rows(named=True)]


def stored_night(con: Store, first: str, last: str) -> tuple[Night, dict[str, PostMortem]]:
    """The summary of the nights from ``first`` to ``last`` and each game's post-mortem, from the
    stored analysis alone (the dashboard's Night page; the report may complete a game's analysis)."""
    night = gather_night(con, first, last)
    pms = {g.game_id: post_mortem(gather(con, g.game_id)) for g in night.games}
    night_moments(night, pms)
    return night, pms


def latest_nights(con: Store, limit: int = 5) -> list[dict[str, Any]]:
    """The latest nights with stored games, the latest first: night, games, winners (in played
    order, one entry per game won, persons as the connection names them)."""
    rows = reads.latest_nights(con, limit)
    return [{"night": n, "games": int(c), "winners": list(w or [])} for n, c, w in rows]
