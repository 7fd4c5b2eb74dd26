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
SLOT_MODULUS = 37
"""``2**i % 37`` differs for each ``i < 36`` (2 is a primitive root modulo 37): the remainder
tells which bit a one-bit mask of at most 36 bits holds, and :func:`attempts` finds the seat
of a slot (a place left in a hand) by it."""


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
    stream; ``fill_order`` lists every seat once.

    Each run draws, in order: step 2's picks, step 3's three envelope cards, step 4's shuffle
    (Fisher-Yates from the last undealt card down): each draw is ``np.random.randint(0, k)``,
    ``k`` the number of cards it chooses from, listed in card order (step 2: in the answer's
    order), and a run that fails stops drawing where it fails.  Nothing after the shuffle
    draws, so step 4's dealing and step 5's check are done in whichever order is cheaper (step
    5 first) without changing the stream or the result.

    What step 1 fixes is worked out once per call, not once per run:

    * step 2's answers that step 1 does not satisfy already (a run would skip the others
      without drawing), each with its *candidates*: its cards undealt after step 1 and not
      forbidden to the answerer, in the answer's order.  A run's picks are kept as a bit mask
      of cards (``picked``) and who took each (``taker``): a candidate is free unless picked,
      and the answer is satisfied if the answerer picked one (step 2 gives a seat only its
      candidates, so no other card of the answer can be the answerer's);
    * step 3's cards of each category undealt after step 1 and allowed in the envelope: a run
      chooses among them directly unless step 2 picked one of them;
    * step 4's cards undealt after step 1, in card order: a run drops its picks from them;
    * the seats' room as *slots*, one bit per place left in a hand after step 1, each seat's
      bits together and the seats' in fill order, and each card's slots (those of the seats
      it is not forbidden to).  Step 2's pick takes the answerer's lowest free slot; step 4's
      deal gives a card its lowest free slot, which is the first seat in fill order that may
      hold it and has room (no free slot: the run fails).  Only a run that succeeds writes
      its hypothesis, turning slots back into seats.
    """
    np.random.seed(seed)
    out = np.empty((b, CARDS), dtype=np.int8)
    numbers = np.empty(b, dtype=np.int16)
    n = len(sizes)
    room_after_start = sizes.copy()
    for card in range(CARDS):
        if 0 <= start[card] < n:
            room_after_start[start[card]] -= 1
    listed = np.zeros(n, dtype=np.bool_)
    for seat in fill_order:
        if not 0 <= seat < n or listed[seat]:
            raise ValueError("fill_order: must list every seat once")
        listed[seat] = True
    if len(fill_order) != n:
        raise ValueError("fill_order: must list every seat once")
    seat_slots = np.zeros(n, dtype=np.int64)  # bit i: slot i is one of the seat's places
    slot_seat = np.zeros(SLOT_MODULUS, dtype=np.int8)  # by the slot's bit % SLOT_MODULUS
    slots = 0
    for k in range(n):
        seat = fill_order[k]
        for _ in range(room_after_start[seat]):
            if slots == SLOT_MODULUS - 1:
                raise ValueError("sizes: the hands have more than 36 places left to deal")
            seat_slots[seat] |= 1 << slots
            slot_seat[(1 << slots) % SLOT_MODULUS] = seat
            slots += 1
    card_slots = np.zeros(CARDS, dtype=np.int64)  # the slots of the seats that may hold it
    for card in range(CARDS):
        for seat in range(n):
            if not forbidden[seat, card]:
                card_slots[card] |= seat_slots[seat]
    answers = 0  # step 2's answers step 1 leaves unsatisfied, with their candidates
    answer_seat = np.empty(len(unseen_seats), dtype=np.int64)
    candidates = np.empty((len(unseen_seats), 3), dtype=np.int64)
    candidate_count = np.zeros(len(unseen_seats), dtype=np.int64)
    for j in range(len(unseen_seats)):
        seat = unseen_seats[j]
        held = False
        for t in range(3):
            card = unseen_cards[j, t]
            if start[card] == seat:
                held = True
            elif start[card] == -1 and not forbidden[seat, card]:
                candidates[answers, candidate_count[answers]] = card
                candidate_count[answers] += 1
        if held:
            candidate_count[answers] = 0
        else:
            answer_seat[answers] = seat
            answers += 1
    envelope_cards = np.empty((3, CARDS), dtype=np.int64)  # step 3's, by category drawn
    envelope_count = np.zeros(3, dtype=np.int64)
    envelope_mask = np.zeros(3, dtype=np.int64)
    for i in range(3):
        lo, hi = ENVELOPE_ORDER[i]
        for card in range(lo, hi):
            if start[card] == -1 and not forbidden[envelope, card]:
                envelope_cards[i, envelope_count[i]] = card
                envelope_count[i] += 1
                envelope_mask[i] |= 1 << card
    undealt = np.empty(CARDS, dtype=np.int64)  # step 4's cards, less a run's picks
    undealt_count = 0
    for card in range(CARDS):
        if start[card] == -1:
            undealt[undealt_count] = card
            undealt_count += 1
    taker = np.empty(CARDS, dtype=np.int64)  # the owner of each card a run picked
    picks = np.empty(len(unseen_seats) + 3, dtype=np.int64)  # a run's picks, in order
    free = np.empty(CARDS, dtype=np.int64)
    slot_taken = np.empty(CARDS, dtype=np.int64)  # the slot of step 4's i-th card
    kept = 0
    for _ in range(b):
        free_slots = (1 << slots) - 1
        picked = 0  # bit c: card c was picked by step 2 or 3 of this run
        npicks = 0
        ok = True
        for a in range(answers):  # step 2
            seat = answer_seat[a]
            held = False
            nfree = 0
            for t in range(candidate_count[a]):
                card = candidates[a, t]
                if picked >> card & 1:
                    held |= taker[card] == seat
                else:
                    free[nfree] = card
                    nfree += 1
            if held:
                continue
            room = seat_slots[seat] & free_slots
            if nfree == 0 or room == 0:
                ok = False
                break
            card = free[np.random.randint(0, nfree)]
            picked |= 1 << card
            taker[card] = seat
            picks[npicks] = card
            npicks += 1
            free_slots ^= room & -room
        if not ok:
            continue
        number = 0
        for i in range(3):  # step 3
            if picked & envelope_mask[i] == 0:  # step 2 left the category's cards alone
                nfree = envelope_count[i]
                if nfree == 0:
                    ok = False
                    break
                card = envelope_cards[i, np.random.randint(0, nfree)]
            else:
                nfree = 0
                for e in range(envelope_count[i]):
                    card = envelope_cards[i, e]
                    free[nfree] = card
                    nfree += 1 - (picked >> card & 1)
                if nfree == 0:
                    ok = False
                    break
                card = free[np.random.randint(0, nfree)]
            picked |= 1 << card
            taker[card] = envelope
            picks[npicks] = card
            npicks += 1
            number += ENVELOPE_WEIGHTS[i] * (card - ENVELOPE_ORDER[i][0])
        if not ok:
            continue
        nfree = 0  # step 4: the undealt cards, shuffled
        for u in range(undealt_count):
            free[nfree] = undealt[u]
            nfree += 1 - (picked >> undealt[u] & 1)
        for i in range(nfree - 1, 0, -1):
            j = np.random.randint(0, i + 1)
            free[i], free[j] = free[j], free[i]
        for x in wrong:  # step 5
            if number == x:
                ok = False
        if not ok:
            continue
        for i in range(nfree):  # step 4's deal
            fits = card_slots[free[i]] & free_slots
            if fits == 0:
                ok = False
                break
            slot_taken[i] = fits & -fits
            free_slots ^= slot_taken[i]
        if ok:
            own = out[kept]
            own[:] = start
            for p in range(npicks):
                own[picks[p]] = taker[picks[p]]
            for i in range(nfree):
                own[free[i]] = slot_seat[slot_taken[i] % SLOT_MODULUS]
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
