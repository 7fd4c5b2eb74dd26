"""Boards: graph specs, canonical specs, bitset helpers and rejected specs (rule X1)."""

from __future__ import annotations

import random
import tracemalloc
from pathlib import Path

import networkx as nx
import pytest

from sleuth.core.errors import SleuthError
from sleuth.games.fox.graph import (
    MAX_HOLES,
    FoxGraph,
    GraphSpecError,
    from_edges,
    holes_of,
    mask_of,
    parse_graph,
)

from .oracles import adjacency, is_tree, night, random_connected_edges, to_mask, to_set


def edge_set(graph: FoxGraph) -> set[frozenset[int]]:
    return {frozenset(e) for e in graph.edges}


def expected(*pairs: tuple[int, int]) -> set[frozenset[int]]:
    return {frozenset(p) for p in pairs}


# --- every family -------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 5, 9, 17])
def test_path(n: int) -> None:
    g = parse_graph(f"path:{n}")
    assert g.n == n
    assert edge_set(g) == expected(*((i, i + 1) for i in range(n - 1)))
    assert g.spec == f"path:{n}"
    assert is_tree(g)


@pytest.mark.parametrize("n", [3, 4, 7, 12])
def test_cycle(n: int) -> None:
    g = parse_graph(f"cycle:{n}")
    assert g.n == n
    assert edge_set(g) == expected(*((i, (i + 1) % n) for i in range(n)))
    assert all(len(adjacency(g)[v]) == 2 for v in range(n))
    assert not is_tree(g)


@pytest.mark.parametrize("leaves", [1, 2, 5])
def test_star_has_n_leaves_and_centre_0(leaves: int) -> None:
    g = parse_graph(f"star:{leaves}")
    assert g.n == leaves + 1
    assert edge_set(g) == expected(*((0, i) for i in range(1, leaves + 1)))
    assert len(adjacency(g)[0]) == leaves


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 4), (2, 3), (3, 3), (4, 2)])
def test_grid_numbering(rows: int, cols: int) -> None:
    g = parse_graph(f"grid:{rows}x{cols}")
    assert g.n == rows * cols
    lattice = nx.relabel_nodes(nx.grid_2d_graph(rows, cols), lambda rc: rc[0] * cols + rc[1])
    assert edge_set(g) == {frozenset(e) for e in lattice.edges()}
    assert g.spec == f"grid:{rows}x{cols}"


def test_spider_legs_numbered_leg_by_leg() -> None:
    g = parse_graph("spider:2,1,3")
    assert g.n == 7
    assert edge_set(g) == expected((0, 1), (1, 2), (0, 3), (0, 4), (4, 5), (5, 6))
    assert g.spec == "spider:2,1,3"


def test_spider_333_is_the_ten_hole_tree() -> None:
    g = parse_graph("spider:3,3,3")
    assert g.n == 10
    assert is_tree(g)
    assert sorted(len(adjacency(g)[v]) for v in range(10)) == [1, 1, 1, 2, 2, 2, 2, 2, 2, 3]


@pytest.mark.parametrize("height", [0, 1, 2, 3, 5])
def test_binary_tree_heap_order(height: int) -> None:
    g = parse_graph(f"binary-tree:{height}")
    n = 2 ** (height + 1) - 1
    assert g.n == n
    heap = {frozenset((v, c)) for v in range(n) for c in (2 * v + 1, 2 * v + 2) if c < n}
    assert edge_set(g) == heap
    assert is_tree(g)


def test_explicit_edges_are_canonicalised() -> None:
    g = parse_graph("edges: 2-1, 0-1 ,1-3")
    assert g.n == 4
    assert g.edges == ((0, 1), (1, 2), (1, 3))
    assert g.spec == "edges:0-1,1-2,1-3"


def test_edge_list_file_with_comments(tmp_path: Path) -> None:
    f = tmp_path / "board.txt"
    f.write_text(
        "# a small board: a triangle with a tail\n"
        "0 1\n"
        "\n"
        "1-2   # dash form\n"
        "2,0\n"
        "   # indented comment\n"
        "2 3\n",
        encoding="utf-8",
    )
    g = parse_graph(str(f))
    assert g.n == 4
    assert edge_set(g) == expected((0, 1), (1, 2), (0, 2), (2, 3))
    assert g.spec == "edges:0-1,0-2,1-2,2-3"
    assert parse_graph(g.spec) == g


