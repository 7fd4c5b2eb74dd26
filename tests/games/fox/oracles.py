"""Independent reference code for the Fox in a Hole tests.

Everything here works on plain Python sets and adjacency dicts built from a graph's edge list,
so that it shares nothing with the bitset code under test (``FoxGraph.night``, the solver's
move generation, ``FoxBelief``, ...).  Holes are 0-based, as in the library.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations, pairwise

from sleuth.games.fox.graph import FoxGraph

Adjacency = dict[int, frozenset[int]]


def neighbours(spec: str) -> list[set[int]]:
    """Adjacency of a board spec (``path:n``, ``cycle:n``, ``star:n``, ``grid:RxC``), written
    independently of sleuth's graph module."""
    kind, _, arg = spec.partition(":")
    if kind in ("path", "cycle"):
        n = int(arg)
        nbr = [{v - 1, v + 1} & set(range(n)) for v in range(n)]
        if kind == "cycle":
            nbr[0].add(n - 1)
            nbr[n - 1].add(0)
        return nbr
    if kind == "star":
        leaves = int(arg)
        return [set(range(1, leaves + 1))] + [{0} for _ in range(leaves)]
    if kind == "grid":
        rows, cols = map(int, arg.split("x"))
        nbr = [set() for _ in range(rows * cols)]
        for r in range(rows):
            for c in range(cols):
                for dr, dc in ((0, 1), (1, 0)):
                    if r + dr < rows and c + dc < cols:
                        nbr[r * cols + c].add((r + dr) * cols + c + dc)
                        nbr[(r + dr) * cols + c + dc].add(r * cols + c)
        return nbr
    raise AssertionError(spec)


def adjacency(graph: FoxGraph) -> Adjacency:
    """Neighbour sets from the edge list only."""
    adj: dict[int, set[int]] = {v: set() for v in range(graph.n)}
    for u, v in graph.edges:
        adj[u].add(v)
        adj[v].add(u)
    return {v: frozenset(s) for v, s in adj.items()}


def is_tree(graph: FoxGraph) -> bool:
    """Whether the graph is connected and has no cycle (searched from hole 0, edge list only)."""
    adj = adjacency(graph)
    seen, frontier = {0}, {0}
    while frontier:
        frontier = {w for v in frontier for w in adj[v]} - seen
        seen |= frontier
    return len(seen) == graph.n and len(graph.edges) == graph.n - 1


def night(adj: Adjacency, holes: Iterable[int], lazy: bool = False) -> frozenset[int]:
    """Where a fox in ``holes`` can be next morning: N(holes), or N[holes] when lazy."""
    holes = frozenset(holes)
    out: set[int] = set(holes) if lazy else set()
    for v in holes:
        out |= adj[v]
    return frozenset(out)


def to_set(mask: int) -> frozenset[int]:
    return frozenset(i for i in range(mask.bit_length()) if mask >> i & 1)


def to_mask(holes: Iterable[int]) -> int:
    return sum(1 << h for h in set(holes))


def evenings(
    adj: Adjacency, strategy: Sequence[Iterable[int]], lazy: bool = False, start=None
) -> list[frozenset[int]]:
    """A_1, A_2, ... of a fixed sequence against the adversarial fox (stops at the catch)."""
    morning = frozenset(adj) if start is None else frozenset(start)
    out = []
    for holes in strategy:
        evening = morning - set(holes)
        out.append(evening)
        if not evening:
            break
        morning = night(adj, evening, lazy)
    return out


def catch_day(adj: Adjacency, strategy, lazy: bool = False) -> int | None:
    """The day a sequence catches every fox, or None."""
    for day, evening in enumerate(evenings(adj, strategy, lazy), start=1):
        if not evening:
            return day
    return None


def inspections(n: int, k: int) -> list[frozenset[int]]:
    """Every legal inspection: non-empty sets of at most k holes out of 0..n-1."""
    return [frozenset(c) for size in range(1, min(k, n) + 1) for c in combinations(range(n), size)]


def brute_force_days(
    adj: Adjacency, k: int, lazy: bool, horizon: int, start: Iterable[int] | None = None
) -> int | None:
    """Fewest days to guarantee a catch using *any* sequence of inspections, or None.

    Exhaustive over every sequence of inspections of length <= ``horizon`` (every non-empty
    set of at most ``k`` holes each day, wasted ones included).  Sequences reaching the same
    morning belief on the same day are interchangeable, so each day keeps the set of beliefs
    reached by all sequences so far.
    """
    moves = inspections(len(adj), k)
    layer = {frozenset(adj) if start is None else frozenset(start)}
    for day in range(1, horizon + 1):
        nxt = set()
        for belief in layer:
            for move in moves:
                evening = belief - move
                if not evening:
                    return day
                nxt.add(night(adj, evening, lazy))
        layer = nxt
    return None


