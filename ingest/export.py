"""Export the stable tables as Parquet or CSV files, optionally pseudonymised.

Pseudonyms are stable: the same name with the same secret gives the same pseudonym in every export
(`p-` and the first 10 hex digits of HMAC-SHA-256 of the name, keyed with the secret), so a club can
share its statistics without its members' names and still follow a player across games. Game ids
(which hold places and dates: `club-2026-11-20-3`) get pseudonyms of their own (`g-`), the same in
every table, so the tables still join. The secret is the ``--salt`` given, else a random one the
database keeps (its ``settings`` table, never exported): nobody without it can turn a pseudonym back
into a name by hashing guesses.

What a pseudonymised export keeps is a list, not a guess (README "Sharing statistics without
names"): the columns of :data:`LEFT_OUT` are left out (file paths, `source`, `place`, notes, problem
messages, rejected games' text), and each record of the `events` payload keeps only the fields
clue-log/1 defines for its type (:data:`PAYLOAD_LEFT_OUT` and every `x-` field or record's content
dropped), its names replaced.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import duckdb

from clue_stats.engine.markers import T_
from clue_stats.ingest.cluelog import FIELDS, PLAYER_FIELDS
from clue_stats.ingest.store import pseudonym_secret, read_connection
from clue_stats.ingest.store.connection import NO_SPACE, DiskFull
from clue_stats.ingest.store.queries.export import table_columns, write_table
from clue_stats.ingest.store.schema import TABLE

TABLES = (
    "games",
    "players",
    "events",
    "suggestions",
    "information",
    "accusations",
    "statements",
    "problems",
    "rejected",
    "history",
    "ingest_runs",
)

# table -> columns holding a player's name (the schema's ``holds="name"``)
NAME_COLUMNS = {t: names for t in TABLES if (names := TABLE[t].names(holds="name"))}
# table -> columns left out of a pseudonymised export: free text and file paths, which may hold names
# and places (a folder named after a player, the club's name in `source`), and the hashes of the
# original text (a game id made from one would name the game again, and they tie the export to the files)
LEFT_OUT = {
    t: kept for t in TABLES if (kept := tuple(c.name for c in TABLE[t].columns if c.holds in ("text", "path", "hash")))
}
# fields of a record's payload left out (free text); besides, every field clue-log/1 does not define
PAYLOAD_LEFT_OUT = {"note", "source", "place", "cause"}
_KEPT_FIELDS = {
    kind: {"type", "t", *((required | optional) - PAYLOAD_LEFT_OUT)} for kind, (required, optional) in FIELDS.items()
}


def pseudonym(name: str | None, salt: str) -> str | None:
    if name is None:
        return None
    return "p-" + hmac.new(salt.encode("utf-8"), name.encode("utf-8"), hashlib.sha256).hexdigest()[:10]


def game_pseudonym(game_id: str | None, salt: str) -> str | None:
    """A game id's stable pseudonym: `g-` and 10 hex digits (keyed apart from the players' names)."""
    if game_id is None:
        return None
    return "g-" + hmac.new(salt.encode("utf-8"), b"game\0" + game_id.encode("utf-8"), hashlib.sha256).hexdigest()[:10]


def pseudonymise_payload(payload: str, salt: str) -> str:
    """A clue-log/1 record with every name replaced by its pseudonym and the game id by the game's;
    only the fields clue-log/1 defines for the record's type are kept (an `x-` record keeps its type)."""
    record = json.loads(payload)
    kind = record.get("type")
    kept = _KEPT_FIELDS.get(kind, {"type"}) if isinstance(kind, str) else set()
    record = {k: v for k, v in record.items() if k in kept}

    def alias(name: Any) -> Any:
        return pseudonym(name, salt) if isinstance(name, str) else name

    for key in ("player", "winner", "perspective"):
        if key in record:
            record[key] = alias(record[key])
    if isinstance(record.get("id"), str):
        record["id"] = game_pseudonym(record["id"], salt)
    if isinstance(record.get("players"), list):
        record["players"] = [
            {**{k: v for k, v in p.items() if k in PLAYER_FIELDS}, "name": alias(p.get("name"))}
            if isinstance(p, dict)
            else p
            for p in record["players"]
        ]
    if isinstance(record.get("responses"), list):
        record["responses"] = [
            {"player": alias(r.get("player")), "shows": r.get("shows")} if isinstance(r, dict) else r
            for r in record["responses"]
        ]
    for key in ("holds", "lacks"):  # a statement's {player: [cards]}
        if kind == "statement" and isinstance(record.get(key), dict):
            record[key] = {alias(name): cards for name, cards in record[key].items()}
    if isinstance(record.get("to"), list) and kind == "reveal":
        record["to"] = [alias(n) for n in record["to"]]
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def export(
    db: str | Path, out: str | Path, fmt: str = "parquet", pseudonymise: bool = False, salt: str = ""
) -> dict[str, int]:
    """Write each table to OUT/<table>.<fmt>; returns rows written per table. Pseudonyms use ``salt``,
    or the database's own secret when it is empty."""
    if fmt not in ("parquet", "csv"):
        raise ValueError(f"unknown export format {fmt!r}: parquet or csv")
    if pseudonymise and not salt:
        salt = pseudonym_secret(db)
    folder = Path(out)
    written: dict[str, int] = {}
    with read_connection(
        db, persons=True
    ) as con:  # one name per person; first: a database that cannot be read leaves no folder behind
        # written into a folder of its own beside OUT, moved into OUT at the end: a full disk (or any
        # failure) leaves no file half written, nor an empty folder
        folder.parent.mkdir(parents=True, exist_ok=True)
        partial = Path(tempfile.mkdtemp(prefix=f".{folder.name}.partial-", dir=folder.parent))
        try:
            _register(con, salt)
            for table in TABLES:
                if not table_columns(con, table):  # a table newer than the database (made by an older clue-stats)
                    continue
                written[table] = write_table(
                    con,
                    table,
                    str(partial / f"{table}.{fmt}"),
                    fmt,
                    pseudonymise,
                    LEFT_OUT.get(table, ()),
                    NAME_COLUMNS.get(table, ()),
                )
            _move_into(partial, folder)
        except (duckdb.Error, OSError) as exc:
            shutil.rmtree(partial, ignore_errors=True)
            if NO_SPACE in str(exc) or getattr(exc, "errno", None) == errno.ENOSPC:
                raise DiskFull(
                    T_(
                        "the disk holding {folder} is full ({error}): nothing was written; free some space and run "
                        "the command again",
                        folder=folder,
                        error=NO_SPACE,
                    )
                ) from None
            raise
    return written


def _register(con: Any, salt: str) -> None:
    # "special": NULL reaches the function (duckdb 1.x and 2.x both take the string)
    con.create_function(
        "pseudonym",
        lambda name: pseudonym(name, salt),
        ["VARCHAR"],
        "VARCHAR",
        null_handling="special",
    )
    con.create_function(
        "game_pseudonym",
        lambda game_id: game_pseudonym(game_id, salt),
        ["VARCHAR"],
        "VARCHAR",
        null_handling="special",
    )
    con.create_function("pseudonymise_payload", lambda p: pseudonymise_payload(p, salt), ["VARCHAR"], "VARCHAR")


def _move_into(partial: Path, folder: Path) -> None:
    """The finished files into OUT: the folder renamed as a whole when OUT is new, else each file
    renamed into it (each rename whole: a file of OUT is the old one or the new one, never half)."""
    if not folder.exists():
        partial.rename(folder)
        return
    for path in sorted(partial.iterdir()):
        os.replace(path, folder / path.name)
    partial.rmdir()
