"""Per-game analysis on games small enough to check by hand (and by brute force over every deal).

The worked example is read from docs/analysis.md itself, so the numbers the docs state are the
numbers the code computes.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter
from fractions import Fraction

import polars as pl
import pytest

from clue_stats.analysis.computers import accusations, giveaway, information, suggestions
from clue_stats.analysis.computers.game_analysis import ANALYSIS_VERSION, analyse_game
from clue_stats.analysis.review.timeline import certainty, entropy_frame, notebook_frame, stored_entropy_frame
from clue_stats.engine.game import Deal, Game
from clue_stats.engine.rules import validate
from clue_stats.ingest.store import GameRows
from clue_stats.testing import random_game, small_deck
from tests.helpers import (
    ANNA_ASKS_GREEN,
    BEN_WINS,
    GIVEAWAY_LOG,
    REVEAL_GREEN,
    TURN_ANNA,
    TURN_BEN,
    anna_and_ben,
    docs_log,
    load,
)


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


def _deal_after_play(seed: int) -> Game:
    """A random game whose last deal is logged after the first suggestion (a late entry in the log)."""
    game = random_game(seed, n_players=3, n_suggestions=12, deck=small_deck())
    deals = [r for r in game.records if isinstance(r, Deal)]
    rest = [r for r in game.records if not isinstance(r, Deal)]
    records = [*deals[:-1], rest[0], deals[-1], *rest[1:]]
    return dataclasses.replace(game, records=[dataclasses.replace(r, seq=i) for i, r in enumerate(records, 1)])


@pytest.mark.parametrize(
    "game",
    [
        random_game(3, n_players=4, n_suggestions=30, deck=small_deck(), wrong_accusations=2),
        random_game(4, n_players=3, n_suggestions=20, deck=small_deck(), duel=True),
        random_game(5, n_players=3, n_suggestions=10, deck=small_deck(), blind=True),
        _deal_after_play(6),
    ],
    ids=["wrong accusations", "duel with peeks", "no hands", "a deal after play began"],
)
def test_the_entropy_read_from_the_stored_rows_is_the_entropy_counted(game: Game) -> None:
    """The report and replay read a game's entropy from its information rows (only the deals
    replayed): the same, record by record and observer by observer, as counting the whole game."""
    rows = analysed(game, review=False)
    stored = stored_entropy_frame(game, rows.tables["information"]).sort("observer", "seq", nulls_last=True)
    counted = entropy_frame(game).sort("observer", "seq", nulls_last=True)
    assert stored["observer"].to_list() == counted["observer"].to_list()
    assert stored["seq"].to_list() == counted["seq"].to_list()
    assert stored["entropy"].to_list() == pytest.approx(counted["entropy"].to_list())


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
        TURN_ANNA,
        '{"type":"suggest","player":"Anna","suspect":"green","weapon":"rope","room":"study","responses":[{"player":"Ben","shows":"green"}]}',
        TURN_BEN,
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


def test_a_loss_exactly_on_a_threshold_gets_the_lower_label() -> None:
    """0.2 bits exactly, as the review's sums gave it for (log2 5 - 4/5) - (log2 5 - 1): stored as
    0.20000000000000018, it is still `good`; the same a few ulps above every threshold."""
    assert suggestions.label(0.20000000000000018) == "good"
    for word, most in suggestions.LABELS:
        assert suggestions.label(most + 4e-16 * max(1.0, most)) == word


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


# -- missed wins, on games checked by hand -----------------------------------------------------------


def _players(game_id: str, *records: str) -> dict[str, dict]:
    return by_key(analysed(load(anna_and_ben(game_id, ANNA_ASKS_GREEN, *records))).tables["players"], "name")


def test_certain_then_a_turn_without_accusing_is_a_missed_win() -> None:
    # certain at the reveal (seq 6), in Ben's turn; then a turn of Anna's ends without an accusation
    players = _players(
        "miss",
        TURN_BEN,
        REVEAL_GREEN,
        TURN_ANNA,
        TURN_BEN,
        *BEN_WINS,
    )
    assert players["Anna"]["first_certain_seq"] == 6
    assert players["Anna"]["missed_win"] is True
    assert players["Ben"]["missed_win"] is False  # the winner


def test_certain_just_before_another_players_winning_accusation_is_no_missed_win() -> None:
    # certain at the reveal (seq 6), and Ben accuses at once: Anna had no turn to accuse in
    players = _players("no-turn", TURN_BEN, REVEAL_GREEN, *BEN_WINS)
    assert players["Anna"]["first_certain_seq"] == 6
    assert players["Anna"]["missed_win"] is False


def test_eliminated_before_being_certain_is_no_missed_win() -> None:
    # Anna accuses Green wrongly (seq 5), which tells her the suspect is Mustard: certain at seq 5, in
    # a turn that ends later (seq 6), but out of the game already
    players = _players(
        "out",
        '{"type":"accuse","player":"Anna","suspect":"green","weapon":"knife","room":"study","correct":false}',
        TURN_BEN,
        *BEN_WINS,
    )
    assert players["Anna"]["eliminated"] and players["Anna"]["first_certain_seq"] == 5
    assert players["Anna"]["missed_win"] is False


def test_worked_example_missed_win_and_review() -> None:
    """The docs' worked example: Anna certain after seq 8, in her own turn, which ends without an
    accusation (a missed win); every suggestion of both players is the best available (review
    accuracy 1, labels best, nothing lost) but Anna's second, checked by hand below."""
    rows = analysed(load(docs_log("## Worked example")))
    players = by_key(rows.tables["players"], "name")
    assert (players["Anna"]["missed_win"], players["Ben"]["missed_win"]) == (True, False)
    assert players["Anna"]["rated_suggestions"] == 2 and players["Ben"]["rated_suggestions"] == 2
    by_seq = by_key(rows.tables["suggestions"], "seq")
    for s in by_seq.values():
        assert s["bits_lost"] == pytest.approx(s["best_gain_bits"] - s["expected_gain_bits"], abs=1e-12)
        assert s["label"] == suggestions.label(s["bits_lost"])
    for name in ("Anna", "Ben"):
        mine = [s for s in by_seq.values() if s["player"] == name]
        expected = sum(s["expected_gain_bits"] for s in mine) / sum(s["best_gain_bits"] for s in mine)
        assert players[name]["review_accuracy"] == pytest.approx(expected)


