"""clue-stats: analysis, in rooms that say what they hold. A room imports the rooms before it, never one
after it (tests/test_layers.py checks it):

- :mod:`~clue_stats.analysis.words`: every word a person reads (the catalogues, numbers and dates in the
  reader's language), names of cards and places, a record in words, the documentation's topics;
- :mod:`~clue_stats.analysis.computers`: the statistics of one game, each a pure computer (information,
  suggestions, accusations, statements, giveaway), the registry that runs them and the partitioned run;
- :mod:`~clue_stats.analysis.review`: the review's read model, one stored game as facts (the post-mortem),
  its rows, race and charts, the timeline of the replay and why a suggestion lost bits;
- :mod:`~clue_stats.analysis.corpus`: statistics over many stored games (league, ratings, nights, players,
  agents, positions, puzzles, summaries, review accuracy summed over games);
- :mod:`~clue_stats.analysis.report`: the report as one document, its sections (a game's, a night's), its
  HTML and Markdown renderers and its SVG charts.
"""
