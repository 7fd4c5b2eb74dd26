"""Best responses and the double oracle over two pools whose entries cost games to measure.

A pool's entry ``entry(i, j)`` is the row side's win rate (a draw counts half) with its
strategy ``i`` against the column side's ``j``, measured by playing games, so only the
entries the search needs are asked for (the caller caches them: the double oracle asks for an
entry as often as it needs it).  :func:`best_response` is the pure strategy of a pool that
does best against a fixed mix of the other side; :func:`double_oracle` (McMahan, Gordon and
Blum, 2003; PSRO with exact best responses over finite pools) grows a restricted game from one
strategy of each side, adding each side's best response to the other's restricted
equilibrium mix, until neither gains more than ``tolerance``: its equilibrium is then one of the
whole game between the pools (up to the tolerance), found without measuring every entry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from sleuth.arena.equilibrium import Equilibrium, solve_zero_sum

Entry = Callable[[int, int], float]
"""The row side's win rate with row strategy ``i`` against column strategy ``j``."""


def best_response(
    entry: Entry, pool: int, against: Sequence[int], mix: Sequence[float], rows: bool
) -> tuple[int, float]:
    """The member of a pool of ``pool`` strategies that does best against the other side
    playing ``against[k]`` with weight ``mix[k]``, and its expected win rate for the row side.
    With ``rows=True`` the pool is the row side's, which maximises; else the column side's,
    which minimises.  Ties go to the lowest index."""
    if pool < 1 or len(against) != len(mix) or not against:
        raise ValueError(
            f"need a pool and one weight per strategy against, got {pool}, {against}, {mix}"
        )

    def value(k: int) -> float:
        return sum(
            w * (entry(k, o) if rows else entry(o, k))
            for o, w in zip(against, mix, strict=True)
            if w
        )

    values = [value(k) for k in range(pool)]
    best = int(np.argmax(values) if rows else np.argmin(values))
    return best, float(values[best])


@dataclass(frozen=True)
class OracleResult:
    """The double oracle's last restricted game: ``equilibrium`` is solved over the row
    strategies ``rows`` and column strategies ``columns`` (indices into the pools, in the order
    they were added).  ``row_gain`` is how much the row pool's best response to the column mix
    beats the value, ``column_gain`` how much the column pool's best response to the row mix
    lowers it: each side's exploitability within the pools (both at most the tolerance, which
    absorbs the solver's rounding, when ``converged``)."""

    rows: tuple[int, ...]
    columns: tuple[int, ...]
    equilibrium: Equilibrium
    row_gain: float
    column_gain: float
    converged: bool
    values: tuple[float, ...]
    """The restricted game's value at each iteration."""

    def row_mix(self, pool: int) -> NDArray[np.float64]:
        """The row side's equilibrium mix over its whole pool of ``pool`` strategies."""
        mix = np.zeros(pool)
        mix[list(self.rows)] = self.equilibrium.rows
        return mix

    def column_mix(self, pool: int) -> NDArray[np.float64]:
        """The column side's equilibrium mix over its whole pool of ``pool`` strategies."""
        mix = np.zeros(pool)
        mix[list(self.columns)] = self.equilibrium.columns
        return mix


def double_oracle(
    entry: Entry,
    rows: int,
    columns: int,
    start: tuple[int, int] = (0, 0),
    tolerance: float = 1e-9,
    iterations: int = 100,
) -> OracleResult:
    """The double oracle between a row pool of ``rows`` strategies and a column pool of
    ``columns``, from the restricted game ``start`` (see the module docstring); it stops when
    neither best response gains more than ``tolerance`` or after ``iterations`` rounds
    (``converged`` says which)."""
    if not (0 <= start[0] < rows and 0 <= start[1] < columns) or iterations < 1:
        raise ValueError(f"start {start} is outside the pools {rows} x {columns}")
    chosen_rows, chosen_columns = [start[0]], [start[1]]
    values: list[float] = []
    while True:
        solved = solve_zero_sum([[entry(i, j) for j in chosen_columns] for i in chosen_rows])
        values.append(solved.value)
        row, row_value = best_response(entry, rows, chosen_columns, list(solved.columns), True)
        column, column_value = best_response(entry, columns, chosen_rows, list(solved.rows), False)
        row_gain = float(row_value - solved.value)
        column_gain = float(solved.value - column_value)
        converged = row_gain <= tolerance and column_gain <= tolerance
        new_row = row_gain > tolerance and row not in chosen_rows
        new_column = column_gain > tolerance and column not in chosen_columns
        if converged or not (new_row or new_column) or len(values) == iterations:
            return OracleResult(
                tuple(chosen_rows), tuple(chosen_columns), solved, row_gain, column_gain,
                converged, tuple(values),
            )  # fmt: skip
        if new_row:
            chosen_rows.append(row)
        if new_column:
            chosen_columns.append(column)
