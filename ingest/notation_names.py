"""Stage 2 of the notation reader: names as typed at the table, resolved to card ids and players.

A card is named by its id, a display name or an alias of the game's deck, or a unique abbreviation
of one of them, matched word by word on :func:`engine.editions.slug` keys (accents and case ignored,
"ue" for "ü"): ``Heiz`` is Heizungsrohr, ``Prof B`` Professor Bloom, ``Ro`` is ambiguous in de-2023
(Rohr, Rohrzange, rope), and when nothing else fits, one word may start any word of a name
(``Ascot`` for Lady Ascot). A name with spaces is written as it is (the longest run of words that names one card
wins), joined (``Lead-Pipe``) or in quotes. Players are matched the same way, and also by a unique
abbreviation of any word of their name (``Nord`` is "Team Nord").

Every failure is a :class:`NotationError` pointing at the tokens, with the closest names from
:meth:`engine.editions.Deck.resolve` as a did-you-mean.
"""

from __future__ import annotations

import bisect
import difflib
import functools
import heapq
from collections.abc import Collection, Iterator, Sequence

from clue_stats.engine.editions import Deck, UnknownName, slug
from clue_stats.engine.markers import T_, Count, Said
from clue_stats.engine.problems import NAMES_SHOWN, cut, kind_word, listed, quoted
from clue_stats.ingest.notation_lex import NotationError, Token

KIND_OF_CATEGORY = {"suspects": "suspect", "weapons": "weapon", "rooms": "room", None: "card"}

_slug = functools.lru_cache(maxsize=1 << 14)(slug)  # a game repeats the same few names


def _joinable(t: Token) -> bool:
    """A word that can be part of a name: marks such as "-", "?" or "=" end a name."""
    return not t.sep and bool(_slug(t.text))


def fold(key: str) -> str:
    """German spellings without umlauts match too: "gruen" is "grun" (Grün), "koechin" "kochin"."""
    return key.replace("ae", "a").replace("oe", "o").replace("ue", "u")


def _prefix_match(typed: list[str], parts: Sequence[str]) -> bool:
    return len(typed) <= len(parts) and all(p.startswith(t) for t, p in zip(typed, parts))


def _ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, slug(a), slug(b)).ratio()


def _listing(names: list[str]) -> str | Said:
    return listed(names, " or ")


class _Words:
    """Entries (the words of a name, card) found by how a word of theirs starts, in O(log n) plus
    the entries found: a sorted list of (word, entry number) searched by bisection."""

    def __init__(self, entries: list[tuple[tuple[str, ...], str]], every_word: bool):
        self.entries = entries
        pairs = sorted(
            (word, n) for n, (parts, _) in enumerate(entries) for word in (parts if every_word else parts[:1])
        )
        self._words = [w for w, _ in pairs]
        self._numbers = [n for _, n in pairs]

    def starting(self, prefix: str) -> Iterator[tuple[tuple[str, ...], str]]:
        """Each entry with a word (the first, unless every word was indexed) that starts with ``prefix``."""
        at = bisect.bisect_left(self._words, prefix)
        seen: set[int] = set()
        while at < len(self._words) and self._words[at].startswith(prefix):
            n = self._numbers[at]
            if n not in seen:
                seen.add(n)
                yield self.entries[n]
            at += 1


