"""`simulate`: games between built-in strategies, written as clue-log/1."""

from __future__ import annotations

import typer

from clue_stats.analysis.words import _, n_, number
from clue_stats.engine.markers import T_
from clue_stats.progress import waiting
from clue_stats.typer_app import JsonOption, app, check_output_folder, handled, out, print_json


@app.command("simulate")
@handled
def simulate_command(
    games: int = typer.Option(100, "--games", min=0, help="How many games to play."),
    players: int = typer.Option(4, "--players", min=2, max=6, help="Players per game."),
    edition: str = typer.Option(
        "classic", "--edition", help="The edition (clue-card editions play their traditional variant)."
    ),
    strategies: str = typer.Option(
        "notebook",
        "--strategies",
        help="Comma-separated strategies, e.g. notebook,entropy,random (clue-stats docs strategies describes them).",
    ),
    seed: int = typer.Option(0, "--seed", help="The same seed gives the same games."),
    deck: str | None = typer.Option(
        None,
        "--deck",
        help="A custom deck of SUSPECTS,WEAPONS,ROOMS cards, e.g. 10,8,12 (Master Detective size), "
        "played without a board (the live variant); --edition is then not used.",
    ),
    out_dir: str = typer.Option("simulated", "--out", help="The folder for the clue-log/1 files."),
    per_file: int = typer.Option(500, "--per-file", min=1, help="Games per file."),
    json_output: bool = JsonOption,
) -> None:
    """Play whole board games between built-in strategies and write them as clue-log/1."""

    from clue_stats.engine.simulate import SimulationError, custom_deck, play_game, setup  # deferred: start-up
    from clue_stats.ingest.cluelog import write_game  # deferred: start-up

    specs = [s.strip() for s in strategies.split(",") if s.strip()]
    cards = None
    if deck is not None:
        sizes = deck.split(",")
        if len(sizes) != 3 or not all(n.strip().isdigit() for n in sizes):
            raise SimulationError(
                T_("--deck wants three numbers SUSPECTS,WEAPONS,ROOMS (e.g. 10,8,12), not {deck}", deck=repr(deck))
            )
        cards = custom_deck(*(int(n) for n in sizes))
    plan = setup(players, edition, specs, seed, deck=cards)
    folder = check_output_folder(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    files: list[str] = []
    winners = 0
    with waiting(_("simulating"), quiet=json_output) as wait_line:
        wait_line.update(total=games)
        for start in range(0, games, per_file):
            path = folder / f"sim-{plan.run_id}-{start // per_file:04d}.jsonl"
            with path.open("w", encoding="utf-8") as stream:
                for index in range(start, min(start + per_file, games)):
                    game = play_game(plan, index)
                    winners += game.winner() is not None
                    stream.write(write_game(game))
                    wait_line.update(1)
            files.append(str(path))
    if json_output:
        print_json({"games": games, "files": files, "won": winners, "run_id": plan.run_id})
    else:
        out.print(
            _("{games} ({won} won) written to {files} in {folder}").format(
                games=n_(games, "{n} game", "{n} games"),
                won=number(winners),
                files=n_(len(files), "{n} file", "{n} files"),
                folder=folder,
            ),
            markup=False,
        )
