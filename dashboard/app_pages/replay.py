"""Game replay: step through one game record by record and watch what any player knew.

The page can be opened at a game and record by its address (``replay?game=ID&seq=N``): the
Suggestions and Accusations pages link here that way.
"""

from __future__ import annotations

import json
from urllib.parse import urlencode

import polars as pl
import streamlit as st

from clue_stats.analysis.computers.game_analysis import CERTAINTY_STAGE, analysis_words
from clue_stats.analysis.words import N_, _, decimal, label_word, number, said
from clue_stats.analysis.words.records import Places, describe_seq
from clue_stats.dashboard import queries
from clue_stats.dashboard.app_pages import replay_charts
from clue_stats.dashboard.app_pages.charts import draw
from clue_stats.dashboard.app_pages.common import (
    NO_ANALYSIS,
    choose_game,
    no_such_game,
    page_context,
    read,
)
from clue_stats.dashboard.app_pages.page_text import md
from clue_stats.dashboard.app_pages.page_text import percent as share
from clue_stats.dashboard.app_pages.tables import rows as table_rows
from clue_stats.dashboard.app_pages.tables import show
from clue_stats.dashboard.pages import page

MAX_CHART_ROWS = 4000  # Altair's limit is 5,000 rows; long games keep only the records that change entropy

ctx = page_context()
st.title(page("replay").name)
TABLE_LABEL = _("the table (a spectator)")
LEFT_OUT = _("left out, over the counting budget (`clue-stats analyse` with a larger budget completes it)")


