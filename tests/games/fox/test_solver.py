"""The exact solver (rule A5) against the known results O1-O12 of ``docs/fox.md``.

Sequences in ``docs/fox.md`` use holes 1..n; here they are converted to 0-based holes.
"""

from __future__ import annotations

import random

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sleuth.core.errors import SolverLimitError
from sleuth.games.fox.belief import FoxBelief
from sleuth.games.fox.graph import FoxGraph, from_edges, parse_graph
from sleuth.games.fox.solver import Solution, check_certificate, solve

from .oracles import (
    adjacency,
    brute_force_days,
    contains_big_spider,
    evenings,
    is_certificate,
    optimal_sequences,
    random_connected_edges,
    tree_formula_days,
)


def one_based(*holes: int) -> list[list[int]]:
    """A k = 1 sequence written with the document's 1-based holes, as 0-based inspections."""
    return [[h - 1] for h in holes]


def assert_valid(
    graph: FoxGraph, sol: Solution, k: int = 1, lazy: bool = False, start: int | None = None
) -> None:
    """Replay a winning sequence (A_days empty, A_{days-1} not) or check the certificate."""
    adj = adjacency(graph)
    if sol.winnable:
        assert sol.certificate is None
        assert sol.strategy is not None and sol.days is not None
        assert len(sol.strategy) == sol.days
        for holes in sol.strategy:
            assert 1 <= len(holes) <= k
            assert len(set(holes)) == len(holes)
            assert all(0 <= h < graph.n for h in holes)
        begin = None if start is None else {h for h in range(graph.n) if start >> h & 1}
        mine = evenings(adj, sol.strategy, lazy, begin)
        assert len(mine) == sol.days
        assert not mine[-1]
        assert all(mine[:-1])
        if start is None:  # the hunter's own belief agrees: sure of the catch on the last day
            belief = FoxBelief(graph, k, lazy)
            sure = [belief.inspect(holes) for holes in sol.strategy]
            assert sure == [False] * (sol.days - 1) + [True]
    else:
        assert sol.days is None and sol.strategy is None
        assert sol.certificate is not None
        assert check_certificate(graph, k, lazy, sol.certificate, start)
        assert is_certificate(adj, k, lazy, sol.certificate, start)


def solve_checked(
    graph: FoxGraph | str, k: int = 1, lazy: bool = False, start: int | None = None
) -> Solution:
    g = parse_graph(graph) if isinstance(graph, str) else graph
    sol = solve(g, k, lazy, start)
    assert_valid(g, sol, k, lazy, start)
    return sol


def days_of(spec: str, k: int = 1, lazy: bool = False) -> int | None:
    return solve_checked(spec, k, lazy).days


def tree_graph(tree: nx.Graph) -> FoxGraph:
    return from_edges(tree.number_of_nodes(), list(tree.edges()))


# --- O1 / O6 / O7: characterisation of winnable graphs and the tree formula -----------------


def check_tree(tree: nx.Graph) -> bool:
    g = tree_graph(tree)
    adj = adjacency(g)
    sol = solve(g)
    assert sol.winnable == (not contains_big_spider(adj)), g.spec
    if sol.winnable:
        assert sol.days == tree_formula_days(adj), g.spec
        assert_valid(g, sol)
    else:
        assert check_certificate(g, 1, False, sol.certificate), g.spec
    return sol.winnable


SMALL_TREES = (987, 963)
"""Non-isomorphic trees with 1..12 holes (OEIS A000055) and how many are winnable."""
LARGE_TREES = {13: (1301, 1224), 14: (3159, 2872), 15: (7741, 6739), 16: (19320, 15955)}
"""Trees with n holes and how many of them are winnable: together they make up O6's figures."""


def test_o6_tree_counts_add_up() -> None:
    assert SMALL_TREES[0] + sum(t for t, _ in LARGE_TREES.values()) == 32_508
    assert SMALL_TREES[1] + sum(w for _, w in LARGE_TREES.values()) == 27_753


