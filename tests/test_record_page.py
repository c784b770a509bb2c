"""The Record page in Streamlit's AppTest: a game set up, entered a turn at a time by its buttons (each
entry checked before it is kept, a wrong one's message where it was entered), undone, reloaded from
its address, and stored with its review."""

from __future__ import annotations

from pathlib import Path

import pytest

from clue_stats.ingest import cluelog
from clue_stats.ingest.recording import folder_for
from tests.helpers import open_app

pytestmark = pytest.mark.slow  # a whole game through the app, about half a minute a test


@pytest.fixture
def db(tmp_path: Path) -> Path:
    from clue_stats.ingest import store

    path = tmp_path / "club.duckdb"
    with store.write_connection(path):
        pass
    return path


def pills(at, key: str):
    return next(w for w in at.get("button_group") if w.key == key)


def recorded(db: Path) -> list[dict]:
    (path,) = folder_for(db).glob("*.jsonl")
    (raw,) = cluelog.read_text(path.read_text(encoding="utf-8")).games
    return raw.records


def test_a_game_set_up_and_entered_by_taps_is_on_disk_after_every_record(db, monkeypatch):
    at = open_app(db, monkeypatch, "record")
    assert not at.exception
    at.selectbox(key="setup_edition").set_value("us-classic")
    at.multiselect(key="setup_players").set_value(["Ann", "Bo", "Cy"])
    at.run()
    at.selectbox(key="setup_recorder").set_value("Ann").run()
    at.multiselect(key="setup_hand").set_value(["rope", "hall", "white", "kitchen", "dagger", "lounge"]).run()
    at.button(key="setup_start").click().run()
    assert not at.exception, at.exception
    records = recorded(db)
    assert records[0]["players"] == [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}]
    assert records[1] == {
        "type": "deal",
        "player": "Ann",
        "cards": ["rope", "hall", "white", "kitchen", "dagger", "lounge"],
    }
    # a suggestion: the suggester is preselected (Ann, the first), three cards, who showed
    assert pills(at, "sug_player_1").value == "Ann"
    pills(at, "sug_suspects_1").set_value("green").run()
    pills(at, "sug_weapons_1").set_value("rope").run()
    pills(at, "sug_rooms_1").set_value("study").run()
    pills(at, "sug_shower_1").set_value("Cy").run()
    pills(at, "sug_shown_1").set_value("study").run()
    at.button(key="sug_save_1").click().run()
    assert not at.exception, at.exception
    assert recorded(db)[-1] == {
        "type": "suggest",
        "player": "Ann",
        "suspect": "green",
        "weapon": "rope",
        "room": "study",
        "responses": [{"player": "Bo", "shows": None}, {"player": "Cy", "shows": "study"}],
    }
    # the next suggester is Bo; Bo shows a card Ann holds: the engine's check, where the entry is
    assert pills(at, "sug_player_2").value == "Bo"
    before = recorded(db)
    pills(at, "sug_suspects_2").set_value("white").run()
    pills(at, "sug_weapons_2").set_value("rope").run()
    pills(at, "sug_rooms_2").set_value("hall").run()
    pills(at, "sug_shower_2").set_value("Cy").run()
    pills(at, "sug_shown_2").set_value("rope").run()
    at.button(key="sug_save_2").click().run()
    assert at.error and "Rope" in at.error[0].value
    assert recorded(db) == before
    pills(at, "sug_shown_2").set_value("?").run()
    pills(at, "sug_shower_2").set_value("Ann").run()
    at.button(key="sug_save_2").click().run()
    assert not at.error, [e.value for e in at.error]
    assert len(recorded(db)) == 4
    at.button(key="record_undo_3").click().run()
    assert len(recorded(db)) == 3
    # a reload (a new session at the same address) goes on where the game stands
    recording_id = at.query_params["recording"]
    again = open_app(db, monkeypatch, "record", recording=recording_id)
    assert pills(again, "sug_player_2").value == "Bo"
    again.selectbox(key="end_winner_2").set_value("Ann").run()
    again.button(key="end_save_2").click().run()
    assert "nobody accused correctly" in again.error[0].value  # the engine's check, where the entry is
    again.selectbox(key="end_winner_2").set_value("").run()
    again.button(key="end_save_2").click().run()
    assert recorded(db)[-1] == {"type": "end", "winner": None, "solution": None}, [e.value for e in again.error]
    assert not again.exception
    again.button(key="record_store").click().run()
    assert again.success and "review?game=" in again.success[-1].value, [e.value for e in again.error]


def test_the_notebook_is_off_until_asked_and_says_why(db, monkeypatch):
    at = open_app(db, monkeypatch, "record")
    at.selectbox(key="setup_edition").set_value("us-classic")
    at.multiselect(key="setup_players").set_value(["Ann", "Bo", "Cy"]).run()
    at.selectbox(key="setup_recorder").set_value("Ann").run()
    at.button(key="setup_start").click().run()
    assert at.toggle(key="record_notebook").value is False
    assert any("fair play" in c.value for c in at.caption)
    at.toggle(key="record_notebook").set_value(True).run()
    assert not at.exception
    assert at.get("vega_lite_chart") or at.get("arrow_vega_lite_chart")
