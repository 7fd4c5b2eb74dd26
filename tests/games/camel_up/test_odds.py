"""Exact Camel Up odds (O1-O9): the spec's golden values, brute-force oracles written plainly
here, the pure-Python fallback, Monte Carlo cross-checks and input validation."""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import re
import subprocess
import sys
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.core.errors import OptionError, PositionError, SleuthError
from sleuth.games.camel_up import _kernels, track
from sleuth.games.camel_up.odds import (
    GREY_DIE,
    LegCounts,
    check_position,
    full_pyramid,
    game_odds,
    leg_counts,
    leg_odds,
    leg_ticket_ev,
    monte_carlo,
)
from sleuth.games.camel_up.position import read_position
from sleuth.games.camel_up.race_table import RaceTable
from sleuth.games.camel_up.track import (
    MIRAGE,
    OASIS,
    Arrangement,
    arrangement,
    crazy_to_move,
    move,
    racing_order,
)

M = arrangement({3: [0], 4: [1, 2], 6: [3], 7: [4]})
S = arrangement({0: [0], 1: [1, 2], 2: [3, 4]})
TOLERANCE = 1e-4
WHITE, BLACK = track.CRAZY

# O9, position M: camel id = place from the back.
GOLDEN_M_LEG = {
    "first": (0.0828, 0.1048, 0.2492, 0.1857, 0.3776),
    "second": (0.0866, 0.1298, 0.1937, 0.3013, 0.2886),
}
GOLDEN_M_EV = {
    5: (-0.3302, -0.1116, 0.8824, 0.7166, 1.8427),
    3: (-0.4957, -0.3212, 0.3841, 0.3453, 1.0876),
    2: (-0.5785, -0.4260, 0.1349, 0.1596, 0.7100),
}
GOLDEN_M_GAME = {
    "win": (0.1463, 0.1858, 0.2107, 0.2290, 0.2282),
    "last": (0.3879, 0.2576, 0.1667, 0.1060, 0.0818),
}


def close(values: tuple[float, ...] | list[float], golden: tuple[float, ...]) -> bool:
    return all(abs(v - g) <= TOLERANCE for v, g in zip(values, golden, strict=True))


# --- The brute-force oracles: plain recursion over every die order, die and face. ---------


def brute_leg(
    order: Arrangement, mask: int, tiles: Mapping[int, int], edition: int
) -> dict[str, Any]:
    """The leg's odds by unmerged recursion with exact fractions."""
    leg_end = 0 if edition == 1 else 1
    first = [Fraction(0)] * 5
    second = [Fraction(0)] * 5
    endings: dict[tuple[int, int], Fraction] = {}
    hits = dict.fromkeys(tiles, Fraction(0))
    leaves = 0

    def walk(order: Arrangement, mask: int, p: Fraction) -> None:
        nonlocal leaves
        dice = [d for d in range(6) if mask >> d & 1]
        for die in dice:
            if die == GREY_DIE:
                outcomes = [
                    (crazy_to_move(order, colour), steps, Fraction(1, 6))
                    for colour in (WHITE, BLACK)
                    for steps in (1, 2, 3)
                ]
            else:
                outcomes = [(die, steps, Fraction(1, 3)) for steps in (1, 2, 3)]
            for camel, steps, q in outcomes:
                w = p * q / len(dice)
                landing = move(order, camel, steps, tiles)
                if landing.tile >= 0:
                    hits[landing.tile] += w
                rest = mask & ~(1 << die)
                if landing.finished or rest.bit_count() == leg_end:
                    ranking = racing_order(landing.arrangement)
                    first[ranking[-1]] += w
                    second[ranking[-2]] += w
                    leaves += 1
                    if landing.finished:
                        key = (ranking[-1], ranking[0])
                        endings[key] = endings.get(key, Fraction(0)) + w
                else:
                    walk(landing.arrangement, rest, w)

    walk(order, mask, Fraction(1))
    return {"first": first, "second": second, "endings": endings, "hits": hits, "leaves": leaves}


def exact(counts: LegCounts) -> dict[str, Any]:
    return {
        "first": [counts.fraction(c) for c in counts.first],
        "second": [counts.fraction(c) for c in counts.second],
        "endings": {k: counts.fraction(c) for k, c in counts.endings.items()},
        "hits": {t: counts.fraction(c) for t, c in counts.tile_hits.items()},
        "leaves": counts.leaves,
    }


