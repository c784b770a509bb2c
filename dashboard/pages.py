"""The dashboard's pages, registered once: app.py routes to them, and the tests, the benchmark and the
wheel check visit every one from this list. It imports no Streamlit, so a script can read it alone.

A new page: its UI in ``app_pages/<slug>.py`` and one line here.
"""

from __future__ import annotations

from dataclasses import dataclass

from clue_stats.analysis.words import N_, _


@dataclass(frozen=True)
class Page:
    slug: str  # the page's URL path and the stem of its file in app_pages/
    title: str  # the title in English (ids and tests); :attr:`name` says it in the reader's language
    icon: str  # a Material icon, as Streamlit names it

    @property
    def name(self) -> str:
        """The title in the navigation and at the top of the page, in the reader's language."""
        return _(self.title)

    @property
    def file(self) -> str:
        """The page's script relative to app.py (what ``AppTest.switch_page`` takes)."""
        return f"app_pages/{self.slug}.py"


PAGES: tuple[Page, ...] = (
    Page("overview", N_("Overview"), ":material/dashboard:"),  # the first is the default page, at the root
    Page("record", N_("Record a game"), ":material/edit_note:"),
    Page("night", N_("Game night"), ":material/nightlife:"),
    Page("review", N_("Game review"), ":material/fact_check:"),
    Page("replay", N_("Game replay"), ":material/replay:"),
    Page("puzzles", N_("Puzzles"), ":material/extension:"),
    Page("suggestions", N_("Suggestions"), ":material/psychology:"),
    Page("accusations", N_("Accusations"), ":material/gavel:"),
    Page("positions", N_("Starting positions"), ":material/casino:"),
    Page("players", N_("Players"), ":material/groups:"),
    Page("person", N_("Player profile"), ":material/person:"),
    Page("agents", N_("Agents"), ":material/smart_toy:"),
    Page("quality", N_("Data quality"), ":material/rule:"),
    Page("help", N_("Help"), ":material/help:"),
)
DEFAULT = PAGES[0]


def page(slug: str) -> Page:
    """The registered page of a slug (a KeyError names an unknown one)."""
    for p in PAGES:
        if p.slug == slug:
            return p
    raise KeyError(slug)
