"""`agents`: the programs that played (LLM agents, contest bots) compared (analysis.agents)."""

from __future__ import annotations

import math

import typer

from clue_stats.analysis.words import _, n_
from clue_stats.app import DbOption, JsonOption, app, database, handled, out, print_json, printable
from clue_stats.engine.errors import UsageError
from clue_stats.ingest import store


def _share(value: float | None, low: float | None, high: float | None) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value:.0%}" + ("" if low is None or high is None else f" ({low:.0%}-{high:.0%})")


@app.command("agents")
@handled
def agents_command(
    by: str = typer.Option("strategy", "--by", help="strategy (the program or model) or name (the player)."),
    db: str | None = DbOption,
    json_output: bool = JsonOption,
) -> None:
    """Compare the programs that played (games of the digital and contest kinds): review accuracy,
    accusations at p < 1, missed wins, rule breaks, stated precision and recall, each with its count
    and 95 % interval."""
    from rich.table import Table

    from clue_stats.analysis.agents import GROUPINGS, agent_summary

    if by not in GROUPINGS:
        raise UsageError(f"--by {by!r}: one of {', '.join(GROUPINGS)}")
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
        shown.add_row(
            printable(r["agent"]),
            str(r["player_games"]),
            f"{_share(r['review_accuracy'], r['review_low'], r['review_high'])} of {r['rated_suggestions']}",
            f"{r['unsure_accusations']} of {r['accusations']}",
            f"{r['missed_wins']} of {r['reviewed_games']}",
            f"{r['rule_breaks']} in {r['games_with_breaks']} games",
            f"{_share(r['stated_precision'], r['stated_precision_low'], r['stated_precision_high'])} of {r['stated_units']}",
            _share(r["stated_recall"], r["stated_recall_low"], r["stated_recall_high"]),
        )
    out.print(shown)
