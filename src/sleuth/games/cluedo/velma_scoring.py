"""Velma's scores: the expected entropy left after a suggestion, and remoteness in throws.

**Expected posterior entropy** (nats) of the 324 envelopes, over a pool of hypotheses (each
counted once, as Velma counts them).  For a suggestion, each hypothesis has an answer: the
first seat clockwise from the suggester holding any of the three cards, and which of them it
holds, else no answer.  After "seat p showed card c" the pool keeps the hypotheses where p
answers first and holds c; its envelope entropy is H(p, c).  The responder is adversarial:
each seat p prefers to show the card with the highest H(p, c) among those it holds (its
preference order is by H, highest first).  The expected entropy is the average, over the
pool, of the entropy after the answer each hypothesis gives under those preferences (no
answer: the entropy of the hypotheses with no answer).  :func:`room_analysis` scores the 36
suggestions of a room at once, vectorised over the pool.

Each score comes with Velma's expected room distribution after the suggestion: the room
counts after each answer, weighted by how many hypotheses give that answer, normalised (the
original program's formula, which weighs each answer by its count twice).

**Remoteness** (M10 with Velma's own table): expected throws of two dice to cover d squares
are :data:`THROWS` for d = 1..10 and (d + 3.5)/7 beyond; room-to-room spans are the shortest
routes through rooms with those costs and 1 for a secret passage (:data:`ROOM_SPANS`);
:func:`spans_from` gives them from any position.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from sleuth.games.cluedo import _velma_kernels as kernels
from sleuth.games.cluedo.cards import ROOMS, SUSPECTS, WEAPONS
from sleuth.games.cluedo.movement import (
    PASSAGES,
    ROOM_DISTANCES,
    START_DISTANCES,
    AtStart,
    InRoom,
    Position,
    distance,
)
from sleuth.games.cluedo.velma_hypotheses import Envelopes, Owners

Floats = npt.NDArray[np.float64]

THROWS = (0.0, 1.0, 1.0, 1.028, 1.083, 1.165, 1.282, 1.428, 1.610, 1.774, 1.932)
"""Velma's expected throws of two dice to cover d = 0..10 squares."""
_R = ROOMS.start
_BITS = (1, 2, 4)
"""A hypothesis's answer bin: bit 1 the suspect, 2 the room, 4 the weapon (as the original)."""
_CHUNK = 1 << 16
"""Hypotheses histogrammed at a time by NumPy (bounds the memory of a room's analysis)."""
_BINS_WITH = [[b for b in range(1, 8) if b & bit] for bit in _BITS]


def throws(d: int) -> float:
    """Velma's expected number of throws to cover ``d`` squares."""
    if d <= 0:
        return 0.0
    return THROWS[d] if d < len(THROWS) else (d + 3.5) / 7


@cache
def _room_spans() -> tuple[tuple[float, ...], ...]:
    n = len(ROOMS)
    spans = [[throws(ROOM_DISTANCES[a][b]) for b in range(n)] for a in range(n)]
    for a, b in PASSAGES.items():
        spans[a - _R][b - _R] = min(spans[a - _R][b - _R], 1.0)
    for k in range(n):
        for a in range(n):
            for b in range(n):
                spans[a][b] = min(spans[a][b], spans[a][k] + spans[k][b])
    return tuple(tuple(row) for row in spans)


ROOM_SPANS: Floats = np.array(_room_spans())
"""Expected throws from room to room (rows and columns in room order), through rooms."""


def spans_from(position: Position, retarget: bool = False) -> Floats:
    """Expected throws from ``position`` into each room: the best first leg (the squares the
    token may head for, as :func:`~sleuth.games.cluedo.movement.reachable` allows) and then
    :data:`ROOM_SPANS`."""
    spans: Floats
    if isinstance(position, InRoom):
        spans = ROOM_SPANS[position.room - _R]
    elif isinstance(position, AtStart):
        legs = np.array([throws(d) for d in START_DISTANCES[position.suspect]])
        spans = (legs[:, None] + ROOM_SPANS).min(0)
    else:
        spans = throws(position.left) + ROOM_SPANS[position.target - _R]
        if retarget:
            hops = [position.walked + distance(position.origin, r) for r in ROOMS]
            legs = np.array([throws(d) for d in hops])
            spans = np.minimum(spans, (legs[:, None] + ROOM_SPANS).min(0))
    return spans


def entropy(counts: Floats) -> Floats:
    """Shannon entropy (nats) of the counts along the last axis, normalised (0 ln 0 = 0; an
    empty row has entropy 0)."""
    total = counts.sum(-1, keepdims=True)
    positive = counts > 0
    p = np.where(positive, counts / np.where(total > 0, total, 1), 1.0)
    h: Floats = -(np.where(positive, p * np.log(p), 0.0)).sum(-1)
    return h


