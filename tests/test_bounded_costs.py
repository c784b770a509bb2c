"""Every cost bounded by the size of the input: messages that do not grow with it, a budget whose
seconds cover the checks and whose message says where they went (issue 27, item 4).

The speed itself (a deck of 150,000 cards checked in seconds, a game of 100,000 records ingested
and reported in seconds per thousand records) is measured by benchmarks/bounds.py, never asserted.
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from clue_stats import pipeline
from clue_stats.analysis import words
from clue_stats.cli import app
from clue_stats.engine import budget
from clue_stats.engine.markers import MESSAGE_LIMIT, T_, Said
from clue_stats.engine.problems import Problem, listed
from clue_stats.ingest import formats

runner = CliRunner()


def custom_deck_game(n_cards: int, names: list[str] | None = None, records: list[dict] | None = None) -> str:
    """One game of a custom deck of ``n_cards`` (a third suspects, a third weapons, the rest rooms)."""
    third = n_cards // 3
    cards = [f"c{i}" for i in range(n_cards)]
    header = {
        "type": "game",
        "format": "clue-log/1",
        "id": f"deck-{n_cards}",
        "edition": "custom",
        "deck": {"suspects": cards[:third], "weapons": cards[third : 2 * third], "rooms": cards[2 * third :]},
        "players": [{"name": n} for n in names or ["Anna", "Ben", "Cleo"]],
    }
    return "\n".join(json.dumps(r, separators=(",", ":")) for r in [header, *(records or [])]) + "\n"


def problems_of(path: Path, limits: budget.Limits = budget.Limits()) -> list[Problem]:
    return [p for raw in formats.iter_file(path) or [] for p in pipeline.check(raw, limits=limits).problems]


def test_a_list_in_a_message_shows_five_names_and_counts_the_rest():
    assert str(listed(["Anna", "Ben", "Cleo"], " or ")) == "Anna, Ben or Cleo"
    many = listed([f"card {i}" for i in range(5000)])
    assert str(many) == "card 0, card 1, card 2, card 3, card 4 and 4,995 more"
    # a reader has the list in their language, its count written their way
    assert isinstance(many, Said)
    with words.speaking("de"):
        assert (
            words.said(str(many), many.template, many.parts())
            == "card 0, card 1, card 2, card 3, card 4 und 4.995 weitere"
        )
    either = listed(["Anna", "Ben", T_("{name} (as {key})", name="Cleo", key="'c'")], " or ")
    with words.speaking("sv"):
        assert words.said(str(either), either.template, either.parts()) == "Anna, Ben eller Cleo (som 'c')"
    assert listed(["x" * 170_000]) == "x" * 60 + "…"
    assert len(Problem("bad_value", "y" * 50_000).message) == MESSAGE_LIMIT + len("… (cut)")


def test_long_names_and_many_unknown_players_give_short_messages(tmp_path, db):
    # six players with 170 KB names, and 200 records naming a player who is not one of them
    names = [letter * 170_000 for letter in "ABCDEF"]
    log = tmp_path / "names.jsonl"
    header = {"type": "game", "format": "clue-log/1", "id": "long", "edition": "us-classic"}
    lines = [json.dumps(header | {"players": [{"name": n} for n in names]})]
    lines += [json.dumps({"type": "turn", "player": "Nobody"})] * 200
    log.write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["ingest", str(log), "--db", str(db), "--no-analyse"])
    assert result.exit_code == 3
    unknown = [line for line in result.output.splitlines() if "unknown_player" in line]
    assert len(unknown) == 200
    assert all(len(line) < 800 for line in unknown), max(map(len, unknown))
    assert "unknown player 'Nobody'; the players are " + "A" * 60 + "…, " in unknown[0]
    assert unknown[0].endswith("and 1 more")
    with duckdb.connect(str(db), read_only=True) as con:
        (message,) = con.execute("SELECT message FROM rejected").fetchone()
        (stored,) = con.execute("SELECT count(*) FROM problems WHERE code = 'unknown_player'").fetchone()
    assert len(message) < 20 * 800 and message.endswith("; and 180 more errors (in the problems table)")
    assert stored == 200  # every problem is kept, each one short


def test_a_custom_deck_naming_cards_twice_names_five_of_them(tmp_path):
    twice = tmp_path / "twice.jsonl"
    game = json.loads(custom_deck_game(3000))
    game["deck"]["rooms"] += game["deck"]["suspects"]  # every suspect a second time, as a room
    twice.write_text(json.dumps(game) + "\n")
    (problem,) = [p for p in problems_of(twice) if p.code == "bad_deck"]
    assert problem.message == "the custom deck names a card twice: c0, c1, c10, c100, c101 and 995 more"


TURN = {"type": "turn", "player": "Anna"}
SUGGEST = {
    "type": "suggest",
    "player": "Anna",
    "suspect": "c12",
    "weapon": "c10001",
    "room": "c20001",
    "responses": [{"player": "Ben", "shows": None}, {"player": "Cleo", "shows": None}],
}


@pytest.mark.slow
def test_the_budget_counts_the_checks_seconds_and_says_where_they_went(tmp_path):
    # reading a deck of 30,000 cards takes longer than 0.05 s; no count of the deals has run by then
    log = tmp_path / "deck.jsonl"
    log.write_text(custom_deck_game(30_000, records=[TURN, SUGGEST]))
    (over,) = [p for p in problems_of(log, budget.Limits(seconds=0.05)) if p.code == "over_budget"]
    assert "the time limit of 0.05 s was passed after " in over.message
    assert "0.0 s counting the deals (0 counts, 0 states)" in over.message
    assert " s in the rest of the stage (reading the records and the deck, preparing the counts)" in over.message


NOTATION_HEAD = """game abbrev
edition custom
suspects: Anna Sus, Bert Sus, Carl Sus
weapons: Axt, Beil, Colt
rooms: {rooms}
players A, B, C

