"""A tournament: the launch file's entrants, the schedule, the games played a few at a time, and each
game stored (checked and analysed whole, by the pipeline) as soon as it finishes.

Schedules (docs/arena.md): the contest's, every group of entrants of each table size in every seating
order, ``rounds`` games each; or ``games`` random seatings. Game ``i``'s deal depends only on the
tournament's seed and ``i``, so the same seed deals the same cards.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import random
import signal
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from clue_stats import pipeline
from clue_stats.arena import protocol, referee
from clue_stats.arena.builtin import PREFIX, BuiltinSeat, check_spec
from clue_stats.arena.seats import (
    BUILTIN,
    IDENTIFIER,
    JSON,
    PORT,
    TCP,
    Entrant,
    Guard,
    JsonSeat,
    Seat,
    TcpSeat,
    split_command,
)
from clue_stats.engine.errors import UsageError, said_of
from clue_stats.engine.markers import T_
from clue_stats.engine.problems import Problem
from clue_stats.engine.strategies import UnknownStrategy
from clue_stats.ingest import kinds, store
from clue_stats.ingest.cluelog import dumps
from clue_stats.ingest.raw import RawGame

MIN_PLAYERS, MAX_PLAYERS = 3, 6
JSON_PREFIX = "json:"


# -- the launch file


def read_launch_file(path: str | Path) -> tuple[list[Entrant], list[Problem]]:
    """SpeedClue's launch file: a bot a line, ``{Name}`` its identifier and ``%%`` the port; the
    arena's own lines ``json: COMMAND {Name}`` (JSON lines) and ``builtin:SPEC [{Name}]``. Blank lines
    and lines starting with ``#`` are passed over. A bad line is a problem (the others are read)."""
    path = Path(path)
    text = path.read_text(encoding="utf-8-sig", errors="replace")
    entrants: list[Entrant] = []
    problems: list[Problem] = []
    names: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            entrant = _entrant(stripped, number)
        except UsageError as exc:
            problems.append(Problem.of("bad_value", said_of(exc), line=number, source_file=str(path)))
            continue
        if entrant.name in names:
            problems.append(
                Problem.of(
                    "bad_value",
                    T_(
                        "{name} is the identifier of line {first} already", name=entrant.name, first=names[entrant.name]
                    ),
                    line=number,
                    source_file=str(path),
                )
            )
            continue
        names[entrant.name] = number
        entrants.append(entrant)
    return entrants, problems


def _entrant(line: str, number: int) -> Entrant:
    if line.startswith(PREFIX):
        spec, _, rest = line[len(PREFIX) :].partition(" ")
        try:
            check_spec(spec)
        except UnknownStrategy as exc:
            raise UsageError(said_of(exc)) from None
        found = IDENTIFIER.findall(rest)
        return Entrant(found[0] if found else spec, BUILTIN, spec, (), number)
    transport = TCP
    if line.startswith(JSON_PREFIX):
        transport, line = JSON, line[len(JSON_PREFIX) :].strip()
    try:
        argv = tuple(split_command(line))
    except ValueError as exc:
        raise UsageError(T_("the command cannot be read: {error}", error=str(exc))) from None
    found = [m for word in argv for m in IDENTIFIER.findall(word)]
    if len(found) != 1:
        raise UsageError(T_("a bot's line names its identifier once, in curly braces ({example})", example="{Spock}"))
    if transport == TCP and not any(PORT in word for word in argv):
        raise UsageError(T_("a bot's line has %% where the server's port goes (or starts with json: for JSON lines)"))
    return Entrant(found[0], transport, line, argv, number)


# -- the schedule


