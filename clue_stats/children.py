"""Child processes that end with the process that started them, whatever signal ends it.

A worker of `ingest`, `validate` or `analyse`, and the Streamlit server of `dashboard`, would
otherwise outlive a `kill -9` of the command (holding the database and ~220 MB each). On Linux the
kernel sends the child SIGKILL when its parent dies (prctl PR_SET_PDEATHSIG); a worker also watches
its parent's pid once a second, for the systems without prctl and for a parent that died before the
child asked.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1  # linux/prctl.h
WATCH_SECONDS = 1.0


def kill_with_parent() -> None:
    """Ask the kernel to SIGKILL this process when its parent dies (Linux; nothing elsewhere). Safe
    to call between fork and exec (`subprocess.Popen(preexec_fn=...)`): one system call."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no libc to call: the watching thread still ends the worker
        pass


def end_with_parent(parent: int) -> None:
    """Called first in a worker process started by ``parent`` (its pid): the worker ends when the
    parent does, by the kernel's signal and by a thread that checks the parent once a second."""
    kill_with_parent()
    if os.getppid() != parent:  # the parent died before the kernel was asked
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), daemon=True, name="clue-stats-parent-watch").start()


def _watch(parent: int) -> None:
    while True:
        time.sleep(WATCH_SECONDS)
        if os.getppid() != parent:  # adopted by init or a subreaper: the parent is gone
            os._exit(1)
