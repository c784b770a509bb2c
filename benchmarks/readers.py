"""Every reader's time and memory against the size of its input (issue 38): figures, not pass/fail.

For each reader, inputs of several sizes are made from the real files (the samples, the other
clients' records in ../shared/external, read in place) and from the hostile shapes of issue 38 (blank
lines, llm-transcript lines of one width, a gzip bomb's short lines), and read as ingest reads them
(ingest.formats.read_file, every item taken; the games' checks are not part of it). Printed per size:
seconds, seconds per MB and its ratio to the smallest size (linear: about 1.0), and the peak of
Python's memory (tracemalloc, a second run) and its ratio to the input's size.

    .venv/bin/python benchmarks/readers.py [--sizes 1,2,4,8]   (MB)
"""

from __future__ import annotations

import argparse
import gc
import gzip
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clue_stats.ingest import formats

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "data" / "samples"
EXTERNAL = ROOT.parent / "shared" / "external"
MB = 1 << 20


def _repeat(path: Path) -> Callable[[int], bytes]:
    data = path.read_bytes()
    return lambda size: data * max(1, size // len(data))


def _same_width(size: int) -> bytes:
    """An llm-transcript whose lines are all of one width: each joined to the one before (issue 38:
    6.5 MB took 21.8 s, quadratic)."""
    head = (EXTERNAL / "llm-crewai" / "sample_game_output.txt").read_bytes()
    return head + (b"y" * 99 + b"\n") * (size // 100)


INPUTS: dict[str, tuple[str, Callable[[int], bytes], bool]] = {
    # name: (file name, bytes of about the size, gzip-compressed)
    "clue-log/1 (.jsonl)": ("games.jsonl", _repeat(SAMPLES / "classic-club-night.jsonl"), False),
    "clue-log/1 (.jsonl.gz)": ("games.jsonl.gz", _repeat(SAMPLES / "classic-club-night.jsonl"), True),
    "notation (.clue)": ("games.clue", _repeat(SAMPLES / "de-2023-anna-notebook.clue"), False),
    "speedclue-py (.txt)": ("server.txt", _repeat(EXTERNAL / "speedclue-pyport" / "pyport-3p-1.txt"), False),
    "llm-transcript, lines of one width": ("agents.txt", _same_width, False),
    "notation of blank lines (.clue)": ("blank.clue", lambda size: b"\n" * size, False),
    "clue-log/1 of blank lines (.jsonl.gz)": ("blank.jsonl.gz", lambda size: b"\n" * size, True),
}


def _read(path: Path) -> int:
    found = formats.read_file(path)
    return 0 if isinstance(found, formats.FileSkipped) else sum(1 for _ in found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,2,4,8", help="input sizes in MB")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{'reader':40} {'MB':>5} {'items':>7} {'s':>7} {'s/MB':>7} {'ratio':>6} {'peak MiB':>9} {'peak/input':>10}")
    with tempfile.TemporaryDirectory() as folder:
        for _, (file_name, make, _) in INPUTS.items():  # every reader loaded once before it is timed
            warm = Path(folder) / file_name
            warm.write_bytes(gzip.compress(make(1000)) if file_name.endswith(".gz") else make(1000))
            _read(warm)
        for name, (file_name, make, compressed) in INPUTS.items():
            first: float | None = None
            for size in sizes:
                data = make(size * MB)
                path = Path(folder) / file_name
                path.write_bytes(gzip.compress(data, compresslevel=1) if compressed else data)
                gc.collect()
                clock = time.perf_counter()
                items = _read(path)
                seconds = time.perf_counter() - clock
                tracemalloc.start()
                _read(path)
                _, peak = tracemalloc.get_traced_memory()
                tracemalloc.stop()
                per_mb = seconds / (len(data) / MB)
                first = first or per_mb
                print(
                    f"{name:40} {len(data) / MB:5.1f} {items:7} {seconds:7.3f} {per_mb:7.3f} {per_mb / first:6.2f} "
                    f"{peak / MB:9.1f} {peak / len(data):10.2f}"
                )


if __name__ == "__main__":
    main()
