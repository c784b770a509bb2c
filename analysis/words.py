"""Every string a person reads passes here: :func:`_` for a sentence or a word, :func:`n_` for one
that depends on a count. Today they return the English text; a translation (a gettext catalogue)
plugs in here and nowhere else. Sentences with values are written whole, with named fields
(``_("waited {turns} after being certain").format(turns=...)``, or
:func:`analysis.document.compose` where a field is a link), so a translator can move the values."""

from __future__ import annotations


def _(text: str) -> str:
    """A string a person reads, in the reader's language."""
    return text


def n_(count: int, one: str, many: str) -> str:
    """The count and its word in its right form: "1 game", "2 games" (``one`` and ``many`` hold
    ``{n}``)."""
    return (one if count == 1 else many).format(n=count)
