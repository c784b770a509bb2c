"""Decks, editions and variants, loaded from the data files in ``data/editions/``.

Cards are named by lower-case ids everywhere inside the engine. Each edition maps its display names
and aliases onto those ids; :func:`slug` is the one normalisation used for matching (accents removed,
case folded, runs of other characters turned into ``_``), so "Mrs. White", "mrs white" and "MRS_WHITE"
are the same key.
"""

from __future__ import annotations

import bisect
import difflib
import functools
import re
import tomllib
import unicodedata
from dataclasses import dataclass, field
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any, TypeVar

from clue_stats.engine.errors import InputError
from clue_stats.engine.markers import T_, Said
from clue_stats.engine.problems import kind_word, quoted

T = TypeVar("T")

DATA_DIR: Traversable = files("clue_stats.data")  # data/ in a clone, package data in a wheel


def data_files(folder: str, suffix: str) -> dict[str, Traversable]:
    """The data files ``data/<folder>/*<suffix>`` by name without the suffix, sorted."""
    found = {f.name.removesuffix(suffix): f for f in (DATA_DIR / folder).iterdir() if f.name.endswith(suffix)}
    return dict(sorted(found.items()))


CATEGORIES = ("suspects", "weapons", "rooms")
CATEGORY_OF_FIELD = {"suspect": "suspects", "weapon": "weapons", "room": "rooms"}

FLAG_DEFAULTS: dict[str, Any] = {
    "board": True,
    "suggest_room": "current",
    "suggest_again_without_leaving": True,
    "accuse_in_room": True,
    "accuse_only_after_suggestion": False,
    "first_player": "scarlett",
    "clue_cards": False,
    "clue_cards_per_roll": "none",
    "magnifier_moves": 0,
    "eliminated_token_moves": True,
    "last_player_standing_wins": False,
    "suggestion_every_turn": False,
    "no_repeat_own_suggestion": False,
}
FLAG_CHOICES: dict[str, tuple[Any, ...]] = {
    "suggest_room": ("current", "chosen"),
    "first_player": ("scarlett", "die", "listed"),
    "clue_cards_per_roll": ("none", "per_magnifier", "one"),
}


@functools.lru_cache(maxsize=8192)
def slug(text: str) -> str:
    """The matching key of a name, and the id of a custom deck's card (event-format.md)."""
    if text.isascii():  # most names: nothing to decompose, and casefold is lower
        stripped = text.lower()
    else:
        decomposed = unicodedata.normalize("NFKD", text)
        stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
    return _NOT_KEY.sub("_", stripped).strip("_")


_NOT_KEY = re.compile(r"[^0-9a-z]+")


NEAR_KEYS = 200  # names a did-you-mean compares an unknown name with, at most


class UnknownName(InputError):
    """A name that matches nothing; carries the closest known names."""

    def __init__(self, kind: str, name: str, suggestions: list[str]):
        self.kind, self.name, self.suggestions = kind, name, suggestions
        hint: str | Said = ""
        if len(suggestions) == 1:
            hint = T_(" (did you mean {name}?)", name=quoted(suggestions[0]))
        elif suggestions:
            hint = T_(
                " (did you mean {names} or {last}?)",
                names=" or ".join(quoted(s) for s in suggestions[:-1]),
                last=quoted(suggestions[-1]),
            )
        # the message as template and values (engine.problems.Said), for a reader's language
        super().__init__(T_("unknown {kind} {name}{hint}", kind=kind_word(kind), name=quoted(name), hint=hint))


