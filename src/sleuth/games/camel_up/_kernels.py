"""Compiled kernels of the exact Camel Up odds (Numba when installed, plain Python otherwise).

This module imports no rule constant from Sleuth on purpose: Numba's on-disk cache is keyed on
this file alone (:mod:`sleuth.core.compiled`), so every rule constant a kernel uses is defined
here (a test checks them against :mod:`sleuth.games.camel_up.track`).  Without Numba the
decorator is the identity and the same functions run as ordinary Python (slowly, but with
identical results).

Data layout shared by the kernels:

* An arrangement is two int64 arrays ``pos`` and ``cam`` of length ``n`` (5 racing camels, plus
  the 2 crazy camels in the 2nd edition) in reading order (C4): positions non-decreasing, a
  stack listed bottom to top.  ``pos[i] * 8 + cam[i]`` is :mod:`~sleuth.games.camel_up.track`'s
  code.
* A pyramid is a bitmask: bit ``c`` for racing camel ``c``'s die, bit 5 for the grey die.
* A live (unfinished) state packs into one int64 key: code ``i`` (7 bits) at bit ``7 * i`` and
  the pyramid above the codes, at bit ``7 * n`` (at most 55 bits in all).
* Desert tiles are an int64 array of length 16: ``tiles[t]`` is +1 (oasis), −1 (mirage) or 0.
* A canonical start-of-leg shape of the whole-game table is a non-decreasing 5-tuple of indices
  0..15, labelled by reading order (label j = j-th camel from the back); its rank is the colex
  rank of the strictly increasing tuple ``p[j] + j`` among the 5-subsets of 0..19.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from sleuth.core.compiled import COMPILED as COMPILED
from sleuth.core.compiled import kernel

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


TRACK_LENGTH = 16
RACERS = 5
WHITE = 5
BLACK = 6
GREY = 5
"""The grey die's bit in a pyramid mask."""
OASIS = 1
HASH = 0x5BD1E995
"""The odd multiplier of the layer's hash table (an int64 for Numba, whose products wrap)."""


@kernel
def popcount(mask: int) -> int:
    """The number of set bits of a small non-negative int."""
    count = 0
    while mask:
        count += mask & 1
        mask >>= 1
    return count


@kernel
def move(
    pos: Ints, cam: Ints, n: int, camel: int, steps: int, tiles: Ints, out_pos: Ints, out_cam: Ints
) -> tuple[int, bool]:
    """:func:`sleuth.games.camel_up.track.move` on arrays: writes the new arrangement into
    ``out_pos``/``out_cam`` and returns (tile index hit or −1, whether the unit finished)."""
    k = 0
    while cam[k] != camel:
        k += 1
    start = pos[k]
    end = k + 1
    while end < n and pos[end] == start:
        end += 1
    forward = camel < RACERS
    target = start + steps if forward else start - steps
    tile = -1
    on_top = True
    if 0 <= target < TRACK_LENGTH and tiles[target] != 0:
        side = tiles[target]
        tile = target
        target += side if forward else -side
        on_top = side == OASIS
    w = 0
    placed = False
    for j in range(n):
        if k <= j < end:
            continue
        if not placed and (pos[j] > target if on_top else pos[j] >= target):
            for u in range(k, end):
                out_pos[w] = target
                out_cam[w] = cam[u]
                w += 1
            placed = True
        out_pos[w] = pos[j]
        out_cam[w] = cam[j]
        w += 1
    if not placed:
        for u in range(k, end):
            out_pos[w] = target
            out_cam[w] = cam[u]
            w += 1
    return tile, target >= TRACK_LENGTH or target < 0


@kernel
def crazy_to_move(pos: Ints, cam: Ints, n: int, face: int) -> int:
    """:func:`sleuth.games.camel_up.track.crazy_to_move` on arrays (E5)."""
    carriers = 0
    carrier = -1
    white = -1
    black = -1
    for i in range(n):
        camel = cam[i]
        if camel >= RACERS:
            if camel == WHITE:
                white = i
            else:
                black = i
            j = i + 1
            while j < n and pos[j] == pos[i]:
                if cam[j] < RACERS:
                    carriers += 1
                    carrier = camel
                    break
                j += 1
    if carriers == 1:
        return carrier
    if white >= 0 and black >= 0:
        low = min(white, black)
        high = max(white, black)
        if high == low + 1 and pos[low] == pos[high]:
            return int(cam[high])
    return face


@kernel
def pack(pos: Ints, cam: Ints, n: int, mask: int) -> int:
    """The key of a live state (see the module docstring)."""
    key = mask
    for i in range(n - 1, -1, -1):
        key = (key << 7) | (pos[i] * 8 + cam[i])
    return int(key)


@kernel
def unpack(key: int, n: int, pos: Ints, cam: Ints) -> int:
    """Write the arrangement of ``key`` into ``pos``/``cam``; return its pyramid."""
    for i in range(n):
        code = key & 127
        pos[i] = code >> 3
        cam[i] = code & 7
        key >>= 7
    return key


@kernel
def choose(n: int, k: int) -> int:
    """The binomial coefficient C(n, k) (0 when n < k)."""
    if n < k:
        return 0
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


@kernel
def shape_rank(p: Ints) -> int:
    """The rank of a canonical shape (non-decreasing 5 indices in 0..15), in 0..15503."""
    rank = 0
    for j in range(5):
        rank += choose(p[j] + j, j + 1)
    return rank


