"""The partitioned analysis: Parquet exports of the events analysed on a local Dask cluster give the
same rows as the analysis run in this process."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from clue_stats import pipeline
from clue_stats.analysis.computers.game_analysis import analyse_game
from clue_stats.analysis.computers.partitioned import (
    OUTPUT_TABLES,
    analyse_events,
    output_schema,
    partition_events,
    read_partition,
)
from clue_stats.engine import budget, counting
from clue_stats.engine.rules import validate
from clue_stats.ingest import cluelog, formats
from clue_stats.ingest.export import export
from clue_stats.testing import random_game
from tests.helpers import raw_games

pytest.importorskip("distributed")
pytestmark = pytest.mark.slow  # a Dask cluster and a corpus exported for it

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "data" / "samples"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The sample games and 8 generated ones (3 and 4 players, one wrong accusation each), stored
    without analysis and exported: (log folder, export folder)."""
    root = tmp_path_factory.mktemp("partitioned")
    logs = root / "logs"
    logs.mkdir()
    for f in SAMPLES.iterdir():
        (logs / f.name).write_bytes(f.read_bytes())
    generated = [random_game(seed, n_players=3 + seed % 2, n_suggestions=12, wrong_accusations=1) for seed in range(8)]
    (logs / "generated.jsonl").write_text(cluelog.write_games(generated), encoding="utf-8")
    db = root / "corpus.duckdb"
    pipeline.ingest_paths([str(logs)], db, analyse=False, workers=1)
    export(db, root / "export")
    return logs, root / "export"


@pytest.fixture(scope="module")
def expected(corpus) -> dict[str, list[tuple]]:
    return in_process_rows(corpus[0])


def in_process_rows(logs: Path) -> dict[str, list[tuple]]:
    """Every table's analysis rows, each game read from its file and analysed here by analyse_game."""
    rows: dict[str, list[dict]] = {t: [] for t in OUTPUT_TABLES}
    seen: set[str] = set()
    for path in sorted(logs.iterdir()):
        for raw in formats.iter_file(path) or []:
            game, _ = cluelog.build_game(raw)
            if game is None or game.game_id in seen:  # the .clue twin of a .jsonl sample is stored once
                continue
            seen.add(game.game_id)
            replay = validate(game)
            done = analyse_game(game, replay, None, review=False)
            for table in OUTPUT_TABLES:
                rows[table].extend(done.tables.get(table, []))
    return {t: _sorted(t, rows[t]) for t in OUTPUT_TABLES}


def _sorted(table: str, rows: list[dict]) -> list[tuple]:
    names = output_schema(table).names
    key = lambda row: tuple((v is None, v if v is not None else 0) for v in row)  # noqa: E731 (NULL observers sort last)
    return sorted((tuple(r.get(c) for c in names) for r in rows), key=key)


def generated_ids(logs: Path) -> set[str]:
    """The ids of the generated games (whose logs hold every hand)."""
    return {cluelog.build_game(raw)[0].game_id for raw in raw_games(logs / "generated.jsonl")}


def parquet_rows(out: Path) -> dict[str, list[tuple]]:
    return {
        t: _sorted(t, pa.concat_tables([pq.read_table(f) for f in sorted((out / t).glob("*.parquet"))]).to_pylist())
        for t in OUTPUT_TABLES
    }


def test_a_local_cluster_gives_the_rows_of_the_analysis_in_process(corpus, expected, tmp_path, monkeypatch):
    """`clue-stats analyse-partitioned --scheduler ADDR` on a local cluster of 2 worker processes
    started here: the workers import the module themselves (as on a real cluster), so nothing may
    be sent that only the command's __main__ knows."""
    import types

    import dask
    from distributed import LocalCluster

    _, exported = corpus
    out = tmp_path / "analysis"
    # the machine may be busy with other work: connections get time to come up (default 30 s)
    slow = {"distributed.comm.timeouts.connect": "180s", "distributed.comm.timeouts.tcp": "180s"}
    env = {
        **os.environ,
        "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "180s",
        "DASK_DISTRIBUTED__COMM__TIMEOUTS__TCP": "180s",
    }
    # spawned workers re-run the parent's __main__ file; earlier tests in this process (Streamlit's
    # AppTest runs the dashboard as __main__) may have left a script there: the workers get none
    monkeypatch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))
    with (
        dask.config.set(slow),
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
    ):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "clue_stats",
                "analyse-partitioned",
                str(exported),
                str(out),
                "--partitions",
                "3",
                "--scheduler",
                cluster.scheduler_address,
                "--light",
                "--json",
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=600,
            env=env,
        )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    summary = json.loads(done.stdout)
    assert summary["failed"] == []
    assert summary["partitions"] == 3 and summary["games"] == 17
    assert summary["rows"] == {t: len(expected[t]) for t in OUTPUT_TABLES}
    got = parquet_rows(out)
    for table in OUTPUT_TABLES:
        assert got[table] == expected[table], table
    # the analysis columns are filled in (not merely copied from a store without analysis): every
    # suggestion of a generated game (whose log holds every hand) is rated
    generated = generated_ids(corpus[0])
    gain = output_schema("suggestions").names.index("expected_gain_bits")
    rated = [r for r in got["suggestions"] if r[0] in generated]
    assert rated and all(r[gain] is not None for r in rated)
    assert any(r[output_schema("players").names.index("first_certain_seq")] is not None for r in got["players"])
    assert not (out / "_partitions").exists()


