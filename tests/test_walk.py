"""One walk over the record types (engine.game's RecordVisitor, python-chess's visitors): every visitor
of the program that must say something of every record has a method for every type, so a record type
without one fails here, not in a user's game.

What a new record type touches (the program's modules; its documentation and catalogues apart):
engine/game.py (its class, its fields declared with what they hold, its place in ``Event``, its
method in ``RecordVisitor`` and in ``SomeRecordsVisitor``), engine/rules.py (its checks) and
analysis/words/records.py (its words): three. The clue-log/1 reader and writer read, check and write
it from its declared fields; the notation writer says it has no line for it; what an observer or the
validator learns from it is nothing. Only what it adds touches more: the notation's words for it
(ingest/notation_write.py and notation_parse.py), what it teaches (engine/knowledge.py,
engine/consistency.py), a field of a kind no format knows yet (ingest/cluelog.py).
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

from clue_stats.engine import consistency, knowledge
from clue_stats.engine import game as game_model
from clue_stats.engine.game import RECORD_TYPES, Record, RecordVisitor, SomeRecordsVisitor, visit, visitor_method, walk
from clue_stats.ingest import cluelog
from clue_stats.testing import random_game

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = ("engine", "ingest", "analysis", "dashboard", "clue_stats")
# the visitors that say something of every record (what the test must find: it cannot pass by finding none)
EXPECTED = {"_DeckCheck", "_PlayCheck", "_Words"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    parts = parts[:-1] if parts[-1] == "__init__" else parts
    return ".".join(parts if parts[0] == "clue_stats" else ("clue_stats", *parts))


def _names_a_visitor(base: ast.expr) -> bool:
    """``RecordVisitor[...]`` or ``game.RecordVisitor[...]`` (or the bare name) as a class's base."""
    node = base.value if isinstance(base, ast.Subscript) else base
    return (isinstance(node, ast.Name) and node.id == "RecordVisitor") or (
        isinstance(node, ast.Attribute) and node.attr == "RecordVisitor"
    )


def visitors() -> dict[str, type]:
    """Every class of the program that is a visitor of records ('module.Class': class), found in the
    source (so a visitor in a module no test imports is found too) and imported."""
    found: dict[str, type] = {}
    for folder in PROGRAM:
        for path in sorted((ROOT / folder).rglob("*.py")):
            source = path.read_text(encoding="utf-8")
            if "RecordVisitor" not in source:
                continue
            for node in ast.walk(ast.parse(source)):
                if isinstance(node, ast.ClassDef) and any(_names_a_visitor(b) for b in node.bases):
                    module = importlib.import_module(_module_name(path))
                    found[f"{module.__name__}.{node.name}"] = getattr(module, node.name)
    return found


def missing_methods(cls: type) -> list[str]:
    """The record types' methods the class lacks or leaves abstract."""
    missing = []
    for record_type in RECORD_TYPES:
        method = getattr(cls, visitor_method(record_type), None)
        if method is None or getattr(method, "__isabstractmethod__", False):
            missing.append(visitor_method(record_type))
    return missing


def test_every_visitor_has_a_method_for_every_record_type() -> None:
    found = visitors()
    assert EXPECTED <= {name.rsplit(".", 1)[1] for name in found}, sorted(found)
    lacking = {name: missing_methods(cls) for name, cls in found.items() if missing_methods(cls)}
    assert not lacking, f"visitors without a method for a record type: {lacking}"
    # the one abstract visitor besides the base: the base of those that name only some types
    assert [name for name, cls in found.items() if inspect.isabstract(cls)] == [
        "clue_stats.engine.game.SomeRecordsVisitor"
    ]


def test_what_a_record_teaches_is_a_visitor_of_some_types() -> None:
    """The knowledge a record gives an observer and what it says to the validator are visitors that
    name the types that teach; every other type, a new one included, teaches nothing."""
    assert not missing_methods(SomeRecordsVisitor)
    assert SomeRecordsVisitor.__abstractmethods__ == {"otherwise"}
    teaching = {"visit_deal", "visit_suggest", "visit_accuse", "visit_reveal", "visit_peek"}
    named = {  # the types each names (its own methods or those it takes from the observer's lessons)
        cls: {m for m in dir(cls) if m.startswith("visit_") and getattr(cls, m) is not getattr(SomeRecordsVisitor, m)}
        for cls in (knowledge.Lessons, consistency._AllItSays)
    }
    assert named[knowledge.Lessons] == teaching
    assert named[consistency._AllItSays] == teaching | {"visit_end", "visit_room_cards"}
    game = random_game(5, n_players=3, n_suggestions=6, wrong_accusations=1)
    lessons = knowledge.Lessons(game, game.names[0], knowledge.initial_knowledge(game))
    for record in game.records:
        if visitor_method(type(record)) not in teaching:
            assert lessons.visit(record) is None, record
    own_deal = next(r for r in game.records if isinstance(r, game_model.Deal) and r.player == game.names[0])
    assert len(lessons.visit(own_deal) or {}) == 2  # the hand held, every other card lacked


