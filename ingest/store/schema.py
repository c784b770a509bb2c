"""The schema declared once: every table of analysis.md and each of its columns (type, analysis
output or not, name or free text, header in words, the analysis version that added it), and what is
made from them: the DDL, the migrations of older databases, the groups of tables the writes and
reads work on, the headers tables show, the export's name and text columns and the Arrow types."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import duckdb

from clue_stats.engine.errors import StoreError
from clue_stats.engine.markers import N_, T_
from clue_stats.ingest.kinds import CONTEST, DIGITAL, SIMULATED, SIMULATOR_SOURCE, TABLETOP

if TYPE_CHECKING:
    import pyarrow as pa

SCHEMA_VERSION = 1
# The version of the analysis: raised when a change alters any analysis column (a column it adds is
# declared with it as its ``since``); `clue-stats analyse` recomputes games of an older version.
# 2: the whole review by default, who is rated, labels from bits lost, review accuracy, missed_win.
# 3: the players' statements graded (statements, players.stated_precision and stated_recall).
# 4: the information gained against expected (suggestions and players).
# 5: the named cards the suggester already knew the place of, and those the refuter held
#    (suggestions.known_named_cards, refuter_choices).
ANALYSIS_VERSION = 5
PSEUDONYM_SECRET = "pseudonym_secret"  # settings key; never exported


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


# the partitioned path's Arrow types, by pyarrow's names for them (pyarrow is imported only where a
# schema is made: its import costs 0.15 CPU s, more than a command's whole start; issue 37)
ARROW_TYPES = {
    "VARCHAR": "string",
    "INTEGER": "int32",
    "BIGINT": "int64",
    "DOUBLE": "double",
    "BOOLEAN": "bool",
    "TIMESTAMP": "timestamp[us]",
    "JSON": "string",
}
HOLDS = ("name", "text", "path", "hash")  # what a column holds, where that matters for sharing


@dataclass(frozen=True)
class Column:
    """One stored column: its DuckDB type, whether it may be empty, whether the analysis computes it
    (``clue-stats analyse`` rewrites it), what it holds where that matters for sharing (``name``: a
    player's name, pseudonymised on export; ``text``: free text, ``path``: a file path, ``hash``: a
    hash of the original text, each left out of a pseudonymised export), its header in words, and
    the analysis version that added it (1: the first release). A column added after its table
    reaches an older database when it is next opened for writing, filled by ``fill`` (SQL), else
    NULL until `clue-stats analyse` computes it (the games' older analysis_version tells it to)."""

    name: str
    type: str
    required: bool = False
    analysis: bool = False
    holds: str | None = None
    header: str = ""
    since: int = 1
    fill: str | None = None
    added: bool = False  # added after the table's first release (implied by since > 1 or a fill)
    unit: str | None = None  # "bits" or "share" (0 to 1): how tables show its values
    # shown with each suggestion wherever the review lists them (the dashboard's Game review page, the
    # report's tables), by its header and unit: a suggestions column declared so reaches them untouched
    review: bool = False

    def __post_init__(self) -> None:
        if (
            self.type not in ARROW_TYPES
            or (self.holds is not None and self.holds not in HOLDS)
            or self.unit not in (None, "bits", "share")
        ):
            raise ValueError(f"column {self.name}: type {self.type!r}, holds {self.holds!r}, unit {self.unit!r}")

    @property
    def words(self) -> str:
        """The column's header in English, as tables show it (said in the reader's language there)."""
        return self.header or self.name.replace("_", " ")

    @property
    def migrated(self) -> bool:
        return self.added or self.since > 1 or self.fill is not None


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[Column, ...]
    key: tuple[str, ...] = ()

    def ddl(self) -> str:
        parts = [f"{c.name} {c.type}{' NOT NULL' if c.required else ''}" for c in self.columns]
        if self.key:
            parts.append(f"PRIMARY KEY ({', '.join(self.key)})")
        return f"CREATE TABLE IF NOT EXISTS {self.name} ({', '.join(parts)});"

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)

    def names(self, **having: Any) -> tuple[str, ...]:
        """The names of the columns whose attributes have the values given (``holds="name"``)."""
        return tuple(c.name for c in self.columns if all(getattr(c, k) == v for k, v in having.items()))

    def arrow_schema(self) -> pa.Schema:
        import pyarrow as pa  # deferred: start-up (only the partitioned path makes a schema)

        return pa.schema([(c.name, pa.type_for_alias(ARROW_TYPES[c.type])) for c in self.columns])


