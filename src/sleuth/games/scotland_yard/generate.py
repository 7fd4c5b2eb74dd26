"""Sleuth's own Scotland Yard board, generated deterministically (``python -m
sleuth.games.scotland_yard.generate DIR`` writes it; ``data/`` holds the committed copy).

The recipe (all geometry on integer coordinates, so the result is exact on every platform;
randomness from ``random.Random(SEED)`` only):

1. **Stations**: a 20 x 10 grid of cells 120 x 180 pixels, one station per cell at a random
   point of its inner part; numbered top to bottom by row of cells, left to right within a row.
2. **Taxi**: the Gabriel graph of all stations (``a``-``b`` is an edge when no other station
   lies in the circle with diameter ``ab``), then random edges are removed, never a bridge,
   until :data:`TAXI_EDGES` remain, keeping at least two edges at every station.  Taxi edges alone
   connect the board.
3. **Bus**: :data:`BUS_STATIONS` stations chosen by farthest-point sampling from a random first
   one; their Gabriel graph, thinned the same way to :data:`BUS_EDGES` edges.
4. **Underground**: :data:`UNDERGROUND_STATIONS` of the bus stations, chosen the same way;
   their Gabriel graph thinned to :data:`UNDERGROUND_EDGES` edges.
5. **Ferry**: the stations nearest to four points on a line across the middle of the board,
   joined in a chain (three edges, black tickets only).
6. **Start cards**: :data:`START_CARDS` stations in random order, each taken only when it is at
   least 2 moves (taxi, bus and underground) from every card already taken.

The targets copy the classic map's counts (345 taxi, 99 bus, 20 underground, 3 ferry edges,
62 bus and 14 underground stations, 18 start cards) on 200 stations.
"""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Sequence
from pathlib import Path

from sleuth.games.scotland_yard.board import (
    EDGES_FILE,
    STARTS_FILE,
    STATIONS_FILE,
    Board,
    Edge,
    Transport,
    from_rows,
)

SEED = 2024
COLUMNS, ROWS = 20, 10
CELL_W, CELL_H = 120, 180
TAXI_EDGES = 345
BUS_STATIONS, BUS_EDGES = 62, 99
UNDERGROUND_STATIONS, UNDERGROUND_EDGES = 14, 20
FERRY_STATIONS = 4
START_CARDS = 18
MIN_DEGREE = 2

Point = tuple[int, int]


def _gabriel(points: Sequence[Point], ids: Sequence[int]) -> list[tuple[int, int]]:
    """The Gabriel graph of ``points`` (station ``ids[i]`` at ``points[i]``), exact on ints."""
    out = []
    for i in range(len(ids)):
        for j in range(i + 1, len(ids)):
            (ax, ay), (bx, by) = points[i], points[j]
            d2 = (ax - bx) ** 2 + (ay - by) ** 2
            # k lies strictly inside the circle iff |2k - a - b|^2 < |a - b|^2
            if not any(
                (2 * cx - ax - bx) ** 2 + (2 * cy - ay - by) ** 2 < d2
                for k, (cx, cy) in enumerate(points)
                if k not in (i, j)
            ):
                out.append((ids[i], ids[j]))
    return out


def _connected(nodes: Sequence[int], pairs: Sequence[tuple[int, int]]) -> bool:
    adj: dict[int, set[int]] = {v: set() for v in nodes}
    for a, b in pairs:
        adj[a].add(b)
        adj[b].add(a)
    seen, stack = {nodes[0]}, [nodes[0]]
    while stack:
        for w in adj[stack.pop()] - seen:
            seen.add(w)
            stack.append(w)
    return len(seen) == len(nodes)


def _thin(
    rng: random.Random, nodes: Sequence[int], pairs: list[tuple[int, int]], target: int
) -> list[tuple[int, int]]:
    """Remove random edges until ``target`` remain (or none can go): never a bridge, and never
    one whose removal leaves a station with fewer than :data:`MIN_DEGREE` edges of the layer."""
    kept = sorted(pairs)
    degree = {v: 0 for v in nodes}
    for a, b in kept:
        degree[a] += 1
        degree[b] += 1
    order = kept[:]
    rng.shuffle(order)
    for pair in order:
        if len(kept) <= target:
            break
        if min(degree[pair[0]], degree[pair[1]]) <= MIN_DEGREE:
            continue
        trial = [p for p in kept if p != pair]
        if _connected(nodes, trial):
            kept = trial
            degree[pair[0]] -= 1
            degree[pair[1]] -= 1
    return kept


