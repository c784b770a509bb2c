"""The pipeline that joins the parts: readers -> rules engine -> analysis -> store.

Games are read and checked (and analysed) in worker processes when there are many, and written by
this process in batches: each batch is one transaction of whole games, and the database file is
held only while a batch is written, so a dashboard can read between batches. `clue-stats analyse`
(:func:`analyse_store`) runs stored games through the same analysis and writes it back the same way.

Each game's checks, and then each stage of its analysis, run under a budget (engine.budget, the
limits given or the defaults): a game whose checks pass it is judged by the checks that finished and
stored or rejected with an ``over_budget`` problem; a stage of the analysis past it is left out
(``games.analysis_cut`` names it), the other stages kept; and the run goes on. Games stored before the run (the same content hash)
are recognised as soon as they are read, before their checks and analysis.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clue_stats import children
from clue_stats.engine import budget
from clue_stats.engine.errors import InputError, said_of
from clue_stats.engine.game import Game
from clue_stats.engine.markers import T_, Count
from clue_stats.engine.problems import Problem
from clue_stats.engine.rules import Replay, validate
from clue_stats.exit_codes import ExitCode
from clue_stats.ingest import cluelog, formats, store
from clue_stats.ingest.raw import RawGame
from clue_stats.ingest.rows import game_rows
from clue_stats.ingest.store import GameRows, Rejection, Store, reads
from clue_stats.ingest.store.queries import nights as night_reads
from clue_stats.ingest.store.schema import ANALYSIS_VERSION
from clue_stats.ingest.walk import REPEATED, Skipped, collect_files

BATCH_GAMES = 1000  # games per write transaction
ANALYSE_BATCH = 200  # stored games read, analysed and written back at a time (analyse_store)
BATCH_FILE_REJECTIONS = 5_000  # rejected files (empty, unreadable) per write transaction
# or what five seconds gave: the games a long ingest has checked show that soon to readers (each
# opening of the file costs the writer 20 to 50 CPU ms: with the analysis, a batch holds few games)
BATCH_SECONDS = 5.0
BUSY_WAIT = 0.5  # seconds a batch waits for a reader that holds the file before it stays pending
MAX_PENDING = 4 * BATCH_GAMES  # checked games kept waiting for the file before ingest waits with them
PARALLEL_FROM = 64  # games in a window before worker processes pay off
WINDOW = 256  # games handed to the workers at a time (bounds memory on huge files)
WINDOWS_AHEAD = 2  # windows given to the workers before the outcomes of the first are taken
# games a worker takes at a time: few where each is analysed (a game that takes its whole budget holds
# back only the few beside it), more where each is only checked (a game's messages cost as much as
# its checks)
CHUNK, CHUNK_UNANALYSED = 2, 16


@dataclass
class Summary:
    files_read: int = 0
    files_skipped: int = 0
    files_unreadable: int = 0  # files and folders that could not be opened or listed (code `unreadable`)
    files_special: int = 0  # pipes, devices, sockets and links to themselves, not read (code `not_a_file`)
    folders_repeated: int = 0  # folders reached again through a link, not read again (code `folder_again`)
    games_stored: int = 0
    games_replaced: int = 0  # of the stored: new versions of ids stored before (ingest --replace)
    games_skipped: int = 0
    games_rejected: int = 0
    games_valid: int = 0  # validate: games that passed
    seconds: float = 0.0  # ingest: how long it took
    games_over_budget: int = 0  # games whose checks or analysis passed the budget
    problems: list[Problem] = field(default_factory=list)
    skipped_files: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> ExitCode:
        rejected = self.games_rejected or any(p.is_error for p in self.problems)
        return ExitCode.INPUT_REJECTED if rejected else ExitCode.OK

    def as_dict(self) -> dict[str, Any]:
        return {
            "files_read": self.files_read,
            "files_skipped": self.files_skipped,
            "files_unreadable": self.files_unreadable,
            "files_special": self.files_special,
            "folders_repeated": self.folders_repeated,
            "games_stored": self.games_stored,
            "games_replaced": self.games_replaced,
            "games_skipped": self.games_skipped,
            "games_rejected": self.games_rejected,
            "seconds": self.seconds,
            "games_over_budget": self.games_over_budget,
            "problems": [
                {
                    "file": p.source_file,
                    "line": p.line,
                    "column": p.column,
                    "seq": p.seq,
                    "code": p.code,
                    "severity": p.severity,
                    "message": p.message,
                }
                for p in self.problems
            ],
        }


@dataclass
class Outcome:
    """What checking one game gave: rows to store, or a rejection; problems either way. Neither for
    a game ``stored`` before the run (its content hash known), which is not checked again."""

    rows: GameRows | None
    rejection: Rejection | None
    problems: list[Problem]
    stored: bool = False

    @property
    def over_budget(self) -> bool:
        return any(p.code == "over_budget" for p in self.problems)


def _unreadable(path: str | Path, exc: OSError, what: str = "cannot read the file") -> Problem:
    return Problem("unreadable", f"{what}: {exc.strerror or exc}", source_file=str(path))


def build_checked(
    raw: RawGame, limits: budget.Limits | None = None
) -> tuple[Game | None, Replay | None, list[Problem]]:
    """Build one game and check it by the rules, under ``limits`` (default: the environment's or
    the defaults): (game, its replay, problems in line order). The game and replay are None when
    the game cannot be used (any error); the game is kept when it was built, so that a rejection
    can name it. Never raises on bad input."""
    game, problems = cluelog.build_game(raw)
    if game is None:
        return None, None, in_line_order(problems)
    return _validated(game, raw, problems, limits or budget.Limits.from_env())


def _validated(
    game: Game, raw: RawGame, problems: list[Problem], limits: budget.Limits | budget.Budget
) -> tuple[Game, Replay | None, list[Problem]]:
    with budget.limited(limits):
        replay = validate(game)
    if raw.transcript:  # the program that ran the game wrote it: a broken rule is the player's act
        replay.problems = [p.as_finding() for p in replay.problems]
    replay.problems = replay.problems + list(raw.findings)  # stored with the game (rows from the replay's)
    problems = in_line_order(problems + [p.located(raw.source_file) for p in replay.problems])
    return game, (None if any(p.is_error for p in problems) else replay), problems


def in_line_order(problems: list[Problem]) -> list[Problem]:
    """A game's problems by line (those of no line first), in the order found within a line."""
    return sorted(problems, key=lambda p: -1 if p.line is None else p.line)


