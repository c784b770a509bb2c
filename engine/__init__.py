"""clue-stats: engine."""
