"""Fox in a Hole for the search layer: world sampling, rollouts, heuristic and evaluation.

Worlds.  The hunter sees only its own inspections, so a world is one walk of a fox that dodged
every one of them.  :class:`HunterSampler` draws such walks with the weights of the fox the
rollouts assume: it starts in a uniformly random hole and moves to a uniformly random allowed
hole each night (a walk's weight is the product of ``1 / moves`` along it).  It filters forward
day by day (renormalising each day) and draws the walk backwards from the current hole; a
search only needs the current hole, which it draws in O(log n).  Every walk that dodges the
inspections has a positive weight, so the holes drawn are exactly those the belief of rule A2
keeps.  The fox's own view shows everything, so its sampler replays it.

Rollouts ("random" policy): the hunter inspects ``min(k, n)`` holes uniformly at random (fewer
would waste an inspection) and the fox walks uniformly at random; the ``hide`` move of the
adversarial fox is a device of the engine, not a move a simulated fox makes.  The heuristic
hunter inspects random holes among those the public belief keeps; the evaluation at a depth
limit gives the hunter the share of the board its inspections have cleared.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from functools import lru_cache
from itertools import accumulate, combinations
from typing import Any

from sleuth.core.errors import SleuthError
from sleuth.core.events import View
from sleuth.core.game import Game, State
from sleuth.core.searchmodel import SearchModel, WorldSampler, replay_history
from sleuth.games.fox.catalogue import SEARCH_ITERATION_COST
from sleuth.games.fox.graph import FoxGraph, holes_of, mask_of
from sleuth.games.fox.rules import FOX, HIDE, FoxAction, FoxGame, FoxMove, FoxState, Inspect

FOX_MOVES = "fox moves"
"""The one observation class of the fox's night moves, seen by the hunter."""


def _fox_game(game: Game[Any]) -> FoxGame:
    assert isinstance(game, FoxGame)
    return game


def _fox_state(state: State[Any]) -> FoxState:
    assert isinstance(state, FoxState)
    return state


class _Moves:
    """Per-hole lists of the fox's moves on one board (graph data, nothing from a state)."""

    def __init__(self, graph: FoxGraph, lazy: bool) -> None:
        stay = [(1 << v) if lazy else 0 for v in range(graph.n)]
        self.forward = tuple(tuple(holes_of(graph.neighbours[v] | stay[v])) for v in range(graph.n))


class HunterSampler:
    """Random-walk fox walks that dodge the hunter's inspections (see the module docstring)."""

    def __init__(self, game: FoxGame, view: View) -> None:
        self.game = game
        self.inspected: list[tuple[int, ...]] = [
            tuple(e.public["holes"]) for e in view.events if e.kind == "inspected"
        ]
        nights = sum(1 for e in view.events if e.kind == "fox_moved")
        if nights != len(self.inspected) + 1 or any(
            e.kind == "inspected" and e.public["caught"] for e in view.events
        ):
            raise SleuthError("the hunter samples worlds only on its own turn")
        graph = game.graph
        self.moves = _Moves(graph, game.lazy).forward
        self.days: list[list[float]] = []
        """Per day, each hole's weight in the morning (before that day's inspection, if any)."""
        weights = [1.0] * graph.n
        for holes in self.inspected:
            for h in holes:
                weights[h] = 0.0
            self.days.append(weights)
            weights = self._night(weights)
        self.days.append(weights)
        self.current = list(accumulate(self.days[-1]))
        if self.current[-1] <= 0.0:
            raise SleuthError("no fox walk dodges these inspections")
        self.sources = tuple(
            tuple(v for v in range(graph.n) if u in self.moves[v]) for u in range(graph.n)
        )
        """For each hole, the holes a fox can reach it from in one night."""
        self.evenings = [mask_of(h for h, w in enumerate(day) if w) for day in self.days[:-1]]
        """The public belief after each inspection so far (the holes of positive weight)."""

    def _night(self, weights: list[float]) -> list[float]:
        total = sum(weights)
        if total <= 0.0:
            raise SleuthError("no fox walk dodges these inspections")
        out = [0.0] * len(weights)
        for v, w in enumerate(weights):
            if w:
                share = w / total / len(self.moves[v])
                for u in self.moves[v]:
                    out[u] += share
        return out

    def _current_hole(self, rng: random.Random) -> int:
        return rng.choices(range(self.game.graph.n), cum_weights=self.current)[0]

    def sample_walk(self, rng: random.Random) -> list[int]:
        """A walk (the fox's hole on each day so far, then its current hole)."""
        hole = self._current_hole(rng)
        walk = [hole]
        for weights in reversed(self.days[:-1]):
            sources = [v for v in self.sources[hole] if weights[v]]
            odds = [weights[v] / len(self.moves[v]) for v in sources]
            hole = rng.choices(sources, weights=odds)[0]
            walk.append(hole)
        walk.reverse()
        return walk

    def sample_history(self, rng: random.Random) -> list[FoxAction]:
        history: list[FoxAction] = []
        for day, hole in enumerate(self.sample_walk(rng)):
            history.append(FoxMove(hole))
            if day < len(self.inspected):
                history.append(Inspect(self.inspected[day]))
        return history

    def sample_state(self, rng: random.Random) -> FoxState:
        """The state of a world: only the current hole is drawn (O(log n), not O(days)).

        The walk's past would only matter to the path revealed when the game ends; the state
        keeps the public belief's sets there, as it does for a fox that never committed, so
        the engine reveals some walk through them that ends where this fox is caught."""
        state = FoxState(self.game)
        state.day = len(self.days)
        state.fox = 1 << self._current_hole(rng)
        state.fox_to_move = False
        state.inspections = [mask_of(holes) for holes in self.inspected]
        state.evenings = list(self.evenings)
        return state


