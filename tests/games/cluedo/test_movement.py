"""Cluedo's movement model: distance tables, reachable positions, expected throws (M1-M10)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sleuth.games.cluedo.cards import ROOMS, SUSPECTS
from sleuth.games.cluedo.movement import (
    PASSAGES,
    ROOM_DISTANCES,
    START_DISTANCES,
    AtStart,
    InRoom,
    Position,
    Transit,
    distance,
    expected_throws,
    parse_position,
    passage,
    prob_at_least,
    reachable,
    remoteness,
    roll_distribution,
    travel_time,
)

HALL, LOUNGE, DINING, KITCHEN, BALLROOM, CONSERVATORY, BILLIARD, LIBRARY, STUDY = ROOMS

# M7's table, typed from the rules specification: E(d) for one die and for two dice.
M7_D = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 20, 24, 33)
M7_ONE = (
    1.000, 1.167, 1.361, 1.588, 1.853, 2.161, 2.522, 2.775, 3.043, 3.324, 3.906, 5.046, 6.190,
    7.333, 9.905,
)  # fmt: skip
M7_TWO = (
    1.000, 1.000, 1.028, 1.083, 1.167, 1.282, 1.428, 1.610, 1.777, 1.932, 2.221, 2.765, 3.349,
    3.915, 5.202,
)  # fmt: skip
M8_ONE = (1, 0.833, 0.667, 0.5, 0.333, 0.167, 0, 0, 0, 0, 0, 0)
M8_TWO = (1, 1, 0.972, 0.917, 0.833, 0.722, 0.583, 0.417, 0.278, 0.167, 0.083, 0.028)


def test_room_distances_are_symmetric_and_positive_off_the_diagonal() -> None:
    for a, b in itertools.product(range(9), repeat=2):
        assert ROOM_DISTANCES[a][b] == ROOM_DISTANCES[b][a]
        assert (ROOM_DISTANCES[a][b] == 0) == (a == b)
    assert len(START_DISTANCES) == 6 and all(len(row) == 9 for row in START_DISTANCES)
    assert min(min(row) for row in START_DISTANCES) > 0


def test_table_entries_by_hand() -> None:
    assert distance(InRoom(LOUNGE), CONSERVATORY) == 27
    assert distance(InRoom(STUDY), KITCHEN) == 28
    assert distance(InRoom(HALL), STUDY) == 4
    assert distance(AtStart(0), LOUNGE) == 8  # Scarlet
    assert distance(AtStart(5), STUDY) == 8  # Plum
    assert distance(AtStart(2), STUDY) == 33  # White: the longest walk


@pytest.mark.parametrize(("dice", "expected"), [(1, M7_ONE), (2, M7_TWO)])
def test_expected_throws_match_m7_to_three_decimals(dice: int, expected: tuple[float]) -> None:
    assert [round(expected_throws(d, dice), 3) for d in M7_D] == list(expected)
    assert expected_throws(0, dice) == expected_throws(-3, dice) == 0.0


def test_expected_throws_grow_like_d_over_the_mean_roll() -> None:
    assert expected_throws(300, 1) - 300 / 3.5 == pytest.approx(0.476, abs=1e-3)
    assert expected_throws(300, 2) - 300 / 7 == pytest.approx(0.488, abs=1e-3)


@pytest.mark.parametrize(("dice", "expected"), [(1, M8_ONE), (2, M8_TWO)])
def test_probability_of_a_roll_of_at_least_d_matches_m8(dice: int, expected: tuple[float]) -> None:
    assert [round(prob_at_least(d, dice), 3) for d in range(1, 13)] == list(expected)


def test_roll_distributions_sum_to_one() -> None:
    for dice, count in ((1, 6), (2, 11)):
        rolls = roll_distribution(dice)
        assert len(rolls) == count
        assert sum(p for _, p in rolls) == pytest.approx(1.0)
    assert dict(roll_distribution(2))[7] == pytest.approx(6 / 36)


def test_a_roll_from_a_start_reaches_close_rooms_and_walks_towards_far_ones() -> None:
    targets = reachable(AtStart(0), 8)
    assert list(targets) == list(ROOMS)
    assert targets[LOUNGE] == InRoom(LOUNGE)
    assert targets[HALL] == Transit(AtStart(0), HALL, 4, 8)
    assert targets[CONSERVATORY] == Transit(AtStart(0), CONSERVATORY, 23, 8)


def test_a_roll_from_a_room_never_targets_that_room() -> None:
    targets = reachable(InRoom(HALL), 4)
    assert HALL not in targets and len(targets) == 8
    assert targets[STUDY] == InRoom(STUDY)


@pytest.mark.parametrize(
    "position", [AtStart(0), InRoom(HALL), Transit(InRoom(HALL), KITCHEN, 5, 14)]
)
@pytest.mark.parametrize("roll", [0, -3])
def test_a_roll_under_one_is_refused_by_name(position: Position, roll: int) -> None:
    # a roll of 0 would leave a token "on its way" without a square walked (M2's invariant)
    with pytest.raises(ValueError, match=f"a roll of {roll}: the dice show at least 1"):
        reachable(position, roll)


def test_a_token_on_its_way_keeps_its_target_unless_retargeting_is_on() -> None:
    on_way = Transit(InRoom(HALL), KITCHEN, 5, 14)
    assert reachable(on_way, 3) == {KITCHEN: Transit(InRoom(HALL), KITCHEN, 2, 17)}
    assert reachable(on_way, 5) == {KITCHEN: InRoom(KITCHEN)}
    free = reachable(on_way, 6, retarget=True)
    assert list(free) == list(ROOMS)
    assert free[KITCHEN] == InRoom(KITCHEN)
    assert free[HALL] == Transit(InRoom(HALL), HALL, 8, 20)  # back: 14 walked, then 6 more
    assert free[STUDY] == Transit(InRoom(HALL), STUDY, 12, 20)  # 14 + D(Hall, Study) 4 - 6


def test_passages_join_opposite_corners_both_ways() -> None:
    assert PASSAGES == {LOUNGE: CONSERVATORY, CONSERVATORY: LOUNGE, KITCHEN: STUDY, STUDY: KITCHEN}
    assert passage(HALL) is None and passage(STUDY) == KITCHEN


def _brute_room_time(a: int, b: int, dice: int) -> float:
    """T(a, b) by trying every route through at most 3 intermediate rooms (M9's oracle)."""

    def leg(x: int, y: int) -> float:
        walk = expected_throws(distance(InRoom(x), y), dice)
        return min(walk, 1.0) if PASSAGES.get(x) == y else walk

    if a == b:
        return 0.0
    best = leg(a, b)
    others = [r for r in ROOMS if r not in (a, b)]
    for k in range(1, 4):
        for middle in itertools.permutations(others, k):
            route = (a, *middle, b)
            best = min(best, sum(leg(x, y) for x, y in itertools.pairwise(route)))
    return best


@pytest.mark.parametrize("dice", [1, 2])
def test_travel_times_are_shortest_routes(dice: int) -> None:
    for a, b in itertools.product(ROOMS, repeat=2):
        assert travel_time(InRoom(a), b, dice) == pytest.approx(_brute_room_time(a, b, dice))
    assert travel_time(InRoom(LOUNGE), CONSERVATORY, dice) == 1.0
    # Lounge to Ballroom: through the passage, then 4 squares, beats walking 15.
    via = 1.0 + expected_throws(4, dice)
    assert travel_time(InRoom(LOUNGE), BALLROOM, dice) == pytest.approx(
        min(via, expected_throws(15, dice))
    )


def test_travel_time_from_a_start_and_on_the_way() -> None:
    for s in SUSPECTS:
        for goal in ROOMS:
            by_first = min(
                expected_throws(distance(AtStart(s), r), 1) + travel_time(InRoom(r), goal, 1)
                for r in ROOMS
            )
            assert travel_time(AtStart(s), goal, 1) == pytest.approx(by_first)
    on_way = Transit(InRoom(HALL), KITCHEN, 5, 14)
    assert travel_time(on_way, DINING, 1) == pytest.approx(
        expected_throws(5, 1) + travel_time(InRoom(KITCHEN), DINING, 1)
    )
    # Back to the Hall: walking the 14 squares back, or on to the Kitchen, the passage to the
    # Study and 4 squares (1.853 + 1 + 1.588 = 4.441 < E(14) = 4.476).
    onward = expected_throws(5, 1) + 1.0 + expected_throws(4, 1)
    assert travel_time(on_way, HALL, 1) == pytest.approx(onward)
    assert travel_time(on_way, HALL, 1, retarget=True) == pytest.approx(onward)
    assert travel_time(on_way, LIBRARY, 1, retarget=True) == pytest.approx(
        min(
            expected_throws(5, 1) + travel_time(InRoom(KITCHEN), LIBRARY, 1),
            expected_throws(14 + 7, 1),
        )
    )


def test_remoteness_weighs_travel_times_by_room_probabilities() -> None:
    here = AtStart(3)
    point = [0.0] * 9
    point[LIBRARY - HALL] = 1.0
    assert remoteness(here, point, 2) == travel_time(here, LIBRARY, 2)
    uniform = [1 / 9] * 9
    expected = sum(travel_time(here, r, 2) for r in ROOMS) / 9
    assert remoteness(here, uniform, 2) == pytest.approx(expected)
    assert remoteness(InRoom(BILLIARD), point, 1) == travel_time(InRoom(BILLIARD), LIBRARY, 1)
    with pytest.raises(ValueError, match="8 room probabilities"):
        remoteness(here, [0.125] * 8, 1)


origins = st.one_of(
    st.builds(AtStart, st.sampled_from(SUSPECTS)), st.builds(InRoom, st.sampled_from(ROOMS))
)


@st.composite
def positions(draw: st.DrawFn) -> Position:
    origin = draw(origins)
    if draw(st.booleans()):
        return origin
    target = draw(st.sampled_from([r for r in ROOMS if origin != InRoom(r)]))
    left = draw(st.integers(1, 40))
    return Transit(origin, target, left, draw(st.integers(1, 40)))


@given(positions(), st.integers(1, 12), st.booleans())
def test_positions_read_back_from_their_text_and_moves_stay_valid(
    position: Position, roll: int, retarget: bool
) -> None:
    assert parse_position(str(position)) == position
    for target, after in reachable(position, roll, retarget).items():
        assert parse_position(str(after)) == after
        if isinstance(after, Transit):
            assert after.target == target and after.left >= 1 and after.walked >= roll
        else:
            assert after == InRoom(target)
