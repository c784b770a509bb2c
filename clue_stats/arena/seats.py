"""The seats of an arena game: a bot over TCP (SpeedClue's protocol), a bot over JSON lines (its
standard input and output), or a built-in strategy (clue_stats.arena.builtin).

Every bot runs in its own process group (a new session), started for its game and ended with it: a
polite ``done`` first, then the whole group killed. Three things make sure no bot outlives the arena:
the kernel kills a bot when the arena dies (prctl PR_SET_PDEATHSIG, Linux), the guard process kills
each group still listed when the arena's pipe to it closes (a SIGKILL of the arena included; the
bot's own children with it), and the arena kills every group it started on its way out.

A seat that fails (no answer within the time limit, an ended process, a line that is no message)
raises :class:`SeatFailure` with the problem's code and message; the referee takes it out of the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import re
import shlex
import signal
import subprocess
import sys
from abc import ABC, abstractmethod
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clue_stats.arena import protocol
from clue_stats.arena.protocol import BadMessage, Message
from clue_stats.engine.errors import said_of
from clue_stats.engine.markers import T_, Said

IDENTIFIER = re.compile(r"\{([^{}\s]+)\}")
PORT = "%%"
STDERR_KEPT = 20  # the last lines of a bot's standard error, quoted when it crashes
GRACE_SECONDS = 0.5  # after `done`, how long a bot may take to exit before its group is killed
TCP, JSON, BUILTIN = "tcp", "json", "builtin"


class SeatFailure(Exception):
    """A bot that broke the protocol: ``code`` (timeout, crashed, garbage, never_alive) and the message."""

    def __init__(self, code: str, said: Said):
        super().__init__(str(said))
        self.code = code
        self.said = said


@dataclass(frozen=True)
class Entrant:
    """One line of the launch file: a program that plays."""

    name: str  # the identifier: the word in curly braces, the player's name in the records
    transport: str  # TCP, JSON or BUILTIN
    command: str  # the line as written (the built-in strategy's spec for BUILTIN)
    argv: tuple[str, ...] = ()  # the command's words (BUILTIN: none)
    line: int | None = None

    def arguments(self, port: int | None) -> list[str]:
        """The command with the identifier's braces removed and the port where ``%%`` stands."""
        out = []
        for word in self.argv:
            word = IDENTIFIER.sub(lambda m: m.group(1), word)
            if port is not None:
                word = word.replace(PORT, str(port))
            out.append(word)
        return out


# -- process groups


class Guard:
    """The guard process (clue_stats/arena/guard.py) and the groups it is told of."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-I", str(Path(__file__).with_name("guard.py"))],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            text=True,
        )
        self.groups: set[int] = set()

    def _say(self, line: str) -> None:
        stdin = self.process.stdin
        if stdin is None:
            return
        with contextlib.suppress(OSError, ValueError):
            stdin.write(line + "\n")
            stdin.flush()

    def add(self, group: int) -> None:
        self.groups.add(group)
        self._say(str(group))

    def ended(self, group: int) -> None:
        self.groups.discard(group)
        self._say(f"-{group}")

    def close(self) -> None:
        """Kill what is left, then let the guard go (it kills what it still lists, and exits)."""
        for group in list(self.groups):
            kill_group(group)
        self.groups.clear()
        if self.process.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                self.process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)


def kill_group(group: int) -> None:
    with contextlib.suppress(OSError):
        os.killpg(group, signal.SIGKILL)


def _prctl() -> Any:
    """prctl from libc, looked up once here: the child calls it between fork and exec."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _prctl()
PR_SET_PDEATHSIG = 1


