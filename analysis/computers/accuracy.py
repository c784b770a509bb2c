"""Review accuracy, the one definition every view uses, apart from the engine that computes the
gains it is made of (the league's ratings read it without loading the counting programs)."""

from __future__ import annotations

# Below this many bits no suggestion could teach anything: every candidate is as good as any.
NOTHING_TO_LEARN = 1e-9


def review_accuracy_of(expected_sum: float | None, best_sum: float | None, reviewed: int) -> float | None:
    """Review accuracy, the one definition every view uses (a game, a night, a season, the
    leaderboard): the sum of the expected gains of ``reviewed`` rated suggestions over the sum of
    their best available gains; 1 when nothing could be learned, None with none reviewed. Kept
    within 0 to 1 against rounding (each expected gain is at most its best)."""
    if not reviewed:
        return None
    best = best_sum or 0.0
    if best <= NOTHING_TO_LEARN:
        return 1.0
    return max(0.0, min(1.0, (expected_sum or 0.0) / best))
