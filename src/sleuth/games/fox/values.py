"""Finite-horizon game values with mixed strategies (rule A6).

With a horizon of ``days`` days the hunter picks an inspection sequence ``K_1..K_T`` and the
fox a walk ``x_1..x_T`` (neither sees the other's choices); the hunter scores 1 if
``x_t in K_t`` for some ``t``.  :func:`game_value` solves this matrix game by linear
programming (SciPy's HiGHS): the hunter's optimal mixed strategy maximises the catch
probability every walk must concede; the fox's optimal mix comes from the dual.

The matrix has ``C(n, k)^T`` rows and one column per walk, so only small instances are
accepted (see :data:`MAX_CELLS`); larger ones raise ``SolverLimitError``.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, product
from math import comb

import numpy as np

from sleuth.core.errors import SleuthError, SolverLimitError
from sleuth.games.fox.graph import FoxGraph, holes_of

MAX_CELLS = 4_000_000
"""Largest payoff matrix (rows x columns) the LP is built for."""
PROBABILITY_EPS = 1e-9


@dataclass(frozen=True)
class GameValue:
    """The hunter's optimal catch probability and one optimal mixed strategy for each side.

    ``hunter`` pairs inspection sequences (one tuple of holes per day) with probabilities;
    ``fox`` pairs walks (one hole per day) with probabilities.  Both omit zero weights.
    """

    p_catch: float
    hunter: list[tuple[tuple[tuple[int, ...], ...], float]]
    fox: list[tuple[tuple[int, ...], float]]


def walks(graph: FoxGraph, days: int, lazy: bool = False) -> list[tuple[int, ...]]:
    """Every fox walk of ``days`` holes (one per morning), in lexicographic order."""
    paths: list[tuple[int, ...]] = [(v,) for v in range(graph.n)]
    for _ in range(days - 1):
        paths = [(*p, w) for p in paths for w in holes_of(_moves(graph, p[-1], lazy))]
    return paths


def _moves(graph: FoxGraph, hole: int, lazy: bool) -> int:
    """Where a fox in ``hole`` may be next morning (on a one-hole board it stays: rule X9)."""
    stay = lazy or graph.n == 1
    return graph.neighbours[hole] | ((1 << hole) if stay else 0)


def _count_walks(graph: FoxGraph, days: int, lazy: bool, cap: int) -> int:
    """The number of walks of ``days`` holes, or ``cap + 1`` if there are more than ``cap``."""
    counts = [1] * graph.n
    for _ in range(days - 1):
        counts = [sum(counts[w] for w in holes_of(_moves(graph, v, lazy))) for v in range(graph.n)]
        if sum(counts) > cap:
            return cap + 1
    return sum(counts)


def game_value(graph: FoxGraph, days: int, k: int = 1, lazy: bool = False) -> GameValue:
    """Solve the ``days``-day hide-and-seek matrix game on ``graph`` exactly (an LP)."""
    if days < 1:
        raise ValueError("days must be at least 1")
    size = min(k, graph.n)
    per_day = comb(graph.n, size)
    # per_day ** days > MAX_CELLS as soon as days >= MAX_CELLS.bit_length() (per_day >= 2):
    # decide that before building a huge power or counting walks for a huge horizon
    too_big = (per_day > 1 and days >= MAX_CELLS.bit_length()) or days > MAX_CELLS
    if not too_big:
        rows = per_day**days
        columns = _count_walks(graph, days, lazy, MAX_CELLS // rows)
        too_big = rows * columns > MAX_CELLS or rows * days > MAX_CELLS
    if too_big:
        raise SolverLimitError(
            f"the {days}-day game on {graph.n} holes with k={k} is too large for the LP: "
            f"{per_day} inspections a day give {per_day}^{days} hunter sequences, and the "
            f"payoff matrix (sequences x fox walks) is limited to {MAX_CELLS:,} cells"
        )
    day_sets = [sum(1 << h for h in c) for c in combinations(range(graph.n), size)]
    sequences = list(product(range(len(day_sets)), repeat=days))
    hunter_masks = np.array([[day_sets[i] for i in seq] for seq in sequences], dtype=np.int64)
    fox_walks = walks(graph, days, lazy)
    walk_bits = np.array([[1 << h for h in walk] for walk in fox_walks], dtype=np.int64)
    caught = np.zeros((len(sequences), len(fox_walks)), dtype=bool)
    for t in range(days):
        caught |= (hunter_masks[:, t : t + 1] & walk_bits[None, :, t]) != 0

    try:
        from scipy.optimize import linprog
    except ImportError:
        raise SleuthError("game values need SciPy: pip install 'sleuth[lp]' (or scipy)") from None
    # Variables: p_1..p_R (hunter mix) and v.  Maximise v: every walk is caught with prob >= v.
    n_rows = len(sequences)
    objective = np.zeros(n_rows + 1)
    objective[-1] = -1.0
    a_ub = np.hstack([-caught.T.astype(float), np.ones((len(fox_walks), 1))])
    a_eq = np.zeros((1, n_rows + 1))
    a_eq[0, :n_rows] = 1.0
    result = linprog(
        objective,
        A_ub=a_ub,
        b_ub=np.zeros(len(fox_walks)),
        A_eq=a_eq,
        b_eq=[1.0],
        bounds=[(0, None)] * n_rows + [(None, None)],
        method="highs",
    )
    if result.status != 0:  # pragma: no cover - HiGHS solves every feasible bounded LP here
        raise RuntimeError(f"LP solver failed: {result.message}")
    hunter_mix = result.x[:n_rows]
    fox_mix = -np.asarray(result.ineqlin.marginals)
    fox_mix = fox_mix / fox_mix.sum()
    return GameValue(
        p_catch=float(result.x[-1]),
        hunter=[
            (tuple(tuple(holes_of(day_sets[i])) for i in sequences[r]), float(p))
            for r, p in _support(hunter_mix)
        ],
        fox=[(fox_walks[c], float(p)) for c, p in _support(fox_mix)],
    )


def _support(weights: np.ndarray) -> list[tuple[int, float]]:
    order = sorted(
        (i for i in range(len(weights)) if weights[i] > PROBABILITY_EPS), key=lambda i: -weights[i]
    )
    return [(i, float(weights[i])) for i in order]