class FoxSampler:
    """The fox knows the whole state: its view replays to the one world there is."""

    def __init__(self, game: FoxGame, view: View) -> None:
        self.history: list[FoxAction] = []
        for event in view.events:
            if event.kind == "fox_moved":
                assert event.private is not None, "the fox sees its own moves"
                holes = event.private["holes"]
                self.history.append(FoxMove(holes[0]) if len(holes) == 1 else HIDE)
            elif event.kind == "inspected":
                self.history.append(Inspect(tuple(event.public["holes"])))
        self.state, _ = replay_history(game, self.history)

    def sample_history(self, rng: random.Random) -> list[FoxAction]:
        return list(self.history)

    def sample_state(self, rng: random.Random) -> State[FoxAction]:
        return self.state.clone()


class FoxSearchModel(SearchModel[FoxAction]):
    """The fox game's hooks for :mod:`sleuth.search` (see the module docstring)."""

    iteration_cost = SEARCH_ITERATION_COST

    def sampler(self, game: Game[FoxAction], view: View) -> WorldSampler[FoxAction]:
        fox = _fox_game(game)
        return FoxSampler(fox, view) if view.seat == FOX else HunterSampler(fox, view)

    def rollout_action(self, state: State[FoxAction], rng: random.Random) -> FoxAction:
        fox = _fox_state(state)
        tables = _Tables.of(fox.game)
        if not fox.fox_to_move:
            return rng.choice(tables.full_inspections)
        if fox.fox.bit_count() == 1:
            return rng.choice(tables.fox_moves[fox.fox.bit_length() - 1])
        legal = fox.legal_actions()  # the first night, or a fox that hid
        return rng.choice([a for a in legal if isinstance(a, FoxMove) and a.hole is not None])

    def heuristic_action(self, state: State[FoxAction], rng: random.Random) -> FoxAction | None:
        fox = _fox_state(state)
        if fox.fox_to_move:
            return None
        game = fox.game
        possible = holes_of(public_belief(fox))
        size = min(game.k, game.graph.n)
        chosen = rng.sample(possible, min(size, len(possible)))
        others = [h for h in range(game.graph.n) if h not in chosen]
        chosen += rng.sample(others, size - len(chosen))
        return Inspect(tuple(chosen))

    def evaluate(self, state: State[FoxAction]) -> Sequence[float]:
        fox = _fox_state(state)
        if fox.is_terminal():
            return fox.wins()
        cleared = 1.0 - public_belief(fox).bit_count() / fox.game.graph.n
        return (cleared, 1.0 - cleared)

    def fast_rollout(self, state: State[FoxAction], rng: random.Random) -> Sequence[float] | None:
        fox = _fox_state(state)
        if fox.is_terminal():
            return fox.wins()
        if fox.fox.bit_count() > 1:
            return None  # an uncommitted fox (the fox's own world after "hide")
        tables = _Tables.of(fox.game)
        masks, moves, days = tables.full_masks, tables.moves, fox.game.days
        choice = rng.choice
        day = fox.day
        hole = fox.fox.bit_length() - 1
        if fox.fox_to_move:
            hole = choice(moves[hole]) if hole >= 0 else rng.randrange(fox.game.graph.n)
        while True:
            if choice(masks) >> hole & 1:
                return (1.0, 0.0)
            if day >= days:
                return (0.0, 1.0)
            day += 1
            hole = choice(moves[hole])

    def hidden_move(self, state: State[FoxAction], observers: frozenset[int]) -> Hashable | None:
        fox = _fox_state(state)
        return FOX_MOVES if fox.fox_to_move and FOX not in observers else None

    def move_classes(
        self, state: State[FoxAction], observers: frozenset[int]
    ) -> Mapping[Hashable, Sequence[FoxAction]] | None:
        legal = state.legal_actions()
        if _fox_state(state).fox_to_move:
            return None
        return {action: (action,) for action in legal}  # inspections are public


def public_belief(state: FoxState) -> int:
    """The holes the fox may be in by the public inspections alone (rule A2), as a bitset."""
    graph, lazy = state.game.graph, state.game.lazy
    possible = graph.all_holes
    for inspected in state.inspections:
        possible = graph.night(possible & ~inspected, lazy)
    return possible


class _Tables:
    """Rollout tables of one board: full-size inspections, their masks, the fox's moves."""

    def __init__(self, graph: FoxGraph, k: int, lazy: bool) -> None:
        size = min(k, graph.n)
        self.full_inspections = tuple(Inspect(c) for c in combinations(range(graph.n), size))
        self.full_masks = tuple(mask_of(a.holes) for a in self.full_inspections)
        self.moves = _Moves(graph, lazy).forward
        self.fox_moves = tuple(tuple(FoxMove(u) for u in targets) for targets in self.moves)

    @staticmethod
    def of(game: FoxGame) -> _Tables:
        return _tables(game.graph, game.k, game.lazy)


@lru_cache(maxsize=32)
def _tables(graph: FoxGraph, k: int, lazy: bool) -> _Tables:
    return _Tables(graph, k, lazy)