# Content hashes of the games stored before this run: set in this process and in every worker by
# ingest_paths, so that a game already stored is recognised before its checks and analysis.
_STORED: frozenset[str] = frozenset()


def _remember_stored(hashes: frozenset[str]) -> None:
    global _STORED
    _STORED = hashes


def _start_worker(parent: int, hashes: frozenset[str]) -> None:
    """A worker's first step: end with the process that started it (whatever signal ends that), and
    know the games stored before the run."""
    children.end_with_parent(parent)
    _remember_stored(hashes)


def check(raw: RawGame, analyse: bool = False, review: bool = True, limits: budget.Limits | None = None) -> Outcome:
    """Build, validate and (optionally) analyse one game, with the whole review unless ``review`` is
    False (the lighter level), each under ``limits`` (default: the environment's or the defaults).
    Never raises on bad input; a fault of the program on this game rejects it with an
    `internal_error` problem, and the run goes on."""
    try:
        return _check(raw, analyse, review, limits)
    except Exception as exc:
        return _failed_game(raw, exc)


def _failed_game(raw: RawGame, exc: BaseException) -> Outcome:
    problems = [
        *(p.located(raw.source_file) for p in raw.problems),
        failed(exc, raw.source_file, raw.first_line, game=True),
    ]
    rejection = Rejection(
        source_file=raw.source_file, line=raw.first_line, raw=raw.text, problems=problems, game_id=_declared_id(raw)
    )
    return Outcome(None, rejection, problems)


