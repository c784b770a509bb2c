"""Problems in input are data: a code, where it is, and a message naming players and cards.

Every code a reader or the rules engine can report is listed in :data:`CODES` with its severity and a
one-line description; docs/problems.md is checked against this table by a test.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from clue_stats.engine.markers import MESSAGE_LIMIT, T_, Count, Said

ERROR = "error"
WARNING = "warning"

# code -> (severity, what it means)
CODES: dict[str, tuple[str, str]] = {
    # reading
    "encoding": (ERROR, "the file is not UTF-8"),
    "unreadable": (ERROR, "a file or folder cannot be read (permissions, a link to nothing, a disk error)"),
    "empty_file": (ERROR, "the file holds no records"),
    "bad_json": (ERROR, "a line is not a JSON object (truncated, or not JSON)"),
    "line_too_long": (ERROR, "a line is longer than the reader accepts"),
    "file_too_large": (ERROR, "a file of a format read whole (the notation) is larger than the reader accepts"),
    "unknown_format": (ERROR, "the game record names a format this reader does not know"),
    "no_game": (ERROR, "records come before any game record"),
    "unknown_type": (ERROR, "a record type that is neither known nor an x- extension"),
    "unknown_field": (ERROR, "a field that is neither known for its record nor an x- extension"),
    "missing_field": (ERROR, "a required field is missing"),
    "bad_value": (
        ERROR,
        "a field holds a value of the wrong kind, or one that cannot be stored (NaN, Infinity, a number of more than "
        "4,300 digits, half of a UTF-16 surrogate pair)",
    ),
    "duplicate_key": (ERROR, "a record (or an object in it) names the same key twice"),
    "unknown_edition": (ERROR, "the edition is not known"),
    "unknown_variant": (ERROR, "the variant is not known, or not played with this edition"),
    "unknown_card": (ERROR, "a card name matches no card of the game's deck or category"),
    "unknown_player": (ERROR, "a player name is not one of the game's players"),
    "bad_players": (ERROR, "the players list is wrong: count, duplicate names or characters"),
    "bad_deck": (ERROR, "a custom deck is missing, empty, or has a card twice"),
    "duplicate_id": (ERROR, "a game id already stored or read with other content"),
    "bad_notation": (ERROR, "a line of the tabletop notation cannot be read"),
    "bad_import": (ERROR, "a record of another client's format cannot be converted"),
    "internal_error": (
        ERROR,
        "clue-stats failed on this file, line or game (a fault of the program, not of the input): the rest of the "
        "run goes on; please report it with the file",
    ),
    # deck
    "card_twice": (ERROR, "a card is in two places (two hands, or a hand and the room cards)"),
    "envelope_card_dealt": (ERROR, "a card of the solution is in a hand"),
    "hand_size": (ERROR, "a hand, or the declared hand sizes, do not match the cards dealt"),
    "deal_twice": (ERROR, "a player's hand is dealt twice"),
    "room_cards": (ERROR, "the duel's room cards are wrong (count, rooms, or outside a duel)"),
    # order
    "response_order": (ERROR, "responses not in clockwise order from the suggester's left"),
    "after_shown": (ERROR, "a response after a shown card"),
    "suggester_responds": (ERROR, "the suggester answers their own suggestion"),
    "missing_responses": (ERROR, "nobody showed, but not every other player passed"),
    "empty_responses": (ERROR, "a suggestion with no responses"),
    "turn_order": (ERROR, "a turn out of seat order"),
    "after_win": (ERROR, "a record other than end after a correct accusation"),
    "after_end": (ERROR, "a record after the end of the game"),
    # rules of the edition
    "eliminated_acts": (ERROR, "an eliminated player suggests, accuses or takes a turn"),
    "accused_twice": (ERROR, "a player accuses a second time"),
    "not_your_turn": (ERROR, "a player acts outside their own turn"),
    "suggest_room": (ERROR, "the suggestion's room is not where the suggester stands"),
    "suggest_again": (ERROR, "a suggestion in the same room without leaving it, where the edition forbids it"),
    "suggest_twice": (ERROR, "two suggestions in one turn"),
    "accuse_in_room": (ERROR, "an accusation made outside any room where the edition requires one"),
    "accuse_without_suggestion": (
        ERROR,
        "an accusation not straight after the accuser's suggestion, where the variant requires it",
    ),
    "no_board": (ERROR, "a move or roll in a variant played without a board"),
    "no_clue_cards": (ERROR, "a clue card drawn in an edition or variant without them"),
    "no_peek": (ERROR, "a peek outside the duel, or into a room without a card"),
    "repeat_suggestion": (ERROR, "a player repeats their own earlier suggestion, where the variant forbids it"),
    "no_suggestion": (ERROR, "a turn without a suggestion, where the variant requires one every turn"),
    "bad_roll": (ERROR, "a roll that is not two dice"),
    "bad_move": (ERROR, "a move that breaks the movement rules (distance, path, doors, passages)"),
    # knowledge
    "passed_holding": (ERROR, "a player passed while holding a named card"),
    "shown_not_named": (ERROR, "a shown card is not one of the three named"),
    "shown_not_held": (ERROR, "a shown card is not in the shower's hand"),
    "accusation_mismatch": (ERROR, "an accusation's correct flag does not match the solution"),
    "wrong_winner": (ERROR, "the winner is not the correct accuser (or the last player standing)"),
    "solution_mismatch": (ERROR, "the end's solution contradicts the log"),
    "inconsistent": (ERROR, "no deal of the cards is consistent with everything logged up to this record"),
    "impossible_envelope": (
        ERROR,
        "with every hand dealt, the cards left over are not one suspect, one weapon and one room",
    ),
    "impossible_accusation": (
        ERROR,
        "an accusation's logged outcome (correct or wrong) is impossible given the hands and everything logged before it",
    ),
    # warnings: stored with the game
    "no_end": (WARNING, "the game has no end record"),
    "unknown_solution": (WARNING, "the solution is not known, so accusations cannot be checked"),
    "no_deals": (WARNING, "the log holds no hands: only the consistency of what was logged is checked"),
    "duplicate_card": (WARNING, "a statement names one card twice in one claim: it counts once"),
    "over_budget": (
        WARNING,
        "counting the deals passed the game's budget (states, memory or time): what was not checked or analysed, and why",
    ),
    "rule_break": (
        WARNING,
        "a player broke a rule of play in a record written by the program that ran the game (a server's or "
        "an agents' transcript): a finding about that player, stored with the game; the message starts with "
        "the rule's own code",
    ),
    "game_cut_off": (
        WARNING,
        "the record stops before the game ends (a player timed out, a program was killed): kept up to there",
    ),
    "not_a_file": (
        WARNING,
        "a named pipe, device, socket or link to itself among the paths: not read (ingest would wait on a pipe forever)",
    ),
    "file_skipped": (
        WARNING,
        "a file that looks like one ingest reads is not read, and the message says why (a zip archive that cannot "
        "be opened, an archive inside an archive, a file of another client's format past its size limit)",
    ),
    "folder_again": (WARNING, "a folder reached again through a link (a loop, or a second way there): not read twice"),
    "import_dropped": (
        WARNING,
        "part of another client's record that clue-log/1 cannot say was left out (kept in an x- field or record)",
    ),
}


# The rules of play a player can break (as opposed to a log that contradicts itself): in a record
# written by the program that ran the game, each is a finding about the player (``rule_break``).
PLAY_RULES = frozenset(
    {
        "eliminated_acts",
        "accused_twice",
        "not_your_turn",
        "suggest_room",
        "suggest_again",
        "suggest_twice",
        "accuse_in_room",
        "accuse_without_suggestion",
        "repeat_suggestion",
        "no_suggestion",
    }
)


# Messages are bounded, whatever the input (docs/problems.md "Long values"): a message lists a few
# names and says how many more, quotes a value cut to a length, and is itself cut past a length.
NAMES_SHOWN = 5  # names a message lists before "and 4,990 more"
VALUE_LIMIT = 60  # characters of a name or value quoted in a message; the rest becomes "…"


def cut(value: str, limit: int = VALUE_LIMIT) -> str:
    """``value``, or its first ``limit`` characters and "…"."""
    return value if len(value) <= limit else value[:limit] + "…"


def quoted(value: str) -> str:
    """A value as a message quotes it: repr of the value cut to VALUE_LIMIT."""
    return repr(cut(value))


def listed(names: Iterable[str | Said], last: str = ", ", shown: int = NAMES_SHOWN) -> str | Said:
    """At most ``shown`` names (each cut), then "and N more": "A, B, C, D, E and 4,990 more". When
    every name is shown, ``last`` joins the last two (" or ": "A, B or C"; " and "). A phrase a
    reader has in their language (a :class:`Said`, whose ``str()`` is the English) where a word
    joins them; a name may be a phrase of its own ("Rope (as 'rope')")."""
    names = list(names)
    head = [n if isinstance(n, Said) else cut(n) for n in names[:shown]]
    if len(names) > shown:
        return T_("{names} and {more} more", names=_commas(head), more=Count(len(names) - shown))
    if len(head) < 2:
        return head[0] if head else ""
    if last.strip() == "and":
        return T_("{names} and {last}", names=_commas(head[:-1]), last=head[-1])
    if last.strip() == "or":
        return T_("{names} or {last}", names=_commas(head[:-1]), last=head[-1])
    return _commas(head)


def joined(values: Iterable[str | Said], word: str = "or") -> str | Said:
    """Every value, one "or" (``word``: "or" or "and") between each two: "'a' or 'b' or 'c'", as a
    phrase the reader has in their language (the same ``{names} or {last}`` as :func:`listed`'s)."""
    result: str | Said = ""
    for i, value in enumerate(values):
        if i == 0:
            result = value
        elif word == "and":
            result = T_("{names} and {last}", names=result, last=value)
        else:
            result = T_("{names} or {last}", names=result, last=value)
    return result


def _commas(names: list[str | Said]) -> str | Said:
    """Names joined by commas, as every language here writes a list (a phrase where one name is)."""
    if not any(isinstance(n, Said) for n in names):
        return ", ".join(str(n) for n in names)
    joined: str | Said = names[0]
    for n in names[1:]:
        joined = Said("{a}, {b}", (("a", joined), ("b", n)))  # no words: said as it is in every language
    return joined


# the words for the kinds of name a message speaks of ("unknown {kind} ..."), each a phrase a
# language has
_KIND_WORDS = {
    "suspect": T_("suspect"),
    "weapon": T_("weapon"),
    "room": T_("room"),
    "card": T_("card"),
    "edition": T_("edition"),
    "variant": T_("variant"),
}


def kind_word(kind: str) -> str | Said:
    """The word for a kind of name in a message: suspect, weapon, room, card, edition, variant (an
    unknown kind as it is)."""
    return _KIND_WORDS.get(kind, kind)


@dataclass(frozen=True)
class Problem:
    code: str
    message: str
    seq: int | None = None
    line: int | None = None
    source_file: str | None = None
    column: int | None = None  # 1-based, where the reader knows it (a JSON error, a notation token)
    said: Said | None = field(default=None, compare=False)  # the message as template and values

    def __post_init__(self) -> None:
        if len(self.message) > MESSAGE_LIMIT:
            object.__setattr__(self, "message", self.message[:MESSAGE_LIMIT] + "… (cut)")

    @classmethod
    def of(
        cls,
        code: str,
        message: str | Said,
        seq: int | None = None,
        line: int | None = None,
        source_file: str | None = None,
        column: int | None = None,
    ) -> Problem:
        """A problem whose message is a plain string or a :class:`Said` (template and values)."""
        said = message if isinstance(message, Said) else None
        return cls(code, str(message), seq, line, source_file, column, said)

    @property
    def severity(self) -> str:
        return CODES.get(self.code, (ERROR, ""))[0]

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def as_finding(self) -> Problem:
        """A broken rule of play, in a record the game's own program wrote: what the player did."""
        if self.code not in PLAY_RULES:
            return self
        said = replace(self.said, head=f"{self.code}: {self.said.head}") if self.said is not None else None
        return replace(self, code="rule_break", message=f"{self.code}: {self.message}", said=said)

    def located(self, source_file: str | None) -> Problem:
        return replace(self, source_file=source_file)

    @property
    def where(self) -> str:
        """``file:line`` or ``file:line:col`` (``<input>`` for no file, ``-`` for no line)."""
        where = f"{self.source_file or '<input>'}:{self.line if self.line is not None else '-'}"
        if self.line is not None and self.column is not None:
            where += f":{self.column}"
        return where

    def __str__(self) -> str:
        return f"{self.where}: {self.code}: {self.message}"
