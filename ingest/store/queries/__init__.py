"""The store's named queries, by topic: every read the analysis and the export make (the statistics
over many games, the league and its ratings, the nights, the agents, the starting positions, the
puzzles, the decks' names, the export), each a function of an open :class:`~clue_stats.ingest.store.Store`
that returns rows or a frame. SQL lives here and in the rest of the store package, nowhere else
(tests/test_layers.py checks it); the SQL pieces several queries share are in :mod:`.fragments`.
"""
