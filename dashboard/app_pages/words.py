"""Text the pages show: records in words, test results in words, and safe Markdown.

Names and notes come from game logs, which anyone can write, so they are never trusted as Markdown
or HTML: :func:`md` escapes every character Markdown (and Streamlit's own ``:color[...]`` and
``$...$`` extensions) would act on, and the pages pass user text through it or through elements that
show text only (dataframes, st.text, st.code).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from clue_stats.engine.game import UNSEEN

ALPHA = 0.05  # the level at which a test's result is called a finding

_MARKDOWN_SPECIAL = set("\\`*_{}[]()#+-.!|<>~$:&=\"'^")


# Streamlit's Markdown turns bare addresses into links (GFM's autolink literals: http://, https://,
# ftp://, mailto:, xmpp:, www., a@b.c) after escapes are read, so a backslash cannot stop it; a word
# joiner (U+2060, invisible, no width) between the scheme and its colon, after "www" and after "@"
# does, and the text still reads the same.
WORD_JOINER = "\u2060"
_AUTOLINK = re.compile(r"(?i)(?:https?|ftp|mailto|xmpp)(?=:)|www(?=\.)|@")


def md(text: Any) -> str:
    """``text`` as Markdown that renders exactly as the text (no links, HTML, emphasis, colour, maths)."""
    out = []
    for ch in _AUTOLINK.sub(lambda m: m.group(0) + WORD_JOINER, str(text)):
        if ch in _MARKDOWN_SPECIAL:
            out.append("\\" + ch)
        elif ch in "\r\n":
            out.append(" ")  # a newline could start a heading or a list inside the surrounding text
        else:
            out.append(ch)
    return "".join(out)


def _list(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def describe(payload: dict[str, Any], name: Callable[[str], str]) -> str:
    """One record in words (plain text), with cards by their display names."""
    kind = payload.get("type", "?")
    who = payload.get("player")

    def card(value: Any) -> str:
        return "an unseen card" if value == UNSEEN else name(str(value))

    if kind == "game":
        players = [p.get("name", "?") for p in payload.get("players", [])]
        return f"the game begins: {len(players)} players ({', '.join(players)})"
    if kind == "deal":
        return f"{who} is dealt {_list([card(c) for c in payload.get('cards', [])]) or 'no cards'}"
    if kind == "room_cards":
        return f"room cards laid out in {_list([name(r) for r in payload.get('rooms', [])])}"
    if kind == "turn":
        roll = payload.get("roll")
        return f"{who}'s turn" + (f" (rolls {' and '.join(str(d) for d in roll)})" if roll else "")
    if kind == "move":
        to = payload.get("to")
        where = name(to) if isinstance(to, str) else f"square {to}"
        via = payload.get("via")
        return f"{who} moves to {where}" + (f" ({via})" if via else "")
    if kind == "peek":
        seen = payload.get("card")
        return f"{who} peeks at the room card in {name(str(payload.get('room')))}" + (f": {card(seen)}" if seen else "")
    if kind == "suggest":
        text = f"{who} suggests {name(payload['suspect'])} with {name(payload['weapon'])} in {name(payload['room'])}"
        answers = []
        for r in payload.get("responses", []):
            shows = r.get("shows")
            answers.append(f"{r.get('player')} passes" if shows is None else f"{r.get('player')} shows {card(shows)}")
        if not answers or all(r.get("shows") is None for r in payload.get("responses", [])):
            answers.append("nobody shows a card")
        return text + "; " + "; ".join(answers)
    if kind == "reveal":
        owner = payload.get("player")
        to = payload.get("to")
        audience = "everyone" if to == "all" else _list([str(t) for t in to or []])
        whose = f"{owner}'s card" if owner else "a card in nobody's hand"
        return f"{whose} {card(payload.get('card'))} is revealed to {audience}"
    if kind == "clue_card":
        return f"{who} draws a clue card: {payload.get('text', '')}"
    if kind == "accuse":
        correct = payload.get("correct")
        verdict = " (correct)" if correct is True else " (wrong)" if correct is False else ""
        return f"{who} accuses {name(payload['suspect'])} with {name(payload['weapon'])} in {name(payload['room'])}{verdict}"
    if kind == "end":
        winner = payload.get("winner")
        solution = payload.get("solution")
        text = "the game ends: " + (f"{winner} wins" if winner else "nobody wins")
        if isinstance(solution, dict):
            text += f"; it was {name(solution['suspect'])} with {name(solution['weapon'])} in {name(solution['room'])}"
        return text
    if str(kind).startswith("x-"):
        return f"{kind} record"  # an extension record: its fields are its writer's
    raise ValueError(f"a {kind!r} record is not clue-log/1")  # stored games are checked: never reached


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def percent(value: float | None, digits: int = 0) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{100 * value:.{digits}f} %"


def p_text(p: float | None) -> str:
    if p is None or math.isnan(p):
        return "p not defined"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def seat_test_words(games_won: int, n_players: int, chi2: float | None, df: int, p: float | None) -> str:
    """The chi-square test of "no seat effect" in a sentence a player can read."""
    if not games_won or p is None or math.isnan(p):
        return f"No test at {n_players} players: no game with a winner and a known turn order."
    stats = f"chi-square {chi2:.2f} with {plural(df, 'degree')} of freedom, {p_text(p)}, over {plural(games_won, 'game')} won"
    if p < ALPHA:
        return (
            f"At {n_players} players the seat in turn order matters: wins are spread over the seats "
            f"more unevenly than chance explains ({stats})."
        )
    return (
        f"At {n_players} players no seat effect is found: the wins per seat are as even as chance "
        f"would leave them ({stats})."
    )


def cells_words(effects: list[dict[str, Any]], dimension: str, label: str) -> str:
    """The per-cell exact binomial tests in a sentence; the level is Bonferroni-corrected for the
    number of cells tested, since with many characters one of them is "significant" by chance."""
    tested = [e for e in effects if e.get("p_value") is not None and not math.isnan(e["p_value"])]
    if not tested:
        return f"No {label} could be tested (no games with a winner)."
    level = ALPHA / len(tested)
    low = min(tested, key=lambda e: e["p_value"])
    which = f"{label} {low[dimension]}"
    rate = f"wins {percent(low['win_rate'])} of {plural(int(low['games']), 'game')} against {percent(low['expected_rate'])} expected"
    if low["p_value"] < level:
        return (
            f"{which.capitalize()} differs from the rate expected with no effect: it {rate} "
            f"({p_text(low['p_value'])}, below {level:.4f}, the 5 % level shared over {len(tested)} cells)."
        )
    return (
        f"No {label} differs from the rate expected with no effect: the strongest difference, "
        f"{which}, {rate} ({p_text(low['p_value'])}; the 5 % level shared over {len(tested)} cells is {level:.4f})."
    )