def brute_game(
    order: Arrangement, mask: int, tiles: Mapping[int, int], table: RaceTable
) -> list[list[float]]:
    """1st edition: the rest of the leg by unmerged recursion, then the table at each leaf
    that completes the leg (camel j of a shape is the j-th in reading order)."""
    joint = [[0.0] * 5 for _ in range(5)]

    def walk(order: Arrangement, mask: int, p: float) -> None:
        dice = [d for d in range(5) if mask >> d & 1]
        for die in dice:
            for steps in (1, 2, 3):
                w = p / (3 * len(dice))
                landing = move(order, die, steps, tiles)
                ranking = racing_order(landing.arrangement)
                rest = mask & ~(1 << die)
                if landing.finished:
                    joint[ranking[-1]][ranking[0]] += w
                elif rest:
                    walk(landing.arrangement, rest, w)
                else:
                    row = table.row([code >> 3 for code in landing.arrangement])
                    for a, b in itertools.product(range(5), repeat=2):
                        joint[ranking[a]][ranking[b]] += w * row[a, b]

    walk(order, mask, 1.0)
    return joint


def random_position(
    rng: random.Random, edition: int, dice: int
) -> tuple[Arrangement, int, dict[int, int]]:
    """Camels crowded on indices low..15 (so stacks, tiles and finishes are common), up to three
    legal tiles, and ``dice`` dice left in the pyramid."""
    low = rng.randrange(14)
    camels = list(range(5)) + ([WHITE, BLACK] if edition == 2 else [])
    where: dict[int, list[int]] = {}
    for camel in rng.sample(camels, len(camels)):
        where.setdefault(rng.randrange(low, 16), []).append(camel)
    tiles: dict[int, int] = {}
    free = [t for t in range(1, 16) if t not in where]
    for t in rng.sample(free, min(len(free), rng.randrange(4))):
        if t - 1 not in tiles and t + 1 not in tiles:
            tiles[t] = rng.choice((OASIS, MIRAGE))
    pyramid = list(range(5)) + ([GREY_DIE] if edition == 2 else [])
    mask = sum(1 << d for d in rng.sample(pyramid, dice))
    return arrangement(where), mask, tiles


# --- O9 golden values and O1/O2 sizes. -------------------------------------------------------


def test_o9_leg_odds_at_m() -> None:
    odds = leg_odds(M)
    assert close(odds.first, GOLDEN_M_LEG["first"])
    assert close(odds.second, GOLDEN_M_LEG["second"])
    for value, golden in GOLDEN_M_EV.items():
        assert close([odds.ticket_ev(c, value) for c in range(5)], golden)
        evs = [leg_ticket_ev(odds.first[c], odds.second[c], value) for c in range(5)]
        assert close(evs, golden)
    assert odds.game_end == 0 and odds.endings == {}


def test_o2_merged_layer_sizes_and_o1_leaf_count_at_m() -> None:
    counts = leg_counts(M)
    assert counts.layers == (1, 15, 120, 605, 1825, 2537)
    assert counts.leaves == 29_160
    # The leaf weights sum to 1: every leaf has exactly one 1st and one 2nd camel.
    assert sum(counts.first) == sum(counts.second) == counts.denominator
    assert counts.game_end == 0


@pytest.mark.parametrize(("dice", "leaves"), [(5, 29_160), (4, 1_944), (3, 162), (2, 18), (1, 3)])
def test_o1_leaf_counts(dice: int, leaves: int) -> None:
    counts = leg_counts(M, (1 << dice) - 1)
    assert counts.leaves == leaves == math.factorial(dice) * 3**dice
    assert sum(counts.first) == counts.denominator


def test_mistake_14_odds_stop_at_the_finish() -> None:
    odds = leg_odds(arrangement({13: [0, 1, 2, 3, 4]}))
    assert abs(odds.game_end - 0.9936) <= TOLERANCE
    assert close(odds.first, (0.0534, 0.0807, 0.0952, 0.1021, 0.6687))
    assert abs(sum(odds.endings.values()) - odds.game_end) < 1e-12
    assert abs(sum(odds.first) - 1) < 1e-12