def answer_order(owners: Owners, seat: int, players: int) -> npt.NDArray[np.uint8]:
    """For each hypothesis and card, how many seats clockwise after ``seat`` its holder sits
    (1..players-1), or ``players`` when no one would show it (``seat`` itself, the envelope,
    the table): looked up by owner code, ``0 .. players + 1``."""
    codes = np.arange(players + 2)
    answers = (codes < players) & (codes != seat)
    by_code = np.where(answers, (codes - seat) % players, players).astype(np.uint8)
    order: npt.NDArray[np.uint8] = np.take(by_code, owners.view(np.uint8))
    return order


def room_analysis(
    order: npt.NDArray[np.uint8], envelopes: Envelopes, players: int, room: int
) -> tuple[Floats, Floats]:
    """The expected entropy ``[6, 6]`` and expected room distribution ``[6, 6, 9]`` after each
    suggestion (suspect, weapon) in ``room``, by suspect then weapon, over the pool given by
    :func:`answer_order` and its envelopes."""
    slots = (players - 1) * 8 + 1
    counts = answer_counts(order, envelopes, players, room, slots)
    hist = counts.astype(np.float64).reshape(6, 6, slots, 324)
    answered = hist[:, :, :-1].reshape(6, 6, players - 1, 8, 324)
    none = hist[:, :, -1]
    after = np.stack([answered[..., b, :].sum(-2) for b in _BINS_WITH], axis=-2)
    h_after = entropy(after)  # [6, 6, p, card]
    in_bin = answered.sum(-1)  # [6, 6, p, bin]
    received = _received(h_after, in_bin)
    none_count = none.sum(-1)
    expected = (entropy(none) * none_count + (h_after * received).sum((-1, -2))) / len(envelopes)
    rooms_after = after.reshape(*after.shape[:-1], 36, 9).sum(-2)
    rooms = none.reshape(6, 6, 36, 9).sum(-2) * none_count[..., None]
    rooms = rooms + (rooms_after * received[..., None]).sum((-2, -3))
    return expected, rooms / rooms.sum(-1, keepdims=True)


def answer_counts(
    order: npt.NDArray[np.uint8], envelopes: Envelopes, players: int, room: int, slots: int
) -> npt.NDArray[np.int64]:
    """How many hypotheses of the pool give each answer to each suggestion in ``room``, by
    (suspect, weapon, answer slot, envelope), flat: the answer slot is ``8 (p - 1) + bin`` for
    the p-th seat clockwise answering with the cards of ``bin``, or ``slots - 1`` for no
    answer.  Counted by :func:`~._velma_kernels.histogram` when Numba is there, else by
    :func:`_histogram` a chunk of the pool at a time (the same counts)."""
    if kernels.COMPILED:
        counts: npt.NDArray[np.int64] = kernels.histogram(order, envelopes, players, room, slots)
        return counts
    counts = np.zeros(36 * slots * 324, dtype=np.int64)
    for start in range(0, len(envelopes), _CHUNK):
        part = slice(start, start + _CHUNK)
        counts += _histogram(order[part], envelopes[part], players, room, slots)
    return counts


def _histogram(
    order: npt.NDArray[np.uint8], envelopes: Envelopes, players: int, room: int, slots: int
) -> npt.NDArray[np.int64]:
    """:func:`answer_counts` for a part of the pool, vectorised with NumPy."""
    suspects = order[:, SUSPECTS.start : SUSPECTS.stop, None]
    weapons = order[:, None, WEAPONS.start : WEAPONS.stop]
    here = order[:, room, None, None]
    first = np.minimum(np.minimum(suspects, weapons), here)
    bins = (suspects == first) | ((here == first) << 1) | ((weapons == first) << 2)
    key = np.where(first == players, slots - 1, (first.astype(np.int32) - 1) * 8 + bins)
    key += (np.arange(36, dtype=np.int32) * slots).reshape(6, 6)
    flat = key.astype(np.intp) * 324 + envelopes[:, None, None]
    return np.bincount(flat.ravel(), minlength=36 * slots * 324)


def _received(h_after: Floats, in_bin: Floats) -> Floats:
    """How many hypotheses make each seat show each card when it shows, of the cards it
    holds, the one its preference order (highest entropy after showing it) ranks first."""
    preference = np.argsort(h_after, axis=-1, kind="stable")[..., ::-1]
    best, second = preference[..., 0], preference[..., 1]
    received = np.zeros_like(h_after)
    for card, single in enumerate(_BITS):
        received[..., card] += in_bin[..., single]
    cards = np.arange(3)
    received += (cards == best[..., None]) * in_bin[..., 7, None]
    for both in (3, 5, 6):
        shows = np.where((both >> best) & 1, best, second)
        received += (cards == shows[..., None]) * in_bin[..., both, None]
    return received
