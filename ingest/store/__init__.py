"""The store: one object (:class:`Store`) that owns the DuckDB file, the schema (``schema``), every
write (``writes``, each in one ``Store.atomic()``) and every read the program makes (``reads``).

    with store.write_connection(path) as db:
        with db.atomic():
            store.write_batch(db, games, rejections)
    with store.read_connection(path) as db:  # read-only, short-lived, retries while a writer holds it
        games, total = store.list_games(db, store.GameFilter(edition="classic"))
"""

from clue_stats.engine.errors import StoreBusy, StoreError
from clue_stats.ingest.kinds import KINDS, PEOPLE
from clue_stats.ingest.store import reads, writes
from clue_stats.ingest.store.connection import (
    DEFAULT_DB,
    ArrowRows,
    DiskFull,
    NotADatabase,
    Store,
    check_is_database,
    database,
    read_connection,
    table_rows,
    write_connection,
)
from clue_stats.ingest.store.payloads import game_from_payloads
from clue_stats.ingest.store.reads import (
    GAME_LIST_COLUMNS,
    GameFilter,
    GameNotFound,
    StoredGame,
    filter_choices,
    game_table,
    list_games,
    people_first,
    selection,
    stored_game,
    stored_games,
)
from clue_stats.ingest.store.schema import (
    ANALYSIS_TABLES,
    GAME_TABLES,
    MIGRATIONS,
    NAMES_CLEANED,
    PLAYER_ANALYSIS_COLUMNS,
    PSEUDONYM_SECRET,
    SCHEMA,
    SCHEMA_VERSION,
    ensure_schema,
    now,
)
from clue_stats.ingest.store.writes import (
    ANALYSIS_CUT,
    RAW_LIMIT,
    BatchResult,
    Columns,
    GameRows,
    Rejection,
    delete_games,
    finish_run,
    pseudonym_secret,
    record_merge,
    replace_analysis,
    replace_ratings,
    set_night_order,
    start_run,
    undo_merge,
    write_batch,
)

__all__ = [
    "ANALYSIS_CUT",
    "ANALYSIS_TABLES",
    "DEFAULT_DB",
    "DiskFull",
    "GAME_LIST_COLUMNS",
    "GAME_TABLES",
    "KINDS",
    "MIGRATIONS",
    "NAMES_CLEANED",
    "PEOPLE",
    "PLAYER_ANALYSIS_COLUMNS",
    "PSEUDONYM_SECRET",
    "RAW_LIMIT",
    "SCHEMA",
    "SCHEMA_VERSION",
    "BatchResult",
    "Columns",
    "GameFilter",
    "GameNotFound",
    "GameRows",
    "NotADatabase",
    "Rejection",
    "Store",
    "StoreBusy",
    "StoreError",
    "StoredGame",
    "check_is_database",
    "ArrowRows",
    "database",
    "delete_games",
    "ensure_schema",
    "filter_choices",
    "finish_run",
    "game_from_payloads",
    "game_table",
    "list_games",
    "now",
    "people_first",
    "pseudonym_secret",
    "read_connection",
    "reads",
    "record_merge",
    "replace_analysis",
    "replace_ratings",
    "set_night_order",
    "selection",
    "start_run",
    "stored_game",
    "stored_games",
    "undo_merge",
    "write_batch",
    "table_rows",
    "write_connection",
    "writes",
]
