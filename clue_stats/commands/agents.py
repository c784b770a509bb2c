"""`agents`: the programs that played (LLM agents, contest bots) compared (analysis.corpus.agents)."""

from __future__ import annotations

import typer
from rich.table import Table

from clue_stats.analysis.words import _, n_, number
from clue_stats.engine.errors import UsageError
from clue_stats.engine.markers import T_
from clue_stats.typer_app import DbOption, JsonOption, app, database, handled, out, print_json, printable


@app.command("agents")
@handled
def agents_command(
    by: str = typer.Option("strategy", "--by", help="strategy (the program or model) or name (the player)."),
    db: str | None = DbOption,
    json_output: bool = JsonOption,
) -> None:
    """Compare the programs that played (games of the digital and contest kinds): review accuracy,
    accusations at p < 1, missed wins, rule breaks, stated precision and recall, each with its count
    and 95 % interval."""
    from clue_stats.analysis.corpus.agents import GROUPINGS, agent_cells, agent_summary  # deferred: start-up
    from clue_stats.ingest import store  # deferred: start-up

    if by not in GROUPINGS:
        raise UsageError(T_("--by {by}: one of {groupings}", by=repr(by), groupings=", ".join(GROUPINGS)))
    with store.read_connection(database(db)) as con:
        table = agent_summary(con, by=by)
    if json_output:
        print_json({"by": by, "agents": table.to_dicts()})
        return
    if table.height == 0:
        out.print(_("No games played by programs are stored (kinds digital and contest)."), markup=False)
        return
    shown = Table(
        _("agent"), _("player-games"), _("review accuracy"), _("accused at p < 1"), _("missed wins"),
        _("rule breaks"), _("stated precision"), _("stated recall"),
        title=n_(table.height, "{n} agent (intervals: 95 %)", "{n} agents (intervals: 95 %)"),
    )  # fmt: skip
    for r in table.iter_rows(named=True):
        cells = agent_cells(r)
        shown.add_row(
            printable(r["agent"]),
            number(r["player_games"]),
            *(cells[c] for c in ("review_accuracy", "unsure", "missed_wins", "rule_breaks")),
            *(cells[c] for c in ("stated_precision", "stated_recall")),
        )
    out.print(shown)
