"""The arena (clue_stats.arena, docs/arena.md): SpeedClue's protocol as the contest's server speaks it,
over TCP and JSON lines, with bots written for the tests (tests/fixtures/arena/bot.py) that play by
the rules or break one; every game stored and reviewed; no bot left behind."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from clue_stats.arena import protocol, referee
from clue_stats.arena.builtin import BuiltinSeat
from clue_stats.arena.protocol import Message
from clue_stats.arena.seats import BUILTIN, Entrant, Listener
from clue_stats.arena.tournament import contest_schedule, read_launch_file
from clue_stats.cli import app

ROOT = Path(__file__).resolve().parents[1]
TRANSCRIPT = ROOT.parent / "shared" / "external" / "speedclue-pyport" / "pyport-3p-1.txt"
BOT = ROOT / "tests" / "fixtures" / "arena" / "bot.py"
DOC = ROOT / "docs" / "arena.md"
MESSAGE = re.compile(r"\s*(?P<name>\S.*?) (?P<way>=<<|>>=) \[(?P<text>[^\[\]]*)\]")
runner = CliRunner()


def _form(text: str) -> str:
    """A message's shape: its verb, then N for a number, C for a card code, the rest as written."""
    verb, *words = text.split()
    return " ".join([verb, *("N" if w.isdigit() else "C" if w in protocol.CARD_OF_CODE else w for w in words)])


def _transcript() -> list[tuple[str, str, str]]:
    if not TRANSCRIPT.is_file():
        pytest.skip("the SpeedClue transcript (../shared/external) is not here")
    return [
        (m.group("name"), m.group("way"), m.group("text"))
        for line in TRANSCRIPT.read_text().splitlines()
        for m in MESSAGE.finditer(line)
    ]


class _Logged(BuiltinSeat):
    """A built-in seat that keeps every message the referee sends it."""

    def __init__(self, name: str, spec: str = "notebook"):
        super().__init__(Entrant(name, BUILTIN, spec), seed=name)
        self.heard: list[Message] = []

    async def ask(self, message: Message, timeout: float) -> Message:
        self.heard.append(message)
        return await super().ask(message, timeout)


def _play(seats: list, seed: str = "1") -> referee.Played:
    header = {"type": "game", "format": "clue-log/1", "edition": "us-classic", "variant": "speedclue",
              "players": [{"name": s.name, "strategy": s.name} for s in seats]}  # fmt: skip
    return asyncio.run(referee.play(seats, referee.Deal.of(len(seats), seed), 5.0, header))


def test_the_messages_the_arena_sends_have_the_forms_the_contests_server_sent():
    sent_there = {_form(text) for _, way, text in _transcript() if way == "=<<"}
    seats = [_Logged("A"), _Logged("B"), _Logged("C", "random")]
    played = _play(seats)
    assert played.winner is not None
    sent_here = {_form(m.text) for s in seats for m in s.heard}
    # the transcript's games all ended with a right accusation; a wrong one ends in '-' (the spec's table)
    assert sent_here - sent_there <= {"accusation N C C C -"}
    assert {f.split()[0] for f in sent_here} == {f.split()[0] for f in sent_there}
    # a suggestion's card goes to the suggester and the shower only, as in the transcript
    for seat_index, seat in enumerate(seats):
        for m in seat.heard:
            if m.verb == "suggestion" and m.words[4] != "-":
                sees = str(seat_index) in (m.words[0], m.words[4])
                assert (len(m.words) == 6) == sees, m


def test_the_transcript_tells_the_card_to_the_suggester_and_the_shower_only():
    # the rule the arena follows, read from the contest's own server
    seat_of = {}
    for name, way, text in _transcript():
        words = text.split()
        if way == "=<<" and words[0] == "reset":
            seat_of[name] = words[2]
        if way == "=<<" and words[0] == "suggestion" and words[5] != "-":
            assert (len(words) == 7) == (seat_of[name] in (words[1], words[5])), text


def test_every_answer_of_the_transcripts_bots_is_read_by_the_arena():
    answers = [text for _, way, text in _transcript() if way == ">>="]
    assert answers
    for text in answers:
        message = protocol.parse_text(text)
        assert message.verb in ("ok", "suggest", "show", "-", "accuse", "dead")
        if message.verb in ("suggest", "accuse"):
            protocol.triple_of(message, "a test")
        if message.verb == "show":
            assert protocol.card_of(message.words[0]) is not None