C = Column
_GAME_ID = C("game_id", "VARCHAR", True, header=N_("game"))
_SEQ = C("seq", "INTEGER", True, header=N_("record"))
_LINE = C("line", "INTEGER", header=N_("line"))
# the rule of ingest.kinds.kind_of, for games stored before the column existed
_KIND_FILL = f"""UPDATE games SET kind = CASE
    WHEN source = '{SIMULATOR_SOURCE}' THEN '{SIMULATED}'
    WHEN (SELECT count(*) FILTER (WHERE p.strategy IS NULL) FROM players p WHERE p.game_id = games.game_id) = 0
        THEN '{CONTEST}'
    WHEN (SELECT count(p.strategy) FROM players p WHERE p.game_id = games.game_id) > 0 THEN '{DIGITAL}'
    ELSE '{TABLETOP}' END
   WHERE kind IS NULL"""

# Every table of analysis.md, each column declared once: the DDL, the migrations, the export's name
# and text columns, the tables' headers and the partitioned path's Arrow types are made from these.
TABLES: tuple[Table, ...] = (
    Table(
        "schema_version",
        (C("version", "INTEGER", True), C("applied_at", "TIMESTAMP", True)),
    ),
    Table(
        "games",
        (
            _GAME_ID,
            C("edition", "VARCHAR", True, header=N_("edition")),
            C("variant", "VARCHAR", True, header=N_("variant")),
            C("n_players", "INTEGER", True, header=N_("players")),
            C("kind", "VARCHAR", header=N_("kind of game"), fill=_KIND_FILL),
            C("source", "VARCHAR", holds="text", header=N_("source")),
            C("played_at", "VARCHAR", header=N_("played on")),
            C("place", "VARCHAR", holds="text"),
            C("perspective", "VARCHAR", holds="name"),
            C("winner", "VARCHAR", holds="name", header=N_("winner")),
            C("solution_suspect", "VARCHAR"),
            C("solution_weapon", "VARCHAR"),
            C("solution_room", "VARCHAR"),
            C("source_file", "VARCHAR", holds="path", header=N_("file")),
            _LINE,
            C("n_records", "INTEGER", True, header=N_("records")),
            C("hands_known", "INTEGER", True),
            C("content_sha256", "VARCHAR", True, holds="hash"),
            C("ingested_at", "TIMESTAMP", True),
            C("analysis_version", "INTEGER", analysis=True),
            # what the budget cut from a game's analysis, in words (NULL: nothing)
            C("analysis_cut", "VARCHAR", analysis=True, added=True),
        ),
        key=("game_id",),
    ),
    Table(
        "players",
        (
            _GAME_ID,
            C("seat", "INTEGER", True),
            C("name", "VARCHAR", True, holds="name", header=N_("player")),
            C("character", "VARCHAR", header=N_("character")),
            C("strategy", "VARCHAR", header=N_("strategy")),
            C("hand_size", "INTEGER", True),
            C("hand_known", "BOOLEAN", True),
            C("turn_order", "INTEGER", header=N_("seat in turn order")),
            C("won", "BOOLEAN", True),
            C("eliminated", "BOOLEAN", True),
            C("first_certain_seq", "INTEGER", analysis=True, header=N_("certain after record")),
            C("missed_win", "BOOLEAN", analysis=True, since=2),
            C("rated_suggestions", "INTEGER", analysis=True, since=2, header=N_("rated suggestions")),
            C("review_accuracy", "DOUBLE", analysis=True, since=2, header=N_("review accuracy"), unit="share"),
            # each player's stated deductions graded (the statements table)
            C("stated_precision", "DOUBLE", analysis=True, since=3),
            C("stated_recall", "DOUBLE", analysis=True, since=3),
            C(
                "gained_vs_expected_bits",
                "DOUBLE",
                analysis=True,
                since=4,
                header=N_("gained against expected (bits)"),
                unit="bits",
            ),
        ),
        key=("game_id", "seat"),
    ),
    Table(
        "events",
        (
            _GAME_ID,
            _SEQ,
            _LINE,
            C("type", "VARCHAR", True),
            C("player", "VARCHAR", holds="name", header=N_("player")),
            C("payload", "JSON", True),
        ),
        key=("game_id", "seq"),
    ),
    Table(
        "suggestions",
        (
            _GAME_ID,
            _SEQ,
            C("player", "VARCHAR", True, holds="name", header=N_("player")),
            C("suspect", "VARCHAR", True),
            C("weapon", "VARCHAR", True),
            C("room", "VARCHAR", True),
            C("shown_by", "VARCHAR", holds="name", header=N_("shown by")),
            C("shown_card", "VARCHAR", header=N_("card shown")),
            C(
                "expected_gain_bits",
                "DOUBLE",
                analysis=True,
                header=N_("expected gain (bits)"),
                unit="bits",
                review=True,
            ),
            C(
                "best_gain_bits",
                "DOUBLE",
                analysis=True,
                header=N_("best available gain (bits)"),
                unit="bits",
                review=True,
            ),
            C("best_suspect", "VARCHAR", analysis=True),
            C("best_weapon", "VARCHAR", analysis=True),
            C("best_room", "VARCHAR", analysis=True),
            C("accuracy", "DOUBLE", analysis=True, header=N_("accuracy"), unit="share", review=True),
            C("label", "VARCHAR", analysis=True, header=N_("label")),
            C("giveaway_bits", "DOUBLE", analysis=True, unit="bits"),
            # the named cards the first refuter held (more than 1: they had a choice); the report counts them
            C("refuter_choices", "INTEGER", analysis=True, since=5, header=N_("cards the refuter could show")),
            C("bits_lost", "DOUBLE", analysis=True, since=2, header=N_("bits lost"), unit="bits", review=True),
            C("gained_bits", "DOUBLE", analysis=True, since=4, header=N_("bits gained"), unit="bits", review=True),
            C(
                "gained_vs_expected_bits",
                "DOUBLE",
                analysis=True,
                since=4,
                header=N_("gained against expected (bits)"),
                unit="bits",
            ),
            C(
                "known_named_cards",
                "INTEGER",
                analysis=True,
                since=5,
                header=N_("named cards already known"),
                review=True,
            ),
        ),
        key=("game_id", "seq"),
    ),
    Table(
        "information",
        (
            _GAME_ID,
            _SEQ,
            C("observer", "VARCHAR", holds="name"),
            C("type", "VARCHAR", True),
            C("entropy_before", "DOUBLE", True, analysis=True),
            C("entropy_after", "DOUBLE", True, analysis=True),
            C("gain_bits", "DOUBLE", True, analysis=True, unit="bits"),
            C("partial_view", "BOOLEAN", True, analysis=True),
        ),
    ),
    Table(
        "accusations",
        (
            _GAME_ID,
            _SEQ,
            C("player", "VARCHAR", True, holds="name", header=N_("player")),
            C("suspect", "VARCHAR", True),
            C("weapon", "VARCHAR", True),
            C("room", "VARCHAR", True),
            C("correct", "BOOLEAN"),
            C("p_correct", "DOUBLE", analysis=True, header=N_("chance it was right"), unit="share"),
            C("first_certain_seq", "INTEGER", analysis=True, header=N_("certain after record")),
            C("turns_waited", "INTEGER", analysis=True, header=N_("own turns waited")),
        ),
        key=("game_id", "seq"),
    ),
    Table(
        "statements",
        (
            _GAME_ID,
            _SEQ,
            _LINE,
            C("player", "VARCHAR", True, holds="name", header=N_("player")),
            C("claim", "VARCHAR", True),
            C("category", "VARCHAR"),
            C("card", "VARCHAR"),
            C("about", "VARCHAR", holds="name"),
            C("stated_count", "INTEGER"),
            C("actual_count", "INTEGER", analysis=True),
            C("grade", "VARCHAR", True, analysis=True),
            C("stated_units", "INTEGER", True, analysis=True),
            C("proven_units", "INTEGER", True, analysis=True),
            C("missed_units", "INTEGER", True, analysis=True),
        ),
    ),
    Table(
        "problems",
        (
            C("source_file", "VARCHAR", holds="path", header=N_("file")),
            C("game_id", "VARCHAR", header=N_("game")),
            C("seq", "INTEGER", header=N_("record")),
            _LINE,
            C("code", "VARCHAR", True, header=N_("problem")),
            C("severity", "VARCHAR", True, header=N_("severity")),
            C("message", "VARCHAR", True, holds="text", header=N_("message")),
            C("raw_sha256", "VARCHAR", holds="hash"),
            C("col", "INTEGER", added=True, header=N_("column")),
            # the message as its English template and values (engine.problems.Said), so that a reader
            # can have it in their language; NULL: a message said in English only (message)
            C("template", "VARCHAR", holds="text", added=True),
            C("fields", "JSON", holds="text", added=True),
        ),
    ),
    Table(
        "rejected",
        (
            C("source_file", "VARCHAR", holds="path", header=N_("file")),
            _LINE,
            C("game_id", "VARCHAR", header=N_("game")),
            C("code", "VARCHAR", True, header=N_("problem")),
            C("message", "VARCHAR", True, holds="text", header=N_("message")),
            C("raw", "VARCHAR", holds="text"),
            C("raw_sha256", "VARCHAR", True, holds="hash"),
            C("rejected_at", "TIMESTAMP", True, header=N_("rejected at")),
        ),
    ),
    Table(
        "history",
        (
            C("happened_at", "TIMESTAMP", True, header=N_("when")),
            C("game_id", "VARCHAR", header=N_("game")),
            C("event", "VARCHAR", True, header=N_("what happened")),
            C("source_file", "VARCHAR", holds="path", header=N_("file")),
            _LINE,
            C("code", "VARCHAR", header=N_("problem")),
            C("message", "VARCHAR", holds="text", header=N_("message")),
            C("sha256", "VARCHAR", holds="hash"),
            C("raw", "VARCHAR", holds="text"),
        ),
    ),
    Table("settings", (C("key", "VARCHAR", True), C("value", "VARCHAR", True)), key=("key",)),
    Table(
        "ingest_runs",
        (
            C("started_at", "TIMESTAMP", True, header=N_("started")),
            C("finished_at", "TIMESTAMP", header=N_("finished")),
            C("paths", "VARCHAR", True, holds="path", header=N_("paths")),
            C("files_read", "INTEGER", header=N_("files read")),
            C("files_skipped", "INTEGER", header=N_("files skipped")),
            C("games_stored", "INTEGER", header=N_("games stored")),
            C("games_skipped", "INTEGER", header=N_("games already present")),
            C("games_rejected", "INTEGER", header=N_("games rejected")),
        ),
    ),
    Table(
        "ratings",
        (
            C("pool", "VARCHAR", True),
            C("game_index", "INTEGER", True),
            _GAME_ID,
            C("content_sha256", "VARCHAR", True, holds="hash"),
            C("seat", "INTEGER", True),
            C("name", "VARCHAR", True, holds="name", header=N_("player")),
            C("player", "VARCHAR", True, holds="name", header=N_("player")),
            C("rank", "INTEGER", True),
            C("mu_before", "DOUBLE", True),
            C("sigma_before", "DOUBLE", True),
            C("mu_after", "DOUBLE", True),
            C("sigma_after", "DOUBLE", True),
            C("rating_before", "DOUBLE", True),
            C("rating_after", "DOUBLE", True),
        ),
        key=("game_id", "seat"),
    ),
    Table(
        "player_merges",
        (
            C("name", "VARCHAR", True, holds="name", header=N_("player")),
            C("merged_into", "VARCHAR", True, holds="name", header=N_("merged into")),
            C("merged_at", "TIMESTAMP", True),
            C("unmerged_at", "TIMESTAMP"),
        ),
    ),
    # the order a club gave a night's games (`clue-stats night DATE GAME ...`, the night page): it
    # comes before the games' times in the played order (ingest.store.queries.fragments.ORDER_SQL)
    Table(
        "night_order",
        (
            _GAME_ID,
            C("position", "INTEGER", True, header=N_("played as game")),
            C("ordered_at", "TIMESTAMP", True),
        ),
        key=("game_id",),
    ),
)
TABLE = {t.name: t for t in TABLES}
SCHEMA = "\n".join(t.ddl() for t in TABLES)

