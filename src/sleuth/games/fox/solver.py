"""The exact solver (rule A5): fewest days to guarantee a catch, or a proof that none exists.

Breadth-first search over the hunter's morning beliefs (bitsets).  From a belief ``B`` with more
than ``k`` holes, inspecting a k-subset ``K`` of ``B`` leads to ``night(B \\ K)``; a belief with
at most ``k`` holes is won by inspecting all of it.  Subsets of ``B`` of size exactly ``k``
suffice because ``night`` is monotone (a smaller belief is never worse).

* Winnable: the first belief with ``|B| <= k`` found at depth ``d`` gives ``days = d`` and, via
  parent links, one shortest inspection sequence (deterministic: moves in a fixed order).
* Unwinnable: the set of beliefs visited is a certificate: it contains the start, every member
  has more than ``k`` holes, and every move from a member leads to a member
  (:func:`check_certificate` verifies this independently).

Cost: at most ``2^n`` beliefs times ``C(n, k)`` moves; ``max_states`` bounds the work and
raises :class:`~sleuth.core.errors.SolverLimitError` instead of running on.  Before searching,
the one-belief certificate ``{start}`` is tried (it settles cycles, most graphs with cycles, and
the lazy fox at once).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from sleuth.core.errors import SolverLimitError
from sleuth.games.fox.graph import FoxGraph, holes_of

DEFAULT_MAX_STATES = 2_000_000
DEFAULT_MAX_SECONDS = 30.0
"""Wall-clock budget of one solve; beyond it ``SolverLimitError`` is raised (never a hang)."""
PRUNE_MAX_HOLES = 24
"""Boards up to this size skip beliefs that contain an earlier belief (a 2^n table)."""
PRUNE_AFTER_STATES = 4096
"""The superset table is built only once the search has met this many beliefs."""


@dataclass(frozen=True)
class Solution:
    """The answer of :func:`solve`.

    ``strategy`` lists the holes inspected each day (sorted); it is ``None`` when the game
    cannot be won, and then ``certificate`` holds a family of beliefs proving it.
    """

    winnable: bool
    days: int | None
    strategy: tuple[tuple[int, ...], ...] | None
    states_explored: int
    certificate: frozenset[int] | None = None


def _moves(belief: int, k: int) -> Iterator[int]:
    """Every k-subset of ``belief`` as a bitset, in a fixed order (used by the checker)."""
    bits = [1 << h for h in holes_of(belief)]
    for combo in combinations(bits, k):
        yield sum(combo)


def useful_moves(graph: FoxGraph, belief: int, k: int, lazy: bool) -> list[int]:
    """Inspections of ``belief`` whose outcomes dominate those of every k-subset.

    A hole ``w`` drops out of ``night(B \\ K)`` exactly when all its *supporters* (the holes of
    ``B`` from which the fox can reach ``w``) are inspected, so only unions of supporter sets of
    at most ``k`` holes matter.  The maximal such unions, padded to ``min(k, |B|)`` holes with the
    lowest other holes of ``B``, give next beliefs that are subsets of the next belief of any
    other move; by monotonicity no other move can be better.
    """
    neighbours = graph.neighbours
    supports: dict[int, None] = {}
    for w in holes_of(graph.night(belief, lazy)):
        support = neighbours[w] & belief
        if lazy:
            support |= belief & (1 << w)
        if support.bit_count() <= k:
            supports[support] = None
    unions = {0}
    for support in supports:
        for union in list(unions):
            merged = union | support
            if merged != union and merged.bit_count() <= k:
                unions.add(merged)
    size = min(k, belief.bit_count())
    moves = []
    for union in sorted(unions):
        if union.bit_count() < k and any(
            s & ~union and (s | union).bit_count() <= k for s in supports
        ):
            continue  # not maximal
        spare = belief & ~union
        while union.bit_count() < size:
            low = spare & -spare
            union |= low
            spare ^= low
        moves.append(union)
    return moves


def solve(
    graph: FoxGraph,
    k: int = 1,
    lazy: bool = False,
    start: int | None = None,
    max_states: int = DEFAULT_MAX_STATES,
    max_seconds: float | None = DEFAULT_MAX_SECONDS,
) -> Solution:
    """Solve Fox in a Hole on ``graph`` from morning belief ``start`` (default: every hole).

    Raises ``SolverLimitError`` after ``max_states`` beliefs or ``max_seconds`` seconds.
    """
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds
    if k < 1:
        raise ValueError("k must be at least 1")
    begin = graph.all_holes if start is None else start
    if begin == 0:
        raise ValueError("the start belief is empty: the fox has already been caught")
    if begin.bit_count() <= k:
        return Solution(True, 1, (tuple(holes_of(begin)),), 1)
    if all(
        graph.night(begin & ~move, lazy) & begin == begin
        for move in useful_moves(graph, begin, k, lazy)
    ):
        return Solution(False, None, None, 1, frozenset((begin,)))

    night = graph.night
    parent: dict[int, tuple[int, int]] = {begin: (0, 0)}
    layer = [begin]
    depth = 1
    dominated = _SupersetMarks(graph.n) if graph.n <= PRUNE_MAX_HOLES else None
    while layer:
        if dominated is not None and len(parent) >= PRUNE_AFTER_STATES:
            dominated.add(parent)
        next_layer = []
        for expanded, belief in enumerate(layer):
            if deadline is not None and expanded % 256 == 0 and time.perf_counter() > deadline:
                raise SolverLimitError(
                    f"gave up after {max_seconds:g} s ({len(parent):,} beliefs) on {graph.n} "
                    f"holes with k={k}: this board is too large for the exact solver"
                )
            if dominated is not None and dominated.covers_strictly(belief):
                continue
            for move in useful_moves(graph, belief, k, lazy):
                nxt = night(belief & ~move, lazy)
                if nxt in parent or (dominated is not None and dominated.covers(nxt)):
                    continue
                parent[nxt] = (belief, move)
                if nxt.bit_count() <= k:
                    return _winning(parent, nxt, depth + 1)
                if len(parent) >= max_states:
                    raise SolverLimitError(
                        f"gave up after {max_states:,} beliefs on {graph.n} holes with k={k}: "
                        "this board is too large for the exact solver"
                    )
                next_layer.append(nxt)
        layer = next_layer
        depth += 1
    return Solution(False, None, None, len(parent), frozenset(parent))


class _SupersetMarks:
    """Marks every superset of the beliefs added so far (a table of ``2^n`` booleans).

    A new belief that contains a belief already reached at the same or an earlier day can be
    skipped: by monotonicity it needs at least as many further days.
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.marks = np.zeros(1 << n, dtype=bool)
        self.added = 0

    def add(self, beliefs: dict[int, tuple[int, int]]) -> None:
        if len(beliefs) == self.added:
            return
        self.marks[np.fromiter(beliefs, dtype=np.int64, count=len(beliefs))] = True
        self.added = len(beliefs)
        for bit in range(self.n):
            pairs = self.marks.reshape(-1, 2, 1 << bit)
            pairs[:, 1, :] |= pairs[:, 0, :]

    def covers(self, belief: int) -> bool:
        """True if ``belief`` contains a belief added so far."""
        return bool(self.marks[belief])

    def covers_strictly(self, belief: int) -> bool:
        """True if ``belief`` strictly contains a belief added so far."""
        marks = self.marks
        mask = belief
        while mask:
            low = mask & -mask
            if marks[belief ^ low]:
                return True
            mask ^= low
        return False


def _winning(parent: dict[int, tuple[int, int]], last: int, days: int) -> Solution:
    sequence = [tuple(holes_of(last))]
    belief = last
    while True:
        previous, move = parent[belief]
        if move == 0:
            break
        sequence.append(tuple(holes_of(move)))
        belief = previous
    sequence.reverse()
    return Solution(True, days, tuple(sequence), len(parent))


def check_certificate(
    graph: FoxGraph, k: int, lazy: bool, family: frozenset[int], start: int | None = None
) -> bool:
    """True if ``family`` proves the fox survives every strategy from ``start`` (rule A5).

    Conditions: ``start`` is a member, every member has more than ``k`` holes, and for every
    member ``B`` and k-subset ``K`` of ``B``, ``night(B \\ K)`` contains some member.
    """
    begin = graph.all_holes if start is None else start
    if begin not in family or any(b.bit_count() <= k for b in family):
        return False
    members = sorted(family, key=int.bit_count)
    for belief in family:
        for move in _moves(belief, k):
            nxt = graph.night(belief & ~move, lazy)
            if nxt not in family and not any(m & nxt == m for m in members):
                return False
    return True
