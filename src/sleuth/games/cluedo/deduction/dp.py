"""The forward and backward passes of the counting DP over a :class:`~.units.Problem`.

Owners take shapes in :attr:`~.units.Problem.owners` order from the full state; layer ``p``
holds the states before owner ``p`` with their forward counts (the ways the earlier owners
took the missing cards).  The last owner takes each state of the last layer whole, weighed by
:meth:`~.units.Problem.weight`; the sum is the total.  The backward pass gives, for each
layer, the completions of each state (:meth:`Tables.completions`) and, for each owner, the
part of the total in which it takes each shape (:meth:`Tables.taken`).

Two implementations give identical numbers: :class:`PlainTables` (dicts and Python ints,
exact at any size) and :class:`CompiledTables` (int64 arrays, used when a bound shows that no
count can reach 2**63 and the problem is large enough to pay for the arrays), whose kernels
are compiled by Numba (:mod:`._kernels`) or, where Numba is not installed, NumPy's
(:mod:`._vectorised`).  :func:`tables` chooses.
"""

from __future__ import annotations

import math
from typing import Protocol

import numpy as np

from sleuth.games.cluedo.deduction import _kernels, _vectorised
from sleuth.games.cluedo.deduction.units import Problem

__all__ = ["CompiledTables", "PlainTables", "Tables", "tables"]

Terms = tuple[tuple[int, int, int], ...]
"""The binomial terms of a shape: (shift, value mask, count) of each unit of two cards or
more it takes from."""

BINOM = [[math.comb(r, k) for k in range(64)] for r in range(64)]
LIMIT = 1 << 62
"""Counts and bits the compiled tables allow (int64 with room to spare)."""
SMALL = 20_000
"""Problems with at most this many (state, shape) pairs (a bound) run in plain Python: a few
milliseconds, without loading the compiled kernels."""
DENSE_LIMIT = 1 << 21
"""The largest dense table (mixed-radix indices) the compiled tables allocate."""


class Tables(Protocol):
    """The DP's results for one problem (weighted or not)."""

    total: int

    def taken(self) -> list[dict[int, int]]:
        """For each owner position, the part of the total in which it takes each shape
        (packed counts; positive parts only)."""
        ...

    def completions(self, position: int) -> dict[int, int]:
        """The completions of each state of layer ``position`` by owners ``position`` on
        (positive only); ``position`` runs from 1 to the number of owners − 1."""
        ...


def terms(problem: Problem, packed: int) -> Terms:
    """The binomial terms of a shape (see :data:`Terms`)."""
    out = []
    for shift, mask in problem.groups:
        k = (packed >> shift) & mask
        if k:
            out.append((shift, mask, k))
    return tuple(out)


def tables(problem: Problem, weighted: bool, compiled: bool | None = None) -> Tables:
    """The DP of ``problem``: in int64 arrays when the counts fit int64 and the work is large
    enough to pay for the arrays (or as ``compiled`` says: ``False`` forces Python ints,
    ``True`` fails when the counts may not fit)."""
    if len(problem.owners) < 2:  # nothing to combine: one owner takes every unknown card
        return PlainTables(problem, weighted)
    fits = problem.bits < 63 and problem.dense <= DENSE_LIMIT and _bound(problem) < LIMIT
    if compiled is None:
        compiled = fits and _work(problem) > SMALL
    elif compiled and not fits:
        raise ValueError("the counts of this problem may not fit int64")
    return CompiledTables(problem, weighted) if compiled else PlainTables(problem, weighted)


def _work(problem: Problem) -> int:
    """An upper bound of the (state, shape) pairs of the forward pass."""
    states = 1
    work = 0
    for shapes in problem.shapes:
        work += states * len(shapes)
        states = min(states * len(shapes), problem.dense)
    return work


def _bound(problem: Problem) -> int:
    """An upper bound of every count either pass adds (times the largest need, for the
    marginals): the deals ignoring every constraint but the needs, times the largest weights."""
    need = problem.closure.need
    deals = math.factorial(problem.closure.unknown.bit_count())
    for o in problem.owners:
        deals //= math.factorial(need[o])
    weights = 1
    for shapes in problem.shapes:
        weights *= max(w for _, w in shapes) if shapes else 1
    if problem.owners:
        for s in problem.shown[problem.owners[-1]]:
            weights *= s.scale // s.base
    return deals * weights * (max(need) + 1)


