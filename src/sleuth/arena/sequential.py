"""An anytime-valid confidence sequence for the mean gain of a paired comparison.

``sleuth compare --stop-early`` looks at the per-game differences as they come and stops as
soon as they decide.  A fixed-sample interval (the paired z-test) may not be looked at more
than once: stopping the first time it excludes 0 would find a difference between two equal
bots far more often than 5% of the time.  A *confidence sequence* is a sequence of intervals
that holds the true mean at every game count at once with probability at least ``1 - alpha``,
so it may be checked after every game and the comparison stopped whenever it excludes 0.

This one is the hedged-capital betting sequence of Waudby-Smith and Ramdas ("Estimating means
of bounded random variables by betting", J. R. Stat. Soc. B, 2024; Theorem 3 with the
predictable plug-in bets of their equations 26-27, truncated at 1/2), which adapts to the
variance: pairing makes most differences 0, and the sequence narrows accordingly.  A
difference ``d`` in ``[-1, 1]`` is mapped to ``x = (d + 1) / 2`` in ``[0, 1]``.  For each
candidate mean ``m`` of a grid, two gamblers bet on ``x`` being above and below ``m``; their
average wealth is a nonnegative martingale when the mean is ``m``, so by Ville's inequality it
reaches ``1 / alpha`` with probability at most ``alpha``.  The sequence is the set of ``m``
whose wealth stayed below ``1 / alpha`` (an interval), widened by one grid step.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

GRID = 4001
"""Candidate means on ``[0, 1]`` (a resolution of 0.0005 on the difference's scale)."""
TRUNCATION = 0.5
"""Bets are at most ``0.5 / m`` (``0.5 / (1 - m)``): a gambler never stakes more than half."""


class ConfidenceSequence:
    """The betting confidence sequence for the mean of differences in ``[-1, 1]``, updated one
    difference at a time.  Invariant: with probability at least ``1 - alpha`` the true mean is
    in :meth:`interval` after every update (whatever rule decides when to stop)."""

    def __init__(self, alpha: float = 0.05) -> None:
        if not 0.0 < alpha < 1.0:
            raise ValueError(f"alpha must be between 0 and 1, got {alpha}")
        self.alpha = alpha
        self.count = 0
        self._means = np.linspace(0.0, 1.0, GRID)[1:-1]
        self._log_up = np.zeros_like(self._means)
        self._log_down = np.zeros_like(self._means)
        self._sum = 0.0
        self._squares = 0.0
        """Running sums of the plug-in mean and variance estimates (their priors 1/2, 1/4)."""

    def update(self, differences: Iterable[float]) -> None:
        """Take in more differences (each between -1 and 1), in the order they were played."""
        log_threshold = math.log(2.0 / self.alpha)
        for difference in differences:
            if not -1.0 <= difference <= 1.0:
                raise ValueError(f"a difference must be between -1 and 1, got {difference}")
            x = (difference + 1.0) / 2.0
            i = self.count + 1
            variance = (0.25 + self._squares) / i  # of the i - 1 earlier values
            bet = math.sqrt(2.0 * log_threshold / (variance * i * math.log(1.0 + i)))
            up = np.minimum(bet, TRUNCATION / self._means)
            down = np.minimum(bet, TRUNCATION / (1.0 - self._means))
            self._log_up += np.log1p(up * (x - self._means))
            self._log_down += np.log1p(-down * (x - self._means))
            self.count = i
            self._sum += x
            mean = (0.5 + self._sum) / (i + 1)
            self._squares += (x - mean) ** 2

    def interval(self) -> tuple[float, float]:
        """The current interval for the mean difference (``(-1, 1)`` before any)."""
        log_wealth = np.logaddexp(self._log_up, self._log_down) + math.log(0.5)
        kept = np.flatnonzero(log_wealth < -math.log(self.alpha))
        if kept.size == 0:  # every mean rejected: only possible through rounding at the ends
            return (-1.0, 1.0)
        step = 1.0 / (GRID - 1)
        low = max(0.0, self._means[kept[0]] - step)
        high = min(1.0, self._means[kept[-1]] + step)
        return (float(2.0 * low - 1.0), float(2.0 * high - 1.0))

    def excludes_zero(self) -> bool:
        """Whether the interval now lies wholly above or below 0."""
        low, high = self.interval()
        return low > 0.0 or high < 0.0