def test_labels_and_review_accuracy_on_a_hand_checked_game() -> None:
    """Anna names her own Plum (docs/analysis.md, "Labels"): the suggestion only asks about the room,
    1 bit expected against the 1.25 of Green or Mustard: 0.25 bits lost, accuracy 0.8, an
    inaccuracy; her review accuracy over the game (one rated suggestion) is 1 / 1.25. Ben makes no
    suggestion: rated_suggestions 0, review accuracy NULL."""
    text = anna_and_ben(
        "plum-instead",
        '{"type":"suggest","player":"Anna","suspect":"plum","weapon":"knife","room":"hall","responses":[{"player":"Ben","shows":"hall"}]}',
        TURN_BEN,
        *BEN_WINS,
    )
    rows = analysed(load(text))
    (s,) = rows.tables["suggestions"]
    assert s["expected_gain_bits"] == pytest.approx(1.0) and s["best_gain_bits"] == pytest.approx(1.25)
    assert s["best_suspect"] in ("green", "mustard") and s["best_room"] == "hall"
    assert s["bits_lost"] == pytest.approx(0.25) and s["accuracy"] == pytest.approx(0.8)
    assert s["label"] == "inaccuracy"
    players = by_key(rows.tables["players"], "name")
    assert players["Anna"]["rated_suggestions"] == 1 and players["Anna"]["review_accuracy"] == pytest.approx(0.8)
    assert players["Ben"]["rated_suggestions"] == 0 and players["Ben"]["review_accuracy"] is None


def test_a_log_holding_one_hand_rates_only_its_writers_suggestions() -> None:
    """The worked example as Anna's notebook: Ben's deal is not in the log, so his suggestions are
    not rated (every review column NULL) while Anna's are, as in the full log; the information rows
    are still there for every observer, Ben's marked as a partial view."""
    full = docs_log("## Worked example")
    lines = [line for line in full.splitlines() if '"type":"deal","player":"Ben"' not in line]
    rows = analysed(load("\n".join(lines) + "\n"))
    reference = by_key(analysed(load(full)).tables["suggestions"], "player", "suspect", "weapon", "room")
    for s in rows.tables["suggestions"]:
        review = {c: s[c] for c in suggestions.UNRATED}
        if s["player"] == "Ben":
            assert review == suggestions.UNRATED
        else:
            same = reference[(s["player"], s["suspect"], s["weapon"], s["room"])]
            assert review == {c: same[c] for c in suggestions.UNRATED}
    players = by_key(rows.tables["players"], "name")
    assert players["Ben"]["rated_suggestions"] == 0 and players["Ben"]["review_accuracy"] is None
    assert players["Anna"]["rated_suggestions"] == 2 and players["Anna"]["review_accuracy"] == 1.0
    observers = {(r["observer"], r["partial_view"]) for r in rows.tables["information"]}
    assert observers == {("Anna", False), ("Ben", True), (None, False)}
