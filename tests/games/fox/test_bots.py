"""The Fox in a Hole bots: they see only their views and play as documented."""

from __future__ import annotations

import pytest

from sleuth.core.match import run_match
from sleuth.core.registry import game_spec, make_game
from sleuth.games.fox.bots import RandomWalkFilter
from sleuth.games.fox.graph import parse_graph

from .oracles import adjacency, walks_of

SPEC = game_spec("fox")


def play(graph: str, hunter: str, fox: str, seed: int, **options: object) -> object:
    game = make_game("fox", {"graph": graph, **options})
    return run_match(game, [SPEC.bot(hunter), SPEC.bot(fox)], seed)


@pytest.mark.parametrize(
    ("graph", "days"),
    [("path:5", 6), ("path:8", 12), ("spider:2,2,2,2,2", 18), ("binary-tree:3", 18)],
)
def test_solver_catches_the_quantum_fox_on_the_optimal_day(graph: str, days: int) -> None:
    record = play(graph, "solver", "quantum", seed=1)
    assert record.wins == (1.0, 0.0)  # type: ignore[attr-defined]
    assert record.outcome == f"caught on day {days}"  # type: ignore[attr-defined]


@pytest.mark.parametrize("graph", ["cycle:6", "spider:3,3,3", "grid:3x3"])
def test_quantum_fox_survives_every_hunter_on_unwinnable_boards(graph: str) -> None:
    for hunter in ("solver", "random"):
        for seed in range(5):
            record = play(graph, hunter, "quantum", seed, days=15)
            assert record.wins == (0.0, 1.0)  # type: ignore[attr-defined]


def test_solver_catches_every_random_fox_on_winnable_boards() -> None:
    for seed in range(30):
        assert play("binary-tree:2", "solver", "random", seed).wins == (1.0, 0.0)  # type: ignore[attr-defined]


def test_filter_hunter_beats_random_hunter_against_a_random_fox_on_a_cycle() -> None:
    def catch_rate(hunter: str) -> float:
        games = [play("cycle:7", hunter, "random", seed, days=6) for seed in range(1000)]
        return sum(g.wins[0] for g in games) / len(games)  # type: ignore[attr-defined]

    assert catch_rate("solver") > catch_rate("random") + 0.05  # about 0.71 against 0.61


def test_random_walk_filter_matches_brute_force_bayes() -> None:
    """P(fox in v | dodged the inspections) for a uniform start and uniform random walk."""
    graph = parse_graph("edges:0-1,1-2,2-3,3-0,2-4")
    adj = adjacency(graph)
    inspections = [[2], [0], [4], [1]]
    filt = RandomWalkFilter(graph, lazy=False)
    for day, holes in enumerate(inspections, start=1):
        filt.dodged(holes)
        weight = dict.fromkeys(range(graph.n), 0.0)
        for walk in walks_of(adj, day + 1):
            if any(walk[t] in inspections[t] for t in range(day)):
                continue
            p = 1.0 / graph.n
            for a in walk[:-1]:
                p /= len(adj[a])
            weight[walk[-1]] += p
        total = sum(weight.values())
        for v in range(graph.n):
            assert filt.prob[v] == pytest.approx(weight[v] / total)


def test_random_fox_commits_and_quantum_fox_hides() -> None:
    record = play("path:5", "random", "random", seed=3)
    fox_steps = [s for s in record.steps if s.seat == 1]  # type: ignore[attr-defined]
    assert fox_steps and all(str(s.action).startswith("hole ") for s in fox_steps)
    record = play("path:5", "random", "quantum", seed=3)
    fox_steps = [s for s in record.steps if s.seat == 1]  # type: ignore[attr-defined]
    assert fox_steps and all(str(s.action) == "hide" for s in fox_steps)


def test_random_hunter_inspects_k_holes() -> None:
    record = play("grid:3x3", "random", "random", seed=2, k=2)
    inspections = [s.action for s in record.steps if s.seat == 0]  # type: ignore[attr-defined]
    assert inspections and all(len(a.holes) == 2 for a in inspections)
