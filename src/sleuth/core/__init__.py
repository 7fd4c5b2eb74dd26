"""The common core shared by every game: states, events and views, bots, matches, logs."""
