"""The dashboard through Streamlit's AppTest, on real DuckDB files built by the real ingest.

Every page is run and what it shows is compared with what the database (or the analysis library)
says: metric values, chart data, table rows, the replay's stepping. The corpus is small on purpose:
the sample games, a few simulated ones (so that strategies exist), one game with HTML and Markdown
in its names, and one rejected game.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from clue_stats import pipeline
from clue_stats.analysis.corpus import league as league_stats
from clue_stats.analysis.corpus import positions as position_stats
from clue_stats.analysis.review import timeline
from clue_stats.analysis.words.names import edition_name, of_edition
from clue_stats.analysis.words.records import describe_seq
from clue_stats.dashboard import pages, queries
from clue_stats.ingest import store
from tests.helpers import DUEL_GAME, ODD_SOURCE, ROOT, SAMPLES, XSS_GAME, XSS_NAME, build_corpus, html_column, open_app

pytestmark = pytest.mark.slow  # about a second or more a test: make test-fast leaves them out

APP = ROOT / "dashboard" / "app.py"
PAGES = [p.slug for p in pages.PAGES]  # every page the app registers


# ---------------------------------------------------------------- building databases


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_corpus(tmp_path_factory.mktemp("dashboard"))


def sql(db: Path, query: str, params: list | None = None) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(query, params or []).fetchall()
    finally:
        con.close()


# ---------------------------------------------------------------- driving the app


def assert_clean(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def number(text: str) -> int:
    return int(text.replace(",", ""))


def charts(at: AppTest) -> list[tuple[dict, list[pa.Table]]]:
    """Every Altair chart on the page: its Vega-Lite spec and its datasets."""
    out = []
    for element in at.get("vega_lite_chart"):
        spec = json.loads(element.proto.spec)
        data = [pa.ipc.open_stream(d.data.data).read_all() for d in element.proto.datasets]
        out.append((spec, data))
    return out


def chart_with(at: AppTest, *fields: str) -> tuple[dict, pa.Table]:
    """The first chart (and its dataset) whose data has every one of these columns."""
    for spec, data in charts(at):
        for table in data:
            if all(f in table.column_names for f in fields):
                return spec, table
    raise AssertionError(f"no chart with the columns {fields}")


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [i.value for i in at.info]
    parts += [w.value for w in at.warning] + [s.value for s in at.subheader] + [t.value for t in at.title]
    return "\n".join(str(p) for p in parts)


# ---------------------------------------------------------------- overview and filters


def test_overview_counts_and_charts_match_the_database(corpus, monkeypatch):
    at = open_app(corpus, monkeypatch)
    assert_clean(at)
    shown = metrics(at)
    [(games, editions, sources, analysed, rejected)] = sql(
        corpus,
        """
        SELECT count(*), count(DISTINCT edition), count(DISTINCT source),
               count(*) FILTER (WHERE analysis_version IS NOT NULL), (SELECT count(*) FROM rejected) FROM games""",
    )
    [(names,)] = sql(corpus, "SELECT count(DISTINCT name) FROM players")
    assert number(shown["Games"]) == games
    assert number(shown["Editions"]) == editions
    assert number(shown["Sources"]) == sources
    assert number(shown["Players"]) == names
    assert number(shown["Analysed"]) == analysed and 0 < analysed < games
    assert number(shown["Rejected"]) == rejected == 1
    spec, table = chart_with(at, "variant")
    assert spec["mark"]["type"] == "bar" and spec["encoding"]["x"]["field"] == "games"
    from clue_stats.analysis.words import variant_words

    expected = {
        (edition_name(e), variant_words(v)): n
        for e, v, n in sql(corpus, "SELECT edition, variant, count(*) FROM games GROUP BY ALL")
    }  # editions by their own names, variants in words
    assert (
        dict(zip(zip(table["edition"].to_pylist(), table["variant"].to_pylist()), table["games"].to_pylist()))
        == expected
    )
    _, by_players = chart_with(at, "n_players")
    assert sum(by_players["games"].to_pylist()) == games


def test_a_filter_changes_every_page(corpus, monkeypatch):
    at = open_app(corpus, monkeypatch)
    at.selectbox(key="filter_edition").set_value("classic").run()
    assert_clean(at)
    [(classic,)] = sql(corpus, "SELECT count(*) FROM games WHERE edition = 'classic'")
    assert number(metrics(at)["Games"]) == classic
    at.selectbox(key="filter_players").set_value(3).run()
    [(classic3,)] = sql(corpus, "SELECT count(*) FROM games WHERE edition = 'classic' AND n_players = 3")
    assert number(metrics(at)["Games"]) == classic3
    # the filter stays set on the next page, which counts within it
    at.switch_page("app_pages/accusations.py").run()
    assert_clean(at)
    [(accusations,)] = sql(
        corpus,
        """SELECT count(*) FROM accusations a JOIN games g USING (game_id)
                                      WHERE g.edition = 'classic' AND g.n_players = 3""",
    )
    assert number(metrics(at)["Accusations"]) == accusations
    # a date bound leaves out the games without a date, and those outside it
    at.switch_page("app_pages/overview.py").run()
    at.selectbox(key="filter_edition").set_value("any").run()
    at.selectbox(key="filter_players").set_value("any").run()
    from datetime import date

    at.date_input(key="filter_from").set_value(date(2026, 11, 1)).run()
    [(dated,)] = sql(corpus, "SELECT count(*) FROM games WHERE left(played_at, 10) >= '2026-11-01'")
    assert number(metrics(at)["Games"]) == dated


def test_a_source_with_quotes_and_sql_in_it_is_a_value_not_sql(corpus, monkeypatch):
    at = open_app(corpus, monkeypatch)
    assert ODD_SOURCE in at.selectbox(key="filter_source").options
    at.selectbox(key="filter_source").set_value(ODD_SOURCE).run()
    assert_clean(at)
    assert number(metrics(at)["Games"]) == 1
    assert sql(corpus, "SELECT count(*) FROM games")[0][0] > 1  # nothing was dropped


# ---------------------------------------------------------------- replay


def test_replay_steps_through_a_game_and_shows_the_deduction(corpus, monkeypatch):
    at = open_app(corpus, monkeypatch, "replay", game=DUEL_GAME, seq="0")
    assert_clean(at)
    assert at.selectbox(key="replay_game").value == DUEL_GAME
    with store.read_connection(corpus) as con:
        game = store.stored_game(con, DUEL_GAME).game
    suggestions = [r.seq for r in game.records if r.type == "suggest"]
    assert at.slider(key="replay_seq").value == 0
    # a record by the line of its file and its turn, its number on the slider beside it
    assert f"**Line {game.header_line}**, record 0 of {len(game.records)}: the game began" in texts(at)

    at.button(key="replay_next_sugg").click().run()
    first = suggestions[0]
    assert at.slider(key="replay_seq").value == first
    record = game.records[first - 1]
    turn = game.turns()[first]
    assert f"**Line {record.line} (turn {turn})**, record {first} of {len(game.records)}" in texts(at).replace("\\", "")
    assert f"{record.player} suggested {game.deck.name(record.suspect)}" in texts(at)

    # the observer's notebook: one cell per card and place, each card somewhere for sure
    observer = at.selectbox(key="replay_observer").value
    assert observer in game.names
    _, notebook = chart_with(at, "probability")
    rows = notebook.to_pylist()
    assert len(rows) == len(game.deck.cards) * (2 + len(game.names))  # envelope, players, room cards
    per_card: dict[str, float] = {}
    for r in rows:
        per_card[r["card"]] = per_card.get(r["card"], 0.0) + r["probability"]
    assert all(math.isclose(total, 1.0, abs_tol=1e-9) for total in per_card.values())
    own = game.hands()[observer]
    assert all(r["probability"] == 1.0 for r in rows if r["card"] in own and r["place"] == observer)
    expected = timeline.notebook_frame(game, observer, first)
    assert sorted(
        (r["card"], r["place"].replace("room cards", "room_cards"), r["probability"]) for r in rows
    ) == sorted(zip(expected["card"], expected["place"], expected["probability"]))

    # the entropy of every observer, as stored by the analysis at ingest
    _, entropy = chart_with(at, "entropy")
    stored = {
        (o or "the table (a spectator)", s): h
        for o, s, h in sql(
            corpus, "SELECT observer, seq, entropy_after FROM information WHERE game_id = ?", [DUEL_GAME]
        )
    }
    shown = {
        (o, s): h
        for o, s, h in zip(entropy["observer"].to_pylist(), entropy["seq"].to_pylist(), entropy["entropy"].to_pylist())
    }
    assert stored and all(math.isclose(shown[key], h, abs_tol=1e-9) for key, h in stored.items())

    # the current suggestion: gain per observer, expected and best gain, label
    _, gains = chart_with(at, "gain_bits")
    stored_gain = {
        o or "the table (a spectator)": g
        for o, g in sql(
            corpus, "SELECT observer, gain_bits FROM information WHERE game_id = ? AND seq = ?", [DUEL_GAME, first]
        )
    }
    assert {o: g for o, g in zip(gains["observer"].to_pylist(), gains["gain_bits"].to_pylist())} == pytest.approx(
        stored_gain
    )
    [(expected_gain, best_gain, label)] = sql(
        corpus,
        "SELECT expected_gain_bits, best_gain_bits, label FROM suggestions WHERE game_id = ? AND seq = ?",
        [DUEL_GAME, first],
    )
    shown = metrics(at)
    assert shown["Expected gain (bits)"] == f"{expected_gain:.2f}"
    assert shown["Best available (bits)"] == f"{best_gain:.2f}"
    assert shown["Label"] == label

    # stepping: next record, previous suggestion, end, start
    at.button(key="replay_next").click().run()
    assert at.slider(key="replay_seq").value == first + 1
    at.button(key="replay_prev_sugg").click().run()
    assert at.slider(key="replay_seq").value == first
    at.button(key="replay_end").click().run()
    assert at.slider(key="replay_seq").value == len(game.records)
    assert "the game ended" in texts(at)
    at.button(key="replay_start").click().run()
    assert at.slider(key="replay_seq").value == 0

    # when each player became certain, as the analysis stored it
    table = next(h.value for h in at.get("html") if 'data-label="at that record"' in h.value)
    certain = dict(sql(corpus, "SELECT name, first_certain_seq FROM players WHERE game_id = ?", [DUEL_GAME]))
    expected = {p: describe_seq(game, s) if s is not None else "never certain" for p, s in certain.items()}
    shown = dict(zip(html_column(table, "player"), html_column(table, "at that record"), strict=True))
    assert shown == expected  # the record in words; "never certain" for a player who never was


def test_replay_of_a_game_with_unknown_hands_says_the_view_is_partial(corpus, monkeypatch):
    [(game_id, perspective)] = sql(corpus, "SELECT game_id, perspective FROM games WHERE hands_known < n_players")
    [(other,)] = sql(
        corpus, "SELECT name FROM players WHERE game_id = ? AND NOT hand_known ORDER BY seat LIMIT 1", [game_id]
    )
    at = open_app(corpus, monkeypatch, "replay", game=game_id, seq="3")
    assert_clean(at)
    assert at.selectbox(key="replay_observer").value == perspective
    assert "partial view" not in texts(at)
    at.selectbox(key="replay_observer").set_value(other).run()
    assert_clean(at)
    assert "partial view" in texts(at)
    observers = at.selectbox(key="replay_observer")
    observers.select_index(len(observers.options) - 1).run()  # the table: a spectator
    assert_clean(at)
    assert "Notebook of the table (a spectator) after record 3" in texts(at)


def test_replay_of_an_unknown_game_says_so(corpus, monkeypatch):
    at = open_app(corpus, monkeypatch, "replay", game="no-such-game")
    assert_clean(at)
    assert "No stored game has the id no\\-such\\-game" in texts(at)


@pytest.mark.parametrize("seq", ["\u00b2", "\u0663", "-1", "3.5", "9" * 5000, "x"])
def test_a_replay_link_whose_record_is_not_a_number_shows_the_game_from_its_start(corpus, monkeypatch, seq):
    at = open_app(corpus, monkeypatch, "replay", game=DUEL_GAME, seq=seq)
    assert_clean(at)
    assert at.slider(key="replay_seq").value == 0
    assert "is not a record number: the game is shown from its start" in texts(at)


def test_a_replay_link_past_the_last_record_shows_the_end(corpus, monkeypatch):
    at = open_app(corpus, monkeypatch, "replay", game=DUEL_GAME, seq="999999999")
    assert_clean(at)
    slider = at.slider(key="replay_seq")
    assert slider.value == slider.max > 0


def test_names_and_notes_with_html_are_shown_as_text(corpus, monkeypatch):
    with store.read_connection(corpus) as con:
        game = store.stored_game(con, XSS_GAME).game
    noted = next(r.seq for r in game.records if r.type == "suggest")
    at = open_app(corpus, monkeypatch, "replay", game=XSS_GAME, seq=str(noted))
    assert_clean(at)
    everything = texts(at)
    assert "\\<script\\>alert\\(1\\)\\</script\\>" in everything  # the name, escaped for Markdown
    assert "\\<img src\\=x onerror\\=alert\\(3\\)\\>" in everything  # the note
    assert "\\:red\\[shout\\] \\$x\\^2\\$" in everything  # no colour, no maths
    assert "\\[x\\]\\(javascript\\:alert\\(2\\)\\) \\*\\*b\\*\\*" in everything  # no link, no bold
    for element in [*at.markdown, *at.caption, *at.subheader]:
        value = str(element.value)
        assert not re.search(r"(?<!\\)<", value), value  # every "<" escaped: no tag can open
        # no link can form from the log's text; the page's own links go to its pages
        own = "|".join(p.slug for p in pages.PAGES)
        assert not re.search(rf"(?<!\\)\]\((?!(?:{own})\?)", value), value
        assert getattr(element.proto, "allow_html", False) is False
    # the only HTML is the page's own constant style and tables whose every value is escaped
    for block in at.get("html"):
        value = str(block.value)
        assert "<script" not in value and "<img" not in value, value
    # tables hold the names as text
    at.switch_page("app_pages/players.py").run()
    league_table = next(h.value for h in at.get("html") if 'data-label="player"' in h.value)
    assert XSS_NAME in html_column(league_table, "player") and "<script>" not in league_table


# ---------------------------------------------------------------- corpus pages


def test_suggestions_page_shows_gains_accuracy_and_links_to_replays(corpus, monkeypatch):
    at = open_app(corpus, monkeypatch, "suggestions")
    assert_clean(at)
    [(total, with_expected, with_accuracy, unrated)] = sql(
        corpus,
        """SELECT count(*), count(expected_gain_bits), count(accuracy), count(*) FILTER (WHERE NOT p.hand_known)
        FROM suggestions s JOIN players p ON p.game_id = s.game_id AND p.name = s.player""",
    )
    shown = metrics(at)
    assert number(shown["Suggestions"]) == total
    assert number(shown["Rated"]) == with_expected
    assert number(shown["Not rated"]) == unrated > 0  # the spieleabend sample holds one hand
    assert with_accuracy > 0
    # the others are in the games stored without analysis, and the page says so
    not_analysed = total - with_expected - unrated
    assert not_analysed > 0 and with_expected == with_accuracy
    assert any(
        c.value == f"{not_analysed:,} more are in games stored without analysis: `clue-stats analyse` completes them."
        for c in at.caption
    )
    spec, gains = chart_with(at, "bin_end")
    assert spec["encoding"]["x"]["field"] == "bin_start" and sum(gains["suggestions"].to_pylist()) == with_expected
    spec, accuracy = chart_with(at, "strategy", "bin_start")
    assert spec["encoding"]["color"]["field"] == "strategy"
    assert sum(accuracy["suggestions"].to_pylist()) == with_accuracy
    _, means = chart_with(at, "review_accuracy")
    reviewed = sql(
        corpus,
        """SELECT coalesce(p.strategy, '(not given)'), sum(s.expected_gain_bits) / sum(s.best_gain_bits)
        FROM suggestions s JOIN players p ON p.game_id = s.game_id AND p.name = s.player
        WHERE s.accuracy IS NOT NULL GROUP BY ALL""",
    )
    assert dict(zip(means["strategy"].to_pylist(), means["review_accuracy"].to_pylist())) == {
        strategy: pytest.approx(value) for strategy, value in reviewed
    }
    best = at.dataframe[-2].value
    [(game_id, seq)] = sql(
        corpus,
        """SELECT game_id, seq FROM suggestions WHERE bits_lost IS NOT NULL
                                      ORDER BY accuracy DESC, expected_gain_bits DESC, game_id, seq LIMIT 1""",
    )
    assert best["game_id"][0] == game_id
    assert best["replay"][0] == f"replay?game={game_id}&seq={seq}"  # the record, in the link
    worst = at.dataframe[-1].value
    assert len(worst) == min(10, with_accuracy)
    [(most_lost,)] = sql(corpus, "SELECT max(bits_lost) FROM suggestions")
    assert worst["bits_lost"][0] == pytest.approx(most_lost)
    # the link opens the replay at that suggestion
    link = open_app(corpus, monkeypatch, "replay", game=game_id, seq=str(seq))
    assert link.slider(key="replay_seq").value == seq and link.selectbox(key="replay_game").value == game_id


def test_accusations_page_counts_guesses_and_missed_wins(corpus, monkeypatch):
    at = open_app(corpus, monkeypatch, "accusations")
    assert_clean(at)
    [(n, correct, wrong, guesses)] = sql(
        corpus,
        """SELECT count(*), count(*) FILTER (WHERE correct),
        count(*) FILTER (WHERE NOT correct), count(*) FILTER (WHERE p_correct < 1) FROM accusations""",
    )
    [(missed,)] = sql(corpus, "SELECT count(*) FROM players WHERE missed_win")
    shown = metrics(at)
    assert (number(shown["Accusations"]), number(shown["Correct"]), number(shown["Wrong"])) == (n, correct, wrong)
    assert number(shown["Guesses"]) == guesses
    assert number(shown["Missed wins"]) == missed
    _, p_correct = chart_with(at, "outcome", "bin_start")
    [(rated,)] = sql(corpus, "SELECT count(p_correct) FROM accusations")
    assert sum(p_correct["accusations"].to_pylist()) == rated
    _, waited = chart_with(at, "outcome", "turns_waited")
    expected = sql(
        corpus,
        """SELECT least(turns_waited, 10), count(*) FROM accusations
                              WHERE turns_waited IS NOT NULL GROUP BY ALL""",
    )
    shown: dict[int, int] = {}
    for turns, n in zip(waited["turns_waited"].to_pylist(), waited["accusations"].to_pylist()):
        shown[turns] = shown.get(turns, 0) + n
    assert shown == dict(expected) and expected


def test_positions_page_shows_effects_and_tests_in_words_per_player_count(corpus, monkeypatch):
    at = open_app(corpus, monkeypatch, "positions")
    assert_clean(at)
    with store.read_connection(corpus) as con:
        effects = {d: position_stats.position_effects(con, d) for d in ("turn_order", "character", "start_square")}
        test = position_stats.seat_test(con)
    games_at = dict(sql(corpus, "SELECT n_players, count(*) FROM games GROUP BY ALL"))
    counts = sorted(games_at)
    chooser = at.segmented_control(key="positions_players")
    assert list(chooser.options) == [
        f"{n} players ({games_at[n]} game{'s' if games_at[n] > 1 else ''})" for n in counts
    ]
    assert chooser.value == max(counts, key=lambda n: (games_at[n], n))  # opens on the count with the most games
    seats = {0: "1st", 1: "2nd", 2: "3rd", 3: "4th", 4: "5th", 5: "6th"}
    shown_as = {  # what a person reads for each stored value
        "turn_order": lambda edition, v: seats[v],
        "character": lambda edition, v: of_edition(edition)(v),
        "start_square": lambda edition, v: v,  # named by analysis.positions already
    }

    def plotted(dimension: str) -> list[tuple]:
        tables = [t for spec, data in charts(at) for t in data if dimension in t.column_names]
        return sorted(
            (r["edition"], str(r[dimension]), r["games"], r["win_rate"], r["ci_low"], r["ci_high"], r["expected_rate"])
            for t in tables
            for r in t.to_pylist()
        )

    def expected(dimension: str, n: int) -> list[tuple]:
        frame = effects[dimension].filter(effects[dimension]["n_players"] == n)
        return sorted(
            (
                r["edition"],
                shown_as[dimension](r["edition"], r[dimension]),
                r["games"],
                r["win_rate"],
                r["ci_low"],
                r["ci_high"],
                r["expected_rate"],
            )
            for r in frame.iter_rows(named=True)
        )

    for n in counts:
        at.segmented_control(key="positions_players").set_value(n).run()
        assert_clean(at)
        assert plotted("turn_order") == expected("turn_order", n)
        for row in test.filter(test["n_players"] == n).iter_rows(named=True):
            if row["games_won"]:
                verdict = "the seat in turn order matters" if row["p_value"] < 0.05 else "no seat effect is found"
                assert f"At {n} players {verdict}" in texts(at)
    for dimension in ("character", "start_square"):
        at.segmented_control(key="positions_dimension").set_value(dimension).run()
        assert_clean(at)
        assert plotted(dimension) == expected(dimension, n) != []


def league_table(at: AppTest) -> str:
    """The Players page's league: rows drawn as HTML (a card a player on a phone)."""
    return next(h.value for h in at.get("html") if 'data-label="player"' in h.value)


