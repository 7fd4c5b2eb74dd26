"""Velma's hybrid sampler compiled (Numba): steps 2-5 of
:mod:`~sleuth.games.cluedo.velma_hypotheses`, one run at a time.

This module imports no constant from Sleuth (Numba's cache is keyed on this file alone, see
:mod:`sleuth.core.compiled`).  Owners are coded as there: seats ``0..n-1``, the envelope,
``-1`` for a card not dealt yet.  Without Numba, :class:`VelmaBelief` uses its NumPy version
instead (this plain-Python loop would be far slower).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from sleuth.core.compiled import COMPILED as COMPILED
from sleuth.core.compiled import kernel

CARDS = 21
ENVELOPE_ORDER = ((0, 6), (12, 21), (6, 12))
"""The envelope's categories in the order drawn: suspect, room, weapon (card ranges)."""


@kernel
def attempts(
    b: int,
    seed: int,
    start: npt.NDArray[np.int8],
    unseen_seats: npt.NDArray[np.int64],
    unseen_cards: npt.NDArray[np.int64],
    forbidden: npt.NDArray[np.bool_],
    sizes: npt.NDArray[np.int64],
    envelope: int,
    fill_order: npt.NDArray[np.int64],
    wrong: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int16]]:
    """``b`` runs from the owners ``start`` (steps 1 done); the hypotheses of the runs that
    succeed and their envelopes' solution numbers.  ``seed`` seeds the kernel's own random
    stream."""
    np.random.seed(seed)
    out = np.empty((b, CARDS), dtype=np.int8)
    numbers = np.empty(b, dtype=np.int16)
    own = np.empty(CARDS, dtype=np.int8)
    counts = np.zeros(len(sizes), dtype=np.int64)
    free = np.empty(CARDS, dtype=np.int64)
    kept = 0
    for _ in range(b):
        own[:] = start
        counts[:] = 0
        for card in range(CARDS):
            if 0 <= own[card] < len(sizes):
                counts[own[card]] += 1
        ok = True
        for j in range(len(unseen_seats)):  # step 2
            seat = unseen_seats[j]
            held = False
            nfree = 0
            for t in range(3):
                card = unseen_cards[j, t]
                if own[card] == seat:
                    held = True
                elif own[card] == -1 and not forbidden[seat, card]:
                    free[nfree] = card
                    nfree += 1
            if held:
                continue
            if nfree == 0 or counts[seat] >= sizes[seat]:
                ok = False
                break
            own[free[np.random.randint(0, nfree)]] = seat
            counts[seat] += 1
        if not ok:
            continue
        for lo, hi in ENVELOPE_ORDER:  # step 3
            nfree = 0
            for card in range(lo, hi):
                if own[card] == -1 and not forbidden[envelope, card]:
                    free[nfree] = card
                    nfree += 1
            if nfree == 0:
                ok = False
                break
            own[free[np.random.randint(0, nfree)]] = envelope
        if not ok:
            continue
        nfree = 0  # step 4: the undealt cards, shuffled
        for card in range(CARDS):
            if own[card] == -1:
                free[nfree] = card
                nfree += 1
        for i in range(nfree - 1, 0, -1):
            j = np.random.randint(0, i + 1)
            free[i], free[j] = free[j], free[i]
        for i in range(nfree):
            card = free[i]
            placed = False
            for seat in fill_order:
                if not forbidden[seat, card] and counts[seat] < sizes[seat]:
                    own[card] = seat
                    counts[seat] += 1
                    placed = True
                    break
            if not placed:
                ok = False
                break
        if not ok:
            continue
        number = 0
        for card in range(CARDS):
            if own[card] == envelope:
                if card < 6:
                    number += 54 * card
                elif card < 12:
                    number += 9 * (card - 6)
                else:
                    number += card - 12
        for x in wrong:  # step 5
            if number == x:
                ok = False
        if ok:
            out[kept] = own
            numbers[kept] = number
            kept += 1
    return out[:kept], numbers[:kept]