def parse_players(text: str) -> tuple[int, int]:
    """``--players``: ``4`` or ``3..6``."""
    low, dots, high = text.partition("..")
    try:
        lo, hi = int(low), int(high) if dots else int(low)
    except ValueError:
        raise UsageError(T_("--players {value}: a number or a range such as 3..6", value=repr(text))) from None
    if not MIN_PLAYERS <= lo <= hi <= MAX_PLAYERS:
        raise UsageError(T_("--players {value}: SpeedClue is played by 3 to 6 players", value=repr(text)))
    return lo, hi


def table_sizes(entrants: int, players: tuple[int, int]) -> list[int]:
    sizes = [p for p in range(players[0], players[1] + 1) if p <= entrants]
    if not sizes:
        raise UsageError(
            T_(
                "{count} entrants cannot fill a table of {low} or more (add lines to the launch file, "
                "e.g. builtin:notebook)",
                count=entrants,
                low=players[0],
            )
        )
    return sizes


def contest_schedule(entrants: int, sizes: list[int], rounds: int) -> list[tuple[int, ...]]:
    """Every group of each size in every seating order, ``rounds`` games each (the contest's)."""
    return [
        order
        for size in sizes
        for group in itertools.combinations(range(entrants), size)
        for order in itertools.permutations(group)
        for _ in range(rounds)
    ]


def random_schedule(entrants: int, sizes: list[int], games: int, seed: str) -> list[tuple[int, ...]]:
    rng = random.Random(f"{seed}:seating")
    return [tuple(rng.sample(range(entrants), rng.choice(sizes))) for _ in range(games)]


# -- the tournament


@dataclass
class Plan:
    entrants: list[Entrant]
    schedule: list[tuple[int, ...]]
    seed: str
    timeout: float
    jobs: int
    run_id: str
    launch_file: str

    @classmethod
    def make(
        cls,
        entrants: list[Entrant],
        schedule: list[tuple[int, ...]],
        seed: str,
        timeout: float,
        jobs: int,
        launch_file: str,
    ) -> Plan:
        started = datetime.now(UTC).isoformat()
        run_id = hashlib.sha256(f"{started}|{seed}|{launch_file}".encode()).hexdigest()[:8]
        return cls(entrants, schedule, seed, timeout, jobs, run_id, launch_file)

    @property
    def source(self) -> str:
        return f"{referee.SOURCE} {self.run_id}"

    def deal_seed(self, index: int) -> str:
        return f"{self.seed}:{index}"

    def header(self, index: int) -> dict[str, Any]:
        entrants = [self.entrants[i] for i in self.schedule[index]]
        return {
            "type": "game",
            "format": "clue-log/1",
            "id": f"arena-{self.run_id}-{index + 1:05d}",
            "edition": protocol.EDITION,
            "variant": protocol.VARIANT,
            "players": [{"name": e.name, "strategy": e.name} for e in entrants],
            "source": self.source,
            "played_at": datetime.now().isoformat(timespec="seconds"),
            "x-arena": {
                "tournament": self.run_id,
                "game": index + 1,
                "deal_seed": self.deal_seed(index),
                "programs": {e.name: f"{e.transport}: {e.command}" for e in entrants},
            },
        }


@dataclass
class Result:
    played: int = 0
    stored: int = 0
    rejected: int = 0
    won: int = 0
    messages: int = 0
    seconds: float = 0.0  # the games' own time, summed
    interrupted: bool = False
    problems: list[Problem] = field(default_factory=list)  # rejections' problems (an arena bug)
    removed: dict[str, int] = field(default_factory=dict)  # violation code -> how often


def game_text(played: referee.Played) -> str:

    return "".join(dumps(r) + "\n" for r in played.records)


