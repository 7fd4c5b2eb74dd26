"""The hunter's belief (rule A2), path reconstruction (A4) and the web page's convention (X7)."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.core.belief import Belief
from sleuth.core.errors import ContradictionError, IllegalActionError
from sleuth.core.events import Event
from sleuth.core.game import State
from sleuth.games.fox.belief import FoxBelief
from sleuth.games.fox.graph import FoxGraph, from_edges, parse_graph
from sleuth.games.fox.rules import FOX, HIDE, HUNTER, FoxGame
from sleuth.games.fox.walk import reconstruct_path
from tests.belief_walk import view_of, walk

from .oracles import (
    adjacency,
    evenings,
    is_walk,
    night,
    random_connected_edges,
    to_mask,
    to_set,
    walks_of,
)


def snapshot(belief: FoxBelief) -> tuple[object, ...]:
    return (
        tuple(belief.inspections),
        tuple(belief.evenings),
        belief.morning,
        belief.day,
        belief.caught,
        tuple(belief.possible_holes()),
    )


def random_graph(rng: random.Random, low: int = 1, high: int = 8) -> FoxGraph:
    n = rng.randint(low, high)
    return from_edges(n, random_connected_edges(rng, n, rng.choice([0.0, 0.2, 0.5])))


def random_inspection(rng: random.Random, n: int, k: int) -> list[int]:
    return rng.sample(range(n), rng.randint(1, min(k, n)))


# --- A2: semantics ------------------------------------------------------------------------


def test_p5_classic_sequence_by_hand() -> None:
    # 2,3,4,2,3,4 in the document's 1-based holes
    belief = FoxBelief(parse_graph("path:5"))
    assert belief.day == 1
    assert belief.possible_holes() == [0, 1, 2, 3, 4]
    expected_evenings = [{0, 2, 3, 4}, {1, 3, 4}, {0, 2, 4}, {3}, {4}, set()]
    expected_mornings = [[1, 2, 3, 4], [0, 2, 3, 4], [1, 3], [2, 4], [3], []]
    for day, hole in enumerate([1, 2, 3, 1, 2, 3], start=1):
        caught = belief.inspect([hole])
        assert caught == (day == 6)
        assert to_set(belief.evenings[-1]) == expected_evenings[day - 1]
        assert belief.possible_holes() == expected_mornings[day - 1]
        assert belief.day == day + 1
        assert belief.caught == (day == 6)


def test_belief_matches_set_semantics_on_random_sequences() -> None:
    rng = random.Random(11)
    for _ in range(300):
        g = random_graph(rng)
        adj = adjacency(g)
        k, lazy = rng.randint(1, 3), rng.random() < 0.3
        belief = FoxBelief(g, k, lazy)
        strategy: list[list[int]] = []
        for _day in range(rng.randint(1, 12)):
            holes = random_inspection(rng, g.n, k)
            strategy.append(holes)
            caught = belief.inspect(holes)
            mine = evenings(adj, strategy, lazy)
            assert [to_set(a) for a in belief.evenings] == mine
            assert belief.inspections == [to_mask(h) for h in strategy]
            assert caught == (not mine[-1]) == belief.caught
            if caught:
                assert belief.possible_holes() == []
                break
            assert set(belief.possible_holes()) == night(adj, mine[-1], lazy)


def test_inspecting_fewer_than_k_holes_is_allowed() -> None:
    belief = FoxBelief(parse_graph("path:4"), k=3)
    assert not belief.inspect([2])
    assert to_set(belief.evenings[-1]) == {0, 1, 3}
    assert not belief.inspect([0, 3])
    assert to_set(belief.evenings[-1]) == {1, 2}
    assert belief.possible_holes() == [0, 1, 2, 3]


def test_the_view_belief_reads_only_inspections() -> None:
    game = FoxGame(parse_graph("path:5"))
    events = [
        Event("fox_moved", {"night": 0}),
        Event("inspected", {"day": 1, "holes": (1,), "caught": False}),
        Event("fox_moved", {"night": 1}),
        Event("inspected", {"day": 2, "holes": (2,), "caught": False}),
    ]
    direct = FoxBelief(game.graph)
    direct.inspect([1])
    direct.inspect([2])
    read = FoxBelief.from_view(game, view_of(game, HUNTER, events))
    assert read.events_read == 4
    assert (read.inspections, read.evenings, read.morning) == (
        direct.inspections,
        direct.evenings,
        direct.morning,
    )


# --- A2: undo -----------------------------------------------------------------------------


def test_undo_is_pop_and_recompute() -> None:
    rng = random.Random(5)
    for _ in range(100):
        g = random_graph(rng, 2)
        k, lazy = rng.randint(1, 2), rng.random() < 0.3
        belief = FoxBelief(g, k, lazy)
        history = [snapshot(belief)]
        for _day in range(rng.randint(1, 10)):
            belief.inspect(random_inspection(rng, g.n, k))
            history.append(snapshot(belief))
            if belief.caught:
                break
        while len(history) > 1:
            history.pop()
            belief.undo()
            assert snapshot(belief) == history[-1]
        with pytest.raises(IllegalActionError, match="nothing to undo"):
            belief.undo()
        assert snapshot(belief) == history[0]


def test_undo_after_a_catch_reopens_the_game() -> None:
    belief = FoxBelief(parse_graph("path:3"))
    belief.inspect([1])
    assert belief.inspect([1])
    belief.undo()
    assert not belief.caught
    assert belief.possible_holes() == [1]
    assert belief.inspect([1])


# --- A2: illegal inspections --------------------------------------------------------------


@pytest.mark.parametrize(
    ("k", "holes", "message"),
    [
        (1, [0, 1], "at most 1"),
        (2, [0, 1, 2], "at most 2"),
        (2, [3, 3], "repeats"),
        (1, [5], "not on the board"),
        (1, [-1], "not on the board"),
        (3, [0, 99], "not on the board"),
        (1, [], "at least one"),
    ],
)
def test_illegal_inspection_leaves_belief_unchanged(k: int, holes: list[int], message: str) -> None:
    belief = FoxBelief(parse_graph("path:5"), k)
    belief.inspect([1])
    before = snapshot(belief)
    with pytest.raises(IllegalActionError, match=message):
        belief.inspect(holes)
    assert snapshot(belief) == before


def test_no_inspection_after_the_catch() -> None:
    belief = FoxBelief(parse_graph("path:1"))
    assert belief.inspect([0])
    before = snapshot(belief)
    with pytest.raises(IllegalActionError, match="already been caught"):
        belief.inspect([0])
    assert snapshot(belief) == before


# --- A4: path reconstruction --------------------------------------------------------------


def assert_dodging_walk(
    g: FoxGraph, walk: list[int], strategy: list[list[int]], lazy: bool, caught: bool
) -> None:
    """A legal walk, one hole per day, in no inspected hole except (if caught) the last."""
    adj = adjacency(g)
    assert len(walk) == len(strategy)
    assert is_walk(adj, walk, lazy)
    dodged = strategy[:-1] if caught else strategy
    assert all(x not in holes for x, holes in zip(walk, dodged, strict=False))
    if caught:
        assert walk[-1] in strategy[-1]


def test_reconstructed_paths_dodge_every_inspection() -> None:
    rng = random.Random(23)
    for trial in range(400):
        g = random_graph(rng, 2, 9)
        k, lazy = rng.randint(1, 2), rng.random() < 0.3
        belief = FoxBelief(g, k, lazy)
        strategy: list[list[int]] = []
        for _day in range(rng.randint(1, 14)):
            holes = random_inspection(rng, g.n, k)
            strategy.append(holes)
            if belief.inspect(holes):
                break
        caught = belief.caught
        saved = list(belief.evenings)
        path = belief.fox_path()
        assert_dodging_walk(g, path, strategy, lazy, caught)
        seeded = belief.fox_path(random.Random(trial))
        assert_dodging_walk(g, seeded, strategy, lazy, caught)
        assert belief.evenings == saved  # pure: nothing consumed
        if not caught:
            # deterministic: the lowest hole of the last evening belief
            assert path[-1] == min(to_set(belief.evenings[-1]))
            argument = list(belief.evenings)
            assert reconstruct_path(g, argument, lazy) == path
            assert argument == saved


def test_caught_path_shows_where_the_fox_was_found() -> None:
    g = parse_graph("path:5")
    belief = FoxBelief(g)
    for hole in [1, 2, 3, 1, 2, 3]:
        belief.inspect([hole])
    assert belief.caught
    path = belief.fox_path()
    assert path[-1] == 3  # B_6 = {3}, and the fox was found there
    assert path == [0, 1, 2, 3, 4, 3]  # by default the lowest possible hole at each step back
    assert_dodging_walk(g, path, [[1], [2], [3], [1], [2], [3]], False, True)


def test_reconstruct_path_edge_cases() -> None:
    g = parse_graph("path:4")
    assert reconstruct_path(g, []) == []
    with pytest.raises(ValueError, match="non-empty"):
        reconstruct_path(g, [0b1111, 0])
    with pytest.raises(ValueError, match="not consistent"):
        reconstruct_path(g, [0b0001, 0b0100])  # hole 2 is not next to hole 0
    assert reconstruct_path(g, [0b0001, 0b0001], lazy=True) == [0, 0]
    assert reconstruct_path(g, [0b0001], final=0b0010) == [0, 1]


# --- X7: the original page's convention ---------------------------------------------------


def test_seed_convention_equivalence() -> None:
    """s_0 = V, s_t = N(s_{t-1}) minus g_t gives exactly A_t on connected graphs, n >= 2."""
    rng = random.Random(1)
    for _ in range(300):
        g = random_graph(rng, 2, 9)
        adj = adjacency(g)
        belief = FoxBelief(g)
        s = frozenset(range(g.n))
        for _day in range(rng.randint(1, 15)):
            guess = rng.randrange(g.n)
            s = night(adj, s) - {guess}
            caught = belief.inspect([guess])
            assert to_set(belief.evenings[-1]) == s
            assert caught == (not s)
            if caught:
                break


# --- A2 soundness and exactness with a random-walk fox ------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 6),
    st.integers(0, 2**32),
    st.integers(1, 2),
    st.booleans(),
    st.randoms(use_true_random=False),
    st.integers(1, 5),
)
def test_random_walk_fox_is_always_in_the_belief(
    n: int, seed: int, k: int, lazy: bool, rng: random.Random, days: int
) -> None:
    g = from_edges(n, random_connected_edges(random.Random(seed), n, 0.3))
    adj = adjacency(g)
    all_walks = walks_of(adj, days + 1, lazy) if n > 1 else [(0,)]
    belief = FoxBelief(g, k, lazy)
    fox = rng.randrange(n)
    strategy: list[set[int]] = []
    for day in range(1, days + 1):
        assert fox in belief.possible_holes()  # soundness, morning
        holes = random_inspection(rng, n, k)
        strategy.append(set(holes))
        belief_empty = belief.inspect(holes)
        dodgers = [w for w in all_walks if all(w[i] not in strategy[i] for i in range(day))]
        # exactness: every hole of A_t and of B_{t+1} ends some walk that dodged everything
        assert to_set(belief.evenings[-1]) == {w[day - 1] for w in dodgers}
        if fox in holes:
            break  # the real fox is caught (the adversarial one may not be)
        assert not belief_empty  # soundness: an uncaught fox keeps the belief non-empty
        assert fox in to_set(belief.evenings[-1])  # soundness, evening
        assert set(belief.possible_holes()) == {w[day] for w in dodgers}
        fox = rng.choice(sorted(adj[fox] | ({fox} if lazy else set())))


# --- the core's belief protocol ----------------------------------------------------------


def _fox_choice(commit: bool) -> Callable[[State[Any], random.Random], Hashable]:
    def choose(state: State[Any], rng: random.Random) -> Hashable:
        legal = state.legal_actions()
        if state.current_player() == FOX:  # an ordinary fox commits, the quantum fox hides
            return rng.choice(legal[1:]) if commit else HIDE
        return rng.choice(legal)

    return choose


@pytest.mark.parametrize("spec", ["path:5", "cycle:6", "grid:3x3", "star:4"])
@pytest.mark.parametrize("commit", [True, False])
def test_the_protocol_belief_admits_the_true_fox_after_every_action(
    spec: str, commit: bool
) -> None:
    game = FoxGame(parse_graph(spec), k=2 if spec == "grid:3x3" else 1, days=12)
    assert isinstance(FoxBelief.from_view(game, view_of(game, HUNTER, [])), Belief)
    for seed in range(15):
        belief = FoxBelief.from_view(game, view_of(game, HUNTER, []))
        seen: list[Event] = []
        for state, events in walk(game, HUNTER, random.Random(seed), _fox_choice(commit)):
            for event in events:
                belief.update(event)
            seen += events
            assert belief.events_read == len(seen)
            assert belief.admits(state), (spec, seed, len(seen))
        rebuilt = FoxBelief.from_view(game, view_of(game, HUNTER, seen))
        assert (rebuilt.found, rebuilt.evenings) == (belief.found, belief.evenings)


def test_the_protocol_belief_refuses_an_impossible_inspection_naming_the_event() -> None:
    game = FoxGame(parse_graph("path:3"))
    night = Event("fox_moved", {"night": 0})
    missed = Event("inspected", {"day": 1, "holes": (1,), "caught": False})
    # after missing at 1 the fox is at 0 or 2, and must move: it is at 1 on day 2
    caught_at_0 = Event("inspected", {"day": 2, "holes": (0,), "caught": True})
    with pytest.raises(ContradictionError, match=r"^event 4 \(inspected\): .*could be in none"):
        FoxBelief.from_view(game, view_of(game, HUNTER, [night, missed, night, caught_at_0]))
    caught_at_1 = Event("inspected", {"day": 2, "holes": (1,), "caught": True})
    again = Event("inspected", {"day": 3, "holes": (1,), "caught": False})
    events = [night, missed, night, caught_at_1, night, again]
    with pytest.raises(ContradictionError, match=r"^event 6 \(inspected\): .*already caught"):
        FoxBelief.from_view(game, view_of(game, HUNTER, events))
    off_board = Event("inspected", {"day": 1, "holes": (7,), "caught": False})
    with pytest.raises(ContradictionError, match=r"^event 2 \(inspected\): hole 7 is not on"):
        FoxBelief.from_view(game, view_of(game, HUNTER, [night, off_board]))
    sure = Event("inspected", {"day": 2, "holes": (1,), "caught": False})
    with pytest.raises(ContradictionError, match=r"^event 4 \(inspected\): .*no hole left"):
        FoxBelief.from_view(game, view_of(game, HUNTER, [night, missed, night, sure]))
