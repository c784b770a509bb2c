"""Names people read: one helper turns card, character, room and start-square ids into the edition's names."""

from __future__ import annotations

import polars as pl
import pytest

from clue_stats.analysis.words import names
from clue_stats.ingest import store


def test_an_edition_names_its_cards_in_its_own_language():
    german = names.of_edition("de-2023")
    assert german("white") == "Köchin Weiß" and german("dagger") == "Dolch" and german("dining_room") == "Speisezimmer"
    assert names.of_edition("us-classic")("scarlett") == "Miss Scarlet"


def test_start_squares_are_named_by_who_starts_there():
    assert names.of_edition("classic").start_square("plum") == "Professor Plum's start"
    assert names.of_edition("de-2023").start_square("scarlett") == "Lady Gloria's start"
    assert names.of_edition("classic").square((0, 0)) == "square 0,0"


@pytest.mark.slow
def test_a_table_of_many_games_gets_each_rows_edition_names_custom_decks_from_the_store(samples, db):
    from typer.testing import CliRunner

    from clue_stats.cli import app

    CliRunner().invoke(app, ["ingest", str(samples / "live-club-deck.jsonl"), "--db", str(db), "--no-analyse"])
    frame = pl.DataFrame(
        {
            "game_id": ["a", "b", "cluedo-live-2026-09-13", "c"],
            "edition": ["de-2023", "classic", "custom", "nonesuch"],
            "suspect": ["white", "white", "pfarrer_braun", "lead_pipe"],
            "character": ["green", "green", None, None],
        }
    )
    with store.read_connection(db) as con:
        named = names.name_columns(frame, ["suspect"], con, start_squares=["character"])
    assert named["suspect"].to_list() == ["Köchin Weiß", "Mrs White", "Pfarrer Braun", "Lead pipe"]
    assert named["character"].to_list() == ["Bürgermeister Grün's start", "Reverend Green's start", None, None]


def test_the_report_names_squares_and_never_prints_minus_zero():
    from clue_stats.analysis.review.post_mortem import fmt_bits

    assert fmt_bits(-0.0001) == "0.00" and fmt_bits(-0.06) == "-0.06" and fmt_bits(None) == "–"
    classic = names.of_edition("classic")
    assert classic.square((0, 0)) == "square 0,0" and classic.square("kitchen") == "Kitchen"
