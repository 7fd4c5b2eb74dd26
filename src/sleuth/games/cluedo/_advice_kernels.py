"""Compiled kernel of the advice's suggestion screen (Numba when installed; without it the
advice uses its NumPy version, :func:`~sleuth.games.cluedo.advice.room_gains`).

This module imports no constant from Sleuth (Numba's cache is keyed on this file alone, see
:mod:`sleuth.core.compiled`): the card numbers come as arguments.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from sleuth.core.compiled import COMPILED as COMPILED
from sleuth.core.compiled import kernel

Floats = npt.NDArray[np.float64]


@kernel
def answer_counts(
    order: npt.NDArray[np.uint8],
    parts: npt.NDArray[np.intp],
    sizes: npt.NDArray[np.intp],
    first_suspect: int,
    first_weapon: int,
    room: int,
    players: int,
    hists: tuple[Floats, Floats, Floats],
    weight: Floats,
) -> None:
    """Adds, for every sample ``i`` and every suggestion (6 suspects by 6 weapons, ``pair =
    6 s + w``) in ``room``, the sample's answer to the histograms and weights of the screen.

    ``order`` is :class:`~sleuth.games.cluedo.advice.Samples`' (how far clockwise the holder
    of each card sits, ``players`` for nobody who would show it), ``parts[c, i]`` the sample's
    envelope card of category ``c`` (local index, below ``sizes[c]``).  An answer's key is
    ``pair * slots + slot``, ``slots = 3 (players - 1) + 1``: slot 0 nobody refutes, ``1 +
    3 (p - 1) + j`` the p-th seat clockwise shows card ``j`` of the suggestion (each of the
    ``m`` cards it holds with weight ``1 / m``).  ``weight[key]`` gains the answer's weight
    and ``hists[c][key * sizes[c] + parts[c, i]]`` one count per (answer, card shown).

    The additions run in the order of the samples, then suspects, then weights, as NumPy's
    ``bincount`` over the ``(samples, 6, 6)`` arrays of the NumPy version adds them: the
    same sums to the bit."""
    slots = 3 * (players - 1) + 1
    for i in range(order.shape[0]):
        by_room = order[i, room]
        for s in range(6):
            by_suspect = order[i, first_suspect + s]
            for w in range(6):
                by_weapon = order[i, first_weapon + w]
                base = (6 * s + w) * slots
                first = int(min(by_suspect, by_weapon, by_room))
                if first >= players:
                    weight[base] += 1.0
                    for c in range(3):
                        hists[c][base * sizes[c] + parts[c, i]] += 1.0
                    continue
                held = (by_suspect == first, by_weapon == first, by_room == first)
                share = 1.0 / (int(held[0]) + int(held[1]) + int(held[2]))
                for j in range(3):
                    if held[j]:
                        key = base + 1 + (first - 1) * 3 + j
                        weight[key] += share
                        for c in range(3):
                            hists[c][key * sizes[c] + parts[c, i]] += 1.0
