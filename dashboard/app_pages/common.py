"""What every page shares: the page's context (database, version, filters) and how a page says what
it cannot show. UI only: the reads are in dashboard.queries.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TypeVar
from urllib.parse import urlencode

import altair as alt
import polars as pl
import streamlit as st

from clue_stats.analysis.words import N_, _, kind_words, n_, number, when
from clue_stats.analysis.words import topics as docs
from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages.page_text import md

T = TypeVar("T")

CONTEXT_KEY = "clue_stats_context"
NO_ANALYSIS = N_("no analysis yet: run `clue-stats analyse`")  # shown with _(NO_ANALYSIS)


# The layout every page keeps, on a phone (390 px) and a desktop (1280 px): the project's conventions,
# set once by app.py (:func:`page_layout`) and reused by every page.
# - words break between words only, never inside a name, a label or a date ("Kathri/n", "blund/er");
#   a word longer than the line (a game id) may still break rather than widen the page;
# - a button's label wraps between its words instead of being cut ("Previous sugg...");
# - under NARROW_PX a wide table is a card a row (tables.rows, tables.show), never a box cut on the right;
# - charts are as wide as their column, their text at least analysis.review.charts.CHART_FONT_PX.
NARROW_PX = 640
PAGE_CSS = f"""<style>
[data-testid="stMain"] p, [data-testid="stMain"] li, [data-testid="stMain"] td, [data-testid="stMain"] th,
[data-testid="stMain"] h1, [data-testid="stMain"] h2, [data-testid="stMain"] h3, [data-testid="stMain"] label,
[data-testid="stMetricLabel"], [data-testid="stMetricValue"], [data-testid="stMetricValue"] div,
[data-testid="stCaptionContainer"] {{ overflow-wrap: break-word; word-break: normal; hyphens: manual; }}
[data-testid="stMetricValue"] div {{ white-space: normal; text-overflow: clip; }}
[data-testid="stMain"] button p, [data-testid="stMain"] button div {{ white-space: normal; overflow: visible;
  text-overflow: clip; }}
[data-testid="stMain"] [data-testid="stMarkdownContainer"] table {{ display: block; max-width: 100%;
  overflow-x: auto; }}
