"""Every string a person reads passes here: :func:`_` for a sentence or a word, :func:`n_` for one
that depends on a count, :func:`decimal`, :func:`percent` and :func:`when` for numbers and dates,
each in the reader's language (English, German, Swedish: :data:`LANGUAGES`).

The words are gettext catalogues, one per language, inside the package
(``analysis/locale/<lang>/LC_MESSAGES/clue_stats.po``, compiled to ``.mo`` beside it; English is
the source text and has none); Babel writes numbers, dates and plural forms as each language does.
Sentences with values are written whole, with named fields
(``_("waited {turns} after being certain").format(turns=...)``, or
:func:`analysis.report.document.compose` where a field is a link), so a translation can move the values.
Never keep a translated string in a module-level constant: it would be in the language of the
moment the module was imported.

The language: :func:`set_language` (the CLI's ``--lang``, the dashboard's switch) for the running
thread, else ``CLUE_STATS_LANG``, else the system locale, else English (:func:`choose`). How to add a
language: docs/translating.md.
"""

from __future__ import annotations

import gettext
import json
import locale as system_locale
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clue_stats.engine.errors import UsageError, said_of
from clue_stats.engine.markers import MESSAGE_LIMIT, T_, Said
from clue_stats.engine.markers import (
    N_ as N_,  # the marker is engine.markers'; the display's words offer it with _ and n_
)
from clue_stats.engine.problems import Problem

if TYPE_CHECKING:
    from babel import Locale
    from babel.numbers import NumberPattern

DOMAIN = "clue_stats"
LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"  # analysis/locale, beside the rooms
SOURCE = "en"
LANGUAGES = {"en": "English", "de": "Deutsch", "sv": "Svenska"}  # code -> the language's own name
ENV = "CLUE_STATS_LANG"

_chosen: ContextVar[str | None] = ContextVar("clue_stats_language", default=None)


def known(code: str | None) -> str | None:
    """The language of a code as people and systems write it ("de", "de_DE.UTF-8", "sv-SE", "C"),
    if it is one of ours."""
    if not code:
        return None
    base = code.replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    return base if base in LANGUAGES else None


def _system() -> str | None:
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):  # as gettext reads them
        if os.environ.get(variable):
            return known(os.environ[variable])
    try:
        return known(system_locale.getlocale()[0])
    except ValueError:
        return None


def choose(explicit: str | None = None) -> str:
    """The language: ``explicit`` (``--lang``), else CLUE_STATS_LANG, else the system locale, else
    English. An explicit code that is not one of ours raises UsageError (a ValueError) naming the
    choices; a variable that is not is passed over."""
    if explicit is not None:
        found = known(explicit)
        if found is None:
            raise UsageError(
                T_(
                    "--lang must be one of {languages}, not {given}",
                    languages=", ".join(LANGUAGES),
                    given=repr(explicit),
                )
            )
        return found
    return _default(*(os.environ.get(v) for v in (ENV, "LC_ALL", "LC_MESSAGES", "LANG")))


@cache
def _default(*environment: str | None) -> str:
    """The language of the environment (its variables as the key: the system's locale is asked once)."""
    return known(environment[0]) or _system() or SOURCE


def language() -> str:
    """The language words are said in now."""
    return _chosen.get() or choose()


def set_language(code: str | None) -> str:
    """Say words in ``code`` from now on (in this thread; None: choose again); returns the language."""
    chosen = choose(code) if code is not None else None
    _chosen.set(chosen)
    return chosen or language()


@contextmanager
def speaking(code: str) -> Iterator[str]:
    """Words in ``code`` within the block."""
    token = _chosen.set(choose(code))
    try:
        yield _chosen.get() or SOURCE
    finally:
        _chosen.reset(token)


@cache
def catalogue(code: str) -> gettext.NullTranslations:
    """The compiled catalogue of a language (English: the source text itself)."""
    if code == SOURCE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, [code], fallback=True)


def _(text: str) -> str:
    """A string a person reads, in the reader's language."""
    return catalogue(language()).gettext(text)


