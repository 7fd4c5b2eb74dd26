"""The rules engine (rules X1-X9): actions, legality, events, the quantum fox, endings."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.core.errors import ActionParseError, IllegalActionError, OptionError
from sleuth.core.events import Event, View, thaw
from sleuth.core.game import TERMINAL
from sleuth.core.registry import make_game
from sleuth.games.fox.belief import FoxBelief
from sleuth.games.fox.graph import FoxGraph, from_edges, parse_graph
from sleuth.games.fox.rules import FOX, HIDE, HUNTER, FoxGame, FoxMove, FoxState, Inspect
from sleuth.games.fox.solver import solve

from .oracles import adjacency, evenings, is_walk, random_connected_edges

FoxPolicy = Callable[[FoxState, random.Random], FoxMove]


def snap(state: FoxState) -> tuple[object, ...]:
    """Everything observable about a state (and its documented fields)."""
    return (
        state.current_player(),
        tuple(state.legal_actions()),
        state.is_terminal(),
        state.returns(),
        state.day,
        state.fox,
        state.fox_to_move,
        tuple(state.inspections),
        tuple(state.evenings),
        state.caught,
        state.over,
    )


def quantum(state: FoxState, rng: random.Random) -> FoxMove:
    return HIDE


def committed(state: FoxState, rng: random.Random) -> FoxMove:
    return rng.choice(
        [a for a in state.legal_actions() if isinstance(a, FoxMove) and a.hole is not None]
    )


def mixed(state: FoxState, rng: random.Random) -> FoxMove:
    return rng.choice(state.legal_actions())  # type: ignore[return-value]


def random_hunter(state: FoxState, rng: random.Random) -> Inspect:
    return rng.choice(state.legal_actions())  # type: ignore[return-value]


def play(
    game: FoxGame,
    rng: random.Random,
    fox: FoxPolicy = mixed,
    hunter: Callable[[FoxState, random.Random], Inspect] = random_hunter,
) -> tuple[FoxState, list[tuple[int, object, list[Event]]]]:
    """Play to the end; return the final state and (seat, action, events) for every step."""
    state = game.new_initial_state()
    steps = []
    while not state.is_terminal():
        seat = state.current_player()
        action = fox(state, rng) if seat == FOX else hunter(state, rng)
        steps.append((seat, action, state.apply(action)))
    return state, steps


def random_game(rng: random.Random, max_n: int = 7) -> FoxGame:
    n = rng.randint(1, max_n)
    graph = from_edges(n, random_connected_edges(rng, n, rng.choice([0.0, 0.3])))
    return FoxGame(graph, rng.randint(1, 3), rng.random() < 0.3, rng.choice([None, 3, 6]))


def inspections_of(steps: list[tuple[int, object, list[Event]]]) -> list[list[int]]:
    return [list(a.holes) for seat, a, _ in steps if seat == HUNTER]  # type: ignore[attr-defined]


# --- the game object ----------------------------------------------------------------------


def test_game_description() -> None:
    game = FoxGame(parse_graph("path:5"))
    assert game.roles == ("hunter", "fox")
    assert game.num_players == 2
    assert game.options() == {"graph": "path:5", "k": 1, "lazy": False, "days": 20}
    assert game.public_info()["game"] == "fox"
    lazy = FoxGame(parse_graph("cycle:6"), k=2, lazy=True, days=9)
    assert lazy.options() == {"graph": "cycle:6", "k": 2, "lazy": True, "days": 9}


def test_registry_builds_the_game_from_texts() -> None:
    game = make_game("fox", {"graph": "cycle:5", "k": "2", "lazy": "yes", "days": "7"})
    assert isinstance(game, FoxGame)
    assert game.graph == parse_graph("cycle:5")
    assert (game.k, game.lazy, game.days) == (2, True, 7)
    again = make_game("fox", game.options())
    assert again.options() == game.options()
    default = make_game("fox")
    assert default.options() == {"graph": "path:5", "k": 1, "lazy": False, "days": 20}


def test_option_errors() -> None:
    with pytest.raises(OptionError, match="k must be"):
        FoxGame(parse_graph("path:5"), k=0)
    with pytest.raises(OptionError, match="possible inspections"):
        FoxGame(parse_graph("path:40"), k=10)
    with pytest.raises(OptionError):
        make_game("fox", {"graph": "cycle:2"})


@pytest.mark.parametrize(
    ("spec", "k"), [("path:1", 1), ("path:1", 3), ("path:5", 1), ("grid:2x3", 2), ("cycle:7", 3)]
)
def test_hunter_may_inspect_any_one_to_k_holes(spec: str, k: int) -> None:
    g = parse_graph(spec)
    state = FoxGame(g, k).new_initial_state()
    state.apply(HIDE)
    legal = state.legal_actions()
    expected = {
        Inspect(c) for size in range(1, min(k, g.n) + 1) for c in combinations(range(g.n), size)
    }
    assert set(legal) == expected
    assert len(legal) == len(expected) == sum(comb(g.n, i) for i in range(1, min(k, g.n) + 1))


def test_fox_moves_first_and_may_hide_anywhere() -> None:
    state = FoxGame(parse_graph("path:5")).new_initial_state()
    assert state.current_player() == FOX
    assert set(state.legal_actions()) == {HIDE, *(FoxMove(h) for h in range(5))}


@pytest.mark.parametrize("lazy", [False, True])
def test_fox_must_move_along_an_edge(lazy: bool) -> None:
    state = FoxGame(parse_graph("grid:3x3"), lazy=lazy).new_initial_state()
    state.apply(FoxMove(4))  # the centre
    state.apply(Inspect((0,)))
    moves = {a.hole for a in state.legal_actions() if isinstance(a, FoxMove)}
    assert moves == {None, 1, 3, 5, 7} | ({4} if lazy else set())


# --- action text --------------------------------------------------------------------------


def test_action_text_forms() -> None:
    game = FoxGame(parse_graph("path:5"), k=2)
    assert str(Inspect((3, 1))) == "inspect 1,3"
    assert Inspect((3, 1)) == Inspect((1, 3))
    assert str(FoxMove(3)) == "hole 3"
    assert str(HIDE) == "hide"
    assert game.parse_action("inspect 3,1") == Inspect((1, 3))
    assert game.parse_action("  inspect 1, 2 ") == Inspect((1, 2))
    assert game.parse_action("inspect 1 2") == Inspect((1, 2))
    assert game.parse_action("hole 4") == FoxMove(4)
    assert game.parse_action("hide") == HIDE


def test_text_round_trip_along_random_playthroughs() -> None:
    rng = random.Random(2)
    for _ in range(60):
        game = random_game(rng)
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            for action in legal:
                assert game.parse_action(str(action)) == action
            state.apply(rng.choice(legal))


JUNK = [
    "",
    "   ",
    "inspect",
    "inspect ",
    "inspect ,",
    "inspect a",
    "inspect -1",
    "inspect 1.5",
    "inspect 1;2",
    "inspect 0x1",
    "hole",
    "hole 1 2",
    "hole 1,2",
    "hole x",
    "hole -3",
    "hide 3",
    "hide now",
    "Inspect 1",
    "HIDE",
    "look 1",
    "inspect ²",  # a digit to str.isdigit, not to int()
    "hole ³",
    "inspect ١",  # an Arabic-Indic digit
    "inspect 1\u00a02x",
]


@pytest.mark.parametrize("text", JUNK)
def test_junk_text_is_a_parse_error(text: str) -> None:
    with pytest.raises(ActionParseError):
        FoxGame(parse_graph("path:5")).parse_action(text)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=12),
        st.builds(
            lambda w, t: f"{w} {t}",
            st.sampled_from(["inspect", "hole", "hide"]),
            st.text(max_size=8),
        ),
    )
)
def test_any_text_parses_or_raises_a_parse_error(text: str) -> None:
    game = FoxGame(parse_graph("path:5"), k=2)
    try:
        action = game.parse_action(text)
    except ActionParseError:
        return
    assert game.parse_action(str(action)) == action


# --- illegal actions change nothing --------------------------------------------------------


def assert_illegal_changes_nothing(state: FoxState, action: object) -> None:
    before = snap(state)
    twin = state.clone()
    with pytest.raises(IllegalActionError):
        state.apply(action)  # type: ignore[arg-type]
    assert snap(state) == before
    if not state.is_terminal():  # and the game goes on exactly as if nothing happened
        legal = state.legal_actions()[-1]
        assert state.apply(legal) == twin.apply(legal)
        assert snap(state) == snap(twin)


def test_illegal_fox_actions() -> None:
    game = FoxGame(parse_graph("path:5"), k=1)
    for action in [Inspect((0,)), FoxMove(5), FoxMove(-1), FoxMove(99)]:
        assert_illegal_changes_nothing(game.new_initial_state(), action)

    def after_hiding_in_2() -> FoxState:
        state = game.new_initial_state()
        state.apply(FoxMove(2))
        state.apply(Inspect((0,)))
        return state

    for action in [FoxMove(2), FoxMove(0), FoxMove(4), Inspect((1,))]:
        assert_illegal_changes_nothing(after_hiding_in_2(), action)
    state = after_hiding_in_2()
    state.apply(FoxMove(3))
    assert state.current_player() == HUNTER
    lazy = FoxGame(parse_graph("path:5"), lazy=True).new_initial_state()
    lazy.apply(FoxMove(2))
    lazy.apply(Inspect((0,)))
    lazy.apply(FoxMove(2))  # a lazy fox may stay
    assert lazy.current_player() == HUNTER


def test_illegal_hunter_actions() -> None:
    for k, action in [
        (1, HIDE),
        (1, FoxMove(0)),
        (1, Inspect(())),
        (1, Inspect((0, 1))),
        (2, Inspect((0, 1, 2))),
        (1, Inspect((5,))),
        (1, Inspect((-1,))),
        (2, Inspect((1, 1))),
        (2, Inspect((4, 7))),
    ]:
        state = FoxGame(parse_graph("path:5"), k=k).new_initial_state()
        state.apply(HIDE)
        assert_illegal_changes_nothing(state, action)


def test_nothing_is_legal_once_the_game_is_over() -> None:
    state = FoxGame(parse_graph("path:3")).new_initial_state()
    state.apply(FoxMove(1))
    state.apply(Inspect((1,)))
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert list(state.legal_actions()) == []
    for action in [HIDE, FoxMove(0), Inspect((0,))]:
        assert_illegal_changes_nothing(state, action)


# --- clones -------------------------------------------------------------------------------


def test_clones_are_independent() -> None:
    rng = random.Random(8)
    for _ in range(60):
        game = random_game(rng)
        state = game.new_initial_state()
        for _step in range(rng.randint(0, 8)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        before = snap(state)
        copy = state.clone()
        assert snap(copy) == before
        while not copy.is_terminal():
            copy.apply(rng.choice(copy.legal_actions()))
        assert snap(state) == before
        after_copy = snap(copy)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        assert snap(copy) == after_copy


# --- the quantum fox (A3) -----------------------------------------------------------------


def test_quantum_fox_is_caught_exactly_when_the_belief_empties() -> None:
    rng = random.Random(4)
    endings = set()
    for _ in range(300):
        game = random_game(rng, 6)
        adj = adjacency(game.graph)
        state, steps = play(game, rng, fox=quantum)
        strategy = inspections_of(steps)
        a = evenings(adj, strategy, game.lazy)
        belief_emptied = not a[-1]
        assert state.caught == belief_emptied
        assert all(a[:-1])  # the game went on while the belief was non-empty
        if not state.caught:
            assert len(strategy) == game.days
        endings.add(state.caught)
    assert endings == {True, False}


@pytest.mark.parametrize(
    ("spec", "k", "lazy"),
    [("path:5", 1, False), ("binary-tree:3", 1, False), ("cycle:6", 2, False), ("path:6", 2, True)],
)
def test_quantum_fox_against_an_optimal_sequence(spec: str, k: int, lazy: bool) -> None:
    g = parse_graph(spec)
    sol = solve(g, k, lazy)
    plan = iter(sol.strategy)
    state, _ = play(
        FoxGame(g, k, lazy), random.Random(0), quantum, lambda s, r: Inspect(next(plan))
    )
    assert state.caught
    assert state.day == sol.days
    assert state.outcome() == f"caught on day {sol.days}"


def test_a_committed_fox_is_caught_when_its_hole_is_inspected() -> None:
    rng = random.Random(6)
    for _ in range(200):
        game = random_game(rng)
        state, steps = play(game, rng, fox=committed)
        walk = [a.hole for seat, a, _ in steps if seat == FOX]  # type: ignore[attr-defined]
        strategy = inspections_of(steps)
        hits = [walk[i] in strategy[i] for i in range(len(strategy))]
        assert not any(hits[:-1])
        assert state.caught == hits[-1]


# --- events -------------------------------------------------------------------------------


def check_events(
    game: FoxGame, state: FoxState, steps: list[tuple[int, object, list[Event]]]
) -> None:
    adj = adjacency(game.graph)
    hunter_view: list[Event] = []
    day = 0
    for index, (seat, action, events) in enumerate(steps):
        last_step = index == len(steps) - 1
        if seat == FOX:
            assert len(events) == 1
            (moved,) = events
            assert moved.kind == "fox_moved"
            assert moved.audience == frozenset({FOX})
            assert moved.public == {"night": day}
            assert moved.seen_by(HUNTER).private is None
            assert moved.seen_by(FOX).private == moved.private
            holes = moved.private["holes"]  # type: ignore[index]
            belief = FoxBelief.from_view(game, View(HUNTER, "hunter", {}, hunter_view))
            always_hid = all(a == HIDE for s, a, _ in steps[: index + 1] if s == FOX)
            assert set(holes) <= set(belief.possible_holes())
            if always_hid:  # the quantum fox may be anywhere the hunter thinks possible
                assert list(holes) == belief.possible_holes()
            elif action != HIDE:
                assert list(holes) == [action.hole]  # type: ignore[attr-defined]
                assert action.hole in belief.possible_holes()  # type: ignore[attr-defined]
        else:
            day += 1
            inspected = events[0]
            assert inspected.kind == "inspected"
            assert inspected.private is None and inspected.audience == frozenset()
            assert inspected.public["day"] == day
            assert inspected.public["holes"] == action.holes  # type: ignore[attr-defined]
            assert inspected.public["caught"] == (last_step and state.caught)
            assert len(events) == (2 if last_step else 1)
        hunter_view.extend(e.seen_by(HUNTER) for e in events)

    *_, (_, _, final) = steps
    path_event = final[-1]
    assert path_event.kind == "fox_path"
    assert path_event.private is None
    assert path_event.public["caught"] == state.caught
    path = path_event.public["path"]
    strategy = inspections_of(steps)
    assert len(path) == len(strategy) == day
    assert state.inspections == [sum(1 << h for h in holes) for holes in strategy]
    assert is_walk(adj, path, game.lazy)
    dodged = strategy[:-1] if state.caught else strategy
    assert all(x not in holes for x, holes in zip(path, dodged, strict=False))
    if state.caught:
        assert path[-1] in strategy[-1]
    commitments = [a for seat, a, _ in steps if seat == FOX]
    if HIDE not in commitments:  # a fox that always committed: the path is its real walk
        assert list(path) == [a.hole for a in commitments]  # type: ignore[attr-defined]


@pytest.mark.parametrize("fox", [quantum, committed, mixed])
def test_events_and_the_final_fox_path(fox: FoxPolicy) -> None:
    rng = random.Random(fox.__name__)
    for _ in range(150):
        game = random_game(rng)
        state, steps = play(game, rng, fox=fox)
        check_events(game, state, steps)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 7),
    st.integers(0, 2**32),
    st.integers(1, 3),
    st.booleans(),
    st.integers(1, 8),
    st.randoms(use_true_random=False),
)
def test_random_playthroughs(
    n: int, seed: int, k: int, lazy: bool, days: int, rng: random.Random
) -> None:
    graph: FoxGraph = from_edges(n, random_connected_edges(random.Random(seed), n, 0.3))
    game = FoxGame(graph, k, lazy, days)
    state, steps = play(game, rng, fox=mixed)
    check_events(game, state, steps)
    assert len(inspections_of(steps)) <= days


# --- endings ------------------------------------------------------------------------------


def test_catch_returns_and_wins() -> None:
    state = FoxGame(parse_graph("path:5")).new_initial_state()
    assert state.returns() == (0.0, 0.0)
    state.apply(FoxMove(3))
    state.apply(Inspect((1,)))
    state.apply(FoxMove(2))
    assert not state.is_terminal()
    assert state.returns() == (0.0, 0.0)
    events = state.apply(Inspect((2,)))
    assert [e.kind for e in events] == ["inspected", "fox_path"]
    assert thaw(events[1].public) == {"path": [3, 2], "caught": True}
    assert state.is_terminal()
    assert state.returns() == (1.0, 0.0)
    assert state.wins() == (1.0, 0.0)
    assert state.outcome() == "caught on day 2"


def test_day_limit_ends_the_game_with_a_fox_win() -> None:
    state = FoxGame(parse_graph("path:5"), days=3).new_initial_state()
    walk = [0, 1, 0]
    for day, hole in enumerate(walk, start=1):
        assert not state.is_terminal()
        state.apply(FoxMove(hole))
        events = state.apply(Inspect((4,)))
        assert thaw(events[0].public) == {"day": day, "holes": [4], "caught": False}
    assert state.is_terminal()
    assert thaw(events[-1].public) == {"path": walk, "caught": False}
    assert state.returns() == (0.0, 1.0)
    assert state.wins() == (0.0, 1.0)
    assert state.outcome() == "escaped for 3 days"


def test_default_day_limit_is_four_times_the_holes() -> None:
    game = FoxGame(parse_graph("cycle:5"))
    state, steps = play(game, random.Random(0), quantum, lambda s, r: Inspect((0,)))
    assert not state.caught
    assert len(inspections_of(steps)) == 20


def test_one_hole_board() -> None:
    # X9: inspecting the only hole on day 1 catches the fox
    state = FoxGame(parse_graph("path:1")).new_initial_state()
    assert list(state.legal_actions()) == [HIDE, FoxMove(0)]
    state.apply(HIDE)
    assert list(state.legal_actions()) == [Inspect((0,))]
    events = state.apply(Inspect((0,)))
    assert state.caught and state.outcome() == "caught on day 1"
    assert thaw(events[-1].public) == {"path": [0], "caught": True}


# --- repr -----------------------------------------------------------------------------------


def test_repr_shows_the_whole_position_at_the_start_mid_game_and_the_end() -> None:
    game = FoxGame(parse_graph("path:5"))
    state = game.new_initial_state()
    assert repr(state) == (
        "FoxState(graph='path:5', day=1, to_move=fox, fox=not hidden, inspections=0)"
    )
    state.apply(HIDE)
    assert repr(state) == (
        "FoxState(graph='path:5', day=1, to_move=hunter, fox={0,1,2,3,4}, inspections=0)"
    )
    state.apply(Inspect((2,)))
    state.apply(FoxMove(1))
    assert repr(state) == "FoxState(graph='path:5', day=2, to_move=hunter, fox={1}, inspections=1)"
    state.apply(Inspect((1,)))
    assert repr(state) == (
        "FoxState(graph='path:5', day=2, to_move=nobody, fox={1}, inspections=2, caught=True)"
    )


@pytest.mark.parametrize("lazy", [False, True])
@pytest.mark.parametrize("spec", ["path:5", "cycle:6", "grid:3x3"])
def test_a_fox_in_one_hole_has_the_legal_actions_of_its_reach(spec: str, lazy: bool) -> None:
    """The board's table of one-hole reaches gives what the reach itself gives, and the legal
    and illegal moves agree with it (the table is the engine's fast path)."""
    game = FoxGame(parse_graph(spec), lazy=lazy)
    for hole in range(game.graph.n):
        state = game.new_initial_state()
        assert state.legal_actions() == game.fox_actions(game.graph.all_holes)
        state.apply(FoxMove(hole))
        state.apply(next(a for a in game.inspections if hole not in a.holes))  # type: ignore[union-attr]
        reach = game.graph.night(1 << hole, lazy)
        assert state.legal_actions() == game.fox_actions(reach)
        for to in range(game.graph.n):
            assert state.is_legal(FoxMove(to)) == bool(reach >> to & 1)
