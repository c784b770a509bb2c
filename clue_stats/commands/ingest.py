"""`ingest`, `validate` and `delete`: getting games into the store (and out again)."""

from __future__ import annotations

import functools
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich import box
from rich.table import Column, Table

from clue_stats.analysis.words import _, decimal, kind_words, n_, problem_layout, variant_words
from clue_stats.commands.limits import MemoryOption, SecondsOption, StatesOption, limits, over_budget_note
from clue_stats.engine.errors import UsageError, said_of
from clue_stats.engine.markers import T_
from clue_stats.exit_codes import ExitCode
from clue_stats.progress import waiting
from clue_stats.typer_app import (
    DbOption,
    JsonOption,
    app,
    check_output_folder,
    database,
    err,
    handled,
    out,
    print_json,
    printable,
)

if TYPE_CHECKING:
    from clue_stats import pipeline

PathsArgument = typer.Argument(
    ..., help="Files and folders (read recursively); - reads standard input (clue-log/1 or the notation)."
)


def _check_paths(paths: list[str]) -> None:
    missing = [p for p in paths if p != "-" and not Path(p).exists()]
    if missing:
        raise UsageError(T_("no such file or folder: {paths}", paths=", ".join(missing)))


def _report_problems(summary: pipeline.Summary) -> None:
    err.print_lines(problem_layout(p) for p in summary.problems)


def _unreadable(summary: pipeline.Summary) -> str:
    """The files and folders not read, beyond the skipped ones: unreadable, special, reached again."""
    parts = [
        n_(summary.files_unreadable, "{n} unreadable", "{n} unreadable") if summary.files_unreadable else "",
        n_(summary.files_special, "{n} not a file (pipe, device)", "{n} not files (pipes, devices)")
        if summary.files_special
        else "",
        n_(summary.folders_repeated, "{n} folder reached again", "{n} folders reached again")
        if summary.folders_repeated
        else "",
    ]
    return "".join(", " + part for part in parts if part)


def _files(summary: pipeline.Summary) -> str:
    """ "3 files read, 0 skipped": the files of a summary, in the reader's language."""
    return _("{files}, {skipped}{unreadable}").format(
        files=n_(summary.files_read, "{n} file read", "{n} files read"),
        skipped=n_(summary.files_skipped, "{n} skipped", "{n} skipped"),
        unreadable=_unreadable(summary),
    )


@app.command("ingest")
@handled
def ingest_command(
    paths: list[str] = PathsArgument,
    db: str | None = DbOption,
    no_analyse: bool = typer.Option(
        False, "--no-analyse", help="Store games without computing their analysis (run `clue-stats analyse` later)."
    ),
    light: bool = typer.Option(
        False,
        "--light",
        help="The analysis without the review (best available gain, accuracy, bits lost, label): faster, for "
        "corpus work; `clue-stats analyse` completes it.",
    ),
    workers: int | None = typer.Option(
        None, "--workers", min=1, help="Processes that check and analyse games (default: up to 2)."
    ),
    wait: float = typer.Option(30.0, "--wait", min=0, help="Seconds to wait for a database held by another process."),
    kind: str | None = typer.Option(
        None,
        "--kind",
        help="Who played these games: tabletop, digital, contest or simulated "
        "(default: what each file's source implies; see clue-stats docs analysis).",
    ),
    replace: bool = typer.Option(
        False,
        "--replace",
        help="Store a game whose id is already stored with other content as that id's new version "
        "(a corrected log), instead of reporting a conflict.",
    ),
    budget_states: int | None = StatesOption,
    budget_memory: float | None = MemoryOption,
    budget_seconds: float | None = SecondsOption,
    json_output: bool = JsonOption,
) -> None:
    """Read game records, check every game, store the valid ones and set the others apart."""

    from clue_stats import pipeline  # deferred: start-up
    from clue_stats.ingest import kinds  # deferred: start-up

    _check_paths(paths)
    if kind is not None:
        try:
            kind = kinds.check_kind(kind)
        except ValueError as exc:
            raise UsageError(T_("--kind: {error}", error=said_of(exc))) from None
    path = database(db)
    game_limits = limits(budget_states, budget_memory, budget_seconds)
    ingest = functools.partial(
        pipeline.ingest_paths,
        paths,
        path,
        analyse=not no_analyse,
        workers=workers,
        wait_seconds=wait,
        review=not light,
        kind=kind,
        replace=replace,
        limits=game_limits,
    )
    with waiting(_("ingesting"), quiet=json_output) as wait_line:
        summary = ingest(
            progress=lambda n, so_far: wait_line.update(
                n,
                what=_("ingesting: {files} read").format(files=n_(so_far.files_read, "{n} file", "{n} files")),
                note=over_budget_note(so_far.games_over_budget),
            )
        )
    if json_output:
        print_json({"database": path, **summary.as_dict()})
    else:
        _report_problems(summary)
        replaced = (
            n_(summary.games_replaced, " ({n} replacing an earlier version)", " ({n} replacing an earlier version)")
            if summary.games_replaced
            else ""
        )
        out.print(
            _("{files}; {games}{replaced}{present}, {rejected}{over_budget} in {seconds} s  ->  {database}").format(
                files=_files(summary),
                games=n_(summary.games_stored, "{n} game stored", "{n} games stored"),
                replaced=replaced,
                # the same game read again (as .clue and as .jsonl, or ingested before) is no fault: kept once
                present=", "
                + n_(
                    summary.games_skipped,
                    "{n} the same as a stored game (kept once)",
                    "{n} the same as stored games (kept once)",
                )
                if summary.games_skipped
                else "",
                rejected=n_(summary.games_rejected, "{n} rejected", "{n} rejected"),
                over_budget=over_budget_note(summary.games_over_budget),
                seconds=decimal(summary.seconds, 1),
                database=path,
            ),
            markup=False,
        )
    raise typer.Exit(summary.exit_code)


