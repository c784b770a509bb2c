"""clue-stats: ingest."""
