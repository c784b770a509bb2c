"""A record in words, the one wording of the post-mortem report and the dashboard's replay: past
tense, every kind of record, the edition's names (German for a German game), start squares by name,
never an id."""

from __future__ import annotations

import json

import pytest

from clue_stats.analysis.words.records import describe, describe_seq
from clue_stats.ingest.store import game_from_payloads


def game_of(records: list[dict]):
    return game_from_payloads([json.dumps(r, ensure_ascii=False) for r in records])


def test_a_suggestion_an_accusation_a_turn_a_reveal_and_the_end_in_words():
    game = game_of(
        [
            {
                "type": "game",
                "format": "clue-log/1",
                "edition": "us-classic",
                "players": [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}],
            },
            {
                "type": "suggest",
                "player": "Ann",
                "suspect": "white",
                "weapon": "rope",
                "room": "hall",
                "responses": [{"player": "Bo", "shows": None}, {"player": "Cy", "shows": "?"}],
            },
            {
                "type": "suggest",
                "player": "Ann",
                "suspect": "white",
                "weapon": "rope",
                "room": "hall",
                "responses": [{"player": "Bo", "shows": None}],
            },
            {"type": "accuse", "player": "Ann", "suspect": "white", "weapon": "rope", "room": "hall", "correct": False},
            {"type": "turn", "player": "Bo", "roll": [3, "?"]},
            {"type": "reveal", "player": None, "card": "rope", "to": "all"},
            {"type": "end", "winner": None, "solution": None},
        ]
    )
    assert [describe_seq(game, seq) for seq in range(len(game.records) + 1)] == [
        "the game began: 3 players (Ann, Bo, Cy)",
        "Ann suggested Mrs. White, Rope, Hall; Bo passed; Cy showed a card",
        "Ann suggested Mrs. White, Rope, Hall; nobody could show a card",
        "Ann accused Mrs. White, Rope, Hall (wrongly)",
        "Bo's turn (rolled 3 and ?)",
        "a card in nobody's hand Rope was revealed to everyone",
        "the game ended without a winner",
    ]


def test_every_kind_of_record_in_words_with_the_editions_names():
    game = game_of(
        [
            {
                "type": "game",
                "format": "clue-log/1",
                "edition": "de-2023",
                "variant": "duel",
                "players": [{"name": "Jonas", "character": "mustard"}, {"name": "Mara", "character": "scarlett"}],
            },
            {"type": "room_cards", "rooms": ["kitchen", "ballroom", "hall", "library"]},
            {"type": "deal", "player": "Jonas", "cards": ["revolver", "hall", "peacock"]},
            {"type": "deal", "player": "Mara", "cards": []},
            {"type": "turn", "player": "Jonas", "roll": [3, 4]},
            {"type": "turn", "player": "Mara"},
            {"type": "move", "player": "Jonas", "to": [24, 7], "via": "walk"},
            {"type": "move", "player": "Jonas", "to": [5, 5]},
            {"type": "move", "player": "Jonas", "to": "kitchen", "via": "passage"},
            {"type": "peek", "player": "Jonas", "room": "kitchen", "card": "mustard"},
            {"type": "peek", "player": "Mara", "room": "kitchen", "card": "?"},
            {
                "type": "suggest",
                "player": "Jonas",
                "suspect": "plum",
                "weapon": "rope",
                "room": "kitchen",
                "responses": [{"player": "Mara", "shows": "rope"}],
            },
            {"type": "reveal", "player": "Mara", "card": "rope", "to": ["Jonas"], "cause": "a clue card"},
            {"type": "clue_card", "player": "Mara", "text": "Alle zeigen eine Karte"},
            {"type": "x-chat", "text": "gg"},
            {
                "type": "accuse",
                "player": "Jonas",
                "suspect": "white",
                "weapon": "dagger",
                "room": "lounge",
                "correct": True,
            },
            {"type": "end", "winner": "Jonas", "solution": {"suspect": "white", "weapon": "dagger", "room": "lounge"}},
        ]
    )
    kinds = {type(r).__name__ for r in game.records}
    assert kinds == {
        "RoomCards",
        "Deal",
        "Turn",
        "Move",
        "Peek",
        "Suggest",
        "Reveal",
        "ClueCard",
        "Extension",
        "Accuse",
        "End",
    }  # every kind of record (engine.game.Event)
    assert [describe_seq(game, seq) for seq in range(len(game.records) + 1)] == [
        "the game began: 2 players (Jonas, Mara)",
        "cards were set aside on Küche, Musikzimmer, Halle and Bibliothek",
        "Jonas was dealt Pistole, Halle and Anwältin Porz",
        "Mara was dealt no cards",
        "Jonas's turn (rolled 3 and 4)",
        "Mara's turn",
        "Jonas moved to Lady Gloria's start (walk)",
        "Jonas moved to square 5,5",
        "Jonas moved to Küche (passage)",
        "Jonas looked at the card set on Küche: Oberst von Gatow",
        "Mara looked at the card set on Küche",
        "Jonas suggested Professor Bloom, Seil, Küche; Mara showed Seil",
        "Mara's card Seil was revealed to Jonas (a clue card)",
        "Mara drew a clue card: Alle zeigen eine Karte",
        "extension record x-chat",
        "Jonas accused Köchin Weiß, Dolch, Salon (correctly)",
        "the game ended; Jonas won; the solution was Köchin Weiß, Dolch, Salon",
    ]


def test_a_record_of_no_known_kind_raises():
    game = game_of(
        [{"type": "game", "format": "clue-log/1", "edition": "classic", "players": [{"name": "A"}, {"name": "B"}]}]
    )
    with pytest.raises(TypeError, match="not a record the walk knows: object"):
        describe(game, object())  # a kind the engine does not have
    with pytest.raises(IndexError):
        describe_seq(game, 1)


def test_records_in_words_use_the_editions_names():
    records = [
        {
            "type": "game",
            "format": "clue-log/1",
            "edition": "de-2023",
            "players": [{"name": "Anna"}, {"name": "Ben"}, {"name": "Cleo"}],
        },
        {
            "type": "suggest",
            "player": "Anna",
            "suspect": "green",
            "weapon": "dagger",
            "room": "lounge",
            "responses": [{"player": "Ben", "shows": None}, {"player": "Cleo", "shows": "dagger"}],
        },
        {
            "type": "suggest",
            "player": "Ben",
            "suspect": "plum",
            "weapon": "rope",
            "room": "study",
            "responses": [{"player": "Cleo", "shows": None}, {"player": "Anna", "shows": None}],
        },
        {
            "type": "accuse",
            "player": "Cleo",
            "suspect": "white",
            "weapon": "wrench",
            "room": "library",
            "correct": False,
        },
    ]
    game = game_from_payloads([json.dumps(r) for r in records])
    assert [describe(game, r) for r in game.records] == [
        "Anna suggested Bürgermeister Grün, Dolch, Salon; Ben passed; Cleo showed Dolch",
        "Ben suggested Professor Bloom, Seil, Arbeitszimmer; nobody could show a card",
        "Cleo accused Köchin Weiß, Rohrzange, Bibliothek (wrongly)",
    ]
