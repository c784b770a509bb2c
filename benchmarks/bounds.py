"""Costs bounded by the size of the input (issue 27, item 4): figures, not pass/fail.

1. The checks of a game whose `game` line declares a custom deck of 10,000, 30,000 and 150,000 cards
   (a line of at most 1 MiB), in this process: linear means 15x the cards cost about 15x the time.
2. A long game (6 players, every hand dealt, N suggestions: N + 7 records) ingested with the whole
   review on one worker, then its report rendered, per thousand records.
3. A game of N statements (issue 38: 10^5 statements, 20 MB, took 43 s and 1.35 GB): `clue-stats
   ingest` with its defaults in a process of its own, wall and CPU seconds and the process's peak
   memory against the file's size.

    .venv/bin/python benchmarks/bounds.py [--records 1000,10000,100000] [--statements 10000,100000]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from typer.testing import CliRunner

from clue_stats import pipeline
from clue_stats.cli import app
from clue_stats.ingest import cluelog, formats, store
from clue_stats.ingest.store.queries import measuring
from clue_stats.testing import random_game


def deck_line(n_cards: int) -> str:
    """A `game` line of a custom deck of ``n_cards`` (names in base 36, so 150,000 fit in 1 MiB),
    then a suggestion that all three players pass."""
    names = [np.base_repr(i, 36).lower() for i in range(n_cards)]
    third = n_cards // 3
    header = {
        "type": "game",
        "format": "clue-log/1",
        "id": f"deck-{n_cards}",
        "edition": "custom",
        "deck": {"suspects": names[:third], "weapons": names[third : 2 * third], "rooms": names[2 * third :]},
        "players": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
    }
    return json.dumps(header, separators=(",", ":")) + "\n"


def time_decks(folder: Path) -> None:
    print("custom deck checks (build, rules, consistency under the default budget):")
    for n in (10_000, 30_000, 150_000):
        path = folder / f"deck-{n}.jsonl"
        path.write_text(deck_line(n))
        raws = list(formats.iter_file(path) or [])
        start = time.perf_counter()
        outcome = pipeline.check(raws[0])  # type: ignore[arg-type]
        seconds = time.perf_counter() - start
        codes = sorted({p.code for p in outcome.problems})
        print(f"  {n:>7,} cards, {path.stat().st_size:>9,} bytes: {seconds:6.2f} s  ({', '.join(codes)})")


def time_long_games(folder: Path, sizes: list[int]) -> None:
    print("long games (6 players, hands dealt), ingest with the whole review on 1 worker, then `clue-stats report`:")
    for n in sizes:
        path = folder / f"long-{n}.jsonl"
        path.write_text(cluelog.write_games([random_game(1, n_players=6, n_suggestions=n)]))
        db = folder / f"long-{n}.duckdb"
        start = time.perf_counter()
        summary = pipeline.ingest_paths([str(path)], db, analyse=True, workers=1)
        ingest = time.perf_counter() - start
        with store.read_connection(db) as con:
            game_id = measuring.only_game_id(con)
        out = folder / f"long-{n}.html"
        start = time.perf_counter()
        result = CliRunner().invoke(app, ["report", game_id, "--db", str(db), "--out", str(out)])
        report = time.perf_counter() - start
        if result.exit_code != 0:
            print(f"  the report failed: {result.output.strip()}")
            continue
        text = out.read_text()
        per = 1000 / (n + 7)
        print(
            f"  {n + 7:>7,} records: ingest {ingest:7.1f} s ({ingest * per:5.2f} s a thousand records, "
            f"{summary.games_stored} stored), report {report:6.1f} s ({report * per:5.2f} s a thousand, "
            f"{len(text):,} characters)"
        )


def statements_game(n: int) -> str:
    """A classic 4-player game (hands dealt, 20 suggestions) with ``n`` statements after the deal,
    each of five claims (two cards not in the envelope, one held, two lacked)."""
    game = random_game(7, n_players=4, n_suggestions=20)
    lines = cluelog.write_game(game).splitlines()
    after = max(i for i, line in enumerate(lines) if '"deal"' in line) + 1
    names = game.names
    said = [
        json.dumps(
            {
                "type": "statement",
                "player": names[k % 4],
                "not_in_envelope": ["plum", "rope"],
                "holds": {names[(k + 1) % 4]: ["hall"]},
                "lacks": {names[(k + 2) % 4]: ["knife", "study"]},
            }
        )
        for k in range(n)
    ]
    return "\n".join([*lines[:after], *said, *lines[after:]]) + "\n"


def time_statements(folder: Path, sizes: list[int]) -> None:
    print("games of n statements, `clue-stats ingest` with its defaults (a process each):")
    cli = Path(sys.executable).with_name("clue-stats")
    for n in sizes:
        path = folder / f"statements-{n}.jsonl"
        path.write_text(statements_game(n))
        db = folder / f"statements-{n}.duckdb"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([str(cli), "ingest", str(path), "--db", str(db)], capture_output=True, text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        size = path.stat().st_size
        peak = after.ru_maxrss * 1024  # the largest of the children so far: the sizes run smallest first
        print(
            f"  {n:>7,} statements, {size / 2**20:6.1f} MiB: {wall:6.1f} s wall, {cpu:6.1f} CPU s, "
            f"peak {peak / 2**20:6.0f} MiB ({peak / size:5.1f} x the file), exit {done.returncode}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", default="1000,10000", help="suggestions of the long games, comma-separated")
    parser.add_argument("--statements", default="10000,100000", help="statements of one game, comma-separated")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        time_statements(Path(tmp), [int(n) for n in args.statements.split(",")])
        time_decks(Path(tmp))
        time_long_games(Path(tmp), [int(n) for n in args.records.split(",")])


if __name__ == "__main__":
    main()