def _check(raw: RawGame, analyse: bool, review: bool, limits: budget.Limits | None) -> Outcome:
    limits = limits or budget.Limits.from_env()
    checks = budget.Budget(limits)  # its seconds run from here: reading the game is a part of its checks
    game, problems = cluelog.build_game(raw)
    if game is not None and game.content_sha256 in _STORED:
        return Outcome(None, None, in_line_order(problems), stored=True)
    replay = None
    if game is not None:
        game, replay, problems = _validated(game, raw, problems, checks)
    else:
        problems = in_line_order(problems)
    if game is None or replay is None:
        rejection = Rejection(
            source_file=raw.source_file,
            line=raw.first_line,
            raw=raw.text,
            problems=problems,
            game_id=game.game_id if game is not None else _declared_id(raw),
        )
        return Outcome(None, rejection, problems)
    # the records as read are not needed past here (the game holds them): a long game's are let go
    # before its analysis (10^5 statements: 120 MiB); the game record stays, for the id a fault names.
    # New lists, not the same ones cut: a caller's lists (the arena's game) are left as they are
    raw.records, raw.lines = raw.records[:1], raw.lines[:1]
    if not analyse:
        rows = game_rows(game, replay, raw.source_file)
    elif any(p.code == "over_budget" for p in replay.problems):
        # the checks ran out of budget already: the analysis counts as much or more
        replay.problems = [_not_analysed(p) for p in replay.problems]
        problems = [_not_analysed(p) for p in problems]
        rows = game_rows(game, replay, raw.source_file)
    else:
        from clue_stats.analysis.computers.game_analysis import analyse_within  # deferred: start-up

        rows, cuts = analyse_within(game, replay, raw.source_file, review, limits)
        if cuts:
            problems = in_line_order([*problems, *(p.located(raw.source_file) for p in cuts)])
    if raw.kind is not None:  # the reader knows who played (or the user said so): not judged from the record
        rows.tables["games"][0]["kind"] = raw.kind
    rows.raw = raw.text  # kept in case the store finds its id taken (duplicate_id)
    return Outcome(rows, None, problems)


def _check_sent(raw: RawGame, analyse: bool, review: bool, limits: budget.Limits) -> Outcome:
    """:func:`check` in a worker: the outcome goes back without the game's text (the process that
    sent the game has it)."""
    outcome = check(raw, analyse, review, limits)
    if outcome.rows is not None:
        outcome.rows.raw = None
    return outcome


def _not_analysed(p: Problem) -> Problem:
    if p.code != "over_budget":
        return p
    said = T_("{problem}; the game is stored without its analysis", problem=p.said or p.message)
    return dataclasses.replace(p, message=str(said), said=said)


def _declared_id(raw: RawGame) -> str | None:
    if raw.records and isinstance(raw.records[0], dict):
        value = raw.records[0].get("id")
        return value if isinstance(value, str) else None
    return None


def _check_many(
    raws: list[RawGame],
    analyse: bool,
    pool: ProcessPoolExecutor | None,
    limits: budget.Limits,
    review: bool = True,
    warm: bool = False,
) -> Iterator[Outcome]:
    """The outcomes in the order of the games, each as soon as it and those before it are done. A
    few games are checked in this process, unless the workers are running already (``warm``: the
    last games of a large input)."""
    if pool is None or (len(raws) < PARALLEL_FROM and not warm):
        return (check(r, analyse, review, limits) for r in raws)
    n = len(raws)
    chunk = CHUNK if analyse else CHUNK_UNANALYSED
    return pool.map(_check_sent, raws, [analyse] * n, [review] * n, [limits] * n, chunksize=chunk)


def read_items(files: Iterable[Path | Problem | Skipped], summary: Summary) -> Iterator[RawGame | Problem]:
    for path in files:
        if isinstance(path, Skipped):  # a pipe, a device, a folder reached again: a warning, counted
            if path.kind == REPEATED:
                summary.folders_repeated += 1
            else:
                summary.files_special += 1
            yield path.problem
            continue
        if isinstance(path, Problem):  # a folder that cannot be listed, a link to nothing
            summary.files_unreadable += 1
            yield path
            continue
        try:
            items = formats.read_file(path)
        except OSError as exc:
            summary.files_unreadable += 1
            yield _unreadable(path, exc)
            continue
        except Exception as exc:  # a fault of a reader: a problem of this file, and on with the run
            summary.files_read += 1
            yield failed(exc, str(path))
            continue
        if isinstance(items, formats.FileSkipped):
            summary.files_skipped += 1
            summary.skipped_files.append(str(path))
            if items.problem is not None:
                yield items.problem
            continue
        summary.files_read += 1
        try:
            yield from items
        except OSError as exc:  # a file that stops being readable part way
            summary.files_read -= 1
            summary.files_unreadable += 1
            yield _unreadable(path, exc)
        except Exception as exc:  # a fault of a reader part way: the games before it are kept
            yield failed(exc, str(path))


