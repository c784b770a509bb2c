"""Per-game analysis on games small enough to check by hand (and by brute force over every deal).

The worked example is read from docs/analysis.md itself, so the numbers the docs state are the
numbers the code computes.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import polars as pl
import pytest

from clue_stats.analysis import accusations, giveaway, information, suggestions
from clue_stats.analysis.game_analysis import ANALYSIS_VERSION, analyse_game
from clue_stats.analysis.timeline import certainty, entropy_frame, notebook_frame
from clue_stats.engine.game import Game
from clue_stats.engine.rules import validate
from clue_stats.ingest.store import GameRows
from tests.helpers import GIVEAWAY_LOG, docs_log, load


def analysed(game: Game, review: bool = True) -> GameRows:
    replay = validate(game)
    assert not replay.errors, replay.errors
    return analyse_game(game, replay, None, review=review)


def by_key(rows: list[dict], *keys: str) -> dict:
    return {tuple(r[k] for k in keys) if len(keys) > 1 else r[keys[0]]: r for r in rows}


# -- the worked example of the docs ----------------------------------------------------------------


@pytest.fixture(scope="module")
def worked() -> tuple[Game, GameRows]:
    game = load(docs_log("## Worked example"))
    return game, analysed(game)


def test_worked_example_entropies(worked) -> None:
    game, rows = worked
    info = by_key(rows.tables["information"], "seq", "observer")
    # Anna holds Plum and Rope: the knife is in the envelope, 2 suspects x 2 rooms remain
    assert info[(4, "Anna")]["entropy_before"] == pytest.approx(2.0)
    assert info[(4, "Anna")]["entropy_after"] == pytest.approx(1.0)  # Ben showed the Hall: the room is the Study
    assert info[(4, "Ben")]["gain_bits"] == pytest.approx(0.0)
    # the table: 12 solutions, 6 deals each, before; after "Ben showed a card": 49 deals
    h_after = math.log2(49) - (4 * 3 * math.log2(3) + 5 * 5 * math.log2(5) + 2 * 6 * math.log2(6)) / 49
    assert info[(4, None)]["entropy_before"] == pytest.approx(math.log2(12))
    assert info[(4, None)]["entropy_after"] == pytest.approx(h_after)
    assert info[(4, None)]["gain_bits"] == pytest.approx(0.17612, abs=1e-5)
    assert {r["type"] for r in rows.tables["information"]} == {"suggest"}
    assert len(rows.tables["information"]) == 4 * 3  # 4 suggestions x (Anna, Ben, the table)


def test_worked_example_suggestion(worked) -> None:
    _, rows = worked
    first = by_key(rows.tables["suggestions"], "seq")[4]
    # nobody showed (1/4): 0 bits left; Ben showed Green (3/8) or the Hall (3/8): 1 bit left
    assert first["expected_gain_bits"] == pytest.approx(2 - (Fraction(3, 8) + Fraction(3, 8)))
    assert first["best_gain_bits"] == pytest.approx(1.25)
    assert (first["best_suspect"], first["best_weapon"], first["best_room"]) == ("green", "knife", "hall")
    assert first["accuracy"] == 1.0 and first["label"] == "best"
    assert first["giveaway_bits"] == 0.0  # Green or the Hall: each leaves Anna 1 bit
    assert by_key(rows.tables["suggestions"], "seq")[8]["giveaway_bits"] is None  # nobody showed


def test_worked_example_accusation_and_certainty(worked) -> None:
    game, rows = worked
    (acc,) = rows.tables["accusations"]
    assert acc["p_correct"] == 1.0 and acc["first_certain_seq"] == 10 and acc["turns_waited"] == 0
    players = by_key(rows.tables["players"], "name")
    assert players["Anna"]["first_certain_seq"] == 8  # certain, never accused: a missed win
    assert players["Ben"]["first_certain_seq"] == 10
    assert certainty(game) == {"Anna": 8, "Ben": 10}
    assert rows.tables["games"][0]["analysis_version"] == ANALYSIS_VERSION


def test_worked_example_timeline_frames(worked) -> None:
    game, _ = worked
    frame = entropy_frame(game)
    assert frame.height == 3 * (len(game.records) + 1)
    anna = frame.filter(frame["observer"] == "Anna")["entropy"].to_list()
    assert anna[0] == pytest.approx(math.log2(12)) and anna[1] == pytest.approx(2.0) and anna[-1] == pytest.approx(0.0)
    notebook = notebook_frame(game, "Anna", 4)
    envelope = {r["card"]: r["probability"] for r in notebook.iter_rows(named=True) if r["place"] == "envelope"}
    assert envelope["knife"] == pytest.approx(1.0) and envelope["study"] == pytest.approx(1.0)
    assert envelope["green"] == pytest.approx(0.5) and envelope["plum"] == 0.0
    # every card is somewhere: its probabilities over the places add up to 1
    sums = notebook.group_by("card").agg(pl.col("probability").sum())
    assert all(s == pytest.approx(1.0) for s in sums["probability"])
    with pytest.raises(ValueError):
        notebook_frame(game, "Zoe", 4)


def test_shallow_analysis_leaves_best_gain_out(worked) -> None:
    game, _ = worked
    rows = analysed(game, review=False)
    first = by_key(rows.tables["suggestions"], "seq")[4]
    assert first["expected_gain_bits"] == pytest.approx(1.25)
    assert first["best_gain_bits"] is None and first["accuracy"] is None and first["label"] is None


# -- turns waited ----------------------------------------------------------------------------------


def _waiting_game(with_turns: bool) -> Game:
    # the worked example, but Ben, certain after record 10, lets a turn go by before accusing
    lines = docs_log("## Worked example").splitlines()
    accuse, end = lines[-2], lines[-1]
    lines = lines[:-2] + [
        '{"type":"turn","player":"Anna"}',
        '{"type":"suggest","player":"Anna","suspect":"green","weapon":"rope","room":"study","responses":[{"player":"Ben","shows":"green"}]}',
        '{"type":"turn","player":"Ben"}',
        accuse,
        end,
    ]
    if not with_turns:
        lines = [line for line in lines if '"type":"turn"' not in line]
    return load("\n".join(lines) + "\n")


@pytest.mark.parametrize("with_turns", [True, False])
def test_turns_waited(with_turns: bool) -> None:
    game = _waiting_game(with_turns)
    rows = analysed(game, review=False)
    (acc,) = rows.tables["accusations"]
    certain_at = by_key(rows.tables["players"], "name")["Ben"]["first_certain_seq"]
    assert acc["first_certain_seq"] == certain_at
    assert acc["turns_waited"] == 1
    assert acc["p_correct"] == 1.0


def test_a_certain_suggester_can_learn_nothing() -> None:
    game = _waiting_game(True)
    rows = analysed(game)
    late = by_key(rows.tables["suggestions"], "seq")[12]  # Anna, certain since record 8
    assert late["player"] == "Anna"
    assert late["expected_gain_bits"] == 0.0 and late["best_gain_bits"] == 0.0
    assert late["accuracy"] == 1.0 and late["label"] == "best"


def test_own_turns_without_turn_records() -> None:
    game = _waiting_game(False)
    # no turn records: each suggestion starts a turn, which lasts until the next one
    ben = accusations.own_turns(game, "Ben")
    starts = [r.seq for r in game.records if getattr(r, "type", "") == "suggest"]
    assert [s for s, _ in ben] == starts[1::2]
    assert accusations.turns_waited(game, "Ben", None, 9) is None


# -- brute force over every deal of a 3-player game ----------------------------------------------


def _anna_deals():
    """Every deal consistent with Anna's hand {a, x}: (solution, Ben's hand, Cleo's hand)."""
    for s, w, r in itertools.product("bc", "yz", "rst"):
        rest = [c for c in "abcxyzrst" if c not in (s, w, r, "a", "x")]
        for ben in itertools.combinations(rest, 2):
            yield (s, w, r), frozenset(ben), frozenset(rest) - frozenset(ben)