def _spread(rng: random.Random, coords: dict[int, Point], pool: Sequence[int], k: int) -> list[int]:
    """``k`` stations of ``pool`` by farthest-point sampling from a random first one."""
    chosen = [rng.choice(sorted(pool))]
    while len(chosen) < k:

        def gap(s: int) -> int:
            x, y = coords[s]
            return min((x - coords[c][0]) ** 2 + (y - coords[c][1]) ** 2 for c in chosen)

        chosen.append(max(sorted(set(pool) - set(chosen)), key=gap))
    return sorted(chosen)


def _layer(
    rng: random.Random, coords: dict[int, Point], stations: Sequence[int], target: int
) -> list[tuple[int, int]]:
    pairs = _gabriel([coords[s] for s in stations], stations)
    return _thin(rng, stations, pairs, target)


def generate(seed: int = SEED) -> Board:
    """The built-in board for ``seed`` (the committed board is ``generate(SEED)``)."""
    rng = random.Random(seed)
    points = []
    for row in range(ROWS):
        for col in range(COLUMNS):
            x = col * CELL_W + rng.randint(CELL_W // 5, CELL_W * 4 // 5)
            y = row * CELL_H + rng.randint(CELL_H // 5, CELL_H * 4 // 5)
            points.append((x, y))
    n = len(points)
    coords = {s: points[s - 1] for s in range(1, n + 1)}
    everyone = list(range(1, n + 1))
    edges: list[Edge] = [
        (a, b, Transport.TAXI) for a, b in _layer(rng, coords, everyone, TAXI_EDGES)
    ]
    bus = _spread(rng, coords, everyone, BUS_STATIONS)
    edges += [(a, b, Transport.BUS) for a, b in _layer(rng, coords, bus, BUS_EDGES)]
    tube = _spread(rng, coords, bus, UNDERGROUND_STATIONS)
    edges += [
        (a, b, Transport.UNDERGROUND) for a, b in _layer(rng, coords, tube, UNDERGROUND_EDGES)
    ]
    mid_y = ROWS * CELL_H // 2
    ferry: list[int] = []
    for i in range(FERRY_STATIONS):
        fx = COLUMNS * CELL_W * (2 * i + 1) // (2 * FERRY_STATIONS)
        ferry.append(
            min(everyone, key=lambda s: ((coords[s][0] - fx) ** 2 + (coords[s][1] - mid_y) ** 2, s))
        )
    edges += [(a, b, Transport.FERRY) for a, b in itertools.pairwise(ferry)]
    board = from_rows(n, edges, points)
    cards: list[int] = []
    for s in rng.sample(everyone, n):
        if all(board.distances[s, c] >= 2 for c in cards):
            cards.append(s)
        if len(cards) == START_CARDS:
            break
    return from_rows(n, edges, points, sorted(cards))


def write_board(board: Board, folder: Path) -> None:
    """Write ``board`` as the three CSV files :func:`~.board.load_board` reads."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["id,x,y"]
    for s, xy in enumerate(board.coordinates, start=1):
        lines.append(f"{s},{xy[0]},{xy[1]}" if xy else f"{s},,")
    (folder / STATIONS_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    rows = ["u,v,transport"] + [f"{u},{v},{t.value}" for u, v, t in board.edges]
    (folder / EDGES_FILE).write_text("\n".join(rows) + "\n", encoding="utf-8")
    starts = ["station"] + [str(s) for s in board.start_cards]
    (folder / STARTS_FILE).write_text("\n".join(starts) + "\n", encoding="utf-8")


def main(argv: Sequence[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m sleuth.games.scotland_yard.generate DIR", file=sys.stderr)
        return 2
    write_board(generate(), Path(argv[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