def test_players_page_is_the_league_of_each_pool(corpus, monkeypatch):
    at = open_app(corpus, monkeypatch, "players")
    assert_clean(at)
    with store.read_connection(corpus) as con:
        board = league_stats.leaderboard(con, "people")
        pools = league_stats.pool_sizes(con)
    assert at.segmented_control(key="league_pool").value == "people"
    assert list(at.segmented_control(key="league_pool").options) == [p.capitalize() for p in pools["pool"].to_list()]
    table = league_table(at)
    assert html_column(table, "player") == board["player"].to_list()
    assert html_column(table, "games") == [str(g) for g in board["games"].to_list()]
    assert [float(r) for r in html_column(table, "rating")] == pytest.approx(board["rating"].to_list(), abs=0.05)
    assert XSS_NAME in html_column(table, "player")  # a name is a cell's text
    assert number(metrics(at)["Players"]) == board.height
    # the simulated strategies are a league of their own, never among the people
    people = set(html_column(table, "player"))
    at.segmented_control(key="league_pool").set_value("simulations").run()
    assert_clean(at)
    simulated = set(html_column(league_table(at), "player"))
    assert simulated and not simulated & people
    tables = len(at.dataframe)
    at.toggle(key="league_by_strategy").set_value(True).run()
    [(strategies,)] = sql(corpus, "SELECT count(DISTINCT strategy) FROM players WHERE strategy IS NOT NULL")
    assert len(at.dataframe) == tables + 1 and len(at.dataframe[-1].value) == strategies