# Tables whose rows belong to one stored game, in the order they are written.
GAME_TABLES = ("games", "players", "events", "suggestions", "information", "accusations", "statements", "problems")
# Rows the analysis computes: replaced as a whole when a game is analysed again (clue-stats analyse).
ANALYSIS_TABLES = ("suggestions", "information", "accusations", "statements")
# ... and the players columns it fills in (their SQL types, for the update).
PLAYER_ANALYSIS_COLUMNS = {c.name: c.type for c in TABLE["players"].columns if c.analysis}
# Columns added after their table was first released: (table, column, type, fill SQL or None).
MIGRATIONS = tuple((t.name, c.name, c.type, c.fill) for t in TABLES for c in t.columns if c.migrated)
# the suggestions' columns the review shows with each suggestion, in the table's order (Column.review)
REVIEW_COLUMNS = TABLE["suggestions"].names(review=True)
# column -> its header in words (a name two tables share has one header: checked by the tests)
HEADERS = {c.name: c.words for t in TABLES for c in t.columns if c.header}
# the columns whose values are bits, and those that are shares (shown as percentages)
IN_BITS = frozenset(c.name for t in TABLES for c in t.columns if c.unit == "bits")
SHARES = frozenset(c.name for t in TABLES for c in t.columns if c.unit == "share")