def test_o9_game_odds_at_m(table: RaceTable) -> None:
    odds = game_odds(M, table=table)
    assert close(odds.win, GOLDEN_M_GAME["win"])
    assert close(odds.last, GOLDEN_M_GAME["last"])
    assert odds.exact and odds.leg == leg_odds(M)
    assert abs(sum(map(sum, odds.joint)) - 1) < 1e-12
    assert all(odds.joint[c][c] == 0 for c in range(5))


def test_o9_start_shape(table: RaceTable) -> None:
    shape = (0, 1, 1, 2, 2)
    assert close(table.win(shape), (0.1756, 0.1943, 0.2101, 0.2026, 0.2174))
    assert close(table.last(shape), (0.2848, 0.2158, 0.1678, 0.1830, 0.1485))
    assert close(game_odds(S, table=table).win, (0.1756, 0.1943, 0.2101, 0.2026, 0.2174))


def test_o9_random_setup_averages(table: RaceTable) -> None:
    """K5: every camel rolls its start space; label j = j-th starting place from the back."""
    rolls = list(itertools.product(range(3), repeat=5))
    win = [sum(table.win(sorted(roll))[j] for roll in rolls) / len(rolls) for j in range(5)]
    last = [sum(table.last(sorted(roll))[j] for roll in rolls) / len(rolls) for j in range(5)]
    assert close(win, (0.1752, 0.1961, 0.2035, 0.2091, 0.2162))
    assert close(last, (0.2799, 0.2050, 0.1853, 0.1726, 0.1570))


def reachable_shapes(shape: tuple[int, ...]) -> int:
    """How many start-of-leg shapes solving ``shape`` reaches (itself included): a search over
    canonical mid-leg states (shape, dice left by label) with the track's own moves."""
    start = (shape, 31)
    seen = {start}
    shapes = {shape}
    stack = [start]
    while stack:
        p, mask = stack.pop()
        order = tuple(index * 8 + label for label, index in enumerate(p))
        for label in range(5):
            if not mask >> label & 1:
                continue
            for steps in (1, 2, 3):
                landing = move(order, label, steps, {})
                if landing.finished:
                    continue
                new = landing.arrangement
                left = sum(
                    1 << j
                    for j, code in enumerate(new)
                    if code & 7 != label and mask >> (code & 7) & 1
                )
                new_shape = tuple(code >> 3 for code in new)
                if not left:
                    shapes.add(new_shape)
                node = (new_shape, left or 31)
                if node not in seen:
                    seen.add(node)
                    stack.append(node)
    return len(shapes)


def test_o9_solving_m_reaches_2648_shapes() -> None:
    assert reachable_shapes((3, 4, 4, 6, 7)) == 2648


@pytest.mark.slow
def test_o9_solving_s_reaches_6928_shapes() -> None:
    assert reachable_shapes((0, 1, 1, 2, 2)) == 6928


# --- Oracles on random positions. ------------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([1, 2]), st.integers(1, 4))
def test_merged_enumeration_equals_brute_force(rng: random.Random, edition: int, dice: int) -> None:
    dice = max(dice, edition)  # the 2nd-edition leg needs two dice left to draw one
    order, mask, tiles = random_position(rng, edition, dice)
    counts = leg_counts(order, mask, tiles, edition)
    oracle = brute_leg(order, mask, tiles, edition)
    assert exact(counts) == oracle
    odds = counts.odds()
    assert odds == leg_odds(order, mask, tiles, edition)
    floats = [*odds.first, *odds.second, *odds.tile_hits.values(), odds.game_end]
    fractions = [*oracle["first"], *oracle["second"]]
    fractions += [oracle["hits"][t] for t in odds.tile_hits]
    fractions.append(sum(oracle["endings"].values(), Fraction(0)))
    assert all(abs(f - float(q)) <= 1e-12 for f, q in zip(floats, fractions, strict=True))


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 3))
def test_game_odds_equal_leg_recursion_plus_table(
    table: RaceTable, rng: random.Random, dice: int
) -> None:
    order, mask, tiles = random_position(rng, 1, dice)
    odds = game_odds(order, mask, tiles, table=table)
    oracle = brute_game(order, mask, tiles, table)
    assert all(abs(odds.joint[w][v] - oracle[w][v]) <= 1e-12 for w in range(5) for v in range(5))


