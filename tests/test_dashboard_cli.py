"""`clue-stats dashboard` (launch, address, settings) and the pages' text helpers.

The command is started for real, with a real server and browser, in test_browser.py; here are the
parts that need neither: the Streamlit command line, the project's Streamlit settings, a port in use,
and the words and Markdown escaping every page relies on (records in words: test_record_words.py).
"""

from __future__ import annotations

import re
import socket
import tomllib

from hypothesis import given
from hypothesis import strategies as hs
from typer.testing import CliRunner

from clue_stats.cli import app
from clue_stats.commands import dashboard as command
from clue_stats.dashboard.app_pages import page_text
from tests.helpers import ROOT

runner = CliRunner()


def test_streamlit_is_started_headless_local_and_without_usage_statistics(tmp_path):
    cmd = command.streamlit_command(tmp_path / "x.duckdb", 8600)
    flags = dict(zip(cmd[5::2], cmd[6::2]))
    assert cmd[1:4] == ["-m", "streamlit", "run"] and cmd[4] == str(ROOT / "dashboard" / "app.py")
    assert flags["--server.headless"] == "true"
    assert flags["--browser.gatherUsageStats"] == "false"
    assert flags["--server.address"] == "127.0.0.1"
    assert flags["--server.port"] == "8600"
    assert cmd[-3:] == ["--", "--db", str(tmp_path / "x.duckdb")]
    assert (
        dict(zip(*[iter(command.streamlit_command(tmp_path / "x.duckdb", 1, "0.0.0.0")[5:])] * 2))["--server.address"]
        == "0.0.0.0"
    )


def test_the_projects_streamlit_settings_keep_it_local_and_quiet():
    # Streamlit reads the .streamlit folder beside the main script, whatever the working directory
    settings = tomllib.loads((ROOT / "dashboard" / ".streamlit" / "config.toml").read_text())
    assert settings["browser"]["gatherUsageStats"] is False
    assert settings["server"]["address"] == "127.0.0.1"
    assert settings["server"]["headless"] is True
    assert settings["client"]["showErrorDetails"] == "none"


def test_a_port_in_use_is_a_message_and_exit_1(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = runner.invoke(app, ["dashboard", "--db", str(tmp_path / "x.duckdb"), "--port", str(port)])
    assert result.exit_code == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.output
    assert "no database at" in result.output  # and the missing database is mentioned, not fatal
    assert "Traceback" not in result.output


def test_the_command_is_listed_and_documented():
    result = runner.invoke(app, ["--help"])
    assert "dashboard" in result.output
    doc = (ROOT / "docs" / "dashboard.md").read_text()
    assert "clue-stats dashboard" in doc and "--port" in doc and "--address" in doc


# ---------------------------------------------------------------- words


@given(hs.text())
def test_md_escapes_every_markdown_character(text):
    escaped = page_text.md(text)
    # read back as Markdown reads escapes: the text returns (newlines become spaces), and no
    # character that Markdown or Streamlit acts on is left bare
    unescaped, i = [], 0
    while i < len(escaped):
        if escaped[i] == "\\":
            unescaped.append(escaped[i + 1])
            i += 2
        else:
            assert escaped[i] not in "<>[]()*_`$:#|!~&=", escaped
            unescaped.append(escaped[i])
            i += 1
    shown = "".join(unescaped)
    # bare addresses are broken by an invisible word joiner, so Markdown makes no link of them
    assert not re.search(r"(?i)(https?|ftp|mailto|xmpp):|www\.|@[\w-]", shown)
    expected = text.replace("\r", " ").replace("\n", " ").replace(page_text.WORD_JOINER, "")
    assert shown.replace(page_text.WORD_JOINER, "") == expected


def test_tests_in_words():
    assert "no seat effect is found" in page_text.seat_test_words(120, 4, 2.5, 3, 0.47)
    assert "the seat in turn order matters" in page_text.seat_test_words(120, 4, 14.2, 3, 0.0026)
    assert "over 1 game won" in page_text.seat_test_words(1, 2, 1.0, 1, 0.32)
    assert page_text.seat_test_words(0, 3, float("nan"), 2, float("nan")).startswith("No test at 3 players")
    cells = [
        {"character": "plum", "games": 100, "win_rate": 0.40, "expected_rate": 0.25, "p_value": 0.001},
        {"character": "green", "games": 100, "win_rate": 0.22, "expected_rate": 0.25, "p_value": 0.5},
    ]
    found = page_text.cells_words(cells, "character", "character")
    assert found.startswith("Character plum differs") and "0.0250" in found  # 0.05 shared over 2 cells
    cells[0]["p_value"] = 0.04  # below 0.05, but not below 0.05 / 2
    assert page_text.cells_words(cells, "character", "character").startswith("No character differs")
