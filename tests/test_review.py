"""The game review (issue 23): one review accuracy across games and views."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from clue_stats import pipeline
from clue_stats.analysis.corpus import league, night, summaries
from clue_stats.analysis.corpus import players as player_stats
from clue_stats.cli import app
from clue_stats.ingest import store
from tests.helpers import html_column, open_app

runner = CliRunner()


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """The sentences in English, whatever language a test before chose."""
    from clue_stats.analysis import words

    with words.speaking("en"):
        yield


def assert_clean(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def charts(at: AppTest) -> list[tuple[dict, list[pa.Table]]]:
    """Every Altair chart of the page: its Vega-Lite spec and its datasets."""
    return [
        (json.loads(e.proto.spec), [pa.ipc.open_stream(d.data.data).read_all() for d in e.proto.datasets])
        for e in at.get("vega_lite_chart")
    ]


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


@pytest.mark.slow
def test_review_accuracy_over_games_is_one_ratio_in_every_view(night_db: Path, monkeypatch) -> None:
    """Anna's review accuracy over the night is the sum of expected over the sum of best gains of
    all her rated suggestions, the same figure on the Players page's leaderboard and course, the
    Suggestions page, the player statistics, the night report and `players --json`; not the mean
    of her per-game values."""
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
    row = re.search(r"<tr><td[^>]*>Anna</td>(.*?)</tr>", result.output).group(1)
    assert re.findall(r"<td[^>]*>(.*?)</td>", row)[2] == "72%"

    # the dashboard's pages
    at = open_app(night_db, monkeypatch, "players")
    table = next(h.value for h in at.get("html") if 'data-label="review accuracy"' in h.value)
    accuracy = dict(zip(html_column(table, "player"), html_column(table, "review accuracy"), strict=True))
    assert accuracy["Anna"] == "72%"  # the pooled ratio, as the report and the command print it
    at = open_app(night_db, monkeypatch, "suggestions")
    grids = [g.value for g in at.dataframe if "review_accuracy" in g.value.columns and "player" in g.value.columns]
    assert grids and grids[0].loc[grids[0]["player"] == "Anna", "review_accuracy"].tolist() == pytest.approx([pooled])


# ---------------------------------------------------------------- the review page and the race


@pytest.fixture(scope="module")
def duel_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.helpers import SAMPLES

    db = tmp_path_factory.mktemp("duel") / "duel.duckdb"
    assert pipeline.ingest_paths([str(SAMPLES / "de-2023-duel.jsonl")], db, workers=1).games_stored == 1
    return db


def review_of(db: Path, game_id: str):
    from clue_stats.analysis.review import rows as game_review
    from clue_stats.analysis.review.post_mortem import gather, post_mortem

    with store.read_connection(db) as con:
        data = gather(con, game_id)
    pm = post_mortem(data)
    return data, pm, game_review


def test_the_race_marks_mistakes_certainty_and_accusations_from_the_stored_rows(night_db: Path) -> None:
    """Game n1: Anna's second question names her own Plum when only the suspect is open: 0 of 1 bit,
    a mistake, marked on her line at the 1 bit she had left; every first certain record, missed win
    and accusation of the players table and the accusations table is marked, on the player's own
    line, and each line is the stored information of that observer."""
    data, pm, game_review = review_of(night_db, "n1")
    race = game_review.race(pm)
    with store.read_connection(night_db) as con:
        certain = con.execute(
            "SELECT name, first_certain_seq, missed_win FROM players WHERE game_id = 'n1' AND first_certain_seq "
            "IS NOT NULL"
        ).fetchall()
        accused = con.execute("SELECT player, seq, correct FROM accusations WHERE game_id = 'n1'").fetchall()
        anna_after = dict(
            con.execute(
                "SELECT seq, entropy_after FROM information WHERE game_id = 'n1' AND observer = 'Anna'"
            ).fetchall()
        )
    marks = {(m["kind"], m["observer"], m["seq"]): m["bits"] for m in race.marks}
    assert marks[("mistake", "Anna", 8)] == pytest.approx(1.0)  # log2 of Green or Mustard
    assert [k for k in marks if k[0] in ("mistake", "blunder")] == [("mistake", "Anna", 8)]
    expected_certain = {("missed win" if missed else "first certain", name, seq) for name, seq, missed in certain}
    assert {k for k in marks if k[0] in ("first certain", "missed win")} == expected_certain
    assert {k for k in marks if k[0].startswith("accused")} == {
        ("accused rightly" if right else "accused wrongly", who, seq) for who, seq, right in accused
    }
    assert ("accused rightly", "Ben", 10) in marks
    # Anna's line: a point where her stored uncertainty changes, ending at her last record
    anna = [(p["seq"], p["bits"]) for p in race.lines if p["observer"] == "Anna"]
    for seq, bits in anna:
        if seq in anna_after:
            assert bits == pytest.approx(anna_after[seq], abs=1e-6)
    assert anna[0] == (0, pytest.approx(math.log2(12))) and race.observers == ["Anna", "Ben", "table"]


def test_each_players_game_in_figures(night_db: Path) -> None:
    data, pm, game_review = review_of(night_db, "n1")
    rows = {r["player"]: r for r in game_review.player_rows(pm, data)}
    anna = rows["Anna"]
    assert anna["review_accuracy"] == pytest.approx(1.25 / 2.25)
    assert (anna["best"], anna["mistake"], anna["labels"]) == (1, 1, "1 best · 1 mistake")
    # she learned 1 bit at record 4 (expected 1.25) and nothing at 8 (expected 0): -0.25
    assert anna["gained_vs_expected_bits"] == pytest.approx(-0.25)
    # Ben held Green and the Hall when Anna named both, and showed the Hall: Green would have taught
    # her as much (docs/analysis.md), so he gave nothing away; Anna showed her Rope, her only named card
    assert rows["Ben"]["given_away_bits"] == pytest.approx(0.0) and rows["Anna"]["given_away_bits"] == 0.0
    assert rows["Ben"]["won"] and not anna["won"]


@pytest.mark.slow
def test_the_review_page_lists_every_suggestion_with_names_labels_and_a_link_to_the_replay(
    duel_db: Path, monkeypatch
) -> None:
    from clue_stats.analysis.words.names import of_edition
    from tests.helpers import DUEL_GAME

    at = open_app(duel_db, monkeypatch, "review", game=DUEL_GAME)
    assert_clean(at)
    shown = "".join(h.proto.body for h in at.get("html"))
    with store.read_connection(duel_db) as con:
        stored = con.execute(
            "SELECT seq, player, suspect, weapon, room, label FROM suggestions WHERE game_id = ? ORDER BY seq",
            [DUEL_GAME],
        ).fetchall()
    name = of_edition("de-2023")
    table = shown[shown.index("best suggestion instead") :]
    listed = re.findall(r'<tr><td data-label="player" class="cs-key">(.*?)</td><td data-label="suggestion"[^>]*>(.*?)</td>'
                        r'<td data-label="label"[^>]*><span[^>]*></span>(.*?)</td>', table)  # fmt: skip
    assert listed == [(p, ", ".join(name(c) for c in (s, w, r)), label) for _, p, s, w, r, label in stored]
    links = re.findall(r'href="replay\?game=([^&"]+)&amp;seq=(\d+)"', table)
    assert links == [(DUEL_GAME, str(seq)) for seq, *_ in stored]
    text = re.sub(r"<style>.*?</style>|<[^>]+>", " ", shown, flags=re.S)
    assert "Köchin Weiß" in text and not re.search(r"\b(white|lead_pipe|kitchen)\b", text)
    (race,) = charts(at)  # the race: its lines are the review's, every observer from the full 8.34 bits
    _, pm, game_review = review_of(duel_db, DUEL_GAME)
    lines = next(t for t in race[1] if "is_table" in t.column_names).to_pylist()
    assert lines == game_review.race(pm).lines and lines[0] == {"observer": "Jonas", "is_table": False, "seq": 0,
                                                                 "bits": pytest.approx(math.log2(324))}  # fmt: skip
    # the link opens the replay at that record
    seq = stored[-1][0]
    at = open_app(duel_db, monkeypatch, "replay", game=DUEL_GAME, seq=str(seq))
    assert_clean(at)
    with store.read_connection(duel_db) as con:
        where = str(store.stored_game(con, DUEL_GAME).game.where(seq))  # "line 14 (turn 3)"
    assert where.startswith("line") and any(
        f"**L{where[1:]}**, record {seq} of" in m.value.replace("\\", "") for m in at.markdown
    )


@pytest.mark.slow
def test_the_review_and_the_replay_choose_among_the_same_games_and_follow_a_link_once(
    night_db: Path, monkeypatch
) -> None:
    options = {}
    for slug in ("review", "replay"):
        at = open_app(night_db, monkeypatch, slug, game="n3")
        assert_clean(at)
        box = at.selectbox(key=f"{slug}_game")
        assert box.value == "n3"  # the link's game
        options[slug] = box.options
        box.set_value("n1").run()  # after the link, the chooser is the user's
        assert_clean(at)
        assert at.selectbox(key=f"{slug}_game").value == "n1"
    assert options["review"] == options["replay"]
    assert len(options["review"]) == 5
    newest = options["review"][0]  # the newest first, in words
    assert newest.startswith("n5 · November 6, 2026, 9:50\u202fPM · ") and newest.endswith(" · 2 players"), newest


@pytest.mark.slow
def test_the_review_says_why_in_the_language_switched_to_not_the_one_read_first(night_db: Path, monkeypatch) -> None:
    """The review's reasons are read once per game and language: after an English reader, a German
    one gets them in German (the query's cache is kept per language), and the labels and figures too."""
    at = open_app(night_db, monkeypatch, "review", game="n2")
    assert_clean(at)
    english = [m.value for m in at.markdown if "bits expected" in m.value]
    assert english and "Anna named" in english[0]
    at.sidebar.selectbox(key="language").set_value("de").run()
    assert_clean(at)
    german = [m.value for m in at.markdown if "Bit erwartet" in m.value]
    assert german and "Anna nannte" in german[0] and "**Ungenauigkeit**, 0,25 Bit verloren" in german[0]
    assert not [m.value for m in at.markdown if "bits expected" in m.value]
    assert at.title[0].value == "Partie-Besprechung"


# ---------------------------------------------------------------- why, in words, from the exact numbers


def test_why_says_the_answers_and_their_exact_chances_of_the_hand_checked_game(night_db: Path) -> None:
    """Game n2: Anna names her own Plum and the Knife she knows is in the envelope, so only the room
    is asked: Ben shows the Hall in half the deals (the room is the Study), nobody in the other
    half: 1 bit. Green (or Mustard) asks the suspect too (docs/analysis.md, the worked example):
    Ben shows Green in 3/8, the Hall in 3/8, nobody 1/4: 1.25 bits."""
    from fractions import Fraction

    from clue_stats.analysis.review import why

    data, pm, _ = review_of(night_db, "n2")
    whys, missing = why.game_whys(data.game, data.suggestions)
    assert missing is None and list(whys) == [4]
    w = whys[4]
    assert w.made.known == ("plum", "knife")
    assert {(a.refuter, a.card): a.chance for a in w.made.answers} == {
        ("Ben", "hall"): Fraction(1, 2),
        (None, None): Fraction(1, 2),
    }
    assert {(a.refuter, a.card): a.chance for a in w.best.answers} == {
        ("Ben", "green"): Fraction(3, 8), ("Ben", "hall"): Fraction(3, 8), (None, None): Fraction(1, 4)
    }  # fmt: skip
    assert (w.made.expected_gain, w.best.expected_gain) == (pytest.approx(1.0), pytest.approx(1.25))
    assert why.sentence(data.game, w) == (
        "Anna named Plum, Knife, Hall, already knowing where Plum and Knife were: Ben could show Hall (50%); "
        "nobody could show a card (50%); 1.00 bits expected. The best, Green, Rope, Hall, already knowing where Rope was: "
        "Ben could show Green (38%) or Hall (38%); nobody could show a card (25%); 1.25 bits expected."
    )


@pytest.mark.slow
def test_every_number_of_the_why_sentences_is_the_counts(duel_db: Path, monkeypatch, tmp_path: Path) -> None:
    """On the duel: every suggestion that lost bits has a reason; its chances are the exact shares of
    the suggester's deals (engine.answers) and add up to 1, its expected gains are the stored review's,
    the cards called known have one place left, and each percentage of the sentence is its chance;
    the review page and the report say the same sentences."""
    from clue_stats.analysis.review import why
    from clue_stats.engine import deduction
    from clue_stats.engine.answers import answers
    from tests.helpers import DUEL_GAME

    data, pm, _ = review_of(duel_db, DUEL_GAME)
    whys, missing = why.game_whys(data.game, data.suggestions)
    stored = {row["seq"]: row for row in data.suggestions}
    assert missing is None
    assert set(whys) == {s for s, row in stored.items() if (row["bits_lost"] or 0) > 1e-9}
    for seq, w in whys.items():
        row = stored[seq]
        k = deduction.knowledge_timeline(data.game, w.player)[seq - 1]
        for a, cards in ((w.made, (row["suspect"], row["weapon"], row["room"])),
                         (w.best, (row["best_suspect"], row["best_weapon"], row["best_room"]))):  # fmt: skip
            assert a.cards == cards
            exact = {
                (None if x is None else x[0], None if x is None else x[1]): p for x, p, _ in answers(k, w.player, cards)
            }
            assert {(c.refuter, c.card): c.chance for c in a.answers} == exact and sum(exact.values()) == 1
            for c in a.known:
                mask = k.allowed[k.card_index[c]]
                assert mask & (mask - 1) == 0
        assert w.made.expected_gain == pytest.approx(row["expected_gain_bits"], abs=1e-9)
        assert w.best.expected_gain == pytest.approx(row["best_gain_bits"], abs=1e-9)
        text = why.sentence(data.game, w)
        chances = [
            why.percent(c.chance) for part in (w.made, w.best) for c in part.answers if c.refuter is not None
        ] + [why.percent(part.chance_of(None)) for part in (w.made, w.best) if part.chance_of(None)]
        assert sorted(re.findall(r"[<>]? ?\d+%", text)) == sorted(chances)
        assert f"{why.bits(row['expected_gain_bits'])} bits expected" in text
        assert f"{why.bits(row['best_gain_bits'])} bits expected." in text
    sentences = [why.sentence(data.game, w) for w in whys.values()]
    # the dashboard's review page
    at = open_app(duel_db, monkeypatch, "review", game=DUEL_GAME)
    assert_clean(at)
    page = " ".join(m.value.replace("\\", "") for m in at.markdown)
    assert all(s in page for s in sentences)
    # the report, for its worst suggestions
    result = runner.invoke(app, ["report", DUEL_GAME, "--db", str(duel_db), "--format", "md", "--out", "-"])
    assert result.exit_code == 0, result.output
    worst = [s.seq for s in pm.worst]
    assert worst and all(why.sentence(data.game, whys[s]) in result.output.replace("\\", "") for s in worst)


# ---------------------------------------------------------------- learn from your mistakes


@pytest.mark.slow
def test_a_puzzle_is_a_mistake_and_rates_any_suggestion_as_the_review_does(night_db: Path, monkeypatch) -> None:
    """Anna's only mistake of the night (n1, record 8: 0 of 1 bit) is her one puzzle; the suggestion
    she made, rated again, loses the stored bits and earns the stored label; the best loses nothing;
    the page offers it and rates the reader's choice."""
    from clue_stats.analysis.corpus import puzzles
    from clue_stats.analysis.review.post_mortem import gather

    with store.read_connection(night_db) as con:
        found = puzzles.puzzles(con, "Anna")
        assert puzzles.puzzles(con, "Anna", "2026-11-06").height == 1 and puzzles.puzzles(con, "Ben").height == 0
        assert puzzles.puzzles(con, night="2026-11-07").height == 0
        game = gather(con, "n1").game
    (p,) = found.to_dicts()
    assert (p["game_id"], p["seq"], p["label"], p["night"]) == ("n1", 8, "mistake", "2026-11-06")
    best = (p["best_suspect"], p["best_weapon"], p["best_room"])
    played = puzzles.attempt(game, 8, (p["suspect"], p["weapon"], p["room"]), best, p["best_gain_bits"])
    assert (played.bits_lost, played.label) == (pytest.approx(p["bits_lost"]), "mistake")
    assert played.expected_gain == pytest.approx(0.0) and "nobody could show a card (100%)" in played.reason
    top = puzzles.attempt(game, 8, best, best, p["best_gain_bits"])
    assert (top.bits_lost, top.label) == (pytest.approx(0.0), "best")

    at = open_app(night_db, monkeypatch, "puzzles")
    assert_clean(at)
    assert at.selectbox(key="puzzle_player").value == "Anna"
    at.selectbox(key="puzzle_s_n1_8").set_value("plum").run()
    at.selectbox(key="puzzle_w_n1_8").set_value("knife").run()
    at.button(key="puzzle_rate").click().run()
    assert_clean(at)
    said = " ".join(m.value for m in at.markdown)
    assert "1.00 bits lost against the best" in said and "**mistake**" in said


@pytest.mark.slow
def test_puzzles_start_at_the_players_latest_night(tmp_path: Path, monkeypatch) -> None:
    """Anna made the same mistake on two nights, and the game of the later night was stored first:
    her puzzles are the later night's first, the page opens at it, and the Night choice keeps
    only that night's."""
    from clue_stats.analysis.corpus import puzzles

    first = night_of_games()[0]
    later = [dict(r, id="m1", played_at="2026-11-13T20:00") if r["type"] == "game" else r for r in first]
    log = tmp_path / "nights.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in [*later, *first]), encoding="utf-8")
    db = tmp_path / "nights.duckdb"
    assert pipeline.ingest_paths([str(log)], db, workers=1).games_stored == 2
    with store.read_connection(db) as con:
        found = puzzles.puzzles(con, "Anna")
    assert list(zip(found["night"], found["game_id"])) == [("2026-11-13", "m1"), ("2026-11-06", "n1")]

    at = open_app(db, monkeypatch, "puzzles")
    assert_clean(at)
    assert at.selectbox(key="puzzle").index == 0 and any(s.key == "puzzle_s_m1_8" for s in at.selectbox)
    at.selectbox(key="puzzle_night").set_value("2026-11-06").run()
    assert_clean(at)
    assert any(s.key == "puzzle_s_n1_8" for s in at.selectbox) and not any(
        s.key == "puzzle_s_m1_8" for s in at.selectbox
    )