def _die_with_arena() -> None:
    if _PRCTL is not None:
        _PRCTL(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


# -- seats


class Seat(ABC):
    """What the referee talks to: ``start``, ``ask`` (one message, one answer), ``finish``."""

    def __init__(self, entrant: Entrant):
        self.entrant = entrant
        self.messages = 0  # messages asked (the benchmark's count)

    @property
    def name(self) -> str:
        return self.entrant.name

    @abstractmethod
    async def start(self, listener: Listener, timeout: float) -> None:
        """The seat is ready to play (its bot said ``alive``), or a problem says why not."""

    @abstractmethod
    async def ask(self, message: Message, timeout: float) -> Message:
        """One message to the seat and its answer."""

    async def finish(self) -> None:  # noqa: B027 (a built-in seat has nothing to end)
        """The game is over: ``done`` (the bot answers ``dead``) and the end of its process."""


@dataclass
class _Process:
    process: asyncio.subprocess.Process
    guard: Guard
    stderr: deque[str] = field(default_factory=lambda: deque(maxlen=STDERR_KEPT))
    drain: asyncio.Task[None] | None = None

    async def read_stderr(self) -> None:
        stream = self.process.stderr
        if stream is None:
            return
        with contextlib.suppress(Exception):
            while line := await stream.readline():
                self.stderr.append(line.decode("utf-8", "replace").rstrip())

    def why(self) -> Said:
        """How the process ended, with the last line it wrote to standard error."""
        code = self.process.returncode
        last = next((line for line in reversed(self.stderr) if line.strip()), "")
        ended = T_("it ended with exit code {code}", code=code) if code is not None else T_("it closed its end")
        if last:
            return T_("{ended} ({stderr})", ended=ended, stderr=repr(last[:200]))
        return ended

    async def end(self) -> None:
        group = self.process.pid  # a new session: the group's id is the bot's pid
        kill_group(group)
        with contextlib.suppress(ProcessLookupError):
            await asyncio.wait_for(self.process.wait(), 5)
        self.guard.ended(group)
        if self.drain is not None:
            self.drain.cancel()


class ProcessSeat(Seat):
    """A bot started as a process, spoken to over a stream pair (its socket or its standard streams)."""

    def __init__(self, entrant: Entrant, guard: Guard):
        super().__init__(entrant)
        self.guard = guard
        self.proc: _Process | None = None
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def spawn(self, port: int | None, pipes: bool) -> None:
        argv = self.entrant.arguments(port)
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=subprocess.PIPE if pipes else subprocess.DEVNULL,
                stdout=subprocess.PIPE if pipes else subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                start_new_session=True,
                preexec_fn=_die_with_arena,
                limit=protocol.MAX_LINE * 4,
            )
        except (OSError, ValueError, subprocess.SubprocessError) as exc:
            raise SeatFailure(
                "never_alive",
                T_("{name} cannot be started ({command}): {error}", name=self.name, command=" ".join(argv), error=exc),
            ) from None
        self.guard.add(process.pid)
        self.proc = _Process(process, self.guard)
        self.proc.drain = asyncio.create_task(self.proc.read_stderr())

    def encode(self, message: Message) -> str:
        return message.text

    def decode(self, line: str) -> Message:
        return protocol.parse_text(line)

    async def _read(self, message: Message | None, timeout: float) -> Message:
        assert self.reader is not None
        what = message.text if message is not None else "alive"
        try:
            raw = await asyncio.wait_for(self.reader.readline(), timeout)
        except TimeoutError:
            raise SeatFailure(
                "timeout",
                T_("{name} gives no answer to {message} within {seconds} s", name=self.name, message=repr(what),
                   seconds=f"{timeout:g}"),
            ) from None  # fmt: skip
        except (ValueError, asyncio.LimitOverrunError):
            raise SeatFailure(
                "garbage", T_("{name} answers {message} with a line too long", name=self.name, message=repr(what))
            ) from None
        except (ConnectionError, OSError):
            raw = b""
        if not raw:
            await self._ended()
            assert self.proc is not None
            raise SeatFailure(
                "crashed",
                T_(
                    "{name} is gone while asked {message}: {why}",
                    name=self.name,
                    message=repr(what),
                    why=self.proc.why(),
                ),
            )
        try:
            text = raw.decode("utf-8").strip()
            return self.decode(text)
        except UnicodeDecodeError:
            raise SeatFailure(
                "garbage",
                T_("{name} answers {message} with bytes that are not text", name=self.name, message=repr(what)),
            ) from None
        except BadMessage as exc:
            raise SeatFailure(
                "garbage",
                T_(
                    "{name} answers {message} with {answer}: {why}",
                    name=self.name,
                    message=repr(what),
                    answer=repr(raw.decode("utf-8", "replace").strip()[:120]),
                    why=said_of(exc),
                ),
            ) from None

    async def _ended(self) -> None:
        """Wait a moment for the process to be seen ending (its exit code for the message)."""
        if self.proc is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.proc.process.wait(), 0.5)
            if self.proc.drain is not None:
                with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                    await asyncio.wait_for(asyncio.shield(self.proc.drain), 0.2)

    async def ask(self, message: Message, timeout: float) -> Message:
        assert self.writer is not None
        self.messages += 1
        try:
            self.writer.write((self.encode(message) + "\n").encode())
            await asyncio.wait_for(self.writer.drain(), timeout)
        except TimeoutError:
            raise SeatFailure(
                "timeout", T_("{name} does not read {message}", name=self.name, message=repr(message.text))
            ) from None
        except (ConnectionError, OSError):
            await self._ended()
            assert self.proc is not None
            raise SeatFailure(
                "crashed",
                T_("{name} is gone when told {message}: {why}", name=self.name, message=repr(message.text),
                   why=self.proc.why()),
            ) from None  # fmt: skip
        return await self._read(message, timeout)

    async def finish(self) -> None:
        if self.proc is None:
            return
        if self.writer is not None and self.proc.process.returncode is None:
            with contextlib.suppress(SeatFailure, Exception):
                await self.ask(protocol.DONE, GRACE_SECONDS)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.proc.process.wait(), GRACE_SECONDS)
        await self.close()

    async def close(self) -> None:
        if self.writer is not None:
            with contextlib.suppress(Exception):
                self.writer.close()
        if self.proc is not None:
            await self.proc.end()


