"""Per-game computers: the statistics of one game, each a pure function of the game behind one protocol
(:mod:`.registry`), run together by :mod:`.game_analysis` (and on a Dask cluster by :mod:`.partitioned`)."""
