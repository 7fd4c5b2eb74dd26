"""A fox walk that dodges every inspection (rule A4), read back from the evening beliefs.

Below the rules and the belief: the rules emit the walk when a game ends (the ``fox_path``
event), and the belief and the assistant show one."""

from __future__ import annotations

import random
from collections.abc import Sequence

from sleuth.games.fox.graph import FoxGraph, holes_of


def reconstruct_path(
    graph: FoxGraph,
    evenings: Sequence[int],
    lazy: bool = False,
    rng: random.Random | None = None,
    final: int | None = None,
) -> list[int]:
    """A fox walk ``x_1..x_t`` with ``x_i`` in ``evenings[i-1]`` (rule A4), backwards.

    ``evenings`` are the evening beliefs A_1..A_t, all non-empty.  With ``final`` (a set of
    holes where the fox was found on day t+1), the walk is extended by one hole of ``final``
    adjacent to its end.  Picks the lowest hole each time, or a random one with ``rng``.
    Pure: the inputs are not modified.
    """
    sets = list(evenings) + ([final] if final is not None else [])
    if not sets:
        return []
    if any(s == 0 for s in sets):
        raise ValueError("every belief on a fox path must be non-empty")

    def pick(mask: int) -> int:
        holes = holes_of(mask)
        return rng.choice(holes) if rng is not None else holes[0]

    walk = [pick(sets[-1])]
    for evening in reversed(sets[:-1]):
        here = walk[-1]
        reachable = graph.neighbours[here] | ((1 << here) if lazy else 0)
        candidates = evening & reachable
        if not candidates:
            raise ValueError(f"beliefs are not consistent: no step reaches hole {here}")
        walk.append(pick(candidates))
    walk.reverse()
    return walk