def test_quality_page_lists_rejected_games_with_their_problems_and_the_ingest_history(corpus, monkeypatch):
    at = open_app(corpus, monkeypatch, "quality")
    assert_clean(at)
    shown = metrics(at)
    [(runs,)] = sql(corpus, "SELECT count(*) FROM ingest_runs")
    assert number(shown["Rejected games and files"]) == 1
    assert number(shown["Ingest runs"]) == runs
    rejected = at.dataframe[0].value
    assert list(rejected["code"]) == ["passed_holding"]
    problems = at.dataframe[1].value
    stored = sql(corpus, "SELECT code, line FROM problems WHERE raw_sha256 IS NOT NULL ORDER BY line")
    assert sorted(zip(problems["code"], problems["line"])) == sorted(stored)
    assert at.dataframe[-1].value["games_stored"].sum() == sql(corpus, "SELECT count(*) FROM games")[0][0]


def test_quality_page_says_a_stored_problem_in_the_readers_language(corpus, monkeypatch):
    """The rejected game's problem as stored (template and values beside the English message) is
    said in German on the page: the code and the values (names, cards) as they are."""
    monkeypatch.setenv("CLUE_STATS_LANG", "de")
    [(message, template, fields)] = sql(
        corpus,
        "SELECT message, template, fields FROM problems WHERE raw_sha256 IS NOT NULL AND code = 'passed_holding'",
    )
    values = json.loads(fields)["values"]
    assert template == "{player} passes on {named} while holding {held}"
    assert message == template.format(**values)  # the English message, kept as stored data
    at = open_app(corpus, monkeypatch, "quality")
    assert_clean(at)
    problems = at.dataframe[1].value
    shown = dict(zip(problems["code"], problems["message"]))
    assert shown["passed_holding"] == "{player} passt bei {named}, hat aber {held}".format(**values)
    assert values["player"] in shown["passed_holding"] and message not in list(problems["message"])


