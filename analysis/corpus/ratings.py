"""The league's ratings: openskill's Plackett-Luce model over the stored games, in played order.

A game's result is a ranking (``RANK_SQL``): the winner first, the players still in the game tied
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

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
from openskill.models import PlackettLuce

from clue_stats.analysis.corpus.review_accuracy import review_sums, summed, with_review_accuracy
from clue_stats.analysis.words import _, n_, number
from clue_stats.engine.errors import UsageError
from clue_stats.engine.problems import T_, Said, joined
from clue_stats.ingest.kinds import CONTEST, DIGITAL, SIMULATED, TABLETOP
from clue_stats.ingest.store import Store
from clue_stats.ingest.store.persons import person_names, standing_merges

POOLS = ("people", "bots", "simulations")  # the order pages list them in
CONSERVATIVE_SIGMAS = 3.0  # rating = mu - 3 sigma: the skill the player is very likely above

# The pool of a game (alias g: games), from its kind (ingest.kinds): people's tabletop and digital
# games are rated together, bot contests and clue-stats' simulations each on their own.
POOL_OF_KIND = {TABLETOP: "people", DIGITAL: "people", CONTEST: "bots", SIMULATED: "simulations"}
POOL_SQL = (
    "CASE {g}.kind "
    + " ".join(f"WHEN '{kind}' THEN '{pool}'" for kind, pool in POOL_OF_KIND.items() if pool != "people")
    + " ELSE 'people' END"
)

# Played order. A game's moment is its played_at as written (ISO text sorts in time order); a game
# with a date but no time takes the time of the game typed before it in its file on that date, so that
# it stays where it was typed among the timed ones (a club that timed the first two games of a night
# and not the third: the third is third); a game without played_at, its ingest time. Ties (one
# moment, or dates alone) in the order the games were stored and read: ingested_at, then the source
# file and the line. PLAYED_SQL gives every game its moment (played_key); ORDER_SQL orders by it,
# {k} being the alias of PLAYED_SQL's rows and {g} that of games.
_TIMED = "CASE WHEN length(played_at) > 10 THEN replace(played_at, ' ', 'T') END"
PLAYED_SQL = f"""
SELECT game_id, coalesce(
    {_TIMED},
    CASE WHEN played_at IS NOT NULL THEN coalesce(
        last_value({_TIMED} IGNORE NULLS) OVER (
            PARTITION BY source_file, left(played_at, 10) ORDER BY line NULLS LAST, ingested_at, game_id
            ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
        played_at) END,
    strftime(ingested_at, '%Y-%m-%dT%H:%M:%S')) AS played_key
FROM games"""
ORDER_SQL = "{k}.played_key, {g}.ingested_at, {g}.source_file NULLS LAST, {g}.line NULLS LAST, {g}.game_id"

# Every seat with its person and its rank in the game (needs the registered table person_names).
SEATS_SQL = """
WITH out_at AS (
    SELECT game_id, player, min(seq) AS out_seq FROM accusations WHERE correct = false GROUP BY ALL
)
SELECT p.game_id, p.seat, p.name, coalesce(m.person, p.name) AS player,
       CASE WHEN p.won THEN 1
            WHEN NOT p.eliminated THEN 2
            -- the later-eliminated ahead of the earlier (an elimination without its accusation counts as first)
            ELSE 2 + dense_rank() OVER (PARTITION BY p.game_id, p.eliminated AND NOT p.won
                                        ORDER BY coalesce(o.out_seq, -1) DESC)
       END AS rank
FROM players p
LEFT JOIN person_names m ON m.name = p.name
LEFT JOIN out_at o ON o.game_id = p.game_id AND o.player = p.name
"""

# The games rated, in each pool's played order: two players at least, no person twice in one game.
ORDERED_SQL = f"""
WITH seats AS ({SEATS_SQL}),
rateable AS (
    SELECT game_id FROM seats GROUP BY game_id HAVING count(*) >= 2 AND count(DISTINCT player) = count(*)
),
played AS ({PLAYED_SQL}),
pooled AS (
    SELECT g.*, {POOL_SQL.format(g="g")} AS pool, k.played_key
    FROM games g JOIN played k USING (game_id) WHERE g.game_id IN (SELECT game_id FROM rateable)
)
SELECT pool, (row_number() OVER (PARTITION BY pool ORDER BY {ORDER_SQL.format(g="g", k="g")}) - 1)::INTEGER
       AS game_index, game_id, content_sha256
FROM pooled g
"""


def model() -> PlackettLuce:
    """The rating model: openskill's Plackett-Luce with its defaults (mu 25, sigma 25/3)."""
    return PlackettLuce()


def conservative(mu: float, sigma: float) -> float:
    return mu - CONSERVATIVE_SIGMAS * sigma


# ---------------------------------------------------------------- who is who


def register_person_names(con: Store) -> dict[str, str]:
    """Make the table ``person_names(name, person)`` visible to this connection's queries."""
    names = person_names(standing_merges(con))
    con.register(
        "person_names",
        pa.table({"name": pa.array(list(names), pa.string()), "person": pa.array(list(names.values()), pa.string())}),
    )
    return names


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
) -> tuple[dict[str, list], dict[str, tuple[float, float]]]:
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

    cols: dict[str, list] = {
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


def _table(pool: str, cols: dict[str, list]) -> pa.Table:
    n = len(cols["game_id"])
    return pa.table(
        {
            "pool": pa.array([pool] * n, pa.string()),
            "game_index": pa.array(cols["game_index"], pa.int32()),
            "game_id": pa.array(cols["game_id"], pa.string()),
            "content_sha256": pa.array(cols["content_sha256"], pa.string()),
            "seat": pa.array(cols["seat"], pa.int32()),
            "name": pa.array(cols["name"], pa.string()),
            "player": pa.array(cols["player"], pa.string()),
            "rank": pa.array(cols["rank"], pa.int32()),
            "mu_before": pa.array(cols["mu_before"], pa.float64()),
            "sigma_before": pa.array(cols["sigma_before"], pa.float64()),
            "mu_after": pa.array(cols["mu_after"], pa.float64()),
            "sigma_after": pa.array(cols["sigma_after"], pa.float64()),
            "rating_before": pa.array(
                [conservative(m, s) for m, s in zip(cols["mu_before"], cols["sigma_before"])], pa.float64()
            ),
            "rating_after": pa.array(
                [conservative(m, s) for m, s in zip(cols["mu_after"], cols["sigma_after"])], pa.float64()
            ),
        }
    )


def _first_difference(now: list[tuple[str, str]], stored: list[tuple[str, str]]) -> int:
    for i, (a, b) in enumerate(zip(now, stored)):
        if a != b:
            return i
    return min(len(now), len(stored))


def rating_updates(con: Store, from_scratch: bool = False) -> list[tuple[str, int, pa.Table]]:
    """What the ``ratings`` table needs to match the stored games: (pool, from_index, rows) for every
    pool whose games changed, each recomputed from its first changed game (from the first game of
    every pool with ``from_scratch``). Reads only; ``store.replace_ratings`` writes the result."""
    register_person_names(con)
    ordered: dict[str, list[tuple[str, str]]] = {}
    for pool, _index, game_id, sha in con.execute(f"{ORDERED_SQL} ORDER BY pool, game_index").fetchall():
        ordered.setdefault(pool, []).append((game_id, sha))
    stored: dict[str, list[tuple[str, str]]] = {}
    for pool, _index, game_id, sha in con.execute(
        "SELECT DISTINCT pool, game_index, game_id, content_sha256 FROM ratings ORDER BY pool, game_index"
    ).fetchall():
        stored.setdefault(pool, []).append((game_id, sha))
    starts: dict[str, int] = {}
    for pool in sorted(set(ordered) | set(stored)):
        now, before = ordered.get(pool, []), stored.get(pool, [])
        start = 0 if from_scratch else _first_difference(now, before)
        if start < len(now) or start < len(before):
            starts[pool] = start
    if not starts:
        return []
    con.register(
        "rating_starts",
        pa.table({"pool": list(starts), "start_index": pa.array(list(starts.values()), pa.int32())}),
    )
    state_rows = con.execute(
        """
        SELECT r.pool, r.player, arg_max(r.mu_after, r.game_index), arg_max(r.sigma_after, r.game_index)
        FROM ratings r JOIN rating_starts s ON s.pool = r.pool AND r.game_index < s.start_index
        GROUP BY ALL"""
    ).fetchall()
    states: dict[str, dict[str, tuple[float, float]]] = {}
    for pool, player, mu, sigma in state_rows:
        states.setdefault(pool, {})[player] = (mu, sigma)
    seats = con.execute(
        f"""
        WITH ordered AS ({ORDERED_SQL}), seats AS ({SEATS_SQL})
        SELECT o.pool, o.game_index, o.game_id, o.content_sha256, s.seat, s.name, s.player, s.rank
        FROM ordered o JOIN rating_starts st ON st.pool = o.pool AND o.game_index >= st.start_index
        JOIN seats s ON s.game_id = o.game_id
        ORDER BY o.pool, o.game_index, s.seat"""
    ).fetchall()
    con.unregister("rating_starts")
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


def _known_names(con: Store) -> list[str]:
    return [r[0] for r in con.execute("SELECT DISTINCT name FROM players ORDER BY name").fetchall()]


# what a pool's seats are, in words (a merge across pools names them)
POOL_SEATS = {"people": T_("a person"), "bots": T_("a bot"), "simulations": T_("a simulated player")}


def merge_plan(con: Store, name: str, merged_into: str, force: bool = False) -> tuple[str, str]:
    """The merge to record for "``name`` is ``merged_into``": between the two persons the names
    belong to now (a name merged before brings its person along). Raises MergeRefused: a name no
    game has, two names already one person, two persons who sat in one game, or (unless ``force``)
    a person and a bot or simulated player (names whose games are rated in different pools)."""
    import difflib

    known = set(_known_names(con))
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
    together = con.execute(
        """
        SELECT p.game_id FROM players p WHERE p.name IN (SELECT unnest(?))
        INTERSECT SELECT q.game_id FROM players q WHERE q.name IN (SELECT unnest(?))
        ORDER BY 1 LIMIT 3""",
        [aliases_a, aliases_b],
    ).fetchall()
    if together:
        games = ", ".join(r[0] for r in together)
        raise MergeRefused(
            T_(
                "{name} and {other} sat at the same table (game {games}): two people, not one; not merged",
                name=repr(name),
                other=repr(merged_into),
                games=games,
            )
        )
    if not force:
        pools_a, pools_b = _pools_of(con, aliases_a), _pools_of(con, aliases_b)
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


def _pools_of(con: Store, names: list[str]) -> set[str]:
    """The pools of the games these names sat in."""
    rows = con.rows(
        f"SELECT DISTINCT {POOL_SQL.format(g='g')} FROM players p JOIN games g USING (game_id) "
        "WHERE p.name IN (SELECT unnest(?))",
        [names],
    )
    return {r[0] for r in rows}


def _seat_words(pools: set[str]) -> str | Said:
    return joined((POOL_SEATS.get(p, p) for p in POOLS if p in pools), "and")


def player_names(con: Store, pools: Iterable[str] = ("people",)) -> list[dict]:
    """Every person of the pools: their name, the other names they played under, games, first and
    last played, their review accuracy over all their rated suggestions (analysis.corpus.review_accuracy) and how
    many were rated, and the merges that made them one (name -> merged into)."""
    resolved = register_person_names(con)
    rows = con.frame(
        f"""
        WITH rev AS (SELECT s.game_id, s.player, {review_sums("s")} FROM suggestions s GROUP BY ALL),
        seats AS (
            SELECT p.name, coalesce(m.person, p.name) AS person, p.game_id, g.played_at,
                   {POOL_SQL.format(g="g")} AS pool, rev.review_expected_bits, rev.review_best_bits,
                   rev.rated_suggestions
            FROM players p JOIN games g USING (game_id) LEFT JOIN person_names m ON m.name = p.name
            LEFT JOIN rev ON rev.game_id = p.game_id AND rev.player = p.name
        )
        SELECT person, list(DISTINCT name ORDER BY name) AS names, count(DISTINCT game_id)::BIGINT AS games,
               min(left(played_at, 10)) AS first_played, max(left(played_at, 10)) AS last_played,
               list(DISTINCT pool ORDER BY pool) AS pools, {summed("seats")}
        FROM seats WHERE pool IN (SELECT unnest(?))
        GROUP BY person ORDER BY games DESC, person""",
        [list(pools)],
    )
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


def likely_duplicates(con: Store, pool: str = "people") -> list[dict]:
    """Pairs of persons of a pool who may be one: names within max_edits of each other (Levenshtein,
    case ignored) who never sat at one table; the one with more games first (the name to keep):
    keep, other, edits, games of each."""
    rows = con.execute(
        """
        WITH persons AS (SELECT player, count(*) AS games FROM ratings WHERE pool = ? GROUP BY player),
        pairs AS (
            SELECT a.player AS keep, b.player AS other, a.games AS keep_games, b.games AS other_games,
                   levenshtein(lower(a.player), lower(b.player)) AS edits
            FROM persons a JOIN persons b ON (a.games, b.player) > (b.games, a.player)
            WHERE abs(length(a.player) - length(b.player)) <= 2
        )
        SELECT keep, other, edits, keep_games, other_games FROM pairs
        WHERE edits <= 2 AND NOT EXISTS (SELECT 1 FROM ratings x JOIN ratings y USING (game_id)
                          WHERE x.pool = ? AND x.player = pairs.keep AND y.player = pairs.other)
        ORDER BY edits, keep_games + other_games DESC, keep, other""",
        [pool, pool],
    ).fetchall()
    return [
        {"keep": k, "other": o, "edits": int(e), "keep_games": int(kg), "other_games": int(og)}
        for k, o, e, kg, og in rows
        if e <= max_edits(k, o)
    ]


def duplicate_words(pair: dict) -> str:
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
