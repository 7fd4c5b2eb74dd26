"""The rules engine's parts: cards, actions and their text forms, lazy move lists, whose turn it
is, and the fixed-size action encoding for RL."""