def _entropy(deals) -> float:
    counts = Counter(solution for solution, _, _ in deals)
    total = sum(counts.values())
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def test_expected_gain_and_giveaway_against_brute_force() -> None:
    game = load(GIVEAWAY_LOG)
    rows = analysed(game)
    first = by_key(rows.tables["suggestions"], "seq")[4]
    deals = list(_anna_deals())
    named = ("b", "y", "r")
    chance: Counter = Counter()
    for _, ben, cleo in deals:
        for who, hand in (("Ben", ben), ("Cleo", cleo)):
            held = [c for c in named if c in hand]
            if held:
                for c in held:
                    chance[(who, c)] += Fraction(1, len(held) * len(deals))
                break
        else:
            chance[None] += Fraction(1, len(deals))

    def consistent(answer, ben, cleo) -> bool:
        if answer is None:
            return not (set(named) & (ben | cleo))
        who, card = answer
        if who == "Ben":
            return card in ben
        return not (set(named) & ben) and card in cleo

    after = {a: _entropy([d for d in deals if consistent(a, d[1], d[2])]) for a in chance}
    expected = _entropy(deals) - sum(float(p) * after[a] for a, p in chance.items())
    assert first["expected_gain_bits"] == pytest.approx(expected, abs=1e-12)
    # Ben held b and r and showed b: Anna learns more than the room would have told her
    giveaway_expected = after[("Ben", "r")] - after[("Ben", "b")]
    assert giveaway_expected > 0.1
    assert first["giveaway_bits"] == pytest.approx(giveaway_expected, abs=1e-12)
    assert giveaway.choices(game, game.records[3]) == ("b", "r")
    # a card the log writer did not see: nothing to say
    assert by_key(rows.tables["suggestions"], "seq")[5]["giveaway_bits"] is None


