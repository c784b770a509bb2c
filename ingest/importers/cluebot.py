"""jdrbc/cluebot's YAML clue sheet (importers.md 3.1): one user's notes of one game.

The sheet lists the players in answering (seat) order, the user's own cards and every other
player's card count, an optional deck of its own, and events: suggestions (``q`` + ``a``), cards
seen outside a suggestion (``r``) and failed accusations (``accuse``). It never holds the winner or
the solution. The mapping:

* players in the sheet's order; every player gets ``hand_size`` (the user's is the number of their
  cards); the user (the one player listed with ``cards``) is the perspective and their hand a deal;
* no ``setup.cards``: edition "us-classic" (cluebot's words, e.g. ``leadpipe``, ``billiard``, are
  names of that deck); with ``setup.cards``: a "custom" deck of those names;
* ``q``/``a``: a suggestion; the players between the asker and the answerer passed (cluebot's own
  reading), ``nobody``: everyone else passed; the shown card when the sheet names it, else "?";
* ``r: "<player> <card>"``: a ``reveal`` of that card to the user (``nobody``: in nobody's hand);
* ``accuse``: a wrong accusation (the sheet records failed ones only).
"""

from __future__ import annotations

from typing import Any

from clue_stats.engine.editions import CATEGORIES, Deck, edition
from clue_stats.engine.markers import T_, Said
from clue_stats.engine.problems import Problem
from clue_stats.ingest import kinds
from clue_stats.ingest.importers.common import (
    Unconvertible,
    fault,
    game_record,
    located,
    problem,
    resolve,
    responses,
    source_lines,
    triple,
)
from clue_stats.ingest.raw import RawGame, ReadResult

NAME = "cluebot"
DESCRIPTION = "cluebot YAML clue sheet (jdrbc/cluebot): one player's notes of one game"
KIND = kinds.TABLETOP  # a player's notes of a game at the table
EXTENSIONS = (".yml", ".yaml")
EDITION = "us-classic"
NOBODY = "nobody"


def detect(text: str, filename: str | None = None) -> bool:
    """A mapping with ``setup.players`` (each a ``name`` with ``cards`` or ``card_count``) and ``events``."""
    if "setup" not in text or "players" not in text:
        return False
    from clue_stats.ingest.importers.cluebot_yaml import detected  # deferred: start-up (PyYAML, when a sheet is read)

    data = detected(text)
    if not isinstance(data, dict) or "events" not in data or not isinstance(data.get("setup"), dict):
        return False
    players = data["setup"].get("players")
    return (
        isinstance(players, list)
        and len(players) > 0
        and all(isinstance(p, dict) and "name" in p and ("cards" in p or "card_count" in p) for p in players)
    )


def read(text: str, source_file: str | None = None) -> ReadResult:
    from clue_stats.ingest.importers.cluebot_yaml import (  # deferred: start-up (PyYAML, when a sheet is read)
        Refused,
        YAMLError,
        event_lines,
        line_of,
        parse,
    )

    result = ReadResult()

    def fail(message: str | Said, line: int | None = 1, code: str = "bad_import") -> ReadResult:
        result.problems.append(Problem.of(code, message, line=line, source_file=source_file))
        return result

    try:
        data, root = parse(text)
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        if isinstance(exc, Refused):
            return fail(exc.said, line, exc.code)
        return fail(T_("not YAML: {value}", value=getattr(exc, "problem", None) or exc), line)
    if not isinstance(data, dict) or not isinstance(data.get("setup"), dict):
        return fail(T_("not a cluebot sheet: a mapping with 'setup' and 'events' is expected"))
    events = data.get("events") or []
    if not isinstance(events, list):
        return fail(T_("'events' must be a list of events"), line_of(root, "events"))
    sheet = _Sheet(source_file)
    try:
        sheet.setup(data["setup"], line_of(root, "setup"))
    except Unconvertible as exc:
        result.problems.append(problem(exc, line_of(root, "setup"), source_file))
        return result
    lines = event_lines(root, len(events))
    for event, line in zip(events, lines):
        try:
            sheet.event(event, line)
        except Unconvertible as exc:
            sheet.problems.append(problem(exc, line, source_file))
        except Exception as exc:  # a fault of the importer: this line's problem, on with the rest
            sheet.problems.append(fault(exc, line, source_file))
    result.games.append(sheet.raw(text))
    return result


