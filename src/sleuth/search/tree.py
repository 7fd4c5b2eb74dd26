"""One Monte Carlo search tree over the information sets of a group of observers.

This is the engine under both search players.  A :class:`Node` is an information set of the
``observers`` (the searching seat, or its team): everything they have seen since the root.  Its
outgoing :class:`Edge` objects are the moves available there, labelled by what the observers
know of them: an observer's own move is labelled by the action itself; a move of any other seat
by its *observation class* (the moves that look the same to the observers, e.g. every night
move of the fox to a hunter); chance has one edge labelled ``None``.  After the move, the
events it caused, as the observers see them, select the child node.  So the tree never splits
on anything the observers cannot see, and a hidden move cannot leak into their later choices
(Cowling, Powley & Whitehouse 2012, SO-ISMCTS with partially observable moves).

Each iteration plays one world (a state drawn by the caller) down the tree:

* *selection*: at each node the moves legal in this world are the *available* edges; each
  available edge's availability count goes up by one, and the edge maximising
  ``mean reward + c * sqrt(ln(availability) / visits)`` for the seat that moves is followed
  (availability-aware UCB).  At another seat's node the chosen class is played by a move of that
  class (the model's rollout move when every move is in one class, else a uniform one);
* *expansion*: one untried available edge, chosen uniformly, is added with its child;
* *simulation*: the world is played out by the rollout policy (random, or epsilon-greedy on the
  game's heuristic), or up to a depth limit where the game's evaluation is used;
* *backpropagation*: every edge on the path adds the reward (in [0, 1]) of the seat that moved.

Invariants: rewards are in [0, 1]; an edge's ``visits`` is at most its ``avail``; a node's
children differ exactly in what the observers saw.  With a fixed number of iterations and a
seeded ``rng`` the search is deterministic.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic

from sleuth.core.game import CHANCE, TERMINAL, Game, State
from sleuth.core.searchmodel import A, SearchModel, observation
from sleuth.search.catalogue import POLICIES as POLICIES
from sleuth.search.rewards import Rewards


@dataclass(frozen=True)
class SearchSettings:
    """How hard and how to search.

    ``iterations`` simulations per decision at most; ``seconds`` > 0 also stops the search
    once that time has passed (after at least one simulation), and a decision cut short by it
    depends on the machine's speed.  ``exploration`` is UCB's constant ``c``.
    ``policy`` is ``random`` (the game's rollout move) or ``heuristic`` (the game's heuristic move
    with probability ``1 - epsilon``).  ``depth`` > 0 stops each simulation after that many
    moves from the root and uses the game's evaluation (when it has one).  ``reuse`` keeps the
    part of the tree the game has reached between decisions (off by default: a player
    rebuilt mid-game has no tree, and would decide differently).  ``worlds`` is the number of
    determinizations of :class:`~sleuth.search.players.DeterminizedPlayer` (at most one per
    simulation).  ``coalition_reduction`` is the ``r``
    of :class:`~sleuth.search.rewards.Rewards` for games with teams.
    """

    iterations: int = 1000
    seconds: float = 0.0
    exploration: float = 0.7
    policy: str = "random"
    epsilon: float = 0.1
    depth: int = 0
    reuse: bool = False
    worlds: int = 10
    coalition_reduction: float = 0.0

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise ValueError("iterations must be at least 1")
        if self.policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}")
        if not (math.isfinite(self.seconds) and math.isfinite(self.exploration)):
            raise ValueError("seconds and exploration must be finite")
        if self.seconds < 0 or self.exploration < 0 or self.depth < 0 or self.worlds < 1:
            raise ValueError("seconds, exploration and depth must be >= 0, worlds >= 1")
        if not 0.0 <= self.epsilon <= 1.0:
            raise ValueError("epsilon must be between 0 and 1")


class Edge:
    """A move (or a class of moves) from a node, with its statistics and its child nodes."""

    __slots__ = ("avail", "children", "reward", "visits")

    def __init__(self) -> None:
        self.reward = 0.0
        """Sum of the rewards of the seat that moved, over the simulations through this edge."""
        self.visits = 0
        self.avail = 0
        """Number of visits to the parent in which this move was legal."""
        self.children: dict[Hashable, Node] = {}
        """Child nodes by what the observers saw of the move's events."""


