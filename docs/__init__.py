"""The user's documentation (these Markdown files), shipped in the wheel: `clue-stats docs TOPIC` and the dashboard's Help page read it."""
