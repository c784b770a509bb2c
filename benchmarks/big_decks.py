"""Benchmark: the exact engine on decks the size of *Clue: Master Detective* (10 suspects, 8 weapons,
12 rooms), at 3, 4 and 6 players, every view of whole games of notebook play, against the plain
reference (clue_stats/testing.py, plain_vector_counts) run in the same process.

    .venv/bin/python benchmarks/big_decks.py [--games 3] [--players 3,4,6] [--plain-limit 60]
    .venv/bin/python benchmarks/big_decks.py --wide [--games 2]
    .venv/bin/python benchmarks/big_decks.py --ingest [--plain-factor 10] [--strategies random,notebook]

``--ingest``: issue 21's games analysed whole by ``clue-stats ingest`` with its defaults (the
information table, accusation timing and the whole review), each game from a file of its own into a
fresh database, end to end in a subprocess (its CPU time and that of its workers, the start-up
included), against the plain program's information table of the same game (every observer, each
distinct knowledge once) in this process, stopped once it has taken ``--plain-factor`` times the
CPU time of the game's ingest (its ratio then a lower bound, "≥"): ``clue-stats
simulate --games 3 --players 6 --deck 10,8,12 --seed 5`` with random and with notebook play, every
hand dealt, and the same games as logged by their first player alone (only that hand, and only
the shown cards that player saw).

``--wide``: decks past the int64 program (10/10/15 at 6 players): the table's view of generated
games (8 random suggestions), each record whose plan does not fit 63 bits counted by the compiled
program with remainders (counting_kernel.run_wide) and by the exact Python program, CPU time, the
counts compared.

The games are simulated (engine.simulate with a custom deck: the live variant, no board) between
notebook players, every hand dealt. Per game and view (each player, who knows their hand, and the
table, a spectator with no hand who does not see the shown cards) the engine computes the envelope
entropy after every record from cold caches, as entropy_table does for one observer: a view's whole
game, and its slowest single record. Each game runs in a forked process of its own, whose peak
resident memory after the engine's views (ru_maxrss) is reported, with how far it rose above the
process's resident memory when the game began. Times are CPU time. The plain reference then counts the same view's whole
game (each distinct knowledge once), with a time limit per view (a view cut short counts with the
time it had: its ratio is a lower bound), and every solution's count of every record it finished is
compared with the engine's.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clue_stats.engine import budget, counting, counting_kernel
from clue_stats.engine.deduction import TABLE, clear_caches, envelope_entropy, knowledge_timeline, observers
from clue_stats.engine.game import Suggest
from clue_stats.engine.simulate import custom_deck, play_game, setup
from clue_stats.ingest.store import read_connection
from clue_stats.ingest.store.queries import measuring
from clue_stats.pipeline import read_game_file
from clue_stats.testing import OutOfTime, plain_vector_counts, random_game, small_deck

DECK = (10, 8, 12)


def view_kind(observer: str | None) -> str:
    return "table" if observer is TABLE else "players"


def measure_game(players: int, seed: int, index: int, plain_limit: float) -> dict:
    """Everything measured on one game (run in a process of its own)."""
    out_start = _rss_mb()
    plan = setup(players, strategies=["notebook"], seed=seed, deck=custom_deck(*DECK))
    game = play_game(plan, index)
    out: dict = {
        "suggestions": sum(isinstance(r, Suggest) for r in game.records),
        "views": {"players": [], "table": []},  # (engine, plain, plain cut short, records differing)
        "worst": {"players": 0.0, "table": 0.0},
    }
    timelines = {o: knowledge_timeline(game, o) for o in (*game.names, TABLE)}
    with budget.limited(budget.Limits(states=None, memory_mb=None, seconds=None)) as spending:
        engine_times = measure_views(timelines, out)  # no limit: the states generated are counted
    out["states"] = spending.spent
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["rss_start_mb"] = out_start
    for observer, timeline in timelines.items():
        # the plain program counts each of the view's knowledge once (as the engine's cache does)
        plain, cut, differ = 0.0, False, 0
        for k in dict.fromkeys(timeline):
            start = time.process_time()
            try:
                counts = plain_vector_counts(k, deadline=start + plain_limit - plain)
            except OutOfTime:
                cut = True
            plain += time.process_time() - start
            if cut:
                break
            differ += dict(counting.solution_counts_by_index(k)) != {e: n for e, n in counts.items() if n}
        out["views"][view_kind(observer)].append((engine_times[observer], plain, cut, differ))
    return out


def _rss_mb() -> float:
    """The resident memory of this process now (Linux)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def measure_views(timelines: dict, out: dict) -> dict:
    """Observer -> the engine's time on the view's whole game, from cold caches; the slowest
    record of each kind of view goes to out["worst"]."""
    engine_times = {}
    for observer, timeline in timelines.items():
        kind = view_kind(observer)
        clear_caches()
        engine = 0.0
        for k in timeline:
            start = time.process_time()
            envelope_entropy(k)
            elapsed = time.process_time() - start
            engine += elapsed
            out["worst"][kind] = max(out["worst"][kind], elapsed)
        engine_times[observer] = engine
    return engine_times


