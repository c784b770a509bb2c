"""The files ingest and validate read under the paths named: folders of any depth and size.

The walk is iterative (a stack, no recursion: a folder 1,200 deep is walked like one 2 deep), visits
each real folder once (a link back to a folder already read, a loop or a second way there, is skipped
and counted), follows links to files and folders, and yields files as it finds them, in the order of
their sorted paths, so reading begins at once and costs time linear in the number of entries.
Entries that are not regular files (named pipes, devices, sockets) are skipped and counted: opening a
pipe would wait for a writer that never comes.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from clue_stats.engine.markers import T_
from clue_stats.engine.problems import Problem

SPECIAL = "special"  # a named pipe, a device or a socket
REPEATED = "repeated"  # a folder reached again through a link


@dataclass(frozen=True)
class Skipped:
    """An entry the walk passed over: ``kind`` SPECIAL or REPEATED; its warning says why."""

    kind: str
    problem: Problem


def collect_files(paths: Iterable[str | Path]) -> Iterator[Path | Problem | Skipped]:
    """Files named, and files under folders named (each real folder once, in sorted order); a folder
    that cannot be listed, or a link to nothing, is an `unreadable` problem, never skipped in silence;
    special files and folders reached again are :class:`Skipped`."""
    seen: set[tuple[int, int]] = set()  # (device, inode) of every folder listed
    for p in paths:
        if str(p) == "-":  # standard input, read on purpose (ingest.formats.STDIN)
            yield Path("-")
            continue
        yield from _walk(Path(p), seen)


def _walk(top: Path, seen: set[tuple[int, int]]) -> Iterator[Path | Problem | Skipped]:
    # pending entries, the next one last: each folder's entries pushed in reverse sorted order
    stack: list[str] = [str(top)]
    while stack:
        path = stack.pop()
        try:
            info = os.stat(path)
        except OSError as exc:
            yield _stat_problem(path, exc)
            continue
        if stat.S_ISREG(info.st_mode):
            yield Path(path)
            continue
        if not stat.S_ISDIR(info.st_mode):
            yield Skipped(
                SPECIAL,
                Problem.of("not_a_file", T_("{kind_of}: not read", kind_of=_kind_of(info.st_mode)), source_file=path),
            )
            continue
        key = (info.st_dev, info.st_ino)
        if key in seen:
            yield Skipped(
                REPEATED,
                Problem.of(
                    "folder_again",
                    T_("a folder already read (reached again through a link): not read again"),
                    source_file=path,
                ),
            )
            continue
        seen.add(key)
        try:
            with os.scandir(path) as entries:
                names = sorted(entry.name for entry in entries)
        except OSError as exc:
            yield Problem.of(
                "unreadable", T_("cannot list the folder: {value}", value=exc.strerror or exc), source_file=path
            )
            continue
        stack.extend(os.path.join(path, name) for name in reversed(names))


def _stat_problem(path: str, exc: OSError) -> Problem | Skipped:
    if exc.errno == errno.ELOOP:
        return Skipped(
            SPECIAL, Problem.of("not_a_file", T_("a link that leads back to itself: not read"), source_file=path)
        )
    if exc.errno == errno.ENOENT and os.path.islink(path):
        return Problem.of("unreadable", T_("a link to nothing"), source_file=path)
    return Problem.of("unreadable", T_("cannot read the file: {value}", value=exc.strerror or exc), source_file=path)


def _kind_of(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"
