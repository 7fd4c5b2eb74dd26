"""Sets of small non-negative integers (holes, cards, stations) as ``int`` bitsets."""

from __future__ import annotations

from collections.abc import Iterable


def members(mask: int) -> list[int]:
    """The members of a bitset, in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(items: Iterable[int]) -> int:
    """The bitset of ``items``."""
    mask = 0
    for i in items:
        mask |= 1 << i
    return mask
