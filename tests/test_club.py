"""Club nights (issue 24) on a club's database: the evening typed in the notation, a season of
hand-made games and a few simulated ones (tests/helpers.py club_db)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from clue_stats import pipeline
from clue_stats.analysis.corpus import league
from clue_stats.cli import app
from clue_stats.dashboard import pages
from clue_stats.dashboard.app_pages.tables import rows_html
from clue_stats.ingest import store
from tests.helpers import CLUB_GAMES, CLUB_NIGHT, ROOT, SEASON, club_db, html_column, write_games

runner = CliRunner()
APP = ROOT / "dashboard" / "app.py"


def open_page(db: Path, monkeypatch: pytest.MonkeyPatch, slug: str, **query: str) -> AppTest:
    """The app on ``db`` at the registered page ``slug``, no error shown."""
    monkeypatch.setenv("CLUE_STATS_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    if slug != pages.DEFAULT.slug:
        at.switch_page(pages.page(slug).file).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def texts(at: AppTest) -> str:
    parts = [*at.markdown, *at.caption, *at.info, *at.warning, *at.subheader, *at.title, *at.get("html")]
    return "\n".join(str(p.value) for p in parts)


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return club_db(tmp_path_factory.mktemp("club"))


def test_rows_show_every_column_whole_and_stack_on_a_phone() -> None:
    """The phone-friendly table: key columns first, every cell present with its header beside it (the
    stacked rows under 640 px), links as links, names from logs as text."""
    frame = pl.DataFrame(
        {
            "replay": ["replay?game=g&seq=4"],
            "played_at": ["2026-11-20"],
            "player": ["<b>Katrin</b>"],
            "suggestion": ["Lady Gloria, Dolch, Küche"],
            "bits_lost": [1.2345],
            "accuracy": [0.5],
        }
    )
    html = rows_html(frame, first=("player", "suggestion"), links={"replay": "open replay"})
    headers = re.findall(r"<th(?: [^>]*)?>(.*?)</th>", html)
    assert headers == ["player", "suggestion", "replay", "played on", "bits lost", "accuracy"]
    labels = re.findall(r'<td data-label="([^"]*)"', html)
    assert labels == headers  # each cell carries its header, shown beside it when rows stack
    # a name from a log is text (a path may break after a "/": the <wbr> is the only tag added)
    assert '<td data-label="player" class="cs-key">&lt;b&gt;Katrin&lt;/<wbr>b&gt;</td>' in html
    assert '<a href="replay?game=g&amp;seq=4" target="_self">open replay</a>' in html
    assert ">1.23</td>" in html and ">50.0%</td>" in html
    assert "@media (max-width: 640px)" in html and "content: attr(data-label)" in html


@pytest.mark.slow
def test_the_night_lists_its_games_in_played_order(club: Path, tmp_path: Path) -> None:
    """The issue's case: the first two games of the night have a time, the third only the date; it
    was listed first ("Game 1"). Played order keeps it third, in the report and in the ratings."""
    result = runner.invoke(
        app, ["report", "--night", CLUB_NIGHT, "--db", str(club), "--out", str(tmp_path / "n.html"), "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == CLUB_GAMES
    result = runner.invoke(app, ["report", "--night", CLUB_NIGHT, "--db", str(club), "--out", "-", "--format", "md"])
    assert result.exit_code == 0, result.output
    sections = re.findall(r"^## Game (\d): (\S+)$", result.output, re.M)
    assert [(int(n), g.replace("\\", "")) for n, g in sections] == list(enumerate(CLUB_GAMES, 1))


@pytest.mark.slow
def test_a_league_from_the_first_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One rated game is a league: every player in a table, by rating, each provisional, with the games
    it needs until it settles and the rating in words."""
    db = tmp_path / "one.duckdb"
    pipeline.ingest_paths([str(write_games(tmp_path / "one.jsonl", SEASON[:1]))], db, analyse=False, workers=1)
    at = open_page(db, monkeypatch, "players")
    assert "No league yet" not in texts(at)
    table = next(h.value for h in at.get("html") if 'data-label="player"' in h.value)
    with store.read_connection(db) as con:
        board = league.leaderboard(con, "people")
    assert html_column(table, "player") == board["player"].to_list() == ["Alice", "Bob", "Carol", "Dave"]  # Alice won
    ratings = [float(r) for r in html_column(table, "rating")]
    assert ratings == sorted(ratings, reverse=True)
    for row in board.iter_rows(named=True):
        assert row["skill"] == f"{row['mu']:.0f} ± {row['sigma']:.0f}"
        assert row["provisional"] and row["games_to_settle"] > 0
    assert html_column(table, "settled") == [f"provisional: about {n} more games" for n in board["games_to_settle"]]
    assert html_column(table, "skill ± uncertainty") == board["skill"].to_list()