def test_wrong_accusation_rows() -> None:
    game = load(GIVEAWAY_LOG)
    rows = analysed(game, review=False)
    info = by_key(rows.tables["information"], "seq", "observer")
    assert info[(6, "Anna")]["type"] == "accuse"
    # a wrong accusation rules one solution out for everyone
    assert all(info[(6, o)]["gain_bits"] >= 0 for o in ("Anna", "Ben", "Cleo", None))
    (acc,) = rows.tables["accusations"]
    assert acc["correct"] is False and acc["first_certain_seq"] is None and acc["turns_waited"] is None
    # Cleo holds y and s: 2 suspects x 2 weapons x 2 rooms left, but not all equally likely
    assert 0 < acc["p_correct"] < 1
    assert [r.seq for r in information.informative_records(game)] == [4, 5, 6]


# -- pure helpers ----------------------------------------------------------------------------------


def test_labels_follow_bits_lost() -> None:
    """Each label up to its threshold, the next one just above it; nothing lost is best."""
    assert suggestions.label(0.0) == "best"
    assert suggestions.LABEL_ORDER == ("best", "good", "inaccuracy", "mistake", "blunder")
    for (word, most), following in zip(suggestions.LABELS, suggestions.LABEL_ORDER[1:]):
        assert suggestions.label(most) == word
        assert suggestions.label(most + 1e-6) == following
    assert suggestions.label(8.0) == "blunder"


def test_review_accuracy_sums_then_divides() -> None:
    # 1.0 of 1.0 and 0.0 of 0.5: 1.0 / 1.5, not the mean of 1 and 0
    assert suggestions.review_accuracy([(1.0, 1.0), (0.0, 0.5)]) == pytest.approx(2 / 3)
    assert suggestions.review_accuracy([(0.0, 0.0)]) == 1.0  # nothing could be learned
    assert suggestions.review_accuracy([]) is None  # none rated


def test_accuracy_edges() -> None:
    assert suggestions.accuracy(0.0, 0.0) == 1.0  # nothing could be learned
    assert suggestions.accuracy(0.5, 1.0) == 0.5
    assert suggestions.accuracy(1.0 + 1e-15, 1.0) == 1.0


def test_candidate_rooms_follow_the_flag() -> None:
    game = load(docs_log("## Worked example"))
    record = game.records[3]
    assert suggestions.candidate_rooms(game, record) == ("hall",)
    game.flags = {**game.flags, "suggest_room": "chosen"}
    assert suggestions.candidate_rooms(game, record) == game.deck.rooms
