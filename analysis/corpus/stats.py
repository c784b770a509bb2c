"""Small statistical helpers for the corpus statistics: Wilson intervals, binomial and chi-square tests.

Kept apart from the queries so that each can be checked against numbers worked out by hand.
"""

from __future__ import annotations

import math

from scipy import stats as _stats

Z95 = 1.959963984540054  # the 97.5 % quantile of the standard normal: a two-sided 95 % interval


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (nan, nan for no games)."""
    if games <= 0:
        return math.nan, math.nan
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def binomial_p_value(wins: int, games: int, expected_rate: float) -> float:
    """Exact two-sided binomial test of "the win rate is expected_rate" (nan when undefined)."""
    if games <= 0 or not 0.0 <= expected_rate <= 1.0 or math.isnan(expected_rate):
        return math.nan
    return float(_stats.binomtest(wins, games, expected_rate).pvalue)


def chi_square_uniform(observed: list[int]) -> tuple[float, int, float]:
    """Chi-square goodness of fit of counts against equal shares: (statistic, df, p-value)."""
    cells = len(observed)
    total = sum(observed)
    if cells < 2 or total == 0:
        return math.nan, max(cells - 1, 0), math.nan
    expected = total / cells
    statistic = sum((o - expected) ** 2 for o in observed) / expected
    return statistic, cells - 1, float(_stats.chi2.sf(statistic, cells - 1))