def n_(count: int, one: str, many: str, **fields: object) -> str:
    """The count and its word in its right form: "1 game", "2 games", "1.007 Spiele" (``one`` and
    ``many`` hold ``{n}``, the count as the language writes it, and any other ``fields``)."""
    return catalogue(language()).ngettext(one, many, count).format(n=number(count), **fields)


def number(value: int) -> str:
    """A whole number: "1,007", "1.007", "1 007"."""
    return str(_pattern(language(), 0, False).apply(value, _locale(language())))


def decimal(value: float, places: int = 2) -> str:
    """A number with ``places`` decimals: "0.82", "0,82"."""
    return str(_pattern(language(), places, False).apply(value, _locale(language())))


def percent(value: float, places: int = 0) -> str:
    """A share as a percentage as the language writes it: "28%", "28 %", "99.5%", "99,5 %"."""
    return str(_pattern(language(), places, True).apply(value, _locale(language())))


def ordinal(count: int) -> str:
    """A place in an order as the language writes it: "1st", "2nd" (English), "1." (German), "1:a",
    "3:e" (Swedish); the form (Babel's ordinal plural rules) picks the message."""
    form = _locale(language()).ordinal_form(count)
    said = {"one": _("{n}st"), "two": _("{n}nd"), "few": _("{n}rd")}.get(form, _("{n}th"))
    return said.format(n=number(count))


def significant(value: float, digits: int = 3) -> str:
    """A number to ``digits`` significant digits, no trailing zeros: "0.000123", "12.3", "0,5"."""
    return str(_significant(digits).apply(value, _locale(language())))


@cache
def _significant(digits: int) -> NumberPattern:
    from babel.numbers import parse_pattern  # deferred: start-up (babel: numbers and dates, not the help)

    return parse_pattern("@" + "#" * (digits - 1))


@cache
def _locale(code: str) -> Locale:
    from babel import Locale  # deferred: start-up

    return Locale.parse(code)


@cache
def _pattern(code: str, places: int, share: bool) -> NumberPattern:
    """The parsed number pattern of a language (a report formats a number per cell: parsed once)."""
    from babel.numbers import parse_pattern  # deferred: start-up

    if not share:
        return parse_pattern("#,##0." + "0" * places if places else "#,##0")
    pattern = _locale(code).percent_formats[None].pattern
    if places:  # "#,##0 %" -> "#,##0.0 %"
        last = pattern.rfind("0") + 1
        pattern = pattern[:last] + "." + "0" * places + pattern[last:]
    return parse_pattern(pattern)


def when(text: str | None) -> str | None:
    """A date or a date and time of a log (ISO: "2026-09-04", "2026-09-04T20:00") as the reader's
    language writes it ("4. September 2026, 20:00"; in English "September 4, 2026, 8:00 PM"),
    through Babel in every language, never as the log's ISO with its "T"; text that is not ISO is
    kept as it is."""
    if not text:
        return text
    from babel.dates import format_date, format_time  # deferred: start-up

    try:
        if len(text) <= 10:
            return format_date(date.fromisoformat(text), "long", locale=language())
        moment = datetime.fromisoformat(text)
    except ValueError:
        return text
    return _("{date}, {time}").format(
        date=format_date(moment.date(), "long", locale=language()),
        time=format_time(moment.time(), "short", locale=language()),
    )


def label_word(label: str) -> str:
    """A suggestion's label (the stored id: best, good, inaccuracy, mistake, blunder) as a chess
    player of the language knows it."""
    words = {
        "best": _("best"),
        "good": _("good"),
        "inaccuracy": _("inaccuracy"),
        "mistake": _("mistake"),
        "blunder": _("blunder"),
    }
    return words.get(label, label)


def kind_words(kind: str) -> str:
    """A kind of game (ingest.kinds: tabletop, digital, contest, simulated) in the reader's language."""
    words = {
        "tabletop": _("people at a table"),
        "digital": _("people in a digital client"),
        "contest": _("bot contest"),
        "simulated": _("simulated"),
    }
    return words.get(kind, kind)


