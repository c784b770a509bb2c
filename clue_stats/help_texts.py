"""The help texts of `clue-stats` as a Python module of marked messages, for pybabel: `make catalogues`
runs ``python -m clue_stats.help_texts > build/help_texts.py`` (clue_stats.help_screens lists them).
Nothing imports this module: it imports the command (clue_stats.cli), which imports the help's words.
"""

from __future__ import annotations

from clue_stats.cli import app
from clue_stats.help_screens import texts


def main() -> None:
    print("# the help texts of `clue-stats` (clue_stats.help_screens), written by `make catalogues` for pybabel")
    print("from clue_stats.analysis.words import N_")
    for text in texts(app):
        print(f"N_({text!r})")


if __name__ == "__main__":
    main()