# ---------------------------------------------------------------- empty, small and missing databases


@pytest.mark.parametrize("page", PAGES)
def test_an_empty_database_is_explained_on_every_page(tmp_path, monkeypatch, page):
    db = tmp_path / "empty.duckdb"
    with store.write_connection(db):
        pass
    at = open_app(db, monkeypatch, page)
    assert_clean(at)
    if page == "quality":
        assert "No game has been rejected" in texts(at) and "No ingest has run" in texts(at)
    elif page == "help":  # the documentation needs no games
        assert [s.label for s in at.selectbox if s.label == "Topic"] and at.markdown
    elif page == "record":  # a game is recorded into an empty database too
        assert [b for b in at.button if b.key == "setup_start"]
    else:
        assert "No games in the database yet" in texts(at)


def test_a_database_of_one_game_shows_every_page(tmp_path, monkeypatch):
    db = tmp_path / "one.duckdb"
    pipeline.ingest_paths([str(SAMPLES / "us-clue-family.jsonl")], db, analyse=True, workers=1)
    at = open_app(db, monkeypatch)
    for page in pages.PAGES:
        at.switch_page(page.file).run()
        assert_clean(at)
        assert at.title[0].value == page.title  # the page that was asked for, under its registered title
    at.switch_page("app_pages/suggestions.py").run()
    assert "--deep" not in texts(at) and number(metrics(at)["Rated"]) > 0


