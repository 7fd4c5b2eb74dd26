"""Compiled kernels of the counting DP (Numba when installed, plain Python otherwise).

This module imports no constant from Sleuth (Numba's cache is keyed on this file alone, see
:mod:`sleuth.core.compiled`).  Layout, as in :mod:`~sleuth.games.cluedo.deduction.units`:

* a layer of the DP is three aligned int64 arrays: ``packed`` states (guard bits clear), their
  mixed-radix ``index`` and their ``count``;
* an owner's shapes are aligned int64 arrays ``shape_packed``, ``shape_index`` and ``static``
  (the shape's weight), and its binomial terms in CSR form: the terms of shape ``j`` are
  ``term_start[j] .. term_start[j + 1] - 1``, each a field (``term_shift``, ``term_mask``) and a
  count ``term_k``, weighing ``binom[remaining, k]``;
* dense tables are indexed by the mixed-radix index.

Every count stays below 2**63: the caller checks a bound first (and uses Python ints beyond).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from sleuth.core.compiled import COMPILED as COMPILED
from sleuth.core.compiled import kernel

Ints = npt.NDArray[np.int64]


@kernel
def popcount(mask: int) -> int:
    """The number of set bits of a non-negative int."""
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@kernel
def forward(
    packed: Ints,
    index: Ints,
    count: Ints,
    shape_packed: Ints,
    shape_index: Ints,
    static: Ints,
    term_start: Ints,
    term_shift: Ints,
    term_mask: Ints,
    term_k: Ints,
    guard: int,
    binom: Ints,
    acc: Ints,
    at: Ints,
    touched: Ints,
) -> int:
    """One owner of the forward pass: adds every (state, fitting shape) into the dense
    ``acc`` (``at`` gets the new packed state, ``touched`` the new indices, in order of first
    touch); returns how many indices were touched.  ``acc`` must be zero on entry."""
    n = 0
    for i in range(packed.shape[0]):
        state = packed[i]
        s = state | guard
        idx = index[i]
        c = count[i]
        for j in range(shape_packed.shape[0]):
            t = s - shape_packed[j]
            if t & guard != guard:
                continue
            w = c * static[j]
            for q in range(term_start[j], term_start[j + 1]):
                w *= binom[(state >> term_shift[q]) & term_mask[q], term_k[q]]
            new = idx - shape_index[j]
            if acc[new] == 0:
                touched[n] = new
                at[new] = t ^ guard
                n += 1
            acc[new] += w
    return n


@kernel
def backward(
    packed: Ints,
    index: Ints,
    count: Ints,
    shape_packed: Ints,
    shape_index: Ints,
    static: Ints,
    term_start: Ints,
    term_shift: Ints,
    term_mask: Ints,
    term_k: Ints,
    guard: int,
    binom: Ints,
    after: Ints,
    back: Ints,
    shape_acc: Ints,
) -> None:
    """One owner of the backward pass: ``back[i]`` = completions of state ``i`` given the
    dense completions ``after`` of the next layer; ``shape_acc[j]`` += forward count times
    weight times completions, over the states that take shape ``j``."""
    for i in range(packed.shape[0]):
        state = packed[i]
        s = state | guard
        idx = index[i]
        c = count[i]
        total = 0
        for j in range(shape_packed.shape[0]):
            t = s - shape_packed[j]
            if t & guard != guard:
                continue
            nb = after[idx - shape_index[j]]
            if nb == 0:
                continue
            w = static[j] * nb
            for q in range(term_start[j], term_start[j + 1]):
                w *= binom[(state >> term_shift[q]) & term_mask[q], term_k[q]]
            total += w
            shape_acc[j] += c * w
        back[i] = total


@kernel
def last_weights(
    packed: Ints,
    allowed: int,
    clauses: Ints,
    shown_fields: Ints,
    shown_base: Ints,
    shown_scale: Ints,
    out: Ints,
) -> None:
    """The last owner's weight for taking each state whole (a seat: allowed units, clauses,
    the scaled weights of its seen refutations)."""
    for i in range(packed.shape[0]):
        v = packed[i]
        w = 0
        if v & ~allowed == 0:
            w = 1
            for q in range(clauses.shape[0]):
                if v & clauses[q] == 0:
                    w = 0
                    break
            if w:
                for q in range(shown_fields.shape[0]):
                    w *= shown_scale[q] // (shown_base[q] + popcount(v & shown_fields[q]))
        out[i] = w