def failed(exc: BaseException, source_file: str | None, line: int | None = None, game: bool | str = False) -> Problem:
    """A fault of clue-stats while reading or checking one file or game (``game``: True, or the id of
    a stored game), as that file's or game's problem (`internal_error`): the run goes on with the rest."""
    reason = f"{type(exc).__name__}: {exc}"[:300]
    what = (
        T_("the stored game {game}", game=game)
        if isinstance(game, str)
        else T_("this game")
        if game
        else T_("this file")
    )
    return Problem.of(
        "internal_error",
        T_(
            "clue-stats failed on {what} ({reason}); the rest of the run goes on: please report it with the file",
            what=what,
            reason=reason,
        ),
        line=line,
        source_file=source_file,
    )


def _windows(items: Iterator[RawGame | Problem], size: int) -> Iterator[tuple[list[RawGame], list[Problem]]]:
    raws: list[RawGame] = []
    problems: list[Problem] = []
    for item in items:
        if isinstance(item, RawGame):
            raws.append(item)
            if len(raws) >= size:
                yield raws, problems
                raws, problems = [], []
        else:
            problems.append(item)
            if len(problems) >= size:  # a folder of files without games: on with the run all the same
                yield raws, problems
                raws, problems = [], []
    yield raws, problems


def _pool(workers: int | None, stored: frozenset[str] = frozenset()) -> ProcessPoolExecutor | None:
    workers = workers if workers is not None else min(2, os.cpu_count() or 1)
    if workers <= 1:
        return None
    # The workers are forked: they inherit this process's objects, garbage included. A cycle of garbage
    # holding a live DuckDB connection (a caught exception's frames, a library caller's leftovers) that a
    # worker's collector finalizes there, without the threads DuckDB has here, kills the worker
    # (BrokenProcessPool; seen in CI). So everything is frozen until the pool ends (gc.freeze: a worker's
    # collector never looks at it) and this process collects it afterwards, where that is safe. Freezing
    # costs nothing; a full collection here would cost a large process a fifth of a second per pool.
    gc.freeze()
    return ProcessPoolExecutor(max_workers=workers, initializer=_start_worker, initargs=(os.getpid(), stored))


def _end(pool: ProcessPoolExecutor | None) -> None:
    """Stop the workers and let this process collect what was frozen for them."""
    if pool is not None:
        pool.shutdown()
        gc.unfreeze()


def validate_paths(
    paths: list[str],
    workers: int | None = None,
    limits: budget.Limits | None = None,
    progress: Callable[[int, Summary], None] | None = None,
) -> Summary:
    """`clue-stats validate`: every check, no database. ``progress(games, summary)`` is told how many
    more games were checked."""
    summary = Summary()
    limits = limits or budget.Limits.from_env()
    pool = _pool(workers)
    warm = False  # the workers have started
    try:
        for raws, file_problems in _windows(read_items(collect_files(paths), summary), WINDOW):
            summary.problems.extend(file_problems)
            summary.games_rejected += sum(1 for p in file_problems if p.is_error)
            for outcome in _check_many(raws, False, pool, limits, warm=warm):
                summary.problems.extend(outcome.problems)
                summary.games_over_budget += outcome.over_budget
                if outcome.rejection is not None:
                    summary.games_rejected += 1
                else:
                    summary.games_valid += 1
            if progress is not None:
                progress(len(raws), summary)
            warm = warm or (pool is not None and len(raws) >= PARALLEL_FROM)
    finally:
        _end(pool)
    return summary


def _file_rejection(p: Problem) -> Rejection:
    return Rejection(source_file=p.source_file, line=p.line, raw="", problems=[p])


