"""What each observer knows after each record, and the facts derived without assumptions."""

from __future__ import annotations

from clue_stats.engine.deduction import (
    TABLE,
    count,
    first_inconsistent,
    knowledge_at,
    knowledge_timeline,
    observers,
    partial_view,
)
from clue_stats.engine.editions import Deck
from clue_stats.engine.game import ALL, UNSEEN, Accuse, Deal, End, Move, Response, Reveal, Suggest, Turn
from clue_stats.engine.knowledge import Knowledge
from clue_stats.testing import make_game, random_game

DECK = Deck.custom(["Plum", "Green", "Mustard"], ["Rope", "Knife"], ["Hall", "Study"])  # 7 cards, 4 dealt


def suggest(player, s, w, r, *responses):
    return Suggest(seq=0, player=player, suspect=s, weapon=w, room=r, responses=tuple(Response(*x) for x in responses))


def test_observers_and_timeline_shape():
    game = random_game(3, n_players=4, n_suggestions=5)
    assert observers(game) == ["Anna", "Ben", "Cleo", "Dan", TABLE]
    timeline = knowledge_timeline(game, "Ben")
    assert len(timeline) == len(game.records) + 1
    # seq 0: hand sizes only, the same for everyone
    assert timeline[0] == knowledge_timeline(game, TABLE)[0]
    assert timeline[0].facts == frozenset() and timeline[0].clauses == frozenset()
    assert knowledge_at(game, "Ben", 4) == timeline[4]


def test_a_player_learns_their_hand_from_their_deal_record():
    game = make_game(DECK, ["Anna", "Ben"], [Deal(seq=0, player="Anna", cards=("plum", "rope"))])
    k = knowledge_at(game, "Anna", 1)
    assert k.holder("plum") == "Anna" and k.holder("rope") == "Anna"
    # a full hand excludes every other card
    assert "Anna" not in k.possible("green") and "Anna" not in k.possible("hall")
    # Rope is Anna's, so Knife is the weapon in the envelope
    assert k.holder("knife") == "envelope"
    assert knowledge_at(game, "Ben", 1) == knowledge_at(game, "Ben", 0)
    assert knowledge_at(game, TABLE, 1) == knowledge_at(game, TABLE, 0)
    assert not partial_view(game, "Anna") and partial_view(game, "Ben") and not partial_view(game, TABLE)


def test_a_clause_with_two_cards_known_absent_names_the_third():
    game = make_game(
        DECK,
        ["Anna", "Ben"],
        [
            suggest("Anna", "plum", "rope", "hall", ("Ben", UNSEEN)),
            suggest("Anna", "plum", "knife", "study", ("Ben", None)),
            suggest("Anna", "green", "rope", "study", ("Ben", None)),
        ],
    )
    assert knowledge_at(game, TABLE, 1).clause_list == [("Ben", ("plum", "rope", "hall"))]
    assert knowledge_at(game, TABLE, 2).clause_list == [("Ben", ("rope", "hall"))]
    k = knowledge_at(game, TABLE, 3)
    assert k.clauses == frozenset() and k.holder("hall") == "Ben"
    assert ("plum", "Ben", False) in k.facts and ("hall", "Ben", True) in k.facts


def test_who_sees_a_shown_card():
    game = make_game(
        DECK,
        ["Anna", "Ben", "Cleo"],
        [
            suggest("Anna", "plum", "rope", "hall", ("Ben", None), ("Cleo", "rope")),
            suggest("Ben", "green", "knife", "study", ("Cleo", UNSEEN)),
        ],
        hand_sizes=(1, 1, 2),
    )
    # the suggester sees the card; the shower knows what they showed; the others only the clause
    assert knowledge_at(game, "Anna", 1).holder("rope") == "Cleo"
    assert knowledge_at(game, "Cleo", 1).holder("rope") == "Cleo"
    for observer in ("Ben", TABLE):
        k = knowledge_at(game, observer, 1)
        assert k.holder("rope") is None and k.clause_list == [("Cleo", ("plum", "rope", "hall"))]
    # "?" for the suggester: like everyone else, a clause only
    k = knowledge_at(game, "Ben", 2)
    assert k.holder("green") is None and ("Cleo", ("green", "knife", "study")) in k.clause_list
    # every pass is known to everyone
    for observer in observers(game):
        assert "Ben" not in knowledge_at(game, observer, 1).possible("plum")


def test_reveals_accusations_and_the_end():
    game = make_game(
        DECK,
        ["Anna", "Ben"],
        [
            Reveal(seq=0, player="Ben", card="hall", to=("Anna",)),
            Reveal(seq=0, player=None, card="green", to=ALL),
            Accuse(seq=0, player="Anna", suspect="plum", weapon="rope", room="study", correct=False),
            Accuse(seq=0, player="Ben", suspect="green", weapon="rope", room="hall"),  # `correct` left out
            Turn(seq=0, player="Anna"),
            Move(seq=0, player="Anna", to="hall"),
            End(seq=0, winner=None, solution=("green", "knife", "study")),
        ],
    )
    assert knowledge_at(game, "Anna", 1).holder("hall") == "Ben"
    assert knowledge_at(game, "Ben", 1).holder("hall") == "Ben"
    assert knowledge_at(game, TABLE, 1).holder("hall") is None
    # nobody's hand: with no room cards, the envelope
    assert knowledge_at(game, TABLE, 2).holder("green") == "envelope"
    k3 = knowledge_at(game, TABLE, 3)
    assert ("plum", "rope", "study") not in k3.excluded_solutions  # impossible anyway: green is in
    # the log's solution tells that Ben's accusation was wrong (everyone at the table saw it)
    assert ("green", "rope", "hall") in count(knowledge_at(game, TABLE, 3)).solutions
    k4 = knowledge_at(game, TABLE, 4)
    assert ("green", "rope", "hall") in k4.excluded_solutions
    assert ("green", "rope", "hall") not in count(k4).solutions
    # turns, moves and the end teach nothing: the end's solution is not anyone's knowledge
    assert knowledge_at(game, TABLE, 7) == knowledge_at(game, TABLE, 4)
    assert count(knowledge_at(game, TABLE, 7)).certain_solution() is None