def _child(args: tuple, queue) -> None:
    queue.put(measure_game(*args))


def in_own_process(args: tuple) -> dict:
    ctx = multiprocessing.get_context("fork")  # the compiled kernel, loaded once, is inherited
    queue = ctx.Queue()
    process = ctx.Process(target=_child, args=(args, queue))
    process.start()
    result = queue.get()
    process.join()
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per player count")
    parser.add_argument("--players", default="3,4,6")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plain-limit", type=float, default=60.0, help="CPU seconds of the plain program per view")
    parser.add_argument("--wide", action="store_true", help="decks past the int64 program (10/10/15)")
    parser.add_argument(
        "--ingest", action="store_true", help="issue 21's games: the default ingest against the plain table"
    )
    parser.add_argument(
        "--plain-factor", type=float, default=10.0, help="--ingest: the plain program's time, at most, in ingests"
    )
    parser.add_argument(
        "--strategies", default="random,notebook", help="--ingest: whose play (random, notebook or both)"
    )
    args = parser.parse_args(argv)
    if args.wide:
        wide(args.games)
        return
    if args.ingest:
        ingest(args.plain_factor, tuple(args.strategies.split(",")))
        return

    warm = play_game(setup(3, strategies=["notebook"], seed=10**6, deck=custom_deck(*DECK)), 0)
    for k in knowledge_timeline(warm, TABLE)[::4]:  # load the compiled kernel before forking
        envelope_entropy(k)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    ns, nw, nr = DECK
    print(
        f"big decks: {ns} suspects, {nw} weapons, {nr} rooms; {args.games} notebook games per player count; "
        f"CPU time; the process before the games: {base:.0f} MB"
    )
    ms = 1000.0
    for players in (int(p) for p in args.players.split(",")):
        results = [in_own_process((players, args.seed, i, args.plain_limit)) for i in range(args.games)]
        suggestions = [r["suggestions"] for r in results]
        print(
            f"\n{players} players: {statistics.mean(suggestions):.1f} suggestions a game "
            f"({min(suggestions)} to {max(suggestions)}), peak memory of a game's process "
            f"{max(r['peak_rss_mb'] for r in results):.0f} MB (at most "
            f"{max(r['peak_rss_mb'] - r['rss_start_mb'] for r in results):.0f} MB above its size when the game began); states generated by a game's counts (every view) "
            f"{max(r['states'] for r in results):,} at most (budget.DEFAULT_WORK: {budget.DEFAULT_WORK:,})"
        )
        for kind, label in (("players", "each player (hand known)"), ("table", "the table (spectator)")):
            views = [v for r in results for v in r["views"][kind]]
            engine = [v[0] for v in views]
            per_game = [sum(v[0] for v in r["views"][kind]) for r in results]
            worst = max(r["worst"][kind] for r in results)
            cut = sum(v[2] for v in views)
            bound = "≥ " if cut else ""
            ratios = [v[1] / max(v[0], 1e-9) for v in views]
            print(
                f"  {label:25} a view's whole game: median {statistics.median(engine) * ms:7.1f} ms, max "
                f"{max(engine) * ms:7.1f} ms; all {len(views) // len(results)} such views of a game "
                f"{statistics.median(per_game) * ms:7.1f} ms (median); worst record {worst * ms:6.1f} ms"
            )
            print(
                f"  {'':25} plain reference, a view's whole game: median {bound}"
                f"{statistics.median(v[1] for v in views):7.2f} s ({cut} of {len(views)} views cut at "
                f"{args.plain_limit:g} s); engine faster by {bound}{sum(v[1] for v in views) / sum(engine):,.0f}x in "
                f"total, {bound}{statistics.median(ratios):,.0f}x median, {bound}{min(ratios):,.0f}x least; records "
                f"whose counts differ: {sum(v[3] for v in views)}"
            )


def wide(games: int) -> None:
    """The compiled program with remainders against the exact Python program, record by record."""
    warm = random_game(0, n_players=6, n_suggestions=2, deck=small_deck(10, 10, 15))
    counting_kernel.run_wide(counting.plan(knowledge_timeline(warm, TABLE)[-1]))  # compiled code loaded
    compiled_s = python_s = 0.0
    records = differ = 0
    print("10/10/15 deck, 6 players, the table's view, records past 63 bits; CPU time")
    for seed in range(games):
        game = random_game(3 + seed, n_players=6, n_suggestions=8, deck=small_deck(10, 10, 15))
        for seq, k in enumerate(knowledge_timeline(game, TABLE)):
            pl = counting.plan(k)
            if counting_kernel.fits(pl) or not counting_kernel.compiled(pl):
                continue
            start = time.process_time()
            by_remainders = counting_kernel.run_wide(pl)
            middle = time.process_time()
            exact = {e: n for e, n in counting.run_python(pl).items() if n}
            end = time.process_time()
            compiled_s += middle - start
            python_s += end - middle
            records += 1
            differ += by_remainders != exact
            print(
                f"  game {seed} record {seq:2d}: compiled {(middle - start) * 1000:8.1f} ms, Python "
                f"{(end - middle) * 1000:9.1f} ms ({(end - middle) / max(middle - start, 1e-9):6.0f}x), "
                f"bound 2^{counting_kernel.fill_bound(pl).bit_length()}",
                flush=True,
            )
    print(
        f"{records} records: compiled {compiled_s:.2f} s, Python {python_s:.2f} s, "
        f"{python_s / max(compiled_s, 1e-9):.0f}x in total; records whose counts differ: {differ}"
    )


