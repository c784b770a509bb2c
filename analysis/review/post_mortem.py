"""The post-mortem of one stored game, as facts: the sections of the report, ready to format.

:func:`gather` is the only part that reads: one game's rows from the store and the game rebuilt from
its records (for the edition's card names and the notes); it is quick, so the read-only connection
is held briefly. :func:`with_analysis` computes, in memory, an analysis the store lacks (a game
stored with --light or --no-analyse, or analysed by an older version). :func:`post_mortem` is pure: it
turns the rows and the entropy timeline into the sections (the game in brief, entropy over the game,
best and worst suggestions, accusation timing, what refuters gave away, key moments, notes).
:mod:`analysis.report.sections` makes a :class:`PostMortem` a document (:mod:`analysis.report.document`),
which :mod:`analysis.report.html` and :mod:`analysis.report.markdown` write; they are the only places that
escape, since every string here is still plain text (player names and notes as the log wrote them).
Every word a person reads passes :mod:`analysis.words`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import polars as pl

from clue_stats.analysis.computers.game_analysis import ANALYSIS_VERSION, analyse_within
from clue_stats.analysis.computers.statements import GRADES, MISSED
from clue_stats.analysis.review import timeline
from clue_stats.analysis.words import N_, _, decimal, n_, percent, problem_message, said, said_value
from clue_stats.analysis.words.names import CUSTOM, edition_name
from clue_stats.analysis.words.records import Places, describe, triple_names
from clue_stats.engine.budget import Limits
from clue_stats.engine.editions import editions
from clue_stats.engine.game import Accuse, Deal, Event, Game, RoomCards, Suggest, Turn
from clue_stats.ingest.store import Store, stored_game
from clue_stats.ingest.store.schema import REVIEW_COLUMNS

TOP_SUGGESTIONS = 3  # best and worst suggestions shown
TOP_MOMENTS = 5  # key moments shown


@dataclass(frozen=True)
class ReportData:
    """Everything the report reads about one game (rows as dicts, in record order)."""

    game: Game
    header: dict[str, Any]  # the games row
    players: list[dict[str, Any]]  # players rows, by seat
    suggestions: list[dict[str, Any]]
    accusations: list[dict[str, Any]]
    information: list[dict[str, Any]]
    statements: list[dict[str, Any]] = field(default_factory=list)  # statements rows (analysis.computers.statements)
    entropy: pl.DataFrame | None = None  # seq, observer (None: the table), entropy after each record
    computed: bool = False  # the analysis was computed for this report, not read from the store
    over_budget: list[str] = field(default_factory=list)  # the messages of its over_budget problems


def over_budget_messages(problems: list[dict[str, Any]]) -> list[str]:
    """What the budget left out of a game, and why: the messages of its stored over_budget problems,
    in the reader's language."""
    return [said(p["message"], p.get("template"), p.get("fields")) for p in problems if p.get("code") == "over_budget"]


def left_out(problems: list[dict[str, Any]], stored: str | None) -> str | None:
    """What the budget left out of a game, in the reader's language: the "what" of each of its
    over_budget problems ("the review of the suggestions from ..."), joined as ``games.analysis_cut``
    joins them (``stored``: that column, the English, said where a problem lacks its values)."""
    cuts = [p for p in problems if p.get("code") == "over_budget"]
    whats = [said_value(p.get("fields"), "what") for p in cuts]
    if not stored or not whats or None in whats:
        return stored
    return "; ".join(w for w in whats if w)


def gather(con: Store, game_id: str) -> ReportData:
    """Read one stored game for its report: quick, so the read-only connection is held briefly
    (raises store.GameNotFound if no game has this id)."""
    stored = stored_game(con, game_id)
    return ReportData(
        game=stored.game,
        header=stored.header,
        players=stored.rows("players"),
        suggestions=stored.rows("suggestions"),
        accusations=stored.rows("accusations"),
        information=stored.rows("information"),
        statements=stored.rows("statements"),
        over_budget=over_budget_messages(stored.rows("problems")),
    )


def missing_analysis(data: ReportData) -> str | None:
    """What the store lacks for a full report, in words (None: nothing)."""
    version = data.header.get("analysis_version")
    if version is None:
        return N_("the analysis")
    if version < ANALYSIS_VERSION:
        return N_("this version's analysis")
    if any(row.get("expected_gain_bits") is not None and row.get("best_gain_bits") is None for row in data.suggestions):
        return N_("the review")
    return None