[class*="st-key-cs-cards-"] {{ display: none; }}
@media (max-width: {NARROW_PX}px) {{
  [class*="st-key-cs-grid-"] {{ display: none; }}
  [class*="st-key-cs-cards-"] {{ display: block; }}
  .st-key-replay-steps [data-testid="stHorizontalBlock"] {{ flex-wrap: nowrap; gap: 0.5rem; }}
  .st-key-replay-steps [data-testid="stColumn"] {{ min-width: 0; width: auto; flex: 1 1 0; }}
}}
</style>"""


def page_layout() -> None:
    """The conventions above, on the page being drawn (app.py calls it once a run)."""
    st.html(PAGE_CSS)


@dataclass(frozen=True)
class PageContext:
    path: str
    version: str
    filters: queries.GameFilter


def help_link(topic: str, text: str, anchor: str = "") -> str:
    """A Markdown link to the Help page at ``topic`` (a file of docs/ without .md), e.g. in a caption;
    ``anchor``: a section, by its English heading's anchor (led to the heading in the reader's language)."""
    at = "#" + docs.heading_anchor(topic, anchor, spell=docs.page_anchor) if anchor else ""
    return f"[{text}](help?topic={topic}{at})"


def page_context() -> PageContext:
    """The context app.py set for this run; a page shown without a database stops with a message."""
    ctx: PageContext | None = st.session_state.get(CONTEXT_KEY)
    if ctx is None:
        st.info(_("No database is open."))
        st.stop()
    return ctx


def read(fn: Callable[..., T], *args: Any) -> T:
    """Call a query; a busy or unusable store becomes a message on the page, not a traceback."""
    try:
        return fn(*args)
    except queries.StoreBusy:
        st.warning(
            _(
                "The database is busy: `clue-stats ingest` is writing to it. This page reads it again "
                "as soon as you interact, or now:"
            )
        )
        st.button(_("Try again"), key=f"retry_{getattr(fn, '__name__', 'read')}")
        st.stop()
    except queries.StoreError as exc:
        st.error(md(str(exc)))
        st.stop()
    raise AssertionError("unreachable")  # st.stop() raises


def require_games(count: int, ctx: PageContext, what: str) -> None:
    """Stop the page, saying why, when the selection holds no game."""
    if count:
        return
    if ctx.filters == queries.GameFilter():
        st.info(
            _(
                "No games in the database yet, so there are no {what} to show. "
                "Add some with `clue-stats ingest PATH` (this page refreshes when they arrive)."
            ).format(what=_(what))
        )
    else:
        st.info(
            _("No game matches the filters, so there are no {what} to show. Widen the filters in the sidebar.").format(
                what=_(what)
            )
        )
    st.stop()


def database_missing(path: Path) -> None:
    st.title("clue-stats")
    st.info(
        _(
            "There is no database at {file} yet. Store games in it with `clue-stats ingest PATH --db FILE` "
            "(FILE being that path); this page shows them as soon as the file appears."
        ).format(file=md(path))
    )


def count_axis(title: str) -> alt.Axis:
    """An axis of counts: whole numbers only (no "0.2 games")."""
    return alt.Axis(title=title, tickMinStep=1, format="d")


def kinds_caption(ctx: PageContext) -> None:
    """Say which kinds of game the page shows, when it is not every kind."""
    if ctx.filters.kinds is not None:
        st.caption(
            _("Showing people's games ({kinds}); switch on *{switch}* in the sidebar to add the others.").format(
                kinds=_(" and ").join(kind_words(k) for k in ctx.filters.kinds),
                switch=_("Include bot and simulated games"),
            )
        )


def replay_column() -> Any:
    """A grid's column of replay addresses (:func:`replay_links`), in the reader's language."""
    return st.column_config.LinkColumn(
        _("replay"), display_text=_("open replay"), help=_("opens the game at this record")
    )


# the replay page's address at one record; relative, so it works under any host and port


def replay_url(game_id: str, seq: int | None) -> str:
    query = {"game": game_id} if seq is None else {"game": game_id, "seq": int(seq)}
    return "replay?" + urlencode(query)


def replay_links(frame: pl.DataFrame, seq_column: str = "seq") -> pl.DataFrame:
    """The frame with a first column ``replay``: the address of the replay page at that record."""
    urls = [replay_url(g, s) for g, s in zip(frame["game_id"].to_list(), frame[seq_column].to_list())]
    return frame.with_columns(pl.Series("replay", urls, dtype=pl.Utf8)).select("replay", pl.exclude("replay"))


def _game_words(row: dict[str, Any]) -> str:
    """A game in the chooser: "club-2026-11-20-1 · 20. November 2026 · Cluedo (2023) · 4 Spieler"."""
    parts = [
        row["game_id"],
        when(row["played_at"]) or _("undated"),
        queries.edition_name(row["edition"]),
        n_(row["n_players"], "{n} player", "{n} players"),
    ]
    return " · ".join(parts) + (" · " + _("partly analysed") if row.get("analysis_cut") else "")


def choose_game(ctx: PageContext, key: str, what: str, typed: bool = False) -> str:
    """The game a page shows (the review's, the replay's): a chooser of the selection's newest games;
    a link's ``game=`` is followed once (after that the chooser is the user's), and a linked game
    outside the filters is still offered. ``typed``: a box beside it for any stored game's id.
    ``key`` names the page's widgets (``{key}_game`` is the chosen id); ``what`` (marked with N_)
    says what an empty selection has none of. Stops the page when there is no game to choose."""
    games, total = read(queries.game_choices, ctx.path, ctx.version, ctx.filters)
    ids = games["game_id"].to_list()
    labels = {r["game_id"]: _game_words(r) for r in games.iter_rows(named=True)}
    chosen_key = f"{key}_game"
    linked = st.query_params.get("game")
    if linked and st.session_state.get(f"{key}_link") != linked:
        st.session_state[f"{key}_link"] = linked
        st.session_state[chosen_key] = linked
    chosen = st.session_state.get(chosen_key)
    if chosen and chosen not in labels:
        ids = [chosen, *ids]  # a linked or typed game outside the filters is still shown
        labels[chosen] = chosen
    if not ids:
        require_games(0, ctx, what)
    pick = st.container()
    if typed:
        pick, box = st.columns([3, 1])
        with box:
            wanted = st.text_input(
                _("Game id"),
                key=f"{key}_typed",
                placeholder=_("type an id"),
                help=_("the list holds the newest {count} games of the selection").format(
                    count=number(queries.GAME_LIST_LIMIT)
                )
                if total > queries.GAME_LIST_LIMIT
                else _("any stored game"),
            )
            if wanted and wanted != st.session_state.get(f"{key}_typed_done"):
                st.session_state[f"{key}_typed_done"] = wanted
                if wanted not in labels:
                    ids = [wanted, *ids]
                    labels[wanted] = wanted
                st.session_state[chosen_key] = wanted
    with pick:
        game_id = st.selectbox(_("Game"), ids, format_func=labels.__getitem__, key=chosen_key)
    return str(game_id)


def no_such_game(game_id: str) -> NoReturn:
    """Stop the page: no stored game has this id (a link's or a typed one)."""
    st.warning(_("No stored game has the id {game}.").format(game=md(game_id)))
    st.stop()


def category_word(category: str) -> str:
    """A kind of card (the notebook's categories: suspects, weapons, rooms) in the reader's language."""
    said = {"suspects": _("suspects"), "weapons": _("weapons"), "rooms": _("rooms")}
    return said.get(category, category)


# Phone first (a page used at the table): buttons and choices at least 44 px high, the size a finger
# hits (Apple's and Material's guidance); nothing forces the page wider than the screen.
PHONE_CSS = """
<style>
[data-testid="stMain"] button[data-variant], [data-testid="stMain"] button[data-testid^="stBaseButton"] {
  min-height: 44px; min-width: 44px;
}
[data-testid="stMain"] [data-testid="stMarkdownContainer"] { overflow-wrap: break-word; }
</style>
"""


def phone_layout() -> None:
    """Tap targets of at least 44 px on the page (a page meant for a phone at the table calls it)."""
    st.markdown(PHONE_CSS, unsafe_allow_html=True)
