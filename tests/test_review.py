"""The game review (issue 23): one review accuracy across games and views."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clue_stats import pipeline
from clue_stats.analysis import league, night, summaries
from clue_stats.analysis import players as player_stats
from clue_stats.cli import app
from clue_stats.ingest import store

runner = CliRunner()

DECK = {"suspects": ["Plum", "Green", "Mustard"], "weapons": ["Rope", "Knife"], "rooms": ["Hall", "Study"]}


def suggest(player: str, cards: tuple[str, str, str], by: str, shows: str | None) -> dict:
    s, w, r = cards
    return {"type": "suggest", "player": player, "suspect": s, "weapon": w, "room": r,
            "responses": [{"player": by, "shows": shows}]}  # fmt: skip


def small_game(game_id: str, played_at: str, *records: dict) -> list[dict]:
    """The worked example's deck and deals (docs/analysis.md): Anna holds Plum and the Rope, Ben
    Green and the Hall; the solution is Mustard, Knife, Study; Ben wins at the end."""
    solution = {"suspect": "mustard", "weapon": "knife", "room": "study"}
    return [
        {
            "type": "game",
            "format": "clue-log/1",
            "id": game_id,
            "edition": "custom",
            "deck": DECK,
            "played_at": played_at,
            "players": [{"name": "Anna"}, {"name": "Ben"}],
        },  # fmt: skip
        {"type": "deal", "player": "Anna", "cards": ["plum", "rope"]},
        {"type": "deal", "player": "Ben", "cards": ["green", "hall"]},
        *records,
        {"type": "accuse", "player": "Ben", **solution, "correct": True},
        {"type": "end", "winner": "Ben", "solution": solution},
    ]


def night_of_games() -> list[list[dict]]:
    """Five games of one night. In the first Anna asks twice: the best question (1.25 of 1.25 bits)
    and, knowing the room and weapon, one naming her own Plum (0 of 1); in the other four once,
    naming her own Plum in the Hall (1 of 1.25). Her review accuracies game by game are
    0.556 and 0.8 four times: their mean is 0.751, but over all her suggestions it is
    (1.25 + 0 + 4 * 1) / (1.25 + 1 + 4 * 1.25) = 5.25 / 7.25 = 0.724."""
    first = small_game(
        "n1",
        "2026-11-06T20:00",
        {"type": "turn", "player": "Anna"},
        suggest("Anna", ("green", "knife", "hall"), "Ben", "hall"),
        {"type": "turn", "player": "Ben"},
        suggest("Ben", ("plum", "rope", "study"), "Anna", "rope"),
        {"type": "turn", "player": "Anna"},
        suggest("Anna", ("plum", "knife", "study"), "Ben", None),
        {"type": "turn", "player": "Ben"},
    )
    others = [
        small_game(
            f"n{i}",
            f"2026-11-06T21:{10 * i:02d}",
            {"type": "turn", "player": "Anna"},
            suggest("Anna", ("plum", "knife", "hall"), "Ben", "hall"),
            {"type": "turn", "player": "Ben"},
        )
        for i in range(2, 6)
    ]
    return [first, *others]


@pytest.fixture(scope="module")
def night_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("review")
    log = root / "night.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for g in night_of_games() for r in g), encoding="utf-8")
    db = root / "night.duckdb"
    assert pipeline.ingest_paths([str(log)], db, workers=1).games_stored == 5
    return db


def test_review_accuracy_over_games_is_one_ratio_in_every_view(night_db: Path, monkeypatch) -> None:
    """Anna's review accuracy over the night is the sum of expected over the sum of best gains of
    all her rated suggestions, the same figure on the Players page's leaderboard and course, the
    Suggestions page, the player statistics, the night report and `players --json`; not the mean
    of her per-game values."""
    from tests.test_dashboard import open_app

    with store.read_connection(night_db) as con:
        per_game = dict(con.execute("SELECT game_id, review_accuracy FROM players WHERE name = 'Anna'").fetchall())
        pooled = con.execute(
            "SELECT sum(expected_gain_bits) / sum(best_gain_bits) FROM suggestions WHERE player = 'Anna'"
        ).fetchall()[0][0]
        board = {r["player"]: r for r in league.leaderboard(con, "people").iter_rows(named=True)}
        course = league.history(con, "people", ["Anna"])
        by_player = {r["player"]: r for r in summaries.suggestion_summary(con)["by_player"].iter_rows(named=True)}
        summary = {r["name"]: r for r in player_stats.player_summary(con).iter_rows(named=True)}
        the_night = night.gather_night(con, "2026-11-06", "2026-11-06")
    assert pooled == pytest.approx(5.25 / 7.25)
    assert per_game["n1"] == pytest.approx(1.25 / 2.25)
    assert sum(per_game.values()) / 5 == pytest.approx(0.751, abs=1e-3)  # the mean the views took before
    figures = {
        "leaderboard": board["Anna"]["review_accuracy"],
        "suggestions": by_player["Anna"]["review_accuracy"],
        "player summary": summary["Anna"]["review_accuracy"],
        "night": next(p.review_accuracy for p in the_night.players if p.player == "Anna"),
    }
    assert figures == pytest.approx(dict.fromkeys(figures, pooled)), figures
    assert board["Anna"]["rated_suggestions"] == 6
    # one game at a time the course gives each game's own value
    assert course["review_accuracy"].to_list() == pytest.approx([per_game[g] for g in course["game_id"].to_list()])

    # the command line
    result = runner.invoke(app, ["players", "--json", "--db", str(night_db)])
    assert result.exit_code == 0, result.output
    anna = next(p for p in json.loads(result.stdout)["players"] if p["person"] == "Anna")
    assert anna["review_accuracy"] == pytest.approx(pooled) and anna["rated_suggestions"] == 6
    result = runner.invoke(app, ["players", "--db", str(night_db)])
    assert re.search(r"│ Anna .* 72% ", result.output), result.output
    # the night report: 72 %, not 75 %
    result = runner.invoke(app, ["report", "--night", "2026-11-06", "--db", str(night_db), "--out", "-"])
    assert result.exit_code == 0, result.output
    row = re.search(r"<tr><td>Anna</td>(.*?)</tr>", result.output).group(1)
    assert re.findall(r"<td[^>]*>(.*?)</td>", row)[2] == "72%"

    # the dashboard's pages
    at = open_app(night_db, monkeypatch, "players")
    shown = at.dataframe[0].value
    assert shown.loc[shown["player"] == "Anna", "review accuracy"].tolist() == pytest.approx([pooled])
    at = open_app(night_db, monkeypatch, "suggestions")
    grids = [g.value for g in at.dataframe if "review_accuracy" in g.value.columns and "player" in g.value.columns]
    assert grids and grids[0].loc[grids[0]["player"] == "Anna", "review_accuracy"].tolist() == pytest.approx([pooled])
