"""The data that travels with clue-stats: editions, board maps and sample games (read with importlib.resources)."""