DECLARED_COLUMNS = frozenset((t.name, c.name) for t in TABLES for c in t.columns)


# settings key: the stored names were cleaned as ingest.cluelog.clean_name does (since it also made
# names that differ only by white space one name: a database cleaned by the rule before is cleaned again)
NAMES_CLEANED = "names_cleaned_spaces"
# clean_name in SQL: Unicode's composed form (NFC), without format characters (category Cf) and the
# Hangul fillers, every run of white space (str.isspace's: \t-\r, \x1c-\x1f, \x85 and Unicode's
# separators) one space, none at either end
_WHITE = r"[\x{{9}}-\x{{d}}\x{{1c}}-\x{{20}}\x{{85}}\p{{Z}}]"
_CLEAN_SQL = (
    r"regexp_replace(regexp_replace(regexp_replace(nfc_normalize({c}), "
    r"'[\p{{Cf}}\x{{115f}}\x{{1160}}\x{{3164}}\x{{ffa0}}]', '', 'g'), "
    f"'{_WHITE}+', ' ', 'g'), '^ | $', '', 'g')"
)


def _clean_stored_names(con: duckdb.DuckDBPyConnection) -> None:
    """Once per database: the names an older clue-stats stored as typed ("Weiß" with a combining
    mark, a zero-width space in a name, a trailing or no-break space) written as today's ingest
    writes them, so that one person is one name. The games' records keep their text (a game read
    back from them is cleaned anew). Two seats of one game whose names become one (``Ann`` and
    ``Ann`` with a zero-width space) are never left with one name: the later seat becomes ``Ann (2)``
    in every table of that game. When names became one, the league is dropped: the next ingest,
    merge or delete rates every game again (ratings only follow games' content, not their names)."""
    if con.execute("SELECT 1 FROM settings WHERE key = ?", [NAMES_CLEANED]).fetchall():
        return
    names = "SELECT name FROM players"
    (before,) = con.execute(f"SELECT count(DISTINCT name) FROM ({names})").fetchall()[0]
    clean = _CLEAN_SQL.format(c="name")
    touched = [g for (g,) in con.execute(f"SELECT DISTINCT game_id FROM players WHERE name <> {clean}").fetchall()]
    renamed = _separate_seats(con)
    changed = len(renamed)
    for table in TABLES:
        for column in table.names(holds="name"):
            clean = _CLEAN_SQL.format(c=column)
            (count,) = con.execute(
                f"UPDATE {table.name} SET {column} = {clean} WHERE {column} IS NOT NULL AND {column} <> {clean}"
            ).fetchall()[0]
            changed += count
    if changed:
        (after,) = con.execute(f"SELECT count(DISTINCT name) FROM ({names})").fetchall()[0]
        if after < before or renamed:
            con.execute("DELETE FROM ratings")
    _rehash(con, touched)
    con.execute("INSERT INTO settings VALUES (?, ?)", [NAMES_CLEANED, now().isoformat()])