def test_games_to_settle_counts_down_to_a_settled_rating() -> None:
    assert league.games_to_settle(league.SETTLED_SIGMA, 2) == 0
    assert league.settle_words(0) == "settled" and league.settle_words(1) == "provisional: about 1 more game"
    new = league.games_to_settle(25 / 3 - 1e-9, 2)
    assert 5 <= new <= 20  # about a dozen games at tables of three
    wider = [league.games_to_settle(s, 2) for s in (8.2, 7.5, 7.0, 6.5, 6.1)]
    assert wider == sorted(wider, reverse=True) and wider[-1] >= 1
    # the count is the model's: that many games of the kind assumed bring the uncertainty down to it
    curve = league._settling(2)
    assert curve[new] <= league.SETTLED_SIGMA < curve[new - 1]


def everything_shown(at: AppTest) -> str:
    """Every element of the page as text: its protobuf (charts' and tables' data included) and each
    table's cells."""
    parts: list[str] = []

    def walk(node) -> None:
        children = getattr(node, "children", None)
        if isinstance(children, dict):
            for child in children.values():
                walk(child)
            return
        parts.append(str(getattr(node, "proto", "")))
        if getattr(node, "type", "") in ("arrow_data_frame", "dataframe"):
            parts.append(str(node.value))

    walk(at.main)
    walk(at.sidebar)
    return "\n".join(parts)