@dataclass(frozen=True)
class Deck:
    """The cards of a game: ids per category, display names, and the names that match each id."""

    suspects: tuple[str, ...]
    weapons: tuple[str, ...]
    rooms: tuple[str, ...]
    display: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    keys: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def cards(self) -> tuple[str, ...]:
        return self.suspects + self.weapons + self.rooms

    @functools.cached_property
    def card_index(self) -> dict[str, int]:
        """Each card's index in :attr:`cards` (shared: not to be changed)."""
        return {card: i for i, card in enumerate(self.cards)}

    @functools.cached_property
    def _categories(self) -> dict[str, str]:
        """card id -> its category, so that finding one costs the same in a deck of 150,000 cards."""
        return {card: name for name in CATEGORIES for card in getattr(self, name)}

    def category(self, card: str) -> str:
        return self._categories[card]  # KeyError for a card of no category

    def of(self, category: str) -> tuple[str, ...]:
        cards: tuple[str, ...] = getattr(self, category)
        return cards

    def name(self, card: str) -> str:
        return self.display.get(card, card)

    @property
    def n_solutions(self) -> int:
        return len(self.suspects) * len(self.weapons) * len(self.rooms)

    def resolve(self, name: str, category: str | None = None) -> str:
        """The id of a card named by id, display name or alias; raises :class:`UnknownName`."""
        card = self.keys.get(name)  # the common case: already an id
        key = name if card is not None else slug(name)
        card = card if card is not None else self.keys.get(key)
        if card is not None and (category is None or self._categories[card] == category):
            return card
        kind = category[:-1] if category else "card"
        if card is not None:
            raise UnknownName(kind, name, [])
        candidates = [k for k in self._near(key) if category is None or self._categories[self.keys[k]] == category]
        close = difflib.get_close_matches(key, candidates, n=2, cutoff=0.6)
        suggestions = list(dict.fromkeys(self.name(self.keys[k]) for k in close))
        raise UnknownName(kind, name, suggestions)

    @functools.cached_property
    def _sorted_keys(self) -> list[str]:
        return sorted(self.keys)

    def _near(self, key: str) -> list[str]:
        """The keys a did-you-mean compares with ``key``: all of a deck of up to NEAR_KEYS names; in a
        larger one the NEAR_KEYS around it in alphabetical order (a typo late in the name), so that an
        unknown name costs the same in a deck of 150,000 cards."""
        keys = self._sorted_keys
        if len(keys) <= NEAR_KEYS:
            return keys
        at = bisect.bisect_left(keys, key)
        return keys[max(0, at - NEAR_KEYS // 2) : at + NEAR_KEYS // 2]

    @classmethod
    def build(cls, names: dict[str, dict[str, list[str]]]) -> Deck:
        """From ``{category: {id: [display name, alias, ...]}}``."""
        display: dict[str, str] = {}
        keys: dict[str, str] = {}
        for category in CATEGORIES:
            for card, aliases in names[category].items():
                display[card] = aliases[0] if aliases else card
                keys.setdefault(slug(card), card)
                for alias in aliases:
                    keys.setdefault(slug(alias), card)
        return cls(
            suspects=tuple(names["suspects"]),
            weapons=tuple(names["weapons"]),
            rooms=tuple(names["rooms"]),
            display=display,
            keys=keys,
        )

    @classmethod
    def custom(cls, suspects: list[str], weapons: list[str], rooms: list[str]) -> Deck:
        """A deck declared inside a log: ids are the slugs of the display names."""
        return cls.build(
            {
                category: {slug(name): [name] for name in names}
                for category, names in zip(CATEGORIES, (suspects, weapons, rooms))
            }
        )


@dataclass(frozen=True)
class Variant:
    id: str
    name: str
    flags: dict[str, Any]
    room_cards: int = 0
    min_players: int = 2
    max_players: int = 6
    any_edition: bool = False


@dataclass(frozen=True)
class Edition:
    id: str
    name: str
    aliases: tuple[str, ...]
    deck: Deck
    flags: dict[str, Any]
    board: str | None
    variants: tuple[str, ...]


@functools.cache
def editions() -> dict[str, Edition]:
    found: dict[str, Edition] = {}
    for name, path in data_files("editions", ".toml").items():
        if name == "variants":
            continue
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        found[raw["id"]] = Edition(
            id=raw["id"],
            name=raw["name"],
            aliases=tuple(raw.get("aliases", ())),
            deck=Deck.build({c: raw[c] for c in CATEGORIES}),
            flags={**FLAG_DEFAULTS, **raw.get("flags", {})},
            board=raw.get("board"),
            variants=tuple(raw.get("variants", ("standard",))),
        )
    return found


@functools.cache
def variants() -> dict[str, Variant]:
    raw = tomllib.loads((DATA_DIR / "editions" / "variants.toml").read_text(encoding="utf-8"))
    found = {}
    for vid, spec in raw.items():
        low, high = spec.get("players", [2, 6])
        found[vid] = Variant(
            id=vid,
            name=spec["name"],
            flags=dict(spec.get("flags", {})),
            room_cards=int(spec.get("room_cards", 0)),
            min_players=low,
            max_players=high,
            any_edition=bool(spec.get("any_edition", False)),
        )
    return found


def _lookup(kind: str, name: str, table: dict[str, T], aliases: dict[str, str]) -> T:
    key = slug(name)
    if key in aliases:
        return table[aliases[key]]
    close = difflib.get_close_matches(key, list(aliases), n=2, cutoff=0.6)
    raise UnknownName(kind, name, list(dict.fromkeys(aliases[k] for k in close)))


def edition(name: str) -> Edition:
    """An edition by id, display name or alias (case and accents ignored)."""
    table = editions()
    aliases: dict[str, str] = {}
    for ed in table.values():
        for alias in (ed.id, ed.name, *ed.aliases):
            aliases.setdefault(slug(alias), ed.id)
    return _lookup("edition", name, table, aliases)


def variant(name: str) -> Variant:
    table = variants()
    return _lookup("variant", name, table, {slug(v): v for v in table})


def resolve_flags(ed: Edition | None, var: Variant, overrides: dict[str, Any] | None) -> dict[str, Any]:
    """Edition, then variant, then the log's own ``rules`` (docs/event-format.md, "Editions, variants and rule flags")."""
    base = dict(ed.flags) if ed is not None else dict(FLAG_DEFAULTS)
    base.update(var.flags)
    base.update(overrides or {})
    return base


def dealt_hand_sizes(n_cards: int, n_players: int, room_cards: int = 0) -> list[int]:
    """Cards left after the envelope (3) and the duel's room cards, dealt one at a time from seat 0."""
    left = n_cards - 3 - room_cards
    return [left // n_players + (1 if seat < left % n_players else 0) for seat in range(n_players)]