@app.command("validate")
@handled
def validate_command(
    paths: list[str] = PathsArgument,
    workers: int | None = typer.Option(None, "--workers", min=1, help="Processes that check games (default: up to 2)."),
    budget_states: int | None = StatesOption,
    budget_memory: float | None = MemoryOption,
    budget_seconds: float | None = SecondsOption,
    json_output: bool = JsonOption,
) -> None:
    """Check game records without a database: every problem as file:line: code: message."""
    from clue_stats import pipeline  # deferred: start-up

    _check_paths(paths)
    with waiting(_("checking"), quiet=json_output) as wait_line:
        summary = pipeline.validate_paths(
            paths,
            workers=workers,
            limits=limits(budget_states, budget_memory, budget_seconds),
            progress=lambda n, so_far: wait_line.update(n, note=over_budget_note(so_far.games_over_budget)),
        )
    if json_output:
        data = summary.as_dict()
        data.pop("games_stored"), data.pop("games_skipped")
        print_json({"games_valid": summary.games_valid, **data})
    else:
        for p in summary.problems:  # errors to stderr, warnings to stdout, in their order
            (err if p.is_error else out).print_lines([problem_layout(p)])
        out.print(
            _("{files}; {games}, {rejected}{over_budget}").format(
                files=_files(summary),
                games=n_(summary.games_valid, "{n} game valid", "{n} games valid"),
                rejected=n_(summary.games_rejected, "{n} rejected", "{n} rejected"),
                over_budget=over_budget_note(summary.games_over_budget),
            ),
            markup=False,
        )
    raise typer.Exit(summary.exit_code)


@app.command("delete")
@handled
def delete_command(
    game_ids: list[str] = typer.Argument(..., help="The ids of the games to remove."),
    db: str | None = DbOption,
    json_output: bool = JsonOption,
) -> None:
    """Remove stored games (ingest a corrected log afterwards)."""
    from clue_stats import pipeline  # deferred: start-up

    path = database(db)
    found = pipeline.delete_games(path, game_ids)
    missing = [g for g in game_ids if g not in found]
    if json_output:
        print_json({"deleted": found, "not_found": missing})
    else:
        deleted = n_(len(found), "{n} game deleted", "{n} games deleted")
        if missing:
            deleted = _("{deleted}; not found: {ids}").format(deleted=deleted, ids=", ".join(missing))
        out.print(deleted, markup=False)
    raise typer.Exit(ExitCode.INPUT_REJECTED if missing else ExitCode.OK)