"""


@pytest.mark.slow
def test_an_abbreviation_that_fits_thousands_of_cards_names_five(tmp_path):
    # 5,000 rooms called "Saal 0" to "Saal 4999", and 2,000 lines naming the room "Saal"
    rooms = ", ".join(f"Saal {i}" for i in range(5000))
    clue = tmp_path / "abbrev.clue"
    clue.write_text(NOTATION_HEAD.format(rooms=rooms) + "A: Anna Axt Saal / B - / C -\n" * 2000)
    result = runner.invoke(app, ["validate", str(clue)])
    assert result.exit_code == 3
    found = [line for line in result.output.splitlines() if "could be" in line]
    assert len(found) == 2000
    assert "'Saal' could be Saal 0, Saal 1, Saal 2, Saal 3, Saal 4 and 4,995 more: write more of the name" in found[0]
    assert len(result.output) < 2000 * 300


@pytest.mark.slow
def test_an_unknown_card_in_a_large_deck_still_gets_a_did_you_mean(tmp_path):
    log = tmp_path / "deck.jsonl"
    # a deck of 100,000 cards: a did-you-mean compares the name with the 200 names beside it alphabetically
    log.write_text(custom_deck_game(100_000, records=[TURN, SUGGEST | {"weapon": "c4000l", "room": "c70001"}]))
    (unknown,) = [p for p in problems_of(log, budget.Limits(seconds=1)) if p.code == "unknown_card"]
    assert unknown.message.startswith("suggest.weapon: unknown weapon 'c4000l' (did you mean 'c400")


def test_the_race_chart_draws_a_step_line_from_its_changes_only():
    from clue_stats.analysis.review.rows import steps as _steps

    # a long game solved early: 100,000 records at 0 bits draw the same line as two points
    series = [(1, 3.5), (2, 3.5), (3, 1.0000001), (4, 1.0), *((seq, 0.0) for seq in range(5, 100_005))]
    assert _steps(series) == [(1, 3.5), (3, 1.0), (5, 0.0), (100_004, 0.0)]
