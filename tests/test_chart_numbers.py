"""The charts' numbers in the reader's language: "0,4" on a German or Swedish axis, in the dashboard
(Vega-Lite's number locale in every chart's configuration) and in the reports' SVG (vl-convert's)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clue_stats import pipeline
from clue_stats.cli import app
from tests.helpers import DUEL_GAME, SAMPLES, open_app

pytestmark = pytest.mark.slow  # pages through AppTest and a report: seconds

runner = CliRunner()


@pytest.fixture(scope="module")
def duel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("numbers") / "duel.duckdb"
    pipeline.ingest_paths([str(SAMPLES / "de-2023-duel.jsonl")], db, analyse=True, workers=1)
    return db


def _locales(at) -> list[dict | None]:
    return [json.loads(e.proto.spec).get("config", {}).get("locale") for e in at.get("vega_lite_chart")]


@pytest.mark.parametrize("code,decimal", [("de", ","), ("sv", ",")])
def test_the_replays_charts_write_numbers_as_the_readers_language_does(duel, monkeypatch, code, decimal):
    at = open_app(duel, monkeypatch, "replay", game=DUEL_GAME, seq="4")
    assert at.get("vega_lite_chart") and _locales(at) == [None] * len(_locales(at))  # English: Vega's own
    next(s for s in at.sidebar.selectbox if s.key == "language").set_value(code).run()
    locales = _locales(at)
    assert locales and all(loc is not None and loc["number"]["decimal"] == decimal for loc in locales)
    # the notebook's legend in percent: "100 %", with a no-break space, as both languages write it
    assert all(loc["number"]["percent"] == "\u00a0%" for loc in locales)


def test_a_german_reports_axes_have_decimal_commas(duel):
    result = runner.invoke(app, ["--lang", "de", "report", DUEL_GAME, "--db", str(duel), "--out", "-"])
    assert result.exit_code == 0, result.output
    ticks = re.findall(r"<text[^>]*>(\d+[.,]\d+)</text>", result.stdout)
    assert ticks and all("," in t for t in ticks), ticks[:10]
    english = runner.invoke(app, ["--lang", "en", "report", DUEL_GAME, "--db", str(duel), "--out", "-"])
    assert any("." in t for t in re.findall(r"<text[^>]*>(\d+[.,]\d+)</text>", english.stdout))


def test_every_coloured_chart_of_the_player_page_colours_its_data_in_german(monkeypatch, tmp_path):
    """A colour scale's domain holds the values its data has, in the reader's language: the player
    page's bars by label were drawn in no colour at all (invisible) in German when the scale's domain
    held the English label ids."""
    import pyarrow as pa

    from tests.helpers import club_db

    db = club_db(tmp_path)
    at = open_app(db, monkeypatch, "person", player="Jonas")
    next(s for s in at.sidebar.selectbox if s.key == "language").set_value("de").run()
    checked = 0
    for element in at.get("vega_lite_chart"):
        spec = json.loads(element.proto.spec)
        data = [pa.ipc.open_stream(d.data.data).read_all() for d in element.proto.datasets]
        for layer in spec.get("layer", [spec]):
            color = layer.get("encoding", {}).get("color", {})
            domain = color.get("scale", {}).get("domain")
            if not domain or "field" not in color:
                continue
            for table in data:
                if color["field"] in table.column_names:
                    assert set(table.column(color["field"]).to_pylist()) <= set(domain), (color["field"], domain)
                    checked += 1
    assert checked
