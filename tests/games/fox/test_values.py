"""Finite-horizon mixed values (rule A6) against O3 and O13, with both optimal mixes checked."""

from __future__ import annotations

import random
import tracemalloc
from fractions import Fraction
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.core.errors import SolverLimitError
from sleuth.games.fox.graph import FoxGraph, from_edges, parse_graph
from sleuth.games.fox.solver import solve
from sleuth.games.fox.values import GameValue, game_value, walks

from .oracles import adjacency, is_walk, random_connected_edges, walks_of

TOL = 1e-6

O13 = {
    "path:2": {1: Fraction(1, 2), 2: Fraction(1)},
    "path:3": {1: Fraction(1, 3), 2: Fraction(1)},
    "path:4": {1: Fraction(1, 4), 2: Fraction(1, 2), 3: Fraction(3, 4), 4: Fraction(1)},
    "path:5": {
        1: Fraction(1, 5),
        2: Fraction(1, 2),
        3: Fraction(5, 8),
        4: Fraction(3, 4),
        5: Fraction(7, 8),
        6: Fraction(1),
    },
    "path:6": {2: Fraction(1, 3), 3: Fraction(1, 2), 4: Fraction(2, 3)},
}


@pytest.mark.parametrize(
    ("spec", "days", "p"), [(s, t, p) for s, row in O13.items() for t, p in row.items()]
)
def test_o13_path_values(spec: str, days: int, p: Fraction) -> None:
    value = game_value(parse_graph(spec), days)
    assert value.p_catch == pytest.approx(float(p), abs=TOL)


@pytest.mark.parametrize(
    ("spec", "k", "lazy"),
    [
        ("path:1", 1, False),
        ("path:5", 1, False),
        ("path:5", 1, True),
        ("cycle:5", 1, False),
        ("star:3", 1, False),
        ("grid:2x3", 2, False),
        ("grid:2x3", 3, True),
        ("spider:3,3,3", 1, False),
        ("cycle:4", 4, False),
    ],
)
def test_o3_one_day_is_k_over_n(spec: str, k: int, lazy: bool) -> None:
    g = parse_graph(spec)
    assert game_value(g, 1, k, lazy).p_catch == pytest.approx(min(k, g.n) / g.n, abs=TOL)


@pytest.mark.parametrize(
    ("spec", "k", "lazy"),
    [
        ("path:1", 1, False),
        ("path:1", 1, True),
        ("path:2", 1, False),
        ("path:3", 1, False),
        ("path:4", 1, False),
        ("star:3", 1, False),
        ("spider:2,1,1", 1, False),
        ("path:5", 2, False),
        ("cycle:4", 2, False),
        ("path:3", 2, True),
        ("cycle:4", 3, True),
    ],
)
def test_o3_enough_days_catch_for_sure(spec: str, k: int, lazy: bool) -> None:
    g = parse_graph(spec)
    days = solve(g, k, lazy).days
    assert days is not None
    for horizon in (days, days + 1):
        assert game_value(g, horizon, k, lazy).p_catch == pytest.approx(1.0, abs=TOL)
    if days > 1:  # one day fewer is not enough for a sure catch
        assert game_value(g, days - 1, k, lazy).p_catch < 1 - 1e-4


# --- the mixed strategies -----------------------------------------------------------------


def caught(walk: tuple[int, ...], seq: list[set[int]] | tuple[set[int], ...]) -> bool:
    return any(x in holes for x, holes in zip(walk, seq, strict=True))


