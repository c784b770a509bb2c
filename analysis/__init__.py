"""clue-stats: analysis."""