def test_games_stored_with_the_lighter_analysis_say_how_to_complete_it(tmp_path, monkeypatch):
    db = tmp_path / "light.duckdb"
    pipeline.ingest_paths([str(SAMPLES / "us-clue-family.jsonl")], db, analyse=True, workers=1, review=False)
    at = open_app(db, monkeypatch, "suggestions")
    assert_clean(at)
    rated = number(metrics(at)["Rated"])
    assert rated > 0 and metrics(at)["Review accuracy"] == "not reviewed"  # not 0 %, not n/a
    assert any(
        c.value
        == f"{rated:,} of the rated await the review (stored with `--light`): `clue-stats analyse` completes them."
        for c in at.caption
    )


def test_games_stored_without_analysis_say_how_to_get_it(tmp_path, monkeypatch):
    db = tmp_path / "bare.duckdb"
    pipeline.ingest_paths([str(SAMPLES / "us-clue-family.jsonl")], db, analyse=False, workers=1)
    at = open_app(db, monkeypatch, "suggestions")
    assert_clean(at)
    assert "no analysis yet: run `clue-stats analyse`" in texts(at)
    at.switch_page("app_pages/accusations.py").run()
    assert "no analysis yet: run `clue-stats analyse`" in texts(at)
    at.switch_page("app_pages/replay.py").run()  # the replay computes its deduction itself
    assert_clean(at)
    assert "Expected and best gain: no analysis yet" in texts(at) or at.slider(key="replay_seq").value == 0


