"""Benchmark: Sleuth's exact Fox solver (rule A5) against a plain state-machine BFS.

The baseline is written the way the source article writes its "quantum fox" state machine:
a state is a Python list of the holes the fox may be in, the board is an adjacency list, and
``next_state(past_state, guess)`` is a line-by-line translation of the article's
``nextState`` (move, then drop the inspected holes), generalised to k inspections a day
(``guess`` is a tuple of holes) and to the lazy fox (each hole is also "adjacent" to itself).
A breadth-first search over these states with a visited set of frozensets finds the fewest
days; guesses are every ``itertools.combinations`` of the current (morning) belief.  No
bitsets, no pruning.

Both must agree on the number of days for every case (asserted).  A baseline run that takes
longer than the time budget is stopped and reported as "> budget", with a lower bound on the
ratio.

    .venv/bin/python bench/fox_solver.py [--quick] [--budget SECONDS]
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

import networkx as nx

from _report import print_table
from sleuth.games.fox.graph import FoxGraph, from_edges, parse_graph
from sleuth.games.fox.solver import solve

# ---------------------------------------------------------------------------------------------
# Baseline: the source's state machine, in plain Python
# ---------------------------------------------------------------------------------------------


def adjacency_list(graph: FoxGraph, lazy: bool = False) -> list[list[int]]:
    """ADJACENCY_LIST[i] = the holes next to hole i (plus i itself for a lazy fox)."""
    adjacency: list[list[int]] = [[] for _ in range(graph.n)]
    for u, v in graph.edges:
        adjacency[u].append(v)
        adjacency[v].append(u)
    if lazy:
        adjacency = [[i, *holes] for i, holes in enumerate(adjacency)]
    return adjacency


def next_state(
    past_state: list[int], guess: tuple[int, ...], adjacency: list[list[int]]
) -> list[int]:
    """The article's nextState: holes next to a possible past hole, minus the inspected ones."""
    nxt: list[int] = []
    for possible_past_hole in past_state:
        possible_next_holes = adjacency[possible_past_hole]
        for possible_next_hole in possible_next_holes:
            if possible_next_hole not in guess and possible_next_hole not in nxt:
                nxt.append(possible_next_hole)
    return nxt


class BudgetExceeded(Exception):
    def __init__(self, seconds: float, states: int) -> None:
        super().__init__(f"stopped after {seconds:.1f} s and {states} states")
        self.seconds = seconds
        self.states = states


def baseline_days(
    graph: FoxGraph, k: int = 1, lazy: bool = False, budget: float | None = None
) -> tuple[int | None, int]:
    """(fewest days to guarantee a catch or None if unwinnable, states visited) by plain BFS.

    State s_0 lists every hole; a guess on day t is taken from the morning belief
    ``next_state(s_{t-1}, ())`` and ``s_t = next_state(s_{t-1}, guess)``; s_t = [] means the
    fox is caught on day t whatever it did.
    """
    adjacency = adjacency_list(graph, lazy)
    start = list(range(graph.n))
    visited = {frozenset(start)}
    frontier = [start]
    depth = 0
    began = time.perf_counter()
    while frontier:
        depth += 1
        new_frontier = []
        for state in frontier:
            if budget is not None:
                elapsed = time.perf_counter() - began
                if elapsed > budget:
                    raise BudgetExceeded(elapsed, len(visited))
            morning = next_state(state, (), adjacency)
            for guess in combinations(morning, min(k, len(morning))):
                nxt = next_state(state, guess, adjacency)
                if not nxt:
                    return depth, len(visited)
                key = frozenset(nxt)
                if key not in visited:
                    visited.add(key)
                    new_frontier.append(nxt)
        frontier = new_frontier
    return None, len(visited)


# ---------------------------------------------------------------------------------------------
# Cases and timing
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    name: str
    graph: FoxGraph
    k: int = 1
    lazy: bool = False


def random_tree(n: int, seed: int) -> FoxGraph:
    tree = nx.random_labeled_tree(n, seed=seed)
    return from_edges(n, list(tree.edges))


