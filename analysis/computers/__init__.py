"""Per-game computers: the statistics of one game, each a pure function of the game behind one protocol
(:mod:`.registry`), run together by :mod:`.game_analysis` (and on a Dask cluster by :mod:`.partitioned`)."""

# games in a partition of the analysis on Dask (:mod:`.partitioned`), by default: enough games that a
# task's start-up is small next to their analysis (here, where `clue-stats analyse-partitioned --help`
# reads it without importing DuckDB and pyarrow)
GAMES_PER_PARTITION = 2000