def _rehash(con: duckdb.DuckDBPyConnection, game_ids: list[str]) -> None:
    """The content hash of each game whose names cleaning changed, as ingest hashes the same file
    today (of the cleaned names): a re-ingest of it is then the same game, kept once, not a
    conflict of its id. A game whose records cannot be built any more keeps its hash."""
    from clue_stats.ingest.store.payloads import game_from_payloads  # deferred: start-up (a migration's, once)

    for game_id in game_ids:
        payloads = [
            p for (p,) in con.execute("SELECT payload FROM events WHERE game_id = ? ORDER BY seq", [game_id]).fetchall()
        ]
        try:
            game = game_from_payloads(payloads)
        except StoreError:
            continue
        con.execute("UPDATE games SET content_sha256 = ? WHERE game_id = ?", [game.content_sha256, game_id])


def _separate_seats(con: duckdb.DuckDBPyConnection) -> list[tuple[str, str, str]]:
    """The seats of one game whose names cleaning would make one: each after the first renamed, in
    every table of its game, to the clean name and a number free in that game (``Ann (2)``). Returns
    (game, name as stored, new name)."""
    clean = _CLEAN_SQL.format(c="name")
    rows = con.execute(
        f"SELECT game_id, name, {clean} FROM players WHERE game_id IN ("
        f"  SELECT game_id FROM players GROUP BY game_id HAVING count(DISTINCT {clean}) < count(DISTINCT name)"
        ") ORDER BY game_id, seat"
    ).fetchall()
    by_game: dict[str, list[tuple[str, str]]] = {}
    for game_id, name, cleaned in rows:
        by_game.setdefault(game_id, []).append((name, cleaned))
    renamed: list[tuple[str, str, str]] = []
    for game_id, seats in by_game.items():
        taken = {cleaned for _, cleaned in seats}
        kept: set[str] = set()
        for name, cleaned in seats:
            if cleaned not in kept:
                kept.add(cleaned)
                continue
            k = 2
            while f"{cleaned} ({k})" in taken:
                k += 1
            new = f"{cleaned} ({k})"
            taken.add(new)
            renamed.append((game_id, name, new))
    for game_id, name, new in renamed:
        for table in TABLES:
            if "game_id" not in table.names():
                continue
            for column in table.names(holds="name"):
                con.execute(
                    f"UPDATE {table.name} SET {column} = ? WHERE game_id = ? AND {column} = ?", [new, game_id, name]
                )
        # and its stored records, so that the game read back from them (`clue-stats analyse`) has the
        # seat under its new name, not two seats that cleaning makes one
        stored = con.execute("SELECT seq, payload FROM events WHERE game_id = ?", [game_id]).fetchall()
        for seq, payload in stored:
            try:
                record = json.loads(payload)
            except ValueError:
                continue
            again = _renamed(record, name, new)
            if again != record:
                con.execute(
                    "UPDATE events SET payload = ? WHERE game_id = ? AND seq = ?",
                    [json.dumps(again, ensure_ascii=False, separators=(",", ":")), game_id, seq],
                )
    return renamed


