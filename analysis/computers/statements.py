"""What a player said they knew, graded exactly against their own view at that record
(analysis.md, "Stated deductions").

Each part of a ``statement`` record is a claim about the deal; the player's view there (the deals
consistent with what they had seen, records 0 to seq - 1) gives it probability 1 (*proven*), 0
(*false* for them) or something between (*possible*: a guess). A count "5 suspects remaining"
states that the others are crossed off; it is graded as kindly as a count allows (the crossed-off
cards are taken to be the ones the view excludes, since a count does not say which): stated
cross-offs up to the number the view proves are proven, those beyond are guesses; what the view
proves beyond the stated ones is *missed*. A named list of the cards remaining states each other
card crossed off (each graded), and each listed card the view excludes is missed.

One row per graded part (``statements``), with its units: ``stated_units`` (claims made),
``proven_units`` (of them, proven), ``missed_units`` (provable cross-offs not stated). Per player and
game, precision = proven / stated and recall = proven / (proven + missed), each over the sums.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from clue_stats.engine import deduction
from clue_stats.engine.counting import Counts
from clue_stats.engine.game import Accuse, End, Game, Statement
from clue_stats.engine.knowledge import ENVELOPE, Knowledge

PROVEN, POSSIBLE, FALSE, MISSED = "proven", "possible", "false", "missed"
# a statement after the game (after `end`, or after the speaker's own correct accusation): what
# everyone at the table then knows; counted in neither precision nor recall (../spec: case 1)
AFTER_END = "after_end"
GRADES = (PROVEN, POSSIBLE, FALSE, MISSED, AFTER_END)


def _grade(n: int, total: int) -> str:
    """A claim true in ``n`` of the ``total`` consistent deals."""
    return PROVEN if n == total else FALSE if n == 0 else POSSIBLE


def _row(seq: int, player: str, claim: str, grade: str, **columns: Any) -> dict[str, Any]:
    row = {
        "seq": seq, "player": player, "claim": claim, "category": None, "card": None, "about": None,
        "stated_count": None, "actual_count": None, "grade": grade,
        "stated_units": 0 if grade in (MISSED, AFTER_END) else 1, "proven_units": 1 if grade == PROVEN else 0,
        "missed_units": 1 if grade == MISSED else 0,
    }  # fmt: skip
    row.update(columns)
    return row


def grade_statement(game: Game, record: Statement, counts: Counts) -> list[dict[str, Any]]:
    """The rows of one statement, graded by the counts of its player's view at it."""
    total, seq, player = counts.total, record.seq, record.player
    in_envelope = {c: counts.card_places.get(c, {}).get(ENVELOPE, 0) for c in game.deck.cards}
    rows: list[dict[str, Any]] = []

    def crossed_off(card: str, claim: str = "not_in_envelope") -> dict[str, Any]:
        grade = _grade(total - in_envelope[card], total)
        return _row(seq, player, claim, grade, category=game.deck.category(card), card=card)

    # a card named twice in one statement is one claim (case 3): each counted once, in its first place
    rows.extend(crossed_off(card) for card in dict.fromkeys(record.not_in_envelope))
    for claim, pairs in (("holds", record.holds), ("lacks", record.lacks)):
        for who, card in dict.fromkeys(pairs):
            n = counts.card_places.get(card, {}).get(who, 0)
            rows.append(
                _row(seq, player, claim, _grade(n if claim == "holds" else total - n, total), card=card, about=who)
            )
    if record.solution is not None:
        n = counts.solutions.get(record.solution, 0)
        rows.append(_row(seq, player, "solution", _grade(n, total), card=" ".join(record.solution)))
    for category, said in record.remaining:
        if not isinstance(said, int):
            said = tuple(dict.fromkeys(said))
            if not said:  # an empty list is a count of 0: one claim, one grade (case 2)
                said = 0
        cards = game.deck.of(category)
        possible = [c for c in cards if in_envelope[c] > 0]
        if isinstance(said, int):
            stated, provable = len(cards) - said, len(cards) - len(possible)
            proven = min(stated, provable)
            grade = PROVEN if said == len(possible) else MISSED if said > len(possible) else POSSIBLE
            if said == 0:
                grade = FALSE  # no card of the category left: true in no deal
                proven = 0
            rows.append(
                _row(
                    seq, player, "remaining", grade, category=category, stated_count=said, actual_count=len(possible),
                    stated_units=stated, proven_units=proven, missed_units=max(0, provable - stated),
                )
            )  # fmt: skip
            continue
        rows.extend(crossed_off(card, "remaining") for card in cards if card not in said)
        rows.extend(
            _row(seq, player, "remaining", MISSED, category=category, card=card)
            for card in said
            if in_envelope[card] == 0
        )
    return rows


def statement_rows(game: Game, before: Callable[[str | None, int], Knowledge]) -> list[dict[str, Any]]:
    """Every statement of the game graded against its player's view just before it."""
    rows: list[dict[str, Any]] = []
    ended = False
    won: set[str] = set()  # players whose accusation was correct: their game is over
    for record in game.records:
        if isinstance(record, End):
            ended = True
        elif isinstance(record, Accuse) and record.correct:
            won.add(record.player)
        if isinstance(record, Statement) and (ended or record.player in won):
            # after the game: stored, graded after_end, no units (case 1); nothing is counted
            rows.append(
                {
                    "game_id": game.game_id,
                    "line": record.line,
                    **_row(record.seq, record.player, "statement", AFTER_END),
                }
            )
        elif isinstance(record, Statement):
            counts = deduction.count(before(record.player, record.seq))
            rows.extend(
                {"game_id": game.game_id, "line": record.line, **r} for r in grade_statement(game, record, counts)
            )
    return rows


def precision_recall(rows: Sequence[dict[str, Any]]) -> tuple[float | None, float | None]:
    """(precision, recall) of a player's graded statements: proven / stated and proven / (proven +
    missed), over the sums; None where the denominator is 0."""
    stated = sum(r["stated_units"] for r in rows)
    proven = sum(r["proven_units"] for r in rows)
    missed = sum(r["missed_units"] for r in rows)
    return (proven / stated if stated else None, proven / (proven + missed) if proven + missed else None)
