"""The worked example of docs/deduction.md, small enough to check by hand; and answers/expected gain.

Deck: suspects Plum, Green; weapons Rope, Knife; rooms Hall, Study. Anna holds 2 cards, Ben 1.
The deal: envelope (Plum, Rope, Study), Anna {Green, Knife}, Ben {Hall}.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from clue_stats.engine.deduction import (
    TABLE,
    answers,
    best_suggestion,
    count,
    envelope_entropy,
    expected_gain,
    knowledge_at,
)
from clue_stats.engine.editions import Deck
from clue_stats.engine.game import UNSEEN, Deal, Response, Suggest
from clue_stats.testing import all_deals, brute_counts, make_game, random_game, small_deck

DECK = Deck.custom(["Plum", "Green"], ["Rope", "Knife"], ["Hall", "Study"])


def worked_game(shown=UNSEEN):
    return make_game(
        DECK,
        ["Anna", "Ben"],
        [
            Deal(seq=0, player="Anna", cards=("green", "knife")),
            Deal(seq=0, player="Ben", cards=("hall",)),
            Suggest(
                seq=0, player="Anna", suspect="plum", weapon="rope", room="hall", responses=(Response("Ben", shown),)
            ),
        ],
    )


def test_before_anything_the_table_counts_24_deals():
    c = count(knowledge_at(worked_game(), TABLE, 0))
    # 8 solutions, then Anna takes 2 of the 3 cards left (Ben gets the third)
    assert c.total == 24
    assert set(c.solutions.values()) == {3}
    assert c.entropy() == 3.0
    assert c.probability("plum", "envelope") == 0.5
    assert c.card_places["plum"] == {"envelope": 12, "Anna": 8, "Ben": 4}


def test_after_ben_shows_an_unseen_card_the_table_counts_12():
    c = count(knowledge_at(worked_game(), TABLE, 3))
    # Ben's one card is one of Plum, Rope, Hall and not in the envelope: a solution with j of the
    # "other" cards (Green, Knife, Study) leaves Ben j choices
    others = {"green", "knife", "study"}
    assert c.solutions == {t: len(others & set(t)) for t in c.solutions}
    assert c.total == 12 and ("plum", "rope", "hall") not in c.solutions
    expected = 3 * (1 / 12) * math.log2(12) + 3 * (2 / 12) * math.log2(6) + (3 / 12) * math.log2(4)
    assert math.isclose(c.entropy(), expected) and math.isclose(c.entropy(), 2.688721875540867)
    assert c.card_places["plum"] == {"envelope": 4, "Anna": 4, "Ben": 4}
    assert c.card_places["green"] == {"envelope": 8, "Anna": 4}
    assert c.probability("green", "Ben") == 0 and math.isclose(c.probability("green", "envelope"), 2 / 3)
    assert c.most_likely(1) == [(("green", "knife", "study"), 0.25)]
    assert c.certain_solution() is None


def test_anna_sees_the_card_and_knows_the_solution():
    game = worked_game(shown="hall")
    before = count(knowledge_at(game, "Anna", 1))
    # Anna holds Green and Knife: Plum and Rope are in the envelope, Hall and Study split 2 ways
    assert before.total == 2 and before.entropy() == 1.0
    after = count(knowledge_at(game, "Anna", 3))
    assert after.total == 1 and after.entropy() == 0.0
    assert after.certain_solution() == ("plum", "rope", "study")
    assert after.certain_cards()["hall"] == "Ben"
    # the same answer unseen by the log gives Anna only the clause "Ben holds Plum, Rope or Hall";
    # she knows Plum and Rope are in the envelope, so the clause names Hall: a derived fact
    k = knowledge_at(worked_game(), "Anna", 3)
    assert k.clauses == frozenset() and k.holder("hall") == "Ben"
    assert count(k).total == 1


def test_expected_gain_of_annas_suggestion_is_one_bit():
    k = knowledge_at(worked_game(), "Anna", 2)
    got = {a: p for a, p, _ in answers(k, "Anna", ("plum", "rope", "hall"))}
    # Ben holds Hall (shows it) or Study (passes), one deal each
    assert got == {("Ben", "hall"): Fraction(1, 2), None: Fraction(1, 2)}
    assert expected_gain(k, "Anna", ("plum", "rope", "hall")) == 1.0
    # naming her own cards and Study cannot teach her anything the room does not
    assert expected_gain(k, "Anna", ("green", "knife", "study")) == 1.0
    gain, triple = best_suggestion(k, "Anna", ["hall", "study"])
    assert gain == 1.0 and triple == ("plum", "rope", "hall")


@pytest.mark.slow
def test_answer_chances_match_enumeration_with_the_one_in_j_rule():
    for seed in range(4):
        game = random_game(seed, n_players=3, n_suggestions=3, deck=small_deck(3, 3, 4))
        deals = list(all_deals(game))
        seq = len(game.records) - 1
        suggester = game.names[seed % 3]
        k = knowledge_at(game, suggester, seq)
        triple = ("s0", "w1", "r2")
        brute = brute_counts(game, suggester, deals)
        consistent = [d for d in deals if _consistent_for(game, suggester, d, seq)]
        assert len(consistent) == brute[seq][0]
        expected: dict = {}
        for _envelope, hands, _ in consistent:
            answer = None
            seat = game.names.index(suggester)
            for step in range(1, 3):
                refuter = game.names[(seat + step) % 3]
                held = [c for c in triple if c in hands[refuter]]
                if held:
                    for c in held:
                        expected[(refuter, c)] = expected.get((refuter, c), 0) + Fraction(1, len(held))
                    answer = refuter
                    break
            if answer is None:
                expected[None] = expected.get(None, 0) + Fraction(1)
        got = answers(k, suggester, triple)
        assert {a: p for a, p, _ in got} == {a: n / len(consistent) for a, n in expected.items()}
        assert sum(p for _, p, _ in got) == 1
        gain = expected_gain(k, suggester, triple)
        manual = envelope_entropy(k) - sum(float(p) * envelope_entropy(ka) for _, p, ka in got)
        assert math.isclose(gain, manual)


def _consistent_for(game, observer, deal, seq):
    from clue_stats.testing import violation_seq

    return violation_seq(game, deal, observer) > seq
