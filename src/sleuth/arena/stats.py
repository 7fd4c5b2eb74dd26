"""Statistics for tournament reports."""

from __future__ import annotations

import math

Z95 = 1.959963984540054
"""The 97.5% quantile of the standard normal distribution."""


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a win rate (fractional wins allowed); (0, 1) for no games.

    The bounds are exactly 0 for no wins and exactly 1 for all wins (no rounding residue).
    """
    if games <= 0:
        return (0.0, 1.0)
    if not 0 <= wins <= games:
        raise ValueError(f"wins must be between 0 and the number of games ({games}), got {wins}")
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    lo = 0.0 if wins == 0 else max(0.0, centre - half)
    hi = 1.0 if wins == games else min(1.0, centre + half)
    return (lo, hi)
