"""Suggestions: expected gain, best available gain, accuracy, bits lost and a label for each, as a
chess review labels moves by what they lost (analysis.md, "Expected gain of a suggestion"); and the
review accuracy of a player over a game.

All from the suggester's knowledge just before the suggestion (after seq - 1). The expected gain is
never more than the best available gain: the suggestion made is one of the candidates. Only a
suggestion whose suggester's hand the log holds is rated: otherwise their knowledge is not known,
and every column is NULL ("hand not in the log").

Candidates: where the suggestion's room is where the suggester stands (board editions, flag
``suggest_room = "current"``), every suspect and weapon in that room; where the room is chosen
(``suggest_room = "chosen"``), every suspect, weapon and room.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from clue_stats.analysis.computers.accuracy import NOTHING_TO_LEARN, review_accuracy_of
from clue_stats.analysis.computers.accusations import is_certain
from clue_stats.engine import deduction
from clue_stats.engine.game import Game, Suggest
from clue_stats.engine.knowledge import Knowledge

Triple = tuple[str, str, str]

# Gains closer than this are equal (they are sums of floats over the same exact counts).
TIE = 1e-12
# Labels by bits lost (docs/analysis.md, where the thresholds are chosen from the distribution of
# bits lost over simulated games): the most bits a suggestion may lose and still earn each word.
LABELS: tuple[tuple[str, float], ...] = (
    ("best", 0.0),
    ("good", 0.2),
    ("inaccuracy", 0.5),
    ("mistake", 1.0),
)
WORST_LABEL = "blunder"
LABEL_ORDER = (*(word for word, _ in LABELS), WORST_LABEL)
# The one colour scale of the labels, in every chart and report: an ordinal scale from green (best)
# to red (blunder), and grey for a suggestion not rated (hand not in the log).
LABEL_COLOURS: dict[str, str] = dict(zip(LABEL_ORDER, ("#1a9850", "#91cf60", "#fdae61", "#f46d43", "#d73027")))
NOT_RATED = "not rated"
NOT_RATED_COLOUR = "#999999"
# Bits lost is a difference of two sums of floats, so a loss exactly on a threshold (0.2 bits: the
# difference of log2(5) - 4/5 and log2(5) - 1) can come out a few ulps above it; a loss within this of
# a threshold gets the lower label (for best: within it of 0). Far below any difference a reader could
# see, far above the rounding of the sums.
THRESHOLD_TOLERANCE = NOTHING_TO_LEARN


def label(bits_lost: float) -> str:
    """The word for a suggestion that lost ``bits_lost`` bits against the best available: the
    best word whose threshold it does not pass (by more than the rounding of its sums)."""
    for word, most in LABELS:
        if bits_lost <= most + THRESHOLD_TOLERANCE:
            return word
    return WORST_LABEL


def candidate_rooms(game: Game, record: Suggest) -> tuple[str, ...]:
    """The rooms the suggester could have named: their own, unless the variant lets them choose."""
    if game.flags.get("suggest_room") == "chosen":
        return game.deck.rooms
    return (record.room,)


def accuracy(expected_gain: float, best_gain: float) -> float:
    """expected / best, 1 when nothing could be learned; capped at 1 against rounding (the gains
    come from sums of floats, and the suggestion made is itself a candidate)."""
    if best_gain <= NOTHING_TO_LEARN:
        return 1.0
    return max(0.0, min(1.0, expected_gain / best_gain))


UNRATED: dict[str, Any] = {
    "expected_gain_bits": None,
    "best_gain_bits": None,
    "best_suspect": None,
    "best_weapon": None,
    "best_room": None,
    "accuracy": None,
    "bits_lost": None,
    "label": None,
    "known_named_cards": None,
}


def known_cards(k: Knowledge, cards: Sequence[str]) -> tuple[str, ...]:
    """The cards whose place the knowledge fixes (one place left: the suggester's own, one shown to
    them, or one deduced)."""
    out = []
    for c in dict.fromkeys(cards):
        mask = k.allowed[k.card_index[c]]
        if mask and mask & (mask - 1) == 0:
            out.append(c)
    return tuple(out)


def score(game: Game, record: Suggest, before: Knowledge, review: bool = True) -> dict[str, Any]:
    """The analysis columns of one rated suggestion, given the suggester's knowledge before it;
    without ``review`` only the expected gain (the best available gain is the costly part).

    With the review, every candidate's gain is counted in one pass (engine.gains) and the
    suggestion's own expected gain is read from it; without, it is counted alone, the same way, so
    both levels store the same number to the last bit."""
    rooms = candidate_rooms(game, record)
    # a suggester who already knows the solution can learn nothing from any suggestion: every
    # candidate gains exactly 0, so none needs to be counted
    if is_certain(before):
        gain, best_gain, best = 0.0, 0.0, record.cards
    elif not review:
        gain = deduction.suggestion_gain(before, record.player, record.cards, rooms)
    else:
        gains = deduction.candidate_gains(before, record.player, rooms)
        s, w, r = (before.card_index[c] for c in record.cards)
        gain = gains[(s, w, r)]
        best_gain, best = deduction.best_of(before, gains, rooms)
    # a named card whose place the suggester already knew is one no answer teaches them anything about
    out = {**UNRATED, "expected_gain_bits": gain, "known_named_cards": len(known_cards(before, record.cards))}
    if not review:
        return out
    if best_gain <= gain + TIE:
        # the suggestion made is itself a candidate: when it is as good as the best (up to rounding
        # between equal candidates), it is the one named best
        best_gain, best = max(best_gain, gain), record.cards
    lost = max(0.0, best_gain - gain)
    out.update(
        best_gain_bits=best_gain,
        best_suspect=best[0],
        best_weapon=best[1],
        best_room=best[2],
        accuracy=accuracy(gain, best_gain),
        bits_lost=lost,
        label=label(lost),
    )
    return out


def suggestion_columns(
    game: Game, knowledge_before: Callable[[str | None, int], Knowledge], review: bool = True
) -> dict[int, dict[str, Any]]:
    """seq -> analysis columns, for every suggestion of the game (NULLs where the log does not hold
    the suggester's hand)."""
    hands = game.hands()
    return {
        r.seq: score(game, r, knowledge_before(r.player, r.seq), review) if r.player in hands else dict(UNRATED)
        for r in game.records
        if isinstance(r, Suggest)
    }


def review_accuracy(rated: list[tuple[float, float]]) -> float | None:
    """A player's review accuracy over a game from the (expected gain, best available gain) of their
    rated suggestions: the sum of the first over the sum of the second; 1 when nothing could be
    learned, None with no rated suggestion."""
    return review_accuracy_of(sum(e for e, _ in rated), sum(b for _, b in rated), len(rated))