def ingest_paths(
    paths: list[str],
    db: str | Path,
    analyse: bool = True,
    workers: int | None = None,
    progress: Callable[[int, Summary], None] | None = None,
    wait_seconds: float = 30.0,
    kind: str | None = None,
    replace: bool = False,
    review: bool = True,
    limits: budget.Limits | None = None,
) -> Summary:
    """`clue-stats ingest`: read, check, analyse (with the whole review unless ``review`` is False)
    and store; idempotent. ``kind`` (ingest.kinds), when given, is the kind of every game read,
    whatever its source implies. ``replace``: a game whose id is stored with other content replaces
    that version instead of being rejected as a conflict. ``progress(games, summary)`` is called as
    games are checked (the summary so far). Each game's checks and analysis run under ``limits``
    (default: the environment's or the defaults)."""
    clock = time.monotonic()
    summary = Summary()
    limits = limits or budget.Limits.from_env()
    with store.write_connection(db, wait_seconds) as con:
        started = store.start_run(con, [str(p) for p in paths])
        stored = reads.stored_hashes(con)
    pending_rows: list[GameRows] = []
    pending_rejections: list[Rejection] = []
    last_write = time.monotonic()
    retry_at = 0.0  # a batch the file was not free for is tried again from this time on
    busy = False  # the file stayed held by another process: the run ends without its last writes
    completed = finished = False  # every game read, checked and stored; the run's row finished

    def finish(con: Store, rate: bool) -> None:
        """The run's row finished and, with ``rate`` (a run that went to its end: a failed run's
        games are rated by the next run), the ratings brought in line with the games stored, in one
        transaction."""
        nonlocal finished
        finished = True
        with con.atomic():
            if rate:
                update_ratings(con)
            store.finish_run(
                con,
                started,
                files_read=summary.files_read,
                files_skipped=summary.files_skipped,
                games_stored=summary.games_stored,
                games_skipped=summary.games_skipped,
                games_rejected=summary.games_rejected,
            )

    def flush(last: bool = False) -> None:
        """Write the games checked so far, if the file can be had. While a reader holds it, the
        batch waits only briefly and stays pending (checking goes on, the next flush tries again);
        the last batch, or one that has grown to MAX_PENDING games, waits ``wait_seconds``, then
        StoreBusy says what was stored and what was checked but is not. The last batch also
        finishes the run in the same opening of the file (each opening costs 30 ms)."""
        nonlocal pending_rows, pending_rejections, last_write, retry_at, busy
        if not pending_rows and not pending_rejections and not last:
            return
        must = last or len(pending_rows) >= MAX_PENDING
        if not must and time.monotonic() < retry_at:
            return
        try:
            # one DuckDB thread where worker processes check the games: the cores are theirs (its
            # threads' work on a batch, beside them, cost more CPU than it saved)
            threads = 1 if pool is not None else None
            with store.write_connection(
                db, wait_seconds if must else min(wait_seconds, BUSY_WAIT), threads=threads
            ) as con:
                tally(store.write_batch(con, pending_rows, pending_rejections, replace=replace))
                if last:
                    finish(con, rate=True)
        except store.StoreBusy as exc:
            if not must:
                retry_at = time.monotonic() + BATCH_SECONDS
                return
            busy = True
            raise store.StoreBusy(
                T_(
                    "{error}. Games stored before it: {stored}; checked and not stored: games {games}, rejections "
                    "{rejections}{unread}; run the same ingest again when the file is free (stored games are "
                    "recognised and skipped)",
                    error=said_of(exc),
                    stored=Count(summary.games_stored),
                    games=Count(len(pending_rows)),
                    rejections=Count(len(pending_rejections)),
                    unread="" if last else T_(", and the files not yet read"),
                )
            ) from None

    def tally(result: store.BatchResult) -> None:
        """A written batch counted in the summary, and let go."""
        nonlocal pending_rows, pending_rejections, last_write
        summary.games_stored += len(result.stored)
        summary.games_replaced += len(result.replaced)
        summary.games_skipped += len(result.skipped)
        # by identity: comparing rejections by value made a batch of n rejections cost n * n
        sent = {id(r) for r in pending_rejections}
        duplicates = [r for r in result.rejected if id(r) not in sent]
        summary.games_rejected += len(duplicates)
        for r in duplicates:
            summary.problems.extend(r.problems)
        pending_rows, pending_rejections = [], []
        last_write = time.monotonic()

    _remember_stored(stored)
    if analyse:
        # imported here, once: the workers forked below have it (each imported it on its own)
        from clue_stats.analysis.computers import game_analysis  # noqa: F401  # deferred: start-up
    pool = _pool(workers, stored)
    warm = False  # the workers have started

    def take(file_problems: list[Problem], raws: list[RawGame], outcomes: Iterable[Outcome], final: bool) -> None:
        """A window's file problems and its games' outcomes counted, kept for the store, written.
        ``final``: no window follows, so its games are written with the run's end (``flush(last=True)``)
        rather than when they make a batch."""
        summary.problems.extend(file_problems)
        for p in file_problems:
            if p.is_error:
                summary.games_rejected += 1
                pending_rejections.append(_file_rejection(p))
        # a folder of empty or unreadable files: their rejections are small, written in larger batches
        if len(pending_rejections) >= BATCH_FILE_REJECTIONS or time.monotonic() - last_write > BATCH_SECONDS:
            flush()
        if progress is not None and file_problems:
            progress(0, summary)
        batch = MAX_PENDING if final else BATCH_GAMES
        for raw, outcome in zip(raws, outcomes, strict=True):
            summary.problems.extend(outcome.problems)
            summary.games_over_budget += outcome.over_budget
            if progress is not None:
                progress(1, summary)
            if outcome.stored:
                summary.games_skipped += 1
            elif outcome.rejection is not None:
                summary.games_rejected += 1
                pending_rejections.append(outcome.rejection)
            elif outcome.rows is not None:
                outcome.rows.raw = raw.text  # a worker's outcome comes without it (_check_sent)
                pending_rows.append(outcome.rows)
            if len(pending_rows) >= batch or time.monotonic() - last_write > BATCH_SECONDS:
                flush()

    try:
        # windows ahead: the workers check the games of the windows read while this process reads the
        # next one and takes (and writes) the outcomes of the oldest, rather than each waiting for the
        # other; two, so that they are still busy while a batch is written
        ahead: deque[tuple[list[Problem], list[RawGame], Iterable[Outcome]]] = deque()
        for raws, file_problems in _windows(read_items(collect_files(paths), summary), WINDOW):
            if kind is not None:
                for raw in raws:
                    raw.kind = kind
            ahead.append((file_problems, raws, _check_many(raws, analyse, pool, limits, review, warm)))
            if len(ahead) > WINDOWS_AHEAD:
                take(*ahead.popleft(), final=False)
            warm = warm or (pool is not None and len(raws) >= PARALLEL_FROM)
        while ahead:
            take(*ahead.popleft(), final=not ahead)
        flush(last=True)
        completed = True
    finally:
        _remember_stored(frozenset())
        _end(pool)
        # the run's row is finished whatever happened, with what was stored up to here (not waited
        # for again when the file stayed busy: the next run rates the games)
        if not finished:
            with contextlib.ExitStack() as finishing:
                if busy:
                    finishing.enter_context(contextlib.suppress(store.StoreBusy))
                with store.write_connection(db, BUSY_WAIT if busy else wait_seconds) as con:
                    finish(con, rate=completed)
    summary.seconds = round(time.monotonic() - clock, 2)
    return summary


