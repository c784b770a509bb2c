"""Neller's ClueReasoner exercise (importers.md 3.2): its event calls, written one per line.

The exercise's notebook owner records a game as method calls: ``hand(player, cards)`` for their
own hand, ``suggest(suggester, card1, card2, card3, refuter, cardShown)`` and ``accuse(accuser,
card1, card2, card3, isCorrect)``. A file holds such calls, one a line, as Java (``cr.suggest("sc",
"pe", "kn", "ha", "mu", null);``, arrays as ``String[] mine = {"wh", "li", "st"};`` or ``new
String[] {...}``) or as Python (``cr.suggest('sc', 'pe', 'kn', 'ha', 'mu', None)``, lists ``[...]``).
Blank lines, comments, braces, creating the reasoner and ``printNotepad()`` are skipped.

The mapping: the six players are the exercise's fixed suspects in turn order ``sc mu wh gr pe pl``
(named by those codes, their ``character`` the suspect), dealt 3 cards each; the player of
``hand`` is the perspective and their hand a deal; a suggestion's passes are the players between
the suggester and the refuter (everyone else when the refuter is null); the shown card when given,
else "?"; an accusation with ``isCorrect`` true ends the game with that player as winner.
"""

from __future__ import annotations

import re
from typing import Any

from clue_stats.engine.markers import T_
from clue_stats.engine.problems import Problem
from clue_stats.ingest import kinds
from clue_stats.ingest.importers.common import (
    Unconvertible,
    fault,
    game_record,
    located,
    problem,
    responses,
    source_lines,
)
from clue_stats.ingest.raw import RawGame, ReadResult

NAME = "reasoner"
DESCRIPTION = "Neller's ClueReasoner event calls (hand/suggest/accuse), one per line, Java or Python"
KIND = kinds.TABLETOP  # a player's notes of a game at the table
EXTENSIONS = (".txt", ".java", ".py", ".reasoner")
EDITION = "us-classic"

PLAYERS = ("sc", "mu", "wh", "gr", "pe", "pl")
CARDS = {
    "mu": "mustard", "pl": "plum", "gr": "green", "pe": "peacock", "sc": "scarlett", "wh": "white",
    "kn": "dagger", "ca": "candlestick", "re": "revolver", "ro": "rope", "pi": "lead_pipe", "wr": "wrench",
    "ha": "hall", "lo": "lounge", "di": "dining_room", "ki": "kitchen", "ba": "ballroom",
    "co": "conservatory", "bi": "billiard_room", "li": "library", "st": "study",
}  # fmt: skip
CATEGORY = {code: ("suspect" if i < 6 else "weapon" if i < 12 else "room") for i, code in enumerate(CARDS)}
CHARACTER = {code: CARDS[code] for code in PLAYERS}

SKIP = [
    re.compile(r"^[{}]$"),
    re.compile(r"^(?:\w+\s+)?\w+\s*=\s*(?:new\s+)?(?:\w+\.)*ClueReasoner\s*\(\s*\)\s*;?$"),
    re.compile(r"^(?:\w+\.)?printNotepad\s*\(\s*\)\s*;?$"),
    re.compile(r"^public\s+static\s+void\s+main\s*\([^)]*\)\s*(?:throws\s+[\w.,\s]+)?\{?$"),
    re.compile(r"^def\s+main\s*\(\s*\)\s*:$"),
]
CALL = re.compile(r"^(?:\w+\.)?(?P<method>hand|suggest|accuse)\s*\((?P<args>.*)\)\s*;?$")
JAVA_ARRAY = re.compile(r"^(?:final\s+)?String\s*\[\s*\]\s*(?P<name>\w+)\s*=\s*(?P<value>.*?)\s*;$")
PY_ARRAY = re.compile(r"^(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>\[.*\])$")
TOKEN = re.compile(
    r"\s*(?:(?P<str>\"[^\"\\]*\"|'[^'\\]*')|(?P<new>new\s+String\s*\[\s*\])|(?P<punct>[{}\[\],])|(?P<word>[A-Za-z_]\w*))"
)