class Node:
    """An information set of the observers: ``player`` to move and the edges tried so far."""

    __slots__ = ("edges", "extra", "labels", "ordered", "player")

    def __init__(self, player: int, extra: Sequence[Hashable] = ()) -> None:
        self.player = player
        self.edges: dict[Hashable, Edge] = {}
        self.labels: Sequence[Hashable] | None = None
        """The last legal-move sequence seen here once all were tried (a speed-up: games return
        the same tuple object for the same legal moves), and its edges in ``ordered``."""
        self.ordered: list[Edge] = []
        self.extra = tuple(extra)
        """Moves tried here besides the model's candidates (a root's
        :meth:`~sleuth.core.searchmodel.SearchModel.root_moves`)."""


class TreeSearch(Generic[A]):
    """Runs iterations on a tree for ``observers`` (see the module docstring)."""

    def __init__(
        self,
        game: Game[A],
        model: SearchModel[A],
        observers: frozenset[int],
        settings: SearchSettings,
        rng: random.Random,
    ) -> None:
        self.game = game
        self.model = model
        self.observers = observers
        self.settings = settings
        self.rng = rng
        self.rewards = Rewards(model.teams(game), game.sides(), settings.coalition_reduction)
        if sum(len(team) for team in self.rewards.teams) != game.num_players:
            raise ValueError(
                f"the teams {self.rewards.teams} must cover all {game.num_players} seats"
            )
        self.iterations = 0
        """Total simulations run by this search (for benchmarks and reports)."""

    def run(self, root: Node, draw: Callable[[], State[A]], started: float | None = None) -> int:
        """Run up to ``iterations`` simulations from ``root``, each on a world from ``draw``,
        stopping early once ``seconds`` (when > 0) have passed since ``started`` (a
        ``time.perf_counter()`` reading; default now); return how many ran (>= 1)."""
        settings = self.settings
        done = 0
        if settings.seconds > 0:
            deadline = (time.perf_counter() if started is None else started) + settings.seconds
            while done < settings.iterations and (done == 0 or time.perf_counter() < deadline):
                self.iterate(root, draw())
                done += 1
        else:
            for _ in range(settings.iterations):
                self.iterate(root, draw())
            done = settings.iterations
        self.iterations += done
        return done

    def iterate(self, root: Node, state: State[A]) -> None:
        """One simulation of ``state`` (a world in the root's information set) from ``root``."""
        node = root
        path: list[tuple[Edge, int]] = []
        depth = 0
        limit = self.settings.depth
        values: Sequence[float] | None = None
        while values is None:
            player = state.current_player()
            if player == TERMINAL:
                values = self._final(state)
                break
            if limit and depth >= limit:
                values = self._evaluated(state)
                if values is not None:
                    break
            if player == CHANCE:
                edge = node.edges.get(None)
                if edge is None:
                    edge = node.edges[None] = Edge()
                action = state.sample_chance(self.rng)
            else:
                edge, action = self._select(node, state, player)
                path.append((edge, player))
            key = observation(state.apply_trusted(action), self.observers)
            depth += 1
            child = edge.children.get(key)
            if child is None:
                edge.children[key] = Node(state.current_player())
                values = self._simulate(state, depth)
            else:
                node = child
        for edge, player in path:
            edge.visits += 1
            edge.reward += values[player]

    def _select(self, node: Node, state: State[A], player: int) -> tuple[Edge, A]:
        classes = None
        if player in self.observers:
            labels: Sequence[Hashable] = self._candidates(state)
            if node.extra:
                labels = (*labels, *(move for move in node.extra if move not in labels))
        elif (hidden := self.model.hidden_move(state, self.observers)) is not None:
            edge = node.edges.get(hidden)
            if edge is None:
                edge = node.edges[hidden] = Edge()
            edge.avail += 1
            return edge, self.model.rollout_action(state, self.rng)
        else:
            classes = self.model.move_classes(state, self.observers)
            if classes is None:
                classes = self._classes(state)
            labels = tuple(classes)
        if labels is node.labels:
            edges = node.ordered
        else:
            known = node.edges
            untried = [label for label in labels if label not in known]
            if untried:
                for label in labels:
                    if label in known:
                        known[label].avail += 1
                label = self.rng.choice(untried)
                edge = known[label] = Edge()
                edge.avail = 1
                return edge, self._move(state, label, classes)
            edges = [known[label] for label in labels]
            if classes is None:  # the same legal moves come back as the same sequence object
                node.labels, node.ordered = labels, edges
        c = self.settings.exploration
        best = 0
        best_score = -1.0
        for index, edge in enumerate(edges):
            edge.avail += 1
            score = edge.reward / edge.visits + c * math.sqrt(math.log(edge.avail) / edge.visits)
            if score > best_score:
                best, best_score = index, score
        return edges[best], self._move(state, labels[best], classes)

    def _move(
        self, state: State[A], label: Hashable, classes: Mapping[Hashable, Sequence[A]] | None
    ) -> A:
        """The action that plays edge ``label``: the label itself, or a move of its class
        (the rollout policy's move when there is one class and the move belongs to it)."""
        if classes is None:
            return label  # type: ignore[return-value]
        members = classes[label]
        if len(classes) == 1:
            action = self.model.rollout_action(state, self.rng)
            if action in members:
                return action
        return self.rng.choice(members)

    def _candidates(self, state: State[A]) -> Sequence[A]:
        candidates = self.model.candidate_moves(state)
        return state.legal_actions() if candidates is None else candidates

    def _classes(self, state: State[A]) -> dict[Hashable, list[A]]:
        classes: dict[Hashable, list[A]] = {}
        for action in self._candidates(state):
            copy = state.clone()
            events = copy.apply_trusted(action)
            classes.setdefault(observation(events, self.observers), []).append(action)
        return classes

    def _final(self, state: State[A]) -> Sequence[float]:
        return self.rewards(state.wins(), self.model.credit(state))

    def _evaluated(self, state: State[A]) -> Sequence[float] | None:
        values = self.model.evaluate(state)
        return None if values is None else self.rewards(values)

    def _simulate(self, state: State[A], depth: int) -> Sequence[float]:
        """Play the world on from a new node: rollout policy, depth limit, evaluation."""
        model, rng, settings = self.model, self.rng, self.settings
        if (
            settings.policy == "random"
            and not settings.depth
            and self.rewards.trivial  # a fast kernel does not say who won a team's game
            and not state.is_terminal()
        ):
            fast = model.fast_rollout(state, rng)
            if fast is not None:
                return fast
        greedy = settings.policy == "heuristic"
        epsilon = settings.epsilon
        left = settings.depth - depth if settings.depth else None
        played = model.fast_playout(state, rng, greedy, epsilon, left)
        if played is not None:
            return self.rewards(*played)
        while True:
            player = state.current_player()
            if player == TERMINAL:
                return self._final(state)
            if settings.depth and depth >= settings.depth:
                values = self._evaluated(state)
                if values is not None:
                    return values
            if player == CHANCE:
                action = state.sample_chance(rng)
            else:
                choice = None
                if greedy and rng.random() >= epsilon:
                    choice = model.heuristic_action(state, rng)
                action = model.rollout_action(state, rng) if choice is None else choice
            state.apply_trusted(action)
            depth += 1