@pytest.mark.slow
def test_after_a_merge_every_page_report_and_export_shows_the_person(
    club: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`players merge Katrin Kathrin`: no page (every registered one), neither report, `games` nor the
    pseudonymised export shows Kathrin; `unmerge` brings her back."""
    db = tmp_path / "merged.duckdb"
    db.write_bytes(club.read_bytes())
    second = CLUB_GAMES[1]  # Kathrin's game
    before = open_page(db, monkeypatch, "replay", game=second)
    assert "Kathrin" in everything_shown(before)  # the test can see the name where it is shown

    result = runner.invoke(app, ["players", "merge", "Katrin", "Kathrin", "--db", str(db)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["players", "--db", str(db), "--json"])
    assert json.loads(result.stdout)["likely_duplicates"] == []  # one person now: no hint
    for page in pages.PAGES:
        query = {"game": second} if page.slug == "replay" else {}
        at = open_page(db, monkeypatch, page.slug, **query)
        assert at.toggle(key="filter_all_kinds").value is False  # people's games, the club's
        shown = everything_shown(at)
        assert "Kathrin" not in shown, page.slug
    at = open_page(db, monkeypatch, "replay", game=second)
    assert "Katrin" in everything_shown(at)
    for args in (["report", second, "--format", "md"], ["report", "--night", CLUB_NIGHT, "--format", "md"]):
        result = runner.invoke(app, [*args, "--db", str(db), "--out", "-"])
        assert result.exit_code == 0 and "Katrin" in result.output and "Kathrin" not in result.output, args
    result = runner.invoke(app, ["games", "--db", str(db), "--json"])
    games = json.loads(result.stdout)["games"]
    assert any(g["winner"] == "Katrin" for g in games) and "Kathrin" not in result.stdout
    out = tmp_path / "export"
    result = runner.invoke(app, ["export", "--out", str(out), "--pseudonymise", "--format", "csv", "--db", str(db)])
    assert result.exit_code == 0, result.output
    players = pl.read_csv(out / "players.csv")
    club_seats = players.filter(pl.col("game_id").is_in(pl.read_csv(out / "games.csv")["game_id"].to_list()))
    with store.read_connection(db) as con:
        persons = con.execute("SELECT count(DISTINCT player) FROM ratings WHERE pool = 'people'").fetchall()[0][0]
        people_seats = con.execute(
            "SELECT count(DISTINCT name) FROM players p JOIN games g USING (game_id) WHERE g.kind = 'tabletop'"
        ).fetchall()[0][0]
    assert people_seats == persons + 1  # stored as written: Katrin and Kathrin
    pseudonyms = pl.read_csv(out / "games.csv").filter(pl.col("kind") == "tabletop")["game_id"]
    assert club_seats.filter(pl.col("game_id").is_in(pseudonyms.to_list()))["name"].n_unique() == persons

    result = runner.invoke(app, ["players", "unmerge", "Kathrin", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "Kathrin" in everything_shown(open_page(db, monkeypatch, "players"))
    result = runner.invoke(app, ["games", "--db", str(db), "--json"])
    assert any(g["winner"] == "Kathrin" for g in json.loads(result.stdout)["games"])


@pytest.mark.slow
def test_names_that_look_like_one_person_are_hinted(club: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Katrin and Kathrin (one letter apart, never at one table) are hinted in `players` and on the
    Players page, with the command that merges them; Ben and Bob (two letters of three) are not."""
    result = runner.invoke(app, ["players", "--db", str(club), "--json"])
    assert result.exit_code == 0, result.output
    hints = json.loads(result.stdout)["likely_duplicates"]
    assert [(h["keep"], h["other"], h["edits"]) for h in hints] == [("Kathrin", "Katrin", 1)]
    result = runner.invoke(app, ["players", "--db", str(club)])
    assert "Maybe one person: Kathrin and Katrin (1 letter apart, never at one table" in result.output
    assert "clue-stats players merge Kathrin Katrin" in result.output
    at = open_page(club, monkeypatch, "players")
    assert "Maybe one person: **Kathrin** and **Katrin**" in texts(at)
    assert "players merge Kathrin Katrin" in texts(at)


@pytest.mark.slow
def test_the_night_page_shows_the_latest_night_in_played_order(club: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Night page opens at the latest night, its games in played order (the undated third game
    third), the report's moments and each player's rating before and after; any night can be chosen."""
    at = open_page(club, monkeypatch, "night")
    assert at.selectbox(key="night_choice").value == CLUB_NIGHT
    games_table = at.get("html")[0].value
    assert [g for g in re.findall(r">(club-2026-11-20-\d)<", games_table)] == CLUB_GAMES
    shown = texts(at)
    with store.read_connection(club) as con:
        worst = con.execute(
            "SELECT s.player, s.bits_lost, s.label, e.line FROM suggestions s JOIN events e USING (game_id, seq) "
            "WHERE game_id IN (SELECT unnest(?)) ORDER BY bits_lost DESC, accuracy LIMIT 1",
            [CLUB_GAMES],
        ).fetchall()[0]
        jonas = con.execute(
            "SELECT arg_max(rating_after, game_index) FROM ratings WHERE player = 'Jonas' AND game_id IN (SELECT unnest(?))",
            [CLUB_GAMES],
        ).fetchall()[0][0]
    title = "Biggest blunder" if worst[2] == "blunder" else "Largest loss"
    assert f"**{title}**: {worst[0]} asked" in shown and f"{worst[1]:.2f} bits lost" in shown
    assert f"line {worst[3]} of its file" in shown
    players = at.get("html")[1].value
    assert re.search(rf"Jonas</td>.*?>{jonas:.1f} \(± ", players)
    # another night: the season's first, two games and the late one after midnight
    at.selectbox(key="night_choice").set_value("2026-09-04").run()
    assert [g for g in re.findall(r">(s\d\d)<", at.get("html")[0].value)] == ["s01", "s02"]
    at = open_page(club, monkeypatch, "night", night="2026-09-11")  # a link to a night
    assert at.selectbox(key="night_choice").value == "2026-09-11"


@pytest.mark.slow
def test_the_overview_starts_with_the_club(club: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Overview's first tables: the latest games, the last played first (the night's undated
    third game before its second), with winners, players, edition and a link; then the nights."""
    at = open_page(club, monkeypatch, "overview")
    first, nights = (h.value for h in at.get("html")[:2])
    assert [g for g in re.findall(r">(club-2026-11-20-\d|s\d\d)<", first)][:4] == [*reversed(CLUB_GAMES), "s13"]
    assert ">Cluedo (UK 2020)<" in first and ">Kathrin, Ben, Jonas<" in first
    assert 'href="replay?game=club-2026-11-20-3"' in first or 'href="review?game=club-2026-11-20-3"' in first
    assert html_column(nights, "night")[:2] == ["November 20, 2026", "October 16, 2026"]  # dates in words
    assert ">Jonas, Kathrin, Jonas<" in nights and f'href="night?night={CLUB_NIGHT}"' in nights
    # the counts come after the club's lines
    assert [s.value for s in at.subheader][:3] == ["Latest games", "Latest nights", "In numbers"]


@pytest.mark.slow
def test_a_page_per_person(club: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """?player=Jonas: his games, wins, rating, review accuracy (the leaderboard's), label counts (the
    stored labels), best and worst suggestions at the line of their file, head-to-head and games."""
    at = open_page(club, monkeypatch, "person", player="Jonas")
    assert at.selectbox(key="person_choice").value == "Jonas"
    with store.read_connection(club) as con:
        me = league.leaderboard(con, "people").filter(pl.col("player") == "Jonas").row(0, named=True)
        labels = dict(
            con.execute(
                "SELECT label, count(*) FROM suggestions WHERE player = 'Jonas' AND label IS NOT NULL "
                "AND game_id IN (SELECT unnest(?)) GROUP BY ALL",
                [CLUB_GAMES],
            ).fetchall()
        )
        lines = {
            r[0]
            for r in con.execute(
                "SELECT e.line FROM suggestions s JOIN events e USING (game_id, seq) WHERE s.player = 'Jonas' "
                "AND s.label IS NOT NULL"
            ).fetchall()
        }
    shown = {m.label: m.value for m in at.metric}
    assert shown["Games"] == "3" and shown["Wins"] == str(me["wins"]) and shown["Rating"] == f"{me['rating']:.1f}"
    assert shown["Review accuracy"] == f"{me['review_accuracy']:.0%}"
    charted = {}
    for element in at.get("vega_lite_chart"):
        for dataset in element.proto.datasets:
            table = pa.ipc.open_stream(dataset.data.data).read_all()
            if {"label", "suggestions"} <= set(table.column_names):
                charted.update(zip(table["label"].to_pylist(), table["suggestions"].to_pylist()))
    tables = [h.value for h in at.get("html") if "data-label" in h.value]  # (and the page's constant style)
    assert len(tables) == 4  # best, worst, head-to-head, games
    best_lines = {int(n) for n in re.findall(r'data-label="line in the file" class="cs-num">(\d+)<', tables[0])}
    assert best_lines and best_lines <= lines
    assert re.findall(r'data-label="opponent" class="cs-key">([^<]+)<', tables[2]) == [
        "Ben",
        "Mara",
        "Kathrin",
        "Katrin",
    ]
    assert len(re.findall(r">(club-2026-11-20-\d)<", tables[3])) == 3
    assert f"{me['skill']}" in texts(at)
    # the labels chart counts the stored labels
    assert charted == labels


@pytest.mark.slow
def test_the_replays_kept_warnings_are_said_in_the_readers_language(club: Path, monkeypatch) -> None:
    """A season game logged without hands keeps its no_deals warning; the replay lists it in German."""
    from tests.helpers import open_app

    at = open_app(club, monkeypatch, "replay", game="s01")
    next(s for s in at.sidebar.selectbox if s.key == "language").set_value("de").run()
    assert not at.exception
    shown = " ".join(str(v) for df in at.dataframe for v in df.value.to_numpy().ravel())
    assert "keine Hand ist protokolliert" in shown and "no hand is logged" not in shown


@pytest.mark.slow
def test_positions_say_how_many_games_logged_the_seat(club: Path, monkeypatch) -> None:
    """Of the club's nine 4-player games only the evening's logs say who sat where (the season's
    have no turn records): the page counts the nine and says that one of them tells the seats."""
    from tests.helpers import open_app

    at = open_app(club, monkeypatch, "positions")
    assert not at.exception
    said = " ".join(m.value for m in at.markdown)
    assert "at 4 players** (the 1st seat plays first): 9 games; the log of 1 of them says it" in said
