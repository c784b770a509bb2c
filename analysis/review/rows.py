"""A game's review as chess sites show one (issue 23): every suggestion in one list, the race to the
solution, and each player's game in figures. Pure functions over a game's post-mortem
(:func:`analysis.review.post_mortem.post_mortem`, itself read from the stored rows), so the dashboard's review
page and the report show the same facts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from clue_stats.analysis.computers.suggestions import LABEL_ORDER, NOT_RATED
from clue_stats.analysis.review.post_mortem import EntropyLine, PostMortem, ReportData, SuggestionLine
from clue_stats.analysis.words import _, decimal, label_word, n_, percent
from clue_stats.ingest.store.schema import TABLE

# what --json gives of each suggestion: every column of the suggestions table but the game's id
SUGGESTION_COLUMNS = tuple(c.name for c in TABLE["suggestions"].columns if c.name != "game_id")

KEY_LABELS = ("mistake", "blunder")  # the labels the race marks
# A chart 640 pixels wide shows no more than this many points of one observer's line: a longer
# line keeps the last change in each window of records (docs/report.md)
MAX_POINTS = 1_000


# ---------------------------------------------------------------- the race to the solution

# the kinds of mark on the race (ids; analysis.review_charts.mark_words says them), in the legend's order
MISTAKE, BLUNDER, CERTAIN, MISSED_WIN, RIGHT, WRONG = (
    "mistake",
    "blunder",
    "first certain",
    "missed win",
    "accused rightly",
    "accused wrongly",
)
MARK_KINDS = (MISTAKE, BLUNDER, CERTAIN, MISSED_WIN, RIGHT, WRONG)


def steps(series: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """The points a step line needs: where the value changes, and the last (a run of records that
    teach nothing draws the same line from one point; a game of 100,000 records that is solved
    early needs a few hundred points, not 100,000, per observer). A line of more than MAX_POINTS
    changes keeps the last change in each of MAX_POINTS windows of records."""
    kept: list[tuple[int, float]] = []
    for i, (seq, entropy) in enumerate(series):
        value = round(entropy, 6)
        if not kept or kept[-1][1] != value or i == len(series) - 1:
            kept.append((seq, value))
    if len(kept) <= MAX_POINTS:
        return kept
    first, last = kept[0], kept[-1]
    width = math.ceil((last[0] - first[0] + 1) / MAX_POINTS)
    windows: dict[int, tuple[int, float]] = {}
    for seq, value in kept[1:-1]:
        windows[(seq - first[0]) // width] = (seq, value)  # the window's last change
    return [first, *windows.values(), last]


def entropy_at(line: EntropyLine, seq: int) -> float | None:
    """The observer's remaining uncertainty (bits) after record ``seq`` (the last known before it)."""
    value = None
    for s, e in line.series:
        if s > seq:
            break
        value = e
    return value


@dataclass(frozen=True)
class Race:
    """Each observer's remaining uncertainty after every record (the players' own view, and the
    table's), and the key moments marked on it."""

    lines: list[dict[str, Any]]  # observer, is_table, seq, bits: where each line changes (and its end)
    marks: list[dict[str, Any]]  # seq, observer, bits, kind (MARK_KINDS), what (in words)
    observers: list[str]  # in seat order, the table last


def race(pm: PostMortem) -> Race:
    """The race's data from the post-mortem: a point per record and observer, and marks at the
    mistakes and blunders (on the suggester's line, before the suggestion), each player's first
    certain record (a missed win when they did not win from it), and the accusations (on the
    accuser's line, just before accusing)."""
    by_observer = {line.observer: line for line in pm.entropy}
    lines = [
        {"observer": line.observer, "is_table": line.is_table, "seq": seq, "bits": bits}
        for line in pm.entropy
        for seq, bits in steps(line.series)
    ]
    marks: list[dict[str, Any]] = []

    def mark(seq: int, who: str, at: int, kind: str, what: str) -> None:
        line = by_observer.get(who)
        bits = entropy_at(line, at) if line is not None else None
        if bits is not None:
            marks.append({"seq": seq, "observer": who, "bits": round(bits, 6), "kind": kind, "what": what})

    for s in pm.suggestions:
        if s.label in KEY_LABELS:
            what = _("{player}: {label}, {bits} bits lost").format(
                player=s.player, label=label_word(s.label), bits=decimal(round(s.bits_lost or 0.0, 2) + 0.0)
            )
            mark(s.seq, s.player, s.seq - 1, s.label, what)
    for t in pm.timing:
        if t.certain_seq is not None:
            if t.missed_win:
                what = _("{player} was certain after {where} and did not win: a missed win")
                where = pm.places(t.certain_seq)
                mark(t.certain_seq, t.player, t.certain_seq, MISSED_WIN, what.format(player=t.player, where=where))
            else:
                what = _("{player} was certain after {where}")
                where = pm.places(t.certain_seq)
                mark(t.certain_seq, t.player, t.certain_seq, CERTAIN, what.format(player=t.player, where=where))
        if t.accused_seq is not None:
            kind = RIGHT if t.correct else WRONG
            chance = "" if t.p_correct is None else _(", {share} sure").format(share=percent(t.p_correct))
            what = _("{player} accused at {where}{chance}").format(
                player=t.player, where=pm.places(t.accused_seq), chance=chance
            )
            mark(t.accused_seq, t.player, t.accused_seq - 1, kind, what)
    marks.sort(key=lambda m: (m["seq"], MARK_KINDS.index(m["kind"])))
    return Race(lines, marks, [line.observer for line in pm.entropy])


