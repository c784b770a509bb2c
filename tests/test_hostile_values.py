"""Odd but real values checked where they enter (issue 27 item 7): impossible dates, names that
differ only by Unicode normalisation or invisible characters."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from clue_stats.cli import app
from clue_stats.ingest import store
from clue_stats.ingest.cluelog import clean_name, date_problem
from clue_stats.ingest.store.schema import ANALYSIS_VERSION
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


def _as_an_older_version_stored(db, game_id: str, old: str, new: str, content_sha256: str | None = None) -> None:
    """Rename a seat in every table of one game, its stored records' text too (and give it the hash
    an older version gave it), and forget that the names were cleaned: the database as a version
    before name cleaning left it."""
    with store.write_connection(db) as con, con.atomic():
        if content_sha256 is not None:
            con.execute("UPDATE games SET content_sha256 = ? WHERE game_id = ?", [content_sha256, game_id])
        for table, column in (("players", "name"), ("events", "player"), ("ratings", "name"), ("ratings", "player")):
            con.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ? AND game_id = ?", [new, old, game_id])
        quoted_old, quoted_new = json.dumps(old, ensure_ascii=False), json.dumps(new, ensure_ascii=False)
        con.execute(
            "UPDATE events SET payload = replace(payload, ?, ?) WHERE game_id = ?", [quoted_old, quoted_new, game_id]
        )
        con.execute("DELETE FROM settings WHERE key = ?", [store.NAMES_CLEANED])


@pytest.mark.slow
def test_a_game_whose_seat_the_migration_renamed_is_analysed_again_with_both_seats(tmp_path, db):
    """After the migration has renamed the second of two seats that cleaning makes one ("Ann" and
    "Ann" + a zero-width space: "Ann (2)"), the game's stored records say "Ann (2)" too, so
    `clue-stats analyse` rebuilds it with both seats and analyses it (it could not be read back)."""
    path = tmp_path / "one.jsonl"
    path.write_text(_game("one", names=("Ann", "Ben", "Cleo")))
    assert runner.invoke(app, ["ingest", str(path), "--db", str(db)]).exit_code == 0
    _as_an_older_version_stored(db, "one", "Ben", "Ann\u200b")
    with store.write_connection(db) as con:  # opened for writing: the migration runs
        con.execute("UPDATE games SET analysis_version = NULL")  # and the game is to be analysed again
    result = runner.invoke(app, ["analyse", "--db", str(db)])
    assert result.exit_code == 0, result.output
    with store.read_connection(db) as con:
        seats = [s for (s,) in con.execute("SELECT name FROM players WHERE game_id = 'one' ORDER BY seat").fetchall()]
        ((version,),) = con.execute("SELECT analysis_version FROM games").fetchall()
        game = store.game_from_payloads(*store.stored_games(con, ["one"])["one"])
    assert seats == ["Ann", "Ann (2)", "Cleo"] == list(game.names)
    assert version == ANALYSIS_VERSION


@pytest.mark.slow
def test_a_game_stored_before_its_names_were_cleaned_is_the_same_game_when_ingested_again(tmp_path, db):
    """A game an older version stored with "José " (a trailing space) hashed the name as typed; once
    the migration has cleaned the names, ingesting the same file again (its id given) finds the
    stored game, kept once, where it was a conflict (duplicate_id)."""
    path = tmp_path / "one.jsonl"
    path.write_text(_game("one", names=("José ", "Ben", "Cleo")))
    assert runner.invoke(app, ["ingest", str(path), "--db", str(db), "--no-analyse"]).exit_code == 0
    _as_an_older_version_stored(db, "one", "José", "José ", content_sha256="of the name as typed")
    result = runner.invoke(app, ["ingest", str(path), "--db", str(db), "--no-analyse"])
    assert result.exit_code == 0, result.output
    assert "kept once" in result.output and "duplicate_id" not in result.output


@pytest.mark.slow
def test_a_stored_game_that_cannot_be_read_back_is_its_problem_and_the_others_are_analysed(tmp_path, db):
    """`clue-stats analyse` of two games, one whose stored records no longer make a game: that one is
    said (internal_error, its id), left as it was, exit 3; the other is analysed."""
    path = tmp_path / "two.jsonl"
    path.write_text(_game("one") + _game("two", names=("Dana", "Eli", "Finn")))
    assert runner.invoke(app, ["ingest", str(path), "--db", str(db), "--no-analyse"]).exit_code == 0
    with store.write_connection(db) as con, con.atomic():
        bad = '{"type":"deal","player":"Nobody","cards":[]}'  # a record no game of it can hold
        con.execute("UPDATE events SET payload = ? WHERE game_id = 'one' AND seq = 1", [bad])
    result = runner.invoke(app, ["analyse", "--db", str(db)])
    assert result.exit_code == 3, result.output
    assert "internal_error: clue-stats failed on the stored game one (" in result.stderr
    assert "1 game analysed" in result.stdout
    with store.read_connection(db) as con:
        versions = dict(con.execute("SELECT game_id, analysis_version FROM games").fetchall())
    assert versions == {"one": None, "two": ANALYSIS_VERSION}
