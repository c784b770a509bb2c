"""Stage 1 of the notation reader: one line of text into tokens that remember their columns.

Every later stage reports a problem by pointing at tokens, so a token keeps where it stood in the
line; :func:`pointer` turns such a place into the message a person at the table can act on (the
column, the line, and a caret under the problem).

Lexical rules (docs/notation.md, "Writing names"):

- words are separated by spaces; ``/`` always separates (``Salon/Ben -`` is three tokens and a
  separator), so answers may be typed without spaces;
- ``"..."`` is one token whatever it holds (JSON escapes: ``\\"``, ``\\\\``, ``\\n``);
- ``#`` at the start of the line or after a space begins the comment, which is the record's note;
  ``Raum#2`` is a plain word;
- a word starting with ``@`` (or ``@"..."``) at the end of the line is the record's time ``t``.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from clue_stats.engine.errors import InputError
from clue_stats.engine.markers import T_, Said

_DECODER = json.JSONDecoder(strict=False)  # a tab typed inside quotes is kept, not refused


@dataclass(frozen=True)
class Token:
    text: str
    start: int  # 0-based column of its first character
    end: int  # 0-based column just after it
    quoted: bool = False
    sep: bool = False  # a "/"

    def is_word(self, *words: str) -> bool:
        """An unquoted word equal (case folded) to one of ``words``."""
        return not self.quoted and not self.sep and self.text.casefold() in words


@dataclass(frozen=True)
class Line:
    number: int  # 1-based line number in the file
    raw: str  # the line without its ending
    tokens: tuple[Token, ...]
    note: str | None = None  # the comment after "#"
    time: str | None = None  # the "@..." token
    content_end: int = 0  # where the record's text ends (before the time and the comment)

    @property
    def blank(self) -> bool:
        """Nothing but spaces or a comment: not a record."""
        return not self.tokens and self.time is None


class NotationError(InputError):
    """Internal: a problem at a place of a line; the reader turns it into a Problem."""

    def __init__(self, code: str, what: str | Said, start: int, end: int):
        super().__init__(str(what))
        self.code, self.what, self.start, self.end = code, what, start, end
        # the line's other problems, found after this one (a line is fixed in one round, not two)
        self.others: list[NotationError] = []
        # what could be read of the record despite the problems (a suggestion's answers), for the
        # checks that do not need what was wrong (the order of the answers): set by the parser
        self.partial: Any = None

    def every(self) -> list[NotationError]:
        """This problem and the line's others, in the order of their columns."""
        return sorted([self, *self.others], key=lambda e: e.start)

    @classmethod
    def all_of(cls, errors: Sequence[NotationError], partial: Any = None) -> NotationError:
        """The first of a line's problems, carrying the rest."""
        first = min(errors, key=lambda e: e.start)
        first.others = [e for e in errors if e is not first]
        first.partial = partial
        return first

    @classmethod
    def at(cls, code: str, what: str | Said, *tokens: Token) -> NotationError:
        """At the given tokens; at the start of the line when there are none (a line holding only
        a time, say)."""
        if not tokens:
            return cls(code, what, 0, 0)
        return cls(code, what, tokens[0].start, tokens[-1].end)


def _shown(ch: str) -> str:
    """A character of the quoted line as a terminal may show it: a control character (or a
    bidirectional override, a line separator) escaped (``\\x1b``), never sent raw; a tab kept."""
    if ch != "\t" and (
        unicodedata.category(ch) in ("Cc", "Zl", "Zp") or "\u202a" <= ch <= "\u202e" or "\u2066" <= ch <= "\u2069"
    ):
        return ascii(ch)[1:-1]
    return ch


def _under(ch: str) -> str:
    """What stands under a shown character so that the caret keeps its column: a tab under a tab,
    two spaces under a wide character (CJK), nothing under a combining mark."""
    if ch == "\t":
        return "\t"
    if len(ch) > 1:  # an escaped control character
        return " " * len(ch)
    if unicodedata.combining(ch):
        return ""
    return "  " if unicodedata.east_asian_width(ch) in ("W", "F") else " " * len(ch)


