"""JSON read strictly: only values that can be stored and written back as JSON are accepted.

Python's reader accepts what JSON does not (NaN, Infinity), keeps the last of two equal keys without
a word, turns ``1e999`` into infinity, refuses integers of more than 4,300 digits with a plain
ValueError, and lets ``"\\ud800"`` (half of a UTF-16 pair) through as a string that no UTF-8 encoder
will write. :func:`loads` turns each of these into a :class:`RefusedJson` carrying a problem code
and a message, so a reader reports it as a problem of its line and goes on.
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any

# Python refuses to turn longer digit strings into integers (CVE-2020-10735); we say so as a problem.
MAX_DIGITS = sys.get_int_max_str_digits() or 4300


class RefusedJson(ValueError):
    """Text that is not JSON, or JSON holding a value that cannot be stored."""

    def __init__(self, code: str, message: str, column: int | None = None):
        super().__init__(message)
        self.code, self.message, self.column = code, message, column  # column: 1-based, when known


def _constant(name: str) -> Any:
    raise RefusedJson("bad_value", f"{name} is not a JSON value (only finite numbers are)")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise RefusedJson("bad_value", f"the number {_shorten(text)} is out of range")
    return value


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise RefusedJson("bad_value", f"a number of {digits:,} digits (at most {MAX_DIGITS:,} are read)")
    return int(text)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    record = dict(pairs)
    if len(record) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise RefusedJson("duplicate_key", f"the key {json.dumps(_shorten(key))} appears twice in one object")
            seen.add(key)
    return record


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def lone_surrogate(value: Any) -> str | None:
    """A description of the first string (key or value) holding half of a UTF-16 pair, or None."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            texts: list[str] = [item]
        elif isinstance(item, dict):
            texts = list(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
            continue
        else:
            continue
        for text in texts:
            try:
                text.encode("utf-8")
            except UnicodeEncodeError as exc:
                return f"the string {json.dumps(_shorten(text))} holds a lone surrogate (\\u{ord(text[exc.start]):04x}), which is not text"
    return None


# made once: json.loads with options makes a new decoder (and its scanner) at every call
_DECODER = json.JSONDecoder(parse_constant=_constant, parse_float=_float, parse_int=_int, object_pairs_hook=_object)


def loads(text: str) -> Any:
    """The JSON value of ``text``; :class:`RefusedJson` (code ``bad_json``, ``bad_value`` or
    ``duplicate_key``) for anything that is not JSON or could not be stored as it was read."""
    try:
        if text.startswith("\ufeff"):  # as json.loads says it (the decoder itself does not look)
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        value = _DECODER.decode(text)
    except RefusedJson:
        raise
    except json.JSONDecodeError as exc:
        raise RefusedJson("bad_json", f"not JSON: {exc.msg}", column=exc.colno) from None
    except RecursionError:
        raise RefusedJson("bad_json", "not JSON: nested too deeply") from None
    except ValueError as exc:  # any other value Python's reader refuses
        raise RefusedJson("bad_value", str(exc)) from None
    if "\\u" in text:  # only an escape can make a lone surrogate out of UTF-8 text
        found = lone_surrogate(value)
        if found is not None:
            raise RefusedJson("bad_value", found)
    return value
