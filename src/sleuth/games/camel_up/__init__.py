"""Camel Up: a camel race with leg bets, desert tiles and secret overall bets."""
