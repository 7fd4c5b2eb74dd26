"""Exact deduction for Cluedo: one observer's knowledge as constraints on the cards' owners,
exact counting of the consistent deals, and the belief over the engine's events."""