class _Sheet:
    def __init__(self, source_file: str | None):
        self.source_file = source_file
        self.deck: Deck = edition(EDITION).deck
        self.custom: dict[str, list[str]] | None = None
        self.players: list[str] = []
        self.sizes: list[int] = []
        self.user = ""
        self.hand: list[str] = []
        self.header_line: int | None = None
        self.records: list[dict[str, Any]] = []
        self.problems: list[Problem] = []

    def setup(self, setup: dict[str, Any], line: int | None) -> None:
        self.header_line = line
        cards = setup.get("cards")
        if cards is not None:
            if not isinstance(cards, dict) or any(
                not isinstance(cards.get(c), list) or not cards.get(c) for c in CATEGORIES
            ):
                raise Unconvertible(T_("setup.cards must list suspects, weapons and rooms"), "bad_deck")
            self.custom = {c: [str(name) for name in cards[c]] for c in CATEGORIES}
            self.deck = Deck.custom(self.custom["suspects"], self.custom["weapons"], self.custom["rooms"])
        players = setup.get("players")
        if (
            not isinstance(players, list)
            or not players
            or not all(isinstance(p, dict) and "name" in p for p in players)
        ):
            raise Unconvertible(T_("setup.players must list the players, each with a name"), "bad_players")
        users = [p for p in players if "cards" in p]
        if len(users) != 1:
            raise Unconvertible(
                T_(
                    "setup.players must give the cards of exactly one player, the sheet's user (here {n_users})",
                    n_users=len(users),
                ),
                "bad_players",
            )
        for p in players:
            name = str(p["name"])
            if name in self.players or name == NOBODY:
                raise Unconvertible(
                    T_("player name {name} is used twice or is cluebot's 'nobody'", name=repr(name)), "bad_players"
                )
            self.players.append(name)
            if "cards" in p:
                self.user = name
                self.hand = [resolve(self.deck, word) for word in str(p["cards"]).split()]
                self.sizes.append(len(self.hand))
            else:
                count = p.get("card_count")
                if type(count) is not int or count < 0:
                    raise Unconvertible(
                        T_("{name}'s card_count must be a whole number, not {count}", name=name, count=repr(count)),
                        "bad_value",
                    )
                self.sizes.append(count)

    def player(self, word: str) -> str:
        if word not in self.players:
            raise Unconvertible(
                T_("{word} is not one of the players ({players})", word=repr(word), players=", ".join(self.players)),
                "unknown_player",
            )
        return word

    def event(self, event: Any, line: int | None) -> None:
        if not isinstance(event, dict):
            raise Unconvertible(T_("an event must be a mapping (q/a, r or accuse), not {event}", event=repr(event)))
        # cluebot looks for q, then r, then accuse: the same precedence here.
        if "q" in event:
            self.records.append(located(self.suggestion(str(event["q"]), event.get("a")), line))
        elif "r" in event:
            self.records.append(located(self.reveal(str(event["r"])), line))
        elif "accuse" in event:
            asker, cards = self.named(str(event["accuse"]), "accuse")
            self.records.append(located({"type": "accuse", "player": asker, **cards, "correct": False}, line))
        else:
            raise Unconvertible(T_("an event with none of q, r or accuse: {map}", map=sorted(map(str, event))))

    def named(self, text: str, what: str) -> tuple[str, dict[str, str]]:
        words = text.split()
        if len(words) != 4:
            raise Unconvertible(T_("{what}: {text} is not a player and three cards", what=what, text=repr(text)))
        return self.player(words[0]), triple(self.deck, [resolve(self.deck, w) for w in words[1:]], f"{what} {text!r}")

    def suggestion(self, question: str, answer: Any) -> dict[str, Any]:
        asker, cards = self.named(question, "q")
        if answer is None:
            raise Unconvertible(T_("q: {question} has no answer 'a'", question=repr(question)))
        words = str(answer).split()
        if not words or len(words) > 2 or (words[0] == NOBODY and len(words) > 1):
            raise Unconvertible(
                T_("a: {answer} is not 'nobody', a player, or a player and the card shown", answer=repr(answer))
            )
        if words[0] == NOBODY:
            answers = responses(self.players, asker, None, None)
        else:
            shower = self.player(words[0])
            shown = resolve(self.deck, words[1]) if len(words) == 2 else "?"
            answers = responses(self.players, asker, shower, shown)
        return {"type": "suggest", "player": asker, **cards, "responses": answers}

    def reveal(self, text: str) -> dict[str, Any]:
        words = text.split()
        if len(words) != 2:
            raise Unconvertible(T_("r: {text} is not a player (or 'nobody') and a card", text=repr(text)))
        owner = None if words[0] == NOBODY else self.player(words[0])
        card = resolve(self.deck, words[1])
        return {
            "type": "reveal",
            "player": owner,
            "card": card,
            "to": [self.user],
            "cause": "seen outside a suggestion",
        }

    def raw(self, text: str) -> RawGame:
        players = [{"name": n, "hand_size": s} for n, s in zip(self.players, self.sizes)]
        header = game_record(
            edition="custom" if self.custom is not None else EDITION,
            deck=self.custom,
            players=players,
            perspective=self.user,
            source="cluebot sheet",
        )
        deal = located({"type": "deal", "player": self.user, "cards": self.hand}, self.header_line)
        records = [located(header, self.header_line), deal, *self.records]
        return RawGame(
            records=records,
            lines=source_lines(records),
            text=text,
            source_file=self.source_file,
            problems=self.problems,
        )
