"""The dashboard's pages, registered once: app.py routes to them, and the tests, the benchmark and the
wheel check visit every one from this list. It imports no Streamlit, so a script can read it alone.

A new page: its UI in ``app_pages/<slug>.py`` and one line here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Page:
    slug: str  # the page's URL path and the stem of its file in app_pages/
    title: str  # the title in the navigation and at the top of the page
    icon: str  # a Material icon, as Streamlit names it

    @property
    def file(self) -> str:
        """The page's script relative to app.py (what ``AppTest.switch_page`` takes)."""
        return f"app_pages/{self.slug}.py"


PAGES: tuple[Page, ...] = (
    Page("overview", "Overview", ":material/dashboard:"),  # the first is the default page, at the root
    Page("night", "Game night", ":material/nightlife:"),
    Page("review", "Game review", ":material/fact_check:"),
    Page("replay", "Game replay", ":material/replay:"),
    Page("puzzles", "Puzzles", ":material/extension:"),
    Page("suggestions", "Suggestions", ":material/psychology:"),
    Page("accusations", "Accusations", ":material/gavel:"),
    Page("positions", "Starting positions", ":material/casino:"),
    Page("players", "Players", ":material/groups:"),
    Page("person", "Player", ":material/person:"),
    Page("agents", "Agents", ":material/smart_toy:"),
    Page("quality", "Data quality", ":material/rule:"),
    Page("help", "Help", ":material/help:"),
)
DEFAULT = PAGES[0]


def page(slug: str) -> Page:
    """The registered page of a slug (a KeyError names an unknown one)."""
    for p in PAGES:
        if p.slug == slug:
            return p
    raise KeyError(slug)