class CardNames:
    """The cards of one deck, matched by key, unique abbreviation, and the longest run of words.
    Every lookup costs O(log n) in the size of the deck plus the cards it finds."""

    def __init__(self, deck: Deck):
        self.deck = deck
        entries = [(tuple(key.split("_")), card) for key, card in deck.keys.items()]
        # every word has a letter or digit, so a run of more words than the longest name has parts names nothing
        self.max_words = max(len(parts) for parts, _ in entries)
        self._first_words = _Words(entries, every_word=False)  # an abbreviation starts the name's first word
        folded = [(tuple(fold(key).split("_")), card) for key, card in deck.keys.items()]
        self._folded_first = _Words(folded, every_word=False)
        self._folded_any = _Words(folded, every_word=True)
        self._folded_exact: dict[str, set[str]] = {}
        for key, card in deck.keys.items():
            self._folded_exact.setdefault(fold(key), set()).add(card)
        self._order = {card: i for i, card in enumerate(deck.cards)}
        self._keys_of: dict[str, list[str]] = {}
        for key, card in deck.keys.items():
            self._keys_of.setdefault(card, []).append(key)
        self._pools = {c: frozenset(deck.of(c) if c else deck.cards) for c in (None, *("suspects", "weapons", "rooms"))}
        self._matches: dict[tuple[str, frozenset[str]], frozenset[str]] = {}  # a game names the same cards often

    def pool(self, category: str | None) -> frozenset[str]:
        return self._pools[category]

    def match(self, text: str, pool: Collection[str]) -> set[str]:
        """The cards of ``pool`` that ``text`` may name: a full name means its own card, and only
        that one (in ``pool`` or not); anything else names every card it abbreviates."""
        frozen = pool if isinstance(pool, frozenset) else frozenset(pool)
        found = self._matches.get((text, frozen))
        if found is None:
            found = self._matches[(text, frozen)] = frozenset(self._match(text, frozen))
        return set(found)

    def _match(self, text: str, pool: frozenset[str]) -> set[str]:
        key = _slug(text)
        if not key:
            return set()
        exact = self.deck.keys.get(key)
        if exact is None and len(self._folded_exact.get(fold(key), ())) == 1:
            exact = next(iter(self._folded_exact[fold(key)]))
        if exact is not None:
            return {exact} if exact in pool else set()
        typed = key.split("_")
        found = {
            card for parts, card in self._first_words.starting(typed[0]) if card in pool and _prefix_match(typed, parts)
        }
        if not found:
            typed = fold(key).split("_")
            found = {
                card
                for parts, card in self._folded_first.starting(typed[0])
                if card in pool and _prefix_match(typed, parts)
            }
        if not found and len(typed) == 1:
            # last resort, "Ascot" for Lady Ascot: a custom deck has no aliases for its surnames
            found = {card for _, card in self._folded_any.starting(typed[0]) if card in pool}
        return found

    def take(
        self,
        tokens: Sequence[Token],
        i: int,
        category: str | None,
        limit: int | None = None,
        previous: tuple[int, str | None] | None = None,
        hint: str | Said = "",
    ) -> tuple[str, int]:
        """The card named by the longest run of words from tokens[i] (not past ``limit``): (id, next i).

        ``previous`` is (start, category) of the name just before: when this one fails, the mistake
        may be a misspelt last word of that name ("Professor Blom Seil"), and the did-you-mean says so.
        """
        pool = self.pool(category)
        end = len(tokens) if limit is None else min(limit, len(tokens))
        if i >= end or not (tokens[i].quoted or _joinable(tokens[i])):
            where = tokens[i] if i < len(tokens) else None
            raise self._missing(category, where, tokens, hint)
        ambiguous: tuple[int, set[str]] | None = None
        for j in range(min(self._run_end(tokens, i, end), i + self.max_words), i, -1):
            found = self.match(" ".join(t.text for t in tokens[i:j]), pool)
            if len(found) == 1:
                return found.pop(), j
            if len(found) > 1 and ambiguous is None:
                ambiguous = (j, found)
        if ambiguous is not None:
            j, found = ambiguous
            text = " ".join(t.text for t in tokens[i:j])
            raise NotationError.at(
                "bad_notation",
                T_(
                    "'{text}' could be {explained}: write more of the name",
                    text=cut(text),
                    explained=self._explained(text, found),
                ),
                *tokens[i:j],
            )
        raise self._unknown(tokens, i, end, category, previous, hint)

    def _explained(self, text: str, cards: Collection[str]) -> str | Said:
        """The first few cards in deck order by display name, each with the name the abbreviation
        matched when that is another (an alias, an id), then how many more: "A, B or C", "A, B, C, D,
        E and 4,995 more"."""
        typed = slug(text).split("_")
        out: list[str | Said] = []
        for card in heapq.nsmallest(NAMES_SHOWN, cards, key=self._order.__getitem__):
            name = self.deck.name(card)
            if _prefix_match(typed, slug(name).split("_")):
                out.append(name)
            else:
                key = next((k for k in self._keys_of[card] if _prefix_match(typed, k.split("_"))), None)
                out.append(name if key is None else T_("{name} (as {key})", name=name, key=quoted(key)))
        more = len(cards) - len(out)
        if more:
            return T_("{names} and {more} more", names=listed(out, ", ", len(out)), more=Count(more))
        return listed(out, " or ")

    def whole(self, tokens: Sequence[Token], category: str | None, hint: str | Said = "") -> str:
        """The one card named by all of ``tokens``."""
        card, j = self.take(tokens, 0, category, hint=hint)
        if j < len(tokens):
            raise NotationError.at(
                "bad_notation",
                T_("'{tokens}' is not one card name{hint}", tokens=" ".join(t.text for t in tokens), hint=hint),
                *tokens,
            )
        return card

    @staticmethod
    def _run_end(tokens: Sequence[Token], i: int, end: int) -> int:
        """A quoted name stands alone; an unquoted one runs over words, not over marks."""
        if tokens[i].quoted:
            return i + 1
        j = i
        while j < end and not tokens[j].quoted and _joinable(tokens[j]):
            j += 1
        return j

    def _missing(
        self, category: str | None, where: Token | None, tokens: Sequence[Token], hint: str | Said
    ) -> NotationError:
        kind = kind_word(KIND_OF_CATEGORY[category])
        if where is None:
            at = tokens[-1].end if tokens else 0
            return NotationError("bad_notation", T_("the {kind} is missing{hint}", kind=kind, hint=hint), at, at + 1)
        return NotationError.at(
            "bad_notation", T_("expected a {kind}, not '{text}'{hint}", kind=kind, text=where.text, hint=hint), where
        )

    def _unknown(
        self,
        tokens: Sequence[Token],
        i: int,
        end: int,
        category: str | None,
        previous: tuple[int, str | None] | None,
        hint: str | Said,
    ) -> NotationError:
        kind = kind_word(KIND_OF_CATEGORY[category])
        elsewhere = self.match(tokens[i].text, self.deck.cards)
        if len(elsewhere) == 1 and category is not None:
            card = next(iter(elsewhere))
            other = kind_word(KIND_OF_CATEGORY[self.deck.category(card)])
            return NotationError.at(
                "unknown_card",
                T_(
                    "'{text}' is a {other} ({card}), not a {kind}{hint}",
                    text=tokens[i].text,
                    other=other,
                    card=self.deck.name(card),
                    kind=kind,
                    hint=hint,
                ),
                tokens[i],
            )
        # the best did-you-mean over runs of one to three words, here or extending the name before
        runs = [(i, j, category) for j in range(i + 1, min(self._run_end(tokens, i, end), i + 3) + 1)]
        if previous is not None and all(not t.quoted for t in tokens[previous[0] : i + 1]):
            runs.append((previous[0], i + 1, previous[1]))
        options = [(*self._suggest(tokens, a, b, c), a, b, c) for a, b, c in runs]
        # the closest suggestion wins; on a tie, the shorter run of words
        score, names, start, stop, cat = max(options, key=lambda o: (o[0], o[2] - o[3]))
        text = " ".join(t.text for t in tokens[start:stop])
        hint_names: str | Said = _did_you_mean(names) if names and score > 0 else ""
        return NotationError.at(
            "unknown_card",
            T_(
                "unknown {kind_of_category} '{text}'{hint_names}",
                kind_of_category=kind_word(KIND_OF_CATEGORY[cat]),
                text=text,
                hint_names=hint_names,
            ),
            *tokens[start:stop],
        )

    def _suggest(self, tokens: Sequence[Token], i: int, j: int, category: str | None) -> tuple[float, list[str]]:
        text = " ".join(t.text for t in tokens[i:j])
        try:
            self.deck.resolve(text, category)
        except UnknownName as exc:
            names = exc.suggestions
            return (max((_ratio(text, n) for n in names), default=0.0), names)
        return (0.0, [])  # it names a card of another category: the caller said so already


