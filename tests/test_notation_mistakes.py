"""Games typed at the table with the mistakes people make: each is reported with its line, column and
a caret, and the line fixed as the message says makes the game one that is stored."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from clue_stats.engine.rules import validate
from clue_stats.ingest import cluelog, notation
from clue_stats.pipeline import ingest_paths
from tests.helpers import raw_games

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "notation"
SAMPLES = Path(__file__).resolve().parents[1] / "data" / "samples"

# fixture -> (code, line, column, the text under the caret, words of the message, the fix: old line -> new line)
MISTAKES = {
    "misspelt-card.clue": (
        "unknown_card",
        14,
        14,
        "Pisotle",
        ["unknown weapon 'Pisotle'", "did you mean 'Pistole'"],
        ("Cleo: Gloria Pisotle Bibliothek", "Cleo: Gloria Pistole Bibliothek"),
    ),
    "forgotten-responder.clue": (
        "response_order",
        12,
        33,
        "Dirk",
        ["Cleo sits between Ben and Dirk", "write '/ Cleo -' before Dirk"],
        ("Ben: Grün Dolch Arbeitszimmer / Dirk ?", "Ben: Grün Dolch Arbeitszimmer / Cleo - / Dirk ?"),
    ),
    "shown-after-pass.clue": (
        "passed_holding",
        13,
        39,
        "Arbeitszimmer",
        ["Ben has Arbeitszimmer here", "passed on line 9"],
        # it was Dirk, not Ben, who showed the Arbeitszimmer: Ben passed and Cleo too
        (
            "Anna: Gatow Dolch Arbeitszimmer / Ben Arbeitszimmer",
            "Anna: Gatow Dolch Arbeitszimmer / Ben - / Cleo - / Dirk Arbeitszimmer",
        ),
    ),
}


def read_fixture(name: str, text: str | None = None) -> list:
    text = (FIXTURES / name).read_text(encoding="utf-8") if text is None else text
    result = notation.read(text, name)
    assert not result.problems
    return result.games


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_the_mistake_is_reported_at_its_line_and_column_with_a_caret(name: str) -> None:
    code, line, column, under, words, _ = MISTAKES[name]
    (raw,) = read_fixture(name)
    (problem,) = raw.problems
    assert (problem.code, problem.line, problem.column, problem.source_file) == (code, line, column, name)
    head, shown, caret = problem.message.split("\n")
    assert all(w in head for w in words)
    text_line = (FIXTURES / name).read_text(encoding="utf-8").splitlines()[line - 1]
    assert shown == "    " + text_line
    start = caret.index("^")
    assert caret[start:] == "^" * len(under) and shown[start : start + len(under)] == under
    assert str(problem).startswith(f"{name}:{line}:{column}: {code}: {head}")
    game, problems = cluelog.build_game(raw)
    assert game is None and problems == [problem]


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_the_line_fixed_as_the_message_says_gives_a_valid_game(name: str) -> None:
    old, new = MISTAKES[name][-1]
    text = (FIXTURES / name).read_text(encoding="utf-8")
    assert text.count(old) == 1
    (raw,) = read_fixture(name, text.replace(old, new))
    assert raw.problems == []
    game, problems = cluelog.build_game(raw)
    assert game is not None and problems == []
    assert [p for p in validate(game).problems if p.is_error] == []


def test_every_mistake_of_a_noisy_evening_is_reported_together() -> None:
    first, second = read_fixture("several-mistakes.clue")
    assert [(p.code, p.line) for p in first.problems] == [
        ("unknown_player", 8),
        ("bad_notation", 9),
        ("bad_notation", 10),
        ("missing_responses", 11),
        ("after_shown", 12),
    ]
    messages = [p.message for p in first.problems]
    assert "did you mean 'Ben'" in messages[0]
    assert "'Ro' could be Heizungsrohr (as 'rohr'), Seil (as 'rope') or Rohrzange" in messages[1]
    assert "':' for a suggestion" in messages[2]
    assert "add '/ Cleo -'" in messages[3]
    assert "remove '/ Anna ...'" in messages[4]
    # an unreadable line keeps its place (the deal is seq 1), so every problem names its record's seq
    assert [p.seq for p in first.problems] == [2, 3, 4, 5, 6]
    assert [(p.code, p.line) for p in second.problems] == [("unknown_edition", 18)]
    assert "did you mean 'de-2023'" in second.problems[0].message


def test_a_shown_card_in_the_writers_own_hand_and_a_card_in_two_hands() -> None:
    text = (
        "edition de-2023\nplayers Anna, Ben, Cleo\nnotebook Anna\nAnna has Seil Halle Bloom Küche Pistole Salon\n"
        "Anna: Grün Seil Musik / Ben Seil\n"  # line 5: Anna holds the Seil herself
        "Anna: Grün Dolch Musik / Ben Dolch\n"
        "Anna: Weiß Dolch Biblio / Ben - / Cleo Dolch\n"  # line 7: Ben passes on the Dolch he showed; Cleo shows it
        "Cleo: Bloom Pistole Halle / Anna - / Ben -\n"  # line 8: Anna passes holding all three
        "Ben: Weiß Seil Salon / Cleo - / Anna ?\n"
    )
    (raw,) = read_fixture("t.clue", text)
    assert [(p.code, p.line) for p in raw.problems] == [
        ("card_twice", 5),
        ("passed_holding", 7),
        ("card_twice", 7),
        ("passed_holding", 8),
    ]
    assert "Seil is with Ben here, but was dealt to Anna on line 4" in raw.problems[0].message
    assert "Ben passes, but holds Dolch (shown by Ben on line 6)" in raw.problems[1].message
    assert "Dolch is with Cleo here, but was shown by Ben on line 6" in raw.problems[2].message
    assert "Anna passes, but holds Professor Bloom (dealt to Anna on line 4)" in raw.problems[3].message


def test_a_card_shown_by_someone_who_cannot_hold_any_of_the_three() -> None:
    text = (
        "edition de-2023\nplayers Anna, Ben, Cleo\nnotebook Anna\n"
        "Anna: Porz Dolch Salon / Ben - / Cleo ?\n"
        "Cleo: Porz Dolch Salon / Anna - / Ben ?\n"
    )
    (raw,) = read_fixture("t.clue", text)
    assert [(p.code, p.line) for p in raw.problems] == [("shown_not_held", 5)]
    assert (
        "Ben shows a card, but holds none of Anwältin Porz (passed on line 4), Dolch (passed on line 4) and Salon (passed on line 4)"
        in raw.problems[0].message
    )


def test_a_line_holding_only_a_time_is_a_problem_of_its_line() -> None:
    # found by `make fuzz`: the time of a record typed without the record
    text = "edition de-2023\nplayers Anna, Ben, Cleo\nnotebook Anna\n@19:42\nAnna: Porz Dolch Salon / Ben - / Cleo ?  @19:45\n"
    (raw,) = read_fixture("t.clue", text)
    [problem] = raw.problems
    assert (problem.code, problem.line) == ("bad_notation", 4)
    assert "a record starts with a player's name" in problem.message


@pytest.mark.slow
def test_ingest_stores_the_good_games_and_rejects_the_mistaken_ones(tmp_path: Path) -> None:
    folder = tmp_path / "notebooks"
    shutil.copytree(FIXTURES, folder)
    summary = ingest_paths([str(folder)], tmp_path / "clue.duckdb", analyse=False, workers=1)
    # five good games (club-night holds two); five games with mistakes (several-mistakes holds two)
    assert (summary.games_stored, summary.games_rejected) == (5, 5)
    assert {(Path(p.source_file).name, p.line) for p in summary.problems if p.is_error} >= {
        ("misspelt-card.clue", 14),
        ("forgotten-responder.clue", 12),
        ("shown-after-pass.clue", 13),
    }


@pytest.mark.slow
def test_the_german_sample_and_its_twin_are_stored_once(tmp_path: Path) -> None:
    for name in ("de-2023-anna-notebook.jsonl", "de-2023-anna-notebook.clue"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    summary = ingest_paths(
        [str(tmp_path / "de-2023-anna-notebook.jsonl"), str(tmp_path / "de-2023-anna-notebook.clue")],
        tmp_path / "clue.duckdb",
        analyse=False,
        workers=1,
    )
    assert (summary.games_stored, summary.games_skipped, summary.games_rejected) == (1, 1, 0)


# ---------------------------------------------------------------- through the real command


@pytest.mark.slow
def test_convert_turns_the_notation_into_clue_log_and_back(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from clue_stats.cli import app

    runner = CliRunner()
    twin, jsonl = SAMPLES / "de-2023-anna-notebook.clue", SAMPLES / "de-2023-anna-notebook.jsonl"
    expected = cluelog.write_game(cluelog.build_game(raw_games(jsonl)[0])[0])
    as_log = runner.invoke(app, ["convert", str(twin)])
    assert as_log.exit_code == 0, as_log.output
    assert as_log.stdout == expected
    as_notation = runner.invoke(app, ["convert", str(jsonl), "--to", "notation", "--out", str(tmp_path / "again.clue")])
    assert as_notation.exit_code == 0, as_notation.output
    back = runner.invoke(app, ["convert", str(tmp_path / "again.clue")])
    assert back.exit_code == 0 and back.stdout == expected


def test_convert_shows_the_mistake_with_its_caret_and_exits_3() -> None:
    from typer.testing import CliRunner

    from clue_stats.cli import app

    result = CliRunner().invoke(app, ["convert", str(FIXTURES / "misspelt-card.clue")])
    assert result.exit_code == 3
    assert "misspelt-card.clue:14:14: unknown_card: unknown weapon 'Pisotle' (did you mean 'Pistole'?)" in result.stderr
    assert "    Cleo: Gloria Pisotle Bibliothek / Anna Pistole\n                 ^^^^^^^" in result.stderr


LAYOUT_GAME = "edition classic\nplayers Anna, Ben, Cleo\nAnna: Peacok Rope Library / Cleo ?\n"
# each problem: its line, then the notation's line indented by four, then the caret under the fault
LAYOUT_EXPECTED = [
    "t.clue:3:7: unknown_card: unknown suspect 'Peacok' (did you mean 'Mrs Peacock'?)",
    "    Anna: Peacok Rope Library / Cleo ?",
    "          ^^^^^^",
    "t.clue:3:29: response_order: Ben sits between Anna and Cleo and answers first: write '/ Ben -' before "
    "Cleo if Ben passed",
    "    Anna: Peacok Rope Library / Cleo ?",
    "                                ^^^^",
]


def test_a_lines_problems_are_printed_in_lines_with_the_caret_under_each_fault_through_a_pipe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The unknown card does not hide the forgotten answer of the same line; each message is its own
    line with the notation's line and a caret below it, no literal backslash-n."""
    from typer.testing import CliRunner

    from clue_stats.cli import app

    (tmp_path / "t.clue").write_text(LAYOUT_GAME)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["validate", "t.clue"])
    assert result.exit_code == 3
    assert "\\n" not in result.stderr
    assert result.stderr.splitlines()[:6] == LAYOUT_EXPECTED


