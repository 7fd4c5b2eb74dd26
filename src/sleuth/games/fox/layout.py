"""Positions of the holes of a Fox in a Hole board, in a unit square, by the board's family.

Named families get their natural picture (a line, a ring, a grid, a star, a spider, a tree);
any other graph is laid out by breadth-first layers from hole 0.  Invariant: every hole gets
a position in ``[0, 1] x [0, 1]``.
"""

from __future__ import annotations

import math

from sleuth.games.fox.graph import FoxGraph


def positions(graph: FoxGraph) -> list[tuple[float, float]]:
    """``(x, y)`` of each hole of ``graph``."""
    kind, _, arg = graph.spec.partition(":")
    n = graph.n
    if kind == "path":
        return [((i + 0.5) / n, 0.5) for i in range(n)]
    if kind == "cycle":
        return _ring(range(n), n, 0.45)
    if kind == "star":
        return [(0.5, 0.5), *_ring(range(n - 1), n - 1, 0.42)]
    if kind == "grid":
        rows, _, cols = arg.partition("x")
        r, c = int(rows), int(cols)
        return [((i % c + 0.5) / c, (i // c + 0.5) / r) for i in range(n)]
    if kind == "binary-tree":
        return _tree(n)
    if kind == "spider":
        return _spider([int(x) for x in arg.split(",") if x])
    return _layers(graph)


def _ring(items: range, count: int, radius: float) -> list[tuple[float, float]]:
    return [
        (
            0.5 + radius * math.sin(2 * math.pi * i / count),
            0.5 - radius * math.cos(2 * math.pi * i / count),
        )
        for i in items
    ]


def _tree(n: int) -> list[tuple[float, float]]:
    height = max(1, n.bit_length() - 1)
    out = []
    for v in range(n):
        depth = (v + 1).bit_length() - 1
        index = v + 1 - (1 << depth)
        out.append(((index + 0.5) / (1 << depth), (depth + 0.5) / (height + 1)))
    return out


def _spider(legs: list[int]) -> list[tuple[float, float]]:
    out = [(0.5, 0.5)]
    longest = max(legs, default=1)
    for leg, length in enumerate(legs):
        angle = 2 * math.pi * leg / max(1, len(legs))
        for step in range(1, length + 1):
            r = 0.45 * step / longest
            out.append((0.5 + r * math.sin(angle), 0.5 - r * math.cos(angle)))
    return out


def _layers(graph: FoxGraph) -> list[tuple[float, float]]:
    """Breadth-first layers from hole 0, one row per layer."""
    adjacent: list[list[int]] = [[] for _ in range(graph.n)]
    for u, v in graph.edges:
        adjacent[u].append(v)
        adjacent[v].append(u)
    depth = {0: 0}
    order = [0]
    for u in order:
        for v in sorted(adjacent[u]):
            if v not in depth:
                depth[v] = depth[u] + 1
                order.append(v)
    rows: dict[int, list[int]] = {}
    for v in order:
        rows.setdefault(depth[v], []).append(v)
    out = [(0.5, 0.5)] * graph.n
    for d, members in rows.items():
        for i, v in enumerate(members):
            out[v] = ((i + 0.5) / len(members), (d + 0.5) / len(rows))
    return out