def _renamed(value: Any, old: str, new: str) -> Any:
    """A record (JSON) with every value and key that is exactly ``old`` (a player's name) ``new``."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [_renamed(v, old, new) for v in value]
    if isinstance(value, dict):
        return {(new if k == old else k): _renamed(v, old, new) for k, v in value.items()}
    return value


def _stored_columns(con: duckdb.DuckDBPyConnection) -> set[tuple[str, str]]:
    """(table, column) of the database file itself (not of temporary views over it)."""
    # duckdb_columns(), not information_schema.columns: the same rows in 0.8 ms where the view took
    # 7 ms, once at each opening of the file (issue 37)
    rows = con.execute(
        "SELECT table_name, column_name FROM duckdb_columns() "
        "WHERE schema_name = 'main' AND database_name = current_database()"
    ).fetchall()
    return {(table, column) for table, column in rows}


def stored_source(con: duckdb.DuckDBPyConnection, table: str, stored: set[tuple[str, str]] | None = None) -> str:
    """SQL naming ``table`` as the file stores it, with the declared columns an older version did not
    write added as NULL (a table it had not at all: an empty one), so that a reader of that file
    sees today's schema: ``"catalog".main.t`` or a subquery."""
    stored = _stored_columns(con) if stored is None else stored
    catalog = '"' + str(con.execute("SELECT current_database()").fetchall()[0][0]).replace('"', '""') + '"'
    declared = TABLE[table].columns
    missing = [c for c in declared if (table, c.name) not in stored]
    if not missing:
        return f"{catalog}.main.{table}"
    if len(missing) == len(declared):
        nulls = ", ".join(f"NULL::{c.type} AS {c.name}" for c in declared)
        return f"(SELECT {nulls} WHERE false)"
    nulls = ", ".join(f"NULL::{c.type} AS {c.name}" for c in missing)
    return f"(SELECT *, {nulls} FROM {catalog}.main.{table})"


