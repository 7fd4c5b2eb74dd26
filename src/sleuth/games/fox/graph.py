"""Boards for Fox in a Hole: connected simple graphs with holes ``0 .. n-1`` (rule X1).

Sets of holes are Python ints used as bitsets (bit ``v`` set = hole ``v`` is in the set).
:meth:`FoxGraph.night` maps the set of holes a fox may be in at evening to the set it may be
in next morning, using one table lookup per 8 holes.

Graph specs (``parse_graph``):

===================  ====================================================================
``path:N``           N holes in a line, ``0 .. N-1`` along the path
``cycle:N``          N >= 3 holes in a ring
``star:N``           a centre ``0`` and N >= 1 leaves ``1 .. N`` (the star K_{1,N})
``grid:RxC``         R rows of C holes; hole ``r*C + c``
``spider:a,b,...``   a centre ``0`` and legs of the given lengths, numbered leg by leg
``binary-tree:H``    complete binary tree of height H (``2^(H+1) - 1`` holes, heap order:
                     the children of ``v`` are ``2v+1`` and ``2v+2``)
``edges:0-1,1-2``    an explicit edge list on holes ``0 .. n-1``
a file path          an edge-list file: one edge ``u v`` (or ``u-v``, ``u,v``) per line,
                     ``#`` starts a comment
===================  ====================================================================
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from sleuth.core import bitsets
from sleuth.core.errors import NumberTextError, SleuthError
from sleuth.core.numbers import shorten, whole_number

holes_of = bitsets.members
"""The holes of a bitset, in increasing order."""
mask_of = bitsets.mask_of

MAX_HOLES = 4096
"""Largest board the engine accepts (beliefs are bitsets, so this is about memory only)."""


class GraphSpecError(SleuthError, ValueError):
    """A graph spec that does not describe a connected simple graph."""


@dataclass(frozen=True, eq=False)
class FoxGraph:
    """A connected simple undirected graph on holes ``0 .. n-1``.

    ``spec`` is canonical: ``parse_graph(g.spec)`` gives an equal graph.  Equality and hashing
    use ``n`` and the edge set.
    """

    n: int
    edges: tuple[tuple[int, int], ...]
    spec: str
    neighbours: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        nbr = [0] * self.n
        for u, v in self.edges:
            nbr[u] |= 1 << v
            nbr[v] |= 1 << u
        object.__setattr__(self, "neighbours", tuple(nbr))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FoxGraph) and (self.n, self.edges) == (other.n, other.edges)

    def __hash__(self) -> int:
        return hash((self.n, self.edges))

    @property
    def all_holes(self) -> int:
        return (1 << self.n) - 1

    @cached_property
    def _night_tables(self) -> tuple[tuple[int, ...], ...]:
        tables = []
        for base in range(0, self.n, 8):
            width = min(8, self.n - base)
            table = [0] * (1 << width)
            for byte in range(1, 1 << width):
                low = byte & -byte
                table[byte] = table[byte ^ low] | self.neighbours[base + low.bit_length() - 1]
            tables.append(tuple(table))
        return tuple(tables)

    def night(self, holes: int, lazy: bool = False) -> int:
        """N(holes), or N[holes] when the fox is lazy: where a fox in ``holes`` can be next."""
        out = holes if lazy else 0
        shift = 0
        for table in self._night_tables:
            out |= table[(holes >> shift) & 0xFF]
            shift += 8
        return out


def from_edges(n: int, edges: Iterable[tuple[int, int]], spec: str | None = None) -> FoxGraph:
    """Build and check a graph (X1: no self-loops, no multi-edges, connected)."""
    if n < 1:
        raise GraphSpecError("a board needs at least one hole")
    _check_size(n)
    seen: set[tuple[int, int]] = set()
    for u, v in edges:
        if not (0 <= u < n and 0 <= v < n):
            raise GraphSpecError(f"edge {u}-{v} uses a hole outside 0..{n - 1}")
        if u == v:
            raise GraphSpecError(f"self-loop at hole {u}")
        key = (min(u, v), max(u, v))
        if key in seen:
            raise GraphSpecError(f"edge {key[0]}-{key[1]} appears twice")
        seen.add(key)
    ordered = tuple(sorted(seen))
    if spec:
        canonical = spec
    elif ordered:
        canonical = "edges:" + ",".join(f"{u}-{v}" for u, v in ordered)
    else:
        canonical = "path:1"  # "edges:" with no edges is not a valid spec
    graph = FoxGraph(n, ordered, canonical)
    reached = 1
    frontier = 1
    while frontier:
        frontier = graph.night(frontier) & ~reached
        reached |= frontier
    if reached != graph.all_holes:
        missing = holes_of(graph.all_holes & ~reached)
        raise GraphSpecError(
            f"the graph is not connected: hole {missing[0]} cannot be reached from 0"
        )
    return graph


def _count(text: str, what: str, minimum: int) -> int:
    if not re.fullmatch(r"\d+", text.strip()):
        raise GraphSpecError(f"{what}: expected a whole number, got {text!r}")
    try:
        value = whole_number(text.strip())
    except NumberTextError as exc:
        raise GraphSpecError(f"{what}: {exc}") from None
    if value < minimum:
        raise GraphSpecError(f"{what}: must be at least {minimum}, got {value}")
    return value


def _check_size(n: int) -> None:
    if n > MAX_HOLES:
        raise GraphSpecError(f"{n} holes is more than the limit of {MAX_HOLES}")


def path(n: int) -> FoxGraph:
    _check_size(n)
    return from_edges(n, [(i, i + 1) for i in range(n - 1)], f"path:{n}")


def cycle(n: int) -> FoxGraph:
    _check_size(n)
    return from_edges(n, [(i, (i + 1) % n) for i in range(n)], f"cycle:{n}")


def star(leaves: int) -> FoxGraph:
    _check_size(leaves + 1)
    return from_edges(leaves + 1, [(0, i) for i in range(1, leaves + 1)], f"star:{leaves}")


def grid(rows: int, cols: int) -> FoxGraph:
    _check_size(rows * cols)
    edges = [(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)]
    edges += [(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)]
    return from_edges(rows * cols, edges, f"grid:{rows}x{cols}")


def spider(legs: Iterable[int]) -> FoxGraph:
    legs = list(legs)
    _check_size(1 + sum(legs))
    edges = []
    nxt = 1
    for length in legs:
        prev = 0
        for _ in range(length):
            edges.append((prev, nxt))
            prev = nxt
            nxt += 1
    return from_edges(nxt, edges, "spider:" + ",".join(map(str, legs)))


def binary_tree(height: int) -> FoxGraph:
    if height >= 12:
        raise GraphSpecError(f"binary-tree:{height} is more than the limit of {MAX_HOLES} holes")
    n = 2 ** (height + 1) - 1
    return from_edges(
        n,
        [(v, c) for v in range(n) for c in (2 * v + 1, 2 * v + 2) if c < n],
        f"binary-tree:{height}",
    )


def _edge_pairs(items: Iterable[str], where: str) -> list[tuple[int, int]]:
    pairs = []
    for item in items:
        parts = [p for p in re.split(r"[\s,\-]+", item.strip()) if p]
        if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
            raise GraphSpecError(f"{where}: {item.strip()!r} is not an edge like 0-1")
        try:
            pairs.append((whole_number(parts[0]), whole_number(parts[1])))
        except NumberTextError as exc:
            raise GraphSpecError(f"{where}: {exc}") from None
    return pairs


def _from_pairs(pairs: list[tuple[int, int]], where: str, spec: str | None = None) -> FoxGraph:
    if not pairs:
        raise GraphSpecError(f"{where}: no edges (use path:1 for a single hole)")
    nodes = {u for e in pairs for u in e}
    n = max(nodes) + 1
    _check_size(n)
    missing = sorted(set(range(n)) - nodes)
    if missing:
        raise GraphSpecError(
            f"{where}: holes must be numbered 0..{n - 1}; hole {missing[0]} has no edge"
        )
    return from_edges(n, pairs, spec)


def parse_graph(spec: str, allow_files: bool = True) -> FoxGraph:
    """Build a board from a spec (see the module docstring); bad specs raise GraphSpecError.

    With ``allow_files=False`` only the named families and ``edges:`` are accepted."""
    text = spec.strip()
    if not names_file(text):
        kind, _, arg = text.partition(":")
        return _FAMILIES[kind](arg)
    if not allow_files:
        raise GraphSpecError(f"{spec!r} is not a canonical graph spec (files are not read here)")
    candidate = Path(text)
    try:
        found = candidate.is_file()
    except OSError as exc:  # a name too long for the file system
        raise GraphSpecError(
            f"cannot read edge-list file {shorten(text, 60)}: {exc.strerror}"
        ) from None
    if found:
        try:
            lines = candidate.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise GraphSpecError(f"cannot read edge-list file {text}: {exc}") from None
        items = []
        for number, line in enumerate(lines, start=1):
            body = line.split("#", 1)[0].strip()
            if body:
                items.extend(_edge_pairs([body], f"{text} line {number}"))
        return _from_pairs(items, text)
    if text and candidate.exists():
        raise GraphSpecError(f"{text} is not a file (an edge-list file was expected)")
    if _looks_like_path(text):
        raise GraphSpecError(f"no such file: {text}")
    families = ", ".join(f"{k}:..." for k in _FAMILIES)
    raise GraphSpecError(
        f"unknown graph spec {spec!r}: use one of {families}, or an edge-list file"
    )


def names_file(spec: str) -> bool:
    """Whether :func:`parse_graph` reads ``spec`` as an edge-list file's path: whenever it is
    not ``FAMILY:ARGUMENT`` with a family of the module's table (``path:5``, ``edges:0-1``), so
    ``no-such-board`` names a file (of the current folder) too.  Decided from the text alone."""
    kind, sep, _ = spec.strip().partition(":")
    return not (sep and kind in _FAMILIES)


EDGE_LIST_SUFFIXES = frozenset((".txt", ".csv", ".tsv", ".edges", ".edgelist", ".el", ".dat"))
"""File name endings that mark a graph spec as an edge-list file's path."""