def optimal_sequences(adj: Adjacency, days: int) -> set[tuple[int, ...]]:
    """Every sequence of single-hole inspections (k = 1) whose first catch is on ``days``.

    Exhaustive over all ``n ** days`` sequences; a memo on (morning belief, days left) only
    shares the work between prefixes that reach the same belief.
    """
    holes = sorted(adj)

    @cache
    def finish(belief: frozenset[int], left: int) -> frozenset[tuple[int, ...]]:
        found = set()
        for h in holes:
            evening = belief - {h}
            if left == 1:
                if not evening:
                    found.add((h,))
            elif evening:
                found.update((h, *rest) for rest in finish(night(adj, evening), left - 1))
        return frozenset(found)

    return set(finish(frozenset(holes), days))


def is_certificate(
    adj: Adjacency, k: int, lazy: bool, family: Iterable[int], start: int | None = None
) -> bool:
    """The A5 certificate conditions, checked with sets (family members are bitsets)."""
    members = [to_set(m) for m in family]
    begin = frozenset(adj) if start is None else to_set(start)
    if begin not in members or any(len(m) <= k for m in members):
        return False
    for belief in members:
        for move in combinations(sorted(belief), k):
            nxt = night(adj, belief - set(move), lazy)
            if not any(m <= nxt for m in members):
                return False
    return True


def dodging_walk_ends(
    adj: Adjacency, inspected: Sequence[Iterable[int]], lazy: bool, extra_day: bool
) -> frozenset[int]:
    """Where a fox can be, by enumerating whole walks.

    With ``extra_day`` False: the holes x_t of walks x_1..x_t with x_i not in K_i for every i
    (the evening belief A_t).  With ``extra_day`` True: the holes x_{t+1} of walks dodging
    K_1..K_t (the morning belief B_{t+1}).
    """
    days = len(inspected) + (1 if extra_day else 0)
    walks = walks_of(adj, days, lazy)
    ends = set()
    for walk in walks:
        if all(walk[i] not in set(holes) for i, holes in enumerate(inspected)):
            ends.add(walk[-1])
    return frozenset(ends)


def walks_of(adj: Adjacency, days: int, lazy: bool = False) -> list[tuple[int, ...]]:
    """Every walk of ``days`` holes (the fox moves each night, or may stay when lazy)."""
    walks = [(v,) for v in sorted(adj)]
    for _ in range(days - 1):
        walks = [(*w, x) for w in walks for x in sorted(adj[w[-1]] | ({w[-1]} if lazy else set()))]
    return walks


def is_walk(adj: Adjacency, walk: Sequence[int], lazy: bool = False) -> bool:
    return all(0 <= h < len(adj) for h in walk) and all(
        b in adj[a] or (lazy and a == b) for a, b in pairwise(walk)
    )


def random_connected_edges(rng: random.Random, n: int, extra: float) -> list[tuple[int, int]]:
    """A random connected graph on 0..n-1: a random spanning tree plus random extra edges."""
    order = list(range(n))
    rng.shuffle(order)
    edges = {tuple(sorted((order[i], order[rng.randrange(i)]))) for i in range(1, n)}
    for u, v in combinations(range(n), 2):
        if (u, v) not in edges and rng.random() < extra:
            edges.add((u, v))
    return sorted(edges)


def contains_big_spider(adj: Adjacency) -> bool:
    """True if the tree contains S(3,3,3): a hole with three branches of depth >= 3."""

    def depth(parent: int, here: int) -> int:
        return 1 + max((depth(here, x) for x in adj[here] if x != parent), default=0)

    return any(sum(depth(v, u) >= 3 for u in adj[v]) >= 3 for v in adj)


def tree_formula_days(adj: Adjacency) -> int:
    """O7: days on a winnable tree, 2(m + L' - 2) with T' = T minus its leaves."""
    n = len(adj)
    if n == 1:
        return 1
    if n == 2:
        return 2
    inner = {v for v in adj if len(adj[v]) >= 2}
    m = len(inner)
    if m == 1:
        return 2
    inner_leaves = sum(1 for v in inner if len(adj[v] & inner) == 1)
    return 2 * (m + inner_leaves - 2)