def test_o1_every_tree_up_to_12_holes() -> None:
    total = winnable = 0
    for n in range(1, 13):
        for tree in nx.nonisomorphic_trees(n):
            total += 1
            winnable += check_tree(tree)
    assert (total, winnable) == SMALL_TREES


@pytest.mark.slow
@pytest.mark.parametrize("n", sorted(LARGE_TREES))
def test_o6_every_tree_up_to_16_holes(n: int) -> None:
    total = winnable = 0
    for tree in nx.nonisomorphic_trees(n):
        total += 1
        winnable += check_tree(tree)
    assert (total, winnable) == LARGE_TREES[n]


def test_o6_every_connected_graph_with_a_cycle_up_to_7_holes_is_unwinnable() -> None:
    count = 0
    for g in nx.graph_atlas_g():
        if g.number_of_nodes() == 0 or not nx.is_connected(g) or nx.is_tree(g):
            continue
        count += 1
        sol = solve_checked(from_edges(g.number_of_nodes(), list(g.edges())))
        assert not sol.winnable
    assert count == 971


K4 = "edges:0-1,0-2,0-3,1-2,1-3,2-3"


@pytest.mark.parametrize("spec", [*(f"cycle:{n}" for n in range(3, 13)), K4])
def test_o6_cycles_and_k4_are_unwinnable(spec: str) -> None:
    assert not solve_checked(spec).winnable


@pytest.mark.parametrize("seed", range(150))
def test_o7_tree_formula_on_random_trees(seed: int) -> None:
    n = 2 + seed % 15  # 2..16 holes
    check_tree(nx.random_labeled_tree(n, seed=seed))


def test_o7_tree_formula_small_cases() -> None:
    assert days_of("path:1") == 1
    assert days_of("path:2") == 2
    for r in range(2, 9):
        assert days_of(f"star:{r}") == 2


# --- O8 / O4: paths -----------------------------------------------------------------------

PATH_DAYS = {1: 1, 2: 2, **{n: 2 * n - 4 for n in range(3, 19)}}


@pytest.mark.parametrize(("n", "days"), sorted(PATH_DAYS.items()))
def test_o8_path_days(n: int, days: int) -> None:
    assert days_of(f"path:{n}") == days


OPTIMAL_PATH_SEQUENCES = {
    3: [(2, 2)],
    4: [(2, 3, 3, 2), (3, 2, 2, 3)],
    5: [(2, 3, 4, 2, 3, 4), (2, 3, 4, 4, 3, 2), (4, 3, 2, 2, 3, 4), (4, 3, 2, 4, 3, 2)],
    6: [(2, 3, 4, 5, 5, 4, 3, 2), (5, 4, 3, 2, 2, 3, 4, 5)],
}


@pytest.mark.parametrize("n", sorted(OPTIMAL_PATH_SEQUENCES))
def test_o8_complete_sets_of_optimal_path_sequences(n: int) -> None:
    g = parse_graph(f"path:{n}")
    adj = adjacency(g)
    days = PATH_DAYS[n]
    # no sequence at all catches the fox sooner (exhaustive)
    for shorter in range(1, days):
        assert optimal_sequences(adj, shorter) == set()
    found = optimal_sequences(adj, days)
    expected = {tuple(h - 1 for h in seq) for seq in OPTIMAL_PATH_SEQUENCES[n]}
    assert found == expected
    for seq in found:
        a = evenings(adj, [[h] for h in seq])
        assert len(a) == days and not a[-1] and all(a[:-1])
    sol = solve_checked(g)
    assert sol.days == days
    assert tuple(h for (h,) in sol.strategy) in found


def test_o8_p7_double_sweep_is_optimal() -> None:
    g = parse_graph("path:7")
    a = evenings(adjacency(g), one_based(2, 3, 4, 5, 6, 2, 3, 4, 5, 6))
    assert len(a) == 10 and not a[-1] and all(a[:-1])
    assert solve(g).days == 10


