"""Record: a game entered at the table, a turn at a time, phone first.

The recording is the model of ingest/recording.py (the page's state is on disk, not in the session:
a reload, a dropped connection or a second phone at ``record?recording=ID`` goes on where it stood).
Each entry is checked as ingest checks it before it is kept, and its problem is shown where it was
entered. Storing the finished game runs ``clue-stats record FILE --ingest DB``: the pipeline stores
it like an ingested file, on a short connection; the dashboard itself only reads the database.
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from typing import Any

import streamlit as st

from clue_stats.analysis.review import timeline
from clue_stats.analysis.words import _, language, n_, problem_message, variant_words, when
from clue_stats.analysis.words.records import describe
from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages import replay_charts
from clue_stats.dashboard.app_pages.charts import draw
from clue_stats.dashboard.app_pages.common import page_context, phone_layout
from clue_stats.dashboard.app_pages.page_text import md
from clue_stats.dashboard.pages import page
from clue_stats.engine import editions as ed
from clue_stats.engine.game import Suggest, Turn
from clue_stats.ingest import recording as rec

ctx = page_context()
phone_layout()
st.title(page("record").name)
folder = rec.folder_for(ctx.path)
UNKNOWN = "?"


def _problems(problems: list[Any]) -> None:
    """A problem of an entry made by buttons: its sentence (the notation line and caret under it, which
    the page wrote and not the user, are left out)."""
    for p in problems:
        (st.error if p.is_error else st.warning)(md(problem_message(p).split("\n", 1)[0]), icon=":material/error:")


def _open(recording_id: str) -> rec.Recording | None:
    try:
        path = rec.path_for(folder, recording_id)
        return rec.Recording.open(path) if path.exists() else None
    except rec.RecordingError as exc:
        st.error(md(str(exc)))
        st.stop()


def _change(recording_id: str, change: Any) -> Any:
    """One change of the recording, the file held meanwhile (two phones take turns)."""
    path = rec.path_for(folder, recording_id)
    with rec.locked(path):
        recording = rec.Recording.open(path)
        return change(recording)


# ---------------------------------------------------------------- setup, in the order the table plays


def _league_names() -> list[str]:
    try:
        return list(queries.person_view(ctx.path, ctx.version, ctx.filters, "")["players"])
    except (queries.StoreBusy, queries.StoreError):
        return []


def _setup() -> None:
    st.caption(_("Set the game up in the order the table plays; then enter it a turn at a time."))
    editions = ed.editions()
    edition_id = st.selectbox(
        _("Edition"), list(editions), format_func=lambda e: queries.edition_name(e), key="setup_edition"
    )
    variant = st.selectbox(_("Variant"), list(ed.variants()), format_func=variant_words, key="setup_variant")
    players = st.multiselect(
        _("Players, in seat order (clockwise)"),
        _league_names(),
        key="setup_players",
        accept_new_options=True,
        placeholder=_("choose or type a name"),
    )
    day = st.date_input(_("Date"), value=dt.date.today(), key="setup_date", format="YYYY-MM-DD")
    hour = st.time_input(_("Time"), value=dt.datetime.now().time().replace(second=0, microsecond=0), key="setup_time")
    place = st.text_input(_("Place"), key="setup_place")
    recorder = st.selectbox(_("Who records"), [None, *players], key="setup_recorder", format_func=lambda p: p or "–")
    deck = editions[edition_id].deck
    hand: list[str] = []
    if recorder:
        hand = st.multiselect(_("Your cards (optional)"), list(deck.cards), format_func=deck.name, key="setup_hand")
    if not st.button(_("Start recording"), type="primary", key="setup_start", use_container_width=True):
        return
    header: dict[str, Any] = {"type": "game", "format": "clue-log/1", "edition": edition_id}
    if variant != "standard":
        header["variant"] = variant
    header["players"] = [{"name": p} for p in players]
    if recorder:
        header["perspective"] = recorder
    header["source"] = "tabletop"
    header["played_at"] = f"{day.isoformat()}T{hour.strftime('%H:%M')}"
    if place.strip():
        header["place"] = place.strip()
    folder.mkdir(parents=True, exist_ok=True)
    recording_id = rec.new_id()
    recording, problems = rec.Recording.start(rec.path_for(folder, recording_id), header)
    if recording is None:
        _problems(problems)
        return
    if hand and recorder:
        outcome = recording.enter({"type": "deal", "player": recorder, "cards": hand})
        if not outcome.accepted:
            _problems(outcome.problems)
    st.query_params["recording"] = recording_id
    st.rerun()


# ---------------------------------------------------------------- a turn at a time


def _next_player(recording: rec.Recording) -> str:
    names = recording.game.names
    last = next((r.player for r in reversed(recording.game.records) if isinstance(r, (Suggest, Turn))), None)
    return names[0] if last is None else names[(names.index(last) + 1) % len(names)]


def _entered(recording_id: str, record: dict[str, Any], where: Any) -> None:
    outcome = _change(recording_id, lambda r: r.enter(record))
    if outcome.accepted:
        st.session_state["record_flash"] = outcome.problems
        st.rerun()
    with where:
        _problems(outcome.problems)


def _suggestion(recording_id: str, recording: rec.Recording) -> None:
    game, deck = recording.game, recording.game.deck
    names = list(game.names)
    turn = recording.count
    box = st.container(border=True)
    with box:
        st.subheader(_("Suggestion"))
        player = st.segmented_control(
            _("Who suggests"), names, default=_next_player(recording), key=f"sug_player_{turn}"
        )
        cards = {}
        for category, label in (("suspects", _("Suspect")), ("weapons", _("Weapon")), ("rooms", _("Room"))):
            cards[category] = st.pills(
                label, list(deck.of(category)), format_func=deck.name, key=f"sug_{category}_{turn}"
            )
        others = names[names.index(player) + 1 :] + names[: names.index(player)] if player else []
        shower = st.pills(
            _("Who showed a card (everyone before passed)"),
            [*others, ""],
            format_func=lambda p: p or _("nobody"),
            key=f"sug_shower_{turn}",
        )
        named = [c for c in cards.values() if c]
        shown = UNKNOWN
        if shower and len(named) == 3:
            shown = (
                st.pills(
                    _("The card shown, if you saw it"),
                    [*named, UNKNOWN],
                    default=UNKNOWN,
                    format_func=lambda c: _("unknown") if c == UNKNOWN else deck.name(c),
                    key=f"sug_shown_{turn}",
                )
                or UNKNOWN
            )
        problems = st.container()
        if st.button(_("Save the suggestion"), type="primary", key=f"sug_save_{turn}", use_container_width=True):
            if not player or len(named) < 3 or shower is None:
                with problems:
                    st.error(_("Choose who suggests, the three cards and who showed a card (or nobody)."))
                return
            if shower:
                answers = others[: others.index(shower) + 1]
                responses = [{"player": p, "shows": None} for p in answers[:-1]]
                responses.append({"player": shower, "shows": shown})
            else:
                responses = [{"player": p, "shows": None} for p in others]
            record = {
                "type": "suggest",
                "player": player,
                "suspect": cards["suspects"],
                "weapon": cards["weapons"],
                "room": cards["rooms"],
                "responses": responses,
            }
            _entered(recording_id, record, problems)


def _accusation(recording_id: str, recording: rec.Recording) -> None:
    game, deck = recording.game, recording.game.deck
    turn = recording.count
    verdicts = {"right": _("right"), "wrong": _("wrong")}
    with st.expander(_("Accusation")):
        player = st.selectbox(_("Who accuses"), list(game.names), key=f"acc_player_{turn}")
        triple = [
            st.selectbox(label, list(deck.of(category)), format_func=deck.name, key=f"acc_{category}_{turn}")
            for category, label in (("suspects", _("Suspect")), ("weapons", _("Weapon")), ("rooms", _("Room")))
        ]
        verdict = st.segmented_control(
            _("Outcome"), ["right", "wrong"], format_func=verdicts.__getitem__, key=f"acc_verdict_{turn}"
        )
        problems = st.container()
        if st.button(_("Save the accusation"), key=f"acc_save_{turn}", use_container_width=True):
            record: dict[str, Any] = {
                "type": "accuse",
                "player": player,
                "suspect": triple[0],
                "weapon": triple[1],
                "room": triple[2],
            }
            if verdict:
                record["correct"] = verdict == "right"
            _entered(recording_id, record, problems)


def _line(recording_id: str, recording: rec.Recording) -> None:
    """Everything else the notation says (a clue card, a reveal, a peek, the duel's room cards, a move)."""
    turn = recording.count
    with st.expander(_("Another record (a clue card, a reveal, a peek, the room cards)")):
        st.caption(
            _("Written as in the notation, e.g. 'Ben reveals Dolch to all cause clue card' or 'Jonas peeks Küche ?'.")
        )
        text = st.text_input(_("Record"), key=f"line_{turn}")
        problems = st.container()
        if st.button(_("Save the record"), key=f"line_save_{turn}", use_container_width=True) and text.strip():
            outcome = _change(recording_id, lambda r: r.enter_line(text))
            if outcome.accepted:
                st.rerun()
            with problems:
                for p in outcome.problems:
                    st.error(md(problem_message(p).split("\n", 1)[0]))
                    st.code(problem_message(p).split("\n", 1)[-1], language=None)


def _end(recording_id: str, recording: rec.Recording) -> None:
    game, deck = recording.game, recording.game.deck
    turn = recording.count
    with st.expander(_("End of the game")):
        known = game.hands()
        hands = {}
        for name in game.names:
            if name not in known:
                hands[name] = st.multiselect(
                    _("{player}'s cards, if shown").format(player=name),
                    list(deck.cards),
                    format_func=deck.name,
                    key=f"end_hand_{name}_{turn}",
                )
        winner = st.selectbox(
            _("Winner"), ["", *game.names], format_func=lambda p: p or _("nobody"), key=f"end_winner_{turn}"
        )
        problems = st.container()
        if st.button(_("End the game"), key=f"end_save_{turn}", use_container_width=True):

            def finish(r: rec.Recording) -> Any:
                for name, cards in hands.items():
                    if cards:
                        outcome = r.enter({"type": "deal", "player": name, "cards": cards})
                        if not outcome.accepted:
                            return outcome
                return r.enter({"type": "end", "winner": winner or None, "solution": None})

            outcome = _change(recording_id, finish)
            if outcome.accepted:
                st.rerun()
            with problems:
                _problems(outcome.problems)


def _notebook(recording: rec.Recording) -> None:
    st.caption(
        _(
            "Off unless you turn it on: exact chances at the table help the one who records, so the table "
            "decides whether it is fair play."
        )
    )
    if not st.toggle(_("My notebook"), key="record_notebook"):
        return
    me = recording.game.perspective
    if me is None:
        st.info(_("Say who records (in the setup) to see their notebook."))
        return
    frame, missing = timeline.notebook_within(recording.game, me, len(recording.game.records), timeline.page_limits())
    if frame is None:
        st.warning(_("This notebook was not counted: {reason}.").format(reason=md(missing or "")))
        return
    draw(
        replay_charts.notebook,
        replay_charts.notebook_shape(recording.game),
        {replay_charts.NOTEBOOK: replay_charts.notebook_cells(frame)},
    )


def _save(recording_id: str, recording: rec.Recording) -> None:
    """The finished game stored by the command line's recorder (the pipeline, as ingest stores)."""
    if not st.button(_("Save and review"), type="primary", key="record_store", use_container_width=True):
        return
    with st.spinner(_("Storing the game with its review")):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "clue_stats",
                "--lang",
                language(),
                "record",
                str(recording.path),
                "--ingest",
                ctx.path,
            ],
            input="",
            capture_output=True,
            text=True,
            timeout=600,
        )
    if done.returncode != 0:
        st.error(md(done.stderr.strip() or done.stdout.strip()))
        return
    st.cache_data.clear()
    game_id = recording.game.declared_id or recording.game.game_id
    st.success(_("Stored: [the game's review](review?game={game}).").format(game=game_id))