def with_analysis(data: ReportData, limits: Limits | None = None) -> ReportData:
    """The same data with the whole analysis computed in memory (best available gain included),
    by the one function ingest and `clue-stats analyse` use, each stage under the budget ``limits``
    (None: no limit; a stage past it is left out, and said so); nothing is written."""
    rows, cuts = analyse_within(data.game, None, data.header.get("source_file"), True, limits)
    games_row = rows.tables["games"][0]
    computed = {row["seat"]: row for row in rows.tables.get("players", [])}
    analysed = (
        "first_certain_seq",
        "missed_win",
        "rated_suggestions",
        "review_accuracy",
        "stated_precision",
        "stated_recall",
    )
    return replace(
        data,
        header={
            **data.header,
            "analysis_version": games_row.get("analysis_version"),
            "analysis_cut": games_row.get("analysis_cut"),
        },
        players=[{**row, **{c: computed.get(row["seat"], {}).get(c) for c in analysed}} for row in data.players],
        suggestions=rows.tables.get("suggestions", []),
        accusations=rows.tables.get("accusations", []),
        statements=rows.tables.get("statements", []),
        information=sorted(
            rows.tables.get("information", []), key=lambda r: (r["seq"], r["observer"] is None, r["observer"] or "")
        ),
        computed=True,
        over_budget=[problem_message(p) for p in cuts],
    )


def entropy_frame(data: ReportData) -> tuple[pl.DataFrame | None, str | None]:
    """Every observer's entropy after each record, and why it is missing when it is (None): read
    from the information rows where the analysis holds them, else counted under the budget in force
    (analysis.review.timeline.game_entropy)."""
    if data.entropy is not None:
        return data.entropy, None
    return timeline.game_entropy(data.game, data.header, data.information, data.over_budget)


# --- sections ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerLine:
    seat: int
    name: str
    character: str | None  # display name
    hand_size: int
    hand_known: bool
    turn_order: int | None
    won: bool
    eliminated: bool
    review_accuracy: float | None = None  # players.review_accuracy (None: no rated suggestion)
    rated_suggestions: int | None = None


@dataclass(frozen=True)
class Brief:
    game_id: str
    edition: str  # display name
    variant: str  # the id (words.variant_words says it)
    played_at: str | None
    place: str | None
    source: str | None
    perspective: str | None
    winner: str | None
    solution: tuple[str, str, str] | None  # display names
    records: int  # records after the game line
    suggestions: int
    accusations: int
    turns: int
    players: list[PlayerLine]
    analysed: bool  # the analysis columns were computed (games.analysis_version set)
    computed: bool  # ... for this report only: the store does not hold them
    over_budget: list[str] = field(default_factory=list)  # what the counting budget left out, and why


@dataclass(frozen=True)
class EntropyLine:
    """One observer's envelope entropy over the game."""

    observer: str  # a player's name, or "table" in the reader's language
    is_table: bool
    start: float  # before anything is known (after the game line)
    after_deal: float  # after the last deal/room_cards record: what the observer began play with
    end: float
    certain_seq: int | None  # players.first_certain_seq (None for the table, which is no player)
    partial_view: bool  # a player whose hand the log does not hold
    series: list[tuple[int, float]]  # (seq, entropy after it)


@dataclass(frozen=True)
class SuggestionLine:
    seq: int
    player: str
    cards: tuple[str, str, str]  # display names
    shown_by: str | None
    shown_card: str | None  # display name; None if nobody showed or the writer did not see it
    expected_gain: float | None
    best_gain: float | None
    best_cards: tuple[str, str, str] | None
    accuracy: float | None
    label: str | None
    giveaway: float | None
    bits_lost: float | None = None
    rated: bool = True  # False: the log does not hold the suggester's hand ("hand not in the log")
    # every column the review shows with a suggestion (ingest.store.schema.REVIEW_COLUMNS), as stored:
    # the review page, the report's tables and --json read a new one from here, untouched
    values: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TimingLine:
    """When a player could have accused, and when (and how) they did."""

    player: str
    certain_seq: int | None
    certain_after: str | None  # the record that made them certain, in words
    accused_seq: int | None
    accused_cards: tuple[str, str, str] | None
    correct: bool | None
    p_correct: float | None
    turns_waited: int | None
    verdict: str  # a few words: "accused as soon as certain", "missed win", ...
    missed_win: bool | None = None  # players.missed_win (None: not analysed)


@dataclass(frozen=True)
class GiveawayLine:
    """What one refuter's choices of card gave away, summed over the suggestions they answered."""

    refuter: str
    refutations: int  # suggestions they showed a card for
    with_choice: int | None  # of those, how many they held several named cards for (None: hand not in the log)
    known: int  # refutations whose giveaway could be computed
    total_bits: float
    largest: SuggestionLine | None  # the refutation that gave the most away (if > 0)


