"""The tabletop notation reader: lines, names, header, records, games, and the fixtures typed at the table."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from clue_stats.engine.editions import edition
from clue_stats.engine.rules import replay
from clue_stats.ingest import cluelog, notation
from clue_stats.ingest.notation_lex import NotationError, lex, pointer
from clue_stats.ingest.notation_names import CardNames, PlayerNames
from tests.helpers import raw_games

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "notation"
VALID = ["kaffeeklatsch.clue", "club-night.clue", "live-custom.clue", "duel.clue"]

HEADER = "edition de-2023\nplayers Anna=Gloria, Ben=Gatow, Cleo=Porz\nnotebook Anna\n"


def records_of(text: str) -> list[dict]:
    result = notation.read(text, "t.clue")
    assert not result.problems
    (game,) = result.games
    assert not game.problems, [str(p) for p in game.problems]
    return game.records


def one_record(line: str, header: str = HEADER) -> dict:
    return records_of(header + line + "\n")[-1]


def problems_of(text: str) -> list:
    return [p for g in notation.read(text, "t.clue").games for p in g.problems]


# ---------------------------------------------------------------- lines


def test_lex_keeps_columns_quotes_note_and_time() -> None:
    line = lex(7, 'Anna: "Mr. Green" Seil/Ben -  @20:15 # zögert')
    assert [(t.text, t.start, t.quoted, t.sep) for t in line.tokens] == [
        ("Anna:", 0, False, False),
        ("Mr. Green", 6, True, False),
        ("Seil", 18, False, False),
        ("/", 22, False, True),
        ("Ben", 23, False, False),
        ("-", 27, False, False),
    ]
    assert (line.number, line.time, line.note) == (7, "20:15", "zögert")


def test_lex_hash_inside_a_word_is_not_a_comment_and_quoted_notes_decode() -> None:
    assert [t.text for t in lex(1, "Raum#2 x").tokens] == ["Raum#2", "x"]
    assert lex(1, 'x # "a\\nb"').note == "a\nb"
    assert lex(1, 'x @"20 15"').time == "20 15"


def test_lex_reports_an_open_quote_and_a_misplaced_time() -> None:
    with pytest.raises(NotationError, match="not closed"):
        lex(1, 'Anna: "Grün Seil')
    with pytest.raises(NotationError, match="end of the line"):
        lex(1, "Anna: @20:15 Grün")


def test_pointer_puts_the_caret_under_the_columns_even_after_tabs() -> None:
    text = pointer("\tAnna: Bloom Siel", 13, 17, "unknown weapon")
    assert str(text).splitlines() == ["unknown weapon", "    \tAnna: Bloom Siel", "    \t            ^^^^"]


# ---------------------------------------------------------------- names


@pytest.fixture(scope="module")
def german() -> CardNames:
    return CardNames(edition("de-2023").deck)


@pytest.mark.parametrize(
    "typed, card",
    [
        ("Seil", "rope"),
        ("seil", "rope"),
        ("rope", "rope"),
        ("Heiz", "lead_pipe"),
        ("Rohr", "lead_pipe"),
        ("Zange", "wrench"),
        ("Kuche", "kitchen"),
        ("Kueche", "kitchen"),
        ("Gruen", "green"),
        ("GRÜN", "green"),
        ("Weiss", "white"),
        ("Koechin", "white"),
        ("Prof B", "plum"),
        ("Oberst v", "mustard"),
        ("Musik", "ballroom"),
        ("Lady-Gloria", "scarlett"),
        ("dining_room", "dining_room"),
    ],
)
def test_a_card_by_name_alias_id_or_unique_abbreviation(german: CardNames, typed: str, card: str) -> None:
    assert german.match(typed, german.pool(None)) == {card}


def test_an_abbreviation_of_several_cards_is_ambiguous_and_a_full_name_means_its_card(german: CardNames) -> None:
    assert german.match("Ro", german.pool("weapons")) == {"lead_pipe", "wrench", "rope"}
    # "Seil" is the rope even where only suspects are asked for: it is not a suspect's abbreviation
    assert german.match("Seil", german.pool("suspects")) == set()


def test_the_longest_run_of_words_that_names_one_card_wins() -> None:
    classic = CardNames(edition("classic").deck)
    tokens = lex(1, "Professor Plum Lead Pipe Dining Room").tokens
    card, i = classic.take(tokens, 0, "suspects")
    weapon, j = classic.take(tokens, i, "weapons")
    room, k = classic.take(tokens, j, "rooms")
    assert (card, weapon, room, k) == ("plum", "lead_pipe", "dining_room", 6)


def test_one_word_may_start_a_later_word_when_nothing_else_fits() -> None:
    from clue_stats.engine.editions import Deck

    cards = CardNames(Deck.custom(["Der Gärtner", "Lady Ascot", "Gräfin Rot"], ["Seil"], ["Kirche"]))
    assert cards.match("Gärtner", cards.pool(None)) == {"der_gartner"}
    assert cards.match("Ascot", cards.pool(None)) == {"lady_ascot"}


def test_players_by_name_prefix_or_any_word_and_ambiguity() -> None:
    players = PlayerNames(["Team Nord", "Team Süd", "Anna", "Annika"])
    assert players.match("Nord") == ["Team Nord"]
    assert players.match("sud") == ["Team Süd"]
    assert players.match("Anna") == ["Anna"]
    assert players.match("Ann") == ["Anna", "Annika"]
    with pytest.raises(NotationError, match="could be Anna or Annika"):
        players.whole(lex(1, "Ann").tokens)
    with pytest.raises(NotationError, match="did you mean 'Anna'"):
        players.whole(lex(1, "Anan").tokens)


# ---------------------------------------------------------------- records


def test_a_suggestion_shown_unseen_and_passes() -> None:
    assert one_record("Anna: Grün Dolch Salon / Ben - / Cleo Dolch") == {
        "type": "suggest",
        "player": "Anna",
        "suspect": "green",
        "weapon": "dagger",
        "room": "lounge",
        "responses": [{"player": "Ben", "shows": None}, {"player": "Cleo", "shows": "dagger"}],
    }
    assert one_record("B:bloom rohr halle/c ?")["responses"] == [{"player": "Cleo", "shows": "?"}]


def test_a_shown_card_is_abbreviated_among_the_three_named() -> None:
    assert one_record("Anna: Grün Dolch Salon / Ben D")["responses"] == [{"player": "Ben", "shows": "dagger"}]
    assert one_record("Anna: Grün Dolch Salon / Ben Sal")["responses"] == [{"player": "Ben", "shows": "lounge"}]


def test_nobody_showed_is_every_other_player_passing_clockwise_from_the_left() -> None:
    record = one_record("Ben: Grün Dolch Salon / -")
    assert record["responses"] == [{"player": "Cleo", "shows": None}, {"player": "Anna", "shows": None}]


def test_accusations_deals_and_the_end() -> None:
    assert one_record("Cleo! Weiß Zange Biblio wrong") == {
        "type": "accuse",
        "player": "Cleo",
        "suspect": "white",
        "weapon": "wrench",
        "room": "library",
        "correct": False,
    }
    assert one_record("Cleo accuses Weiß Zange Biblio")["type"] == "accuse"
    assert "correct" not in one_record("Cleo! Weiß Zange Biblio")
    assert one_record("Anna has Seil Halle Bloom")["cards"] == ["rope", "hall", "plum"]
    assert one_record("Anna has -")["cards"] == []
    assert one_record("end Anna: Grün Leuchter Musik") == {
        "type": "end",
        "winner": "Anna",
        "solution": {"suspect": "green", "weapon": "candlestick", "room": "ballroom"},
    }
    assert one_record("end nobody: Grün Leuchter Musik")["winner"] is None
    assert one_record("end: Grün Leuchter Musik")["winner"] is None
    assert one_record("end Anna") == {"type": "end", "winner": "Anna", "solution": None}
    assert one_record("end") == {"type": "end", "winner": None, "solution": None}


def test_reveals_clue_cards_turns_moves_and_peeks() -> None:
    assert one_record("nobody reveals Seil to all") == {"type": "reveal", "player": None, "card": "rope", "to": "all"}
    assert one_record("Ben reveals ? to Anna, Cleo cause Hinweiskarte 7") == {
        "type": "reveal",
        "player": "Ben",
        "card": "?",
        "to": ["Anna", "Cleo"],
        "cause": "Hinweiskarte 7",
    }
    assert one_record('Cleo draws "Zeige allen eine Waffe"') == {
        "type": "clue_card",
        "player": "Cleo",
        "text": "Zeige allen eine Waffe",
    }
    assert one_record("Anna turn 6 ?") == {"type": "turn", "player": "Anna", "roll": [6, "?"]}
    assert one_record("Anna turn") == {"type": "turn", "player": "Anna"}
    assert one_record("Anna moves Küche passage") == {
        "type": "move",
        "player": "Anna",
        "to": "kitchen",
        "via": "passage",
    }
    assert one_record("Anna moves 7,5 path 7,4 7,5") == {
        "type": "move",
        "player": "Anna",
        "to": [7, 5],
        "path": [[7, 4], [7, 5]],
    }
    duel = "edition de-2023\nvariant duel\nplayers Jonas, Mara\n"
    assert one_record("Jonas peeks Küche ?", duel) == {
        "type": "peek",
        "player": "Jonas",
        "room": "kitchen",
        "card": None,
    }
    assert one_record("Jonas peeks Küche Gatow", duel)["card"] == "mustard"
    assert one_record("room-cards Küche=Gatow Halle=? Salon Biblio", duel) == {
        "type": "room_cards",
        "rooms": ["kitchen", "hall", "lounge", "library"],
        "cards": {"kitchen": "mustard"},
    }
    assert "cards" not in one_record("room-cards Küche Halle Salon Biblio", duel)


def test_notes_and_times_go_on_their_record() -> None:
    record = one_record("Ben: Weiß Leuchter Biblio / Cleo ?  @20:15  # Ben zögert lange")
    assert (record["t"], record["note"]) == ("20:15", "Ben zögert lange")


# ---------------------------------------------------------------- header and games


def test_the_header_makes_the_game_record() -> None:
    text = (
        'game club-7 @2026-11-20T19:30 # "erstes\\nSpiel"\n'
        "edition: Cluedo (Deutschland 2023)\nvariant Standard\nrules suggest_room=chosen accuse_in_room=false\n"
        'players Anna=Lady Gloria Ben=Gatow Cleo\nhand-sizes Anna=6, Ben=6\nstrategies Ben=greedy, Cleo="bot 2"\n'
        "perspective Anna\nsource tabletop\nplayed 2026-11-20\nplace Café  Z  # where\n"
    )
    (game,) = records_of(text)
    assert game == {
        "type": "game",
        "format": "clue-log/1",
        "id": "club-7",
        "edition": "de-2023",
        "variant": "standard",
        "rules": {"suggest_room": "chosen", "accuse_in_room": False},
        "players": [
            {"name": "Anna", "character": "scarlett", "hand_size": 6},
            {"name": "Ben", "character": "mustard", "hand_size": 6, "strategy": "greedy"},
            {"name": "Cleo", "strategy": "bot 2"},
        ],
        "perspective": "Anna",
        "source": "tabletop",
        "played_at": "2026-11-20",
        "place": "Café  Z",
        "t": "2026-11-20T19:30",
        "note": "erstes\nSpiel",
    }


def test_a_custom_deck_and_team_names_with_spaces() -> None:
    text = (
        "edition custom\nsuspects: Pfarrer Braun, Gräfin Rot\nweapons: Degen, Seil\nplaces: Kirche, Turmzimmer, Garten\n"
        "variant live\nplayers Team Nord, Team Süd\n"
        "Nord: Rot Seil Turm / Süd -\n"
    )
    game, suggest = records_of(text)
    assert game["deck"] == {
        "suspects": ["Pfarrer Braun", "Gräfin Rot"],
        "weapons": ["Degen", "Seil"],
        "rooms": ["Kirche", "Turmzimmer", "Garten"],
    }
    assert [p["name"] for p in game["players"]] == ["Team Nord", "Team Süd"]
    assert suggest == {
        "type": "suggest",
        "player": "Team Nord",
        "suspect": "grafin_rot",
        "weapon": "seil",
        "room": "turmzimmer",
        "responses": [{"player": "Team Süd", "shows": None}],
    }


def test_several_games_with_their_lines_and_texts() -> None:
    text = "# first\nedition classic\nplayers A, B\nA: Plum Rope Hall / B -\n\n# second game\ngame g2\nedition clue\nplayers C, D\nC has Knife\n"
    first, second = notation.read(text, "t.clue").games
    assert first.lines == [2, 4] and second.lines == [7, 10]
    assert first.text == "# first\nedition classic\nplayers A, B\nA: Plum Rope Hall / B -\n"
    assert second.text == "# second game\ngame g2\nedition clue\nplayers C, D\nC has Knife\n"
    assert second.records[0]["id"] == "g2" and second.records[1]["cards"] == ["dagger"]


def test_an_empty_file_and_a_file_of_comments_hold_no_games() -> None:
    for text in ("", "\n  \n", "# nothing yet\n"):
        result = notation.read(text, "t.clue")
        assert result.games == [] and [p.code for p in result.problems] == ["empty_file"]


@pytest.mark.parametrize(
    "text, code, line, fragment",
    [
        ("players A, B\nA: Plum Rope Hall / B -\n", "bad_notation", 1, "no edition"),
        ("edition classic\nA has Rope\n", "bad_notation", 1, "no players line"),
        ("edition classik\nplayers A, B\n", "unknown_edition", 1, "did you mean 'classic'"),
        ("edition classic\nvariant dual\nplayers A, B\n", "unknown_variant", 2, "did you mean 'duel'"),
        ("edition classic\nplayers A, B, A\n", "bad_players", 2, "two players are called 'A'"),
        ("edition classic\nplayers A=Plum, B=Plumm\n", "unknown_card", 2, "did you mean 'Professor Plum'"),
        ("edition classic\nedition clue\nplayers A, B\n", "bad_notation", 2, "given twice"),
        ("edition custom\nsuspects: X, Y\nweapons: W\nplayers A, B\n", "bad_notation", 1, "'rooms:' line"),
        ("edition classic\nrooms: Crypt\nplayers A, B\n", "bad_deck", 2, "only with 'edition custom'"),
        (
            "edition classic\nplayers A, B\nA: Plum Rope Hall / B -\nplace Leeds\n",
            "bad_notation",
            4,
            "belongs to the header",
        ),
        ("edition classic\nplayers A, B\nA: Plum Rope / B -\n", "bad_notation", 3, "the room is missing"),
        ("edition classic\nplayers A, B\nA: Plum Rope Hall Study / B -\n", "bad_notation", 3, "more than the room"),
        ("edition classic\nplayers A, B\nA: Plum Rope Hall / B\n", "bad_notation", 3, "what did B answer"),
        ("edition classic\nplayers A, B\nA: Plum Rope Hall / / B -\n", "bad_notation", 3, "answer is missing"),
        ("edition classic\nplayers A, B\nA turn 3 x\n", "bad_notation", 3, "a die shows"),
        ("edition classic\nplayers A, B\nA reveals Rope\n", "bad_notation", 3, "to whom"),
        (
            "edition classic\nplayers A, Place\nPlace: Plum Rope Hall / A -\n",
            "bad_notation",
            3,
            'write the name in quotes: "Place":',
        ),
    ],
)
def test_header_and_line_mistakes(text: str, code: str, line: int, fragment: str) -> None:
    found = problems_of(text)
    assert any(p.code == code and p.line == line and fragment in p.message for p in found), [str(p) for p in found]


def test_an_unreadable_line_keeps_its_place_so_later_seqs_stay_those_of_the_file() -> None:
    (game,) = notation.read(HEADER + "Anna: Grün Sel Salon / Ben -\nBen: Grün Seil Salon / Cleo ?\n", "t.clue").games
    assert [r["type"] for r in game.records] == ["game", "x-unreadable", "suggest"]
    assert (game.problems[0].seq, game.problems[0].line) == (1, 4)
    built, problems = cluelog.build_game(game)
    assert built is None and [p.code for p in problems] == [
        "unknown_card",
        "missing_responses",
    ]  # the line's problems at once


# ---------------------------------------------------------------- games typed at the table


@pytest.mark.parametrize("name", VALID)
def test_the_typed_games_read_build_and_replay_cleanly(name: str) -> None:
    result = notation.read((FIXTURES / name).read_text(encoding="utf-8"), name)
    assert not result.problems and result.games
    for raw in result.games:
        assert not raw.problems, [str(p) for p in raw.problems]
        game, problems = cluelog.build_game(raw)
        assert game is not None and not problems
        assert replay(game).problems == []
        assert all(r.line == raw.lines[r.seq] for r in game.records)


@pytest.mark.parametrize("name", VALID)
def test_the_typed_games_pass_the_deduction_engine(name: str) -> None:
    pytest.importorskip("clue_stats.engine.deduction", reason="the deduction engine is another part of the project")
    from clue_stats.engine.rules import validate

    for raw in notation.read((FIXTURES / name).read_text(encoding="utf-8"), name).games:
        game, _ = cluelog.build_game(raw)
        assert game is not None and validate(game).problems == []


def test_the_kaffeeklatsch_records_as_checked_by_hand() -> None:
    (raw,) = notation.read((FIXTURES / "kaffeeklatsch.clue").read_text(encoding="utf-8"), "k.clue").games
    by_line = dict(zip(raw.lines, raw.records))
    assert by_line[10] == {
        "type": "deal",
        "player": "Anna",
        "cards": ["rope", "hall", "plum", "kitchen", "revolver", "lounge"],
    }
    assert by_line[12] == {
        "type": "suggest",
        "player": "Anna",
        "suspect": "green",
        "weapon": "dagger",
        "room": "lounge",
        "responses": [{"player": "Ben", "shows": "dagger"}],
        "t": "15:02",
    }
    assert by_line[13]["note"] == "Rohr! Bloom und Halle hab ich ja"
    assert by_line[14]["suspect"] == "white" and by_line[14]["room"] == "kitchen"
    assert by_line[17] == {"type": "reveal", "player": "Ben", "card": "dagger", "to": "all", "cause": "Hinweiskarte"}
    assert by_line[21] == {
        "type": "accuse",
        "player": "Ben",
        "suspect": "plum",
        "weapon": "lead_pipe",
        "room": "library",
        "correct": False,
    }


def test_the_examples_of_the_documentation_read_as_documented() -> None:
    doc = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    first = re.findall(r"```\n(.*?)```", doc, re.S)[0]
    (raw,) = notation.read(first, "doc.clue").games
    assert not raw.problems and cluelog.build_game(raw)[1] == []
    assert raw.records[raw.lines.index(9)]["responses"] == [{"player": "Cleo", "shows": "?"}]
    shown = re.search(r"```\n(anna\.clue:14:14: .*?)```", doc, re.S).group(1)
    (bad,) = notation.read((FIXTURES / "misspelt-card.clue").read_text(encoding="utf-8"), "anna.clue").games
    assert str(bad.problems[0]) + "\n" == shown


def test_the_german_sample_twin_holds_the_same_game_as_the_jsonl() -> None:
    jsonl = raw_games(ROOT / "data" / "samples" / "de-2023-anna-notebook.jsonl")[0]
    twin = notation.read(
        (ROOT / "data" / "samples" / "de-2023-anna-notebook.clue").read_text(encoding="utf-8"), "twin.clue"
    ).games[0]
    a, pa = cluelog.build_game(jsonl)
    b, pb = cluelog.build_game(twin)
    assert a is not None and b is not None and pa == pb == []
    assert cluelog.record_dicts(a) == cluelog.record_dicts(b)
    assert (a.game_id, a.content_sha256) == (b.game_id, b.content_sha256)
    # converting the jsonl gives notation that reads back into the twin's records
    text = notation.write(
        [
            json.loads(line)
            for line in (ROOT / "data" / "samples" / "de-2023-anna-notebook.jsonl")
            .read_text(encoding="utf-8")
            .splitlines()
            if line.strip()
        ]
    )
    again, _ = cluelog.build_game(notation.read(text, "converted.clue").games[0])
    assert again is not None and cluelog.record_dicts(again) == cluelog.record_dicts(b)
    # and converting the twin gives the jsonl's game as clue-log/1
    assert cluelog.write_game(b) == cluelog.write_game(a)