@dataclass
class StoredGame:
    """What storing one game gave: its id when it is stored (now or before), else its problems."""

    game_id: str | None
    problems: list[Problem]
    new: bool = False  # stored by this call (not found stored already)


def store_game(
    raw: RawGame, db: str | Path, wait_seconds: float = 30.0, limits: budget.Limits | None = None
) -> StoredGame:
    """One game (a recording) checked, analysed with its whole review and stored as ``ingest`` stores
    a file's game: one run, one transaction of its rows, the ratings brought in line. Raises
    StoreBusy when the database stays held for ``wait_seconds``."""
    outcome = check(raw, analyse=True, review=True, limits=limits)
    rows = [outcome.rows] if outcome.rows is not None else []
    rejections = [outcome.rejection] if outcome.rejection is not None else []
    with store.write_connection(db, wait_seconds) as con:
        started = store.start_run(con, [raw.source_file or "-"])
        result = store.write_batch(con, rows, rejections)
        with con.atomic():
            update_ratings(con)
            store.finish_run(
                con,
                started,
                files_read=1,
                files_skipped=0,
                games_stored=len(result.stored),
                games_skipped=len(result.skipped),
                games_rejected=len(result.rejected),
            )
    if outcome.rows is None or result.rejected:
        problems = [p for r in result.rejected for p in r.problems] or outcome.problems
        return StoredGame(None, problems)
    return StoredGame(outcome.rows.game_id, outcome.problems, new=bool(result.stored))


def update_ratings(con: Store, from_scratch: bool = False) -> list[str]:
    """Bring the ``ratings`` table in line with the stored games (after ingest, delete, replace or a
    merge): each pool recomputed from its first changed game. Returns the pools recomputed."""
    from clue_stats.analysis.corpus.ratings import rating_updates  # deferred: start-up

    updates = rating_updates(con, from_scratch=from_scratch)
    store.replace_ratings(con, updates)
    return [pool for pool, _, _ in updates]