@dataclass(frozen=True)
class Moment:
    """A record that moved the players' entropies the most."""

    seq: int
    what: str  # the record in words
    player: str | None
    gains: dict[str, float]  # player -> gain in bits (signed)
    table_gain: float | None
    moved: float  # sum of |gain| over the players
    note: str | None


@dataclass(frozen=True)
class Note:
    seq: int
    player: str | None
    what: str
    text: str


@dataclass(frozen=True)
class StatedLine:
    """One player's stated deductions in a game, graded (analysis.computers.statements)."""

    player: str
    statements: int  # statement records
    grades: dict[str, int]  # grade -> stated units (missed: provable cross-offs not stated)
    precision: float | None  # players.stated_precision
    recall: float | None  # players.stated_recall


@dataclass(frozen=True)
class PostMortem:
    brief: Brief
    entropy: list[EntropyLine]
    suggestions: list[SuggestionLine]
    best: list[SuggestionLine]
    worst: list[SuggestionLine]
    timing: list[TimingLine]
    giveaways: list[GiveawayLine]
    moments: list[Moment]
    notes: list[Note]
    names: list[str] = field(default_factory=list)  # players in seat order (chart colours)
    stated: list[StatedLine] = field(default_factory=list)
    # why each suggestion that lost bits was worse than the best, in words (analysis.review.why; counted on
    # demand, so filled in by the report command and the dashboard, not by post_mortem)
    whys: dict[int, str] = field(default_factory=dict)
    # each record's line in its file and its turn: how the report names a record ("line 14 (turn 3)")
    places: Places = field(default_factory=Places)


# --- words ------------------------------------------------------------------------------------------


def fmt_bits(value: float | None) -> str:
    """Bits with two decimals, as the reader's language writes them ("0.82", "0,82")."""
    if value is None:
        return "–"
    shown = round(value, 2)
    return decimal(shown if shown != 0 else 0.0)  # never "-0.00"


def fmt_share(value: float | None) -> str:
    """A probability as a percentage; one decimal near 0 and 1, so a long shot is not shown as 0%."""
    if value is None:
        return "–"
    return percent(value, 1 if 0 < value < 0.01 or 0.99 < value < 1 else 0)


def _record(game: Game, seq: int) -> Event | None:
    return game.records[seq - 1] if 1 <= seq <= len(game.records) else None


# --- the computers ------------------------------------------------------------------------------------


def brief(data: ReportData) -> Brief:
    game, header = data.game, data.header
    solution = game.solution()
    by_seat = {p["seat"]: p for p in data.players}
    players = []
    for seat, player in enumerate(game.players):
        row = by_seat.get(seat, {})
        character = player.character
        if character is not None and character in game.deck.suspects:
            character = game.deck.name(character)
        players.append(
            PlayerLine(
                seat=seat,
                name=player.name,
                character=character,
                hand_size=game.hand_sizes[seat],
                hand_known=bool(row.get("hand_known", player.name in game.hands())),
                turn_order=row.get("turn_order"),
                won=bool(row.get("won")),
                eliminated=bool(row.get("eliminated")),
                review_accuracy=row.get("review_accuracy"),
                rated_suggestions=row.get("rated_suggestions"),
            )
        )
    return Brief(
        game_id=game.game_id,
        edition=edition_name(header["edition"] if editions().get(header["edition"]) else CUSTOM),
        variant=header["variant"],
        played_at=game.played_at,
        place=game.place,
        source=game.source,
        perspective=game.perspective,
        winner=header.get("winner"),
        solution=triple_names(game, solution) if solution else None,
        records=len(game.records),
        suggestions=sum(isinstance(r, Suggest) for r in game.records),
        accusations=sum(isinstance(r, Accuse) for r in game.records),
        turns=sum(isinstance(r, Turn) for r in game.records),
        players=players,
        analysed=header.get("analysis_version") is not None,
        computed=data.computed,
        over_budget=list(data.over_budget),
    )


def entropy_lines(data: ReportData, frame: pl.DataFrame) -> list[EntropyLine]:
    """Each observer's entropy after every record, in seat order, then the table."""
    game = data.game
    setup = max((r.seq for r in game.records if isinstance(r, (Deal, RoomCards))), default=0)
    partial = {row["observer"] for row in data.information if row.get("partial_view")}
    certain_at = {row["name"]: row.get("first_certain_seq") for row in data.players}
    hands = game.hands()
    lines = []
    for observer in [*game.names, None]:
        rows = frame.filter(pl.col("observer").is_null() if observer is None else pl.col("observer") == observer)
        series = [(int(s), float(e)) for s, e in rows.sort("seq").select("seq", "entropy").iter_rows()]
        if not series:
            continue
        after_deal = next((e for s, e in reversed(series) if s <= setup), series[0][1])
        certain = certain_at.get(observer) if observer is not None else None
        lines.append(
            EntropyLine(
                observer=observer if observer is not None else _("table"),
                is_table=observer is None,
                start=series[0][1],
                after_deal=after_deal,
                end=series[-1][1],
                certain_seq=certain,
                partial_view=observer is not None and (observer in partial or observer not in hands),
                series=series,
            )
        )
    return lines


