"""Sleuth's games for learning agents: the episode every adapter steps (:mod:`.episode`), and
the adapters for PettingZoo, Gymnasium and OpenSpiel (the ``rl`` extra)."""
