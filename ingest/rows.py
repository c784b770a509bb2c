"""The rows a validated game adds to the store (analysis columns are filled in by the analysis)."""

from __future__ import annotations

from typing import Any

from clue_stats.engine.game import UNSEEN, Accuse, Game, Suggest
from clue_stats.engine.problems import Problem
from clue_stats.engine.rules import Replay
from clue_stats.ingest.cluelog import canonical_records
from clue_stats.ingest.kinds import kind_of_game
from clue_stats.ingest.store import GameRows
from clue_stats.ingest.store.writes import said_columns


def game_rows(game: Game, replay: Replay, source_file: str | None) -> GameRows:
    """The game's kind is judged from its own record here; a reader that knows better sets it after."""
    rows = GameRows(game.game_id, game.content_sha256)
    solution = replay.solution
    hands = game.hands()
    turn_order = replay.turn_order(game)
    winner = replay.winner
    rows.add(
        "games",
        {
            "game_id": game.game_id,
            "edition": game.edition_id,
            "variant": game.variant.id,
            "n_players": game.n_players,
            "kind": kind_of_game(game),
            "source": game.source,
            "played_at": game.played_at,
            "place": game.place,
            "perspective": game.perspective,
            "winner": winner,
            "solution_suspect": solution[0] if solution else None,
            "solution_weapon": solution[1] if solution else None,
            "solution_room": solution[2] if solution else None,
            "source_file": source_file,
            "line": game.header_line,
            "n_records": len(game.records) + 1,
            "hands_known": len(hands),
            "content_sha256": game.content_sha256,
            "analysis_version": None,
            "analysis_cut": None,
        },
    )
    for seat, p in enumerate(game.players):
        rows.add(
            "players",
            {
                "game_id": game.game_id,
                "seat": seat,
                "name": p.name,
                "character": p.character,
                "strategy": p.strategy,
                "hand_size": game.hand_sizes[seat],
                "hand_known": p.name in hands,
                "turn_order": turn_order[p.name],
                "won": winner == p.name,
                "eliminated": p.name in replay.eliminated,
                "first_certain_seq": None,
                "missed_win": None,
                "rated_suggestions": None,
                "review_accuracy": None,
                "stated_precision": None,
                "stated_recall": None,
            },
        )
    # the records as the reader hashed them (canonical JSON), not written a second time
    payloads = game.canonical_json or canonical_records(game)
    rows.add(
        "events",
        {
            "game_id": game.game_id,
            "seq": 0,
            "line": game.header_line,
            "type": "game",
            "player": None,
            "payload": payloads[0],
        },
    )
    for r, payload in zip(game.records, payloads[1:], strict=True):
        rows.add(
            "events",
            {
                "game_id": game.game_id,
                "seq": r.seq,
                "line": r.line,
                "type": getattr(r, "kind", r.type),
                "player": getattr(r, "player", None),
                "payload": payload,
            },
        )
        if isinstance(r, Suggest):
            shower = r.shower
            rows.add(
                "suggestions",
                {
                    "game_id": game.game_id,
                    "seq": r.seq,
                    "player": r.player,
                    "suspect": r.suspect,
                    "weapon": r.weapon,
                    "room": r.room,
                    "shown_by": shower.player if shower else None,
                    "shown_card": shower.shows if shower and shower.shows != UNSEEN else None,
                },
            )
        elif isinstance(r, Accuse):
            correct = r.correct if r.correct is not None else (r.cards == solution if solution else None)
            rows.add(
                "accusations",
                {
                    "game_id": game.game_id,
                    "seq": r.seq,
                    "player": r.player,
                    "suspect": r.suspect,
                    "weapon": r.weapon,
                    "room": r.room,
                    "correct": correct,
                },
            )
    for problem in replay.problems:
        rows.add("problems", problem_row(game.game_id, source_file, problem))
    return rows


def problem_row(game_id: str, source_file: str | None, problem: Problem) -> dict[str, Any]:
    """A stored game's ``problems`` row."""
    return {
        "source_file": source_file,
        "game_id": game_id,
        "seq": problem.seq,
        "line": problem.line,
        "col": problem.column,
        "code": problem.code,
        "severity": problem.severity,
        "message": problem.message,
        "raw_sha256": None,
        **said_columns(problem),
    }
