"""A small hand-made season of club games for the league's tests (ratings, Players page, night report)."""

from __future__ import annotations

import json
from pathlib import Path

SOLUTION = {"suspect": "green", "weapon": "rope", "room": "hall"}
WRONG = [
    ("plum", "rope", "hall"),
    ("white", "dagger", "hall"),
    ("green", "knife", "study"),
    ("peacock", "rope", "hall"),
]


def game_lines(
    game_id: str,
    played_at: str | None,
    players: list[str],
    winner: str | None,
    eliminated: tuple[str, ...] = (),
    source: str = "tabletop",
    strategies: dict[str, str] | None = None,
) -> list[str]:
    """One valid clue-log/1 game without hands: the eliminated accuse wrongly in the order given,
    then the winner (if any) accuses correctly."""
    header = {"type": "game", "format": "clue-log/1", "id": game_id, "edition": "classic", "source": source}
    if played_at is not None:
        header["played_at"] = played_at
    header["players"] = [
        {"name": p, **({"strategy": strategies[p]} if strategies and p in strategies else {})} for p in players
    ]
    lines = [header]
    for i, who in enumerate(eliminated):
        s, w, r = WRONG[i % len(WRONG)]
        lines.append({"type": "accuse", "player": who, "suspect": s, "weapon": w, "room": r, "correct": False})
    if winner is not None:
        lines.append({"type": "accuse", "player": winner, **SOLUTION, "correct": True})
    lines.append({"type": "end", "winner": winner, "solution": SOLUTION if winner else None})
    return [json.dumps(x, ensure_ascii=False) for x in lines]


# (id, played_at, players, winner, eliminated): Alice wins 6 of 12, Bob 3, Carol 2, Dave 1
SEASON = [
    ("s01", "2026-09-04T20:00", ["Alice", "Bob", "Carol", "Dave"], "Alice", ("Dave",)),
    ("s02", "2026-09-04T21:30", ["Alice", "Bob", "Carol", "Dave"], "Bob", ()),
    ("s03", "2026-09-11T20:00", ["Alice", "Bob", "Carol"], "Alice", ("Carol", "Bob")),
    ("s04", "2026-09-11T21:10", ["Alice", "Carol", "Dave"], "Carol", ()),
    ("s05", "2026-09-18T20:00", ["Alice", "Bob", "Carol", "Dave"], "Alice", ("Bob",)),
    ("s06", "2026-09-18T21:00", ["Bob", "Carol", "Dave"], "Dave", ("Carol",)),
    ("s07", "2026-09-25T20:00", ["Alice", "Bob", "Carol", "Dave"], "Alice", ()),
    ("s08", "2026-09-25T21:00", ["Alice", "Bob", "Dave"], "Bob", ("Alice",)),
    ("s09", "2026-10-02T20:00", ["Alice", "Bob", "Carol", "Dave"], "Alice", ("Dave", "Carol")),
    ("s10", "2026-10-02T21:00", ["Alice", "Bob", "Carol", "Dave"], None, ("Bob", "Dave", "Alice", "Carol")),
    ("s11", "2026-10-09T20:00", ["Alice", "Bob", "Carol", "Dave"], "Carol", ()),
    ("s12", "2026-10-09T21:00", ["Alice", "Bob", "Carol"], "Bob", ()),
    ("s13", "2026-10-16T20:00", ["Alice", "Bob", "Carol", "Dave"], "Alice", ("Carol",)),
]


def write_games(path: Path, games, rename: dict[str, str] | None = None) -> Path:
    """Write games (tuples as in SEASON) to one file; ``rename`` writes some names otherwise."""
    rename = rename or {}
    lines: list[str] = []
    for game_id, played_at, players, winner, eliminated in games:
        players = [rename.get(p, p) for p in players]
        winner = rename.get(winner, winner) if winner else None
        eliminated = tuple(rename.get(p, p) for p in eliminated)
        lines += game_lines(game_id, played_at, players, winner, eliminated)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