@pytest.mark.slow
def test_the_same_layout_on_a_terminal(tmp_path: Path) -> None:
    """The installed command on a pseudo-terminal (as a person runs it): the same lines, no literal \\n."""
    import os
    import pty
    import subprocess
    import sys

    (tmp_path / "t.clue").write_text(LAYOUT_GAME)
    leader, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "clue_stats", "validate", "t.clue"],
        cwd=tmp_path, stdin=follower, stdout=follower, stderr=follower, env=env,
    )  # fmt: skip
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed: the command is done
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert proc.wait(timeout=60) == 3
    shown = b"".join(chunks).decode().replace("\r\n", "\n")
    # as the terminal shows it: the live progress line is drawn and erased by control sequences
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown)
    assert "\\n" not in shown
    lines = shown.splitlines()
    start = lines.index(LAYOUT_EXPECTED[0])
    assert lines[start : start + 6] == LAYOUT_EXPECTED


def test_a_control_character_in_the_line_is_escaped_and_the_caret_still_under_the_fault() -> None:
    text = "edition classic\nplayers Anna, 漢字, Cleo\n漢字: Peacok Rope Library / Cleo - / Anna ? # \x1b[2J\n"
    [game] = notation.read(text, "t.clue").games
    [problem] = game.problems
    _, shown, caret = problem.message.split("\n")
    assert "\x1b" not in shown and shown.endswith("# \\x1b[2J")
    # the two wide characters take two columns each on a terminal: the caret is two places further right
    assert caret == " " * (shown.index("Peacok") + 2) + "^" * len("Peacok")
