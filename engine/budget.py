"""A budget for the counting of one game: work, memory and time.

The exact counting of deals grows without bound on big decks with little known, so a run that
meets such a game must be able to stop counting it. A :class:`Budget` caps what one stage of one
game (its checks, or its analysis) may spend:

- **work**: the states the counting programs generate, summed over every count of the stage. It is
  deterministic: the same game under the same limits stops at the same count on any machine.
- **memory**: the memory of one count, in MiB, checked inside the count before each allocation:
  the compiled programs add up the arrays they hold (the states of the step before, the table
  being filled, the moves and folds written down) with the one they are about to allocate, and
  stop before it if the sum passes the limit; the exact Python programs count the states they hold
  at a measured size each. docs/performance.md compares these figures with the resident memory the
  counts really took.
- **time**: a wall-clock deadline for the stage, from its start (so the checks' reading of the
  records and of a custom deck counts too), checked before every count (a single count is bounded
  by the other two); its message says where the seconds went.

A count past a limit raises :class:`BudgetExceeded` (before it holds more than its share); the
caller reports what was not computed. The budget in force is a context variable set with
:func:`limited`, so the deduction engine's functions keep their signatures; with none set, counting
has no limit (the engine as a library). The counting programs ask :func:`current` for it.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from clue_stats.engine.errors import ClueStatsError, UsageError
from clue_stats.engine.markers import T_, Count, Said

N = TypeVar("N", int, float)

# Memory per state held, in the Python program (a dict of tuples and big integers; it holds the
# states of two steps, the states generated merge into them; docs/performance.md gives the
# measurement), and per count of a state's row in the Python gain program (a list of them).
BYTES_PER_HELD_STATE_PYTHON = 256
BYTES_PER_ROW_COUNT_PYTHON = 48

# Defaults, far above any ordinary game (docs/performance.md gives the measurements): the most
# states one game's checks (and again its analysis) may generate, the memory of one count, and
# the seconds for each stage.
DEFAULT_WORK = 500_000_000
DEFAULT_MEMORY_MB = 1024
DEFAULT_SECONDS = 600.0

# The time limit inside a count: a count is looked at by the states it generates, so the seconds
# left are given it as states, at the rate this stage's counts have run so far (else the rate of
# this process's last timed counts, else PRIOR_STATES_PER_SECOND), times TIME_SLACK so that a
# count the rate misjudges is not cut before its time. A stage so ends within about TIME_SLACK
# times its seconds, not after a count that alone takes many times them (docs/performance.md).
PRIOR_STATES_PER_SECOND = 300_000.0  # the gain kernel on a 100-card deck, about the slowest measured
TIME_SLACK = 1.5
TIMED_COUNT_SECONDS = 0.05  # a count this long or longer tells the rate
_process_rate: list[float] = []  # the rate of the process's last timed count (states a second)

ENV_WORK = "CLUE_STATS_BUDGET_STATES"
ENV_MEMORY = "CLUE_STATS_BUDGET_MEMORY_MB"
ENV_SECONDS = "CLUE_STATS_BUDGET_SECONDS"


class BudgetExceeded(ClueStatsError):
    """A count would pass a limit of the budget. ``reason``: "work", "memory" or "time". The
    pipeline catches it and reports the problem ``over_budget``."""

    def __init__(self, reason: str, message: str | Said):
        super().__init__(message)
        self.reason = reason
        self.seq: int | None = None  # the record whose count stopped, where the caller knows it


@dataclass(frozen=True)
class Limits:
    """What one stage of one game may spend; None: no limit of that kind."""

    states: int | None = DEFAULT_WORK
    memory_mb: float | None = DEFAULT_MEMORY_MB
    seconds: float | None = DEFAULT_SECONDS

    @classmethod
    def from_env(
        cls, states: int | None = None, memory_mb: float | None = None, seconds: float | None = None
    ) -> Limits:
        """The limits given (command-line options), else from the environment, else the defaults;
        0 means no limit. Raises UsageError naming the variable whose value is not a number."""
        return cls(
            states=_setting(states, ENV_WORK, int, DEFAULT_WORK),
            memory_mb=_setting(memory_mb, ENV_MEMORY, float, DEFAULT_MEMORY_MB),
            seconds=_setting(seconds, ENV_SECONDS, float, DEFAULT_SECONDS),
        )

    def describe(self) -> str:
        parts = [
            f"{self.states:,} states" if self.states else "no limit of states",
            f"{self.memory_mb:g} MiB a count" if self.memory_mb else "no memory limit",
            f"{self.seconds:g} s" if self.seconds else "no time limit",
        ]
        return ", ".join(parts)


def _setting(given: N | None, variable: str, kind: Callable[[str], N], default: N | None) -> N | None:
    if given is None:
        text = os.environ.get(variable, "").strip()
        if not text:
            return default
        try:
            given = kind(text)
        except ValueError:
            raise UsageError(T_("{variable}={value} is not a number", variable=variable, value=repr(text))) from None
    if given < 0:
        raise UsageError(T_("{variable}: a limit cannot be negative ({given})", variable=variable, given=given))
    return given or None


UNLIMITED = Limits(states=None, memory_mb=None, seconds=None)


class Budget:
    """The limits of one stage of one game, and what its counts have spent so far."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.spent = 0  # states generated by the counts so far
        self.counts = 0  # counts run (or started) so far
        self.started = time.monotonic()  # the stage's seconds run from here: its checks count too
        self.deadline = self.started + limits.seconds if limits.seconds else None
        self.counting_seconds = 0.0  # of them, in the counts of the deals
        self._count_started: float | None = None
        self.exceeded: BudgetExceeded | None = None  # why counting stopped, once it has
        self.most_held = 0  # the most bytes one count held (as the memory limit reckons them)
        self._time_capped = False  # the current count's allowance is the seconds left, as states

    def allowance(self) -> tuple[int, int]:
        """Before a count: the states it may generate (the work left) and the bytes it may hold.
        Raises BudgetExceeded when the deadline has passed or no work is left."""
        now = time.monotonic()
        if self.deadline is not None and now > self.deadline:
            raise self._stop("time", self._time_spent(now))
        if self.limits.states and self.spent >= self.limits.states:
            raise self._over_work()
        self.counts += 1
        self._count_started = now
        work = self.limits.states - self.spent if self.limits.states else 1 << 62
        self._time_capped = False
        if self.deadline is not None:
            in_time = max(1, int(self.rate() * (self.deadline - now) * TIME_SLACK))
            if in_time < work:
                work, self._time_capped = in_time, True
        memory = int(self.limits.memory_mb * (1 << 20)) if self.limits.memory_mb else 1 << 62
        return work, memory

    def rate(self) -> float:
        """States a second the counts run at: this stage's so far, else the process's last timed
        count's, else the prior."""
        if self.counting_seconds >= TIMED_COUNT_SECONDS and self.spent:
            return self.spent / self.counting_seconds
        return _process_rate[-1] if _process_rate else PRIOR_STATES_PER_SECOND

    def _time_spent(self, now: float) -> Said:
        """Where the stage's seconds went, as the message says it: in the counts of the deals, and
        outside them (reading and checking the records, a custom deck, the analysis's other steps)."""
        counted = self.counting_seconds
        return T_(
            "the time limit of {limit} s was passed after {spent} s: {counted} s counting the deals ({counts} counts, "
            "{states} states), {rest} s in the rest of the stage (reading the records and the deck, preparing the counts)",
            limit=format(self.limits.seconds or 0, "g"),
            spent=format(now - self.started, ".1f"),
            counted=format(counted, ".1f"),
            counts=Count(self.counts),
            states=Count(self.spent),
            rest=format(max(0.0, now - self.started - counted), ".1f"),
        )

    def _counted(self, states: int) -> None:
        if self._count_started is not None:
            seconds = time.monotonic() - self._count_started
            self.counting_seconds += seconds
            self._count_started = None
            if seconds >= TIMED_COUNT_SECONDS and states:
                _process_rate[:] = [states / seconds]

    def spend(self, states: int, held: int = 0) -> None:
        """After a count: the states it generated and the most bytes it held."""
        self.spent += states
        self.most_held = max(self.most_held, held)
        self._counted(states)

    def stopped(self, states: int, work: int, held: int = 0) -> BudgetExceeded:
        """A count stopped after generating ``states``, given ``work`` by :meth:`allowance`: past
        the work left, else before it would hold ``held`` bytes, past its memory. The exception to
        raise."""
        self.spent += states
        self.most_held = max(self.most_held, held)
        self._counted(states)
        if states > work and self._time_capped:  # the seconds left, given as states, are spent
            return self._stop("time", self._time_spent(time.monotonic()))
        if states > work:
            return self._over_work()
        about = T_(" (it was about to hold {held} MiB)", held=Count(round(held / (1 << 20)))) if held else ""
        return self._stop(
            "memory",
            T_(
                "one count of the deals needed more than the memory limit of {limit} MiB{about}",
                limit=format(self.limits.memory_mb or 0, "g"),
                about=about,
            ),
        )

    def _over_work(self) -> BudgetExceeded:
        return self._stop(
            "work",
            T_(
                "counting the deals generated more than the limit of {limit} states ({counts} counts)",
                limit=Count(self.limits.states or 0),
                counts=Count(self.counts),
            ),
        )

    def _stop(self, reason: str, message: str | Said) -> BudgetExceeded:
        self.exceeded = BudgetExceeded(reason, message)
        return self.exceeded


_CURRENT: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("clue_stats_budget", default=None)


def current() -> Budget | None:
    """The budget in force (None: counting has no limit)."""
    return _CURRENT.get()


@contextlib.contextmanager
def limited(limits: Limits | Budget) -> Iterator[Budget]:
    """Count under a budget (a fresh one for limits) until the block ends."""
    budget = limits if isinstance(limits, Budget) else Budget(limits)
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)
