"""Odd but real values checked where they enter (issue 27 item 7): impossible dates, names that
differ only by Unicode normalisation or invisible characters."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from clue_stats.cli import app
from clue_stats.ingest import store
from clue_stats.ingest.cluelog import clean_name, date_problem
from tests.helpers import GIVEAWAY_LOG

runner = CliRunner()


def _game(game_id: str, played_at: str | None = None, names: tuple[str, str, str] = ("Anna", "Ben", "Cleo")) -> str:
    text = GIVEAWAY_LOG.replace('"id":"giveaway"', f'"id":"{game_id}"')
    if played_at is not None:
        text = text.replace('"edition":"custom"', f'"played_at":{json.dumps(played_at)},"edition":"custom"')
    for old, new in zip(("Anna", "Ben", "Cleo"), names, strict=True):
        text = text.replace(f'"{old}"', json.dumps(new, ensure_ascii=False))
    return text


@pytest.mark.slow
@pytest.mark.parametrize(
    "played_at,why",
    [
        ("2026-02-30", "is not a date that exists: day is out of range for month"),
        ("2026-13-01", "is not a date that exists: month must be in 1..12"),
        ("2026-11-06T24:30", "is not a date that exists: hour must be in 0..23"),
        ("yesterday", "is not a date: YYYY-MM-DD is expected"),
        ("20261106", "is not a date: YYYY-MM-DD is expected"),
    ],
)
def test_an_impossible_date_is_a_problem_of_its_line_and_not_stored(tmp_path, db, played_at, why):
    path = tmp_path / "night.jsonl"
    path.write_text(_game("fine", "2026-11-06T20:30") + _game("bad", played_at), encoding="utf-8")
    bad_line = GIVEAWAY_LOG.count("\n") + 1
    result = runner.invoke(app, ["ingest", str(path), "--db", str(db), "--no-analyse"])
    assert result.exit_code == 3, result.output
    assert f"{path}:{bad_line}: bad_value: game.played_at {json.dumps(played_at)} {why}" in result.stderr
    with store.read_connection(db) as con:
        assert con.execute("SELECT game_id, played_at FROM games").fetchall() == [("fine", "2026-11-06T20:30")]
        assert con.execute("SELECT game_id, line FROM rejected").fetchall() == [("bad", bad_line)]


def test_dates_that_exist_are_taken_with_or_without_a_time():
    for value in ("2026-11-06", "2026-11-06T20:30", "2026-11-06 20:30:05", "2026-11-06T20:30:00+01:00", "2024-02-29"):
        assert date_problem(value) is None, value


NFC, NFD = "Wei\u00df M\u00fcller", "Wei\u00df Mu\u0308ller"  # "Weiß Müller": ü composed, and u + combining diaeresis


@pytest.mark.slow
def test_names_that_differ_only_by_normalisation_or_invisible_characters_are_one_player(tmp_path, db):
    assert NFC != NFD and clean_name(NFD) == NFC
    path = tmp_path / "league.jsonl"
    path.write_text(
        _game("one", names=(NFC, "Ben", "Cleo"))
        + _game("two", names=(NFD, "Be\u200bn", "\ufeffCleo\u00ad"))  # NFD, a zero-width space, a BOM and a soft hyphen
        + _game("three", names=("Anna", "Ben", "Cle\u200do")),  # a zero-width joiner
        encoding="utf-8",
    )
    result = runner.invoke(app, ["ingest", str(path), "--db", str(db), "--no-analyse", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games_stored"] == 3
    with store.read_connection(db) as con:
        names = sorted(r[0] for r in con.execute("SELECT DISTINCT name FROM players").fetchall())
    assert names == ["Anna", "Ben", "Cleo", NFC]


def test_a_reference_to_a_player_is_normalised_like_the_players_list():
    """The log names the player in the other form than its players list: the same player."""
    text = _game("mixed", names=(NFD, "Ben", "Cleo")).replace(
        '"type":"deal","player":' + json.dumps(NFD, ensure_ascii=False), '"type":"deal","player":' + json.dumps(NFC)
    )
    from clue_stats.ingest.cluelog import build_game, read_text

    (raw,) = read_text(text, "mixed.jsonl").games
    game, problems = build_game(raw)
    assert game is not None and [p for p in problems if p.is_error] == []
    assert [p.name for p in game.players] == [NFC, "Ben", "Cleo"]


def test_two_players_of_one_game_whose_names_differ_only_invisibly_are_refused(tmp_path):
    path = tmp_path / "twins.jsonl"
    path.write_text(
        _game("twins", names=("Anna", "An\u200bna", "Cleo")).replace('"player":"An\u200bna"', '"player":"Ben"')
    )
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 3
    assert ": bad_players: " in result.stderr


@pytest.mark.slow
def test_names_an_older_version_stored_as_typed_are_cleaned_once_and_the_league_rates_them_as_one(tmp_path, db):
    """A database from before names were cleaned: the same person stored under "Weiß Müller" composed
    and decomposed, and with a zero-width space. The next opening for writing cleans every name
    column (the league's too), once; the next ingest rates the games again, one person."""
    path = tmp_path / "league.jsonl"
    path.write_text(_game("one", names=(NFC, "Ben", "Cleo")) + _game("two", names=("Anna", "Ben", "Cleo")))
    assert runner.invoke(app, ["ingest", str(path), "--db", str(db), "--no-analyse"]).exit_code == 0
    with store.write_connection(db) as con, con.atomic():  # as an older version stored game two
        con.execute("UPDATE players SET name = ? WHERE name = 'Anna'", [NFD])
        con.execute("UPDATE events SET player = ? WHERE player = 'Anna'", [NFD])
        con.execute("UPDATE players SET name = 'Be\u200bn' WHERE name = 'Ben' AND game_id = 'two'")
        con.execute("UPDATE ratings SET name = ?, player = ? WHERE name = 'Anna'", [NFD, NFD])
        con.execute("DELETE FROM settings WHERE key = ?", [store.NAMES_CLEANED])
    with store.read_connection(db) as con:
        assert len(con.execute("SELECT DISTINCT name FROM players").fetchall()) == 5  # NFC, NFD, Ben, Be-n, Cleo
    later = tmp_path / "later.jsonl"
    later.write_text(_game("three", names=(NFC, "Ben", "Cleo")))
    result = runner.invoke(app, ["ingest", str(later), "--db", str(db), "--no-analyse"])
    assert result.exit_code == 0, result.output
    with store.read_connection(db) as con:
        names = sorted(r[0] for r in con.execute("SELECT DISTINCT name FROM players").fetchall())
        rated = con.execute("SELECT player, count(*) FROM ratings GROUP BY player ORDER BY player").fetchall()
        events = {r[0] for r in con.execute("SELECT DISTINCT player FROM events WHERE player IS NOT NULL").fetchall()}
    assert names == ["Ben", "Cleo", NFC]
    assert NFD not in events and NFC in events
    assert rated == [("Ben", 3), ("Cleo", 3), (NFC, 3)]  # one person in every game, rated again


def test_names_that_differ_only_by_space_of_any_kind_are_one_name():
    assert clean_name("José ") == clean_name("José") == clean_name("\u00a0José\u200b") == "José"
    assert clean_name("José\u00a0Luis") == clean_name("José  Luis") == clean_name("José\tLuis") == "José Luis"
    assert clean_name("Ann\u3000Lee\u2003") == "Ann Lee"


@pytest.mark.slow
def test_the_migration_never_leaves_two_seats_of_one_game_with_one_name(tmp_path, db):
    """An older database where one game seats "Ann" and "Ann" + a zero-width space (and another "José "
    beside "José" elsewhere): cleaned, the second seat becomes "Ann (2)" in every table of its game,
    and the next ingest rates that game like the others."""
    path = tmp_path / "league.jsonl"
    path.write_text(_game("one", names=("Ann", "Ben", "Cleo")) + _game("two", names=("José", "Ben", "Cleo")))
    assert runner.invoke(app, ["ingest", str(path), "--db", str(db), "--no-analyse"]).exit_code == 0
    with store.write_connection(db) as con, con.atomic():  # as an older version stored them
        for table, column in (("players", "name"), ("events", "player"), ("ratings", "name"), ("ratings", "player")):
            con.execute(f"UPDATE {table} SET {column} = 'Ann\u200b' WHERE {column} = 'Ben' AND game_id = 'one'")
            con.execute(f"UPDATE {table} SET {column} = 'José ' WHERE {column} = 'José'")
        con.execute("DELETE FROM settings WHERE key = ?", [store.NAMES_CLEANED])
    later = tmp_path / "later.jsonl"
    later.write_text(_game("three", names=("José", "Ben", "Cleo")))
    result = runner.invoke(app, ["ingest", str(later), "--db", str(db), "--no-analyse"])
    assert result.exit_code == 0, result.output
    with store.read_connection(db) as con:
        seats = con.execute("SELECT name FROM players WHERE game_id = 'one' ORDER BY seat").fetchall()
        events = {r[0] for r in con.execute("SELECT player FROM events WHERE game_id = 'one'").fetchall()}
        rated = dict(con.execute("SELECT game_id, count(*) FROM ratings GROUP BY game_id").fetchall())
        names = sorted(r[0] for r in con.execute("SELECT DISTINCT name FROM players").fetchall())
    assert [s for (s,) in seats] == ["Ann", "Ann (2)", "Cleo"]
    assert {"Ann", "Ann (2)", "Cleo"} <= events and "Ann\u200b" not in events
    assert rated == {"one": 3, "two": 3, "three": 3}  # the game keeps its ratings
    assert names == ["Ann", "Ann (2)", "Ben", "Cleo", "José"]