class PlainTables:
    """The DP with dicts keyed by packed state and Python-int counts."""

    def __init__(self, problem: Problem, weighted: bool) -> None:
        self.problem = problem
        self.weighted = weighted
        self.shapes = [
            [(packed, w if weighted else 1, terms(problem, packed)) for packed, w in shapes]
            for shapes in problem.shapes
        ]
        layers = [{problem.full: 1}]
        for shapes in self.shapes:
            layers.append(self._step(layers[-1], shapes))
        self.layers = layers
        self.total = self._finish(layers[-1])
        self._taken: list[dict[int, int]] | None = None
        self._back: list[dict[int, int]] = []

    def _last_weight(self, packed: int) -> int:
        problem = self.problem
        w = problem.weight(problem.owners[-1], packed)
        return w if self.weighted else min(w, 1)

    def _finish(self, layer: dict[int, int]) -> int:
        if not self.problem.owners:
            return 1
        return sum(count * self._last_weight(state) for state, count in layer.items())

    def _step(self, layer: dict[int, int], shapes: list[tuple[int, int, Terms]]) -> dict[int, int]:
        out: dict[int, int] = {}
        guard = self.problem.guard
        binom = BINOM
        for state, count in layer.items():
            s = state | guard
            for offset, static, shape_terms in shapes:
                t = s - offset
                if t & guard != guard:
                    continue
                w = count * static
                for shift, mask, k in shape_terms:
                    w *= binom[(state >> shift) & mask][k]
                t ^= guard
                out[t] = out.get(t, 0) + w
        return out

    def taken(self) -> list[dict[int, int]]:
        if self._taken is None:
            self._backward()
        assert self._taken is not None
        return self._taken

    def completions(self, position: int) -> dict[int, int]:
        if self._taken is None:
            self._backward()
        return self._back[position]

    def _backward(self) -> None:
        owners = self.problem.owners
        if not owners:
            self._taken, self._back = [], []
            return
        guard = self.problem.guard
        binom = BINOM
        back: dict[int, int] = {}
        taken_last: dict[int, int] = {}
        for state, count in self.layers[-1].items():
            w = self._last_weight(state)
            if w:
                back[state] = w
                taken_last[state] = count * w
        backs = [back]
        taken = [taken_last]
        for position in range(len(owners) - 2, -1, -1):
            shapes = self.shapes[position]
            acc = [0] * len(shapes)
            new: dict[int, int] = {}
            for state, count in self.layers[position].items():
                s = state | guard
                total = 0
                for j, (offset, static, shape_terms) in enumerate(shapes):
                    t = s - offset
                    if t & guard != guard:
                        continue
                    nb = back.get(t ^ guard)
                    if not nb:
                        continue
                    w = static * nb
                    for shift, mask, k in shape_terms:
                        w *= binom[(state >> shift) & mask][k]
                    total += w
                    acc[j] += count * w
                if total:
                    new[state] = total
            back = new
            backs.append(back)
            taken.append({shape[0]: a for shape, a in zip(shapes, acc, strict=True) if a})
        assert back.get(self.problem.full, 0) == self.total, "forward and backward disagree"
        self._back = backs[::-1]
        self._taken = taken[::-1]


class _Shapes:
    """One owner's shapes as the kernels' arrays (the problem fits int64: its packed states
    take fewer than 63 bits)."""

    def __init__(self, problem: Problem, shapes: list[tuple[int, int]], weighted: bool) -> None:
        self.packed = np.array([p for p, _ in shapes], dtype=np.int64)
        self.index = np.zeros(len(shapes), dtype=np.int64)
        for shift, mask, stride in problem.digits:
            self.index += ((self.packed >> shift) & mask) * stride
        self.static = np.array([w if weighted else 1 for _, w in shapes], dtype=np.int64)
        groups = np.array(problem.groups, dtype=np.int64).reshape(-1, 2)
        counts = (self.packed[:, None] >> groups[:, 0]) & groups[:, 1]
        rows, columns = np.nonzero(counts)  # by shape, then in the groups' order: terms()
        self.term_start = np.zeros(len(shapes) + 1, dtype=np.int64)
        np.cumsum(np.count_nonzero(counts, axis=1), out=self.term_start[1:])
        self.term_shift = groups[columns, 0]
        self.term_mask = groups[columns, 1]
        self.term_k = counts[rows, columns]