def suggestion_lines(data: ReportData) -> list[SuggestionLine]:
    game = data.game
    hands = game.hands()
    lines = []
    for row in data.suggestions:
        best = (row.get("best_suspect"), row.get("best_weapon"), row.get("best_room"))
        lines.append(
            SuggestionLine(
                seq=row["seq"],
                player=row["player"],
                cards=triple_names(game, (row["suspect"], row["weapon"], row["room"])),
                shown_by=row.get("shown_by"),
                shown_card=game.deck.name(row["shown_card"]) if row.get("shown_card") else None,
                expected_gain=row.get("expected_gain_bits"),
                best_gain=row.get("best_gain_bits"),
                best_cards=triple_names(game, best) if all(best) else None,  # type: ignore[arg-type]
                accuracy=row.get("accuracy"),
                label=row.get("label"),
                giveaway=row.get("giveaway_bits"),
                bits_lost=row.get("bits_lost"),
                rated=row["player"] in hands,
                values={column: row.get(column) for column in REVIEW_COLUMNS},
            )
        )
    return lines


def best_and_worst(
    lines: list[SuggestionLine], n: int = TOP_SUGGESTIONS
) -> tuple[list[SuggestionLine], list[SuggestionLine]]:
    """The n most accurate suggestions (ties: the larger gain is better) and the n that lost the most
    bits against the best available (ties: the less accurate is worse). Without accuracy (not
    analysed, or hand not in the log), nothing is ranked."""
    rated = [s for s in lines if s.accuracy is not None]
    best = sorted(rated, key=lambda s: (-s.accuracy, -(s.expected_gain or 0.0), s.seq))[:n]  # type: ignore[operator]
    chosen = {s.seq for s in best}
    worst = [s for s in sorted(rated, key=lambda s: (-(s.bits_lost or 0.0), s.accuracy, s.seq)) if s.seq not in chosen]
    # a suggestion as good as possible is never "worst", even when every one was
    worst = [s for s in worst if s.accuracy < 1.0 - 1e-9][:n]  # type: ignore[operator]
    return best, worst


def timing_lines(data: ReportData) -> list[TimingLine]:
    game = data.game
    certain_by_player = {p["name"]: p.get("first_certain_seq") for p in data.players}
    missed_by_player = {p["name"]: p.get("missed_win") for p in data.players}
    accused = {a["player"]: a for a in data.accusations}
    lines = []
    for name in game.names:
        certain = certain_by_player.get(name)
        missed = missed_by_player.get(name)
        acc = accused.get(name)
        record = _record(game, certain) if certain is not None else None
        if acc is None:
            if certain is None:
                verdict = _("never certain, never accused")
            elif data.header.get("winner") == name:
                verdict = _("won without accusing")
            elif missed:
                verdict = _("missed win: certain, never accused")
            else:
                verdict = _("certain, but had no turn left to accuse")
        else:
            waited = acc.get("turns_waited")
            if acc.get("correct") is False:
                verdict = _("missed win: accused wrongly after being certain") if missed else _("accused wrongly")
            elif certain is None or acc["seq"] < certain:
                verdict = _("accused before being certain")
            elif waited == 0:
                verdict = _("accused in the first turn they were certain")
            elif waited is not None:
                verdict = _("waited {turns} after being certain").format(
                    turns=n_(waited, "{n} own turn", "{n} own turns")
                )
            else:
                verdict = _("accused after being certain")
        lines.append(
            TimingLine(
                player=name,
                certain_seq=certain,
                certain_after=describe(game, record) if record is not None else None,
                accused_seq=acc["seq"] if acc else None,
                accused_cards=triple_names(game, (acc["suspect"], acc["weapon"], acc["room"])) if acc else None,
                correct=acc.get("correct") if acc else None,
                p_correct=acc.get("p_correct") if acc else None,
                turns_waited=acc.get("turns_waited") if acc else None,
                verdict=verdict,
                missed_win=missed,
            )
        )
    return lines