CLI = str(Path(sys.executable).with_name("clue-stats"))


def ingest(factor: float, strategies: tuple[str, ...] = ("random", "notebook")) -> None:
    """Each of issue 21's games through `clue-stats ingest` with its defaults, against the plain
    program's information table of the game (the games of each of ``strategies``)."""
    print(f"load average before the runs: {', '.join(f'{x:.1f}' for x in os.getloadavg())} (on {os.cpu_count()} cores)")
    print(f"10/8/12 deck, 6 players, seed 5; CPU s; the plain program stopped at {factor:g} times the game's ingest")
    totals = {"ingest": 0.0, "plain": 0.0}
    cut_any = False
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for strategy in strategies:
            out = folder / strategy
            subprocess.run(
                [CLI, "simulate", "--games", "3", "--players", "6", "--deck", "10,8,12", "--strategies", strategy,
                 "--seed", "5", "--out", str(out)],
                check=True, capture_output=True,
            )  # fmt: skip
            games = _split_games(next(out.glob("*.jsonl")), folder / f"{strategy}-games")
            for hands in ("every hand", "one hand"):
                for i, path in enumerate(games):
                    if hands == "one hand":
                        path = _one_hand(path, folder / f"{strategy}-one-{i}.jsonl")
                    ingest_s, wall, stored = _ingest(path, folder / f"{strategy}-{hands}-{i}.duckdb")
                    print(
                        f"  {strategy:8} {hands:10} game {i + 1}: ingest {ingest_s:7.1f} CPU s ({wall:6.1f} s wall; "
                        f"{stored})",
                        flush=True,
                    )
                    plain_s, cut = _plain_table(path, factor * ingest_s)
                    totals["ingest"] += ingest_s
                    totals["plain"] += plain_s
                    cut_any |= cut
                    bound = "≥ " if cut else ""
                    print(
                        f"  {'':8} {'':10} {'':6}  plain information table {bound}{plain_s:7.1f} CPU s: the ingest "
                        f"{bound}{plain_s / ingest_s:5.1f}x faster",
                        flush=True,
                    )
    bound = "≥ " if cut_any else ""
    print(
        f"all {6 * len(strategies)} games: ingest {totals['ingest']:.1f} CPU s, plain information table {bound}{totals['plain']:.1f} CPU s: "
        f"the default ingest {bound}{totals['plain'] / totals['ingest']:.1f}x faster"
    )


def _split_games(path: Path, folder: Path) -> list[Path]:
    """The games of a clue-log/1 file, each in a file of its own."""
    folder.mkdir()
    games: list[list[str]] = []
    for line in path.read_text().splitlines():
        if json.loads(line)["type"] == "game":
            games.append([])
        games[-1].append(line)
    out = []
    for i, lines in enumerate(games):
        out.append(folder / f"game-{i + 1}.jsonl")
        out[-1].write_text("\n".join(lines) + "\n")
    return out


def _one_hand(path: Path, out: Path) -> Path:
    """The game as its first player would log it: only their hand, the other shown cards unseen."""
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    me = lines[0]["players"][0]["name"]
    kept = []
    for record in lines:
        if record["type"] == "game":
            record["perspective"] = me
        elif record["type"] == "deal" and record["player"] != me:
            continue
        elif record["type"] == "suggest" and record["player"] != me:
            for response in record["responses"]:
                if response["shows"] is not None and response["player"] != me:
                    response["shows"] = "?"
        kept.append(json.dumps(record))
    out.write_text("\n".join(kept) + "\n")
    return out


def _ingest(path: Path, db: Path) -> tuple[float, float, str]:
    """CPU s (the command and its workers), wall s, and what was stored."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([CLI, "ingest", str(path), "--db", str(db)], check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    with read_connection(db) as con:
        version, cut, rated, suggestions = measuring.analysis_of_the_only_game(con)
    if version is None:
        return cpu, wall, "not analysed"
    whole = "analysed whole" if cut is None else f"cut: {cut}"
    return cpu, wall, f"{whole}, {rated} of {suggestions} suggestions reviewed"


def _plain_table(path: Path, limit: float) -> tuple[float, bool]:
    """CPU s of the plain program over every observer's distinct knowledge, and whether it was cut."""
    (game,), _ = read_game_file(path)
    views = [dict.fromkeys(knowledge_timeline(game, observer)) for observer in observers(game)]
    start = time.process_time()
    for view in views:
        for k in view:
            try:
                plain_vector_counts(k, deadline=start + limit)
            except OutOfTime:
                return time.process_time() - start, True
    return time.process_time() - start, False


if __name__ == "__main__":
    main()
