"""Agents compared: games played by programs (``digital`` and ``contest`` kinds: LLM agents, contest
bots) per player or per program/model (``players.strategy``), each figure with its count and a 95 %
interval (analysis.md, "Agents compared").

Every figure reads a stored column: review accuracy from the suggestions' expected and best gains
(the one definition, review_accuracy_of), accusations at p_correct < 1 from ``accusations.p_correct`` (the
store's one definition, ``accused_unsure``), missed wins
from ``players.missed_win``, rule breaks from the ``rule_break`` findings (the problem's record names
the player), stated deductions from the ``statements`` rows' units (sum over sum).

Intervals: Wilson for the shares of counts; for review accuracy, a ratio of sums of bits, the
normal interval of the ratio estimator over the rated suggestions (delta method).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import polars as pl

from clue_stats.analysis.computers.accuracy import NOTHING_TO_LEARN, review_accuracy_of
from clue_stats.analysis.corpus.stats import Z95, wilson_interval
from clue_stats.analysis.words import _, n_, number, percent
from clue_stats.ingest.kinds import CONTEST, DIGITAL
from clue_stats.ingest.store import GameFilter, Store, reads
from clue_stats.ingest.store.queries import agents as agent_reads

AGENT_KINDS = (DIGITAL, CONTEST)
GROUPINGS = ("strategy", "name")


def ratio_interval(expected: list[float], best: list[float], z: float = Z95) -> tuple[float, float, float]:
    """(review accuracy, low, high) over paired values; (nan, nan, nan) for none. The figure is the
    one definition of review accuracy (``review_accuracy_of``: sum over sum, 1 when nothing could be
    learned, within 0 to 1); the interval is the ratio estimator's normal one, kept within 0 to 1."""
    n = len(best)
    total = sum(best)
    ratio = review_accuracy_of(sum(expected), total, n)
    if ratio is None:
        return math.nan, math.nan, math.nan
    if n < 2 or total <= NOTHING_TO_LEARN:
        return ratio, math.nan, math.nan  # one suggestion, or nothing to learn: no spread
    estimate = sum(expected) / total
    residuals = [e - estimate * b for e, b in zip(expected, best, strict=True)]
    mean_best = total / n
    variance = sum(r * r for r in residuals) / (n - 1)
    half = z * math.sqrt(variance / n) / mean_best
    return ratio, max(0.0, ratio - half), min(1.0, ratio + half)


def games_of_any_kind(con: Store, filters: GameFilter = GameFilter()) -> int:
    """The games the filters select, whatever their kind (to tell an empty database from one without agents)."""
    return reads.selection_size(con, replace(filters, kinds=None))