_BINOM_ARRAY = np.array([row[:32] for row in BINOM[:32]], dtype=np.int64)


class CompiledTables:
    """The DP with int64 arrays and the compiled kernels, or NumPy's without Numba (the
    caller checked the bound)."""

    def __init__(self, problem: Problem, weighted: bool) -> None:
        self.problem = problem
        self.weighted = weighted
        self.kernels = _kernels if _kernels.COMPILED else _vectorised
        self.shapes = [_Shapes(problem, shapes, weighted) for shapes in problem.shapes]
        one = np.ones(1, dtype=np.int64)
        layers = [(one * problem.full, one * problem.full_index, one.copy())]
        acc = np.zeros(problem.dense, dtype=np.int64)
        at = np.zeros(problem.dense, dtype=np.int64)
        touched = np.zeros(problem.dense, dtype=np.int64)
        for shapes in self.shapes:
            packed, index, count = layers[-1]
            n = self.kernels.forward(
                packed, index, count, *self._args(shapes), _BINOM_ARRAY, acc, at, touched
            )
            new = touched[:n].copy()
            layers.append((at[new], new, acc[new]))
            acc[new] = 0
        self.layers = layers
        self.last = self._last_weights(layers[-1][0])
        self.total = int(np.dot(layers[-1][2], self.last))
        self._taken: list[dict[int, int]] | None = None
        self._back: list[tuple[np.ndarray, np.ndarray]] = []
        self._back_dicts: dict[int, dict[int, int]] = {}

    def _args(
        self, shapes: _Shapes
    ) -> tuple[
        np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int
    ]:
        return (
            shapes.packed,
            shapes.index,
            shapes.static,
            shapes.term_start,
            shapes.term_shift,
            shapes.term_mask,
            shapes.term_k,
            self.problem.guard,
        )

    def _last_weights(self, packed: np.ndarray) -> np.ndarray:
        problem = self.problem
        last = problem.owners[-1]
        shown = problem.shown[last] if self.weighted else []
        out = np.zeros(len(packed), dtype=np.int64)
        self.kernels.last_weights(
            packed,
            problem.allowed[last],
            np.array(problem.clauses[last], dtype=np.int64),
            np.array([s.fields for s in shown], dtype=np.int64),
            np.array([s.base for s in shown], dtype=np.int64),
            np.array([s.scale for s in shown], dtype=np.int64),
            out,
        )
        return out

    def taken(self) -> list[dict[int, int]]:
        if self._taken is None:
            self._backward()
        assert self._taken is not None
        return self._taken

    def completions(self, position: int) -> dict[int, int]:
        if self._taken is None:
            self._backward()
        table = self._back_dicts.get(position)
        if table is None:
            packed, back = self._back[position]
            table = {p: b for p, b in zip(packed.tolist(), back.tolist(), strict=True) if b}
            self._back_dicts[position] = table
        return table

    def _backward(self) -> None:
        problem = self.problem
        owners = problem.owners
        packed, index, count = self.layers[-1]
        keep = self.last > 0
        backs = [(packed, self.last)]
        taken = [
            dict(zip(packed[keep].tolist(), (count[keep] * self.last[keep]).tolist(), strict=True))
        ]
        after = np.zeros(problem.dense, dtype=np.int64)
        after[index] = self.last
        for position in range(len(owners) - 2, -1, -1):
            shapes = self.shapes[position]
            packed, index, count = self.layers[position]
            back = np.zeros(len(packed), dtype=np.int64)
            shape_acc = np.zeros(len(shapes.packed), dtype=np.int64)
            self.kernels.backward(
                packed, index, count, *self._args(shapes), _BINOM_ARRAY, after, back, shape_acc
            )
            backs.append((packed, back))
            taken.append(
                {p: a for p, a in zip(shapes.packed.tolist(), shape_acc.tolist(), strict=True) if a}
            )
            after[:] = 0
            after[index] = back
        assert int(backs[-1][1][0]) == self.total, "forward and backward disagree"
        self._back = backs[::-1]
        self._taken = taken[::-1]
