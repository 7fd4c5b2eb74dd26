"""The counting DP's kernels in NumPy, for where Numba is not installed.

Same signatures, layout and results as :mod:`._kernels` (read its docstring): each function
loops over an owner's shapes in Python and handles all the states of a layer at once in
int64 arrays, so a large layer costs a few array operations per shape instead of a Python
step per (state, shape) pair.  The caller has checked that every count fits in int64.
The forward pass lists the new states in index order, not in order of first touch (the
tables are read by state, so the order does not matter).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Ints = npt.NDArray[np.int64]
_BYTE_BITS = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


def popcount(values: Ints) -> Ints:
    """The number of set bits of each non-negative int64."""
    out = np.zeros(values.shape, dtype=np.int64)
    for shift in range(0, 64, 8):
        out += _BYTE_BITS[(values >> shift) & 255]
    return out


def _fitting(packed: Ints, shape: int, guard: int) -> tuple[npt.NDArray[np.bool_], Ints]:
    """Which states can take ``shape`` (every guard bit survives), and what they leave."""
    left = (packed | guard) - shape
    return (left & guard) == guard, left ^ guard


def _weights(
    states: Ints,
    count: Ints,
    j: int,
    static: Ints,
    term_start: Ints,
    term_shift: Ints,
    term_mask: Ints,
    term_k: Ints,
    binom: Ints,
) -> Ints:
    """``count`` times shape ``j``'s static weight and binomial terms, for each state."""
    w: Ints = count * static[j]
    for q in range(term_start[j], term_start[j + 1]):
        w = w * binom[(states >> term_shift[q]) & term_mask[q], term_k[q]]
    return w


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
    """As :func:`._kernels.forward`."""
    for j in range(shape_packed.shape[0]):
        fits, left = _fitting(packed, int(shape_packed[j]), guard)
        if not fits.any():
            continue
        states = packed[fits]
        w = _weights(
            states, count[fits], j, static, term_start, term_shift, term_mask, term_k, binom
        )
        new = index[fits] - shape_index[j]
        np.add.at(acc, new, w)
        at[new] = left[fits]
    hit = np.flatnonzero(acc)
    touched[: len(hit)] = hit
    return len(hit)


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
    """As :func:`._kernels.backward`."""
    back[:] = 0
    for j in range(shape_packed.shape[0]):
        fits, _ = _fitting(packed, int(shape_packed[j]), guard)
        if not fits.any():
            continue
        completions = after[index[fits] - shape_index[j]]
        w = _weights(
            packed[fits], completions, j, static, term_start, term_shift, term_mask, term_k, binom
        )
        back[fits] += w
        shape_acc[j] += int(np.dot(count[fits], w))


def last_weights(
    packed: Ints,
    allowed: int,
    clauses: Ints,
    shown_fields: Ints,
    shown_base: Ints,
    shown_scale: Ints,
    out: Ints,
) -> None:
    """As :func:`._kernels.last_weights`."""
    w = ((packed & ~allowed) == 0).astype(np.int64)
    for clause in clauses.tolist():
        w *= (packed & clause) != 0
    for fields, base, scale in zip(
        shown_fields.tolist(), shown_base.tolist(), shown_scale.tolist(), strict=True
    ):
        w *= scale // (base + popcount(packed & fields))
    out[:] = w
