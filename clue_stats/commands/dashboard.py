"""`dashboard`: start the Streamlit dashboard on a database and say where it is."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import webbrowser
from collections.abc import Iterator
from pathlib import Path

import typer

import clue_stats.dashboard
from clue_stats import children
from clue_stats.analysis.words import _
from clue_stats.commands.limits import MemoryOption, SecondsOption, StatesOption, environment, limits
from clue_stats.exit_codes import ExitCode
from clue_stats.typer_app import DbOption, app, database, err, fail, handled, out

APP = Path(clue_stats.dashboard.__file__).resolve().parent / "app.py"  # the clone's or the installed one
LOCAL = "127.0.0.1"


def streamlit_command(db: Path, port: int, address: str = LOCAL) -> list[str]:
    """The `streamlit run` command line. The flags repeat dashboard/.streamlit/config.toml on purpose:
    whatever other Streamlit config the user has, the dashboard stays headless, local unless told
    otherwise, and sends no usage statistics."""
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(APP),
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
        "--server.address",
        address,
        "--server.port",
        str(port),
        "--server.fileWatcherType",
        "none",
        "--",
        "--db",
        str(db),
    ]


def port_free(address: str, port: int) -> bool:
    """Whether a server can listen on the port: bound as servers bind (Streamlit's too), with
    SO_REUSEADDR, so a port held only by the TIME_WAIT sockets of a stopped dashboard is free."""
    with socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((address, port))
        except OSError:
            return False
    return True


def _open_when_up(url: str, address: str, port: int, timeout: float = 30.0) -> None:
    """Open the user's browser once the server answers (it takes a second or two to start)."""
    deadline = time.monotonic() + timeout
    host = LOCAL if address in ("0.0.0.0", "::") else address
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                webbrowser.open(url)
                return
        except OSError:
            time.sleep(0.2)


@app.command("dashboard")
@handled
def dashboard_command(
    db: str | None = DbOption,
    port: int = typer.Option(8501, "--port", min=1, max=65535, help="The port to serve on."),
    address: str = typer.Option(
        LOCAL,
        "--address",
        help="The address to listen on: 127.0.0.1 (the default) lets "
        "only this machine in; 0.0.0.0 lets in anyone who can reach it, and they can read every game.",
    ),
    open_browser: bool = typer.Option(False, "--open", help="Open the dashboard in a web browser once it is up."),
    budget_states: int | None = StatesOption,
    budget_memory: float | None = MemoryOption,
    budget_seconds: float | None = SecondsOption,
) -> None:
    """Start the Streamlit dashboard on the database (Ctrl+C, SIGTERM or SIGHUP stops it). What a
    page counts (a game stored without analysis, a notebook) counts under the same budget as ingest's."""
    from clue_stats.ingest import store  # deferred: start-up

    game_limits = limits(budget_states, budget_memory, budget_seconds)
    path = Path(database(db)).expanduser().resolve()
    store.check_is_database(path)
    if not path.exists():
        err.print(
            "clue-stats: "
            + _(
                "no database at {file} yet; the dashboard shows its games as soon as `clue-stats ingest` stores some"
            ).format(file=path),
            markup=False,
        )
    if not port_free(address, port):
        raise fail(
            _(
                "cannot listen on {address}:{port}: the port is in use or the address is not this machine's "
                "(choose another with --port or --address)"
            ).format(address=address, port=port),
            ExitCode.FAILURE,
        )
    shown = f"[{address}]" if ":" in address else address
    url = f"http://{LOCAL if address in ('0.0.0.0', '::') else shown}:{port}"
    out.print(
        _("clue-stats dashboard on {database}: {url}  (Ctrl+C stops it)").format(database=path, url=url), markup=False
    )
    sys.stdout.flush()
    # the server ends with this command: told to stop (Ctrl+C, SIGTERM, SIGHUP) it stops the server
    # first; killed outright, the kernel ends the server (children.kill_with_parent)
    child = subprocess.Popen(
        streamlit_command(path, port, address),
        stdout=subprocess.DEVNULL,
        preexec_fn=children.kill_with_parent,
        env={**os.environ, **environment(game_limits)},
    )
    if open_browser:
        threading.Thread(target=_open_when_up, args=(url, address, port), daemon=True).start()
    try:
        # SIGINT too: a command started in the background by a shell ignores it otherwise
        with _stopped_by(signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            code = child.wait()
    except (KeyboardInterrupt, _Stop):
        _stop(child)
        raise typer.Exit(ExitCode.OK) from None
    if code != 0:
        raise fail(_("the dashboard stopped with exit code {code}").format(code=code), ExitCode.FAILURE)


class _Stop(Exception):
    """The command was told to stop by a signal."""


@contextlib.contextmanager
def _stopped_by(*signals: signal.Signals) -> Iterator[None]:
    """Within the block, each of ``signals`` raises _Stop."""

    def stop(signum: int, frame: object) -> None:
        raise _Stop(signum)

    before = {s: signal.signal(s, stop) for s in signals}
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)


def _stop(child: subprocess.Popen[bytes]) -> None:
    """Stop the Streamlit server (it closes its port on SIGTERM), killed if it has not within 10 s."""
    child.terminate()
    try:
        child.wait(timeout=10)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
