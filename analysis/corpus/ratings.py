"""The league's ratings: openskill's Plackett-Luce model over the stored games, in played order.

A game's result is a ranking (``SEATS_SQL`` of ingest.store.queries.ratings): the winner first, the players still in the game tied
next, players eliminated by a wrong accusation last, the later-eliminated ahead of the earlier; a
game without a winner ranks nobody first. Games are rated in separate pools by their kind (people,
bots, simulations), each in played order (``played_at``; the ingest time where it is missing). A
person is a name, after the merges recorded with ``clue-stats players merge``.

:func:`rating_updates` compares what the ``ratings`` table holds with the games stored now and
recomputes each pool from its first game that differs (a game added, removed or corrected in the
past, or a merge): the result equals a recomputation from scratch. It only reads; the pipeline
hands its rows to ``ingest.store.replace_ratings``, the code that writes.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from clue_stats.analysis.words import _, n_, number
from clue_stats.engine.errors import UsageError
from clue_stats.engine.markers import T_, Said
from clue_stats.engine.problems import joined
from clue_stats.ingest.store import ArrowRows, Store, table_rows
from clue_stats.ingest.store.persons import person_names, standing_merges
from clue_stats.ingest.store.queries import ratings as reads
from clue_stats.ingest.store.queries.ratings import register_person_names

POOLS = ("people", "bots", "simulations")  # the order pages list them in
CONSERVATIVE_SIGMAS = 3.0  # rating = mu - 3 sigma: the skill the player is very likely above


def model() -> PlackettLuce:
    """The rating model: openskill's Plackett-Luce with its defaults (mu 25, sigma 25/3)."""
    return PlackettLuce()


def conservative(mu: float, sigma: float) -> float:
    return mu - CONSERVATIVE_SIGMAS * sigma


# ---------------------------------------------------------------- rating games


@dataclass
class Seat:
    seat: int
    name: str
    player: str
    rank: int


def rate_games(
    games: Iterable[tuple[str, str, int, list[Seat]]],
    start: dict[str, tuple[float, float]] | None = None,
) -> tuple[dict[str, list[Any]], dict[str, tuple[float, float]]]:
    """Rate games one after another: (game_id, content_sha256, game_index, seats) in played order,
    every person starting from ``start`` (mu, sigma) or from the model's first rating.

    Returns the rows (by column) and every person's (mu, sigma) after the last game."""
    m = model()
    start = start or {}
    ratings: dict[str, Any] = {}  # the model's rating objects, made once per person (each holds a uuid)

    def rating_of(player: str) -> Any:
        found = ratings.get(player)
        if found is None:
            found = ratings[player] = m.create_rating(list(start.get(player, (m.mu, m.sigma))))
        return found

    cols: dict[str, list[Any]] = {
        c: []
        for c in (
            "game_index",
            "game_id",
            "content_sha256",
            "seat",
            "name",
            "player",
            "rank",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
        )
    }
    for game_id, sha, index, seats in games:
        teams = [[rating_of(s.player)] for s in seats]
        after = m.rate(teams, ranks=[s.rank for s in seats])
        for s, (before,), (r,) in zip(seats, teams, after):
            ratings[s.player] = r
            cols["game_index"].append(index)
            cols["game_id"].append(game_id)
            cols["content_sha256"].append(sha)
            cols["seat"].append(s.seat)
            cols["name"].append(s.name)
            cols["player"].append(s.player)
            cols["rank"].append(s.rank)
            cols["mu_before"].append(before.mu)
            cols["sigma_before"].append(before.sigma)
            cols["mu_after"].append(r.mu)
            cols["sigma_after"].append(r.sigma)
    state = {**start, **{p: (r.mu, r.sigma) for p, r in ratings.items()}}
    return cols, state


def _table(pool: str, cols: dict[str, list[Any]]) -> ArrowRows:
    n = len(cols["game_id"])
    return table_rows(
        "ratings",
        {
            "pool": [pool] * n,
            **{c: cols[c] for c in ("game_index", "game_id", "content_sha256", "seat", "name", "player", "rank")},
            **{c: cols[c] for c in ("mu_before", "sigma_before", "mu_after", "sigma_after")},
            "rating_before": [conservative(m, s) for m, s in zip(cols["mu_before"], cols["sigma_before"])],
            "rating_after": [conservative(m, s) for m, s in zip(cols["mu_after"], cols["sigma_after"])],
        },
    )


def _first_difference(now: list[tuple[str, str]], stored: list[tuple[str, str]]) -> int:
    for i, (a, b) in enumerate(zip(now, stored)):
        if a != b:
            return i
    return min(len(now), len(stored))


def rating_updates(con: Store, from_scratch: bool = False) -> list[tuple[str, int, ArrowRows]]:
    """What the ``ratings`` table needs to match the stored games: (pool, from_index, rows) for every
    pool whose games changed, each recomputed from its first changed game (from the first game of
    every pool with ``from_scratch``). Reads only; ``store.replace_ratings`` writes the result."""
    register_person_names(con)
    ordered: dict[str, list[tuple[str, str]]] = {}
    for pool, _index, game_id, sha in reads.rated_order(con):
        ordered.setdefault(pool, []).append((game_id, sha))
    stored: dict[str, list[tuple[str, str]]] = {}
    for pool, _index, game_id, sha in reads.stored_order(con):
        stored.setdefault(pool, []).append((game_id, sha))
    starts: dict[str, int] = {}
    for pool in sorted(set(ordered) | set(stored)):
        now, before = ordered.get(pool, []), stored.get(pool, [])
        start = 0 if from_scratch else _first_difference(now, before)
        if start < len(now) or start < len(before):
            starts[pool] = start
    if not starts:
        return []
    state_rows, seats = reads.ratings_from(con, starts)
    states: dict[str, dict[str, tuple[float, float]]] = {}
    for pool, player, mu, sigma in state_rows:
        states.setdefault(pool, {})[player] = (mu, sigma)
    by_pool: dict[str, list[tuple[str, str, int, list[Seat]]]] = {pool: [] for pool in starts}
    for pool, index, game_id, sha, seat, name, player, rank in seats:
        games = by_pool[pool]
        if not games or games[-1][2] != index:
            games.append((game_id, sha, index, []))
        games[-1][3].append(Seat(seat, name, player, rank))
    updates = []
    for pool, start in starts.items():
        cols, _states = rate_games(by_pool[pool], states.get(pool))
        updates.append((pool, start, _table(pool, cols)))
    return updates