def pointer(raw: str, start: int, end: int, what: str | Said) -> str | Said:
    """``what`` then the line and a caret under columns start..end (the column is the problem's own);
    of a message said as a template, the line and the caret are its tail (the same in every language).
    The tail is two lines of our own (the line as shown, control characters escaped, and the caret),
    so that a terminal prints them as lines and the caret stands under the problem."""
    start = max(0, min(start, len(raw)))
    end = max(start + 1, end)
    shown = [_shown(ch) for ch in raw]
    pad = "".join(_under(ch) for ch in shown[:start])
    width = max(1, len("".join(_under(ch) for ch in shown[start:end])))
    tail = f"\n    {''.join(shown)}\n    {pad}{'^' * width}"
    return what.followed_by(tail) if isinstance(what, Said) else Said("{message}", (("message", what),), tail=tail)


def _string(raw: str, i: int) -> tuple[str, int]:
    """The quoted string starting at raw[i] == '"': (its text, the column after it)."""
    j = i + 1
    while j < len(raw):
        if raw[j] == "\\":
            j += 2
            continue
        if raw[j] == '"':
            try:
                value, _ = _DECODER.raw_decode(raw[i : j + 1])
            except json.JSONDecodeError as exc:
                raise NotationError("bad_notation", T_("bad escape in quotes: {msg}", msg=exc.msg), i, j + 1) from None
            return value, j + 1
        j += 1
    raise NotationError("bad_notation", T_('the quote opened here is not closed: add a closing "'), i, len(raw))


def note_text(text: str) -> str:
    """A comment as a note: trimmed, or decoded when it is one quoted string (notes with line breaks)."""
    text = text.strip()
    if text.startswith('"'):
        try:
            value, end = _DECODER.raw_decode(text)
        except json.JSONDecodeError:
            return text
        if end == len(text) and isinstance(value, str):
            return value
    return text


def lex(number: int, raw: str) -> Line:
    """Tokens, note and time of one line; raises :class:`NotationError` for an open quote."""
    tokens: list[Token] = []
    times: list[int] = []  # indices of "@..." tokens
    note: str | None = None
    content_end = len(raw)
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch.isspace():
            i += 1
        elif ch == "#" and (i == 0 or raw[i - 1].isspace()):
            note = note_text(raw[i + 1 :])
            content_end = i
            break
        elif ch == '"':
            text, j = _string(raw, i)
            tokens.append(Token(text, i, j, quoted=True))
            i = j
        elif ch == "@" and i + 1 < len(raw) and raw[i + 1] == '"':
            text, j = _string(raw, i + 1)
            times.append(len(tokens))
            tokens.append(Token(text, i, j, quoted=True))
            i = j
        elif ch == "/":
            tokens.append(Token("/", i, i + 1, sep=True))
            i += 1
        else:
            j = i
            while j < len(raw) and not raw[j].isspace() and raw[j] not in '"/':
                j += 1
            if raw[i] == "@" and j > i + 1:
                times.append(len(tokens))
                tokens.append(Token(raw[i + 1 : j], i, j))
            else:
                tokens.append(Token(raw[i:j], i, j))
            i = j
    time: str | None = None
    if times:
        if times != [len(tokens) - 1]:
            first = tokens[times[0]]
            raise NotationError.at(
                "bad_notation", T_("the time (@...) goes once, at the end of the line (before any # comment)"), first
            )
        time = tokens[-1].text
        content_end = tokens[-1].start
        tokens.pop()
    return Line(number, raw, tuple(tokens), note, time, content_end)


def split_words(tokens: Sequence[Token], marks: str) -> list[Token]:
    """Unquoted words cut at each of ``marks`` (kept as one-character tokens): ``Anna=Gloria,``."""
    out: list[Token] = []
    for t in tokens:
        if t.quoted or t.sep:
            out.append(t)
            continue
        start = 0
        for k, ch in enumerate(t.text):
            if ch in marks:
                if k > start:
                    out.append(Token(t.text[start:k], t.start + start, t.start + k))
                out.append(Token(ch, t.start + k, t.start + k + 1))
                start = k + 1
        if start < len(t.text):
            out.append(Token(t.text[start:], t.start + start, t.end))
    return out