def test_a_missing_database_is_explained(tmp_path, monkeypatch):
    at = open_app(tmp_path / "nothing-here.duckdb", monkeypatch)
    assert_clean(at)
    assert "There is no database at" in texts(at)


# ---------------------------------------------------------------- beside a running ingest


def test_new_games_appear_and_a_busy_database_is_waited_for(tmp_path, monkeypatch):
    db = tmp_path / "live.duckdb"
    pipeline.ingest_paths([str(SAMPLES / "us-clue-family.jsonl")], db, analyse=False, workers=1)
    at = open_app(db, monkeypatch)
    assert number(metrics(at)["Games"]) == 1
    pipeline.ingest_paths([str(SAMPLES / "uk-2020-pub.jsonl")], db, analyse=False, workers=1)
    at.run()  # what the page's watcher does when the file changes
    assert number(metrics(at)["Games"]) == 3

    # another process holds the file (as ingest does while it writes a batch)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys; c = duckdb.connect(sys.argv[1]); print('held', flush=True); sys.stdin.read()",
            str(db),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        monkeypatch.setattr(queries, "WAIT_SECONDS", 0.3)
        at.switch_page("app_pages/players.py").run()
        assert_clean(at)
        assert "The database is busy" in texts(at)
    finally:
        holder.stdin.close()
        holder.wait(timeout=20)
    at.run()
    assert_clean(at)
    assert "The database is busy" not in texts(at)
    # three games are a league already, every rating in it provisional
    settled = html_column(league_table(at), "settled")
    assert len(settled) >= 2 and all(s.startswith("provisional: about ") for s in settled)