def test_the_check_finds_a_missing_method() -> None:
    """A visitor without visit_end: the check names it, and abc refuses to make one."""
    methods = {visitor_method(t): (lambda self, r: r.type) for t in RECORD_TYPES if t is not game_model.End}
    partial = type("Partial", (RecordVisitor,), methods)
    assert missing_methods(partial) == ["visit_end"]
    with pytest.raises(TypeError, match="visit_end"):
        partial()


def _subclasses(cls: type) -> set[type]:
    return {sub for direct in cls.__subclasses__() for sub in {direct, *_subclasses(direct)}}


def test_every_record_type_is_walked() -> None:
    """Every Record class is in ``Event`` (so in the dispatch), and the base declares exactly one
    abstract method per record type: a new type cannot be left out of the walk."""
    assert set(RECORD_TYPES) == _subclasses(Record)
    assert RecordVisitor.__abstractmethods__ == {visitor_method(t) for t in RECORD_TYPES}
    assert len({t.type for t in RECORD_TYPES}) == len(RECORD_TYPES)


def test_the_clue_log_reads_and_writes_every_record_type() -> None:
    """Every type is read and written by the clue-log/1 module: from its declared fields, or by a
    method of its own in the reader and the writer (an ``x-`` record is an extension)."""
    read = {t.type for t in RECORD_TYPES} - {game_model.Extension.type}
    assert read == set(cluelog.FIELDS) - {"game"}
    declared = {t.type for t in RECORD_TYPES if game_model.declared_fields(t)}
    assert declared == set(cluelog.DECLARED) >= {"deal", "clue_card", "accuse"}
    for kind in read - declared:
        assert callable(getattr(cluelog._Builder, "r_" + kind, None)), kind
        assert "visit_" + kind in vars(cluelog._RecordFields), kind
    assert not {"visit_" + kind for kind in declared} & set(vars(cluelog._RecordFields))


def test_a_declared_record_type_is_read_checked_and_written_from_its_fields() -> None:
    """The three declared types round-trip through the writer and the reader, and each field's
    problem is said by what the field holds, all of a record's at once."""
    game = random_game(5, n_players=3, n_suggestions=6, wrong_accusations=1)
    records = [r for r in game.records if type(r) in (game_model.Deal, game_model.Accuse)]
    text = cluelog.write_game(game)
    (again,), problems = cluelog.read_text(text).games, cluelog.read_text(text).problems
    built, build_problems = cluelog.build_game(again)
    assert not problems and not build_problems and built is not None
    assert [r for r in built.records if type(r) in (game_model.Deal, game_model.Accuse)] == records
    assert {type(r) for r in records} == {game_model.Deal, game_model.Accuse}
    header = text.splitlines()[0]
    names = game.names
    bad = [
        {"type": "deal", "player": names[0], "cards": "plum"},
        {"type": "accuse", "player": "Nobody", "suspect": "rope", "weapon": "rope", "room": "hall", "correct": "yes"},
        {"type": "clue_card", "player": names[1], "text": ""},
        {"type": "accuse", "player": names[2], "suspect": "plum", "weapon": "rope", "room": "hall", "correct": None},
    ]
    text = "\n".join([header, *(cluelog.dumps(r) for r in bad)]) + "\n"
    (raw,) = cluelog.read_text(text).games
    built, said = cluelog.build_game(raw)
    messages = sorted((p.seq, p.code, str(p.message)) for p in said)
    assert [(seq, code) for seq, code, _ in messages] == [
        (1, "bad_value"),
        (2, "bad_value"),
        (2, "unknown_card"),
        (2, "unknown_player"),
        (3, "bad_value"),
    ], messages
    texts = " | ".join(m for _, _, m in messages)
    for expected in (
        "deal.cards must be a list of cards",
        "accuse.correct must be true or false",
        "accuse.suspect: ",
        "accuse.player: unknown player",
        "clue_card.text must be a non-empty string",
    ):
        assert expected in texts, texts


def _naming_visitor() -> RecordVisitor[tuple[str, str]]:
    """A visitor whose every method answers with its own name and the record's type."""
    methods = {visitor_method(t): (lambda self, r, name=visitor_method(t): (name, r.type)) for t in RECORD_TYPES}
    visitor: RecordVisitor[tuple[str, str]] = type("Naming", (RecordVisitor,), methods)()
    return visitor


def test_the_walk_calls_each_records_own_method_in_order() -> None:
    game = random_game(5, n_players=3, n_suggestions=6, wrong_accusations=1)
    names = _naming_visitor()
    assert walk(game.records, names) == [(visitor_method(type(r)), r.type) for r in game.records]
    assert visit(game.records[0], names) == names.visit(game.records[0])
    assert {type(r) for r in game.records} >= {game_model.Deal, game_model.Suggest, game_model.Accuse}