def _record_number(text: str) -> int | None:
    """A record number of a link: plain digits only ("²" and "٣" are digits to str.isdigit, not to
    int), short enough to be one (the slider keeps it within the game)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


game_id = choose_game(ctx, "replay", N_("games to replay"), typed=True)
# A link's record (replay?game=...&seq=...) is followed once; after that the slider is the user's.
link = (st.query_params.get("game"), st.query_params.get("seq"))
if link[1] is not None and st.session_state.get("replay_seq_link") != link:
    st.session_state["replay_seq_link"] = link
    linked_seq = _record_number(link[1])
    if linked_seq is None:
        st.warning(
            _("The link's record {record} is not a record number: the game is shown from its start.").format(
                record=md(link[1][:40])
            )
        )
    else:
        st.session_state["replay_seq"] = linked_seq

try:
    data = read(queries.replay_game, ctx.path, ctx.version, game_id)
except queries.GameNotFound:
    no_such_game(game_id)
game = data.game
name = game.deck.name
cut = data.header.get("analysis_cut") or ""
analysis_state = analysis_words(data.header.get("analysis_version"), cut)
if data.over_budget or cut:
    why = f" ({'; '.join(data.over_budget or [cut])})"
    st.warning(
        _(
            "This game is {state}{why}. What was stored is shown; `clue-stats analyse` with a larger budget "
            "completes it."
        ).format(state=md(analysis_state), why=md(why))
    )
n_records = len(game.records)
review_words = _("The game’s review")
st.markdown(
    _("{review}: every suggestion, labelled, and the race to the solution.").format(
        review=f"[{md(review_words)}]({'review?' + urlencode({'game': game_id})})"
    )
)
names = [p.name for p in game.players]
hand_known = dict(zip(data.players["name"].to_list(), data.players["hand_known"].to_list()))

observers: list[str | None] = [*names, None]
if st.session_state.get("replay_observer", "") not in observers:
    st.session_state["replay_observer"] = game.perspective if game.perspective in names else names[0]
observer_words = {o: TABLE_LABEL if o is None else o for o in observers}
observer = st.selectbox(
    _("Observer: whose notebook"), observers, key="replay_observer", format_func=observer_words.__getitem__
)

# ---- stepping
events = data.events
payloads = [json.loads(p) for p in events["payload"].to_list()]
lines = events["line"].to_list()
suggestion_seqs = [s for s, t in zip(events["seq"].to_list(), events["type"].to_list()) if t == "suggest"]
seq_now = st.session_state.get("replay_seq", 0)
st.session_state["replay_seq"] = min(max(int(seq_now), 0), n_records)


def _go(seq: int) -> None:
    st.session_state["replay_seq"] = min(max(seq, 0), n_records)


def _next_suggestion(forward: bool) -> None:
    now = st.session_state["replay_seq"]
    later = [s for s in suggestion_seqs if (s > now if forward else s < now)]
    if later:
        _go(later[0] if forward else later[-1])


# the step buttons and the record beside the notebook they step (on a phone: just above it), three to
# a row so that each label is whole ("Previous suggestion", not "Previous sugg..."), on a phone too
# (two rows, not six buttons one under another above the notebook)
left, right = st.columns([5, 6])
with left:
    with st.container(key="replay-steps"):  # on a phone too, three to a row (common.PAGE_CSS)
        buttons = [*st.columns(3), *st.columns(3)]
    buttons[0].button(_("Start"), on_click=_go, args=(0,), key="replay_start", width="stretch")
    buttons[1].button(
        _("Previous suggestion"), on_click=_next_suggestion, args=(False,), key="replay_prev_sugg", width="stretch"
    )
    buttons[2].button(
        _("Previous record"),
        on_click=lambda: _go(st.session_state["replay_seq"] - 1),
        key="replay_prev",
        width="stretch",
    )
    buttons[3].button(
        _("Next record"), on_click=lambda: _go(st.session_state["replay_seq"] + 1), key="replay_next", width="stretch"
    )
    buttons[4].button(
        _("Next suggestion"), on_click=_next_suggestion, args=(True,), key="replay_next_sugg", width="stretch"
    )
    buttons[5].button(_("End"), on_click=_go, args=(n_records,), key="replay_end", width="stretch")
    if n_records:
        seq = st.slider(_("Record"), 0, n_records, key="replay_seq")
    else:
        seq = 0
        st.caption(_("This game has no records after its header."))

payload = payloads[seq]


places = Places.of(game)


def _at(record: int) -> str:
    """A record as the club typed it: the line of its file and its turn ("Line 14 (turn 3)")."""
    return places(record, start=True)


with left:
    st.markdown(
        _("**{where}**, record {seq} of {records}: {what}").format(
            where=md(_at(seq)), seq=number(seq), records=number(n_records), what=md(describe_seq(game, seq))
        )
    )
    if payload.get("note"):
        st.caption(_("Note in the log: {note}").format(note=md(payload["note"])))

# ---- the deduction: entropy of every observer, the notebook of the chosen one
entropy, entropy_missing = read(queries.replay_timeline, ctx.path, ctx.version, game_id)
if entropy is not None:
    entropy = entropy.with_columns(pl.col("observer").fill_null(TABLE_LABEL))
notebook, notebook_missing = read(queries.notebook, ctx.path, ctx.version, game_id, observer, seq)


def _notebook(notebook: pl.DataFrame) -> None:
    cells = replay_charts.notebook_cells(notebook)
    draw(replay_charts.notebook, replay_charts.notebook_shape(game), {replay_charts.NOTEBOOK: cells})
    st.caption(
        _(
            "How to read this: each cell is the chance, in percent, that the card is in that place, for this "
            "observer after this record (✔: certain; blank: impossible)."
        )
    )
    solution = [data.header.get(f"solution_{c}") for c in ("suspect", "weapon", "room")]
    if seq == n_records and all(solution):
        # the end of the game: what was in the envelope, not what this observer still thought likely
        st.success(
            md(
                _("The solution: {suspect} with {weapon} in {room}").format(
                    suspect=name(solution[0]), weapon=name(solution[1]), room=name(solution[2])
                )
            )
        )
    else:
        envelope = notebook.filter(pl.col("place") == "envelope").sort("probability", descending=True)
        likely = [f"{name(r['card'])} {share(r['probability'])}" for r in envelope.head(3).iter_rows(named=True)]
        st.caption(
            _("Cards most likely in the envelope, for this observer: {cards}").format(cards=md(", ".join(likely)))
        )


def _entropy_chart(entropy: pl.DataFrame) -> None:
    if entropy.height > MAX_CHART_ROWS:
        changed = pl.col("entropy") != pl.col("entropy").shift(1).over("observer")
        entropy = entropy.sort("observer", "seq").filter(changed.fill_null(True) | (pl.col("seq") == n_records))
    draw(
        replay_charts.uncertainty,
        (n_records, TABLE_LABEL if observer is None else observer, tuple(names), TABLE_LABEL),
        {
            replay_charts.ENTROPY: entropy,
            replay_charts.MARKS: pl.DataFrame({"seq": suggestion_seqs}, schema={"seq": pl.Int64}),
            replay_charts.NOW: pl.DataFrame({"seq": [seq]}),
        },
    )
    st.caption(
        _(
            "How to read this: each line is how many bits of uncertainty about the solution (the envelope's "
            "entropy, in plain words: how many yes-or-no questions the observer still needs) an observer still had "
            "after each record; 0 bits is certain. Dotted lines mark suggestions; the black line is the current "
            "record. The Game review page marks the mistakes, blunders, first certain records and accusations on "
            "the same lines."
        )
    )


def _gains_chart(entropy: pl.DataFrame, s: int) -> None:
    before = entropy.filter(pl.col("seq") == s - 1).select("observer", pl.col("entropy").alias("before"))
    after = entropy.filter(pl.col("seq") == s).select("observer", pl.col("entropy").alias("after"))
    gains = before.join(after, on="observer").with_columns((pl.col("before") - pl.col("after")).alias("gain_bits"))
    draw(replay_charts.gains, ((*names, TABLE_LABEL),), {replay_charts.GAINS: gains})
    st.caption(
        _(
            "How to read this: the bits each observer's uncertainty about the solution fell by with this "
            "suggestion and its answers. A red bar below 0 is not a mistake: an answer can rule out deals "
            "that had made one solution look likely, so the chances spread more evenly and the "
            "uncertainty grows, even though the observer knows more."
        )
    )


with left:
    st.subheader(
        _("Notebook of {observer} after record {seq}").format(
            observer=TABLE_LABEL if observer is None else md(observer), seq=number(seq)
        )
    )
    if observer is not None and not hand_known.get(observer, True):
        st.caption(
            _(
                "The log does not hold {player}'s hand, so this notebook knows only what the log shows them: a "
                "partial view, less certain than the player really was."
            ).format(player=md(observer))
        )
    if notebook is None:
        st.warning(_("This notebook was not counted: {reason}.").format(reason=md(notebook_missing or "")))
    else:
        _notebook(notebook)

with right:
    st.subheader(_("Uncertainty over the game"))
    if entropy is None:
        st.warning(
            _("The uncertainty over the game (its entropy) was not computed: {reason}.").format(
                reason=md(entropy_missing or "")
            )
        )
    else:
        _entropy_chart(entropy)
    current = [s for s in suggestion_seqs if s <= seq]
    st.subheader(_("The current suggestion"))
    if not current:
        st.caption(_("No suggestion yet at this record."))
    else:
        s = current[-1]
        st.markdown(md(f"{_at(s)}: {describe_seq(game, s)}"))
        if entropy is None:
            st.caption(_("The information each observer gained: not computed (see above)."))
        else:
            _gains_chart(entropy, s)
        row = data.suggestions.filter(pl.col("seq") == s).to_dicts()
        rated = row[0] if row else {}
        if rated.get("expected_gain_bits") is None and not hand_known.get(rated.get("player"), True):
            st.info(_("Not rated: hand not in the log (the suggester's knowledge is not known)."))
        elif rated.get("expected_gain_bits") is None:
            st.info(_("Expected and best gain: {state}.").format(state=LEFT_OUT if cut else _(NO_ANALYSIS)))
        else:
            # three and two to a row: five in the half page cut the German and Swedish labels and the
            # label's word ("Fe…"); two decimals, so that a number is not cut either
            cols = [*st.columns(3), *st.columns(2)]
            cols[0].metric(_("Expected gain (bits)"), decimal(rated["expected_gain_bits"]))
            if rated.get("best_gain_bits") is None:
                cols[1].metric(
                    _("Best available (bits)"),
                    _("n/a"),
                    help=LEFT_OUT if cut else _("stored with --light: run `clue-stats analyse`"),
                )
            else:
                cols[1].metric(_("Best available (bits)"), decimal(rated["best_gain_bits"]))
            accuracy = rated.get("accuracy")
            cols[2].metric(_("Accuracy"), _("n/a") if accuracy is None else share(accuracy))
            lost = rated.get("bits_lost")
            cols[3].metric(_("Bits lost"), decimal(round(lost, 2) + 0.0) if lost is not None else _("n/a"))
            cols[4].metric(_("Label"), label_word(rated["label"]) if rated.get("label") else _("n/a"))
            if rated.get("best_suspect"):
                st.caption(
                    md(
                        _("Best suggestion at that moment: {suspect} with {weapon} in {room}").format(
                            suspect=name(rated["best_suspect"]),
                            weapon=name(rated["best_weapon"]),
                            room=name(rated["best_room"]),
                        )
                    )
                )

st.subheader(_("When each player became certain"))
analysed = data.header.get("analysis_version") is not None and CERTAINTY_STAGE not in cut
seats = {row["name"]: row for row in data.players.to_dicts()}
if not analysed:
    st.caption(
        _("When each player became certain, and missed wins: {state}.").format(
            state=LEFT_OUT if cut else _(NO_ANALYSIS)
        )
    )
rows = []
for player in names:
    at = seats.get(player, {}).get("first_certain_seq")
    accused = data.accusations.filter(pl.col("player") == player).to_dicts()
    rows.append(
        {
            "player": player,
            "first_certain_seq": at,
            "certain_at": describe_seq(game, at)
            if at is not None
            else (_("never certain") if analysed else _("left out") if cut else _("not analysed")),
            "accused_at": accused[0]["seq"] if accused else None,
            "p_correct": accused[0].get("p_correct") if accused else None,
            "turns_waited": accused[0].get("turns_waited") if accused else None,
            "won": player == data.header.get("winner"),
            "missed_win": seats.get(player, {}).get("missed_win"),
        }
    )
# a card a player on a phone, every column whole (a grid cut it on the right)
certain = pl.DataFrame(rows, infer_schema_length=None)
table_rows(certain.drop("first_certain_seq") if certain["certain_at"].is_not_null().any() else certain, ("player",))
if data.problems.height:
    with st.expander(_("Warnings kept with this game ({count})").format(count=number(data.problems.height))):
        # each message in the reader's language: its stored template said with its values
        messages = [said(*row) for row in data.problems.select("message", "template", "fields").iter_rows()]
        show(data.problems.drop("template", "fields").with_columns(message=pl.Series(messages, dtype=pl.String)))