def assert_optimal_mixes(g: FoxGraph, value: GameValue, days: int, k: int, lazy: bool) -> None:
    """Both mixes are distributions and each guarantees p_catch against every pure reply."""
    adj = adjacency(g)
    size = min(k, g.n)
    assert sum(p for _, p in value.hunter) == pytest.approx(1.0, abs=TOL)
    assert sum(p for _, p in value.fox) == pytest.approx(1.0, abs=TOL)
    assert all(p > 0 for _, p in value.hunter + value.fox)
    for seq, _ in value.hunter:
        assert len(seq) == days
        for holes in seq:
            assert len(holes) == len(set(holes)) == size
            assert all(0 <= h < g.n for h in holes)
    all_walks = walks_of(adj, days, lazy or g.n == 1)
    for walk, _ in value.fox:
        assert walk in all_walks

    hunter = [([set(h) for h in seq], p) for seq, p in value.hunter]
    for walk in all_walks:  # the hunter's mix catches every walk often enough
        p_caught = sum(
            p for seq, p in hunter if any(x in s for x, s in zip(walk, seq, strict=True))
        )
        assert p_caught >= value.p_catch - TOL, walk
    day_sets = [set(c) for c in combinations(range(g.n), size)]
    for seq in product(day_sets, repeat=days):  # no pure sequence beats the fox's mix
        p_caught = sum(
            p for walk, p in value.fox if any(x in s for x, s in zip(walk, seq, strict=True))
        )
        assert p_caught <= value.p_catch + TOL, seq


MIX_CASES = [
    ("path:4", 1, 1, False),
    ("path:4", 2, 1, False),
    ("path:4", 3, 1, False),
    ("path:5", 3, 1, False),
    ("path:5", 5, 1, False),
    ("path:6", 3, 1, False),
    ("cycle:5", 2, 1, False),
    ("star:3", 2, 1, False),
    ("grid:2x3", 2, 2, False),
    ("path:4", 3, 1, True),
    ("cycle:4", 2, 2, True),
    ("path:1", 2, 1, False),
]


@pytest.mark.parametrize(("spec", "days", "k", "lazy"), MIX_CASES)
def test_mixes_are_optimal(spec: str, days: int, k: int, lazy: bool) -> None:
    g = parse_graph(spec)
    assert_optimal_mixes(g, game_value(g, days, k, lazy), days, k, lazy)


@pytest.mark.parametrize("spec", ["path:1", "path:4", "cycle:5", "star:3", "grid:2x3"])
@pytest.mark.parametrize("lazy", [False, True])
def test_walks_are_every_legal_walk(spec: str, lazy: bool) -> None:
    g = parse_graph(spec)
    adj = adjacency(g)
    for days in (1, 2, 3, 4):
        listed = walks(g, days, lazy)
        assert listed == sorted(set(listed))  # lexicographic, no repeats
        if g.n > 1:
            brute = [w for w in product(range(g.n), repeat=days) if is_walk(adj, w, lazy)]
            assert listed == brute


def test_one_hole_fox_stays_put() -> None:
    # rule X9: on a one-hole board the fox never has to move
    assert walks(parse_graph("path:1"), 3) == [(0, 0, 0)]
    assert game_value(parse_graph("path:1"), 3).p_catch == pytest.approx(1.0)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 4),
    st.integers(0, 2**32),
    st.integers(1, 3),
    st.integers(1, 2),
    st.booleans(),
)
def test_sure_catch_iff_solver_days_fit(n: int, seed: int, days: int, k: int, lazy: bool) -> None:
    """Value 1 means every sequence in the hunter's mix catches every walk (A3: A_T is empty)."""
    g = from_edges(n, random_connected_edges(random.Random(seed), n, 0.3))
    value = game_value(g, days, k, lazy)
    sol = solve(g, k, lazy)
    sure = sol.winnable and sol.days <= days
    assert (value.p_catch > 1 - TOL) == sure
    assert value.p_catch >= min(k, n) / n - TOL
    if days > 1:
        assert value.p_catch >= game_value(g, days - 1, k, lazy).p_catch - TOL


# --- limits -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "days", "k"),
    [
        ("path:10", 10, 1),
        ("grid:4x4", 6, 2),
        ("path:10", 10_000, 1),
        ("path:10", 10**9, 1),
        ("path:2", 10**9, 2),
        ("path:1", 10**9, 1),
    ],
)
def test_too_large_fails_fast(spec: str, days: int, k: int) -> None:
    g = parse_graph(spec)
    tracemalloc.start()
    try:
        with pytest.raises(SolverLimitError, match="too large"):
            game_value(g, days, k)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000  # refused from the sizes, before any table is built


def test_days_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        game_value(parse_graph("path:3"), 0)
