"""The wheel as a user gets it: built from this clone, installed into a fresh virtual environment
outside it, and run from an empty temporary folder (`make wheel-check`; CI runs it after `make test`).

It checks that the wheel installs the one import name `clue_stats` (no top-level `engine`,
`analysis`, ...), and that the installed tool works with only its own files: `samples` copies the
sample games out, `ingest` stores them, `games`, `report` (in English, German and Swedish) and `board` answer, and the dashboard
starts, answers over HTTP, and renders every page (Streamlit's AppTest on the installed app).

    python3 .ci/wheel_check.py [--keep]     # --keep: leave the temporary folder and say where
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# every page renders from the installed package, on the ingested samples, without an exception
APP_TEST = """
import sys
from pathlib import Path

import clue_stats.dashboard
from clue_stats.dashboard import pages
from streamlit.testing.v1 import AppTest

app = Path(clue_stats.dashboard.__file__).parent / "app.py"
at = AppTest.from_file(str(app), default_timeout=120)
at.run()
for page in pages.PAGES:  # every page the app registers, in its order
    if page != pages.DEFAULT:
        at.switch_page(page.file).run()
    problems = [e.value for e in at.exception] + [e.value for e in at.error]
    if problems:
        sys.exit(f"dashboard page {page.slug}: {problems}")
    if not at.title or at.title[0].value != page.title:
        sys.exit(f"dashboard page {page.slug}: titled {[t.value for t in at.title]}, not {page.title!r}")
