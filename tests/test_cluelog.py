"""clue-log/1 reading and writing: the contract's example, round trips, names, bad bytes."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clue_stats.engine.game import Suggest
from clue_stats.ingest import cluelog
from tests.helpers import SAMPLES, raw_games

EXAMPLE = """\
{"type":"game","format":"clue-log/1","id":"club-2026-11-20-3","edition":"de-2023","source":"tabletop","perspective":"Anna","players":[{"name":"Anna","character":"scarlett"},{"name":"Ben","character":"mustard"},{"name":"Cleo","character":"peacock"}]}
{"type":"deal","player":"Anna","cards":["Seil","Halle","Professor Bloom","Küche","Pistole","Salon"]}
{"type":"suggest","player":"Anna","suspect":"green","weapon":"dagger","room":"lounge","responses":[{"player":"Ben","shows":null},{"player":"Cleo","shows":"dagger"}]}
{"type":"suggest","player":"Ben","suspect":"plum","weapon":"rope","room":"study","responses":[{"player":"Cleo","shows":"?"}]}
{"type":"accuse","player":"Cleo","suspect":"white","weapon":"wrench","room":"library","correct":false}
{"type":"accuse","player":"Anna","suspect":"green","weapon":"candlestick","room":"ballroom","correct":true}
{"type":"end","winner":"Anna","solution":{"suspect":"green","weapon":"candlestick","room":"ballroom"}}
"""


def build(text: str):
    result = cluelog.read_text(text, "t.jsonl")
    assert not result.problems
    return [cluelog.build_game(raw) for raw in result.games]


def test_the_contracts_example_reads_with_german_names_resolved_to_ids():
    [(game, problems)] = build(EXAMPLE)
    assert problems == []
    assert game.game_id == "club-2026-11-20-3"
    assert game.hand_sizes == (6, 6, 6)
    assert game.records[0].cards == ("rope", "hall", "plum", "kitchen", "revolver", "lounge")
    suggestion = game.records[1]
    assert isinstance(suggestion, Suggest) and suggestion.shower.shows == "dagger"
    assert [r.seq for r in game.records] == list(range(1, 7))
    assert [r.line for r in game.records] == list(range(2, 8))


def test_write_then_read_gives_the_same_game():
    [(game, _)] = build(EXAMPLE)
    text = cluelog.write_game(game)
    assert '"Seil"' not in text and '"rope"' in text  # writers write ids
    [(again, problems)] = build(text)
    assert problems == []
    assert again.records == game.records
    assert again.content_sha256 == game.content_sha256
    assert cluelog.write_game(again) == text


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.jsonl")), ids=lambda p: p.name)
def test_every_sample_round_trips(path):
    for raw in raw_games(path):
        game, problems = cluelog.build_game(raw)
        assert game is not None, problems
        [(again, _)] = build(cluelog.write_game(game))
        assert again.records == game.records and again.players == game.players


def test_names_match_ignoring_case_and_accents_and_unknown_names_get_a_suggestion():
    text = EXAMPLE.replace('"Küche"', '"KUCHE"').replace(
        '"suspect":"green","weapon":"dagger"', '"suspect":"Bürgermeister Grün","weapon":"Dolk"'
    )
    [(game, problems)] = build(text)
    assert game is None
    [problem] = problems
    assert problem.code == "unknown_card" and problem.line == 3
    assert "Dolch" in problem.message  # did you mean


def test_extensions_and_notes_are_kept_and_written_back():
    text = EXAMPLE.replace('{"type":"deal"', '{"type":"x-timer","seconds":12}\n{"type":"deal"', 1).replace(
        '"correct":false}', '"correct":false,"note":"wild guess","x-confidence":0.2}'
    )
    [(game, problems)] = build(text)
    assert problems == []
    assert game.records[0].type == "extension" and game.records[1].seq == 2
    written = cluelog.write_game(game)
    assert '"x-timer"' in written and '"note":"wild guess"' in written and '"x-confidence":0.2' in written


def test_a_bom_is_accepted_and_blank_lines_do_not_count():
    result = cluelog.read_text("\ufeff" + EXAMPLE.replace('\n{"type":"suggest"', '\n\n{"type":"suggest"', 1), "t")
    game, problems = cluelog.build_game(result.games[0])
    assert problems == [] and game.records[1].line == 4 and game.records[1].seq == 2


def test_several_games_in_one_file_and_a_bad_one_spoils_only_itself():
    bad = EXAMPLE.replace('"id":"club-2026-11-20-3"', '"id":"other"').replace('"Pistole"', '"Pistolle"')
    result = cluelog.read_text(EXAMPLE + bad, "t")
    built = [cluelog.build_game(raw) for raw in result.games]
    assert built[0][0] is not None and built[1][0] is None
    assert built[1][1][0].line == 9


def test_a_line_longer_than_the_limit_is_reported_and_not_kept(monkeypatch):
    monkeypatch.setattr(cluelog, "MAX_LINE_BYTES", 1000)
    text = EXAMPLE.replace('"note"', '"note"')
    long_line = json.dumps({"type": "turn", "player": "Anna", "note": "x" * 5000})
    lines = text.splitlines()
    lines.insert(2, long_line)
    result = cluelog.read_text("\n".join(lines) + "\n", "t")
    game, problems = cluelog.build_game(result.games[0])
    assert game is None
    assert [(p.code, p.line) for p in problems] == [("line_too_long", 3)]
    assert len(result.games[0].text) < 2000


def test_custom_deck_ids_are_slugs():
    text = (
        '{"type":"game","format":"clue-log/1","edition":"custom","variant":"live","deck":{"suspects":["Père Ubu","Straße"],'
        '"weapons":["Wine cellar key","Rope"],"rooms":["Wine cellar","Nave"]},"players":[{"name":"A"},{"name":"B"}]}\n'
    )
    [(game, problems)] = build(text)
    assert problems == []
    assert game.deck.suspects == ("pere_ubu", "strasse")
    assert game.deck.rooms == ("wine_cellar", "nave")
    assert game.hand_sizes == (2, 1)
    assert game.game_id == game.content_sha256[:16]


def test_the_json_schema_accepts_every_sample_record_and_refuses_unknown_fields():
    import jsonschema

    schema = json.loads((SAMPLES.parents[1] / "ingest" / "schema" / "clue-log-1.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    for path in SAMPLES.glob("*.jsonl"):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            assert not list(validator.iter_errors(record)), (path.name, line)
    from tests.helpers import FIXTURES

    bad = json.loads((FIXTURES / "invalid" / "unknown_field.jsonl").read_text().splitlines()[5])
    assert list(validator.iter_errors(bad))
    assert list(validator.iter_errors({"type": "game", "format": "clue-log/2", "edition": "classic", "players": []}))


def test_records_read_when_the_game_is_built_say_the_same_problems_in_the_same_order(tmp_path) -> None:
    """Ingest reads a file's lines in one process and their JSON where the game is built (its
    workers; iter_raw_games(defer=True)): every game checks out as when each line is read at once,
    its problems the same, at the same lines and seqs, in the same order."""
    from clue_stats import pipeline
    from clue_stats.ingest import formats

    header = '{"type": "game", "format": "clue-log/1", "edition": "classic", "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]'
    lines = [
        '{"type": "turn", "player": "Ann"}',  # before any game record
        "not json",
        header + ', "id": "one"}',
        '{"type": "turn", "player": "Ann"}',
        '{"type": "suggest", "player": "Ann", "suspect": "plum", "weapon": "rope", "room": "hall", "responses": [{"player": "Bob", "shows": null}]}',
        "[1, 2]",
        '{"type": "turn", "player": "Bob", "t": NaN}',
        '{"type": "turn", "player": "Cy", "player": "Ann"}',
        '{"type": "turn", "player": "Bo\\u0062"}',
        header + ', "id": "two"}',
        '{"type": "turn", "player": "Nobody"}\r{"type": "turn"}',
        '{"type": "suggest", "player": "Bob", "suspect": "plum", "weapon": "rope", "room": "hall", "responses": []}',
    ]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines) + "\n")

    def outcomes(items) -> list[tuple]:
        seen = []
        for item in items:
            if isinstance(item, cluelog.RawGame):
                item.source_file = str(path)
                outcome = pipeline.check(item)
                seen.append([(p.code, p.line, p.seq, p.column, p.message) for p in outcome.problems])
            else:
                seen.append((item.code, item.line, item.message))
        return seen

    deferred = list(formats.read_file(path))
    assert any(raw.unread for raw in deferred if isinstance(raw, cluelog.RawGame))  # the lines were left unread
    at_once = list(cluelog.iter_raw_games(path.open("rb"), str(path)))
    assert outcomes(deferred) == outcomes(at_once)
    assert [c for game in outcomes(at_once) if isinstance(game, list) for c, *_ in game].count("bad_json") >= 2


def test_a_game_past_the_text_it_keeps_reads_its_later_lines_at_once(tmp_path, monkeypatch) -> None:
    """A line left for the worker is read from the game's text, which keeps only the game's first
    RAW_KEEP_BYTES: the lines past that are read at once, and the game checks out the same."""
    from clue_stats import pipeline

    monkeypatch.setattr(cluelog, "RAW_KEEP_BYTES", 400)
    header = '{"type": "game", "format": "clue-log/1", "edition": "classic", "players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]}'
    turns = [json.dumps({"type": "turn", "player": name}) for name in ("Ann", "Bob", "Cy") * 8]
    turns[2] = turns[17] = "not json"  # one within the text kept, one past it
    path = tmp_path / "long.jsonl"
    path.write_text("\n".join([header, *turns]) + "\n")

    (deferred,) = cluelog.iter_raw_games(path.open("rb"), str(path), defer=True)
    (at_once,) = cluelog.iter_raw_games(path.open("rb"), str(path))
    assert len(deferred.text) == 400
    left = [seq for seq, _, _ in deferred.unread]
    assert left and max(left) < 12 < len(deferred.records)  # the later lines were read at once
    problems = [[(p.code, p.line, p.seq) for p in pipeline.check(raw).problems] for raw in (deferred, at_once)]
    assert problems[0] == problems[1] and [code for code, *_ in problems[0]].count("bad_json") == 2


@pytest.mark.parametrize(
    ("response", "said"),
    [
        ({"player": "B", "shows": None, "x-seen": 1}, []),  # an x- field is the writer's own
        ({"player": "B", "shows": None, "why": 1}, ["response 1 has unknown field 'why'"]),
        (
            {"foo": 1, "bar": 2},
            [
                "response 1 has unknown field 'bar'",
                "response 1 has unknown field 'foo'",
                "response 1 needs 'player' and 'shows' (null for a pass)",
            ],
        ),
        ({"player": "B"}, ["response 1 needs 'player' and 'shows' (null for a pass)"]),
    ],
)
def test_a_response_says_each_field_it_should_not_have_and_each_it_lacks(response, said) -> None:
    header = {"type": "game", "format": "clue-log/1", "edition": "classic", "players": [{"name": n} for n in "ABC"]}
    suggest = {"type": "suggest", "player": "A", "suspect": "plum", "weapon": "rope", "room": "hall"}
    text = json.dumps(header) + "\n" + json.dumps({**suggest, "responses": [response]}) + "\n"
    _, problems = cluelog.build_game(cluelog.read_text(text).games[0])
    assert [p.message for p in problems if p.message.startswith("response")] == said


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@given(_JSON)
def test_the_canonical_json_that_hashes_a_game_is_json_dumps_with_sorted_keys(value) -> None:
    """The encoders made once (cluelog._encoder) write what json.dumps writes with the same options:
    a game's content hash (its canonical records) is the same as when each record was dumped."""
    assert cluelog._CANONICAL(value) == json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    assert cluelog._LINE(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
