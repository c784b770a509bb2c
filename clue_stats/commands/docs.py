"""`docs`: the user's documentation, from the files installed with clue-stats."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table

from clue_stats.analysis.words import SOURCE, _
from clue_stats.analysis.words import topics as docs
from clue_stats.typer_app import JsonOption, app, handled, out, print_json


@app.command("docs")
@handled
def docs_command(
    topic: str = typer.Argument(None, help="The topic to show, e.g. league or notation (none: list the topics)."),
    raw: bool = typer.Option(False, "--raw", help="Print the topic's Markdown as it is written, to save or pipe."),
    json_output: bool = JsonOption,
) -> None:
    """Read the documentation that comes with clue-stats: the record format, the notation, the analysis, the league."""
    if topic is None:
        if json_output:  # --json never changes with the language: the topics as written
            print_json({"topics": [{"name": t.name, "title": t.title} for t in docs.topics(SOURCE)]})
            return
        every = docs.topics()

        table = Table(_("topic"), _("what it covers"), box=None, header_style="bold")
        for t in every:
            table.add_row(t.name, t.title)
        out.print(table)
        out.print(_("Read one with: clue-stats docs TOPIC (the dashboard's Help page shows the same)"), markup=False)
        return
    if json_output:
        written = docs.topic(topic, SOURCE)
        print_json({"name": written.name, "title": written.title, "markdown": written.text})
        return
    chosen = docs.topic(topic)
    text = docs.relink(chosen.text, lambda name, anchor: f"clue-stats docs {name}")
    if raw:
        out.file.write(text if text.endswith("\n") else text + "\n")
    else:
        from rich.markdown import Markdown  # deferred: start-up (markdown-it and pygments)

        # our own files, so rich may lay them out: wrapped to the terminal (the text console keeps lines whole)
        Console(highlight=False, emoji=False).print(Markdown(text, hyperlinks=False))