class TcpSeat(ProcessSeat):
    """SpeedClue's transport: the bot is started with its identifier and the game's port, connects,
    and says ``IDENTIFIER alive``."""

    async def start(self, listener: Listener, timeout: float) -> None:
        waiting = listener.expect(self.name)
        await self.spawn(listener.port, pipes=False)
        assert self.proc is not None
        exited = asyncio.create_task(self.proc.process.wait())
        try:
            both: set[asyncio.Future[Any]] = {waiting, exited}
            done, _ = await asyncio.wait(both, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            exited.cancel()
        if waiting in done:
            self.reader, self.writer = waiting.result()
            return
        waiting.cancel()
        if exited in done:
            await self._ended()
            raise SeatFailure("never_alive", T_("{name} ends before it says alive: {why}", name=self.name,
                                                why=self.proc.why()))  # fmt: skip
        raise SeatFailure(
            "never_alive",
            T_("{name} does not connect and say alive within {seconds} s", name=self.name, seconds=f"{timeout:g}"),
        )


class JsonSeat(ProcessSeat):
    """The arena's second transport: the same messages as JSON lines over the bot's standard input
    and output; its first line is ``{"type": "alive"}``."""

    def encode(self, message: Message) -> str:
        return protocol.to_json(message)

    def decode(self, line: str) -> Message:
        return protocol.from_json(line)

    async def start(self, listener: Listener, timeout: float) -> None:
        await self.spawn(None, pipes=True)
        assert self.proc is not None
        self.reader = self.proc.process.stdout
        self.writer = self.proc.process.stdin
        try:
            first = await self._read(None, timeout)
        except SeatFailure as failure:
            raise SeatFailure("never_alive", failure.said) from None
        if first.verb != "alive":
            raise SeatFailure(
                "never_alive",
                T_("{name} says {answer} first, not alive", name=self.name, answer=repr(first.text[:120])),
            )


class Listener:
    """One game's listening socket on 127.0.0.1 (a port of its own): each bot's connection is handed
    to its seat by the identifier of its ``IDENTIFIER alive`` line."""

    def __init__(self, timeout: float):
        self.timeout = timeout
        self.waiting: dict[str, asyncio.Future[tuple[asyncio.StreamReader, asyncio.StreamWriter]]] = {}
        self.server: asyncio.Server | None = None
        self.port: int | None = None
        self.strays: list[asyncio.StreamWriter] = []

    async def open(self) -> int:
        self.server = await asyncio.start_server(self._connected, "127.0.0.1", 0, limit=protocol.MAX_LINE * 4)
        self.port = self.server.sockets[0].getsockname()[1]
        return self.port

    def expect(self, name: str) -> asyncio.Future[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
        future = asyncio.get_running_loop().create_future()
        self.waiting[name] = future
        return future

    async def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = await asyncio.wait_for(reader.readline(), self.timeout)
            words = line.decode("utf-8", "replace").split()
        except (TimeoutError, ValueError, ConnectionError, OSError):
            words = []
        future = self.waiting.get(words[0]) if len(words) == 2 and words[1] == "alive" else None
        if future is None or future.done():
            self.strays.append(writer)
            writer.close()
            return
        future.set_result((reader, writer))

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 1)


def split_command(text: str) -> list[str]:
    return shlex.split(text)