def test_table_solves_the_leg_recurrence(table: RaceTable) -> None:
    """O6 by the forward enumeration: a fresh tile-free leg from a shape, with the table at its
    completed leaves, gives back the shape's own row (the table is built another way)."""
    rng = random.Random(6)
    for _ in range(25):
        shape = tuple(sorted(rng.randrange(16) for _ in range(5)))
        order = tuple(index * 8 + label for label, index in enumerate(shape))
        odds = game_odds(order, table=table)
        row = table.row(shape)
        assert all(abs(odds.joint[a][b] - row[a, b]) <= 1e-12 for a in range(5) for b in range(5))


def test_tile_hits_are_expected_landings() -> None:
    # Camel 0 hits the mirage on 2 with a 2 (and goes back to 1), never the oasis on 5; camel 1
    # hits the oasis on 12 with a 2 (and goes on to 13, on top).
    order = arrangement({0: [0], 10: [1], 13: [2, 3, 4]})
    odds = leg_odds(order, 0b11, {2: MIRAGE, 5: OASIS, 12: OASIS})
    assert odds.tile_hits == {2: 1 / 3, 5: 0.0, 12: 1 / 3}
    assert odds.first[1] == 2 / 3  # on top of 13 with a 3, or with a 2 by the oasis


# --- 2nd edition. ----------------------------------------------------------------------------

S2 = arrangement({0: [0], 1: [1, 2], 2: [3, 4], 14: [WHITE], 15: [BLACK]})


def test_mistake_16_second_edition_fresh_leg_has_320760_leaves() -> None:
    counts = leg_counts(S2, edition=2)
    assert counts.leaves == 320_760 == 29_160 + 291_600
    assert counts.denominator == 720 * 486
    assert sum(counts.first) == counts.denominator and counts.game_end == 0
    assert len(counts.layers) == 6  # 5 of the 6 dice are drawn


def test_second_edition_game_odds_mix_exact_leg_and_rollouts() -> None:
    odds = game_odds(S2, edition=2, rollouts=3000, seed=1)
    assert odds.rollouts == 3000 and not odds.exact
    assert odds == game_odds(S2, edition=2, rollouts=3000, seed=1)
    assert abs(sum(odds.win) - 1) < 1e-9 and abs(sum(odds.last) - 1) < 1e-9
    assert odds.leg == leg_odds(S2, edition=2)
    plain = monte_carlo(S2, edition=2, rollouts=3000, seed=2)
    for p, q in [*zip(odds.win, plain.win, strict=True), *zip(odds.last, plain.last, strict=True)]:
        sigma = math.sqrt(max(p * (1 - p), 1e-4) * 2 / 3000)
        assert abs(p - q) <= 4 * sigma


def test_second_edition_game_odds_are_exact_when_every_leaf_ends_the_race() -> None:
    order = arrangement({10: [WHITE], 12: [BLACK], 15: [0, 1, 2, 3, 4]})
    odds = game_odds(order, 0b11, edition=2)
    assert odds.exact and odds.leg.game_end == 1
    assert odds.joint[4][0] == 1 and odds.win[4] == 1 and odds.last[0] == 1


# --- Monte Carlo cross-check (O8). -----------------------------------------------------------


def agree_within_4_sigma(exact: tuple[float, ...], sampled: tuple[float, ...], n: int) -> bool:
    return all(
        abs(p - q) <= 4 * math.sqrt(max(p * (1 - p), 1e-6) / n)
        for p, q in zip(exact, sampled, strict=True)
    )


def test_monte_carlo_agrees_with_the_exact_odds(table: RaceTable) -> None:
    tiles = {9: OASIS, 12: MIRAGE}
    odds = game_odds(M, 0b10110, tiles, table=table)
    sampled = monte_carlo(M, 0b10110, tiles, rollouts=10_000, seed=3)
    assert sampled.rollouts == 10_000
    assert agree_within_4_sigma(odds.win, sampled.win, 10_000)
    assert agree_within_4_sigma(odds.last, sampled.last, 10_000)


