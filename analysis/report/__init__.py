"""The report: one document (:mod:`.document`) built by sections (:mod:`.sections` for a game,
:mod:`.night_document` for a night) and written by its renderers (:mod:`.html`, :mod:`.markdown`),
with charts rendered to SVG (:mod:`.svg_charts`)."""