def _looks_like_path(text: str) -> bool:
    """Whether a spec that names no family is meant as a file: it has a folder separator,
    starts with ``~`` or ``.``, or ends in an edge-list suffix (:data:`EDGE_LIST_SUFFIXES`)."""
    return (
        "/" in text
        or "\\" in text
        or text.startswith(("~", "."))
        or Path(text).suffix.lower() in EDGE_LIST_SUFFIXES
    )


def _parse_grid(arg: str) -> FoxGraph:
    rows, x, cols = arg.lower().partition("x")
    if not x:
        raise GraphSpecError(f"grid: expected RxC such as 3x4, got {arg!r}")
    return grid(_count(rows, "grid rows", 1), _count(cols, "grid columns", 1))


def _parse_spider(arg: str) -> FoxGraph:
    if not arg.strip():
        raise GraphSpecError("spider: give the leg lengths, such as spider:3,3,3")
    return spider(_count(a, "spider leg", 1) for a in arg.split(","))


def _parse_edges(arg: str) -> FoxGraph:
    items = [i for i in arg.split(",") if i.strip()]
    return _from_pairs(_edge_pairs(items, "edges"), "edges")


_FAMILIES = {
    "path": lambda a: path(_count(a, "path length", 1)),
    "cycle": lambda a: cycle(_count(a, "cycle length", 3)),
    "star": lambda a: star(_count(a, "star leaves", 1)),
    "grid": _parse_grid,
    "spider": _parse_spider,
    "binary-tree": lambda a: binary_tree(_count(a, "binary-tree height", 0)),
    "edges": _parse_edges,
}