@kernel
def _score_leaf(
    pos: Ints,
    cam: Ints,
    n: int,
    weight: int,
    first: Ints,
    second: Ints,
) -> tuple[int, int]:
    """Add ``weight`` to the leg's 1st and 2nd camel; return (leader, loser)."""
    leader = -1
    runner_up = -1
    loser = -1
    for i in range(n):
        camel = cam[i]
        if camel < RACERS:
            if loser < 0:
                loser = camel
            runner_up = leader
            leader = camel
    first[leader] += weight
    second[runner_up] += weight
    return leader, loser


@kernel
def enumerate_leg(
    pos0: Ints,
    cam0: Ints,
    mask0: int,
    draws: int,
    tiles: Ints,
    table: Floats,
) -> tuple[int, Ints, Ints, Ints, Ints, Floats, int, Ints, Ints, Ints]:
    """The rest of a leg, exactly: ``draws`` more dice from the pyramid ``mask0``.

    Layer d holds the live states after d draws, merged on their key (arrangement, pyramid)
    in an open-addressing hash table, in order of first appearance, with integer weights over
    a common ``denominator`` (every die drawn from r left weighs 1/r, a racing value 1/3, a
    grey face 1/6).  A move that finishes the race is a terminal leaf and is not expanded.  If
    ``table`` has rows (the whole-game table, 1st edition), each leaf that completes the leg
    adds its weight times the table's (winner, loser) distribution of the next leg's shape to
    ``joint``, relabelled to camel ids.

    Returns ``(denominator, first, second, endings, hits, joint, leaves, sizes, keys,
    weights)``: weights of the leg's 1st and 2nd camel (5,), of the game-ending leaves by
    (winner, loser) (5, 5), of the landings on each tile index (16,), ``joint`` (5, 5, float,
    not divided by the denominator, completed leaves only), the number of unmerged leaf paths,
    the merged size of each layer (draws + 1,), and the last layer's keys and weights.
    """
    n = pos0.shape[0]
    r0 = popcount(mask0)
    denominator = 1
    for d in range(draws):
        denominator *= (r0 - d) * 3
    if (mask0 >> GREY) & 1:
        denominator *= 2
    first = np.zeros(RACERS, np.int64)
    second = np.zeros(RACERS, np.int64)
    endings = np.zeros((RACERS, RACERS), np.int64)
    hits = np.zeros(TRACK_LENGTH, np.int64)
    joint = np.zeros((RACERS, RACERS), np.float64)
    sizes = np.zeros(draws + 1, np.int64)
    keys = np.empty(1, np.int64)
    weights = np.empty(1, np.int64)
    paths = np.empty(1, np.int64)
    keys[0] = pack(pos0, cam0, n, mask0)
    weights[0] = denominator
    paths[0] = 1
    sizes[0] = 1
    leaves = 0
    pos = np.empty(n, np.int64)
    cam = np.empty(n, np.int64)
    new_pos = np.empty(n, np.int64)
    new_cam = np.empty(n, np.int64)
    for depth in range(draws):
        r = r0 - depth
        bound = keys.shape[0] * r * 6
        capacity = 1
        while capacity < 2 * bound:
            capacity <<= 1
        slots = np.full(capacity, -1, np.int64)
        new_keys = np.empty(bound, np.int64)
        new_weights = np.empty(bound, np.int64)
        new_paths = np.empty(bound, np.int64)
        size = 0
        for s in range(keys.shape[0]):
            mask = unpack(keys[s], n, pos, cam)
            for die in range(6):
                if not (mask >> die) & 1:
                    continue
                faces = 6 if die == GREY else 3
                weight = weights[s] // (r * faces)
                for face in range(faces):
                    camel = die
                    if die == GREY:
                        camel = crazy_to_move(pos, cam, n, WHITE if face < 3 else BLACK)
                    tile, finished = move(pos, cam, n, camel, face % 3 + 1, tiles, new_pos, new_cam)
                    if tile >= 0:
                        hits[tile] += weight
                    if finished:
                        leader, loser = _score_leaf(new_pos, new_cam, n, weight, first, second)
                        endings[leader, loser] += weight
                        leaves += paths[s]
                        continue
                    key = pack(new_pos, new_cam, n, mask & ~(1 << die))
                    h = (((key ^ (key >> 31)) * HASH) >> 15) & (capacity - 1)
                    while slots[h] >= 0 and new_keys[slots[h]] != key:
                        h = (h + 1) & (capacity - 1)
                    if slots[h] < 0:
                        slots[h] = size
                        new_keys[size] = key
                        new_weights[size] = weight
                        new_paths[size] = paths[s]
                        size += 1
                    else:
                        new_weights[slots[h]] += weight
                        new_paths[slots[h]] += paths[s]
        keys = new_keys[:size]
        weights = new_weights[:size]
        paths = new_paths[:size]
        sizes[depth + 1] = size
    shape = np.empty(RACERS, np.int64)
    label = np.empty(RACERS, np.int64)
    for s in range(keys.shape[0]):
        unpack(keys[s], n, pos, cam)
        _score_leaf(pos, cam, n, weights[s], first, second)
        leaves += paths[s]
        if table.shape[0] > 0:
            j = 0
            for i in range(n):
                if cam[i] < RACERS:
                    shape[j] = pos[i]
                    label[j] = cam[i]
                    j += 1
            row = table[shape_rank(shape)]
            for a in range(RACERS):
                for b in range(RACERS):
                    joint[label[a], label[b]] += weights[s] * row[a, b]
    return denominator, first, second, endings, hits, joint, leaves, sizes, keys, weights