@pytest.mark.slow
def test_o8_100k_rollouts_agree_with_the_table(table: RaceTable) -> None:
    odds = game_odds(S, table=table)
    sampled = monte_carlo(S, rollouts=100_000, seed=8)
    assert agree_within_4_sigma(odds.win, sampled.win, 100_000)
    assert agree_within_4_sigma(odds.last, sampled.last, 100_000)
    flat = tuple(p for row in odds.joint for p in row)
    assert agree_within_4_sigma(flat, tuple(p for row in sampled.joint for p in row), 100_000)


# --- The compiled kernels against the track and against their plain-Python selves. ----------


def test_kernel_constants_match_the_track() -> None:
    assert _kernels.TRACK_LENGTH == track.TRACK_LENGTH
    assert _kernels.RACERS == track.RACERS
    assert (_kernels.WHITE, _kernels.BLACK) == track.CRAZY
    assert _kernels.OASIS == track.OASIS == -track.MIRAGE
    assert _kernels.GREY == GREY_DIE
    assert full_pyramid(1) == 0b11111 and full_pyramid(2) == 0b111111


FALLBACK_SCRIPT = """
import json, sys
sys.modules["numba"] = None  # as if Numba were not installed
from sleuth.games.camel_up import _kernels, odds
assert not _kernels.COMPILED
cases, (game_order, game_mask) = json.loads(sys.argv[1])
out = []
for order, mask, tiles, edition in cases:
    tiles = {int(t): s for t, s in tiles.items()}
    c = odds.leg_counts(tuple(order), mask, tiles, edition)
    out.append([c.denominator, c.first, c.second, sorted(c.endings.items()),
                sorted(c.tile_hits.items()), c.leaves, c.layers])
print(json.dumps([out, odds.game_odds(tuple(game_order), game_mask).joint]))
"""


def summary(counts: LegCounts) -> list[Any]:
    return json.loads(
        json.dumps(
            [
                counts.denominator,
                counts.first,
                counts.second,
                sorted(counts.endings.items()),
                sorted(counts.tile_hits.items()),
                counts.leaves,
                counts.layers,
            ]
        )
    )


def test_pure_python_fallback_gives_the_same_results(table: RaceTable, cache_dir: str) -> None:
    """The kernels run as plain Python when Numba cannot be imported (same results; the
    subprocess reads the session's cached table)."""
    rng = random.Random(16)
    cases = [(M, 0b111, {}, 1)]
    cases += [(*random_position(rng, 1, 3), 1) for _ in range(3)]
    cases += [(*random_position(rng, 2, 3), 2) for _ in range(3)]
    root = Path(__file__).resolve().parents[3]
    env = {**os.environ, "SLEUTH_CACHE_DIR": cache_dir, "PYTHONPATH": str(root / "src")}
    result = subprocess.run(
        [sys.executable, "-c", FALLBACK_SCRIPT, json.dumps([cases, [M, 0b11]])],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=True,
    )
    leg, joint = json.loads(result.stdout)
    assert leg == [summary(leg_counts(*case)) for case in cases]
    expected = game_odds(M, 0b11, table=table).joint
    assert all(abs(joint[w][v] - expected[w][v]) <= 1e-12 for w in range(5) for v in range(5))


@settings(max_examples=200, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([1, 2]), st.integers(1, 3))
def test_array_move_is_the_track_move(rng: random.Random, edition: int, steps: int) -> None:
    import numpy as np

    order, _, tiles = random_position(rng, edition, edition)
    n = len(order)
    pos = np.array([c >> 3 for c in order], np.int64)
    cam = np.array([c & 7 for c in order], np.int64)
    board = np.zeros(16, np.int64)
    for t, side in tiles.items():
        board[t] = side
    for face in (WHITE, BLACK):
        assert _kernels.crazy_to_move(pos, cam, n, face) == crazy_to_move(order, face)
    for camel in {c & 7 for c in order}:
        out_pos = np.empty(n, np.int64)
        out_cam = np.empty(n, np.int64)
        tile, finished = _kernels.move(pos, cam, n, camel, steps, board, out_pos, out_cam)
        landing = move(order, camel, steps, tiles)
        assert (tile, finished) == (landing.tile, landing.finished)
        assert tuple(int(p) * 8 + int(c) for p, c in zip(out_pos, out_cam, strict=True)) == (
            landing.arrangement
        )


# --- Validation. -----------------------------------------------------------------------------

ONE = arrangement({0: [0, 1, 2, 3, 4]})
TWO = arrangement({0: [0, 1, 2, 3, 4], 14: [WHITE], 15: [BLACK]})