@pytest.mark.parametrize("n", range(3, 13))
def test_o4_sweep_there_and_back(n: int) -> None:
    g = parse_graph(f"path:{n}")
    adj = adjacency(g)
    up = list(range(2, n))
    there_and_back = one_based(*up, *reversed(up))
    assert len(there_and_back) == 2 * n - 4
    a = evenings(adj, there_and_back)
    assert len(a) == 2 * n - 4 and not a[-1] and all(a[:-1])
    twice = one_based(*up, *up)
    caught = evenings(adj, twice)[-1] == frozenset()
    assert caught == (n % 2 == 1)


# --- O9: trees ----------------------------------------------------------------------------

TREE_DAYS = {
    "spider:1,1,1": 2,
    "spider:2,1,1": 4,
    "spider:2,2,1": 6,
    "spider:3,3,1": 10,
    "spider:2,2,2": 10,
    "spider:3,2,2": 12,
    "spider:3,3,2": 14,
    "spider:2,2,2,2": 14,
    "spider:2,2,2,2,2": 18,
    "binary-tree:0": 1,
    "binary-tree:1": 2,
    "binary-tree:2": 6,
    "binary-tree:3": 18,
}


@pytest.mark.parametrize(("spec", "days"), sorted(TREE_DAYS.items()))
def test_o9_tree_days(spec: str, days: int) -> None:
    assert days_of(spec) == days


def test_o9_spider_333_is_unwinnable() -> None:
    assert not solve_checked("spider:3,3,3").winnable


@pytest.mark.parametrize("r", range(2, 8))
def test_o9_star_centre_twice(r: int) -> None:
    g = parse_graph(f"star:{r}")
    assert evenings(adjacency(g), [[0], [0]]) == [frozenset(range(1, r + 1)), frozenset()]
    assert solve(g).days == 2


def test_o9_binary_tree_heap_sequence() -> None:
    # the document labels the root 1 and the children of v as 2v, 2v+1; the library labels
    # the root 0 and the children of v as 2v+1, 2v+2, i.e. hole = document label - 1
    g = parse_graph("binary-tree:3")
    seq = one_based(*[4, 2, 5, 2, 1, 3, 6, 3, 7] * 2)
    a = evenings(adjacency(g), seq)
    assert len(a) == 18 and not a[-1] and all(a[:-1])


# --- O10 / O11 / O2: more inspections, lazy fox --------------------------------------------

K2_PATHS = {2: 1, 3: 2, 4: 2, 5: 2, 6: 3, 7: 4, 8: 4, 9: 6, 10: 6, 11: 6, 12: 7}
K2_CYCLES = {3: 2, 4: 2, 5: 4, 6: 4, 7: 6, 8: 6, 9: 8, 10: 8, 11: 10, 12: 10}


@pytest.mark.parametrize(("n", "days"), sorted(K2_PATHS.items()))
def test_o10_paths_with_two_inspections(n: int, days: int) -> None:
    assert days_of(f"path:{n}", k=2) == days


@pytest.mark.parametrize(("n", "days"), sorted(K2_CYCLES.items()))
def test_o10_cycles_with_two_inspections(n: int, days: int) -> None:
    assert days_of(f"cycle:{n}", k=2) == days


@pytest.mark.parametrize("n", range(2, 13))
def test_o11_lazy_path_k2(n: int) -> None:
    assert days_of(f"path:{n}", k=2, lazy=True) == n - 1
    g = parse_graph(f"path:{n}")
    sweep = [[i, i + 1] for i in range(n - 1)]
    a = evenings(adjacency(g), sweep, lazy=True)
    assert len(a) == n - 1 and not a[-1] and all(a[:-1])


@pytest.mark.parametrize("n", range(3, 13))
def test_o11_lazy_cycles(n: int) -> None:
    g = parse_graph(f"cycle:{n}")
    sol = solve_checked(g, k=2, lazy=True)
    assert not sol.winnable
    assert check_certificate(g, 2, True, frozenset({g.all_holes}))
    assert days_of(f"cycle:{n}", k=3, lazy=True) == (1 if n == 3 else n - 2)


