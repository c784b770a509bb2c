"""Help: the user's documentation, as it was installed with clue-stats (the same files as
`clue-stats docs`), one topic at a time; the topic is in the address (``?topic=league``) so a page
can link to it."""

from __future__ import annotations

import streamlit as st

from clue_stats.analysis.words import _, language
from clue_stats.analysis.words import topics as docs
from clue_stats.dashboard.app_pages.page_text import md
from clue_stats.dashboard.pages import page

every = docs.topics()
names = [t.name for t in every]
titles = {t.name: t.title for t in every}
asked = st.query_params.get("topic")
if asked is not None and asked not in titles:
    st.warning(_("There is no help topic {topic}; here are all of them.").format(topic=md(asked)))
    asked = None

st.title(page("help").name)
st.caption(_("The documentation that comes with clue-stats; in a terminal, `clue-stats docs TOPIC` prints the same."))
chosen: str = st.selectbox(
    _("Topic"),
    names,
    index=names.index(asked) if asked else names.index("getting-started"),  # where a new reader starts
    format_func=lambda name: titles[name],
)
st.query_params["topic"] = chosen
if docs.topic(chosen).language != language():
    st.info(_("This topic is written for the project's developers and is in English."))
st.markdown(docs.relink(docs.topic(chosen).text, lambda name, at: f"?topic={name}{at}", anchor=docs.page_anchor))