print(f"dashboard: {len(pages.PAGES)} pages render")
"""


def step(title: str) -> None:
    print(f"--- {title}", flush=True)


def run(cmd: list[str | Path], cwd: Path, env: dict[str, str] | None = None, quiet: bool = False) -> str:
    """Run a command and return its output (shown unless ``quiet``); a failure stops the check."""
    result = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True)
    if not quiet or result.returncode:
        sys.stdout.write(result.stdout[-4000:])
    sys.stdout.write(result.stderr[-4000:])
    if result.returncode:
        sys.exit(f"wheel check: `{' '.join(map(str, cmd))}` exited {result.returncode}")
    return result.stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def build_wheel(python: str, dist: Path) -> Path:
    step("build the wheel")
    # -v: the build backend's own output, to read its warnings (a data folder setuptools would ignore)
    cmd = [python, "-m", "pip", "wheel", "-v", "--no-deps", "--wheel-dir", str(dist), str(ROOT)]
    built = subprocess.run(cmd, cwd=dist, capture_output=True, text=True)
    if built.returncode:
        sys.stdout.write(built.stdout[-4000:] + built.stderr[-4000:])
        sys.exit(f"wheel check: `{' '.join(cmd)}` exited {built.returncode}")
    # the backend's warnings come on stderr
    warned = sorted({line.strip() for line in (built.stdout + built.stderr).splitlines() if "_Warning:" in line})
    if warned:
        sys.exit("wheel check: the build warns:\n" + "\n".join(warned))
    (wheel,) = dist.glob("clue_stats-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    tops = {n.split("/")[0] for n in names}
    extra = {t for t in tops if t != "clue_stats" and not t.endswith(".dist-info")}
    if extra:
        sys.exit(f"wheel check: the wheel installs more than clue_stats: {sorted(extra)}")
    for needed in (
        "clue_stats/data/editions/variants.toml",
        "clue_stats/data/boards/classic.txt",
        "clue_stats/data/samples/classic-club-night.jsonl",
        "clue_stats/dashboard/app.py",
        "clue_stats/dashboard/.streamlit/config.toml",
        *(f"clue_stats/docs/{doc.name}" for doc in (ROOT / "docs").glob("*.md")),
        *(
            f"clue_stats/analysis/locale/{code}/LC_MESSAGES/{domain}.mo"
            for code in ("de", "sv")
            for domain in ("clue_stats", "docs")
        ),
    ):
        if needed not in names:
            sys.exit(f"wheel check: the wheel lacks {needed}")
    # the compiled core of the counting programs, machine code built with the wheel (setup.py)
    if not any(n.startswith("clue_stats/engine/_kernels.") and n.endswith((".so", ".pyd")) for n in names):
        sys.exit("wheel check: the wheel lacks the compiled core clue_stats/engine/_kernels (setup.py)")
    print(f"{wheel.name}: {len(names)} files, one import name (clue_stats)")
    return wheel


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="clue-stats-wheel-"))
    try:
        check(tmp)
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def check(tmp: Path) -> None:
    dist, venv, work = tmp / "dist", tmp / "venv", tmp / "work"
    for folder in (dist, work):
        folder.mkdir()
    wheel = build_wheel(sys.executable, dist)

    step("install it into a fresh virtual environment")
    # the base interpreter ($PYTHON, as the Makefile's), not the clone's .venv
    run([os.environ.get("PYTHON", "python3"), "-m", "venv", venv], cwd=tmp)
    bin_ = venv / "bin"
    run([bin_ / "python", "-m", "pip", "install", "--quiet", wheel], cwd=tmp)
    tool = bin_ / "clue-stats"
    # nothing of the clone may be on the path: the installed package alone
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CLUE_STATS_DB", "VIRTUAL_ENV")}
    where = run([bin_ / "python", "-c", "import clue_stats; print(clue_stats.__file__)"], cwd=work, env=env, quiet=True)
    if str(ROOT) in where:
        sys.exit(f"wheel check: clue_stats imported from the clone ({where.strip()})")

    step("the installed tool, from an empty folder")
    run([tool, "samples", "games"], cwd=work, env=env)
    run([tool, "ingest", "games", "--db", "club.duckdb"], cwd=work, env=env)
    games = json.loads(run([tool, "games", "--db", "club.duckdb", "--json"], cwd=work, env=env, quiet=True))["games"]
    if not games:
        sys.exit("wheel check: no game stored from the samples")
    game_id = games[0]["game_id"]
    run([tool, "report", game_id, "--db", "club.duckdb", "--out", "report.html"], cwd=work, env=env)
    if "<svg" not in (work / "report.html").read_text(encoding="utf-8"):
        sys.exit("wheel check: the report has no chart")
    # the languages' catalogues travel in the wheel: the same report in German and Swedish
    for code, heading in (("de", "Die Partie in Kürze"), ("sv", "Partiet i korthet")):
        run(
            [
                tool,
                "--lang",
                code,
                "report",
                game_id,
                "--db",
                "club.duckdb",
                "--out",
                f"report-{code}.md",
                "--format",
                "md",
            ],
            cwd=work,
            env=env,
        )
        if f"## {heading}" not in (work / f"report-{code}.md").read_text(encoding="utf-8"):
            sys.exit(f"wheel check: the report in {code} is not in its language (are the catalogues in the wheel?)")
    board = run([tool, "board"], cwd=work, env=env)
    if "Fewest moves" not in board:
        sys.exit("wheel check: `clue-stats board` printed no table")
    league = run([tool, "docs", "league", "--raw"], cwd=work, env=env, quiet=True)
    if not league.startswith((ROOT / "docs" / "league.md").read_text(encoding="utf-8").splitlines()[0]):
        sys.exit("wheel check: `clue-stats docs league` does not print docs/league.md")
    german = run([tool, "--lang", "de", "docs", "league", "--raw"], cwd=work, env=env, quiet=True)
    if german.splitlines()[0] == league.splitlines()[0] or "Spieleabend" not in german:
        sys.exit("wheel check: `clue-stats --lang de docs league` is not in German (is docs.mo in the wheel?)")

    step("the dashboard, from the installed package")
    port = free_port()
    server = subprocess.Popen(
        [str(tool), "dashboard", "--db", "club.duckdb", "--port", str(port)],
        cwd=work,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: stopped whole below
    )
    try:
        answer = ""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=5) as response:
                    answer = response.read().decode()
                if answer == "ok":
                    break
            except OSError:
                time.sleep(1)
        if answer != "ok":
            output = server.stdout.read().decode() if server.poll() is not None and server.stdout else ""
            sys.exit(f"wheel check: the dashboard did not answer on port {port} {output}")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as response:
            if response.status != 200:
                sys.exit(f"wheel check: the dashboard answered {response.status}")
        print(f"dashboard: the server answers on port {port}")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    run([bin_ / "python", "-c", APP_TEST], cwd=work, env={**env, "CLUE_STATS_DB": str(work / "club.duckdb")})
    step("the wheel works")


if __name__ == "__main__":
    main()
