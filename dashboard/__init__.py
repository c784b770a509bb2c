"""clue-stats: dashboard."""