class PlayerNames:
    """The players of a game, by name or unique abbreviation."""

    def __init__(self, names: Sequence[str]):
        self.names = tuple(names)
        self._keys = [(n, slug(n), tuple(slug(n).split("_"))) for n in self.names]
        self.max_words = max((len(parts) for _, _, parts in self._keys), default=1)

    def match(self, text: str) -> list[str]:
        if text in self.names:
            return [text]
        key = _slug(text)
        if not key:
            return []
        same = [n for n, k, _ in self._keys if k == key]
        if same:
            return same
        typed = key.split("_")
        return [
            n
            for n, k, parts in self._keys
            if k.startswith(key)
            or _prefix_match(typed, parts)
            or (len(typed) == 1 and any(p.startswith(key) for p in parts))
        ]

    def take(self, tokens: Sequence[Token], i: int, limit: int | None = None) -> tuple[str, int]:
        """The player named by the longest run of words from tokens[i]: (name, next i)."""
        end = len(tokens) if limit is None else min(limit, len(tokens))
        if i >= end:
            at = tokens[-1].end if tokens else 0
            raise NotationError("bad_notation", T_("a player's name is missing"), at, at + 1)
        stop = (
            min(CardNames._run_end(tokens, i, end), i + self.max_words)
            if (tokens[i].quoted or _joinable(tokens[i]))
            else i + 1
        )
        ambiguous: tuple[int, list[str]] | None = None
        for j in range(stop, i, -1):
            found = (
                [tokens[i].text]
                if tokens[i].quoted and tokens[i].text in self.names
                else self.match(" ".join(t.text for t in tokens[i:j]))
            )
            if len(found) == 1:
                return found[0], j
            if len(found) > 1 and ambiguous is None:
                ambiguous = (j, found)
        if ambiguous is not None:
            j, found = ambiguous
            text = " ".join(t.text for t in tokens[i:j])
            raise NotationError.at(
                "bad_notation",
                T_("'{text}' could be {listing}: write more of the name", text=text, listing=_listing(found)),
                *tokens[i:j],
            )
        text = tokens[i].text
        close = difflib.get_close_matches(slug(text), [k for _, k, _ in self._keys], n=2, cutoff=0.5)
        names = [n for n, k, _ in self._keys if k in close]
        hint: str | Said = _did_you_mean(names) if names else ""
        raise NotationError.at(
            "unknown_player",
            T_(
                "unknown player '{text}'{hint}; the players are {names}",
                text=cut(text),
                hint=hint,
                names=listed(self.names),
            ),
            tokens[i],
        )

    def whole(self, tokens: Sequence[Token]) -> str:
        name, j = self.take(tokens, 0)
        if j < len(tokens):
            raise NotationError.at(
                "unknown_player",
                T_(
                    "'{tokens}' is not a player; the players are {names}",
                    tokens=cut(" ".join(t.text for t in tokens)),
                    names=listed(self.names),
                ),
                *tokens,
            )
        return name


def _did_you_mean(names: list[str]) -> Said:
    """ " (did you mean 'Pistole'?)", " (did you mean 'Ben' or 'Bea'?)"."""
    if len(names) == 1:
        return T_(" (did you mean {name}?)", name=repr(names[0]))
    return T_(
        " (did you mean {names} or {last}?)", names=" or ".join(repr(n) for n in names[:-1]), last=repr(names[-1])
    )