def race_caption() -> str:
    """How to read the race, under the chart in the dashboard and in the report."""
    return _(
        "How to read this: each line is how many bits of uncertainty about the solution a player still had after "
        "each record of the game, from what they themselves could know (their cards and what they saw); 0 bits "
        "means certain. One bit is one yes-or-no question answered: the classic deck's 324 possible solutions are "
        "8.3 bits. The dashed line is the table, a spectator who sees no card. Triangles mark mistakes and "
        "blunders (on the suggester's line, just before), a dot each player's first certain record (a square when "
        "they then did not win: a missed win), diamonds and crosses right and wrong accusations."
    )


# ---------------------------------------------------------------- every suggestion, one list


def answered(s: SuggestionLine) -> str:
    """Who answered a suggestion, in words: "Ben showed the Hall", "Ben showed a card", "nobody"."""
    if s.shown_by is None:
        return _("nobody could show a card")
    if s.shown_card:
        return _("{player} showed {card}").format(player=s.shown_by, card=s.shown_card)
    return _("{player} showed a card").format(player=s.shown_by)


def suggestion_rows(pm: PostMortem, data: ReportData) -> list[dict[str, Any]]:
    """Every suggestion of the game in record order: its record (seq, and the line of the file it was
    read from), who, what (the edition's names), who answered, the label (or "not rated": hand not in
    the log), the best suggestion when it was another, and every column the review shows with a
    suggestion (ingest.store.schema.REVIEW_COLUMNS: expected and best available gain, bits lost, ...)."""
    records = data.game.records
    rows = []
    for s in pm.suggestions:
        line = records[s.seq - 1].line if 0 < s.seq <= len(records) else None
        rows.append(
            {
                "seq": s.seq,
                "line": line,
                "player": s.player,
                "suggestion": ", ".join(s.cards),
                "answer": answered(s),
                "label": s.label if s.label else NOT_RATED if not s.rated else None,
                "best_instead": ", ".join(s.best_cards) if s.best_cards and s.best_cards != s.cards else None,
                **s.values,
            }
        )
    return rows


def suggestion_records(data: ReportData) -> list[dict[str, Any]]:
    """Every suggestion of the game as stored, for ``--json``: each column the suggestions table
    declares (ingest.store.schema) but the game's id, cards and players by their ids."""
    return [{column: row.get(column) for column in SUGGESTION_COLUMNS} for row in data.suggestions]


# ---------------------------------------------------------------- each player's game


def label_count(label: str, count: int) -> str:
    """How many suggestions earned a label, in words: "2 mistakes", "2 Fehler", "2 misstag"."""
    if label == "best":
        return n_(count, "{n} best", "{n} best")
    if label == "good":
        return n_(count, "{n} good", "{n} good")
    if label == "inaccuracy":
        return n_(count, "{n} inaccuracy", "{n} inaccuracies")
    if label == "mistake":
        return n_(count, "{n} mistake", "{n} mistakes")
    return n_(count, "{n} blunder", "{n} blunders")


def player_rows(pm: PostMortem, data: ReportData) -> list[dict[str, Any]]:
    """Per player in seat order: review accuracy and rated suggestions (players columns), the count of
    each label, information gained against expected (players.gained_vs_expected_bits), the bits
    they gave away as a refuter (suggestions.giveaway_bits, summed over the cards they showed) and
    whether they missed a win (players.missed_win)."""
    seats = {row["name"]: row for row in data.players}
    given = {g.refuter: g for g in pm.giveaways}
    timing = {t.player: t for t in pm.timing}
    rows = []
    for name in pm.names:
        seat = seats.get(name, {})
        own = [s for s in pm.suggestions if s.player == name]
        counts = {label: sum(s.label == label for s in own) for label in LABEL_ORDER}
        labels = " · ".join(label_count(label, n) for label, n in counts.items() if n)
        g = given.get(name)
        t = timing.get(name)
        rows.append(
            {
                "player": name,
                "suggestions": len(own),
                "rated_suggestions": seat.get("rated_suggestions"),
                "review_accuracy": seat.get("review_accuracy"),
                **counts,
                "labels": labels or None,  # "2 best · 1 mistake": the counts in one phrase
                "gained_vs_expected_bits": seat.get("gained_vs_expected_bits"),
                "refutations": g.refutations if g else 0,
                "given_away_bits": g.total_bits if g and g.known else None,
                "missed_win": t.missed_win if t else None,
                "won": bool(seat.get("won")),
            }
        )
    return rows


__all__ = [
    "KEY_LABELS",
    "MARK_KINDS",
    "Race",
    "answered",
    "entropy_at",
    "player_rows",
    "race",
    "race_caption",
    "steps",
    "suggestion_records",
    "suggestion_rows",
]
