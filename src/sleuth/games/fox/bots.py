"""Fox in a Hole players.

Hunters: ``random`` (a uniformly random inspection of ``min(k, n)`` holes each day) and
``solver`` (follows an optimal sequence from the exact solver when one exists; otherwise, or if
the board is too large to solve, inspects the holes most likely to hold a fox that walks at
random, a Bayesian filter over the inspections so far).

Foxes: ``random`` (hides in a random hole and walks to a random neighbour each night, or stays
with the lazy option) and ``quantum`` (the adversarial fox of rule A3: never commits, so it is
caught only when no fox could have dodged every inspection).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import Any

from sleuth.core.bots import Bot
from sleuth.core.errors import SolverLimitError
from sleuth.core.events import View
from sleuth.core.game import Game
from sleuth.games.fox.belief import FoxBelief
from sleuth.games.fox.catalogue import GAME
from sleuth.games.fox.graph import FoxGraph, holes_of
from sleuth.games.fox.rules import HIDE, FoxGame, FoxMove, Inspect
from sleuth.games.fox.solver import Solution, solve

SOLVER_BOT_MAX_STATES = 200_000
"""The solver hunter gives up on exact play beyond this many beliefs and plays the filter: a
limit in work, not time, so that its games are the same on any machine at any load."""


def _fox_game(game: Game[Any]) -> FoxGame:
    assert isinstance(game, FoxGame)
    return game


class RandomHunter(Bot):
    """Inspects ``min(k, n)`` holes chosen uniformly at random each day."""

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        game = _fox_game(self.game)
        size = min(game.k, game.graph.n)
        return self.rng.choice(
            [a for a in legal if isinstance(a, Inspect) and len(a.holes) == size]
        )


@lru_cache(maxsize=64)
def _cached_solution(graph: FoxGraph, k: int, lazy: bool) -> Solution | None:
    try:
        return solve(graph, k, lazy, max_states=SOLVER_BOT_MAX_STATES, max_seconds=None)
    except SolverLimitError:
        return None


class SolverHunter(Bot):
    """Plays an optimal sequence when one exists, else the most likely holes of a random fox."""

    def __init__(self, game: Game[Any], seat: int, seed: int) -> None:
        super().__init__(game, seat, seed)
        fox = _fox_game(game)
        self.solution = _cached_solution(fox.graph, fox.k, fox.lazy)
        self.belief = FoxBelief(fox.graph, fox.k, fox.lazy)
        self.filter = RandomWalkFilter(fox.graph, fox.lazy)
        self.seen = 0

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        for event in view.events[self.seen :]:
            if event.kind == "inspected":
                self.belief.inspect(event.public["holes"])
                self.filter.dodged(event.public["holes"])
        self.seen = len(view.events)
        plan = self.solution.strategy if self.solution is not None else None
        if plan is not None and self.belief.day <= len(plan):
            return Inspect(plan[self.belief.day - 1])
        return Inspect(tuple(self.filter.most_likely(_fox_game(self.game).k)))


class RandomWalkFilter:
    """P(fox in each hole) for a fox that starts uniformly and walks uniformly at random.

    ``dodged(holes)`` conditions on the fox not being in ``holes`` this morning and moves it
    one night on.  Probabilities are renormalised after each day.
    """

    def __init__(self, graph: FoxGraph, lazy: bool) -> None:
        self.graph = graph
        self.lazy = lazy
        self.nights = 0
        self.prob = [1.0 / graph.n] * graph.n
        self.moves = [
            holes_of(graph.neighbours[v] | ((1 << v) if lazy else 0)) for v in range(graph.n)
        ]

    def dodged(self, holes: Sequence[int]) -> None:
        for h in holes:
            self.prob[h] = 0.0
        total = sum(self.prob)
        nxt = [0.0] * self.graph.n
        if total > 0:
            for v, p in enumerate(self.prob):
                if p:
                    share = p / total / len(self.moves[v])
                    for w in self.moves[v]:
                        nxt[w] += share
        self.prob = nxt
        self.nights += 1

    def most_likely(self, k: int) -> list[int]:
        order = sorted(range(self.graph.n), key=lambda v: (-self.prob[v], v))
        return sorted(order[: min(k, self.graph.n)])


class RandomFox(Bot):
    """Hides in a uniformly random hole and moves to a uniformly random allowed hole each night."""

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        return self.rng.choice([a for a in legal if isinstance(a, FoxMove) and a.hole is not None])


class QuantumFox(Bot):
    """The adversarial fox (A3): never commits to a hole while any consistent hole remains."""

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        return HIDE


def _random_player(game: Game[Any], seat: int, seed: int) -> Bot:
    return (RandomHunter if game.roles[seat] == "hunter" else RandomFox)(game, seat, seed)


BOTS = (
    GAME.bot("random").implemented(_random_player),
    GAME.bot("solver").implemented(SolverHunter),
    GAME.bot("quantum").implemented(QuantumFox),
)
"""The game's own bots, as its catalogue declares them (the search bots come after)."""