def giveaway_lines(data: ReportData, suggestions: list[SuggestionLine]) -> list[GiveawayLine]:
    """Per refuter, in seat order: refutations, how many offered a choice, the bits given away."""
    game = data.game
    # how many of the named cards each refuter held, as the analysis stored it (suggestions.refuter_choices)
    choices = {row["seq"]: row.get("refuter_choices") for row in data.suggestions}
    lines = []
    for name in game.names:
        shown = [s for s in suggestions if s.shown_by == name]
        if not shown:
            continue
        held = [choices.get(s.seq) for s in shown]
        with_choice = None if None in held else sum(n > 1 for n in held)  # type: ignore[operator]
        known = [s for s in shown if s.giveaway is not None]
        total = sum(s.giveaway for s in known)  # type: ignore[misc]
        largest = max(known, key=lambda s: (s.giveaway, -s.seq), default=None)
        lines.append(
            GiveawayLine(
                refuter=name,
                refutations=len(shown),
                with_choice=with_choice,
                known=len(known),
                total_bits=total,
                largest=largest if largest is not None and largest.giveaway > 1e-12 else None,  # type: ignore[operator]
            )
        )
    return lines


def key_moments(data: ReportData, n: int = TOP_MOMENTS) -> list[Moment]:
    """The records with the largest total |gain| over the players (the information rows)."""
    game = data.game
    names = set(game.names)
    by_seq: dict[int, dict[str | None, float]] = {}
    for row in data.information:
        by_seq.setdefault(row["seq"], {})[row["observer"]] = row["gain_bits"]
    moments = []
    for seq, gains in by_seq.items():
        player_gains = {o: g for o, g in gains.items() if o in names}
        moved = sum(abs(g) for g in player_gains.values())
        if moved <= 1e-12:
            continue
        record = _record(game, seq)
        moments.append(
            Moment(
                seq=seq,
                what=describe(game, record) if record is not None else Places.of(game)(seq),
                player=getattr(record, "player", None),
                gains={o: player_gains[o] for o in game.names if o in player_gains},
                table_gain=gains.get(None),
                moved=moved,
                note=_note(record),
            )
        )
    moments.sort(key=lambda m: (-m.moved, m.seq))
    return moments[:n]


def _note(record: Event | None) -> str | None:
    if record is None:
        return None
    note = record.extra.get("note")
    return str(note) if note is not None else None


def notes(game: Game) -> list[Note]:
    found = []
    header_note = game.header_extra.get("note")
    if header_note is not None:
        found.append(Note(seq=0, player=None, what=_("the game"), text=str(header_note)))
    for record in game.records:
        text = _note(record)
        if text is not None:
            found.append(
                Note(seq=record.seq, player=getattr(record, "player", None), what=describe(game, record), text=text)
            )
    return found


def stated_lines(data: ReportData) -> list[StatedLine]:
    """Per player who stated something: how their claims were graded, and the stored precision and recall."""
    by_player = {p["name"]: p for p in data.players}
    out = []
    for name in data.game.names:
        rows = [r for r in data.statements if r["player"] == name]
        if not rows:
            continue
        grades = {g: 0 for g in GRADES}
        for r in rows:
            if r["claim"] == "remaining" and r["card"] is None:  # a count: its proven part, the rest, its misses
                grades["proven"] += r["proven_units"]
                grades["false" if r["grade"] == "false" else "possible"] += r["stated_units"] - r["proven_units"]
                grades[MISSED] += r["missed_units"]
            else:  # one card, one claim
                grades[r["grade"]] += 1
        row = by_player.get(name, {})
        out.append(
            StatedLine(
                player=name,
                statements=len({r["seq"] for r in rows}),
                grades=grades,
                precision=row.get("stated_precision"),
                recall=row.get("stated_recall"),
            )
        )
    return out


def post_mortem(data: ReportData) -> PostMortem:
    """The report's sections. Pure but for the entropy over the game of a game whose analysis does
    not hold it, which is counted under the budget in force (see :func:`entropy_frame`)."""
    suggestions = suggestion_lines(data)
    best, worst = best_and_worst(suggestions)
    frame, missing = entropy_frame(data)
    if missing is not None:
        data = replace(
            data, over_budget=[*data.over_budget, _("the entropy over the game: {reason}").format(reason=missing)]
        )
    return PostMortem(
        brief=brief(data),
        entropy=entropy_lines(data, frame) if frame is not None else [],
        suggestions=suggestions,
        best=best,
        worst=worst,
        timing=timing_lines(data),
        giveaways=giveaway_lines(data, suggestions),
        moments=key_moments(data),
        notes=notes(data.game),
        names=list(data.game.names),
        stated=stated_lines(data),
        places=Places.of(data.game),
    )