@pytest.mark.parametrize(
    ("order", "mask", "tiles", "edition", "message"),
    [
        (arrangement({0: [0, 1, 2, 3]}), None, None, 1, "camel 4 is missing"),
        ((0, 1, 9, 10, 11, 12), None, None, 1, "camel 1 appears twice"),
        ((0, 1, 2, 3, 4, 5), None, None, 1, "camel 5 (white) is not in the 1st edition"),
        ((0, 1, 2, 3, 4, 15), None, None, 2, "camel 7 is not in the 2nd edition"),
        ((*ONE, 14 * 8 + WHITE), None, None, 2, "camel 6 (black) is missing"),
        ((0, 1, 2, 3, 16 * 8 + 4), None, None, 1, "camel 4 is on index 16"),
        ((3 * 8, 8 + 1, 8 + 2, 8 + 3, 8 + 4), None, None, 1, "camel 1 on index 1 comes after"),
        ((-1, 1, 2, 3, 4), None, None, 1, "-1 is not a camel code"),
        (ONE, None, {0: OASIS}, 1, "tile on index 0: tiles go on indices 1..15"),
        (ONE, None, {16: OASIS}, 1, "tile on index 16"),
        (ONE, None, {3: 2}, 1, "the tile on index 3 has side 2"),
        (arrangement({0: [0, 1, 2], 4: [3, 4]}), None, {4: MIRAGE}, 1, "index 4 is under a camel"),
        (TWO, None, {15: MIRAGE}, 2, "index 15 is under a camel"),
        (ONE, None, {5: OASIS, 6: MIRAGE}, 1, "tiles on indices 5 and 6 are adjacent"),
        (ONE, 0b100000, None, 1, "not within the 1st edition's pyramid 0b11111"),
        (ONE, -1, None, 1, "dice mask -1 is not within"),
        (ONE, 0, None, 1, "dice mask 0b0 leaves 0 dice: the leg is already over"),
        (TWO, 0b100000, None, 2, "dice mask 0b100000 leaves 1 die: the leg is already over"),
    ],
)
def test_invalid_positions_are_rejected_with_the_culprit(
    order: tuple[int, ...],
    mask: int | None,
    tiles: dict[int, int] | None,
    edition: int,
    message: str,
) -> None:
    with pytest.raises(PositionError, match=re.escape(message)):
        check_position(order, mask, tiles, edition)
    with pytest.raises(SleuthError):
        leg_odds(order, mask, tiles, edition)


def test_every_entry_point_validates() -> None:
    with pytest.raises(OptionError, match="edition must be 1 or 2, not 3"):
        leg_odds(ONE, edition=3)
    with pytest.raises(PositionError, match="camel 5"):
        game_odds((*ONE, 15 * 8 + WHITE))
    with pytest.raises(PositionError, match="already over"):
        monte_carlo(ONE, 0)
    with pytest.raises(OptionError, match="rollouts"):
        game_odds(TWO, edition=2, rollouts=0)
    check_position(TWO, 0b100001, {3: OASIS, 5: MIRAGE}, 2)  # a legal position passes


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"players": 4.5}, "players must be a whole number, not 4.5"),
        ({"edition": "2"}, "edition must be a whole number, not '2'"),
        ({"edition": True}, "edition must be a whole number, not True"),
        ({"piles": {"winner": 99}}, "99 hidden cards, but the 3 other players hold 15"),
        ({"my_cards": ["blue", "blue"]}, "blue is listed twice"),
    ],
)
def test_impossible_fields_are_named(extra: dict[str, object], message: str) -> None:
    track = {"4": ["blue"], "5": ["green", "orange"], "7": ["yellow"], "8": ["white"]}
    obj = {"track": track, "to_move": ["blue"], **extra}
    with pytest.raises(PositionError, match=re.escape(message)):
        read_position(json.dumps(obj))


def test_a_state_that_is_no_object_or_no_text_is_named(tmp_path: Path) -> None:
    with pytest.raises(PositionError, match="must be a JSON object"):
        read_position("[1, 2]")
    binary = tmp_path / "state.bin"
    binary.write_bytes(bytes(range(200, 256)))
    with pytest.raises(PositionError, match="not a text file"):
        read_position(str(binary))
