"""Benchmark: the dashboard on 100,000 games. Prints figures; asserts nothing.

1. A base corpus is ingested for real: the sample games and simulated games at 3 to 6 players
   (analysed; the 3-player ones also with the best available gain, so accuracy exists).
2. It is replicated with SQL to the wanted number of games: every row of every per-game table is
   copied under a new game id, with dates spread over three years, so the tables have the size and
   shape of a client maker's corpus (about 100 rows of events and 150 of information per game).
3. Each page is rendered through Streamlit's AppTest with every cache cleared ("first render"),
   then the player-count filter is changed ("filter change"). The same is done on the base corpus
   first, in the same process, as the reference the 100,000-game figures are compared with.

    .venv/bin/python benchmarks/dashboard_speed.py [--games 100000] [--db build/bench-dashboard.duckdb]

An existing database with the wanted number of games is reused (building one takes a few minutes).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from clue_stats import pipeline  # noqa: E402
from clue_stats.dashboard import pages  # noqa: E402
from clue_stats.engine.simulate import simulate  # noqa: E402
from clue_stats.ingest import cluelog, store  # noqa: E402
from clue_stats.ingest.store import GAME_TABLES  # noqa: E402
from clue_stats.ingest.store.queries import measuring  # noqa: E402
from clue_stats.pipeline import analyse_store  # noqa: E402

APP = ROOT / "dashboard" / "app.py"
PAGES = [p.slug for p in pages.PAGES]  # every page the app registers
STRATEGIES = ("notebook", "random", "bluffer")
TARGET_SECONDS = 1.0


def build_base(db: Path, work: Path, deep_games: int, games_per_count: int) -> None:
    """Real ingest of the samples and of simulated games (analysed; the 3-player ones deep too)."""
    t = time.perf_counter()
    deep_file = work / "sim-3p.jsonl"
    deep_file.write_text(cluelog.write_games(simulate(deep_games, 3, "classic", STRATEGIES, seed=11)), encoding="utf-8")
    pipeline.ingest_paths([str(deep_file)], db, analyse=True, workers=2)
    analyse_store(db, workers=2)
    files = []
    for players in (4, 5, 6):
        path = work / f"sim-{players}p.jsonl"
        path.write_text(
            cluelog.write_games(simulate(games_per_count, players, "classic", STRATEGIES, seed=players)),
            encoding="utf-8",
        )
        files.append(str(path))
    pipeline.ingest_paths([*files, str(ROOT / "data" / "samples")], db, analyse=True, workers=2)
    print(f"base corpus ingested and analysed in {time.perf_counter() - t:.1f} s")


def replicate(db: Path, target: int) -> None:
    """Copy every game's rows under new ids until the database holds ``target`` games."""
    t = time.perf_counter()
    with store.write_connection(db) as con:
        measuring.replicate_games(con, target, GAME_TABLES)
        sizes = {t: measuring.count_rows(con, t) for t in GAME_TABLES}
    print(
        f"replicated to {sizes['games']:,} games in {time.perf_counter() - t:.1f} s: "
        + ", ".join(f"{t} {n:,}" for t, n in sizes.items())
    )
    # the copies are new games to the league: rated as ingest would (benchmarks/ratings.py times this alone)
    t = time.perf_counter()
    with store.write_connection(db) as con:
        pools = pipeline.update_ratings(con)
        rows = measuring.count_rows(con, "ratings")
    print(f"ratings of {', '.join(pools)} computed in {time.perf_counter() - t:.1f} s ({rows:,} rows)")