def test_spec_whitespace_is_ignored() -> None:
    assert parse_graph("  path:4 \n") == parse_graph("path:4")


# --- canonical round trip -----------------------------------------------------------------

ROUND_TRIP_SPECS = [
    "path:1",
    "path:5",
    "cycle:3",
    "cycle:8",
    "star:1",
    "star:6",
    "grid:1x1",
    "grid:3x4",
    "grid:5X2",
    "spider:1",
    "spider:3,3,3",
    "spider:2,2,2,2,2",
    "binary-tree:0",
    "binary-tree:3",
    "edges:0-1",
    "edges:3-0,0-1,1-2,2-3,0-2",
    "path:40",
]


@pytest.mark.parametrize("spec", ROUND_TRIP_SPECS)
def test_canonical_spec_round_trip(spec: str) -> None:
    g = parse_graph(spec)
    again = parse_graph(g.spec)
    assert again == g
    assert hash(again) == hash(g)
    assert again.spec == g.spec


def test_round_trip_of_built_graphs() -> None:
    rng = random.Random(7)
    for _ in range(50):
        n = rng.randint(1, 12)
        g = from_edges(n, random_connected_edges(rng, n, 0.2))
        assert parse_graph(g.spec) == g
    # the one-hole board built from an empty edge list must still have a parseable spec
    single = from_edges(1, [])
    assert parse_graph(single.spec) == single


def test_equality_uses_edges_not_spec() -> None:
    assert parse_graph("path:3") == parse_graph("edges:1-2,0-1")
    assert parse_graph("star:2") != parse_graph("path:3")  # same shape, different labels
    assert parse_graph("path:3") != parse_graph("path:4")


# --- bitsets and the night step -----------------------------------------------------------


def test_holes_and_masks() -> None:
    assert holes_of(0) == []
    assert holes_of(0b101001) == [0, 3, 5]
    assert mask_of([5, 0, 3, 3]) == 0b101001
    assert holes_of(mask_of(range(70))) == list(range(70))


@pytest.mark.parametrize(
    "spec", ["path:1", "path:2", "cycle:5", "grid:3x3", "grid:5x5", "binary-tree:4", "path:40"]
)
def test_night_matches_neighbourhoods(spec: str) -> None:
    g = parse_graph(spec)
    adj = adjacency(g)
    rng = random.Random(spec)
    assert g.all_holes == (1 << g.n) - 1
    masks = [0, g.all_holes] + [rng.getrandbits(g.n) for _ in range(200)]
    masks += [1 << v for v in range(g.n)]
    for mask in masks:
        for lazy in (False, True):
            assert to_set(g.night(mask, lazy)) == night(adj, to_set(mask), lazy), (mask, lazy)
    for v in range(g.n):
        assert to_set(g.neighbours[v]) == adj[v]
        assert g.neighbours[v].bit_count() == len(adj[v])


def test_night_on_a_random_large_graph() -> None:
    rng = random.Random(3)
    g = from_edges(60, random_connected_edges(rng, 60, 0.05))
    adj = adjacency(g)
    for _ in range(100):
        holes = {v for v in range(60) if rng.random() < 0.3}
        assert to_set(g.night(to_mask(holes))) == night(adj, holes)


# --- rejected specs -----------------------------------------------------------------------