def variant_words(variant: str) -> str:
    """A variant of the rules (data/editions/variants.toml) in the reader's language."""
    words = {
        "standard": _("standard"),
        "traditional": _("traditional (no clue cards)"),
        "duel": _("duel"),
        "live": _("Cluedo live"),
        "speedclue": _("SpeedClue contest"),
    }
    return words.get(variant, variant)


def severity_words(severity: str) -> str:
    """A problem's severity (engine.problems) in the reader's language; its code stays as it is."""
    words = {"error": _("error"), "warning": _("warning")}
    return words.get(severity, severity)


def pool_words(pool: str) -> str:
    """A pool of the league (analysis.corpus.ratings.POOLS: people, bots, simulations) in the reader's language."""
    words = {"people": _("People"), "bots": _("Bots"), "simulations": _("Simulations")}
    return words.get(pool, pool)


def place_words(place: str) -> str:
    """Where a card can be that is not a player: the envelope, a duel's room cards (engine.deduction's
    places), in the reader's language; a player's name as it is."""
    words = {"envelope": _("envelope"), "room_cards": _("room cards")}
    return words.get(place, place)


def said(message: str, template: str | None = None, fields: str | dict[str, object] | None = None) -> str:
    """A problem's message in the reader's language: its template said (``_(template)``) with its
    values, as stored (``problems.template`` and ``problems.fields``, JSON) or as the engine made it;
    the English ``message`` where there is no template (or its translation does not fit its values).
    Cut as the English one is (MESSAGE_LIMIT)."""
    if template is None or language() == SOURCE:
        return message
    parts: dict[str, Any] = json.loads(fields) if isinstance(fields, str) else dict(fields or {})
    try:
        text = _phrase(template, parts)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return message
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + _("… (cut)")


def said_value(fields: str | dict[str, object] | None, name: str) -> str | None:
    """One value of a stored problem's message in the reader's language (a phrase said as
    :func:`said` says it): the "what" of an over_budget problem, "the review of the suggestions from
    line 14 (turn 3) to line 52 (turn 40)". None where the problem stored no such value."""
    parts: dict[str, Any] = json.loads(fields) if isinstance(fields, str) else dict(fields or {})
    value = (parts.get("values") or {}).get(name)
    if value is None:
        return None
    try:
        return _phrase(value["template"], value) if isinstance(value, dict) and "template" in value else str(value)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return None


def _phrase(template: str, parts: dict[str, Any]) -> str:
    """A template said with its values, a value that is a phrase of its own said the same way."""
    values = {
        str(k): (number(v["count"]) if "count" in v else _phrase(v["template"], v)) if isinstance(v, dict) else str(v)
        for k, v in (parts.get("values") or {}).items()
    }
    said = (
        _(template)
        if parts.get("plural") is None
        else catalogue(language()).ngettext(template, str(parts["plural"]), int(parts.get("count") or 0))
    )
    return str(parts.get("head") or "") + said.format_map(values) + str(parts.get("tail") or "")


def error_message(exc: BaseException) -> str:
    """An error's message in the reader's language: its template and values where it has them
    (``exc.said``: a UsageError written with ``T_``, an unknown name, a budget), else its English."""
    found = said_of(exc)
    return said(str(exc), found.template, found.parts()) if isinstance(found, Said) else found


def problem_message(p: Problem) -> str:
    """The problem's message in the reader's language (the code and the values stay as they are)."""
    return p.message if p.said is None else said(p.message, p.said.template, p.said.parts())


def problem_line(p: Problem) -> str:
    """``file:line[:col]: code: message``, the message in the reader's language."""
    return f"{p.where}: {p.code}: {problem_message(p)}"


def problem_layout(p: Problem) -> tuple[str, str]:
    """:func:`problem_line` as (the message, its layout): the layout is the lines of our own after it
    (the notation's line, its control characters already escaped, and the caret under the problem),
    which a terminal prints as lines; the message is text from the input, printed escaped."""
    text = problem_line(p)
    tail = p.said.tail if p.said is not None else ""
    if tail and text.endswith(tail):
        return text[: -len(tail)], tail
    return text, ""