def test_database_path_prefers_the_option_then_the_environment(tmp_path):
    assert (
        queries.database_path(["--db", str(tmp_path / "a.duckdb")], {"CLUE_STATS_DB": "b.duckdb"})
        == tmp_path / "a.duckdb"
    )
    assert queries.database_path([f"--db={tmp_path / 'c.duckdb'}"], {}) == tmp_path / "c.duckdb"
    assert queries.database_path([], {"CLUE_STATS_DB": str(tmp_path / "b.duckdb")}) == tmp_path / "b.duckdb"
    assert queries.database_path([], {}) == Path("clue.duckdb").resolve()
    db = tmp_path / "v.duckdb"
    before = queries.store_version(db)
    with store.write_connection(db):
        pass
    assert queries.store_version(db) != before


@pytest.mark.parametrize("all_kinds", [False, True])
def test_every_table_shows_names_words_and_blanks(corpus, monkeypatch, all_kinds):
    """What the grids hold, cell by cell (a browser draws them on a canvas): no card id, no missing
    value shown as "None", headers in words."""
    from clue_stats.engine.editions import editions

    ids = {c for ed in editions().values() for c in ed.deck.cards if "_" in c or c in ed.deck.suspects}
    for page in PAGES:
        query = {"game": DUEL_GAME, "seq": "20"} if page == "replay" else {}
        at = open_app(corpus, monkeypatch, page, all_kinds=all_kinds, **query)
        assert_clean(at)
        for grid in at.dataframe:
            frame = grid.value
            for column in frame.columns:
                values = frame[column].tolist()
                assert not any(v is None or (isinstance(v, float) and v != v) for v in values), (page, column)
                assert not any(isinstance(v, str) and v in ids for v in values), (page, column)
                for v in values:
                    if isinstance(v, str):  # ids inside text ("Rope, lead_pipe, Hall")
                        assert not any(part.strip() in ids for part in v.split(",")), (page, column, v)
            config = json.loads(grid.proto.columns or "{}")  # the headers the grid shows
            shown = [config.get(c, {}).get("label") or c for c in frame.columns]
            assert all("_" not in label for label in shown), (page, dict(zip(frame.columns, shown)))


def test_missed_wins_and_review_accuracy_are_the_same_numbers_everywhere(tmp_path, monkeypatch):
    """players.missed_win and players.review_accuracy, read through the dashboard (its query and
    the Accusations page), the player statistics and the report: the same numbers as the columns,
    on the games of tests/test_analysis.py whose missed wins are checked by hand."""
    from clue_stats.analysis.review.post_mortem import gather, post_mortem
    from tests.helpers import ANNA_ASKS_GREEN, BEN_WINS, REVEAL_GREEN, TURN_ANNA, TURN_BEN, anna_and_ben, docs_log

    def game(game_id: str, *records: str) -> str:
        return anna_and_ben(game_id, ANNA_ASKS_GREEN, *records)

    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "worked.jsonl").write_text(docs_log("## Worked example"), encoding="utf-8")
    (logs / "cases.jsonl").write_text(
        game("miss", TURN_BEN, REVEAL_GREEN, TURN_ANNA)
        + game("miss-2", TURN_BEN, REVEAL_GREEN, TURN_ANNA)
        + game("no-turn", TURN_BEN, REVEAL_GREEN, *BEN_WINS),
        encoding="utf-8",
    )
    db = tmp_path / "missed.duckdb"
    assert pipeline.ingest_paths([str(logs)], db, workers=1).games_stored == 4
    columns = {
        (g, n): (m, r) for g, n, m, r in sql(db, "SELECT game_id, name, missed_win, review_accuracy FROM players")
    }
    missed = {key for key, (m, _) in columns.items() if m}
    assert missed == {("worked-example", "Anna"), ("miss", "Anna"), ("miss-2", "Anna")}

    # the dashboard: its query, and the page
    stats = queries.accusation_stats(str(db), queries.store_version(db), queries.GameFilter())
    assert stats["totals"]["missed_wins"] == len(missed)
    assert set(zip(stats["missed"]["game_id"].to_list(), stats["missed"]["player"].to_list())) == missed
    at = open_app(db, monkeypatch, "accusations")
    assert_clean(at)
    assert number(metrics(at)["Missed wins"]) == len(missed)
    # the statistics, and the Players page's leaderboard
    from clue_stats.analysis.corpus import players as player_stats

    with store.read_connection(db) as con:
        summary = {r["name"]: r for r in player_stats.player_summary(con, by="name").iter_rows(named=True)}
        board = {r["player"]: r for r in league_stats.leaderboard(con, "people").iter_rows(named=True)}
    assert {n: r["missed_wins"] for n, r in summary.items()} == {"Anna": 3, "Ben": 0}
    assert {n: r["missed_wins"] for n, r in board.items()} == {"Anna": 3, "Ben": 0}
    # the report, game by game
    for game_id in ("worked-example", "miss", "miss-2", "no-turn"):
        with store.read_connection(db) as con:
            pm = post_mortem(gather(con, game_id))
        for line in pm.timing:
            assert line.missed_win == columns[(game_id, line.player)][0]
            assert line.verdict.startswith("missed win") == line.missed_win
        for player in pm.brief.players:
            assert player.review_accuracy == columns[(game_id, player.name)][1]


