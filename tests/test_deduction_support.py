"""The deduction tests' brute force (tests/helpers.py) counts what the spec says: every deal once, a
pass read as the spec reads it."""

from __future__ import annotations

from clue_stats.engine.game import Suggest
from clue_stats.testing import all_deals, brute_counts, make_game, small_deck


def test_brute_force_counts_every_deal_once():
    deck = small_deck(2, 2, 2)
    game = make_game(deck, ["Anna", "Ben"], [])
    deals = list(all_deals(game))
    # 8 envelopes, then Anna takes 2 of the 3 cards left
    assert len(deals) == 8 * 3
    assert len({(t, tuple(sorted((p, tuple(sorted(h))) for p, h in hs.items()))) for t, hs, _ in deals}) == 24


def test_brute_force_reads_a_pass():
    deck = small_deck(2, 2, 2)
    from clue_stats.engine.game import Response

    game = make_game(
        deck,
        ["Anna", "Ben"],
        [Suggest(seq=0, player="Anna", suspect="s0", weapon="w0", room="r0", responses=(Response("Ben", None),))],
    )
    total, solutions, _ = brute_counts(game, None)[1]
    # Ben's one card is none of s0, w0, r0, so it is the s1, w1 or r1 left out of the envelope: a
    # solution with j cards ending in 0 leaves j such cards for Ben
    assert total == 12
    assert solutions == {t: sum(c.endswith("0") for c in t) for t in solutions}
    assert len(solutions) == 7  # not (s1, w1, r1)
