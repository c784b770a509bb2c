"""`report`: a stored game's post-mortem, as one self-contained HTML file or as Markdown."""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from clue_stats.analysis.words import _, n_
from clue_stats.commands.limits import MemoryOption, SecondsOption, StatesOption, limits
from clue_stats.engine import budget
from clue_stats.engine.errors import UsageError
from clue_stats.engine.markers import T_
from clue_stats.typer_app import DbOption, app, check_output_file, database, err, handled, out, print_json, write_file

if TYPE_CHECKING:
    from clue_stats.analysis.review.post_mortem import ReportData
    from clue_stats.engine.budget import Limits

FORMATS = ("html", "md")


@app.command("report")
@handled
def report_command(
    game_id: str | None = typer.Argument(None, help="The stored game's id (see `clue-stats games`)."),
    night: str | None = typer.Option(
        None, "--night", help="Instead of one game: every game of this night (YYYY-MM-DD; until 06:00 the next day)."
    ),
    date_from: str | None = typer.Option(None, "--from", help="Every game of the nights from this date (YYYY-MM-DD)."),
    date_until: str | None = typer.Option(None, "--until", help="... until this date, inclusive (YYYY-MM-DD)."),
    out_file: Path | None = typer.Option(
        None,
        "--out",
        help="The file to write (default: GAME_ID.html, night-DATE.html or nights-FROM-UNTIL.html, or .md; '-' for standard output).",
    ),
    fmt: str = typer.Option(
        "html", "--format", help="html (one self-contained file, charts included) or md (Markdown for a forum)."
    ),
    stored_only: bool = typer.Option(
        False,
        "--stored-only",
        help="Use only the analysis the database holds; do not compute what is missing (quick, but a game stored with --light or --no-analyse then has no review).",
    ),
    db: str | None = DbOption,
    json_output: bool = typer.Option(
        False,
        "--json",
        help="Print what was written as JSON, with every suggestion's stored figures (with --out -, the report itself goes to standard output).",
    ),
    budget_states: int | None = StatesOption,
    budget_memory: float | None = MemoryOption,
    budget_seconds: float | None = SecondsOption,
) -> None:
    """A game's post-mortem: entropy over the game, best and worst suggestions, accusation timing,
    what refuters gave away and the key moments. With --night (or --from/--until): the night's
    summary and every game of it on one page. What the store lacks is counted under the same
    budget as ingest's; a game stored over the budget is shown as stored, with the reason."""
    fmt = fmt.lower()
    if fmt not in FORMATS:
        raise UsageError(T_("--format must be html or md, not {format}", format=repr(fmt)))
    path = database(db)
    game_limits = limits(budget_states, budget_memory, budget_seconds)
    nights = _nights(game_id, night, date_from, date_until)
    if nights is not None:
        with budget.limited(game_limits):
            _night_report(path, nights, fmt, out_file, stored_only, json_output, game_limits)
        return
    assert game_id is not None  # _nights asks for one or the other
    from clue_stats.analysis.review.post_mortem import gather, post_mortem  # deferred: start-up
    from clue_stats.analysis.review.rows import suggestion_records  # deferred: start-up
    from clue_stats.ingest import store  # deferred: start-up

    # read everything, then let the file go before the (slower) rendering
    with store.read_connection(path, persons=True) as con:
        data = gather(con, game_id)
    if not stored_only:
        data = _completed(data, game_limits)
    from clue_stats.analysis.review.why import with_reasons  # deferred: start-up

    with budget.limited(game_limits):  # what post_mortem counts (the entropy of a game stored without analysis)
        pm = post_mortem(data)
    pm = with_reasons(pm, data, game_limits)  # why the suggestions that lost bits did, counted on demand
    if fmt == "html":
        from clue_stats.analysis.report.html import render_html  # deferred: start-up

        text = render_html(pm)
    else:
        from clue_stats.analysis.report.markdown import render_markdown  # deferred: start-up

        text = render_markdown(pm)
    if out_file is not None and str(out_file) == "-":
        sys.stdout.write(text)
        return
    target = check_output_file(out_file if out_file is not None else Path(f"{_file_stem(game_id)}.{fmt}"))
    write_file(target, text)
    if json_output:
        print_json(
            {
                "game_id": game_id,
                "out": str(target),
                "format": fmt,
                "bytes": len(text.encode("utf-8")),
                "analysis_computed": data.computed,
                "suggestions": suggestion_records(data),
            }
        )
    else:
        out.print(_("wrote the post-mortem of {game} to {file}").format(game=game_id, file=target), markup=False)


