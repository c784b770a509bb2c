"""What a refuter gave away: when the first refuter held several of the named cards, the suggester's
information from the card shown minus the least they could have learned from any card that refuter
could have shown (0 when they had no choice).

Information from a card is the suggester's entropy before the suggestion minus after it, so the
difference is H(after the least revealing card) - H(after the card shown): the entropy before cancels.
It needs the refuter's hand (their ``deal`` record) and the card shown (not "?"); otherwise it is
not known (None).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from clue_stats.engine import deduction
from clue_stats.engine.game import UNSEEN, Game, Response, Suggest
from clue_stats.engine.knowledge import Knowledge, record_update


def _after_showing(game: Game, record: Suggest, before: Knowledge, card: str) -> Knowledge:
    """The suggester's knowledge had the refuter shown ``card`` instead."""
    shown = record.responses[-1]
    hypothetical = replace(record, responses=record.responses[:-1] + (Response(shown.player, card),))
    update = record_update(game, before, hypothetical, record.player)
    return before.updated(**update) if update else before


def choices(game: Game, record: Suggest) -> tuple[str, ...] | None:
    """The named cards the first refuter held (None when their hand or the card shown is not logged)."""
    shown = record.shower
    if shown is None or shown.shows in (None, UNSEEN):
        return None
    hand = game.hands().get(shown.player)
    if hand is None:
        return None
    return tuple(dict.fromkeys(c for c in record.cards if c in hand))


def giveaway_bits(game: Game, record: Suggest, before: Knowledge) -> float | None:
    """Bits the refuter's choice gave the suggester beyond the least revealing card they held."""
    held = choices(game, record)
    if held is None or record.shower is None or record.shower.shows is None:
        return None
    if len(held) < 2:
        return 0.0
    entropy = {card: deduction.envelope_entropy(_after_showing(game, record, before, card)) for card in held}
    return max(entropy.values()) - entropy[record.shower.shows]


def giveaway_columns(game: Game, knowledge_before: Callable[[str, int], Knowledge]) -> dict[int, float | None]:
    """seq -> giveaway_bits, for every suggestion of the game."""
    return {
        r.seq: giveaway_bits(game, r, knowledge_before(r.player, r.seq)) for r in game.records if isinstance(r, Suggest)
    }


def refuter_choices(game: Game, record: Suggest) -> int | None:
    """How many of the named cards the first refuter held: more than 1, the card shown was their choice
    (None: nobody showed, or the log does not hold their hand)."""
    shown = record.shower
    if shown is None:
        return None
    hand = game.hands().get(shown.player)
    return None if hand is None else len(set(record.cards) & hand)
