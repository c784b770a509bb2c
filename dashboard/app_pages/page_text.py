"""Text the pages show: test results in words, and safe Markdown (records in words are
:mod:`analysis.words.records`, shared with the report).

Names and notes come from game logs, which anyone can write, so they are never trusted as Markdown
or HTML: :func:`md` escapes every character Markdown (and Streamlit's own ``:color[...]`` and
``$...$`` extensions) would act on, and the pages pass user text through it or through elements that
show text only (dataframes, st.text, st.code).
"""

from __future__ import annotations

import math
import re
from typing import Any

from clue_stats.analysis.words import _, decimal, n_, number
from clue_stats.analysis.words import percent as share

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
        return _("p not defined")
    if p < 0.001:
        return _("p < {p}").format(p=decimal(0.001, 3))
    return _("p = {p}").format(p=decimal(p, 3))


def seat_test_words(games_won: int, n_players: int, chi2: float | None, df: int, p: float | None) -> str:
    """The chi-square test of "no seat effect" in a sentence a player can read."""
    if not games_won or p is None or math.isnan(p) or chi2 is None:
        return _("No test at {players} players: no game with a winner and a known turn order.").format(
            players=number(n_players)
        )
    stats = n_(
        df,
        "chi-square {chi2} with {n} degree of freedom, {p}, over {games} won",
        "chi-square {chi2} with {n} degrees of freedom, {p}, over {games} won",
        chi2=decimal(chi2),
        p=p_text(p),
        games=n_(games_won, "{n} game", "{n} games"),
    )
    if p < ALPHA:
        return _(
            "At {players} players the seat in turn order matters: wins are spread over the seats "
            "more unevenly than chance explains ({stats})."
        ).format(players=number(n_players), stats=stats)
    return _(
        "At {players} players no seat effect is found: the wins per seat are as even as chance "
        "would leave them ({stats})."
    ).format(players=number(n_players), stats=stats)


def cells_words(effects: list[dict[str, Any]], dimension: str, label: str) -> str:
    """The per-cell exact binomial tests in a sentence; the level is Bonferroni-corrected for the
    number of cells tested, since with many characters one of them is "significant" by chance.
    ``label`` is the dimension's word in the reader's language ("character")."""
    tested = [e for e in effects if e.get("p_value") is not None and not math.isnan(e["p_value"])]
    if not tested:
        said = _("No {label} could be tested (no games with a winner).").format(label=label)
        return said[:1].upper() + said[1:]  # a translation may open with the label
    level = ALPHA / len(tested)
    low = min(tested, key=lambda e: e["p_value"])
    which = _("{label} {value}").format(label=label, value=low[dimension])
    rate = _("wins {rate} of {games} against {expected} expected").format(
        rate=share(low["win_rate"]),
        games=n_(int(low["games"]), "{n} game", "{n} games"),
        expected=share(low["expected_rate"]),
    )
    fields = {"rate": rate, "p": p_text(low["p_value"]), "level": decimal(level, 4), "cells": number(len(tested))}
    if low["p_value"] < level:
        return _(
            "{which} differs from the rate expected with no effect: it {rate} ({p}, below {level}, the level of "
            "5 %, shared over {cells} cells)."
        ).format(which=which[:1].upper() + which[1:], **fields)
    said = _(
        "No {label} differs from the rate expected with no effect: the strongest difference, {which}, {rate} "
        "({p}; the level of 5 %, shared over {cells} cells, is {level})."
    ).format(label=label, which=which, **fields)
    return said[:1].upper() + said[1:]  # a translation may open with the label
