"""How long the recorder takes to check and save one record: a 6-player game at its 60th record, the
recorder's view (their own hand and the suggestions, the others' cards unseen as a table records
them), each entry checked as ingest checks it and the file replaced on the disk (write, fsync, rename).

Prints figures, asserts nothing (docs/performance.md); the target of issue 39 is a median <= 100 ms.

    .venv/bin/python benchmarks/record.py [entries]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clue_stats.ingest import cluelog
from clue_stats.ingest.recording import Recording
from clue_stats.testing import random_game


def recorder_view(seed: int) -> list[dict]:
    """A seeded 6-player game as its first player records it: only their hand, and a card shown to
    someone else is unseen ("?")."""
    game = random_game(seed, n_players=6, n_suggestions=80)
    me = game.names[0]
    records = cluelog.record_dicts(game)
    records[0]["perspective"] = me
    out = [records[0]]
    for r in records[1:]:
        if r["type"] == "deal" and r["player"] != me:
            continue
        if r["type"] == "suggest" and r["player"] != me:
            r = {
                **r,
                "responses": [
                    {**x, "shows": x["shows"] if x["shows"] is None or x["player"] == me else "?"}
                    for x in r["responses"]
                ],
            }
        if r["type"] in ("deal", "suggest"):
            out.append(r)
    return out


def main(entries: int = 20) -> None:
    records = recorder_view(7)
    assert len(records) > 61, len(records)
    times = []
    with tempfile.TemporaryDirectory() as folder:
        recording, _ = Recording.start(Path(folder) / "game.jsonl", records[0])
        assert recording is not None
        for r in records[1:60]:  # the game up to its 59th record
            entered = recording.enter(r)
            assert entered.accepted, (r, [str(p) for p in entered.problems])
        for _ in range(entries):  # the 60th record, checked and saved, then taken back
            start = time.perf_counter()
            outcome = recording.enter(records[60])
            times.append(time.perf_counter() - start)
            assert outcome.accepted, outcome.problems
            recording.undo()
    print(f"one record of a 6-player game at its 60th record, checked and saved ({entries} entries):")
    print(
        f"  median {statistics.median(times) * 1000:.1f} ms, best {min(times) * 1000:.1f} ms, worst {max(times) * 1000:.1f} ms"
    )
    print(f"  target <= 100 ms: {'met' if statistics.median(times) <= 0.1 else 'NOT met'}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
