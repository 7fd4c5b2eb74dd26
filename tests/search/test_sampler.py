"""Every world a sampler draws reproduces the searching seat's view exactly (across games)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise, product
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.core.events import Event, View
from sleuth.core.game import CHANCE, Game, State
from sleuth.core.registry import make_game
from sleuth.core.searchmodel import SearchModel, replay_history, view_matches
from sleuth.games.fox.belief import FoxBelief
from sleuth.games.fox.rules import HIDE, FoxGame, FoxMove, FoxState
from sleuth.games.fox.search import FoxSearchModel, HunterSampler
from tests.core.toy import HighCard
from tests.games.fox.oracles import adjacency
from tests.search.toys import HighCardModel, Nim, NimModel

GAMES: list[tuple[str, Any, SearchModel[Any]]] = [
    ("fox path", lambda: make_game("fox", {"graph": "path:5", "days": "6"}), FoxSearchModel()),
    ("fox lazy", lambda: make_game("fox", {"graph": "cycle:5", "lazy": "true"}), FoxSearchModel()),
    ("fox k=2", lambda: make_game("fox", {"graph": "grid:2x3", "k": "2"}), FoxSearchModel()),
    ("highcard", lambda: HighCard(4), HighCardModel()),
    ("nim", lambda: Nim(9, 3), NimModel()),
]


def _random_prefix(
    game: Game[Any], rng: random.Random, stop: float
) -> tuple[State[Any], list[Event]]:
    """Play random moves (foxes that sometimes hide) until a seat is to move and ``stop`` hits."""
    state = game.new_initial_state()
    events: list[Event] = []
    while not state.is_terminal():
        player = state.current_player()
        if player >= 0 and rng.random() < stop:
            break
        action = state.sample_chance(rng) if player == CHANCE else rng.choice(state.legal_actions())
        events += state.apply(action)
    return state, events


@settings(max_examples=60, deadline=None)
@given(
    which=st.sampled_from(range(len(GAMES))), seed=st.integers(0, 2**32), stop=st.floats(0.1, 0.6)
)
def test_sampled_worlds_reproduce_the_view(which: int, seed: int, stop: float) -> None:
    _, make, model = GAMES[which]
    game = make()
    rng = random.Random(seed)
    state, events = _random_prefix(game, rng, stop)
    if state.is_terminal():
        return
    seat = state.current_player()
    view = View(seat, game.roles[seat], game.public_info(), [e.seen_by(seat) for e in events])
    sampler = model.sampler(game, view)
    for _ in range(5):
        history = sampler.sample_history(rng)
        replayed, replay_events = replay_history(game, history)
        assert view_matches(replay_events, view), history
        world = sampler.sample_state(rng)
        assert world.current_player() == seat
        assert list(world.legal_actions()) == list(replayed.legal_actions())
        assert list(world.legal_actions()) == list(state.legal_actions())


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), stop=st.floats(0.05, 0.5))
def test_fox_worlds_hold_only_holes_the_exact_belief_keeps(seed: int, stop: float) -> None:
    game = make_game("fox", {"graph": "spider:2,1,3", "lazy": str(seed % 2 == 0)})
    rng = random.Random(seed)
    state, events = _random_prefix(game, rng, stop)
    if state.is_terminal() or state.current_player() != 0:
        return
    view = View(0, "hunter", game.public_info(), [e.seen_by(0) for e in events])
    belief = FoxBelief.from_view(game, view)
    possible = set(belief.possible_holes())
    sampler = FoxSearchModel().sampler(game, view)
    assert isinstance(sampler, HunterSampler)
    assert {h for h, w in enumerate(sampler.days[-1]) if w > 0} == possible  # same support
    holes = set()
    for _ in range(100):
        world = sampler.sample_state(rng)
        assert isinstance(world, FoxState)
        holes.add(world.fox.bit_length() - 1)
    assert holes <= possible
    assert isinstance(state, FoxState)
    assert all(h in possible for h in range(game.graph.n) if state.fox >> h & 1)  # sound


def _walk_weights(game: FoxGame, inspected: list[tuple[int, ...]]) -> dict[tuple[int, ...], float]:
    """Brute force: every walk dodging ``inspected`` and its random-walk probability."""
    adj = adjacency(game.graph)
    moves = {v: sorted(adj[v] | ({v} if game.lazy else set())) for v in adj}
    out: dict[tuple[int, ...], float] = {}
    for walk in product(range(game.graph.n), repeat=len(inspected) + 1):
        if any(walk[d] in holes for d, holes in enumerate(inspected)):
            continue
        if any(b not in moves[a] for a, b in pairwise(walk)):
            continue
        p = 1.0 / game.graph.n
        for a in walk[:-1]:
            p /= len(moves[a])
        out[walk] = p
    return out


def test_fox_walks_follow_the_random_walk_posterior() -> None:
    game = make_game("fox", {"graph": "spider:2,2,1"})
    assert isinstance(game, FoxGame)
    inspected = [(0,), (1,), (0,)]
    state = game.new_initial_state()
    events: list[Event] = []
    events += state.apply(FoxMove(4))
    for holes in inspected:
        events += state.apply(game.parse_action("inspect " + ",".join(map(str, holes))))
        events += state.apply(HIDE)  # a fox that keeps every hole open
    view = View(0, "hunter", game.public_info(), [e.seen_by(0) for e in events])
    sampler = HunterSampler(game, view)
    exact = _walk_weights(game, inspected)
    total = sum(exact.values())
    rng = random.Random(7)
    draws = 40_000
    counts = Counter(tuple(sampler.sample_walk(rng)) for _ in range(draws))
    assert set(counts) <= set(exact)
    distance = sum(abs(counts[w] / draws - p / total) for w, p in exact.items()) / 2
    assert distance < 0.02
    ends: Counter[int] = Counter()
    for walk, p in exact.items():
        ends[walk[-1]] += p / total
    weights = sampler.days[-1]
    for hole in range(game.graph.n):
        assert abs(weights[hole] / sum(weights) - ends[hole]) < 1e-9