def test_json_lines_carry_the_same_messages():
    cards = ("plum", "rope", "hall")
    assert json.loads(protocol.to_json(protocol.suggestion(2, cards, 3, "rope"))) == {
        "type": "suggestion", "player": 2, "suspect": "Pl", "weapon": "Ro", "room": "Ha", "disprover": 3, "card": "Ro",
    }  # fmt: skip
    assert json.loads(protocol.to_json(protocol.suggestion(2, cards, None, None)))["disprover"] is None
    assert json.loads(protocol.to_json(protocol.reset(4, 1, ("green", "dagger")))) == {
        "type": "reset", "players": 4, "seat": 1, "cards": ["Gr", "Kn"],
    }  # fmt: skip
    assert json.loads(protocol.to_json(protocol.accusation(0, cards, False)))["correct"] is False
    assert protocol.from_json('{"type": "pass"}') == Message("-")
    assert protocol.from_json('{"type":"show","card":"Ro"}') == Message("show", ("Ro",))
    assert protocol.from_json('{"type":"suggest","suspect":"Pl","weapon":"Ro","room":"Ha"}').text == "suggest Pl Ro Ha"
    for bad in ("hello", "[1]", '{"type": "suggest"}', '{"type": "fly"}'):
        with pytest.raises(protocol.BadMessage):
            protocol.from_json(bad)


def test_a_suggestion_of_the_wrong_kinds_of_card_is_garbage():
    with pytest.raises(protocol.BadMessage):
        protocol.triple_of(Message("suggest", ("Kn", "Gr", "Co")), "a test")
    with pytest.raises(protocol.BadMessage):
        protocol.triple_of(Message("suggest", ("Gr", "Kn")), "a test")


def test_the_launch_file_is_read_with_its_bad_lines_named(tmp_path):
    launch = tmp_path / "agentLaunch.txt"
    launch.write_text(
        "java -jar randomAI.jar {Random} %%\n"
        "# a comment\n"
        "python ai01.py Ray %%\n"
        "json: python mine.py {Mine}\n"
        "builtin:notebook\n"
        "builtin:entropy:0.5 {Greedy}\n"
        "builtin:chess\n"
        "python other.py {Random} %%\n"
        "python noport.py {NoPort}\n"
    )
    entrants, problems = read_launch_file(launch)
    assert [(e.name, e.transport) for e in entrants] == [
        ("Random", "tcp"), ("Mine", "json"), ("notebook", "builtin"), ("Greedy", "builtin"),
    ]  # fmt: skip
    assert entrants[0].arguments(4242) == ["java", "-jar", "randomAI.jar", "Random", "4242"]
    assert [p.line for p in problems] == [3, 7, 8, 9]
    assert "chess" in problems[1].message and "line 1" in problems[2].message


def test_the_contests_schedule_seats_every_group_in_every_order():
    schedule = contest_schedule(4, [3, 4], rounds=2)
    assert len(schedule) == 2 * (4 * 3 * 2 + 4 * 3 * 2 * 1)
    assert len(set(schedule)) == len(schedule) // 2


def _launch(tmp_path: Path, *lines: str) -> Path:
    launch = tmp_path / "launch.txt"
    launch.write_text("".join(line + "\n" for line in lines))
    return launch


def _bot(mode: str, name: str, json_lines: bool = False) -> str:
    if json_lines:
        return f"json: {sys.executable} {BOT} {mode} --json {{{name}}}"
    return f"{sys.executable} {BOT} {mode} {{{name}}} %%"


def _arena(tmp_path: Path, launch: Path, *options: str) -> dict:
    result = runner.invoke(
        app, ["arena", str(launch), "--db", str(tmp_path / "arena.duckdb"), "--json", *options], catch_exceptions=False
    )
    assert result.exit_code in (0, 3), result.output
    return json.loads(result.stdout)