def delete_games(db: str | Path, game_ids: list[str], wait_seconds: float = 30.0) -> list[str]:
    """`clue-stats delete`: remove stored games, and rate the games after them again, in one
    transaction (an interruption leaves the games and the league as they were)."""
    with store.write_connection(db, wait_seconds) as con, con.atomic():
        found = store.delete_games(con, game_ids)
        if found:
            update_ratings(con)
    return found


def merge_players(
    db: str | Path, name: str, merged_into: str, wait_seconds: float = 30.0, force: bool = False
) -> tuple[str, str]:
    """`clue-stats players merge`: record that two names are one person and rate again, in one
    transaction (an interruption leaves the league as it was); returns the merge recorded (name,
    merged into): between the persons the names belong to, so ``unmerge`` of that name undoes it.
    Raises MergeRefused with the reason when the merge cannot be (a person with a bot or simulated
    player only with ``force``)."""
    from clue_stats.analysis.corpus.ratings import merge_plan  # deferred: start-up

    with store.write_connection(db, wait_seconds) as con, con.atomic():  # the merge and the ratings, or neither
        name, merged_into = merge_plan(con, name, merged_into, force)
        store.record_merge(con, name, merged_into)
        update_ratings(con)
    return name, merged_into


def order_night(db: str | Path, night: str, game_ids: list[str], wait_seconds: float = 30.0) -> list[str]:
    """`clue-stats night DATE GAME ...`: record the order a night's games were played in (the games
    named first, in that order; the night's others after them as they stood), or with no games take
    a recorded order back (their times order them again), and rate again, in one transaction.
    Returns the night's games in their new order. Raises OrderRefused with the reason."""
    from clue_stats.analysis.corpus.night import order_plan  # deferred: start-up

    with store.write_connection(db, wait_seconds) as con, con.atomic():  # the order and the ratings, or neither
        games, ordered = order_plan(con, night, game_ids)
        store.set_night_order(con, games, ordered if game_ids else None)
        update_ratings(con)
        return night_reads.night_game_ids(con, night, night)


def unmerge_player(db: str | Path, name: str, wait_seconds: float = 30.0) -> int:
    """`clue-stats players unmerge`: undo a name's standing merge and rate again; how many were undone."""
    with store.write_connection(db, wait_seconds) as con, con.atomic():  # the unmerge and the ratings, or neither
        undone = store.undo_merge(con, name)
        if undone:
            update_ratings(con)
    return undone


class UnknownFormat(InputError):
    """A file whose format clue-stats cannot tell (or a format name it does not know)."""


def read_game_file(
    path: str | Path, source_format: str | None = None, limits: budget.Limits | None = None
) -> tuple[list[Game], list[Problem]]:
    """Every valid game of one file (any format ingest reads, or the one named), checked as ingest
    checks them (under ``limits``, default: the environment's or the defaults), and every problem
    found: the one reader of game files for commands that work on a file (convert, notebook).
    Raises UnknownFormat when the format cannot be told or is unknown."""
    path = Path(path)
    if source_format is None:
        try:
            items = formats.iter_file(path)
        except OSError as exc:
            return [], [_unreadable(path, exc)]
        if items is None:
            raise UnknownFormat(
                T_(
                    "{path}: cannot tell its format (clue-stats reads {formats})",
                    path=path,
                    formats=", ".join(formats.format_names()),
                )
            )
    elif source_format not in formats.format_names():
        raise UnknownFormat(
            T_(
                "unknown format {name}; known: {formats}",
                name=repr(source_format),
                formats=", ".join(formats.format_names()),
            )
        )
    else:
        try:
            with open(path, "rb") as stream:  # a line at a time: a line past 1 MiB is its problem, not held
                data, long_lines = formats.read_bounded(stream, str(path))
        except OSError as exc:
            return [], [_unreadable(path, exc)]
        text, problem = formats.decode(data, str(path))
        if problem is not None:
            return [], [*long_lines, problem]
        result = formats.read_as(source_format, text or "", str(path))
        read: list[RawGame | Problem] = [
            *long_lines,
            *(p.located(str(path)) for p in result.problems),
            *result.games,
        ]
        items = iter(read)
    games, problems = [], []
    for item in items:
        if isinstance(item, Problem):
            problems.append(item)
            continue
        game, replay, found = build_checked(item, limits)
        problems.extend(found)
        if game is not None and replay is not None:
            games.append(game)
    return games, problems


