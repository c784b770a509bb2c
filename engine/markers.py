"""The translation markers, at the bottom of the program: every layer may import this module, and it
imports nothing of the program (tests/test_layers.py checks both).

`make catalogues` extracts what they mark (docs/translating.md): :func:`T_` marks a message made
where no language is known yet (the engine's and the readers' problems, said later by the display
layer as ``_(template)``), with its values; :func:`N_` marks a text kept in English and said later
(a column's header, a label); :func:`nT_` marks a message made there that depends on a count. Saying a text in the reader's language is analysis.words' ``_`` and
``n_``, which read the catalogues.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

MESSAGE_LIMIT = 1000  # characters of a message; the rest becomes "… (cut)" (engine.problems)


def N_(text: str) -> str:
    """A text marked for the catalogue but said later: where it is shown, ``_(text)`` says it in the
    reader's language (a value computed before the language is known, kept in English)."""
    return text


class Count(int):
    """A count in a message ("and {more} more"): English writes it "4,990", each language its way."""


@dataclass(frozen=True)
class Said:
    """A message as its template and its values, so that a reader can have it in their language: the
    template is English with named fields, marked for the catalogues by :func:`T_`; the values
    (names, cards, quoted input, numbers) are never translated. ``head`` and ``tail`` are said as they
    are in every language: the rule's code before a finding, the notation's line and its caret after.
    ``str()`` is the English message, the one stored in ``message``."""

    template: str
    # a value may be a count (written as the reader's language writes numbers) or a phrase of its
    # own, said as a template
    fields: tuple[tuple[str, str | Count | Said], ...] = ()
    head: str = ""
    tail: str = ""
    # a message that depends on a count (:func:`nT_`): its plural template, said for any count but one
    # in English (each language picks its own form of the two from the count)
    plural: str | None = None
    count: int | None = None

    def values(self) -> dict[str, str]:
        """The values in English (a phrase said as its English, a count as "4,990")."""
        return {name: f"{value:,}" if isinstance(value, Count) else str(value) for name, value in self.fields}

    def parts(self) -> dict[str, object]:
        """The template's values, head and tail as JSON holds them (a phrase as its own template and
        values), for the store and the display layer."""
        values = {name: value.parts() | {"template": value.template} if isinstance(value, Said)
                  else {"count": int(value)} if isinstance(value, Count) else value
                  for name, value in self.fields}  # fmt: skip
        parts: dict[str, object] = {"values": values, "head": self.head, "tail": self.tail}
        if self.plural is not None:  # a counted message (nT_): its plural and its count
            parts |= {"plural": self.plural, "count": self.count}
        return parts

    def __str__(self) -> str:
        english = self.template if self.plural is None or self.count == 1 else self.plural
        return self.head + english.format_map(self.values()) + self.tail

    def followed_by(self, tail: str) -> Said:
        return replace(self, tail=self.tail + tail)


def T_(template: str, **fields: object) -> Said:
    """A problem's message: its English template, with named fields (``T_("{player} accuses twice",
    player=name)``), and the values; a value that is itself a phrase to translate is a ``T_`` too
    (``hint=T_(" (did you mean {name}?)", name=...)``). The marker `make catalogues` extracts from engine/ and ingest/
    (which have no catalogue of their own: the display layer says ``_(template)``). A count is given
    as a :class:`Count`, so that each language writes it its way (a line number is not a count)."""
    # a value longer than a whole message is cut there: the message is cut there anyway (MESSAGE_LIMIT)
    return Said(
        template,
        tuple(
            (name, value if isinstance(value, (Said, Count)) else str(value)[: MESSAGE_LIMIT + 1])
            for name, value in fields.items()
        ),
    )


def nT_(count: int, one: str, many: str, **fields: object) -> Said:
    """A problem's message that depends on a count, as ``n_`` says one: the English templates of one
    and of many (``nT_(len(seats), "seat {missing} is given no hand", "seats {missing} are given no
    hand", missing=...)``), the count (also the field ``{n}``) and the values; each language says it in
    the form its plural rules pick for the count. The marker `make catalogues` extracts as a plural."""
    said = T_(one, n=Count(count), **fields)
    return replace(said, plural=many, count=count)