def _records(recording: rec.Recording) -> None:
    game = recording.game
    with st.expander(
        n_(recording.count, "The game so far ({n} record)", "The game so far ({n} records)"), expanded=False
    ):
        for event in game.records:
            st.markdown(f"{event.seq}. {md(describe(game, event))}")


recording_id = st.query_params.get("recording")
if not recording_id:
    _setup()
    st.stop()
recording = _open(recording_id)
if recording is None:
    st.warning(_("There is no recording {recording}.").format(recording=md(recording_id)))
    if st.button(_("Record a new game"), key="record_new"):
        del st.query_params["recording"]
        st.rerun()
    st.stop()

game = recording.game
st.caption(" · ".join([queries.edition_name(game.edition_id), ", ".join(game.names), when(game.played_at) or ""]))
for p in st.session_state.pop("record_flash", []):
    st.warning(md(problem_message(p)))
if game.records:
    st.success(f"{recording.count}. {md(describe(game, game.records[-1]))}")
if recording.finished:
    _save(recording_id, recording)
else:
    _suggestion(recording_id, recording)
    _accusation(recording_id, recording)
    _line(recording_id, recording)
    _end(recording_id, recording)
if recording.count and st.button(
    _("Undo the last record"), key=f"record_undo_{recording.count}", use_container_width=True
):
    _change(recording_id, lambda r: r.undo())
    st.rerun()
_records(recording)
_notebook(recording)
st.caption(_("Every record is on the disk at once: this address goes on where the game stands, on any phone."))
if st.button(_("Record a new game"), key="record_another"):
    del st.query_params["recording"]
    st.rerun()
