"""The track: movement, stacking, tiles and ranking (K14-K20, E4-E8), with the spec's examples."""

from __future__ import annotations

import random

from sleuth.games.camel_up.track import (
    MIRAGE,
    OASIS,
    arrangement,
    crazy_to_move,
    move,
    racing_order,
    stacks,
)

A, B, C, D, E = range(5)
WHITE, BLACK = 5, 6


def test_arrangement_round_trips_and_reads_last_to_first() -> None:
    order = arrangement({4: [A, B], 2: [C], 9: [D, E]})
    assert stacks(order) == {2: [C], 4: [A, B], 9: [D, E]}
    assert racing_order(order) == (C, A, B, D, E)


def test_unit_carries_camels_above_and_lands_on_top() -> None:
    order = arrangement({4: [A, B, C], 6: [D], 0: [E]})
    landing = move(order, B, 2, {})
    assert stacks(landing.arrangement) == {0: [E], 4: [A], 6: [D, B, C]}
    assert landing.tile == -1 and not landing.finished


def test_k18_bounce_back_under_the_camels_it_left() -> None:
    order = arrangement({4: [A, B, C]})
    landing = move(order, B, 1, {5: MIRAGE})
    assert stacks(landing.arrangement) == {4: [B, C, A]}
    assert landing.tile == 5


def test_mistake_11_mirage_unit_goes_under_the_camels_there() -> None:
    order = arrangement({2: [A], 5: [B, C]})
    landing = move(order, A, 4, {6: MIRAGE})
    assert stacks(landing.arrangement) == {5: [A, B, C]}


def test_oasis_moves_one_more_and_lands_on_top() -> None:
    order = arrangement({2: [A, B], 6: [C]})
    landing = move(order, A, 3, {5: OASIS})
    assert stacks(landing.arrangement) == {6: [C, A, B]}
    assert landing.tile == 5


def test_mistake_13_oasis_on_the_last_space_finishes() -> None:
    order = arrangement({12: [A], 3: [B]})
    landing = move(order, A, 3, {15: OASIS})
    assert landing.finished and stacks(landing.arrangement)[16] == [A]


def test_finishing_unit_keeps_its_order_and_leads() -> None:
    order = arrangement({14: [A, B], 15: [C]})
    landing = move(order, A, 3, {})
    assert landing.finished
    assert racing_order(landing.arrangement) == (C, A, B)


def test_mistake_12_loser_is_the_bottom_of_the_rearmost_stack() -> None:
    order = arrangement({0: [B, C], 3: [A, D, E]})
    assert racing_order(order)[0] == B


def test_crazy_camel_moves_backwards_and_carries_racers_back() -> None:
    order = arrangement({10: [WHITE, A], 8: [B], 15: [BLACK]})
    landing = move(order, WHITE, 2, {})
    assert stacks(landing.arrangement) == {8: [B, WHITE, A], 15: [BLACK]}


def test_crazy_tiles_are_mirrored() -> None:
    order = arrangement({10: [WHITE], 7: [B]})
    cheering = move(order, WHITE, 2, {8: OASIS})  # one more step backwards, on top
    assert stacks(cheering.arrangement) == {7: [B, WHITE]}
    booing = move(order, WHITE, 2, {8: MIRAGE})  # one step forwards, underneath
    assert stacks(booing.arrangement) == {9: [WHITE], 7: [B]}
    under = move(arrangement({10: [WHITE], 9: [B]}), WHITE, 2, {8: MIRAGE})
    assert stacks(under.arrangement) == {9: [WHITE, B]}


def test_e8_crazy_finish_puts_carried_racers_last() -> None:
    order = arrangement({1: [BLACK, A, B], 4: [C], 6: [D, E]})
    landing = move(order, BLACK, 3, {})
    assert landing.finished
    assert racing_order(landing.arrangement) == (A, B, C, D, E)


def test_e5_grey_die_exceptions() -> None:
    # Rule 1: only white carries a racing camel, so white moves whatever the face.
    carrying = arrangement({12: [WHITE, A], 14: [BLACK]})
    assert crazy_to_move(carrying, BLACK) == WHITE
    # Rule 2: black sits directly on white (no racers on either): the upper one, black.
    stacked = arrangement({13: [WHITE, BLACK]})
    assert crazy_to_move(stacked, WHITE) == BLACK
    # Both carry racers: rule 1 does not apply; not directly stacked: the face decides.
    both = arrangement({12: [WHITE, A], 14: [BLACK, B]})
    assert crazy_to_move(both, WHITE) == WHITE and crazy_to_move(both, BLACK) == BLACK
    # Racer between them: white carries black and A; black carries nothing.
    between = arrangement({12: [WHITE, A, BLACK]})
    assert crazy_to_move(between, BLACK) == WHITE


def _brute_move(
    piles: dict[int, list[int]], camel: int, steps: int, tiles: dict[int, int]
) -> dict[int, list[int]]:
    """A plain list-of-stacks implementation of K14-K18/E4-E6 for comparison."""
    piles = {i: list(s) for i, s in piles.items()}
    start = next(i for i, s in piles.items() if camel in s)
    height = piles[start].index(camel)
    unit = piles[start][height:]
    del piles[start][height:]
    direction = 1 if camel < 5 else -1
    target = start + direction * steps
    side = tiles.get(target, 0)
    target += direction * side
    below = piles.setdefault(target, [])
    piles[target] = below + unit if side != MIRAGE else unit + below
    return {i: s for i, s in sorted(piles.items()) if s}


def test_move_matches_a_plain_list_implementation() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        piles: dict[int, list[int]] = {}
        camels = list(range(7))
        rng.shuffle(camels)
        for camel in camels:
            piles.setdefault(rng.randrange(3, 13), []).append(camel)
        tiles = {}
        for index in rng.sample(range(1, 16), 3):
            if all(abs(index - t) > 1 for t in tiles) and index not in piles:
                tiles[index] = rng.choice((OASIS, MIRAGE))
        camel, steps = rng.randrange(7), rng.randint(1, 3)
        landing = move(arrangement(piles), camel, steps, tiles)
        assert stacks(landing.arrangement) == _brute_move(piles, camel, steps, tiles)