def agent_summary(con: Store, filters: GameFilter = GameFilter(), by: str = "strategy") -> pl.DataFrame:
    """One row per agent (``by`` strategy: the program or model; or name) over the selected games of
    the agents' kinds: player_games (seats played); rated_suggestions, review_accuracy (low, high); accusations,
    unsure_accusations (p_correct < 1), unsure_rate (low, high); reviewed_games, missed_wins,
    missed_rate (low, high); rule_breaks, games_with_breaks, break_rate (low, high); stated_units,
    proven_units, missed_units, stated_precision (low, high), stated_recall (low, high). Most games first."""
    if by not in GROUPINGS:
        raise ValueError(f"unknown grouping {by!r} (one of {', '.join(GROUPINGS)})")
    kinds = tuple(k for k in (filters.kinds or AGENT_KINDS) if k in AGENT_KINDS)
    chosen = replace(filters, kinds=kinds or AGENT_KINDS)
    per_agent = agent_reads.agent_rows(con, chosen, by)
    rated = agent_reads.agent_gains(con, chosen, by)
    gains: dict[str, tuple[list[float], list[float]]] = {}
    for row in rated.iter_rows(named=True):
        pair = gains.setdefault(row["agent"], ([], []))
        pair[0].append(row["expected"])
        pair[1].append(row["best"])
    out = []
    for row in per_agent.iter_rows(named=True):
        expected, best = gains.get(row["agent"], ([], []))
        accuracy = ratio_interval(expected, best)
        line = {**row, "rated_suggestions": len(best)}
        line.update(zip(("review_accuracy", "review_low", "review_high"), accuracy, strict=True))
        for name, hits, n in (
            ("unsure_rate", row["unsure_accusations"], row["accusations"]),
            ("missed_rate", row["missed_wins"], row["reviewed_games"]),
            ("break_rate", row["games_with_breaks"], row["player_games"]),
            ("stated_precision", row["proven_units"], row["stated_units"]),
            ("stated_recall", row["proven_units"], row["proven_units"] + row["missed_units"]),
        ):
            low, high = wilson_interval(hits, n)
            line[name] = hits / n if n else math.nan
            line[name.replace("_rate", "") + "_low" if name.endswith("_rate") else name + "_low"] = low
            line[name.replace("_rate", "") + "_high" if name.endswith("_rate") else name + "_high"] = high
        out.append(line)
    columns = [
        "agent", "player_games", "rated_suggestions", "review_accuracy", "review_low", "review_high",
        "accusations", "unsure_accusations", "unsure_rate", "unsure_low", "unsure_high",
        "reviewed_games", "missed_wins", "missed_rate", "missed_low", "missed_high",
        "rule_breaks", "games_with_breaks", "break_rate", "break_low", "break_high",
        "stated_units", "proven_units", "missed_units", "stated_precision", "stated_precision_low",
        "stated_precision_high", "stated_recall", "stated_recall_low", "stated_recall_high",
    ]  # fmt: skip
    if not out:
        return pl.DataFrame(schema={c: pl.Utf8 if c == "agent" else pl.Float64 for c in columns})
    return pl.DataFrame(out).select(columns).fill_nan(None)


def _figure(value: float | None, low: float | None, high: float | None, count: str) -> str:
    """ "82% (73% to 90%), 12 rated": the figure, its interval and what it counts."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return f"– ({count})"
    if low is None or high is None:
        return _("{figure}, {count}").format(figure=percent(value), count=count)
    return _("{figure} ({low} to {high}), {count}").format(
        figure=percent(value), low=percent(low), high=percent(high), count=count
    )


def _of(part: int, whole: int) -> str:
    return _("{part} of {whole}").format(part=number(part), whole=number(whole))


def agent_cells(r: dict[str, Any]) -> dict[str, str]:
    """One row of :func:`agent_summary` as people read it, in their language: each figure with its
    interval and what it counts (the dashboard's Agents page and the `agents` command)."""
    return {
        "review_accuracy": _figure(
            r["review_accuracy"],
            r["review_low"],
            r["review_high"],
            n_(r["rated_suggestions"], "{n} rated", "{n} rated"),
        ),
        "unsure": _figure(
            r["unsure_rate"], r["unsure_low"], r["unsure_high"], _of(r["unsure_accusations"], r["accusations"])
        ),
        "missed_wins": _figure(
            r["missed_rate"], r["missed_low"], r["missed_high"], _of(r["missed_wins"], r["reviewed_games"])
        ),
        "rule_breaks": _figure(
            r["break_rate"],
            r["break_low"],
            r["break_high"],
            _("{breaks} in {part} of {whole}").format(
                breaks=number(r["rule_breaks"]), part=number(r["games_with_breaks"]), whole=number(r["player_games"])
            ),
        ),
        "stated_precision": _figure(
            r["stated_precision"],
            r["stated_precision_low"],
            r["stated_precision_high"],
            _of(r["proven_units"], r["stated_units"]),
        ),
        "stated_recall": _figure(
            r["stated_recall"],
            r["stated_recall_low"],
            r["stated_recall_high"],
            _of(r["proven_units"], r["proven_units"] + r["missed_units"]),
        ),
    }
