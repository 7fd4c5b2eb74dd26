"""Two-player zero-sum matrix games from tournament results: the equilibrium and its interval.

A restricted game has one row per strategy of the maximising side and one column per strategy
of the minimising side; each entry is the row's win rate (a draw counts half) against that
column.  :func:`solve_zero_sum` solves it exactly as a linear programme (SciPy's HiGHS): the
row mix maximises the worst column, and the column mix, read from the same programme's duals,
minimises the best row; both guarantee the same value (von Neumann's minimax theorem).
:func:`bootstrap_value` puts a percentile interval on that value by resampling each entry's
games.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from sleuth.core.errors import SleuthError

LEVEL = 0.95
"""The default confidence level of :func:`bootstrap_value`."""
SAMPLES = 1000
"""The default number of bootstrap resamples."""


@dataclass(frozen=True)
class Equilibrium:
    """A solved zero-sum matrix game: ``rows @ payoff >= value`` in every column and
    ``payoff @ columns <= value`` in every row (up to the solver's tolerance); each mix is
    non-negative and sums to 1."""

    value: float
    rows: NDArray[np.float64]
    """The maximising side's equilibrium mix, one weight per row."""
    columns: NDArray[np.float64]
    """The minimising side's equilibrium mix, one weight per column."""


def _payoff(payoff: ArrayLike) -> NDArray[np.float64]:
    matrix = np.asarray(payoff, dtype=float)
    if matrix.ndim != 2 or 0 in matrix.shape:
        raise ValueError(f"the payoff must be a non-empty matrix, got shape {matrix.shape}")
    bad = np.argwhere(~np.isfinite(matrix))
    if len(bad):
        row, column = bad[0]
        raise ValueError(f"payoff entry ({row}, {column}) is {matrix[row, column]}, not a number")
    return matrix


def solve_zero_sum(payoff: ArrayLike) -> Equilibrium:
    """The equilibrium of the zero-sum game whose row player maximises ``payoff[i, j]``."""
    try:
        from scipy.optimize import linprog
    except ImportError:  # pragma: no cover - SciPy is a default dependency
        raise SleuthError("matrix games need SciPy: pip install scipy") from None
    matrix = _payoff(payoff)
    rows, columns = matrix.shape
    # variables: the row mix p_1..p_R and v; maximise v with (p @ payoff)_j >= v for every j
    objective = np.zeros(rows + 1)
    objective[-1] = -1.0
    result = linprog(
        objective,
        A_ub=np.hstack([-matrix.T, np.ones((columns, 1))]),
        b_ub=np.zeros(columns),
        A_eq=np.append(np.ones(rows), 0.0)[None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * rows + [(None, None)],
        method="highs",
    )
    if result.status != 0:  # pragma: no cover - a finite matrix game always has a solution
        raise RuntimeError(f"LP solver failed: {result.message}")
    value = float(np.clip(result.x[-1], matrix.min(), matrix.max())) + 0.0  # residue, no -0
    row_mix = np.clip(result.x[:rows], 0.0, None)
    column_mix = np.clip(-np.asarray(result.ineqlin.marginals, dtype=float), 0.0, None)
    return Equilibrium(value, row_mix / row_mix.sum(), column_mix / column_mix.sum())


def bootstrap_value(
    wins: ArrayLike,
    draws: ArrayLike,
    games: ArrayLike,
    seed: int,
    samples: int = SAMPLES,
    level: float = LEVEL,
) -> tuple[float, float]:
    """A percentile bootstrap interval at ``level`` of the game's value, the row's win rate
    ``(wins + draws / 2) / games`` entry by entry: each resample draws every entry's games
    anew from its own wins, draws and losses (multinomially, as many games as it has) and
    solves the resampled game; ``seed`` makes the interval reproducible."""
    won, drawn, played = (np.asarray(a, dtype=float) for a in (wins, draws, games))
    _payoff(played)
    if won.shape != played.shape or drawn.shape != played.shape:
        raise ValueError(
            f"wins {won.shape}, draws {drawn.shape} and games {played.shape} differ in shape"
        )
    empty = np.argwhere(played < 1)
    if len(empty):
        row, column = empty[0]
        raise ValueError(f"entry ({row}, {column}) has no games to resample")
    lost = played - won - drawn
    if (won < 0).any() or (drawn < 0).any() or (lost < 0).any():
        raise ValueError("wins and draws must be non-negative and at most the games")
    if samples < 1 or not 0 < level < 1:
        raise ValueError(f"need samples >= 1 and 0 < level < 1, got {samples} and {level}")
    rng = np.random.default_rng(seed)
    odds = np.stack([won, drawn, lost], axis=-1) / played[..., None]
    counts = played.astype(np.int64)
    values = np.empty(samples)
    for k in range(samples):
        drawn_games = rng.multinomial(counts, odds)
        rates = (drawn_games[..., 0] + drawn_games[..., 1] / 2) / played
        values[k] = solve_zero_sum(rates).value
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(values, [tail, 100 - tail])
    return float(low), float(high)
