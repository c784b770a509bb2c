"""The arena's guard: run as a script (standard library only), it ends the bots' process groups when
the arena ends, however it ends (a SIGKILL included).

The arena writes each bot's process group to the guard's standard input as it starts it (``123``)
and again when it has ended it (``-123``). When the arena's end of the pipe closes (it exited, or the
kernel closed it after a kill), the guard reads the end of its input and kills every group still
listed, the bots' own children with them, then exits.
"""

from __future__ import annotations

import os
import signal
import sys


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C meant for the arena: it ends us by closing the pipe
    groups: set[int] = set()
    for line in sys.stdin:
        text = line.strip()
        try:
            if text.startswith("-"):
                groups.discard(int(text[1:]))
            elif text:
                groups.add(int(text))
        except ValueError:
            continue
    for group in groups:
        try:
            os.killpg(group, signal.SIGKILL)
        except OSError:
            pass


if __name__ == "__main__":
    main()