class Recorder:
    """Stores each finished game (checked and analysed whole, kind ``contest``), and writes its log to
    ``out`` when given; one game at a time, in a thread of its own (the games go on meanwhile)."""

    def __init__(self, db: str | Path, out: Path | None, plan: Plan):
        self.db, self.out, self.plan = db, out, plan
        with store.write_connection(db) as con:
            self.started = store.start_run(con, [plan.launch_file])
        self.result = Result()
        self.lock = threading.Lock()

    def record(self, played: referee.Played) -> None:
        text = game_text(played)
        source_file = None
        if self.out is not None:
            path = self.out / f"{played.game_id}.jsonl"
            path.write_text(text, encoding="utf-8")
            source_file = str(path)
        raw = RawGame(
            records=played.records,
            lines=list(range(1, len(played.records) + 1)),
            text=text,
            source_file=source_file,
            kind=kinds.CONTEST,
            transcript=True,
            findings=[p.located(source_file) for p in played.findings],
        )
        outcome = pipeline.check(raw, analyse=True)
        with store.write_connection(self.db) as con:
            written = store.write_batch(
                con,
                [outcome.rows] if outcome.rows is not None else [],
                [outcome.rejection] if outcome.rejection is not None else [],
            )
        with self.lock:
            self.result.stored += len(written.stored)
            if outcome.rejection is not None:
                self.result.rejected += 1
                self.result.problems.extend(p for p in outcome.problems if p.is_error)

    def finish(self) -> None:

        with store.write_connection(self.db) as con, con.atomic():
            pipeline.update_ratings(con)
            store.finish_run(
                con,
                self.started,
                files_read=1,
                files_skipped=0,
                games_stored=self.result.stored,
                games_skipped=0,
                games_rejected=self.result.rejected,
            )


async def play_tournament(
    plan: Plan, recorder: Recorder | None, progress: Callable[[referee.Played], None] | None = None
) -> Result:
    """Play every scheduled game, ``plan.jobs`` at a time, each recorded as it finishes. Ctrl-C and
    SIGTERM stop the tournament: the games in play are ended (their bots with them), those finished
    are kept."""
    loop = asyncio.get_running_loop()
    result = recorder.result if recorder is not None else Result()
    guard = Guard()
    writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="arena-store")
    jobs = asyncio.Semaphore(plan.jobs)
    pending: list[asyncio.Future[None]] = []

    async def one(index: int) -> None:
        async with jobs:
            order = plan.schedule[index]
            seats = [
                make_seat(plan.entrants[i], guard, f"{plan.deal_seed(index)}:{seat}") for seat, i in enumerate(order)
            ]
            deal = referee.Deal.of(len(order), plan.deal_seed(index))
            played = await referee.play(seats, deal, plan.timeout, plan.header(index), index)
        result.played += 1
        result.won += played.winner is not None
        result.messages += played.messages
        result.seconds += played.seconds
        for code in played.removed.values():
            result.removed[code] = result.removed.get(code, 0) + 1
        if recorder is not None:
            pending.append(loop.run_in_executor(writer, recorder.record, played))
        if progress is not None:
            progress(played)

    main = asyncio.current_task()
    stops = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, lambda: main.cancel() if main is not None else None)
            stops.append(sig)
    tasks = [asyncio.ensure_future(one(i)) for i in range(len(plan.schedule))]
    try:
        await asyncio.gather(*tasks)
    except asyncio.CancelledError:
        result.interrupted = True
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for sig in stops:
            loop.remove_signal_handler(sig)
        guard.close()
        stored = await asyncio.gather(*pending, return_exceptions=True)
        writer.shutdown(wait=True)
        if recorder is not None:
            recorder.finish()
    failed = next((e for e in stored if isinstance(e, Exception)), None)
    if failed is not None:
        raise failed  # the store's own failure (a full disk, a locked file): the command says it
    return result


def make_seat(entrant: Entrant, guard: Guard, seed: str) -> Seat:
    """The seat an entrant plays from: a program over TCP or JSON lines, or a built-in strategy
    (here, beside both kinds, so that seats and the built-in seats need not import each other)."""
    if entrant.transport == TCP:
        return TcpSeat(entrant, guard)
    if entrant.transport == JSON:
        return JsonSeat(entrant, guard)
    return BuiltinSeat(entrant, seed)