BAD_SPECS = [
    ("banana:3", r"unknown graph spec.*path:"),
    ("no-such-file.txt", r"^no such file: no-such-file\.txt$"),
    ("/nonexistent.txt", r"^no such file: /nonexistent\.txt$"),
    ("boards/ring", r"^no such file: boards/ring$"),
    ("ring.edges", r"^no such file: ring\.edges$"),
    ("ring", r"unknown graph spec 'ring'.*edge-list file"),
    (".", r"^\. is not a file"),
    ("", r"unknown graph spec"),
    ("path:abc", r"path length.*whole number"),
    ("path:", r"path length.*whole number"),
    ("path:-3", r"path length.*whole number"),
    ("path:2.5", r"path length.*whole number"),
    ("path:0", r"path length.*at least 1"),
    ("cycle:2", r"cycle length.*at least 3"),
    ("cycle:1", r"cycle length.*at least 3"),
    ("star:0", r"star leaves.*at least 1"),
    ("grid:3", r"grid.*RxC"),
    ("grid:3x", r"grid columns"),
    ("grid:0x3", r"grid rows.*at least 1"),
    ("spider:", r"spider.*leg lengths"),
    ("spider:3,0", r"spider leg.*at least 1"),
    ("spider:3,,3", r"spider leg.*whole number"),
    ("binary-tree:x", r"binary-tree height"),
    ("edges:", r"no edges"),
    ("edges:0-0", r"self-loop at hole 0"),
    ("edges:0-1,1-2,2-1", r"edge 1-2 appears twice"),
    ("edges:0-1,1-0", r"edge 0-1 appears twice"),
    ("edges:0-1,2-3", r"not connected.*hole 2"),
    ("edges:0-1,1-3", r"numbered 0\.\.3.*hole 2"),
    ("edges:1-2", r"numbered 0\.\.2.*hole 0"),
    ("edges:0-1,1-a", r"not an edge"),
    ("edges:0-1-2", r"not an edge"),
]


@pytest.mark.parametrize(("spec", "message"), BAD_SPECS)
def test_bad_spec_is_rejected_with_a_reason(spec: str, message: str) -> None:
    with pytest.raises(GraphSpecError, match=message):
        parse_graph(spec)


def test_graph_spec_error_is_a_sleuth_value_error() -> None:
    with pytest.raises(SleuthError):
        parse_graph("cycle:2")
    with pytest.raises(ValueError):
        parse_graph("cycle:2")


def test_bad_edge_list_file_names_the_line(tmp_path: Path) -> None:
    f = tmp_path / "bad.txt"
    f.write_text("0 1\n# fine\n1 two\n", encoding="utf-8")
    with pytest.raises(GraphSpecError, match=r"line 3.*'1 two'"):
        parse_graph(str(f))


def test_edge_list_file_with_only_comments(tmp_path: Path) -> None:
    f = tmp_path / "empty.txt"
    f.write_text("# nothing here\n\n", encoding="utf-8")
    with pytest.raises(GraphSpecError, match="no edges"):
        parse_graph(str(f))


def test_disconnected_edge_list_file(tmp_path: Path) -> None:
    f = tmp_path / "two.txt"
    f.write_text("0 1\n2 3\n", encoding="utf-8")
    with pytest.raises(GraphSpecError, match="not connected"):
        parse_graph(str(f))


def test_from_edges_checks() -> None:
    with pytest.raises(GraphSpecError, match="at least one hole"):
        from_edges(0, [])
    with pytest.raises(GraphSpecError, match=r"outside 0\.\.2"):
        from_edges(3, [(0, 1), (1, 3)])
    with pytest.raises(GraphSpecError, match="not connected"):
        from_edges(3, [(0, 1)])


HUGE_SPECS = [
    "path:10000000",
    "cycle:10000000",
    "star:99999999",
    "grid:5000x5000",
    "grid:1x100000000",
    "spider:5000000,5000000",
    "binary-tree:40",
    "binary-tree:100000000",
    "edges:0-99999999",
    f"path:{MAX_HOLES + 1}",
]


@pytest.mark.parametrize("spec", HUGE_SPECS)
def test_too_many_holes_fails_fast(spec: str) -> None:
    tracemalloc.start()
    try:
        with pytest.raises(GraphSpecError, match="limit"):
            parse_graph(spec)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000  # refused from the spec, before any hole is built


def test_largest_board_is_accepted() -> None:
    g = parse_graph(f"path:{MAX_HOLES}")
    assert g.n == MAX_HOLES
    assert len(adjacency(g)[MAX_HOLES - 1]) == 1
