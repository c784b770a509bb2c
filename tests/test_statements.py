"""What a player states, graded against their own view (analysis.md, "Stated deductions"), on a game small
enough to grade by hand; the record read, written and typed in the notation; the LLM transcript's STATUS."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from clue_stats.analysis.computers import statements
from clue_stats.analysis.computers.game_analysis import analyse_game
from clue_stats.analysis.words.records import describe
from clue_stats.engine.counting import clear_caches
from clue_stats.engine.game import Statement
from clue_stats.engine.knowledge import Knowledge
from clue_stats.engine.rules import validate
from clue_stats.ingest import cluelog, notation
from clue_stats.ingest.importers import llm_transcript
from clue_stats.ingest.notation_write import write_game

HERE = Path(__file__).parent
GAME = HERE / "fixtures" / "statements" / "three_players_one_statement.jsonl"
SCHEMA = HERE.parent / "ingest" / "schema" / "clue-log-1.schema.json"
REAL_LLM = HERE.parent.parent / "shared" / "external" / "llm-crewai" / "sample_game_output.txt"


def game_of(text: str, name: str = "g.jsonl"):
    [raw] = cluelog.read_text(text, name).games
    game, problems = cluelog.build_game(raw)
    assert game is not None and problems == [], [str(p) for p in problems]
    return game


def graded(game):
    rows = analyse_game(game, validate(game)).tables["statements"]
    return {(r["claim"], r["category"], r["card"], r["about"]): r for r in rows}


def test_a_statement_graded_by_hand():
    # Ann holds Miss Scarlet, Colonel Mustard, Candlestick, Knife, Kitchen, Ballroom; Bob showed her Mrs. White.
    # So her view excludes 3 suspects (Scarlet, Mustard, White), 2 weapons (hers), 2 rooms (hers).
    rows = graded(game_of(GAME.read_text()))
    grade = {key: r["grade"] for key, r in rows.items()}
    assert grade[("not_in_envelope", "suspects", "white", None)] == "proven"  # shown to her
    assert grade[("not_in_envelope", "suspects", "green", None)] == "possible"  # Cy holds it: she cannot know
    assert grade[("holds", None, "white", "Bob")] == "proven"
    assert grade[("lacks", None, "wrench", "Bob")] == "possible"
    count = rows[("remaining", "suspects", None, None)]  # "3 suspects remaining": exactly her view
    assert (count["grade"], count["stated_count"], count["actual_count"]) == ("proven", 3, 3)
    assert (count["stated_units"], count["proven_units"], count["missed_units"]) == (3, 3, 0)
    # "the weapons left are rope, wrench, lead pipe, revolver": she crosses off her two weapons, both proven
    assert grade[("remaining", "weapons", "candlestick", None)] == "proven"
    assert grade[("remaining", "weapons", "dagger", None)] == "proven"
    assert len(rows) == 7
    # proven 1 + 1 + 3 + 1 + 1 of 1 + 1 + 1 + 1 + 3 + 1 + 1 stated; nothing provable left unstated
    assert statements.precision_recall(list(rows.values())) == (7 / 9, 1.0)


def test_counts_that_miss_and_that_guess():
    text = GAME.read_text().replace(
        '"not_in_envelope":["white","green"],"remaining":{"suspects":3,"weapons":["rope","wrench","lead_pipe","revolver"]},'
        '"holds":{"Bob":["white"]},"lacks":{"Bob":["wrench"]}',
        '"remaining":{"suspects":5,"weapons":2,"rooms":0}',
    )
    rows = graded(game_of(text))
    suspects = rows[("remaining", "suspects", None, None)]  # 5 said, 3 possible: 2 cross-offs missed
    assert (suspects["grade"], suspects["stated_units"], suspects["proven_units"], suspects["missed_units"]) == (
        "missed", 1, 1, 2,
    )  # fmt: skip
    weapons = rows[("remaining", "weapons", None, None)]  # 2 said, 4 possible: 4 crossed off, 2 of them guesses
    assert (weapons["grade"], weapons["stated_units"], weapons["proven_units"], weapons["missed_units"]) == (
        "possible", 4, 2, 0,
    )  # fmt: skip
    rooms = rows[("remaining", "rooms", None, None)]  # no room left: true in no deal
    assert (rooms["grade"], rooms["proven_units"]) == ("false", 0)
    game = game_of(text)
    players = {r["name"]: r for r in analyse_game(game, validate(game)).tables["players"]}
    assert players["Ann"]["stated_precision"] == 3 / 14 and players["Ann"]["stated_recall"] == 3 / 5
    assert players["Bob"]["stated_precision"] is None  # Bob said nothing


def test_the_record_reads_writes_and_goes_to_the_notation_and_back():
    game = game_of(GAME.read_text())
    [said] = [r for r in game.records if isinstance(r, Statement)]
    assert said.remaining == (("suspects", 3), ("weapons", ("rope", "wrench", "lead_pipe", "revolver")))
    assert json.loads(cluelog.write_game(game).splitlines()[5]) == json.loads(GAME.read_text().splitlines()[5])
    typed = write_game(game)
    line = (
        "Ann says not Mrs. White Mr. Green / remaining suspects 3 weapons Rope Wrench Lead Pipe Revolver"
        " / Bob has Mrs. White / Bob lacks Wrench"
    )
    assert line in typed.splitlines()
    [raw] = notation.read(typed, "g.clue").games
    back, problems = cluelog.build_game(raw)
    assert problems == [] and back is not None and back.records == game.records
    assert describe(game, said) == (
        "Ann said: Mrs. White and Mr. Green are not the solution; Bob holds Mrs. White; Bob does not hold Wrench; "
        "3 suspects remain; the weapons left are Rope, Wrench, Lead Pipe and Revolver"
    )


def test_a_statement_may_follow_the_end_and_bad_ones_are_reported():
    lines = GAME.read_text().splitlines()
    after_end = "\n".join([*lines[:5], *lines[6:], lines[5]]) + "\n"
    game = game_of(after_end)
    assert [p.code for p in validate(game).problems] == []
    bad = GAME.read_text().replace('"suspects":3', '"suspects":9').replace('"green"]', '"grün"]')
    [raw] = cluelog.read_text(bad, "b.jsonl").games
    _, problems = cluelog.build_game(raw)
    assert sorted((p.code, p.line) for p in problems) == [("bad_value", 6), ("unknown_card", 6)]


def test_the_schema_takes_statements():
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()))
    record = json.loads(GAME.read_text().splitlines()[5])
    assert not list(validator.iter_errors(record))
    assert list(validator.iter_errors({"type": "statement", "player": "Ann"}))  # says nothing
    assert list(validator.iter_errors({"type": "statement", "player": "Ann", "remaining": {"cards": 3}}))


def test_the_agents_status_lines_are_statements_graded_against_their_view():
    [raw] = llm_transcript.read(REAL_LLM.read_text(encoding="utf-8"), "g.txt").games
    said = [r for r in raw.records if r["type"] == "statement"]
    assert len(said) == 18
    # line 53, White after turn 1: "5 suspects, 6 weapons, 7 rooms remaining"
    assert said[0] == {
        "type": "statement", "player": "White", "remaining": {"suspects": 5, "weapons": 6, "rooms": 7},
        "x-source-line": 53,
    }  # fmt: skip
    # line 319-321, wrapped, with the cards named
    assert said[13]["remaining"]["weapons"] == ["rope", "wrench"]
    game, _ = cluelog.build_game(raw)
    first = [r for r in analyse_game(game, validate(game)).tables["statements"] if r["line"] == 53]
    rooms = [r for r in first if r["category"] == "rooms"][0]
    # White holds Ballroom and Kitchen and was shown the Study: 6 rooms possible, she says 7
    assert (rooms["grade"], rooms["actual_count"], rooms["missed_units"]) == ("missed", 6, 1)


def test_a_pseudonymised_export_names_nobody_in_a_statement():
    from clue_stats.ingest.export import pseudonymise_payload

    out = pseudonymise_payload(GAME.read_text().splitlines()[5], "salt")
    assert "Ann" not in out and "Bob" not in out and json.loads(out)["remaining"]["suspects"] == 3


# ---------------------------------------------------------------- the four cases ../spec decides
STATED = (
    '"not_in_envelope":["white","green"],"remaining":{"suspects":3,"weapons":["rope","wrench","lead_pipe","revolver"]},'
    '"holds":{"Bob":["white"]},"lacks":{"Bob":["wrench"]}'
)


def test_a_statement_after_the_end_is_after_end_and_counts_in_neither_precision_nor_recall():
    lines = GAME.read_text().splitlines()
    after_end = "\n".join([*lines[:5], *lines[6:], lines[5]]) + "\n"  # the same statement, after `end`
    game = game_of(after_end)
    rows = analyse_game(game, validate(game)).tables["statements"]
    assert [(r["player"], r["claim"], r["grade"]) for r in rows] == [("Ann", "statement", "after_end")]
    assert (rows[0]["stated_units"], rows[0]["proven_units"], rows[0]["missed_units"]) == (0, 0, 0)
    assert statements.precision_recall(rows) == (None, None)


def test_a_statement_after_the_speakers_own_correct_accusation_is_after_end():
    lines = GAME.read_text().splitlines()
    accusation = '{"type":"accuse","player":"Ann","suspect":"peacock","weapon":"wrench","room":"study","correct":true}'
    text = "\n".join([*lines[:5], accusation, lines[5], lines[6].replace('"winner":null', '"winner":"Ann"')]) + "\n"
    [raw] = cluelog.read_text(text, "g.jsonl").games
    game, _problems = cluelog.build_game(raw)
    assert game is not None
    rows = statements.statement_rows(game, lambda player, seq: None)  # nothing is counted after the game
    assert [r["grade"] for r in rows] == ["after_end"]


def test_an_empty_list_is_a_count_of_0_one_claim_one_grade():
    as_list = graded(game_of(GAME.read_text().replace(STATED, '"remaining":{"weapons":[]}')))
    as_count = graded(game_of(GAME.read_text().replace(STATED, '"remaining":{"weapons":0}')))
    assert list(as_list) == list(as_count) == [("remaining", "weapons", None, None)]
    weapons = as_list[("remaining", "weapons", None, None)]
    # one weapon is always in the envelope: false, and a count of 0 scores 0 proven (case 4), although
    # Ann's view proves 2 of the 6 weapons crossed off (her own)
    assert (weapons["grade"], weapons["stated_count"], weapons["proven_units"]) == ("false", 0, 0)
    same = as_count[("remaining", "weapons", None, None)]
    assert {k: v for k, v in weapons.items() if k != "game_id"} == {k: v for k, v in same.items() if k != "game_id"}


def test_a_card_named_twice_in_one_statement_counts_once():
    twice = STATED.replace('["white","green"]', '["white","green","white"]').replace(
        '"holds":{"Bob":["white"]}', '"holds":{"Bob":["white","white"]}'
    )
    once = graded(game_of(GAME.read_text()))
    rows = graded(game_of(GAME.read_text().replace(STATED, twice)))

    def without_id(found):
        return {key: {k: v for k, v in r.items() if k != "game_id"} for key, r in found.items()}

    assert without_id(rows) == without_id(once) and len(rows) == 7
    assert statements.precision_recall(list(rows.values())) == (7 / 9, 1.0)


def test_a_card_named_twice_is_said_at_the_statements_line():
    """Case 3: counted once, and a warning duplicate_card at the statement, naming the cards; a
    statement that names each card once gets none."""
    twice = STATED.replace('["white","green"]', '["white","green","white"]').replace(
        '"holds":{"Bob":["white"]}', '"holds":{"Bob":["white","white"]}'
    )
    game = game_of(GAME.read_text().replace(STATED, twice))
    [warning] = [p for p in validate(game).problems if p.code == "duplicate_card"]
    statement = next(r for r in game.records if isinstance(r, Statement))
    assert not warning.is_error and (warning.seq, warning.line) == (statement.seq, statement.line)
    assert "Ann names Mrs. White twice in one statement: counted once" in str(warning)
    assert not [p for p in validate(game_of(GAME.read_text())).problems if p.code == "duplicate_card"]


def test_a_run_of_statements_is_counted_once_per_view(monkeypatch):
    """A statement teaches nobody anything, so a run of them is graded against one view, counted
    once (10^5 statements took 43 s when each counted the view again; issue 38): the same rows as a
    count per statement, and the conditioned counts made once."""
    text = GAME.read_text()
    lines = text.splitlines()
    statement = next(line for line in lines if '"statement"' in line)
    where = lines.index(statement)
    many = "\n".join([*lines[:where], *[statement] * 200, *lines[where + 1 :]]) + "\n"
    game = game_of(many)
    made = []
    original = Knowledge.updated
    monkeypatch.setattr(Knowledge, "updated", lambda self, **kw: made.append(1) or original(self, **kw))
    clear_caches()
    rows = analyse_game(game, validate(game)).tables["statements"]
    once = len(made)
    assert len(rows) == 200 * 7
    assert {tuple(sorted((k, v) for k, v in r.items() if k not in ("seq", "line", "game_id"))) for r in rows} == {
        tuple(sorted((k, v) for k, v in r.items() if k not in ("seq", "line", "game_id")))
        for r in graded(game_of(text)).values()
    }
    clear_caches()
    made.clear()
    analyse_game(game_of(text), validate(game_of(text)))
    assert once <= len(made) + 5  # 200 statements cost about what one does