def test_partitions_hold_whole_games_and_every_game_once(corpus, tmp_path):
    _, exported = corpus
    events = pq.read_table(exported / "events.parquet")
    copied = tmp_path / 'Bob\'s "export"; --'  # paths never pasted into SQL
    shutil.copytree(exported, copied)
    folders = partition_events(copied, tmp_path / "Bob's parts", partitions=4)
    owner: dict[str, int] = {}
    total = 0
    for i, folder in enumerate(folders):
        part = read_partition(folder)
        total += part.num_rows
        for game_id in set(part.column("game_id").to_pylist()):
            assert game_id not in owner, f"{game_id} in partitions {owner[game_id]} and {i}"
            owner[game_id] = i
    assert total == events.num_rows
    assert len(owner) == len(set(events.column("game_id").to_pylist()))


def test_a_game_cut_in_two_or_unreadable_is_reported_and_the_others_analysed(corpus):
    _, exported = corpus
    events = pq.read_table(exported / "events.parquet").select(["game_id", "seq", "line", "payload"])
    generated = sorted(
        i for i in set(events.column("game_id").to_pylist()) if len(i) == 16 and all(c in "0123456789abcdef" for c in i)
    )
    # three generated classic games (they declare no id, so theirs is their content hash)
    cut, broken, whole = generated[:3]
    ids = {cut, broken, whole}
    rows = [r for r in events.to_pylist() if r["game_id"] in ids]
    # one game loses its third record (as if it landed in another partition); another's header
    # names an edition that does not exist
    rows = [r for r in rows if not (r["game_id"] == cut and r["seq"] == 2)]
    for r in rows:
        if r["game_id"] == broken and r["seq"] == 0:
            r["payload"] = r["payload"].replace('"edition"', '"edition": "no-such-edition", "x-was"', 1)
    assert sum(1 for r in rows if r["game_id"] == broken and "no-such-edition" in r["payload"]) == 1
    result = analyse_events(pa.Table.from_pylist(rows, schema=events.schema))
    failed = dict(result.failed)
    assert set(failed) == {cut, broken}
    assert "seq" in failed[cut]
    assert "cannot rebuild" in failed[broken]
    assert result.games == 1
    assert set(result.tables["players"].column("game_id").to_pylist()) == {whole}
    assert result.tables["information"].num_rows > 0


def test_the_command_says_what_it_needs_and_what_it_did(corpus, tmp_path, monkeypatch):
    """`clue-stats analyse-partitioned`: usage errors as messages and exit 2; its summary in words,
    each game it could not analyse named, and exit 3 when there is one."""
    from typer.testing import CliRunner

    from clue_stats.analysis.computers import partitioned
    from clue_stats.analysis.computers.partitioned import PartitionedSummary
    from clue_stats.cli import app

    _, exported = corpus
    runner = CliRunner()
    lone = runner.invoke(app, ["analyse-partitioned", str(tmp_path / "out")])
    assert lone.exit_code == 2 and "then the output folder OUT" in lone.stderr
    missing = runner.invoke(app, ["analyse-partitioned", str(tmp_path / "nothing"), str(tmp_path / "out")])
    assert missing.exit_code == 2 and f"no such file or folder: {tmp_path / 'nothing'}" in missing.stderr
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    onto_file = runner.invoke(app, ["analyse-partitioned", str(exported), str(a_file)])
    assert onto_file.exit_code == 2 and "is a file" in onto_file.stderr

    calls = []

    def run(sources, out, partitions, workers, scheduler, review, repartition, limits=None):
        calls.append((sources, out, partitions, workers, scheduler, review, repartition))
        rows = {t: 0 for t in OUTPUT_TABLES} | {"suggestions": 12}
        return PartitionedSummary(partitions=3, games=2, rows=rows, failed=[("g-1", "unknown edition")])

    monkeypatch.setattr(partitioned, "run_partitioned", run)  # the command imports it when it runs
    done = runner.invoke(
        app, ["analyse-partitioned", str(exported), str(tmp_path / "out"), "--light", "--workers", "3"]
    )
    assert calls == [([exported], tmp_path / "out", None, 3, None, False, True)]
    assert done.exit_code == 3, done.output
    assert "2 games analysed in 3 partitions" in done.stdout and "suggestions 12" in done.stdout
    assert "not analysed: g-1: unknown edition" in done.stdout


def test_the_partitioned_analysis_counts_under_the_budget_of_ingest(corpus, monkeypatch):
    _, exported = corpus
    events = pq.read_table(exported / "events.parquet").select(["game_id", "seq", "line", "payload"])
    counting.clear_caches()  # the games were counted in this process before: count them afresh
    monkeypatch.setenv(budget.ENV_WORK, "10")  # ingest's own variable: the same budget as ingest's
    result = analyse_events(events, review=False)
    assert result.games > 0 and not result.failed
    assert result.over_budget and {g for g, _ in result.over_budget} <= set(events.column("game_id").to_pylist())
    assert all(m.startswith("the analysis left out ") and "the limit of 10 states" in m for _, m in result.over_budget)
    assert result.tables["information"].num_rows == 0  # no game's information fits in 10 states
