"""The zero-sum matrix-game solver against hand-solved games, its equilibrium property on
random matrices, and the bootstrap interval of the value."""

from __future__ import annotations

import numpy as np
import pytest

from sleuth.arena.equilibrium import bootstrap_value, solve_zero_sum


def test_matching_pennies() -> None:
    solved = solve_zero_sum([[1, 0], [0, 1]])
    assert solved.value == pytest.approx(0.5)
    assert solved.rows == pytest.approx([0.5, 0.5]) and solved.columns == pytest.approx([0.5, 0.5])


def test_rock_paper_scissors() -> None:
    # win 1, tie 0.5, loss 0: the row's win rate
    solved = solve_zero_sum([[0.5, 0, 1], [1, 0.5, 0], [0, 1, 0.5]])
    assert solved.value == pytest.approx(0.5)
    assert solved.rows == pytest.approx([1 / 3] * 3) and solved.columns == pytest.approx(
        [1 / 3] * 3
    )


def test_a_dominated_strategy_gets_no_weight() -> None:
    # row 2 is worse than row 1 in every column; then column 1 is the column's best reply
    solved = solve_zero_sum([[0.6, 0.9], [0.5, 0.8]])
    assert solved.value == pytest.approx(0.6)
    assert solved.rows == pytest.approx([1, 0]) and solved.columns == pytest.approx([1, 0])


def test_a_hand_solved_mixed_game() -> None:
    # rows indifferent: 0.9p + 0.3(1-p) = 0.2p + 0.6(1-p), p = 0.3, v = 0.48;
    # columns indifferent: 0.9q + 0.2(1-q) = 0.3q + 0.6(1-q), q = 0.4
    solved = solve_zero_sum([[0.9, 0.2], [0.3, 0.6]])
    assert solved.value == pytest.approx(0.48)
    assert solved.rows == pytest.approx([0.3, 0.7]) and solved.columns == pytest.approx([0.4, 0.6])


@pytest.mark.parametrize("seed", range(5))
def test_each_mix_guarantees_the_value(seed: int) -> None:
    payoff = np.random.default_rng(seed).random((4 + seed, 7 - seed))
    solved = solve_zero_sum(payoff)
    assert (solved.rows @ payoff >= solved.value - 1e-7).all()
    assert (payoff @ solved.columns <= solved.value + 1e-7).all()
    for mix in (solved.rows, solved.columns):
        assert (mix >= 0).all() and mix.sum() == pytest.approx(1)


def test_bad_payoffs_are_refused_naming_the_culprit() -> None:
    with pytest.raises(ValueError, match=r"entry \(1, 0\) is nan"):
        solve_zero_sum([[0.5, 0.5], [float("nan"), 0.1]])
    with pytest.raises(ValueError, match="non-empty matrix"):
        solve_zero_sum([0.5, 0.5])
    with pytest.raises(ValueError, match=r"entry \(0, 1\) has no games"):
        bootstrap_value([[1, 0]], [[0, 0]], [[2, 0]], seed=1)
    with pytest.raises(ValueError, match="at most the games"):
        bootstrap_value([[3]], [[0]], [[2]], seed=1)


def test_the_bootstrap_interval_contains_the_value() -> None:
    true = np.array([[0.9, 0.2, 0.7], [0.3, 0.6, 0.8]])  # value 0.48
    games = np.full(true.shape, 400)
    rng = np.random.default_rng(7)
    covered = 0
    for _ in range(8):
        wins = rng.binomial(games, true)
        low, high = bootstrap_value(wins, np.zeros_like(wins), games, seed=3, samples=100)
        assert low <= solve_zero_sum(wins / games).value <= high
        covered += low <= 0.48 <= high
    assert covered >= 6  # a 95% interval: 7.6 of 8 expected
    assert bootstrap_value(wins, 0 * wins, games, 3, 100) == (low, high)  # the seed decides
    # draws count half: all draws is a value of exactly 0.5, with no spread
    assert bootstrap_value([[0]], [[10]], [[10]], seed=1, samples=20) == (0.5, 0.5)


def test_a_value_is_within_the_payoffs_without_solver_residue() -> None:
    # a lost game in every entry: the value is exactly 0 (HiGHS may return -0.0 or -1e-12)
    assert f"{solve_zero_sum([[0.0, 0.0], [0.0, 0.0]]).value:.2%}" == "0.00%"
    assert solve_zero_sum([[1.0, 1.0]]).value == 1.0