# ---------------------------------------------------------------- names and merges


class MergeRefused(UsageError):
    """A merge that cannot be recorded; the message says why."""


# what a pool's seats are, in words (a merge across pools names them)
POOL_SEATS = {"people": T_("a person"), "bots": T_("a bot"), "simulations": T_("a simulated player")}


def merge_plan(con: Store, name: str, merged_into: str, force: bool = False) -> tuple[str, str]:
    """The merge to record for "``name`` is ``merged_into``": between the two persons the names
    belong to now (a name merged before brings its person along). Raises MergeRefused: a name no
    game has, two names already one person, two persons who sat in one game, or (unless ``force``)
    a person and a bot or simulated player (names whose games are rated in different pools)."""
    known = set(reads.known_names(con))
    for n in (name, merged_into):
        if n not in known:
            close = difflib.get_close_matches(n, sorted(known), n=3, cutoff=0.6)
            hint = T_(" (did you mean {names}?)", names=joined(repr(c) for c in close)) if close else ""
            raise MergeRefused(
                T_(
                    "no stored game has a player named {name}{hint}; `clue-stats players` lists them",
                    name=repr(n),
                    hint=hint,
                )
            )
    names = person_names(standing_merges(con))
    a, b = names.get(name, name), names.get(merged_into, merged_into)
    if a == b:
        raise MergeRefused(
            T_(
                "{name} and {other} are already one person ({person})",
                name=repr(name),
                other=repr(merged_into),
                person=repr(b),
            )
        )
    aliases_a = [n for n in known if names.get(n, n) == a]
    aliases_b = [n for n in known if names.get(n, n) == b]
    together = reads.games_together(con, aliases_a, aliases_b)
    if together:
        games = ", ".join(together)
        raise MergeRefused(
            T_(
                "{name} and {other} sat at the same table (game {games}): two people, not one; not merged",
                name=repr(name),
                other=repr(merged_into),
                games=games,
            )
        )
    if not force:
        pools_a, pools_b = reads.pools_of(con, aliases_a), reads.pools_of(con, aliases_b)
        if pools_a != pools_b:
            raise MergeRefused(
                T_(
                    "{name} played as {seats} and {other} as {other_seats}: their games are rated apart; not merged "
                    "(--force merges them anyway)",
                    name=repr(name),
                    seats=_seat_words(pools_a),
                    other=repr(merged_into),
                    other_seats=_seat_words(pools_b),
                )
            )
    return a, b


def _seat_words(pools: set[str]) -> str | Said:
    return joined((POOL_SEATS.get(p, p) for p in POOLS if p in pools), "and")


def player_names(con: Store, pools: Iterable[str] = ("people",)) -> list[dict[str, Any]]:
    """Every person of the pools: their name, the other names they played under, games, first and
    last played, their review accuracy over all their rated suggestions (analysis.corpus.review_accuracy) and how
    many were rated, and the merges that made them one (name -> merged into)."""
    from clue_stats.analysis.corpus.review_accuracy import with_review_accuracy  # deferred: start-up

    resolved = register_person_names(con)
    rows = reads.persons(con, pools)
    merges = standing_merges(con)
    return [
        {
            "person": r["person"],
            "names": [n for n in r["names"] if n != r["person"]],
            "games": r["games"],
            "first_played": r["first_played"],
            "last_played": r["last_played"],
            "pools": list(r["pools"]),
            "rated_suggestions": r["rated_suggestions"],
            "review_accuracy": r["review_accuracy"],
            "merges": [{"name": a, "merged_into": b} for a, b in merges if resolved[a] == r["person"]],
        }
        for r in with_review_accuracy(rows).iter_rows(named=True)
    ]


def max_edits(a: str, b: str) -> int:
    """How many edits apart two names may be to look like one person's: two, but one for names of
    up to five letters and none for names of up to two ("Ben" and "Bob" are two people)."""
    shorter = min(len(a), len(b))
    return 0 if shorter <= 2 else 1 if shorter <= 5 else 2


def likely_duplicates(con: Store, pool: str = "people") -> list[dict[str, Any]]:
    """Pairs of persons of a pool who may be one: names within max_edits of each other (Levenshtein,
    case ignored) who never sat at one table; the one with more games first (the name to keep):
    keep, other, edits, games of each."""
    rows = reads.similar_persons(con, pool)
    return [
        {"keep": k, "other": o, "edits": int(e), "keep_games": int(kg), "other_games": int(og)}
        for k, o, e, kg, og in rows
        if e <= max_edits(k, o)
    ]


def duplicate_words(pair: dict[str, Any]) -> str:
    """Why two names look like one person, in words: "1 letter apart, never at one table, 3 and 1 games"."""
    edits = pair["edits"]
    apart = _("the same but for capitals") if edits == 0 else n_(edits, "{n} letter apart", "{n} letters apart")
    return n_(
        pair["other_games"],
        "{apart}, never at one table, {keep} and {n} game",
        "{apart}, never at one table, {keep} and {n} games",
        apart=apart,
        keep=number(pair["keep_games"]),
    )
