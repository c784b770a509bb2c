"""Corpus statistics: figures over many stored games (league, ratings, nights, players, agents, starting
positions, puzzles, summaries, review accuracy summed over games), usable without Streamlit."""
