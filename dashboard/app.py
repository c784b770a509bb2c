"""The dashboard's entry point (`clue-stats dashboard`, or `streamlit run dashboard/app.py -- --db FILE`).

It is the frame around every page: it finds the database, draws the filters every page honours in
the sidebar, hands the pages their context, watches the file so that games stored by a running
`clue-stats ingest` appear without a reload, and routes with st.navigation to the pages that
dashboard/pages.py registers. The pages in app_pages/ hold UI only; every read is in dashboard/queries.py.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import streamlit as st

from clue_stats.analysis import words
from clue_stats.analysis.words import _
from clue_stats.dashboard import pages, queries
from clue_stats.dashboard.app_pages import common
from clue_stats.dashboard.app_pages.page_text import md

HERE = Path(__file__).resolve().parent

log = logging.getLogger("clue_stats.dashboard")
WATCH_SECONDS = 5  # how often an open page looks for a database changed by ingest

LANGUAGE_KEY = "language"


def navigation_pages() -> list[Any]:
    """The registered pages, titled in the reader's language."""
    return [
        st.Page(HERE / p.file, title=p.name, icon=p.icon, url_path=p.slug, default=p == pages.DEFAULT)
        for p in pages.PAGES
    ]


def speak_the_readers_language() -> None:
    """The session's language: the browser's (st.context.locale) on the first run, else
    CLUE_STATS_LANG, the system's locale, English; the sidebar's switch changes it for the session."""
    if st.session_state.get(LANGUAGE_KEY) not in words.LANGUAGES:
        st.session_state[LANGUAGE_KEY] = words.known(st.context.locale) or words.choose()
    words.set_language(st.session_state[LANGUAGE_KEY])
    codes: list[str] = list(words.LANGUAGES)
    st.sidebar.selectbox(_("Language"), codes, key=LANGUAGE_KEY, format_func=words.LANGUAGES.__getitem__)


def _any() -> str:
    return _("any")


def _date(text: Any) -> date | None:
    try:
        return date.fromisoformat(str(text)[:10])
    except (TypeError, ValueError):
        return None


ANY = "any"  # the option's value (its words: _any())


def _choose(label: str, options: list[Any], key: str, fmt: Callable[[Any], str] = str) -> Any:
    # the options' words made now, in this run's language (a format_func may be called elsewhere)
    shown = {ANY: _any(), **{v: fmt(v) for v in options}}
    value = st.selectbox(label, [ANY, *options], key=key, format_func=shown.__getitem__)
    return None if value == ANY else value


def sidebar_filters(choices: dict[str, list[Any]]) -> queries.GameFilter:
    """The filters every page honours; "any" everywhere selects every stored game."""
    with st.sidebar:
        st.subheader(_("Filters"))
        edition = _choose(_("Edition"), choices.get("edition", []), "filter_edition")
        variant = _choose(_("Variant"), choices.get("variant", []), "filter_variant")
        n_players = _choose(
            _("Players"),
            choices.get("n_players", []),
            "filter_players",
            lambda n: words.n_(n, "{n} player", "{n} players"),
        )
        source = _choose(_("Source"), choices.get("source", []), "filter_source")
        present = choices.get("kind", [])
        others = [k for k in present if k not in queries.PEOPLE]
        include_others = True
        if others and len(others) < len(present):
            include_others = st.toggle(
                _("Include bot and simulated games"),
                value=False,
                key="filter_all_kinds",
                help=_(
                    "People's games (at a table or in a digital client) are shown alone by default; this adds {kinds} games."
                ).format(kinds=_(" and ").join(words.kind_words(k) for k in others)),
            )
        kinds = queries.people_first(present, include_others)
        low, high = (_date(v) for v in (choices.get("played_at") or [None, None]))
        date_from = date_to = None
        if low is not None and high is not None:
            # no bound by default: games without a date stay in the selection until a bound is set
            date_from = st.date_input(_("Played from"), value=None, min_value=low, max_value=high, key="filter_from")
            date_to = st.date_input(_("Played until"), value=None, min_value=low, max_value=high, key="filter_to")
    return queries.GameFilter(
        edition=edition,
        variant=variant,
        n_players=n_players,
        source=source,
        kinds=kinds,
        date_from=date_from.isoformat() if date_from else None,
        date_to=date_to.isoformat() if date_to else None,
    )


@st.fragment(run_every=WATCH_SECONDS)
def watch(path: Path, seen: str) -> None:
    """Rerun the whole app when the file changed since this run read it (a running ingest)."""
    if queries.store_version(path) != seen:
        st.rerun(scope="app")


def main() -> None:
    st.set_page_config(page_title="clue-stats", page_icon=":material/search:", layout="wide")
    common.page_layout()
    speak_the_readers_language()
    path = queries.database_path()
    version = queries.store_version(path)
    # every page listed: Streamlit folds a long list behind its own "View N more", in English whatever the language
    page = st.navigation(navigation_pages(), expanded=True)
    with st.sidebar:
        watch(path, version)
    if not path.exists():
        st.session_state.pop(common.CONTEXT_KEY, None)
        common.database_missing(path)
        return
    choices = common.read(queries.filter_choices, str(path), version)
    filters = sidebar_filters(choices)
    st.sidebar.caption(_("Database: {file}").format(file=md(path)))
    st.session_state[common.CONTEXT_KEY] = common.PageContext(str(path), version, filters)
    try:
        page.run()
    except Exception as exc:  # the program's own failure: a message on the page, the traceback in the log
        if os.environ.get("CLUE_STATS_DEBUG"):
            raise
        log.exception("page %s failed", page.title)
        st.error(
            _("This page failed: {error}. Set CLUE_STATS_DEBUG=1 to see the traceback in the terminal.").format(
                error=f"{md(type(exc).__name__)}: {md(exc)}"
            )
        )


main()