@dataclass
class AnalyseSummary:
    database: str
    analysis_version: int
    games_to_analyse: int = 0  # found at the start: outdated, or without the whole review
    games_outdated: int = 0  # of those: no analysis, or an older version's
    games_analysed: int = 0
    games_stored: int = 0  # afterwards: every stored game ...
    games_reviewed: int = 0  # ... and those with this version's whole review
    seconds: float = 0.0
    games_over_budget: int = 0  # a stage of their analysis passed the budget (left out, the others stored) ...
    games_left: int = 0  # ... of those, none of whose stages fitted: left as they were
    problems: list[Problem] = field(default_factory=list)  # the over_budget problems of those

    def as_dict(self) -> dict[str, Any]:
        data = {k: v for k, v in self.__dict__.items() if k != "problems"}
        data["problems"] = [
            {"file": p.source_file, "line": p.line, "code": p.code, "severity": p.severity, "message": p.message}
            for p in self.problems
        ]
        return data


def _analyse_stored(
    item: tuple[str, list[str], list[int | None], str | None, budget.Limits],
) -> tuple[GameRows | None, list[Problem]]:
    """Worker: one stored game rebuilt from its records and analysed (the rows ingest would make),
    under the budget; the over_budget problem of each stage past it. A game that cannot be rebuilt
    or analysed is None with its problem (left as it was; the run goes on with the others)."""
    from clue_stats.analysis.computers.game_analysis import analyse_within  # deferred: start-up

    game_id, payloads, lines, source_file, limits = item
    try:
        game = store.game_from_payloads(payloads, lines, game_id)
        rows, cuts = analyse_within(game, None, source_file, True, limits)
    except Exception as exc:  # its problem, not the end of the run
        return None, [failed(exc, source_file, game=game_id)]
    return rows, [p.located(source_file) for p in cuts]


def analyse_store(
    db: str | Path,
    workers: int | None = None,
    wait_seconds: float = 30.0,
    progress: Callable[[int, AnalyseSummary], None] | None = None,
    started: Callable[[int], None] | None = None,
    limits: budget.Limits | None = None,
) -> AnalyseSummary:
    """`clue-stats analyse`: the whole analysis of every stored game whose analysis is missing, older
    than this version or without the review (stored with ``--light``), in worker processes, written
    back a batch of whole games per transaction (so a dashboard can read between batches).
    ``started`` is told how many games will be analysed; ``progress`` how many more are done (and
    the summary so far). A stage of a game's analysis that passes the budget (``limits``, default:
    the environment's or the defaults) is left out, the others stored (``games.analysis_cut`` says
    what is missing, and the next `analyse` tries it again); a game none of whose stages fits is
    left as it was. Their over_budget problems are in the summary."""
    clock = time.monotonic()
    summary = AnalyseSummary(str(db), ANALYSIS_VERSION)
    limits = limits or budget.Limits.from_env()
    # once: an older database gets its new columns, and the games to analyse are found
    with store.write_connection(db, wait_seconds, create=False) as con:
        targets, summary.games_outdated = reads.analyse_targets(con, ANALYSIS_VERSION)
    summary.games_to_analyse = len(targets)
    if started is not None:
        started(len(targets))
    pool = _pool(workers) if len(targets) > 1 else None
    try:
        for start in range(0, len(targets), ANALYSE_BATCH):
            chunk = targets[start : start + ANALYSE_BATCH]
            with store.read_connection(db, wait_seconds) as con:
                payloads = store.stored_games(con, [gid for gid, _ in chunk])
            items = [(gid, *payloads[gid], source, limits) for gid, source in chunk if gid in payloads]
            results = []
            for rows, cuts in (
                pool.map(_analyse_stored, items, chunksize=2) if pool is not None else map(_analyse_stored, items)
            ):
                if rows is not None and rows.tables["games"][0]["analysis_version"] is not None:
                    results.append(rows)
                else:
                    summary.games_left += 1
                if rows is None:
                    summary.problems.extend(cuts)
                elif cuts:
                    summary.games_over_budget += 1
                    summary.problems.extend(cuts)
                if progress is not None:
                    progress(1, summary)
            with store.write_connection(db, wait_seconds) as con:
                done = store.replace_analysis(con, results)
            summary.games_analysed += len(done)
    finally:
        _end(pool)
    with store.read_connection(db, wait_seconds) as con:
        summary.games_stored, summary.games_reviewed = reads.review_counts(con, ANALYSIS_VERSION)
    summary.seconds = round(time.monotonic() - clock, 2)
    return summary
