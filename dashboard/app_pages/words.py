"""Text the pages show: test results in words, and safe Markdown (records in words are
:mod:`analysis.record_words`, shared with the report).

Names and notes come from game logs, which anyone can write, so they are never trusted as Markdown
or HTML: :func:`md` escapes every character Markdown (and Streamlit's own ``:color[...]`` and
``$...$`` extensions) would act on, and the pages pass user text through it or through elements that
show text only (dataframes, st.text, st.code).
"""

from __future__ import annotations

import math
import re
from typing import Any

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
