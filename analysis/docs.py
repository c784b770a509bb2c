"""The user's documentation as topics: the Markdown files of docs/, which travel in the wheel as the
package ``clue_stats.docs``, so `clue-stats docs TOPIC` and the dashboard's Help page show what an
installed tool's user needs without a clone or a web page.

A topic is a file's name without ``.md`` (``league`` is docs/league.md); its title is the file's
first heading. Links between the files (``[labels](analysis.md#labels)``) are kept as written in the
Markdown and turned into the reader's own links by :func:`relink`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import files

from clue_stats.engine.errors import UsageError

PACKAGE = "clue_stats.docs"

# The order a user reads them in: writing games down, getting them in, what is computed and shown,
# then the reference and the measurements. A file not named here comes after, by name.
READING_ORDER = (
    "event-format",
    "notation",
    "importers",
    "analysis",
    "dashboard",
    "report",
    "league",
    "problems",
    "board",
    "strategies",
    "deduction",
    "performance",
    "findings",
)

# A Markdown link to another file of docs/: [text](name.md) or [text](name.md#anchor)
_LINK = re.compile(r"\]\((?P<name>[a-z0-9-]+)\.md(?P<anchor>#[^)\s]*)?\)")


@dataclass(frozen=True)
class Topic:
    name: str  # the file's name without .md: what `clue-stats docs NAME` takes
    title: str  # the file's first heading
    text: str  # the Markdown


def _title(text: str, name: str) -> str:
    for line in text.splitlines():
        if line.startswith("# "):
            return line[2:].strip().replace("`", "")
    return name


def topics() -> list[Topic]:
    """Every topic, in reading order."""
    found = {}
    for f in files(PACKAGE).iterdir():
        if f.name.endswith(".md"):
            name = f.name.removesuffix(".md")
            text = f.read_text(encoding="utf-8")
            found[name] = Topic(name, _title(text, name), text)
    rank = {name: i for i, name in enumerate(READING_ORDER)}
    return [found[n] for n in sorted(found, key=lambda n: (rank.get(n, len(rank)), n))]


def topic(name: str) -> Topic:
    """The topic called ``name`` (a file name with .md is taken too); a UsageError naming every
    topic when there is none by that name."""
    wanted = name.strip().removesuffix(".md").lower()
    every = topics()
    for t in every:
        if t.name == wanted:
            return t
    raise UsageError(f"no help topic {name!r}; the topics: {', '.join(t.name for t in every)}")


def relink(text: str, link: Callable[[str, str], str]) -> str:
    """``text`` with every link to another topic replaced by ``link(name, anchor)`` (anchor with its
    ``#``, or empty): the dashboard links to its Help page, the terminal names the command."""
    return _LINK.sub(lambda m: f"]({link(m['name'], m['anchor'] or '')})", text)