def best_action(root: Node, legal: Sequence[A]) -> A:
    """The legal root move visited most often (ties: the higher total reward, then the first
    tried); the first legal move if none was tried.  Only the tried moves are looked at, so
    ``legal`` may be a huge lazy sequence."""
    best = legal[0]
    best_key = (-1, -1.0)
    for action, edge in root.edges.items():
        if (edge.visits, edge.reward) > best_key and action in legal:
            best, best_key = action, (edge.visits, edge.reward)  # type: ignore[assignment]
    return best


def follow(root: Node, action: Hashable, keys: Sequence[Hashable], seat: int) -> Node | None:
    """The node reached from ``root`` by our ``action`` and then the observed event ``keys``.

    ``keys`` are :func:`~sleuth.core.searchmodel.event_key` values of the events seen since the
    decision at ``root``; the path must use them all and end at a node where ``seat`` moves.
    Returns None when the tree never reached that information set, or when two different nodes
    fit (steps that the seat cannot tell apart, e.g. ones that emit no visible event).
    """
    edge = root.edges.get(action)
    if edge is None:
        return None
    found: list[Node] = []
    _match(edge, tuple(keys), 0, seat, found)
    return found[0] if len(found) == 1 else None


def _match(
    edge: Edge, keys: tuple[Hashable, ...], start: int, seat: int, found: list[Node]
) -> None:
    """Append to ``found`` the nodes below ``edge`` that ``keys[start:]`` leads to (stops at 2)."""
    for observed, child in edge.children.items():
        assert isinstance(observed, tuple)
        end = start + len(observed)
        if keys[start:end] != observed:
            continue
        if end == len(keys):
            if child.player == seat:
                found.append(child)
        else:
            for next_edge in child.edges.values():
                _match(next_edge, keys, end, seat, found)
        if len(found) > 1:
            return