def _strip_comment(line: str) -> str:
    """The line without a trailing // or # comment (neither occurs inside the calls' short strings)."""
    return re.split(r"//|#", line, maxsplit=1)[0].strip()


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        match = TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            raise Unconvertible(T_("cannot read {text}", text=repr(text[pos : pos + 30])))
        kind = match.lastgroup or ""
        out.append((kind, match.group(kind).strip()))
        pos = match.end()
    return out


def _values(text: str, arrays: dict[str, list[str]]) -> list[Any]:
    """The comma-separated values of a call: strings, null/None, booleans, arrays and array names."""
    tokens = _tokens(text)
    values: list[Any] = []
    i = 0
    while i < len(tokens):
        kind, tok = tokens[i]
        if kind == "new":
            i += 1
            kind, tok = tokens[i] if i < len(tokens) else ("", "")
        if kind == "str":
            values.append(tok[1:-1])
        elif kind == "punct" and tok in "{[":
            close = "}" if tok == "{" else "]"
            items: list[str] = []
            i += 1
            while i < len(tokens) and tokens[i] != ("punct", close):
                if tokens[i][0] == "str":
                    items.append(tokens[i][1][1:-1])
                elif tokens[i] != ("punct", ","):
                    raise Unconvertible(T_("an array holds {tokens}, not only strings", tokens=repr(tokens[i][1])))
                i += 1
            if i == len(tokens):
                raise Unconvertible(T_("an array without its closing {close}", close=repr(close)))
            values.append(items)
        elif kind == "word" and tok in ("null", "None"):
            values.append(None)
        elif kind == "word" and tok in ("true", "True", "false", "False"):
            values.append(tok.lower() == "true")
        elif kind == "word" and tok in arrays:
            values.append(list(arrays[tok]))
        elif kind == "word":
            raise Unconvertible(T_("{tok} is not a string, null, a boolean or an array declared before", tok=repr(tok)))
        else:
            raise Unconvertible(T_("unexpected {tok}", tok=repr(tok)))
        i += 1
        if i < len(tokens):
            if tokens[i] != ("punct", ","):
                raise Unconvertible(T_("expected ',' before {tokens}", tokens=repr(tokens[i][1])))
            i += 1
    return values


def _classify(line: str) -> str:
    """'skip', 'array' or 'call' for a line this format can hold, else ''."""
    text = _strip_comment(line)
    if not text or text.startswith(("/*", "*")) or any(p.match(text) for p in SKIP):
        return "skip"
    if JAVA_ARRAY.match(text) or PY_ARRAY.match(text):
        return "array"
    return "call" if CALL.match(text) else ""


def detect(text: str, filename: str | None = None) -> bool:
    """Every line is a ClueReasoner call or skippable, and at least one line is a call."""
    kinds = [_classify(line) for line in text.splitlines()]
    return "call" in kinds and "" not in kinds


def read(text: str, source_file: str | None = None) -> ReadResult:
    calls = _Calls(source_file)
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            calls.line(line, number)
        except Unconvertible as exc:
            calls.problems.append(problem(exc, number, source_file))
        except Exception as exc:  # a fault of the importer: this line's problem, on with the rest
            calls.problems.append(fault(exc, number, source_file))
    result = ReadResult()
    if not calls.records and calls.owner is None:
        result.problems.append(
            Problem.of(
                "bad_import", T_("no hand, suggest or accuse call: nothing to convert"), line=1, source_file=source_file
            )
        )
        return result
    result.games.append(calls.raw(text))
    return result


