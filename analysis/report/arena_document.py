"""An arena tournament's report as a document (:mod:`analysis.report.document`), written as one
self-contained HTML page by the report's renderer: the leaderboard per program, the pairwise table
and the rule breaks, every figure read from the store (:mod:`analysis.corpus.arena`), every word
through :mod:`analysis.words`.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from clue_stats.analysis.corpus.arena import (
    arena_leaderboard,
    game_number,
    games_played,
    leaderboard_cells,
    pairwise,
    rule_breaks,
)
from clue_stats.analysis.report.document import Document, Paragraph, Section, Table, Text
from clue_stats.analysis.report.html import render_document
from clue_stats.analysis.report.sections import footer
from clue_stats.analysis.words import _, language, n_, number, percent, said
from clue_stats.ingest.store import Store


@dataclass
class Tournament:
    """What the report shows, read once from the store."""

    tournament: str
    games: int
    won: int
    board: pl.DataFrame
    pairs: pl.DataFrame
    breaks: pl.DataFrame


def read_tournament(con: Store, tournament: str) -> Tournament:
    games, won = games_played(con, tournament)
    return Tournament(
        tournament,
        games,
        won,
        arena_leaderboard(con, tournament),
        pairwise(con, tournament),
        rule_breaks(con, tournament),
    )


def _leaderboard(t: Tournament) -> Section:
    head: list[Text] = [
        _("program"), _("games"), _("wins (interval: 95 %)"), _("rating"), _("review accuracy"),
        _("accused at p < 1"), _("missed wins"), _("rule breaks"),
    ]  # fmt: skip
    rows: list[list[Text]] = []
    for row in t.board.iter_rows(named=True):
        c = leaderboard_cells(row)
        rows.append(
            [c["program"], c["games"], c["wins"], c["rating"], c["review_accuracy"], c["unsure"], c["missed_wins"],
             c["rule_breaks"]]
        )  # fmt: skip
    return Section(
        "leaderboard",
        _("Leaderboard"),
        [
            Paragraph(
                _(
                    "Per program, best rating first: its games and wins (with the interval of the win rate, 95 %), "
                    "its rating (openskill, the league's pool of bots), and the review of its play: the share of the "
                    "information its suggestions could have given that they gave, accusations made while not "
                    "certain, games it could have won by accusing and did not, and the rules it broke."
                )
            ),
            Table(head, rows, numeric=frozenset({1})),
        ],
    )


def _pairwise(t: Tournament) -> Section:
    rows: list[list[Text]] = [
        [r["player"], r["opponent"], number(r["games"]), number(r["ahead"]), number(r["behind"]), number(r["level"]),
         percent(r["share_ahead"]) if r["share_ahead"] is not None else "–"]
        for r in t.pairs.iter_rows(named=True)
    ]  # fmt: skip
    head: list[Text] = [
        _("program"),
        _("opponent"),
        _("games"),
        _("ahead"),
        _("behind"),
        _("level"),
        _("ahead (share)"),
    ]
    return Section(
        "pairwise",
        _("Each program against each other"),
        [
            Paragraph(
                _(
                    "At the tables they shared: how often the program finished ahead of the opponent, behind it, or "
                    "level (the winner first, then those still in the game, then those out, the later out ahead)."
                )
            ),
            Table(head, rows, numeric=frozenset({2, 3, 4, 5, 6})),
        ],
    )


def _breaks(t: Tournament) -> Section:
    if t.breaks.height == 0:
        return Section("rule-breaks", _("Rule breaks"), [Paragraph(_("No program broke a rule."))])
    rows: list[list[Text]] = [
        [r["program"], number(game_number(r["game_id"])), said(r["message"], r["template"], r["fields"])]
        for r in t.breaks.iter_rows(named=True)
    ]
    return Section(
        "rule-breaks",
        _("Rule breaks"),
        [
            Paragraph(
                _(
                    "A program that breaks a rule or the protocol is taken out of its game (its cards still answer); "
                    "the game goes on."
                )
            ),
            Table([_("program"), _("game"), _("what happened")], rows, numeric=frozenset({1})),
        ],
    )


def document(t: Tournament) -> Document:
    meta = " · ".join(
        [
            n_(t.games, "{n} game", "{n} games"),
            n_(t.board.height, "{n} program", "{n} programs"),
            _("{won} won").format(won=number(t.won)),
        ]
    )
    return Document(
        title=_("Arena tournament {tournament}").format(tournament=t.tournament),
        meta=meta,
        sections=[_leaderboard(t), _pairwise(t), _breaks(t)],
        footer=footer(),
        lang=language(),
    )


def render_arena_html(t: Tournament) -> str:

    return render_document(document(t))
