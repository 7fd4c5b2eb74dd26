"""The race track: camel arrangements, movement and ranking (rules K14-K20, E3-E8).

An *arrangement* is a tuple of ints in reading order (C4): camels sorted by (index, height),
bottom of the rearmost stack first, leader last.  Each element is ``index * 8 + camel`` with
``camel`` in 0..7 (racing camels 0..4, crazy camels 5 and 6) and ``index`` the track index
(space − 1).  Decoding is ``code >> 3`` and ``code & 7``; both work for the negative index of
a crazy unit that crossed the finish line backwards.

Invariants of every arrangement:

* the indices are non-decreasing along the tuple, and every camel occurs once;
* a stack is a maximal run of equal indices, listed bottom to top;
* racing camels sit on 0..15 until one finishes (index ≥ 16, and then the race is over), crazy
  camels on 0..15 until one finishes at a negative index.

Desert (spectator) tiles are given as a mapping ``index -> side`` with ``OASIS`` (+1, cheering)
or ``MIRAGE`` (−1, booing).  Arrangements are plain tuples so that the odds module can use them
as dictionary keys and merge equal states.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

TRACK_LENGTH = 16
"""Indices 0..15; a racing unit whose target is ≥ 16 finishes (K15)."""
OASIS = 1
MIRAGE = -1
RACERS = 5
"""Racing camels have ids 0..4."""
CRAZY = (5, 6)
"""The 2nd edition's crazy camels: white (5) and black (6)."""

GREY_DIE = 5
"""The 2nd edition's grey die in a pyramid bitmask (bit c, c = 0..4, is racing camel c's die)."""
DICE = tuple(tuple(d for d in range(GREY_DIE + 1) if mask >> d & 1) for mask in range(64))
"""The dice of each pyramid bitmask, in increasing order."""

Arrangement = tuple[int, ...]


class Landing(NamedTuple):
    """The result of one move: the new arrangement, the tile index hit (or −1), whether the
    moving unit crossed the finish line (which ends the game, K25 and E8), and the index the
    unit left and the one it ended on (< 0 or ≥ 16 after a finish)."""

    arrangement: Arrangement
    tile: int
    finished: bool
    start: int
    end: int


def arrangement(stacks: Mapping[int, Sequence[int]]) -> Arrangement:
    """The arrangement of ``{index: [camel, ...]}`` (stacks listed bottom to top)."""
    return tuple(index * 8 + camel for index in sorted(stacks) for camel in stacks[index])


def stacks(order: Arrangement) -> dict[int, list[int]]:
    """``{index: [camel, ...]}`` (bottom to top) of an arrangement, ordered by index."""
    out: dict[int, list[int]] = {}
    for code in order:
        out.setdefault(code >> 3, []).append(code & 7)
    return out


def tile_blocks(indices: Iterable[int]) -> int:
    """Bitmask of the track indices on or next to the tiles at ``indices`` (K9)."""
    blocked = 0
    for index in indices:
        blocked |= 7 << (index - 1)
    return blocked


def move(
    order: Arrangement,
    camel: int,
    steps: int,
    tiles: Mapping[int, int],
) -> Landing:
    """Move ``camel`` and everything above it ``steps`` spaces (K14-K19; E4, E6 for crazy camels).

    Racing camels (0..4) move forward, crazy camels (5, 6) backwards.  A unit lands on top of
    the camels at its target; a tile there pays its owner (the caller does that, from
    ``Landing.tile``) and shifts the unit one step: an oasis (cheering) one more step in the
    direction of travel, on top; a mirage (booing) one step back against it, *underneath* the
    camels there (K18's bounce-back under the camels it left is this rule with a die of 1).
    """
    k = 0
    while order[k] & 7 != camel:
        k += 1
    start = order[k] >> 3
    end = k + 1
    size = len(order)
    while end < size and order[end] >> 3 == start:
        end += 1
    rest = order[:k] + order[end:]
    forward = camel < RACERS
    target = start + steps if forward else start - steps
    tile = -1
    on_top = True
    side = tiles.get(target, 0) if tiles else 0
    if side:
        tile = target
        step = side if forward else -side
        target += step
        on_top = side == OASIS
    shift = (target - start) * 8
    unit = (order[k] + shift,) if end == k + 1 else tuple([c + shift for c in order[k:end]])
    # Insert before the first camel further ahead (on top) or at least as far (underneath).
    pos = 0
    size = len(rest)
    if on_top:
        while pos < size and rest[pos] >> 3 <= target:
            pos += 1
    else:
        while pos < size and rest[pos] >> 3 < target:
            pos += 1
    finished = target >= TRACK_LENGTH or target < 0
    return Landing(rest[:pos] + unit + rest[pos:], tile, finished, start, target)


def racing_order(order: Arrangement) -> tuple[int, ...]:
    """The racing camels from last to first (K20), crazy camels left out (E3).

    After a crazy finish (E8) the racing camels it carried sit at a negative index and so count
    as the least advanced, the lower one further behind.
    """
    return tuple(code & 7 for code in order if code & 7 < RACERS)


def crazy_to_move(order: Arrangement, face: int) -> int:
    """Which crazy camel the grey die moves (E5), given the colour ``face`` (5 or 6) it shows.

    1. if exactly one crazy camel carries at least one racing camel (anywhere above it), that one;
    2. otherwise, if one crazy camel sits directly on the other, the upper one;
    3. otherwise the face's colour.
    """
    carrying = []
    position: dict[int, int] = {}
    for i, code in enumerate(order):
        camel = code & 7
        if camel >= RACERS:
            position[camel] = i
            j = i + 1
            while j < len(order) and order[j] >> 3 == code >> 3:
                if order[j] & 7 < RACERS:
                    carrying.append(camel)
                    break
                j += 1
    if len(carrying) == 1:
        return carrying[0]
    white, black = CRAZY
    if white in position and black in position:
        low, high = sorted((position[white], position[black]))
        if high == low + 1 and order[low] >> 3 == order[high] >> 3:
            return order[high] & 7
    return face
