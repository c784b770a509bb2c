"""The distribution of bits lost over simulated games of the built-in strategies, from which the
label thresholds are chosen (docs/analysis.md, "Labels").

    .venv/bin/python benchmarks/review_labels.py [--games 120] [--players 4] [--seed 7] [--workers 2]

Plays games between every built-in strategy with `clue-stats simulate`, ingests them with the whole
review (`clue-stats ingest`), and prints, per strategy, the share of suggestions that lost nothing and
quantiles of bits lost, then the share of each label under the current thresholds. Figures, not
pass/fail. The tables are printed in Markdown, as docs/analysis.md gives them.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from clue_stats.analysis.computers.suggestions import LABEL_ORDER, LABELS, THRESHOLD_TOLERANCE  # noqa: E402
from clue_stats.engine.strategies import STRATEGIES  # noqa: E402
from clue_stats.ingest.store import read_connection  # noqa: E402
from clue_stats.ingest.store.queries import measuring  # noqa: E402

CLI = [sys.executable, "-m", "clue_stats"]
QUANTILES = (0.5, 0.75, 0.9, 0.95, 0.99)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        strategies = ",".join(STRATEGIES)
        subprocess.run(
            [*CLI, "simulate", "--games", str(args.games), "--players", str(args.players)]
            + ["--strategies", strategies, "--seed", str(args.seed), "--out", str(root / "sim")],
            check=True,
        )
        db = root / "review.duckdb"
        subprocess.run([*CLI, "ingest", str(root / "sim"), "--db", str(db), "--workers", str(args.workers)], check=True)
        with read_connection(db) as con:
            by_strategy = measuring.bits_lost_by_strategy(con, QUANTILES, LABELS[0][1] + THRESHOLD_TOLERANCE)
            shares = measuring.label_shares_by_strategy(con, LABEL_ORDER)
    markdown = pl.Config(
        tbl_formatting="MARKDOWN", tbl_hide_column_data_types=True, tbl_hide_dataframe_shape=True, tbl_cols=-1
    )
    with markdown:
        _print(args, strategies, by_strategy, shares)


def _print(args: argparse.Namespace, strategies: str, by_strategy: pl.DataFrame, shares: pl.DataFrame) -> None:
    """The two tables as docs/analysis.md gives them (Markdown), so the docs can be checked against a run."""
    print(f"{args.games} simulated {args.players}-player games ({strategies}), seed {args.seed}")
    print("bits lost per suggestion (quantiles over all suggestions, 0 included):")
    print(by_strategy)
    print(
        "thresholds: "
        + ", ".join(f"{w} <= {most:g}" for w, most in LABELS)
        + f", {LABEL_ORDER[-1]} above (a loss within {THRESHOLD_TOLERANCE:g} of a threshold is on it)"
    )
    print(shares)


if __name__ == "__main__":
    main()
