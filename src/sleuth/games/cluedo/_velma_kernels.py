"""Velma's hot loops compiled (Numba): her hybrid sampler (steps 2-5 of
:mod:`~sleuth.games.cluedo.velma_hypotheses`, one run at a time) and the answer histogram of
:mod:`~sleuth.games.cluedo.velma_scoring`.

This module imports no constant from Sleuth (Numba's cache is keyed on this file alone, see
:mod:`sleuth.core.compiled`).  Owners are coded as there: seats ``0..n-1``, the envelope,
``-1`` for a card not dealt yet.  Without Numba, :class:`VelmaBelief` and the scoring use
their NumPy versions instead (these plain-Python loops would be far slower).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from sleuth.core.compiled import COMPILED as COMPILED
from sleuth.core.compiled import kernel

CARDS = 21
ENVELOPES = 324
"""Solution numbers ``54 s + 9 w + r``."""
ENVELOPE_ORDER = ((0, 6), (12, 21), (6, 12))
"""The envelope's categories in the order drawn: suspect, room, weapon (card ranges)."""
ENVELOPE_WEIGHTS = (54, 1, 9)
"""What each category's card (counted from the range's start) adds to the solution number."""
LOWEST_BIT = np.array([0] + [(m & -m).bit_length() - 1 for m in range(1, 64)], dtype=np.int64)
"""The index of the lowest set bit of each 6-bit mask (0 for 0): seats are at most 6."""


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
    stream.

    Each run draws, in order: step 2's picks, step 3's three envelope cards, step 4's shuffle
    (Fisher-Yates from the last undealt card down).  Nothing after the shuffle draws, so step
    4's dealing and step 5's check are done in whichever order is cheaper (step 5 first, and
    the deal with bit masks of the seats that may still take a card) without changing the
    stream or the result."""
    np.random.seed(seed)
    out = np.empty((b, CARDS), dtype=np.int8)
    numbers = np.empty(b, dtype=np.int16)
    n = len(sizes)
    start_counts = np.zeros(n, dtype=np.int64)
    for card in range(CARDS):
        if 0 <= start[card] < n:
            start_counts[start[card]] += 1
    allowed = np.zeros(CARDS, dtype=np.int64)  # bit k: the fill order's k-th seat may hold it
    for card in range(CARDS):
        for k in range(n):
            if not forbidden[fill_order[k], card]:
                allowed[card] |= 1 << k
    capacity = np.empty(n, dtype=np.int64)  # the hand size of the k-th seat of the fill order
    for k in range(n):
        capacity[k] = sizes[fill_order[k]]
    own = np.empty(CARDS, dtype=np.int8)
    counts = np.empty(n, dtype=np.int64)
    filled = np.empty(n, dtype=np.int64)
    free = np.empty(CARDS, dtype=np.int64)
    kept = 0
    for _ in range(b):
        own[:] = start
        counts[:] = start_counts
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
        number = 0
        for i in range(3):  # step 3
            lo, hi = ENVELOPE_ORDER[i]
            nfree = 0
            for card in range(lo, hi):
                if own[card] == -1 and not forbidden[envelope, card]:
                    free[nfree] = card
                    nfree += 1
            if nfree == 0:
                ok = False
                break
            card = free[np.random.randint(0, nfree)]
            own[card] = envelope
            number += ENVELOPE_WEIGHTS[i] * (card - lo)
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
        for x in wrong:  # step 5
            if number == x:
                ok = False
        if not ok:
            continue
        room = 0  # step 4's deal: bit k set while the k-th seat of the fill order has room
        for k in range(n):
            filled[k] = counts[fill_order[k]]
            if filled[k] < capacity[k]:
                room |= 1 << k
        for i in range(nfree):
            card = free[i]
            fits = allowed[card] & room
            if fits == 0:
                ok = False
                break
            k = LOWEST_BIT[fits]
            own[card] = fill_order[k]
            filled[k] += 1
            if filled[k] == capacity[k]:
                room ^= 1 << k
        if ok:
            out[kept] = own
            numbers[kept] = number
            kept += 1
    return out[:kept], numbers[:kept]


@kernel
def histogram(
    order: npt.NDArray[np.uint8],
    envelopes: npt.NDArray[np.int16],
    players: int,
    room: int,
    slots: int,
) -> npt.NDArray[np.int64]:
    """:func:`~sleuth.games.cluedo.velma_scoring.answer_counts`, one hypothesis at a time: the
    same counts, laid out the same (suspect, weapon, answer slot, envelope).  It counts by
    envelope first, so that a hypothesis's 36 counts lie close together, then transposes."""
    by_envelope = np.zeros((ENVELOPES, 36 * slots), dtype=np.int64)
    for h in range(len(envelopes)):
        counts = by_envelope[envelopes[h]]
        here = np.int64(order[h, room])
        for s in range(6):
            suspect = np.int64(order[h, s])
            for w in range(6):
                weapon = np.int64(order[h, 6 + w])
                first = min(suspect, weapon, here)
                if first == players:
                    slot = slots - 1
                else:
                    cards = (suspect == first) | (here == first) << 1 | (weapon == first) << 2
                    slot = (first - 1) * 8 + cards
                counts[(6 * s + w) * slots + slot] += 1
    return by_envelope.T.copy().reshape(-1)