def show_today_schema(con: duckdb.DuckDBPyConnection) -> None:
    """On a read-only connection to a database an older version wrote (a reader may not add its
    columns): every table that lacks a declared column is shadowed by a temporary view that has it,
    NULL (as `clue-stats analyse` or the next ingest leaves it until they fill it)."""
    stored = _stored_columns(con)
    if DECLARED_COLUMNS <= stored:
        return  # written by this version: nothing to add (one query an opening)
    for table in TABLES:
        source = stored_source(con, table.name, stored)
        if not source.endswith(f".main.{table.name}"):
            con.execute(f"CREATE OR REPLACE TEMP VIEW {table.name} AS SELECT * FROM {source}")


def ensure_schema(con: duckdb.DuckDBPyConnection) -> None:
    """The tables made if missing, an older database given its new columns (in the caller's transaction)."""
    # one look at the columns there: a database opened for each batch of a long ingest is mostly
    # complete, and making sure of each table and column one query at a time cost 0.1 s an opening
    present = _stored_columns(con)
    if not DECLARED_COLUMNS <= present:
        con.execute(SCHEMA)
        if not present:  # a new database: no name an older version stored to clean
            con.execute("INSERT INTO settings VALUES (?, ?)", [NAMES_CLEANED, now().isoformat()])
        present = _stored_columns(con)
        for table, column, sql_type, fill in MIGRATIONS:
            if (table, column) in present:
                continue
            con.execute(f"ALTER TABLE {table} ADD COLUMN {column} {sql_type}")
            if fill is not None:
                con.execute(fill)
    _clean_stored_names(con)
    # the secret of this database's pseudonyms (export --pseudonymise without --salt): random, made once
    con.execute(
        "INSERT INTO settings SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM settings WHERE key = ?)",
        [PSEUDONYM_SECRET, secrets.token_hex(32), PSEUDONYM_SECRET],
    )
    ((version,),) = con.execute("SELECT max(version) FROM schema_version").fetchall()
    if version is None:
        con.execute("INSERT INTO schema_version VALUES (?, ?)", [SCHEMA_VERSION, now()])
    elif version > SCHEMA_VERSION:
        raise StoreError(
            T_(
                "the database has schema version {version}; this clue-stats knows up to {known}: install a newer "
                "clue-stats",
                version=version,
                known=SCHEMA_VERSION,
            )
        )
