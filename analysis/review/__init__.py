"""The review's read model: one stored game as facts (:mod:`.post_mortem`), the rows and the race the
review page and the report show (:mod:`.rows`, :mod:`.charts`), the replay's timeline and why a
suggestion lost bits."""