def cpu_seconds() -> float:
    """CPU time of this process, every thread (DuckDB's and Streamlit's) included."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def time_pages(db: Path, label: str) -> dict[str, tuple[float, float]]:
    """page -> (first render, filter change) in seconds, every cache cleared before a first render;
    the CPU time of each first render is printed beside it (steadier than wall time under load)."""
    os.environ["CLUE_STATS_DB"] = str(db)
    with store.read_connection(db) as con:
        count = measuring.commonest_n_players(con)
    results = {}
    cpus: dict[str, float] = {}
    for page in PAGES:
        at = AppTest.from_file(str(APP), default_timeout=600)
        if page != pages.DEFAULT.slug:
            at.switch_page(pages.page(page).file)  # a visitor landing on this page
        st.cache_data.clear()
        start, cpu = time.perf_counter(), cpu_seconds()
        at.run()
        first = time.perf_counter() - start
        cpus[page] = cpu_seconds() - cpu
        assert at.title and at.title[0].value, page
        problems = [e.value for e in at.exception] + [e.value for e in at.error]
        start = time.perf_counter()
        at.selectbox(key="filter_players").set_value(count).run()
        change = time.perf_counter() - start
        problems += [e.value for e in at.exception] + [e.value for e in at.error]
        if problems:
            print(f"  {page}: PROBLEM {problems}")
        results[page] = (first, change)
    print(f"\n{label}")
    print(f"  {'page':<12} {'first render':>13} {'(CPU)':>8} {'filter change':>14}")
    for page, (first, change) in results.items():
        print(f"  {page:<12} {first:>12.3f}s {cpus[page]:>7.3f}s {change:>13.3f}s")
    return results


NEXT_RECORD_TARGET = 0.3  # seconds: the replay's "Next record" click (issue 21)


def time_next_record(db: Path, label: str, clicks: int = 8) -> float:
    """The replay of an analysed 6-player game, opened at its first record, then "Next record"
    clicked ``clicks`` times, every cache cleared first: the median seconds a click. The entropy over
    the game is read from the stored information rows (once, then cached); each click counts the
    observer's notebook at the new record."""
    os.environ["CLUE_STATS_DB"] = str(db)
    with store.read_connection(db) as con:
        game_id = measuring.first_reviewed_game(con, 6)
    st.cache_data.clear()
    at = AppTest.from_file(str(APP), default_timeout=600)
    at.query_params["game"] = game_id
    at.query_params["seq"] = "1"
    at.run()
    start = time.perf_counter()
    at.switch_page(pages.page("replay").file).run()
    opened = time.perf_counter() - start
    times = []
    for _ in range(clicks):
        start = time.perf_counter()
        at.button(key="replay_next").click().run()
        times.append(time.perf_counter() - start)
        problems = [e.value for e in at.exception] + [e.value for e in at.error]
        if problems:
            print(f"  replay: PROBLEM {problems}")
    times.sort()
    median = times[len(times) // 2]
    print(
        f"  {label}: replay of {game_id} opened in {opened:.3f} s; next record median {median:.3f} s "
        f"(min {times[0]:.3f}, max {times[-1]:.3f}; target {NEXT_RECORD_TARGET:g} s)"
    )
    return median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--db", type=Path, default=ROOT / "build" / "bench-dashboard.duckdb")
    parser.add_argument(
        "--deep-games", type=int, default=16, help="simulated 3-player games analysed with the best gain"
    )
    parser.add_argument("--games-per-count", type=int, default=8, help="simulated games at each of 4, 5 and 6 players")
    parser.add_argument("--next-record-only", action="store_true", help="time only the replay's next record")
    args = parser.parse_args()

    args.db.parent.mkdir(parents=True, exist_ok=True)
    base_db = args.db.with_name(args.db.stem + "-base.duckdb")
    with tempfile.TemporaryDirectory() as work:
        if not base_db.exists():
            build_base(base_db, Path(work), args.deep_games, args.games_per_count)
    existing = 0
    if args.db.exists():
        with store.read_connection(args.db) as con:
            existing = measuring.count_rows(con, "games")
    if existing != args.games:
        args.db.unlink(missing_ok=True)
        Path(f"{args.db}.wal").unlink(missing_ok=True)
        args.db.write_bytes(base_db.read_bytes())
        replicate(args.db, args.games)
    size_mb = args.db.stat().st_size / 1e6

    # the first runs of a process pay for imports and for loading the deduction engine's compiled
    # kernels; keep that out of both measurements by showing every page once beforehand
    os.environ["CLUE_STATS_DB"] = str(base_db)
    for page in PAGES:
        warm = AppTest.from_file(str(APP), default_timeout=600)
        if page != pages.DEFAULT.slug:
            warm.switch_page(pages.page(page).file)
        warm.run()
    with store.read_connection(base_db) as con:
        base_games = measuring.count_rows(con, "games")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} (other work running shares them)")
    print("\nthe replay's next record")
    next_base = time_next_record(base_db, f"reference ({base_games} games)")
    next_big = time_next_record(args.db, f"{args.games:,} games")
    print(f"  ratio {next_big / next_base:.1f}x")
    if args.next_record_only:
        return
    reference = time_pages(base_db, f"reference: the base corpus ({base_games} games)")
    big = time_pages(args.db, f"{args.games:,} games ({size_mb:,.0f} MB)")
    print(f"\n  {'page':<12} {'ratio first':>12} {'ratio change':>13}   target {TARGET_SECONDS:g} s each")
    for page in PAGES:
        (f0, c0), (f1, c1) = reference[page], big[page]
        verdict = "ok" if max(f1, c1) < TARGET_SECONDS else "SLOW"
        print(f"  {page:<12} {f1 / f0:>11.1f}x {c1 / c0:>12.1f}x   {verdict}")


if __name__ == "__main__":
    main()