def cases(quick: bool) -> list[Case]:
    if quick:
        return [
            Case("path:5", parse_graph("path:5")),
            Case("spider:2,2,2", parse_graph("spider:2,2,2")),
            Case("grid:2x3 k=2", parse_graph("grid:2x3"), k=2),
            Case("cycle:6", parse_graph("cycle:6")),
            Case("path:5 k=2 lazy", parse_graph("path:5"), k=2, lazy=True),
            Case("random-tree:10 seed=1", random_tree(10, 1)),
        ]
    out = [
        Case("path:5", parse_graph("path:5")),
        Case("path:12", parse_graph("path:12")),
        Case("path:18", parse_graph("path:18")),
        Case("spider:3,3,3", parse_graph("spider:3,3,3")),
        Case("spider:2,2,2,2,2", parse_graph("spider:2,2,2,2,2")),
        Case("binary-tree:3", parse_graph("binary-tree:3")),
        Case("grid:3x4 k=2", parse_graph("grid:3x4"), k=2),
        Case("cycle:10", parse_graph("cycle:10")),
        Case("path:8 k=2 lazy", parse_graph("path:8"), k=2, lazy=True),
    ]
    out += [
        Case(f"random-tree:{n} seed={seed}", random_tree(n, seed))
        for n, seed in ((16, 1), (17, 2), (18, 3), (19, 4), (20, 5))
    ]
    # A stress case beyond the plain BFS: it runs into the time budget.
    out.append(Case("grid:4x4 k=3", parse_graph("grid:4x4"), k=3))
    return out


def best_time(run: Callable[[], object], min_total: float, max_repeats: int) -> float:
    """The fastest of several runs (seconds); repeats until ``min_total`` seconds have passed."""
    best = float("inf")
    total = 0.0
    for _ in range(max_repeats):
        t0 = time.perf_counter()
        run()
        dt = time.perf_counter() - t0
        best = min(best, dt)
        total += dt
        if total >= min_total:
            break
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small cases only (smoke test)")
    parser.add_argument(
        "--budget", type=float, default=20.0, help="seconds allowed per baseline run (default 20)"
    )
    args = parser.parse_args()
    min_total = 0.05 if args.quick else 1.0
    version = platform.python_version()
    print(f"Fox solver: Sleuth solve() vs plain list/frozenset BFS (Python {version})")
    print()
    header = ["case", "holes", "k", "days", "Sleuth ms", "baseline ms", "ratio", "states S/B"]
    rows = []
    for case in cases(args.quick):
        g, k, lazy = case.graph, case.k, case.lazy
        solution = solve(g, k, lazy)  # warm-up (builds the graph's night tables)
        sleuth_s = best_time(lambda g=g, k=k, lazy=lazy: solve(g, k, lazy), min_total, 50)
        t0 = time.perf_counter()
        try:
            days, states = baseline_days(g, k, lazy, budget=args.budget)
        except BudgetExceeded as stop:
            base_cell = f"> {stop.seconds * 1000:.2f}"
            ratio_cell = f"> {stop.seconds / sleuth_s:.1f}x"
            states_cell = f"{solution.states_explored}/>{stop.states}"
        else:
            first = time.perf_counter() - t0
            assert days == solution.days, f"{case.name}: baseline {days}, Sleuth {solution.days}"
            base_s = first
            if first * 3 < min_total:
                run = lambda g=g, k=k, lazy=lazy: baseline_days(g, k, lazy)  # noqa: E731
                base_s = min(first, best_time(run, min_total, 20))
            base_cell = f"{base_s * 1000:.2f}"
            ratio_cell = f"{base_s / sleuth_s:.1f}x"
            states_cell = f"{solution.states_explored}/{states}"
        rows.append(
            [
                case.name,
                str(g.n),
                str(k) + (" lazy" if lazy else ""),
                "none" if solution.days is None else str(solution.days),
                f"{sleuth_s * 1000:.2f}",
                base_cell,
                ratio_cell,
                states_cell,
            ]
        )
        print(f"  done {case.name}", flush=True)
    print()
    print_table(header, rows)
    print()
    print("ratio = baseline time / Sleuth time (higher: Sleuth faster); times are best of repeats.")
    print("days 'none' = unwinnable; days agree for every case the baseline finished.")
    print("states S/B = beliefs Sleuth visited / states the baseline visited.")
    print(f"'> t' = the baseline was stopped at its {args.budget:g} s budget (ratio: lower bound).")


if __name__ == "__main__":
    main()
