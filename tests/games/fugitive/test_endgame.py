"""The end of the hunt: the Manhunt's expectimax and the guess before 42, against hand-traced
cases and a playout oracle (play the guesses out on each possible route and add up the wins)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.core.errors import SolverLimitError
from sleuth.games.fugitive.deduction.endgame import (
    Expectimax,
    Route,
    Routes,
    best_before_42,
    chance_if_42_next,
    guess_options,
    manhunt_chance,
    route_sets,
    routes_of,
)

THRESHOLD = 30


def test_naming_the_whole_route_beats_a_sure_step_when_42_may_come_next() -> None:
    """12 is certain, the next hideout 33 or 34.  Revealing 12 leaves a coin toss for the
    Manhunt; naming 12 and 33 wins at once half the time and otherwise shows it is 34."""
    routes = routes_of({((1, 12, ()), (2, 33, ())): 1.0, ((1, 12, ()), (2, 34, ())): 1.0})
    assert chance_if_42_next((12,), routes, THRESHOLD) == pytest.approx(0.5)
    assert chance_if_42_next((12, 33), routes, THRESHOLD) == pytest.approx(1.0)
    assert best_before_42(routes, THRESHOLD, preferred=(12,)) == ((12, 33), pytest.approx(1.0))


def test_a_hit_at_the_threshold_short_of_the_whole_route_loses_to_42() -> None:
    routes = routes_of({((1, 31, ()), (2, 35, ())): 1.0, ((1, 31, ()), (2, 36, ())): 1.0})
    assert chance_if_42_next((31,), routes, THRESHOLD) == 0.0  # 31 face up: 42 wins (F26)
    assert chance_if_42_next((31, 35), routes, THRESHOLD) == pytest.approx(1.0)
    assert manhunt_chance(routes) == (pytest.approx(0.5), 31)  # the sure 31 first


def test_a_tie_keeps_the_advice_else_goes_to_fewer_numbers() -> None:
    """The sprint card under 12 tells 33 (a +1 card) from 34 (a +2 card), so the sure step wins
    as surely as the whole route if 42 comes next, and it is kept (its sprint cards are worth
    more if 42 does not come next); so is the advice of the whole route."""
    routes = routes_of({((1, 12, (1,)), (2, 33, ())): 1.0, ((1, 12, (2,)), (2, 34, ())): 1.0})
    assert chance_if_42_next((12,), routes, THRESHOLD) == pytest.approx(1.0)
    assert best_before_42(routes, THRESHOLD) == ((12,), pytest.approx(1.0))
    assert best_before_42(routes, THRESHOLD, preferred=(12, 34)) == ((12, 34), pytest.approx(1.0))


def test_a_single_possible_route_is_named_whatever_the_advice() -> None:
    routes = routes_of({((1, 12, ()), (2, 33, ())): 1.0})
    assert best_before_42(routes, THRESHOLD, preferred=(34,)) == ((12, 33), 1.0)


def test_an_advice_that_cannot_hit_gives_way() -> None:
    """If 42 comes next, naming 34 (never a hideout) leaves the Manhunt a coin toss, while
    naming 31 wins at once or shows that it is 32."""
    routes = routes_of({((1, 31, ()),): 1.0, ((1, 32, ()),): 1.0})
    assert chance_if_42_next((34,), routes, THRESHOLD) == pytest.approx(0.5)
    best, chance = best_before_42(routes, THRESHOLD, preferred=(34,))
    assert best != (34,) and chance == pytest.approx(1.0)


def test_certain_hideouts_cost_the_expectimax_nothing() -> None:
    """Twelve hideouts the same in every route, the last 33 or 34: two sub-problems, not 2^12."""
    sure = tuple((position, 2 * position, ()) for position in range(1, 13))
    routes = routes_of({(*sure, (13, 33, ())): 1.0, (*sure, (13, 34, ())): 1.0})
    assert manhunt_chance(routes, max_nodes=2) == (pytest.approx(0.5), 2)  # a sure 2 first
    best, chance = best_before_42(routes, THRESHOLD, max_nodes=2)
    assert set(best) == {v for _, v, _ in sure} | {33} and chance == pytest.approx(1.0)


def test_naming_nothing_leaves_the_manhunt_as_it_is() -> None:
    routes = routes_of({((1, 31, ()),): 1.0, ((1, 32, ()),): 3.0})
    assert chance_if_42_next((), routes, THRESHOLD) == manhunt_chance(routes)[0] == 0.75
    with pytest.raises(ValueError, match="no possible route"):
        manhunt_chance(())


def play_manhunt(left: Routes, truth: Route) -> bool:
    """Name the best guess after each hit, keeping the routes that show the same."""
    hidden = truth
    while hidden:
        _, number = manhunt_chance(left)
        hit = [h for h in hidden if h[1] == number]
        if not hit:
            return False
        hidden = tuple(h for h in hidden if h != hit[0])
        left = routes_of(
            {tuple(h for h in route if h != hit[0]): p for route, p in left if hit[0] in route}
        )
    return True


def play_before_42(guess: tuple[int, ...], routes: Routes, truth: Route) -> bool:
    """Name ``guess`` on ``truth``, then 42 comes and the Manhunt is played out."""
    values = {value for _, value, _ in truth}
    if not set(guess) <= values:
        left = {route: p for route, p in routes if not set(guess) <= {v for _, v, _ in route}}
        return play_manhunt(routes_of(left), truth)
    if set(guess) == values:
        return True
    if max(guess) >= THRESHOLD:
        return False
    shown = {h for h in truth if h[1] in guess}
    left = {
        tuple(h for h in route if h not in shown): p for route, p in routes if shown <= set(route)
    }
    return play_manhunt(routes_of(left), tuple(h for h in truth if h not in shown))


@st.composite
def small_routes(draw: st.DrawFn) -> Routes:
    """A few routes of one to three face-down hideouts around the threshold, some with a
    one-card stack, with random weights."""
    size = draw(st.integers(1, 3))
    count = draw(st.integers(1, 6))
    weights: dict[Route, float] = {}
    for _ in range(count):
        values = sorted(draw(st.sets(st.integers(24, 37), min_size=size, max_size=size)))
        stacks = [draw(st.sampled_from([(), (1,), (2,)])) for _ in values]
        route = tuple(
            (position + 1, v, s) for position, (v, s) in enumerate(zip(values, stacks, strict=True))
        )
        weights[route] = weights.get(route, 0.0) + draw(st.integers(1, 5))
    return routes_of(weights)


def brute_force_manhunt(routes: list[tuple[Route, float]]) -> float:
    """Oracle: the best Manhunt by trying every number at every step, nothing merged or set
    aside (weights relative to their total)."""
    total = sum(p for _, p in routes)
    if not routes[0][0]:
        return 1.0
    best = 0.0
    for number in {v for route, _ in routes for _, v, _ in route}:
        won = 0.0
        for shown in {h for route, _ in routes for h in route if h[1] == number}:
            left = [(tuple(h for h in r if h != shown), p) for r, p in routes if shown in r]
            won += sum(p for _, p in left) * brute_force_manhunt(left)
        best = max(best, won / total)
    return best


@settings(max_examples=150, deadline=None)
@given(small_routes())
def test_every_chance_is_what_playing_it_out_wins(routes: Routes) -> None:
    """Oracle: each guess is deterministic given the true route, so its chance is the weight of
    the routes on which playing it out wins."""
    chance, _ = manhunt_chance(routes)
    assert chance == pytest.approx(brute_force_manhunt(list(routes)))  # the best there is
    assert chance == pytest.approx(sum(p for r, p in routes if play_manhunt(routes, r)))
    options = guess_options(routes, THRESHOLD)
    for guess in options:
        played = sum(p for r, p in routes if play_before_42(guess, routes, r))
        assert chance_if_42_next(guess, routes, THRESHOLD) == pytest.approx(played)
    best, best_chance = best_before_42(routes, THRESHOLD)
    assert best in options
    assert all(best_chance >= chance_if_42_next(g, routes, THRESHOLD) - 1e-9 for g in options)
    assert best_chance >= chance - 1e-9  # a miss costs only the turn before 42


@settings(max_examples=50, deadline=None)
@given(small_routes())
def test_the_options_include_the_likeliest_whole_route_and_only_safe_partial_guesses(
    routes: Routes,
) -> None:
    sets = route_sets(routes)
    options = guess_options(routes, THRESHOLD)
    likeliest = max(sets.values())
    assert any(sets.get(frozenset(o), 0) == pytest.approx(likeliest) for o in options)
    for option in options:
        if frozenset(option) not in sets:
            assert max(option) < THRESHOLD


def test_the_expectimax_gives_up_beyond_its_budget() -> None:
    """Eight equally likely routes of three hideouts: each hit leaves a new sub-problem."""
    routes = routes_of(
        {
            ((1, a, ()), (2, b, ()), (3, c, ())): 1.0
            for a in (20, 21)
            for b in (24, 25)
            for c in (31, 32)
        }
    )
    assert manhunt_chance(routes)[0] == pytest.approx(1 / 8)
    with pytest.raises(SolverLimitError, match="over 2 sub-problems"):
        manhunt_chance(routes, max_nodes=2)
    with pytest.raises(SolverLimitError):
        best_before_42(routes, THRESHOLD, max_nodes=2)


def test_the_expectimax_counts_its_work_in_hideouts_scanned() -> None:
    """The same eight routes.  Solving a sub-problem scans every hideout of its routes once
    per number it tries: 6 numbers over 8 routes of 3 hideouts (144), three sub-problems of 4
    routes of 2 hideouts and 4 numbers (32 each), three of 2 routes of 1 hideout and 2 numbers
    (4 each): 252.  The budget counts a sub-problem before solving it, and stops there."""
    routes = routes_of(
        {
            ((1, a, ()), (2, b, ()), (3, c, ())): 1.0
            for a in (20, 21)
            for b in (24, 25)
            for c in (31, 32)
        }
    )
    solver = Expectimax()
    chance = solver.manhunt(routes)[0]
    assert chance == pytest.approx(1 / 8)
    assert solver.scans == sum(
        len({v for r, _ in left for _, v, _ in r}) * len(left) * len(left[0][0])
        for left in solver.solved
    )
    assert solver.scans == 144 + 3 * 32 + 3 * 4
    assert Expectimax(max_scans=solver.scans).manhunt(routes)[0] == chance
    tight = Expectimax(max_scans=solver.scans - 1)
    with pytest.raises(SolverLimitError, match=f"over {solver.scans - 1:,} hideout scans"):
        tight.manhunt(routes)
    assert len(tight.solved) < len(solver.solved)
