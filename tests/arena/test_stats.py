"""The Wilson score interval, checked against an independent formula and published values."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binomtest, norm

from sleuth.arena.stats import Z95, wilson_interval


def quadratic_wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson interval as the two roots in p of (p_hat - p)^2 = z^2 p (1 - p) / n.

    Written independently of the implementation: a p q^2 + b p + c = 0 with
    a = 1 + z^2/n, b = -(2 p_hat + z^2/n), c = p_hat^2.
    """
    p_hat = wins / games
    a = 1 + z * z / games
    b = -(2 * p_hat + z * z / games)
    c = p_hat * p_hat
    root = math.sqrt(max(0.0, b * b - 4 * a * c))
    return ((-b - root) / (2 * a), (-b + root) / (2 * a))


def test_z95_is_the_975_percent_normal_quantile() -> None:
    assert pytest.approx(norm.ppf(0.975), abs=1e-12) == Z95


@pytest.mark.parametrize(
    ("wins", "games", "lo", "hi"),
    [
        # Textbook values (z = 1.96, 4 decimals).
        (0, 10, 0.0, 0.2775),
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
        # Newcombe (1998), "Two-sided confidence intervals for the single proportion",
        # Statistics in Medicine 17, table II, method 3 (Wilson score, no continuity correction).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_published_values(wins: int, games: int, lo: float, hi: float) -> None:
    got = wilson_interval(wins, games)
    assert got == pytest.approx((lo, hi), abs=6e-5)


@pytest.mark.parametrize("games", [1, 2, 3, 7, 10, 20, 100, 263, 1000])
def test_matches_scipy_for_integer_wins(games: int) -> None:
    for wins in sorted({0, 1, games // 3, games // 2, games - 1, games}):
        ci = binomtest(wins, games).proportion_ci(confidence_level=0.95, method="wilson")
        assert wilson_interval(wins, games) == pytest.approx((ci.low, ci.high), abs=1e-9)


@given(
    games=st.integers(1, 10_000),
    fraction=st.floats(0, 1, allow_nan=False),
    z=st.sampled_from([Z95, 1.0, 1.645, 2.576, 3.0]),
)
def test_matches_the_quadratic_formula_for_any_wins(games: int, fraction: float, z: float) -> None:
    wins = fraction * games  # fractional wins (ties) included
    lo, hi = wilson_interval(wins, games, z)
    assert (lo, hi) == pytest.approx(quadratic_wilson(wins, games, z), abs=1e-9)
    assert 0.0 <= lo <= wins / games + 1e-12
    assert wins / games - 1e-12 <= hi <= 1.0


@pytest.mark.parametrize(
    ("wins", "games"), [(0.5, 1), (1.5, 3), (2.5, 5), (7.5, 20), (1 / 3, 1), (10 / 3, 10)]
)
def test_fractional_wins(wins: float, games: int) -> None:
    lo, hi = wilson_interval(wins, games)
    assert (lo, hi) == pytest.approx(quadratic_wilson(wins, games), abs=1e-12)
    assert lo < wins / games < hi


def test_half_wins_give_an_interval_symmetric_about_one_half() -> None:
    for games in (1, 2, 5, 11, 100):
        lo, hi = wilson_interval(games / 2, games)
        assert lo + hi == pytest.approx(1.0, abs=1e-12)
    assert wilson_interval(0.5, 1) == pytest.approx((0.0546, 0.9454), abs=1e-4)


def test_symmetry_between_wins_and_losses() -> None:
    for games in (1, 4, 9, 30):
        for wins in (0, 0.5, 1, games / 3, games - 1, games):
            if not 0 <= wins <= games:
                continue
            lo, hi = wilson_interval(wins, games)
            lo2, hi2 = wilson_interval(games - wins, games)
            assert lo == pytest.approx(1 - hi2, abs=1e-12)
            assert hi == pytest.approx(1 - lo2, abs=1e-12)


@pytest.mark.parametrize("games", [1, 2, 3, 7, 10, 20, 1000, 10**6])
def test_bounds_are_exact_at_zero_and_all_wins(games: int) -> None:
    # No rounding residue such as 5.5e-17 or 0.9999999999999999.
    assert wilson_interval(0, games)[0] == 0.0
    assert wilson_interval(games, games)[1] == 1.0
    assert wilson_interval(0, games)[1] > 0.0
    assert wilson_interval(games, games)[0] < 1.0


def test_no_games_gives_the_whole_unit_interval() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_interval_narrows_with_more_games() -> None:
    widths = [hi - lo for lo, hi in (wilson_interval(n / 4, n) for n in (4, 40, 400, 4000))]
    assert widths == sorted(widths, reverse=True)
    assert widths[-1] < 0.03


def test_wider_for_larger_z_and_a_point_for_z_zero() -> None:
    narrow = wilson_interval(3, 10, z=1.0)
    wide = wilson_interval(3, 10, z=3.0)
    assert wide[0] < narrow[0] < 0.3 < narrow[1] < wide[1]
    assert wilson_interval(3, 10, z=0.0) == pytest.approx((0.3, 0.3))


@pytest.mark.parametrize(("wins", "games"), [(-1, 10), (11, 10), (10.5, 10), (-0.5, 3)])
def test_impossible_win_counts_are_rejected(wins: float, games: int) -> None:
    with pytest.raises(ValueError, match="wins"):
        wilson_interval(wins, games)
