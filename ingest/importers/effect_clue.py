"""effect-clue's notebook JSON, versions 6 to 12 (importers.md 2): one user's notes of one game.

A notebook holds only what its owner entered: the deck, the players in seat order, hand sizes (some
or none), the cards the owner knows someone holds, suggestions with who passed and who showed, and
failed accusations. It never holds the solution, the winner or turns, so a converted game has no
``end`` record and its accusations are all wrong ones. The mapping, with the choices it makes:

* Deck: the preset classic deck is edition "us-classic"; any other deck (Master Detective, a
  custom one) is a "custom" deck of the notebook's display names. clue-log/1 has exactly three
  categories, so a notebook with another number of categories is not converted.
* Hand sizes: the notebook's ``handSizes`` become ``hand_size``; a player it omits gets the share
  of a deal that starts at ``firstDealtPlayerId`` (v9+; else the first player), which is written as
  ``hand_size`` only where it differs from clue-log/1's deal from the first player listed.
* Perspective: ``selfPlayerId`` (v9+). The owner's known cards are their ``deal`` when they are a
  whole hand; other players' known cards are ``reveal`` records to the owner, after the events (the
  notebook does not say when they were learnt, only that they were known by the time it was saved).
  Known cards of a notebook without an owner, and a partial hand of the owner, say nothing clue-log/1
  can hold: they are kept as ``x-effect-clue-known-cards`` records, with an ``import_dropped`` warning.
* Suggestions, in ``loggedAt`` order (ties: array order, suggestions before accusations): the
  answers are rebuilt from who showed (``refuter``; null means nobody) and the rules of the game:
  every player between the suggester and the refuter passed (every other player when nobody
  showed). The notebook's ``nonRefuters`` is an unordered set and may leave such players out; they
  are written as passes all the same, since the rules leave no other answer, and named in the
  record's ``x-implied-passes``. Players the notebook says passed *after* the refuter cannot have
  answered under the rules: they are left out of the answers, named in ``x-passes-after-refuter``,
  with an ``import_dropped`` warning. ``seenCard`` is the shown card, else "?".
* What-if marks (hypotheses), the unfinished suggestion form and the UI's state are not the game:
  they are not read.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from clue_stats.engine.editions import CATEGORIES, dealt_hand_sizes, slug
from clue_stats.engine.markers import T_, Said, nT_
from clue_stats.engine.problems import Problem
from clue_stats.ingest import kinds, strict_json
from clue_stats.ingest.importers.common import (
    FIELD_OF_CATEGORY,
    Unconvertible,
    between,
    fault,
    game_record,
    problem,
    responses,
)
from clue_stats.ingest.raw import RawGame, ReadResult

NAME = "effect-clue"
DESCRIPTION = "effect-clue notebook JSON (versions 6 to 12): one player's notes of one game"
KIND = kinds.TABLETOP  # a player's notes of a game at the table
EXTENSIONS = (".json",)
EDITION = "us-classic"
VERSIONS = range(6, 13)

# The fields each version stores that carry the game (the UI-only ones are not needed to convert).
DATA_FIELDS: dict[str, tuple[int, type | tuple[type, ...]]] = {
    "setup": (6, dict),
    "hands": (6, list),
    "handSizes": (6, list),
    "suggestions": (6, list),
    "accusations": (6, list),
    "selfPlayerId": (9, (str, type(None))),
    "firstDealtPlayerId": (9, (str, type(None))),
}

CLASSIC_CATEGORIES = {"category-suspects": "suspects", "category-weapons": "weapons", "category-rooms": "rooms"}
CLASSIC_CARDS = {
    "card-miss-scarlet": "scarlett", "card-col-mustard": "mustard", "card-mrs-white": "white",
    "card-mr-green": "green", "card-mrs-peacock": "peacock", "card-prof-plum": "plum",
    "card-candlestick": "candlestick", "card-knife": "dagger", "card-lead-pipe": "lead_pipe",
    "card-revolver": "revolver", "card-rope": "rope", "card-wrench": "wrench",
    "card-kitchen": "kitchen", "card-ball-room": "ballroom", "card-conservatory": "conservatory",
    "card-dining-room": "dining_room", "card-billiard-room": "billiard_room", "card-library": "library",
    "card-lounge": "lounge", "card-hall": "hall", "card-study": "study",
}  # fmt: skip
# Words that name a category in a custom deck, when its id is not a preset one.
CATEGORY_WORDS = {
    "suspects": ("suspect", "who", "person", "people", "character"),
    "weapons": ("weapon", "what"),
    "rooms": ("room", "where", "place", "location"),
}


def _load(text: str) -> Any:
    """Lenient, for detection only: a notebook holding a refused value is still recognised (and
    :func:`read` then reports that value)."""
    try:
        return json.loads(text, parse_int=lambda digits: int(digits) if len(digits) <= strict_json.MAX_DIGITS else 0)
    except (ValueError, RecursionError):
        return None


def detect(text: str, filename: str | None = None) -> bool:
    """An effect-clue notebook: a JSON object with a numeric ``version`` and a ``setup`` of players and categories."""
    if not text.lstrip().startswith("{"):
        return False
    data = _load(text)
    if not isinstance(data, dict) or type(data.get("version")) is not int:
        return False
    setup = data.get("setup")
    return (
        isinstance(setup, dict) and isinstance(setup.get("players"), list) and isinstance(setup.get("categories"), list)
    )


def read(text: str, source_file: str | None = None) -> ReadResult:
    result = ReadResult()

    def fail(code: str, message: str | Said) -> ReadResult:
        result.problems.append(Problem.of(code, message, line=1, source_file=source_file))
        return result

    try:
        data = strict_json.loads(text)
    except strict_json.RefusedJson as exc:
        if exc.code == "bad_json":
            return fail("bad_json", T_("{message} (an effect-clue notebook is one JSON object)", message=exc.message))
        return fail(exc.code, exc.message)
    if not isinstance(data, dict) or "version" not in data:
        return fail("bad_import", T_("not an effect-clue notebook: a JSON object with a 'version' is expected"))
    version = data["version"]
    if type(version) is not int or version not in VERSIONS:
        return fail(
            "bad_import",
            T_(
                "effect-clue notebook version {dumps}: only versions 6 to 12 are read (effect-clue itself reads no older)",
                dumps=json.dumps(version),
            ),
        )
    for key, (since, kind) in DATA_FIELDS.items():
        if since > version:
            continue
        if key not in data:
            result.problems.append(
                Problem.of(
                    "missing_field",
                    T_("a version {version} notebook has {key}", version=version, key=repr(key)),
                    line=1,
                    source_file=source_file,
                )
            )
        elif not isinstance(data[key], kind):
            result.problems.append(
                Problem.of(
                    "bad_value",
                    T_(
                        "the notebook's {key} is {name}, not {kind}",
                        key=repr(key),
                        name=type(data[key]).__name__,
                        kind=_kind(kind),
                    ),
                    line=1,
                    source_file=source_file,
                )
            )
    if result.problems:
        return result
    notebook = _Notebook(data, version, source_file, element_lines(text))
    try:
        notebook.setup()
    except Unconvertible as exc:
        result.problems.append(problem(exc, 1, source_file))
        return result
    result.games.append(notebook.convert(text))
    return result


_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")
LISTS = ("hands", "suggestions", "accusations")  # the notebook's lists whose entries become records


def _skip(text: str, i: int) -> int:
    """The position of the first character at or after ``i`` that is not JSON whitespace."""
    return _SPACE.match(text, i).end()  # type: ignore[union-attr]  # the pattern matches the empty string


def element_lines(text: str, keys: tuple[str, ...] = LISTS) -> dict[str, list[int]]:
    """The 1-based line of each entry of the notebook's top-level lists ``keys``, found by reading the
    (valid) JSON value by value with the standard decoder; {} where the text cannot be walked so."""
    starts: dict[str, list[int]] = {}
    try:
        i = _skip(text, 0)
        if text[i] != "{":
            return {}
        i += 1
        while True:
            i = _skip(text, i)
            if text[i] == "}":
                break
            key, i = _DECODER.raw_decode(text, i)
            i = _skip(text, text.index(":", i) + 1)
            if key in keys and text[i] == "[":
                found = starts.setdefault(key, [])
                i += 1
                while True:
                    i = _skip(text, i)
                    if text[i] == "]":
                        i += 1
                        break
                    found.append(i)
                    _, i = _DECODER.raw_decode(text, i)
                    i = _skip(text, i)
                    i += text[i] == ","
            else:
                _, i = _DECODER.raw_decode(text, i)
            i = _skip(text, i)
            i += text[i] == ","
    except (ValueError, IndexError, RecursionError):
        return {}
    newlines = [m.start() for m in re.finditer("\n", text)]
    return {key: [bisect.bisect(newlines, offset) + 1 for offset in offsets] for key, offsets in starts.items()}


def _kind(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    words = {dict: "an object", list: "a list", str: "a string", type(None): "null"}
    return " or ".join(words[k] for k in kinds)


def _when(logged_at: Any, where: str) -> tuple[float, str | None]:
    """The sort key and ISO-8601 time of a ``loggedAt`` (0: not known, no time written)."""
    if type(logged_at) not in (int, float) or logged_at < 0:
        raise Unconvertible(
            T_(
                "{where}.loggedAt must be a time in milliseconds, not {dumps}", where=where, dumps=json.dumps(logged_at)
            ),
            "bad_value",
        )
    if logged_at == 0:
        return 0, None
    try:
        moment = datetime.fromtimestamp(logged_at / 1000, tz=UTC)
    except (OverflowError, ValueError, OSError):
        raise Unconvertible(
            T_(
                "{where}.loggedAt {logged_at} is not a time a calendar holds",
                where=where,
                logged_at=str(logged_at)[:30],
            ),
            "bad_value",
        ) from None
    return logged_at, moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class _Notebook:
    data: dict[str, Any]
    version: int
    source_file: str | None
    lines: dict[str, list[int]] = field(default_factory=dict)  # each list's entries' lines (element_lines)
    players: list[str] = field(default_factory=list)
    cards: dict[str, str] = field(default_factory=dict)  # effect-clue card id -> clue-log/1 card id
    category: dict[str, str] = field(default_factory=dict)  # clue-log/1 card id -> category
    deck: dict[str, list[str]] | None = None  # display names of a custom deck
    sizes: list[int] = field(default_factory=list)  # every player's hand size, resolved
    declared: dict[str, int] = field(default_factory=dict)  # hand_size to write, by player
    owner: str | None = None
    problems: list[Problem] = field(default_factory=list)

    at: int | None = None  # the line of the entry being converted

    def warn(self, code: str, message: str | Said) -> None:
        self.problems.append(Problem.of(code, message, line=self.at, source_file=self.source_file))

    def line(self, key: str, index: int) -> int | None:
        """The line of the notebook where entry ``index`` of the list ``key`` begins."""
        found = self.lines.get(key, [])
        return found[index] if index < len(found) else None

    # -- the setup: players, deck, hand sizes, owner

    def setup(self) -> None:
        setup = self.data["setup"]
        players = setup.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
            raise Unconvertible(T_("setup.players must be a list of player names"), "bad_players")
        if len(set(players)) != len(players):
            raise Unconvertible(
                T_("setup.players names a player twice: {players}", players=", ".join(players)), "bad_players"
            )
        self.players = list(players)
        self.read_deck(setup.get("categories"))
        self.hand_sizes()
        if self.version >= 9 and self.data["selfPlayerId"] is not None:
            if self.data["selfPlayerId"] not in self.players:
                raise Unconvertible(
                    T_(
                        "selfPlayerId {data} is not one of the players ({players})",
                        data=repr(self.data["selfPlayerId"]),
                        players=", ".join(self.players),
                    ),
                    "unknown_player",
                )
            self.owner = self.data["selfPlayerId"]

    def read_deck(self, categories: Any) -> None:
        if not isinstance(categories, list) or not all(
            isinstance(c, dict) and isinstance(c.get("cards"), list) for c in categories
        ):
            raise Unconvertible(T_("setup.categories must be a list of {{id, name, cards}}"), "bad_deck")
        if len(categories) != 3:
            names = ", ".join(str(c.get("name")) for c in categories)
            raise Unconvertible(
                T_(
                    "the notebook's deck has {n_categories} categories ({names}); clue-log/1 has suspects, weapons and rooms",
                    n_categories=len(categories),
                    names=names,
                ),
                "bad_deck",
            )
        entries = {
            c.get("id"): [(e.get("id"), e.get("name")) for e in c["cards"] if isinstance(e, dict)] for c in categories
        }
        if all(isinstance(i, str) and isinstance(n, str) for es in entries.values() for i, n in es):
            classic = {CLASSIC_CATEGORIES.get(cid): {i for i, _ in es} for cid, es in entries.items()}
            preset = {
                cat: {i for i, c in CLASSIC_CARDS.items() if _category_of_classic(c) == cat} for cat in CATEGORIES
            }
            if classic == preset:
                self.cards = dict(CLASSIC_CARDS)
                self.category = {c: _category_of_classic(c) for c in CLASSIC_CARDS.values()}
                return
        order = self.category_order(categories)
        deck: dict[str, list[str]] = {}
        for cat, spec in zip(order, categories):
            card_names: list[str] = []
            for entry in spec["cards"]:
                if (
                    not isinstance(entry, dict)
                    or not isinstance(entry.get("id"), str)
                    or not isinstance(entry.get("name"), str)
                ):
                    raise Unconvertible(
                        T_("a card of category {get} needs an id and a name", get=repr(spec.get("name"))), "bad_deck"
                    )
                card = slug(entry["name"])
                if not card:
                    raise Unconvertible(
                        T_("card {entry} has no letter or digit to make an id of", entry=repr(entry["name"])),
                        "bad_deck",
                    )
                if card in self.category:
                    raise Unconvertible(
                        T_(
                            "two cards of the deck have the same name once case, accents and punctuation are ignored: {entry}",
                            entry=repr(entry["name"]),
                        ),
                        "bad_deck",
                    )
                self.cards[entry["id"]] = card
                self.category[card] = cat
                card_names.append(entry["name"])
            if not card_names:
                raise Unconvertible(T_("category {get} has no cards", get=repr(spec.get("name"))), "bad_deck")
            deck[cat] = card_names
        self.deck = {cat: deck[cat] for cat in CATEGORIES}

    @staticmethod
    def category_order(categories: list[dict[str, Any]]) -> list[str]:
        """Which category is which: by preset id, else by a telling name, else in the app's own order."""
        found: list[str | None] = []
        for spec in categories:
            cid = str(spec.get("id", ""))
            preset = next((cat for cat in CATEGORIES if cid in (f"category-{cat}", f"category-md-{cat}")), None)
            if preset is None:
                words = slug(str(spec.get("name", ""))).split("_")
                named = [
                    cat
                    for cat, keys in CATEGORY_WORDS.items()
                    if any(w.rstrip("s") in keys or w in keys for w in words)
                ]
                preset = named[0] if len(named) == 1 else None
            found.append(preset)
        if None not in found and len(set(found)) == 3:
            return found  # type: ignore[return-value]
        return list(CATEGORIES)

    def hand_sizes(self) -> None:
        n, n_cards = len(self.players), len(self.category)
        default = dealt_hand_sizes(n_cards, n)
        dealt = sum(default)
        first = 0
        if self.version >= 9 and self.data["firstDealtPlayerId"] is not None:
            if self.data["firstDealtPlayerId"] not in self.players:
                raise Unconvertible(
                    T_(
                        "firstDealtPlayerId {data} is not one of the players",
                        data=repr(self.data["firstDealtPlayerId"]),
                    ),
                    "unknown_player",
                )
            first = self.players.index(self.data["firstDealtPlayerId"])
        given: dict[str, int] = {}
        for i, entry in enumerate(self.data["handSizes"]):
            if not isinstance(entry, dict) or entry.get("player") not in self.players:
                raise Unconvertible(
                    T_(
                        "handSizes[{value}] names no player of the game: {dumps}", value=i, dumps=json.dumps(entry)[:80]
                    ),
                    "unknown_player",
                )
            size = entry.get("size")
            if type(size) is not int or size < 0:
                raise Unconvertible(
                    T_(
                        "handSizes[{value}]: the hand size of {entry} must be a whole number, not {dumps}",
                        value=i,
                        entry=entry["player"],
                        dumps=json.dumps(size),
                    ),
                    "bad_value",
                )
            given[entry["player"]] = size
        self.sizes = []
        for seat, name in enumerate(self.players):
            share = dealt // n + (1 if (seat - first) % n < dealt % n else 0)
            size = given.get(name, share)
            if name in given or size != default[seat]:
                self.declared[name] = size
            self.sizes.append(size)

    # -- the records

    def card(self, value: Any, where: str) -> str:
        if value not in self.cards:
            raise Unconvertible(
                T_("{where}: card {dumps} is not in the notebook's deck", where=where, dumps=json.dumps(value)),
                "unknown_card",
            )
        return self.cards[value]

    def player(self, value: Any, where: str) -> str:
        if value not in self.players:
            raise Unconvertible(
                T_(
                    "{where}: {dumps} is not one of the players ({players})",
                    where=where,
                    dumps=json.dumps(value),
                    players=", ".join(self.players),
                ),
                "unknown_player",
            )
        return str(value)

    def triple(self, value: Any, where: str) -> dict[str, str]:
        if not isinstance(value, list):
            raise Unconvertible(T_("{where}.cards must be a list of card ids", where=where), "bad_value")
        ids = [self.card(c, f"{where}.cards") for c in value]
        by_field: dict[str, list[str]] = {f: [] for f in FIELD_OF_CATEGORY.values()}
        for card in ids:
            by_field[FIELD_OF_CATEGORY[self.category[card]]].append(card)
        if any(len(found) != 1 for found in by_field.values()):
            raise Unconvertible(
                T_(
                    "{where} names {value}: not one suspect, one weapon and one room",
                    where=where,
                    value=", ".join(ids) or "no cards",
                )
            )
        return {f: found[0] for f, found in by_field.items()}

    def suggestion(self, s: Any, where: str) -> dict[str, Any]:
        if not isinstance(s, dict):
            raise Unconvertible(T_("{where} is not an object", where=where), "bad_value")
        for key in ("suggester", "cards", "nonRefuters", "refuter", "seenCard", "loggedAt"):
            if key not in s:
                raise Unconvertible(T_("{where} has no {key}", where=where, key=repr(key)), "missing_field")
        suggester = self.player(s["suggester"], f"{where}.suggester")
        cards = self.triple(s["cards"], where)
        if not isinstance(s["nonRefuters"], list):
            raise Unconvertible(T_("{where}.nonRefuters must be a list of players", where=where), "bad_value")
        passed = {self.player(p, f"{where}.nonRefuters") for p in s["nonRefuters"]}
        refuter = None if s["refuter"] is None else self.player(s["refuter"], f"{where}.refuter")
        if suggester in passed or refuter == suggester:
            raise Unconvertible(
                T_("{where}: {suggester} answers their own suggestion", where=where, suggester=suggester),
                "suggester_responds",
            )
        if refuter is not None and refuter in passed:
            raise Unconvertible(T_("{where}: {refuter} both passes and shows a card", where=where, refuter=refuter))
        seen = None if s["seenCard"] is None else self.card(s["seenCard"], f"{where}.seenCard")
        if seen is not None and refuter is None:
            raise Unconvertible(T_("{where}: a card is seen ({seen}) but nobody showed one", where=where, seen=seen))
        _, t = _when(s["loggedAt"], where)
        # Who passed under the rules: everyone before the refuter, or everyone when nobody showed.
        must_pass = (
            between(self.players, suggester, refuter) if refuter else [p for p in self.players if p != suggester]
        )
        record: dict[str, Any] = {"type": "suggest", "player": suggester, **cards}
        record["responses"] = responses(self.players, suggester, refuter, seen if seen is not None else "?")
        if t is not None:
            record["t"] = t
        implied = [p for p in must_pass if p not in passed]
        if implied:
            record["x-implied-passes"] = implied
        after = [p for p in self.players if p in passed and p not in must_pass]
        if after:
            record["x-passes-after-refuter"] = after
            self.warn(
                "import_dropped",
                nT_(
                    len(after),
                    "{where}: {after} passed after {refuter} showed a card; clue-log/1 has no answers after a shown card, so this pass is left out (kept in x-passes-after-refuter)",
                    "{where}: {after} passed after {refuter} showed a card; clue-log/1 has no answers after a shown card, so these passes are left out (kept in x-passes-after-refuter)",
                    where=where,
                    after=", ".join(after),
                    refuter=refuter,
                ),
            )
        return record

    def accusation(self, a: Any, where: str) -> dict[str, Any]:
        if not isinstance(a, dict):
            raise Unconvertible(T_("{where} is not an object", where=where), "bad_value")
        for key in ("accuser", "cards", "loggedAt"):
            if key not in a:
                raise Unconvertible(T_("{where} has no {key}", where=where, key=repr(key)), "missing_field")
        record: dict[str, Any] = {
            "type": "accuse",
            "player": self.player(a["accuser"], f"{where}.accuser"),
            **self.triple(a["cards"], where),
        }
        record["correct"] = False  # the notebook stores failed accusations only
        _, t = _when(a["loggedAt"], where)
        if t is not None:
            record["t"] = t
        return record

    def known_cards(self) -> tuple[list[tuple[int | None, dict[str, Any]]], list[tuple[int | None, dict[str, Any]]]]:
        """The owner's deal (first) and the other known cards (after the events), each with its line."""
        first: list[tuple[int | None, dict[str, Any]]] = []
        last: list[tuple[int | None, dict[str, Any]]] = []
        for i, entry in enumerate(self.data["hands"]):
            where = f"hands[{i}]"
            self.at = self.line("hands", i)
            try:
                if not isinstance(entry, dict) or not isinstance(entry.get("cards"), list):
                    raise Unconvertible(T_("{where} must be {{player, cards}}", where=where), "bad_value")
                name = self.player(entry.get("player"), f"{where}.player")
                cards = [self.card(c, f"{where}.cards") for c in entry["cards"]]
            except Unconvertible as exc:
                self.problems.append(problem(exc, self.at, self.source_file))
                continue
            except Exception as exc:  # a fault of the importer: this line's problem, on with the rest
                self.problems.append(fault(exc, self.at, self.source_file))
                continue
            if not cards:
                continue
            if self.owner is None:
                last.append((self.at, {"type": "x-effect-clue-known-cards", "player": name, "cards": cards}))
                self.warn(
                    "import_dropped",
                    T_(
                        "{where}: the notebook knows {name} holds {cards}, but not whose notebook it is, so not who knows it (kept as an x-effect-clue-known-cards record)",
                        where=where,
                        name=name,
                        cards=", ".join(cards),
                    ),
                )
            elif name == self.owner:
                if len(cards) >= self.sizes[self.players.index(name)]:
                    first.append((self.at, {"type": "deal", "player": name, "cards": cards}))
                else:
                    last.append((self.at, {"type": "x-effect-clue-known-cards", "player": name, "cards": cards}))
                    self.warn(
                        "import_dropped",
                        T_(
                            "{where}: only {n_cards} of the {sizes} cards of {name}'s own hand are noted, so no deal is written (kept as an x-effect-clue-known-cards record)",
                            where=where,
                            n_cards=len(cards),
                            sizes=self.sizes[self.players.index(name)],
                            name=name,
                        ),
                    )
            else:
                last.extend(
                    (
                        self.at,
                        {
                            "type": "reveal",
                            "player": name,
                            "card": c,
                            "to": [self.owner],
                            "cause": "known card in the notebook",
                        },
                    )
                    for c in cards
                )
        return first, last

    def convert(self, text: str) -> RawGame:
        players = []
        for name in self.players:
            entry: dict[str, Any] = {"name": name}
            if name in self.declared:
                entry["hand_size"] = self.declared[name]
            players.append(entry)
        header = game_record(
            edition="custom" if self.deck is not None else EDITION,
            deck=self.deck,
            players=players,
            perspective=self.owner,
            source=f"effect-clue notebook (version {self.version})",
        )
        deal, known = self.known_cards()
        events: list[tuple[float, int, int, int | None, dict[str, Any]]] = []
        for kind, key, convert in ((0, "suggestions", self.suggestion), (1, "accusations", self.accusation)):
            for i, item in enumerate(self.data[key]):
                where = f"{key}[{i}]"
                self.at = self.line(key, i)
                try:
                    record = convert(item, where)  # checks loggedAt, so it can order the records
                    events.append((_when(item["loggedAt"], where)[0], kind, i, self.at, record))
                except Unconvertible as exc:
                    self.problems.append(problem(exc, self.at, self.source_file))
                except Exception as exc:  # a fault of the importer: this line's problem, on with the rest
                    self.problems.append(fault(exc, self.at, self.source_file))
        events.sort(key=lambda e: e[:3])
        # each record at the line where its entry of the notebook begins (the game record: the first)
        located = [(1, header), *deal, *((e[3], e[4]) for e in events), *known]
        records = [record for _, record in located]
        return RawGame(
            records=records,
            lines=[line for line, _ in located],
            text=text,
            source_file=self.source_file,
            problems=self.problems,
        )


def _category_of_classic(card: str) -> str:
    order = list(CLASSIC_CARDS.values())
    index = order.index(card)
    return "suspects" if index < 6 else "weapons" if index < 12 else "rooms"