# ---------------------------------------------------------------- games stored over the budget


@pytest.fixture(scope="module")
def over_budget(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """A database with two games stored under a budget of 1,000,000 states: a classic 6-player game
    whose review it cut (its information kept), and a 6-player game on an 8/8/12 deck whose
    information it cut too. (db, the first game's id, the second's)."""
    from typer.testing import CliRunner

    from clue_stats.cli import app
    from clue_stats.engine import counting
    from clue_stats.ingest.cluelog import write_game
    from clue_stats.testing import random_game, small_deck

    root = tmp_path_factory.mktemp("over-budget")
    (root / "logs").mkdir()
    review = random_game(2, n_players=6, n_suggestions=12)
    big = random_game(4, n_players=6, n_suggestions=20, deck=small_deck(8, 8, 12))
    (root / "logs" / "review.jsonl").write_text(write_game(review), encoding="utf-8")
    (root / "logs" / "big.jsonl").write_text(write_game(big), encoding="utf-8")
    counting.clear_caches()
    db = root / "cut.duckdb"
    done = CliRunner().invoke(
        app, ["ingest", str(root / "logs"), "--db", str(db), "--workers", "1", "--budget-states", "400000"]
    )
    assert done.exit_code == 0, done.output
    ids = dict(sql(db, "SELECT regexp_extract(source_file, '[a-z]+[.]jsonl$'), game_id FROM games"))
    return db, ids["review.jsonl"], ids["big.jsonl"]


def test_replay_of_an_analysed_game_reads_its_stored_rows_and_says_what_the_budget_left_out(over_budget, monkeypatch):
    from clue_stats.engine import deduction

    db, game_id, _ = over_budget
    [(cut,)] = sql(db, "SELECT analysis_cut FROM games WHERE game_id = ?", [game_id])
    assert cut.startswith("the review of the suggestions from line ")  # by the line of the file, not seq
    [(first,)] = sql(db, "SELECT seq FROM problems WHERE game_id = ? AND message LIKE '%the review of%'", [game_id])

    def counted(*args, **kwargs):
        raise AssertionError("the replay counted the entropy table again")

    monkeypatch.setattr(deduction, "entropy_table", counted)
    at = open_app(db, monkeypatch, "replay", game=game_id, seq=str(first))
    assert_clean(at)
    assert f"This game is partly analysed (the analysis left out {cut}: " in texts(at).replace("\\", "")
    # the entropy over the game: the stored information rows, at every informative record
    _, entropy = chart_with(at, "entropy")
    shown = {
        (o, s): h
        for o, s, h in zip(entropy["observer"].to_pylist(), entropy["seq"].to_pylist(), entropy["entropy"].to_pylist())
    }
    stored = sql(db, "SELECT observer, seq, entropy_after FROM information WHERE game_id = ?", [game_id])
    assert stored and all(
        math.isclose(shown[(o or "the table (a spectator)", s)], h, abs_tol=1e-12) for o, s, h in stored
    )
    # the suggestion at the cut keeps its expected gain; its review was left out, and it says so
    assert metrics(at)["Best available (bits)"] == "n/a"
    best = next(m for m in at.metric if m.label == "Best available (bits)")
    assert "left out, over the counting budget" in best.proto.help


def test_replay_of_a_game_stored_over_the_budget_does_not_count_it_again(over_budget, monkeypatch):
    from clue_stats.engine import deduction

    db, _, game_id = over_budget
    [(cut,)] = sql(db, "SELECT analysis_cut FROM games WHERE game_id = ?", [game_id])
    assert "every observer's information" in cut

    def counted(*args, **kwargs):
        raise AssertionError("the replay counted the entropy table again")

    monkeypatch.setattr(deduction, "entropy_table", counted)
    monkeypatch.setenv("CLUE_STATS_BUDGET_STATES", "1000")  # the notebook: counted under ingest's budget
    at = open_app(db, monkeypatch, "replay", game=game_id, seq="20")
    assert_clean(at)
    shown = texts(at).replace("\\", "")
    assert (
        "The uncertainty over the game (its entropy) was not computed: the game was stored over the counting budget"
        in shown
    )
    assert "This notebook was not counted: counting the deals generated more than the limit of 1,000 states" in shown
    assert "left out, over the counting budget" in shown  # when each player became certain, if it was cut


def test_suggestions_page_counts_the_games_the_budget_analysed_partly(over_budget, monkeypatch):
    db, _, _ = over_budget
    at = open_app(db, monkeypatch, "suggestions")
    assert_clean(at)
    shown = texts(at).replace("\\", "")
    assert "2 games are only partly analysed: the counting budget left part of the analysis out" in shown
    assert "await the review (stored with `--light`, or left out over the counting budget)" in shown