class _Calls:
    def __init__(self, source_file: str | None):
        self.source_file = source_file
        self.arrays: dict[str, list[str]] = {}
        self.owner: str | None = None
        self.deal: dict[str, Any] | None = None
        self.records: list[dict[str, Any]] = []
        self.problems: list[Problem] = []

    def line(self, line: str, number: int) -> None:
        kind = _classify(line)
        text = _strip_comment(line)
        if kind == "skip":
            return
        if kind == "array":
            match = JAVA_ARRAY.match(text) or PY_ARRAY.match(text)
            assert match is not None
            values = _values(match.group("value"), self.arrays)
            if len(values) != 1 or not isinstance(values[0], list):
                raise Unconvertible(T_("{group} is not an array of card codes", group=match.group("name")))
            self.arrays[match.group("name")] = values[0]
            return
        match = CALL.match(text)
        if match is None:
            raise Unconvertible(T_("not a ClueReasoner call: {strip}", strip=repr(line.strip()[:80])))
        args = _values(match.group("args"), self.arrays)
        getattr(self, "on_" + match.group("method"))(args, number)

    @staticmethod
    def player(value: Any, what: str) -> str:
        if value not in PLAYERS:
            raise Unconvertible(
                T_(
                    "{what} {value} is not one of the players {players}",
                    what=what,
                    value=repr(value),
                    players=" ".join(PLAYERS),
                ),
                "unknown_player",
            )
        return str(value)

    @staticmethod
    def card(value: Any, what: str) -> str:
        if value not in CARDS:
            raise Unconvertible(
                T_("{what} {value} is not a card code ({cards})", what=what, value=repr(value), cards=" ".join(CARDS)),
                "unknown_card",
            )
        return CARDS[value]

    def triple(self, codes: list[Any], what: str) -> dict[str, str]:
        for code in codes:
            self.card(code, f"{what}: card")
        fields = sorted((CATEGORY[c], CARDS[c]) for c in codes)
        if [f for f, _ in fields] != ["room", "suspect", "weapon"]:
            raise Unconvertible(
                T_("{what} names {codes}: not one suspect, one weapon and one room", what=what, codes=" ".join(codes))
            )
        return {"suspect": fields[1][1], "weapon": fields[2][1], "room": fields[0][1]}

    @staticmethod
    def arity(args: list[Any], n: int, call: str) -> None:
        if len(args) != n:
            raise Unconvertible(T_("{call} takes {n} arguments, not {n_args}", call=call, n=n, n_args=len(args)))

    def on_hand(self, args: list[Any], number: int) -> None:
        self.arity(args, 2, "hand(player, cards)")
        owner = self.player(args[0], "hand: player")
        if not isinstance(args[1], list):
            raise Unconvertible(T_("hand: the cards must be an array of card codes"))
        if self.owner is not None:
            raise Unconvertible(
                T_(
                    "a second hand ({owner}'s): the calls record one notebook owner's hand ({owner2}'s)",
                    owner=owner,
                    owner2=self.owner,
                )
            )
        self.owner = owner
        self.deal = located(
            {"type": "deal", "player": owner, "cards": [self.card(c, "hand: card") for c in args[1]]}, number
        )

    def on_suggest(self, args: list[Any], number: int) -> None:
        self.arity(args, 6, "suggest(suggester, card1, card2, card3, refuter, cardShown)")
        suggester = self.player(args[0], "suggest: suggester")
        cards = self.triple(args[1:4], "suggest")
        refuter = None if args[4] is None else self.player(args[4], "suggest: refuter")
        shown = None if args[5] is None else self.card(args[5], "suggest: cardShown")
        if refuter is None and shown is not None:
            raise Unconvertible(T_("suggest: a card is shown but the refuter is null"))
        answers = responses(PLAYERS, suggester, refuter, shown if shown is not None else "?")
        self.records.append(located({"type": "suggest", "player": suggester, **cards, "responses": answers}, number))

    def on_accuse(self, args: list[Any], number: int) -> None:
        self.arity(args, 5, "accuse(accuser, card1, card2, card3, isCorrect)")
        accuser = self.player(args[0], "accuse: accuser")
        cards = self.triple(args[1:4], "accuse")
        if not isinstance(args[4], bool):
            raise Unconvertible(T_("accuse: isCorrect must be true or false"))
        self.records.append(located({"type": "accuse", "player": accuser, **cards, "correct": args[4]}, number))
        if args[4]:
            self.records.append(located({"type": "end", "winner": accuser, "solution": dict(cards)}, number))

    def raw(self, text: str) -> RawGame:
        header = game_record(
            edition=EDITION,
            players=[{"name": code, "character": CHARACTER[code]} for code in PLAYERS],
            perspective=self.owner,
            source="ClueReasoner calls",
        )
        records = [header, *([self.deal] if self.deal else []), *self.records]
        return RawGame(
            records=records,
            lines=[1, *source_lines(records[1:])],  # the file is the game: its record at line 1
            text=text,
            source_file=self.source_file,
            problems=self.problems,
        )