def _findings(db: Path) -> list[tuple[str, str, str]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(
            "SELECT e.player, p.code, p.message FROM problems p JOIN events e ON e.game_id = p.game_id AND e.seq = p.seq "
            "WHERE p.code = 'rule_break' ORDER BY p.game_id, p.seq"
        ).fetchall()


@pytest.mark.slow
def test_a_well_behaved_bot_plays_a_whole_game_over_tcp(tmp_path):
    launch = _launch(tmp_path, _bot("good", "Good"), "builtin:notebook", "builtin:random")
    result = _arena(tmp_path, launch, "--games", "2", "--players", "3", "--seed", "5")
    assert (result["played"], result["stored"], result["rejected"]) == (2, 2, 0)
    assert _findings(tmp_path / "arena.duckdb") == []
    assert {row["program"] for row in result["leaderboard"]} == {"Good", "notebook", "random"}


BREAKS = [
    ("liar", "bad_show"),
    ("repeat", "repeat_suggestion"),
    ("garbage", "garbage"),
    ("crash", "crashed"),
    ("slow", "timeout"),
    ("silent", "never_alive"),
]


@pytest.mark.slow
@pytest.mark.parametrize("json_lines", [False, True], ids=["tcp", "json"])
@pytest.mark.parametrize(("mode", "code"), BREAKS, ids=[m for m, _ in BREAKS])
def test_a_bot_that_breaks_a_rule_is_taken_out_and_the_game_goes_on(tmp_path, mode, code, json_lines):
    # Bad's neighbour on the left holds cards it is asked for: two built-ins that suggest, a good bot
    launch = _launch(tmp_path, _bot(mode, "Bad", json_lines), _bot("good", "Good", json_lines), "builtin:notebook")
    result = _arena(tmp_path, launch, "--games", "3", "--players", "3", "--seed", "11", "--timeout", "1.5",
                    "--out", str(tmp_path / "logs"))  # fmt: skip
    assert (result["played"], result["stored"], result["rejected"]) == (3, 3, 0)
    findings = _findings(tmp_path / "arena.duckdb")
    assert findings, "the rule break is stored with the game"
    assert {player for player, _, _ in findings} == {"Bad"}
    assert all(message.startswith(f"{code}: Bad ") for _, _, message in findings), findings
    # the games went on to their end without Bad: each is a whole game with a winner or a last one standing
    for log in sorted((tmp_path / "logs").glob("*.jsonl")):
        records = [json.loads(line) for line in log.read_text().splitlines()]
        assert records[-1]["type"] == "end"
        assert not any(r["type"] in ("suggest", "accuse") and r["player"] == "Bad" for r in records[-5:])
    board = {row["program"]: row for row in result["leaderboard"]}
    assert board["Bad"]["rule_breaks"] >= 1 and board["Good"]["rule_breaks"] == 0


def _doc_bot(tmp_path: Path) -> Path:
    code = re.search(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert code is not None
    path = tmp_path / "simple_bot.py"
    path.write_text(code.group(1))
    return path


def test_the_bot_of_the_documentation_plays_by_the_rules(tmp_path):
    bot = _doc_bot(tmp_path)
    assert 25 <= len(bot.read_text().splitlines()) <= 40
    launch = _launch(tmp_path, f"{sys.executable} {bot} {{Simple}} %%", "builtin:notebook", "builtin:random")
    result = _arena(tmp_path, launch, "--rounds", "1", "--players", "3", "--seed", "3")
    assert (result["played"], result["stored"], result["rejected"]) == (6, 6, 0)
    assert _findings(tmp_path / "arena.duckdb") == []


def test_a_tournament_is_stored_reviewed_and_its_leaderboard_is_the_stores(tmp_path):
    from clue_stats.analysis.corpus.arena import arena_leaderboard, pairwise
    from clue_stats.ingest import store

    launch = _launch(tmp_path, "builtin:notebook", "builtin:random", "builtin:bluffer", "builtin:notebook:0.3 {Bold}")
    db = tmp_path / "arena.duckdb"
    result = _arena(tmp_path, launch, "--games", "8", "--players", "3..4", "--seed", "9", "--jobs", "3")
    assert result["stored"] == 8
    with store.read_connection(db) as con:
        board = arena_leaderboard(con, result["tournament"])
        pairs = pairwise(con, result["tournament"])
    assert board.to_dicts() == result["leaderboard"]
    with duckdb.connect(str(db), read_only=True) as con:
        kinds = con.execute("SELECT DISTINCT kind FROM games").fetchall()
        seats = con.execute("SELECT count(*) FROM players").fetchone()[0]
        reviewed = con.execute("SELECT count(*) FROM suggestions WHERE best_gain_bits IS NOT NULL").fetchone()[0]
        suggestions = con.execute("SELECT count(*) FROM suggestions").fetchone()[0]
        wins = con.execute("SELECT count(*) FROM games WHERE winner IS NOT NULL").fetchone()[0]
    assert kinds == [("contest",)]
    assert sum(row["games"] for row in board.to_dicts()) == seats
    assert sum(row["wins"] for row in board.to_dicts()) == wins
    assert reviewed == suggestions > 0
    assert set(pairs["player"].to_list()) == set(board["program"].to_list())
    # `clue-stats agents` reads the same figures from the store (a program's strategy is its name)
    agents = runner.invoke(app, ["agents", "--db", str(db), "--json"], catch_exceptions=False)
    by_agent = {row["agent"]: row for row in json.loads(agents.stdout)["agents"]}
    for row in board.to_dicts():
        theirs = by_agent[row["program"]]
        for column in ("player_games", "review_accuracy", "unsure_accusations", "missed_wins", "rule_breaks"):
            assert theirs[column] == row[column], (row["program"], column)


@pytest.mark.slow
def test_the_same_seed_deals_the_same_cards(tmp_path):
    launch = _launch(tmp_path, "builtin:notebook", "builtin:random", "builtin:bluffer")
    hands = []
    for run in ("a", "b"):
        logs = tmp_path / run
        _arena(tmp_path, launch, "--games", "2", "--players", "3", "--seed", "42", "--out", str(logs))
        hands.append(
            [
                [json.loads(line) for line in log.read_text().splitlines() if '"deal"' in line]
                for log in sorted(logs.glob("*.jsonl"))
            ]
        )
    assert hands[0] == hands[1]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is gone for good (its parent has not collected it yet)
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["kill", "term"])
def test_no_bot_outlives_the_arena(tmp_path, how):
    pids = tmp_path / "pids"
    pids.mkdir()
    launch = _launch(tmp_path, _bot("family", "A"), _bot("family", "B"), _bot("slow", "C"), "builtin:notebook")
    env = {**os.environ, "ARENA_TEST_PIDS": str(pids)}
    arena = subprocess.Popen(
        [sys.executable, "-m", "clue_stats", "arena", str(launch), "--db", str(tmp_path / "a.duckdb"),
         "--games", "50", "--players", "4", "--jobs", "2", "--timeout", "30"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while len(list(pids.iterdir())) < 5 and time.monotonic() < deadline:
        time.sleep(0.2)
    started = [int(p.name) for p in pids.iterdir()]
    assert len(started) >= 5, "the bots and their children started"
    arena.send_signal(how)
    arena.wait(timeout=30)
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert [pid for pid in started if _alive(pid)] == []


def test_a_seat_given_no_listener_port_still_plays_builtin():
    # a game of built-ins needs no socket at all: the listener opens, no bot connects
    seats = [_Logged("A"), _Logged("B"), _Logged("C")]
    played = _play(seats, seed="7")
    assert played.records[0]["type"] == "game" and played.records[-1]["type"] == "end"
    assert Listener(1.0).port is None


def test_the_arena_report_is_written_in_the_readers_language(tmp_path):
    launch = _launch(tmp_path, "builtin:notebook", "builtin:random", "builtin:bluffer")
    report = tmp_path / "arena.html"
    result = runner.invoke(
        app,
        ["--lang", "de", "arena", str(launch), "--db", str(tmp_path / "a.duckdb"), "--games", "3",
         "--players", "3", "--seed", "4", "--report", str(report)],
        catch_exceptions=False,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    page = report.read_text()
    assert '<html lang="de">' in page
    for words in ("Rangliste", "Jedes Programm gegen jedes andere", "Regelverstöße", "Kein Programm hat eine Regel"):
        assert words in page
    assert "Leaderboard" not in page and "Each program" not in page
    for program in ("notebook", "random", "bluffer"):
        assert re.search(rf"<td[^>]*>{program}</td>", page), program
    assert "Rangliste" in result.stdout  # the terminal's table too


class _Coy(_Logged):
    """Never accuses."""

    async def ask(self, message: Message, timeout: float) -> Message:
        answer = await super().ask(message, timeout)
        return Message("-") if message.verb == "accuse" else answer


class _Reckless(_Logged):
    """Accuses at its first chance, naming a card of its own hand."""

    async def ask(self, message: Message, timeout: float) -> Message:
        answer = await super().ask(message, timeout)
        if message.verb != "accuse":
            return answer
        hand = self.bot.hand
        d = protocol.deck()
        pick = [next((c for c in d.of(cat) if c in hand), d.of(cat)[0]) for cat in protocol.CATEGORIES]
        return Message("accuse", protocol.codes((pick[0], pick[1], pick[2])))


def _findings_of(played: referee.Played) -> list[tuple[str, str, str]]:
    return [(played.records[p.seq]["type"], played.records[p.seq]["player"], p.message) for p in played.findings]


def test_a_bot_that_does_not_accuse_when_nobody_could_answer_is_taken_out():
    for seed in range(40):
        played = _play([_Coy("Coy"), _Logged("B"), _Logged("C")], seed=str(seed))
        found = _findings_of(played)
        if found:
            break
    assert found, "in 40 deals the coy bot once made a suggestion nobody could answer"
    [(record_type, player, message)] = found
    assert (record_type, player) == ("suggest", "Coy") and message.startswith("missed_accusation: Coy ")
    assert played.removed == {"Coy": "missed_accusation"} and played.records[-1]["type"] == "end"


def test_a_suicidal_accusation_is_a_wrong_one_and_a_rule_break():
    played = _play([_Reckless("Rash"), _Logged("B"), _Logged("C")], seed="3")
    [(record_type, player, message)] = _findings_of(played)
    assert (record_type, player) == ("accuse", "Rash") and message.startswith("suicidal_accusation: Rash ")
    accusation = next(r for r in played.records if r["type"] == "accuse")
    assert accusation["player"] == "Rash" and accusation["correct"] is False
    assert played.winner in ("B", "C")


def test_the_arena_listens_on_the_loopback_only():
    async def address() -> str:
        listener = Listener(1.0)
        await listener.open()
        host = listener.server.sockets[0].getsockname()[0]
        await listener.close()
        return host

    assert asyncio.run(address()) == "127.0.0.1"