def test_a_wrong_accusation_rules_out_its_solution_only():
    game = make_game(
        DECK,
        ["Anna", "Ben"],
        [
            Accuse(seq=0, player="Anna", suspect="plum", weapon="rope", room="study", correct=False),
        ],
    )
    before = count(knowledge_at(game, TABLE, 0))
    after = count(knowledge_at(game, TABLE, 1))
    assert ("plum", "rope", "study") not in after.solutions
    assert after.total == before.total - before.solutions[("plum", "rope", "study")]
    assert {t: n for t, n in before.solutions.items() if t != ("plum", "rope", "study")} == after.solutions


def test_a_solution_ruled_out_everywhere_but_one_card_moves_that_card_out_of_the_envelope():
    # Plum with every weapon and room ruled out: Plum is not the suspect
    records = [
        Accuse(seq=0, player="Anna", suspect="plum", weapon=w, room=r, correct=False)
        for w in ("rope", "knife")
        for r in ("hall", "study")
    ]
    game = make_game(DECK, ["Anna", "Ben"], records)
    k = knowledge_at(game, TABLE, 4)
    assert "envelope" not in k.possible("plum")
    assert k.excluded == frozenset()  # nothing left to say: no possible solution names Plum


def test_knowledge_is_canonical_and_hashable():
    # the same facts reached in another order are the same knowledge
    a = make_game(
        DECK,
        ["Anna", "Ben"],
        [
            suggest("Anna", "plum", "rope", "hall", ("Ben", None)),
            suggest("Anna", "green", "knife", "hall", ("Ben", None)),
        ],
    )
    b = make_game(
        DECK,
        ["Anna", "Ben"],
        [
            suggest("Anna", "green", "knife", "hall", ("Ben", None)),
            suggest("Anna", "plum", "rope", "hall", ("Ben", None)),
        ],
    )
    ka, kb = knowledge_at(a, TABLE, 2), knowledge_at(b, TABLE, 2)
    assert ka == kb and hash(ka) == hash(kb) and len({ka, kb}) == 1
    assert knowledge_at(a, TABLE, 1) != knowledge_at(b, TABLE, 1)


def test_duel_knowledge_has_the_room_cards_as_a_place():
    game = random_game(5, n_players=2, n_suggestions=6, duel=True)
    k = knowledge_at(game, "Anna", len(game.records))
    assert k.places == ("envelope", "Anna", "Ben", "room_cards") and k.sizes[-1] == 4
    peeked = [r for r in game.records if r.type == "peek" and r.player == "Anna"]
    for r in peeked:
        assert k.holder(r.card) == "room_cards"
    assert first_inconsistent(game) is None


def test_facts_held_already_give_the_same_knowledge_back_as_a_closure_would():
    """Knowledge.updated returns the knowledge itself when the record adds nothing (no closure run):
    along every observer's timeline of generated games (hands hidden, a duel, wrong accusations,
    3 and 6 players), each update equals the closure of the old facts with the new ones."""
    from clue_stats.engine.knowledge import _bits, _closed, record_update

    kept = 0
    for seed in range(12):
        for options in ({}, {"blind": True}, {"duel": True}, {"wrong_accusations": 2}, {"n_players": 3}):
            game = random_game(seed, **({"n_players": 6, "n_suggestions": 30} | options))
            for observer in observers(game):
                timeline = knowledge_timeline(game, observer)
                for record, (k, after) in zip(game.records, zip(timeline, timeline[1:])):
                    update = record_update(game, k, record, observer)
                    if not update or not k.consistent:
                        continue
                    allowed = list(k.allowed)
                    for place, card in update.get("holds", ()):
                        allowed[card] &= 1 << place
                    for place, mask in update.get("lacks", ()):
                        for card in _bits(mask):
                            allowed[card] &= ~(1 << place)
                    closed = _closed(
                        k.deck,
                        k.places,
                        k.sizes,
                        allowed,
                        set(k.clauses) | set(update.get("clauses", ())),
                        set(k.excluded) | set(update.get("excluded", ())),
                    )
                    assert after == closed
                    kept += after is k
    assert kept > 100  # the shortcut is taken (a record that adds nothing is common)


def test_the_closure_reads_cards_past_the_64th_of_a_large_deck():
    """A set of cards is a Python integer in the compiled closure: a deck of 90 cards draws the same
    conclusions about its last cards as about its first."""
    deck = Deck.custom([f"S{i}" for i in range(30)], [f"W{i}" for i in range(30)], [f"R{i}" for i in range(30)])
    k = Knowledge.initial(deck, ("A", "B"), (44, 43))
    # B holds one of R10 (card 70) and R25 (card 85), and not R10: R25 is B's
    named = k.updated(clauses=[(2, 1 << 70 | 1 << 85)], lacks=[(2, 1 << 70)])
    assert named.allowed[85] == 1 << 2 and named.consistent
    # every room but R29 (card 89) is in a hand: R29 is the envelope's
    rooms_held = k.updated(holds=[(1, c) for c in range(60, 75)] + [(2, c) for c in range(75, 89)])
    assert rooms_held.allowed[89] == 1
    # and no deal at all once R28 (card 88), held by B, is in neither hand
    assert not rooms_held.updated(lacks=[(1, 1 << 88), (2, 1 << 88)]).consistent
