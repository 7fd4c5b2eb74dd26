"""Sprint cards by type: the stack compositions the exact belief's programme chooses among.

A sprint card's *type* is ``2 * pile + (value - 1)``: its pile (0 for the start hand, then 1-3)
and its sprint value (1 or 2 footprints).  Within a type cards are interchangeable for the
count, so a hidden stack is a *composition*, a count of cards per type; the programme weighs
each by its orderings and reads its footprints and its cards per pile (see
:mod:`~sleuth.games.fugitive.belief`).
"""

from __future__ import annotations

from functools import cache, lru_cache
from math import factorial

import numpy as np
import numpy.typing as npt

from sleuth.games.fugitive.engine.cards import LAST, PILE_OF, SPRINT, pile_of

TYPES = 8
"""Sprint cards are counted by type, ``2 * pile + (value - 1)``: pile 0 (the start hand) to 3,
sprint value 1 or 2."""


def card_type(card: int) -> int:
    """The sprint type of a card 1-41."""
    return 2 * pile_of(card) + SPRINT[card] - 1


TYPE_OF = tuple(card_type(c) if 0 < c < LAST else -1 for c in range(LAST + 1))
CARDS_OF_TYPE = tuple(TYPE_OF.count(t) for t in range(TYPES))
"""Cards 1-41 of each sprint type."""


@cache
def composition(counts: tuple[int, ...]) -> tuple[int, int, tuple[int, int, int]]:
    """For a stack with ``counts[t]`` sprint cards of type ``t``: its orderings up to the order
    within a type (k! / prod n_t!), its footprints, and its cards from piles 1, 2 and 3."""
    weight = factorial(sum(counts))
    footprints = 0
    for t, n in enumerate(counts):
        if n:
            weight //= factorial(n)
            footprints += n * (t % 2 + 1)
    per_pile = (counts[2] + counts[3], counts[4] + counts[5], counts[6] + counts[7])
    return weight, footprints, per_pile


@cache
def stack_facts(stack: tuple[int, ...]) -> tuple[int, int, int, int]:
    """A revealed stack's cards from piles 1, 2 and 3, and its footprints."""
    per_pile = [0, 0, 0, 0]
    for card in stack:
        per_pile[PILE_OF[card]] += 1
    return per_pile[1], per_pile[2], per_pile[3], sum(SPRINT[card] for card in stack)


@cache
def _composition_arrays(
    sprints: int, free: tuple[int, ...], draws: tuple[int, int, int]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every stack composition of ``sprints`` cards within ``free`` and the draws, as arrays
    for the compiled programme: cards per type, orderings (:func:`composition`), footprints."""
    rows = type_counts(sprints, list(free), [sprints, *draws])
    facts = [composition(counts)[:2] for counts in rows]
    return (
        np.array(rows, dtype=np.int64).reshape(len(rows), TYPES),
        np.array([w for w, _ in facts], dtype=np.int64),
        np.array([fp for _, fp in facts], dtype=np.int64),
    )


@lru_cache(maxsize=4096)
def route_compositions(
    stacks: tuple[tuple[int, tuple[int, int, int]], ...], free: tuple[int, ...]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], tuple[int, ...]]:
    """:func:`_composition_arrays` of every face-down stack (sprint cards, draws), in route
    order, concatenated; and how many compositions each stack has."""
    blocks = [_composition_arrays(sprints, free, draws) for sprints, draws in stacks]
    if not blocks:
        return (np.zeros((0, TYPES), np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), ())
    return (
        np.concatenate([b[0] for b in blocks]),
        np.concatenate([b[1] for b in blocks]),
        np.concatenate([b[2] for b in blocks]),
        tuple(len(b[1]) for b in blocks),
    )


def type_counts(total: int, room: list[int], draws: list[int]) -> tuple[tuple[int, ...], ...]:
    """Every count of sprint cards per type summing to ``total``, with at most ``room[t]`` of
    type ``t`` and at most ``draws[p]`` from pile ``p`` (pile 0 is the start hand)."""
    return _bounded_counts(
        total, tuple(min(r, total) for r in room), tuple(min(d, total) for d in draws)
    )


@cache
def _bounded_counts(
    total: int, room: tuple[int, ...], draws: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    found: list[tuple[int, ...]] = []
    counts = [0] * TYPES

    def fill(t: int, left: int) -> None:
        if t == TYPES:
            if left == 0:
                found.append(tuple(counts))
            return
        cap = min(left, room[t], draws[t // 2] - (counts[t - 1] if t % 2 else 0))
        for n in range(max(cap, -1) + 1):
            counts[t] = n
            fill(t + 1, left - n)
        counts[t] = 0

    fill(0, total)
    return tuple(found)