def _completed(data: ReportData, game_limits: Limits) -> ReportData:
    """The report's data with what the store lacks computed under the budget, saying so on stderr;
    a game stored over the budget as it was stored (counting it again would pass the budget again)."""
    from clue_stats.analysis.review.post_mortem import missing_analysis, with_analysis  # deferred: start-up

    game_id = data.game.game_id
    if data.over_budget:
        err.print(
            _(
                "{game} was stored over the counting budget: the report shows what was stored "
                "(`clue-stats analyse` with a larger budget completes it)"
            ).format(game=game_id),
            markup=False,
        )
        return data
    missing = missing_analysis(data)
    if missing is None:
        return data
    # one game's analysis takes seconds; the report should not be missing its core sections
    err.print(
        _("computing {what} of {game} for this report (`clue-stats analyse` stores it) ...").format(
            what=_(missing), game=game_id
        ),
        markup=False,
    )
    data = with_analysis(data, game_limits)
    for message in data.over_budget:
        err.print(f"{game_id}: over_budget: {message}", markup=False)
    return data


def _nights(game_id: str | None, night: str | None, first: str | None, last: str | None) -> tuple[str, str] | None:
    """The nights asked for, or None for one game's report; UsageError for a mix or a bad date."""
    asked = [o for o, v in (("--night", night), ("--from", first), ("--until", last)) if v is not None]
    if game_id is not None:
        if asked:
            raise UsageError(T_("give a game id or {options}, not both", options=" ".join(asked)))
        return None
    if not asked:
        raise UsageError(T_("give a game id (see `clue-stats games`), or --night DATE, or --from DATE --until DATE"))
    # only for nights: the night's module brings the league's statistics (scipy), seconds to import
    from clue_stats.analysis.corpus.night import parse_date  # deferred: start-up

    if night is not None:  # parse_date: a UsageError for what is not a date
        if first is not None or last is not None:
            raise UsageError(T_("--night is one night; --from/--until a range: give one or the other"))
        day = parse_date(night)
        return day, day
    if first is None or last is None:
        raise UsageError(T_("--from and --until go together (or --night DATE for one night)"))
    start, end = parse_date(first), parse_date(last)
    if start > end:
        raise UsageError(T_("--from {start} is after --until {end}", start=start, end=end))
    return start, end


def _night_report(
    path: str,
    nights: tuple[str, str],
    fmt: str,
    out_file: Path | None,
    stored_only: bool,
    json_output: bool,
    game_limits: Limits,
) -> None:
    from clue_stats.analysis.corpus.night import gather_night, night_moments  # deferred: start-up
    from clue_stats.analysis.review.post_mortem import gather, post_mortem  # deferred: start-up
    from clue_stats.analysis.review.why import with_reasons  # deferred: start-up
    from clue_stats.ingest import store  # deferred: start-up
    from clue_stats.ingest.store.queries.nights import nights_played  # deferred: start-up

    first, last = nights
    with store.read_connection(path, persons=True) as con:
        night = gather_night(con, first, last)
        data = [gather(con, g.game_id) for g in night.games]
        known = nights_played(con) if not night.games else []
    if not night.games:
        when = (
            T_("the night of {night}", night=first)
            if first == last
            else T_("the nights {first} to {last}", first=first, last=last)
        )
        hint = (
            T_("; nights with games: {nights}", nights=", ".join(known[-5:]))
            if known
            else T_("; no stored game has a played_at")
        )
        raise UsageError(
            T_(
                "no stored game was played on {when} (a night runs until 06:00 the next day){hint}",
                when=when,
                hint=hint,
            )
        )
    pms = {}
    for d in data:
        if not stored_only:
            d = _completed(d, game_limits)
        pms[d.game.game_id] = with_reasons(post_mortem(d), d, game_limits)
    night_moments(night, pms)
    if fmt == "html":
        from clue_stats.analysis.report.night_document import render_night_html  # deferred: start-up

        text = render_night_html(night, pms)
    else:
        from clue_stats.analysis.report.night_document import render_night_markdown  # deferred: start-up

        text = render_night_markdown(night, pms)
    if out_file is not None and str(out_file) == "-":
        sys.stdout.write(text)
        return
    stem = f"night-{first}" if first == last else f"nights-{first}-{last}"
    target = check_output_file(out_file if out_file is not None else Path(f"{stem}.{fmt}"))
    write_file(target, text)
    if json_output:
        print_json(
            {
                "from": first,
                "until": last,
                "games": [g.game_id for g in night.games],
                "out": str(target),
                "format": fmt,
                "bytes": len(text.encode("utf-8")),
            }
        )
    else:
        out.print(
            n_(
                len(night.games),
                "wrote the summary of {n} game to {file}",
                "wrote the summary of {n} games to {file}",
                file=target,
            ),
            markup=False,
        )


STEM_LIMIT = 80  # characters of a file name made from an id; file systems allow 255 bytes


def _file_stem(game_id: str) -> str:
    """A safe file name from a game id (ids come from logs and may hold any character, any number
    of them): a long id is cut and the cut made unique with a hash of the whole id."""
    stem = re.sub(r"[^0-9A-Za-z._-]+", "_", game_id).strip("._") or "report"
    if len(stem) > STEM_LIMIT:
        digest = hashlib.sha256(game_id.encode("utf-8", errors="surrogatepass")).hexdigest()[:12]
        stem = f"{stem[: STEM_LIMIT - 13].rstrip('._')}-{digest}"
    return stem
