"""The starting-position study behind docs/findings.md: simulate, then win rates with Wilson intervals.

    .venv/bin/python benchmarks/study_positions.py [--games 20000] [--mixed 8000] [--entropy 400]
        [--seed 2026] [--json out.json]

Runs (classic edition, every game seeded): equal notebook players at 3, 4 and 6 players
(``--games`` each), a mixed four-player run (notebook, bluffer, random, notebook:0.5; ``--mixed``
games) to set strategy strength beside seat, and a smaller one with the entropy player (it asks the
exact deduction engine, which costs about a second a game; ``--entropy`` games). Counts come straight from the simulated games (the
analysis store is not needed): per turn-order seat, per character, per strategy, how often each won,
how often a character entered a room on its first turn, and how long games took. Intervals are 95 %
Wilson score intervals; the rate expected with no effect is the share of games someone won divided
by the number of players (for characters, weighted by the games each played).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scipy import stats

from clue_stats.engine.board import load_board
from clue_stats.engine.game import Game, Move, Suggest, Turn
from clue_stats.engine.simulate import simulate

Z95 = 1.959963984540054
# Fewest moves from each start square to its nearest room (docs/board.md).
NEAREST_ROOM = {c: min(row.values()) for c, row in load_board("classic").shortest_paths().items()}


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


class Tally:
    """Counts over a run, fed one game at a time."""

    def __init__(self) -> None:
        self.games = 0
        self.won = 0
        self.turns: list[int] = []
        self.seat = defaultdict(lambda: [0, 0])  # turn-order seat -> [games, wins]
        self.character = defaultdict(lambda: [0, 0])
        self.strategy = defaultdict(lambda: [0, 0])
        self.strategy_seat = defaultdict(lambda: [0, 0])
        self.character_seat = defaultdict(lambda: [0, 0])
        self.first_turn_room = defaultdict(lambda: [0, 0])  # character -> [first turns, walked into a room]
        self.first_roll_reach = defaultdict(lambda: [0, 0])  # character -> [first turns, roll >= nearest room]
        self.first_suggestion = defaultdict(list)  # character -> own turns until the first suggestion
        self.hand_size = defaultdict(Counter)  # seat -> hand sizes seen

    def add(self, game: Game) -> None:
        self.games += 1
        winner = game.winner()
        self.won += winner is not None
        turns = [r for r in game.records if isinstance(r, Turn)]
        self.turns.append(len(turns))
        first = turns[0].player
        order = {n: (game.seat(n) - game.seat(first)) % game.n_players for n in game.names}
        for p, size in zip(game.players, game.hand_sizes):
            won = p.name == winner
            for table, key in (
                (self.seat, order[p.name]),
                (self.character, p.character),
                (self.strategy, p.strategy),
                (self.strategy_seat, (p.strategy, order[p.name])),
                (self.character_seat, (p.character, order[p.name])),
            ):
                table[key][0] += 1
                table[key][1] += won
            self.hand_size[order[p.name]][size] += 1
        own_turns: Counter = Counter()
        suggested: set[str] = set()
        called: set[str] = set()  # characters a suggestion moved off their start square
        character = {p.name: p.character for p in game.players}
        pending: dict[str, Turn] = {}  # player -> their first turn, until its move is seen
        for r in game.records:
            if isinstance(r, Turn):
                own_turns[r.player] += 1
                if own_turns[r.player] == 1 and character[r.player] not in called:
                    pending[r.player] = r
            elif isinstance(r, Move) and r.player in pending:
                turn = pending.pop(r.player)
                cell = self.first_turn_room[character[r.player]]
                cell[0] += 1
                cell[1] += r.via == "walk" and isinstance(r.to, str)
                total = sum(turn.roll) if turn.roll else 0
                self.first_roll_reach[character[r.player]][0] += 1
                self.first_roll_reach[character[r.player]][1] += total >= NEAREST_ROOM[character[r.player]]
            elif isinstance(r, Suggest):
                called.add(r.suspect)
                if r.player not in suggested:
                    suggested.add(r.player)
                    self.first_suggestion[character[r.player]].append(own_turns[r.player])

    def expected(self, n_players: int) -> float:
        return self.won / self.games / n_players

    def rows(self, table: dict, expected: float | dict) -> list[dict]:
        out = []
        for key in sorted(table, key=str):
            games, wins = table[key]
            low, high = wilson(wins, games)
            exp = expected[key] if isinstance(expected, dict) else expected
            out.append(
                {
                    "key": key if not isinstance(key, tuple) else list(key),
                    "games": games,
                    "wins": wins,
                    "rate": wins / games,
                    "low": low,
                    "high": high,
                    "expected": exp,
                    "p_value": stats.binomtest(wins, games, exp).pvalue,
                }
            )
        return out

    def uniformity(self, table: dict, n_players: int) -> dict:
        """Chi-square of the wins against the no-effect expectation (games played x won share / K)."""
        keys = sorted(table, key=str)
        observed = [table[k][1] for k in keys]
        share = self.won / self.games / n_players
        expected = [table[k][0] * share for k in keys]
        scale = sum(observed) / sum(expected)
        chi2, p = stats.chisquare(observed, [e * scale for e in expected])
        return {"chi2": float(chi2), "dof": len(keys) - 1, "p_value": float(p)}


def run(label: str, n_games: int, players: int, strategies: list[str], seed: int) -> dict:
    tally = Tally()
    t0 = time.perf_counter()
    for i, game in enumerate(simulate(n_games, players, "classic", strategies, seed=seed)):
        tally.add(game)
        if (i + 1) % 1000 == 0:
            print(f"  {label}: {i + 1}/{n_games} ({(i + 1) / (time.perf_counter() - t0):.0f} games/s)", file=sys.stderr)
    took = time.perf_counter() - t0
    exp = tally.expected(players)
    character_expected = {c: exp for c in tally.character}
    result = {
        "label": label,
        "players": players,
        "strategies": strategies,
        "seed": seed,
        "games": tally.games,
        "won": tally.won,
        "seconds": took,
        "turns_mean": sum(tally.turns) / len(tally.turns),
        "turns_max": max(tally.turns),
        "seat": tally.rows(tally.seat, exp),
        "seat_test": tally.uniformity(tally.seat, players),
        "character": tally.rows(tally.character, character_expected),
        "character_test": tally.uniformity(tally.character, players),
        "strategy": tally.rows(tally.strategy, exp),
        "strategy_test": tally.uniformity(tally.strategy, players) if len(tally.strategy) > 1 else None,
        "strategy_seat": tally.rows(tally.strategy_seat, exp),
        "character_seat": tally.rows(tally.character_seat, exp),
        "character_seat_adjusted": seat_adjusted(tally),
        "first_turn_room": {
            c: {
                "turns": v[0],
                "entered": v[1],
                "rate": v[1] / v[0],
                "ci": wilson(v[1], v[0]),
                "could": tally.first_roll_reach[c][1] / tally.first_roll_reach[c][0],
            }
            for c, v in sorted(tally.first_turn_room.items())
        },
        "first_suggestion_turn": {c: sum(v) / len(v) for c, v in sorted(tally.first_suggestion.items())},
        "hand_size": {seat: dict(sizes) for seat, sizes in sorted(tally.hand_size.items())},
    }
    return result


def seat_adjusted(tally: Tally) -> list[dict]:
    """Each character's wins against what its seats alone predict (the seat's win rate in the run).

    With 3 or 4 players a character's seat depends on who else plays (Scarlett, when playing, always
    moves first), so a raw character win rate mixes the start square with the seat; this compares a
    character with the other characters in the same seats.
    """
    seat_rate = {seat: wins / games for seat, (games, wins) in tally.seat.items()}
    out = []
    for character in sorted({c for c, _ in tally.character_seat}):
        cells = [(seat, g, w) for (c, seat), (g, w) in tally.character_seat.items() if c == character]
        games = sum(g for _, g, _ in cells)
        wins = sum(w for _, _, w in cells)
        expected = sum(g * seat_rate[seat] for seat, g, _ in cells)
        variance = sum(g * seat_rate[seat] * (1 - seat_rate[seat]) for seat, g, _ in cells)
        z = (wins - expected) / math.sqrt(variance) if variance else 0.0
        out.append(
            {
                "key": character,
                "games": games,
                "wins": wins,
                "expected_wins": expected,
                "ratio": wins / expected if expected else float("nan"),
                "z": z,
                "p_value": 2 * stats.norm.sf(abs(z)),
            }
        )
    return out


def pct(x: float) -> str:
    return f"{100 * x:.1f}"


def print_run(r: dict) -> None:
    print(
        f"\n## {r['label']}: {r['games']} games, {r['players']} players, {','.join(r['strategies'])} "
        f"({r['games'] / r['seconds']:.0f} games/s; {pct(r['won'] / r['games'])} % won; "
        f"{r['turns_mean']:.1f} turns on average, at most {r['turns_max']})"
    )
    for name in ("seat", "character", "strategy"):
        if name == "strategy" and r["strategy_test"] is None:
            continue
        test = r[f"{name}_test"]
        print(f"\n| {name} | games | wins | win % | 95 % CI | expected % | p |")
        print("|---|---|---|---|---|---|---|")
        for row in r[name]:
            key = row["key"] + 1 if name == "seat" else row["key"]
            print(
                f"| {key} | {row['games']} | {row['wins']} | {pct(row['rate'])} | {pct(row['low'])}-{pct(row['high'])} "
                f"| {pct(row['expected'])} | {row['p_value']:.3g} |"
            )
        print(f"\nchi-square {test['chi2']:.1f} on {test['dof']} df, p = {test['p_value']:.3g}")
    print("\n| character | games | wins | wins its seats predict | ratio | z | p |")
    print("|---|---|---|---|---|---|---|")
    for row in r["character_seat_adjusted"]:
        print(
            f"| {row['key']} | {row['games']} | {row['wins']} | {row['expected_wins']:.0f} | {row['ratio']:.3f} "
            f"| {row['z']:.2f} | {row['p_value']:.3g} |"
        )
    print(
        "\n| character | first turns from the start square | roll reaches a room % | walked into a room % | 95 % CI | mean own turn of first suggestion |"
    )
    print("|---|---|---|---|---|---|")
    for c, v in r["first_turn_room"].items():
        print(
            f"| {c} | {v['turns']} | {pct(v['could'])} | {pct(v['rate'])} | {pct(v['ci'][0])}-{pct(v['ci'][1])} "
            f"| {r['first_suggestion_turn'].get(c, float('nan')):.2f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--mixed", type=int, default=8000)
    parser.add_argument("--entropy", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", type=str, default=None)
    args = parser.parse_args()
    results = []
    for players in (3, 4, 6):
        results.append(run(f"equal-{players}", args.games, players, ["notebook"], args.seed))
        print_run(results[-1])
    if args.mixed:
        results.append(run("mixed-4", args.mixed, 4, ["notebook", "bluffer", "random", "notebook:0.5"], args.seed))
        print_run(results[-1])
    if args.entropy:
        results.append(run("entropy-4", args.entropy, 4, ["entropy", "notebook", "bluffer", "random"], args.seed))
        print_run(results[-1])
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, default=str))


if __name__ == "__main__":
    main()
