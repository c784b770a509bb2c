"""clue-stats: clue_stats."""