O2_GRAPHS = ["path:2", "path:3", "path:7", "star:4", "cycle:5", "grid:3x3", "spider:3,3,3"]


@pytest.mark.parametrize("spec", O2_GRAPHS)
def test_o2_lazy_fox_with_one_inspection_is_never_caught(spec: str) -> None:
    g = parse_graph(spec)
    sol = solve_checked(g, lazy=True)
    assert not sol.winnable
    everything = frozenset({g.all_holes})
    assert check_certificate(g, 1, True, everything)
    assert is_certificate(adjacency(g), 1, True, everything)


def test_o2_lazy_fox_on_one_hole() -> None:
    sol = solve_checked("path:1", lazy=True)
    assert sol.days == 1 and sol.strategy == ((0,),)


@pytest.mark.parametrize("n", range(3, 10))
def test_o2_cycles_have_the_trivial_certificate(n: int) -> None:
    g = parse_graph(f"cycle:{n}")
    assert check_certificate(g, 1, False, frozenset({g.all_holes}))
    assert is_certificate(adjacency(g), 1, False, [g.all_holes])


# --- O12 / O5: grids ----------------------------------------------------------------------

GRIDS = {
    "grid:2x2": (None, 2, 2),
    "grid:2x3": (None, 4, 2),
    "grid:2x4": (None, 6, 4),
    "grid:3x3": (None, 10, 4),
    "grid:3x4": (None, 16, 6),
}


@pytest.mark.parametrize(("spec", "days"), sorted(GRIDS.items()))
def test_o12_grids(spec: str, days: tuple[int | None, ...]) -> None:
    assert tuple(days_of(spec, k=k) for k in (1, 2, 3)) == days


def test_o5_least_k_on_a_4x4_grid_is_3() -> None:
    assert not solve_checked("grid:4x4", k=2).winnable
    assert solve_checked("grid:4x4", k=3).winnable


# --- certificates, limits, arguments ------------------------------------------------------


def test_check_certificate_rejects_bad_families() -> None:
    p5 = parse_graph("path:5")
    everything = p5.all_holes
    assert not check_certificate(p5, 1, False, frozenset({everything}))  # P5 is winnable
    c5 = parse_graph("cycle:5")
    assert check_certificate(c5, 1, False, frozenset({c5.all_holes}))
    assert not check_certificate(c5, 1, False, frozenset({0b01111}))  # start missing
    assert not check_certificate(c5, 1, False, frozenset({c5.all_holes, 0b1}))  # small member
    assert not check_certificate(c5, 5, False, frozenset({c5.all_holes}))  # k >= n
    assert not check_certificate(c5, 1, False, frozenset({c5.all_holes}), start=0b01111)
    s333 = parse_graph("spider:3,3,3")
    sol = solve(s333)
    assert check_certificate(s333, 1, False, sol.certificate)
    assert not check_certificate(s333, 2, False, sol.certificate)  # k = 2 wins on S(3,3,3)


def test_solver_limit() -> None:
    with pytest.raises(SolverLimitError, match="10"):
        solve(parse_graph("path:18"), max_states=10)
    with pytest.raises(SolverLimitError):
        solve(parse_graph("grid:4x4"), k=3, max_states=100)
    with pytest.raises(SolverLimitError):  # an unwinnable board stops too
        solve(parse_graph("spider:3,3,3"), max_states=5)
    sol = solve(parse_graph("path:18"))
    assert sol.states_explored <= 2_000_000


def test_solver_argument_errors() -> None:
    g = parse_graph("path:5")
    with pytest.raises(ValueError, match="k must be"):
        solve(g, k=0)
    with pytest.raises(ValueError, match="empty"):
        solve(g, start=0)