@app.command("games")
@handled
def games_command(
    db: str | None = DbOption,
    limit: int = typer.Option(50, "--limit", min=1, help="Show at most this many games (newest played first)."),
    kind: list[str] = typer.Option(
        [], "--kind", help="Only games of this kind: tabletop, digital, contest, simulated (repeat for several)."
    ),
    json_output: bool = JsonOption,
) -> None:
    """List the stored games, newest played first, and count what was set apart."""
    from clue_stats.analysis.review.post_mortem import left_out  # deferred: start-up
    from clue_stats.ingest import kinds, store  # deferred: start-up

    try:
        chosen = sorted({kinds.check_kind(k) for k in kind})
    except ValueError as exc:
        raise UsageError(T_("--kind: {error}", error=said_of(exc))) from None
    path = database(db)
    with store.read_connection(path, persons=True) as con:
        listed, total = store.list_games(con, store.GameFilter(kinds=tuple(chosen) or None), limit)
        rejected = store.reads.rejected_count(con)
        games = listed.to_dicts()
        # what the budget left out, said from each partly analysed game's problems
        cuts = {
            g["game_id"]: left_out(store.game_table(con, "problems", g["game_id"]).to_dicts(), g["analysis_cut"])
            for g in games
            if g["analysis_cut"] and not json_output
        }
    if json_output:
        print_json({"games": games, "total": total, "rejected": rejected})
        return
    longest = max((len(printable(g["game_id"])) for g in games), default=4)
    what = " ({kinds})".format(kinds=_(" or ").join(chosen)) if chosen else ""
    counted = n_(total, "{n} game", "{n} games")
    if len(games) < total:
        counted = _("the {shown} newest of {games}").format(shown=len(games), games=counted)
    table = Table(
        # the id is what a user copies into `clue-stats report`: never cut, never wrapped
        Column(_("game"), no_wrap=True, min_width=longest),
        Column(_("played on"), no_wrap=True),
        Column(_("kind")),
        Column(_("edition"), overflow="fold"),
        Column(_("seats"), justify="right"),
        _("winner"),
        title=printable(_("{games}{kinds} in {database}").format(games=counted, kinds=what, database=path)),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    for g in games:
        table.add_row(
            *map(
                printable,
                (
                    g["game_id"],
                    (g["played_at"] or "")[:10],
                    kind_words(g["kind"]) if g["kind"] else "",
                    g["edition"] + ("" if g["variant"] == "standard" else f" ({variant_words(g['variant'])})"),
                    str(g["n_players"]),
                    g["winner"] or "",
                ),
            )
        )
    if games:
        out.print(table)
        for g in games:
            if g["analysis_cut"]:
                out.print(
                    printable(
                        _("{game}: partly analysed: the counting budget left out {what}").format(
                            game=g["game_id"], what=cuts[g["game_id"]]
                        )
                    ),
                    markup=False,
                )
        if any(g["analysis_cut"] for g in games):
            out.print(_("(`clue-stats analyse` with a larger budget completes them)"), markup=False)
    else:
        out.print(_("no games{kinds} in {database}").format(kinds=what, database=path), markup=False)
    out.print(
        n_(
            rejected,
            "{n} rejected game or file kept in the `rejected` table.",
            "{n} rejected games or files kept in the `rejected` table.",
        ),
        markup=False,
    )


@app.command("export")
@handled
def export_command(
    out_dir: str | None = typer.Option(
        None, "--out", help="The folder to write the files into (default: a new folder clue-stats-export-DATE here)."
    ),
    fmt: str = typer.Option("parquet", "--format", help="parquet or csv."),
    pseudonymise: bool = typer.Option(
        False,
        "--pseudonymise",
        "--pseudonymize",
        help="Replace player names with stable pseudonyms; leave out free text.",
    ),
    salt: str = typer.Option(
        "",
        "--salt",
        envvar="CLUE_STATS_SALT",
        help="Secret that keys the pseudonyms (default: a random secret kept in the database, so the same "
        "names get the same pseudonyms in every export of it).",
    ),
    db: str | None = DbOption,
    json_output: bool = JsonOption,
) -> None:
    """Export the tables as Parquet or CSV files (one file a table)."""
    from clue_stats.ingest.export import export  # deferred: start-up

    if fmt not in ("parquet", "csv"):
        raise UsageError(T_("--format must be parquet or csv, not {format}", format=repr(fmt)))
    if out_dir is None:
        out_dir = _dated_folder()
    check_output_folder(out_dir)
    written = export(database(db), out_dir, fmt, pseudonymise, salt)
    if json_output:
        print_json({"out": out_dir, "format": fmt, "rows": written})
    else:
        counts = ", ".join(f"{t} {n}" for t, n in written.items())
        out.print(
            n_(
                len(written),
                "wrote {n} {format} file to {folder}: {counts}",
                "wrote {n} {format} files to {folder}: {counts}",
                format=fmt,
                folder=out_dir,
                counts=counts,
            ),
            markup=False,
        )


def _dated_folder() -> str:
    """clue-stats-export-YYYY-MM-DD in the working directory; -2, -3, ... when that one is taken."""
    base = f"clue-stats-export-{date.today().isoformat()}"
    candidate, n = base, 1
    while Path(candidate).exists():
        n += 1
        candidate = f"{base}-{n}"
    return candidate