def test_single_hole_and_k_at_least_n() -> None:
    assert solve_checked("path:1").strategy == ((0,),)
    sol = solve_checked("cycle:4", k=4)
    assert sol.days == 1 and sol.strategy == ((0, 1, 2, 3),)


def test_solve_from_a_current_belief() -> None:
    # P5 after inspecting hole 2 (1-based) on day 1: the optimal plan needs 6 days in all,
    # and 2,3,4,2,3,4 is optimal, so 5 more days suffice from B_2; the brute force agrees
    g = parse_graph("path:5")
    b2 = g.night(g.all_holes & ~(1 << 1))
    sol = solve_checked(g, start=b2)
    assert sol.days == brute_force_days(adjacency(g), 1, False, 10, start=_holes(b2)) == 5


def _holes(mask: int) -> set[int]:
    return {h for h in range(mask.bit_length()) if mask >> h & 1}


def test_deterministic() -> None:
    g = parse_graph("binary-tree:3")
    assert solve(g) == solve(g)


# --- property tests against brute force ---------------------------------------------------


@st.composite
def small_boards(draw: st.DrawFn) -> tuple[FoxGraph, int, bool, int | None]:
    n = draw(st.integers(1, 6))
    rng = random.Random(draw(st.integers(0, 2**32)))
    extra = draw(st.sampled_from([0.0, 0.15, 0.4]))
    graph = from_edges(n, random_connected_edges(rng, n, extra))
    k = draw(st.integers(1, 2))
    lazy = draw(st.booleans())
    start = draw(st.none() | st.integers(1, (1 << n) - 1))
    return graph, k, lazy, start


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_boards())
def test_solver_agrees_with_brute_force(board: tuple[FoxGraph, int, bool, int | None]) -> None:
    graph, k, lazy, start = board
    sol = solve(graph, k, lazy, start)
    assert_valid(graph, sol, k, lazy, start)
    begin = None if start is None else _holes(start)
    brute = brute_force_days(adjacency(graph), k, lazy, 8, start=begin)
    if sol.winnable and sol.days <= 8:
        assert brute == sol.days
    else:
        assert brute is None


@settings(max_examples=150, deadline=None)
@given(small_boards(), st.integers(0, 2**6 - 1))
def test_solver_is_monotone(board: tuple[FoxGraph, int, bool, int | None], drop: int) -> None:
    graph, k, lazy, start = board
    bigger = graph.all_holes if start is None else start
    smaller = bigger & ~drop or bigger
    big, small = solve(graph, k, lazy, bigger), solve(graph, k, lazy, smaller)
    if big.winnable:
        assert small.winnable
        assert small.days <= big.days


def test_brute_force_oracle_sanity() -> None:
    # the brute force itself: P5 needs 6 days, C4 cannot be won, K2 with k=2 takes 1 day
    assert brute_force_days(adjacency(parse_graph("path:5")), 1, False, 8) == 6
    assert brute_force_days(adjacency(parse_graph("path:5")), 1, False, 5) is None
    assert brute_force_days(adjacency(parse_graph("cycle:4")), 1, False, 8) is None
    assert brute_force_days(adjacency(parse_graph("path:2")), 2, False, 8) == 1


def test_tree_oracles_sanity() -> None:
    spider = adjacency(parse_graph("spider:3,3,3"))
    assert contains_big_spider(spider)
    assert not contains_big_spider(adjacency(parse_graph("spider:3,3,2,2")))
    assert contains_big_spider(adjacency(parse_graph("spider:4,3,3,1")))
    assert tree_formula_days(adjacency(parse_graph("path:6"))) == 8
    assert tree_formula_days(adjacency(parse_graph("binary-tree:3"))) == 18


def test_time_budget_stops_a_long_search_with_a_clear_error() -> None:
    from sleuth.core.errors import SolverLimitError
    from sleuth.games.fox.graph import path as path_graph
    from sleuth.games.fox.solver import solve as solve_board

    with pytest.raises(SolverLimitError, match=r"gave up after 0\.2 s"):
        solve_board(path_graph(300), max_seconds=0.2)
