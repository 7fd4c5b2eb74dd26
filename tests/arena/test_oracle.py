"""Best responses and the double oracle (sleuth.arena.oracle) against hand-built matrix games
whose answers are known, and against the full game solved at once."""

from __future__ import annotations

import numpy as np
import pytest

from sleuth.arena.equilibrium import solve_zero_sum
from sleuth.arena.oracle import Entry, best_response, double_oracle

# rock, paper, scissors for the row (win 1, tie 1/2), plus a row that loses to everything and
# a column that loses to everything: the value is 1/2 with each side uniform over its three
RPS = np.array(
    [
        [0.5, 0.0, 1.0, 0.1],
        [1.0, 0.5, 0.0, 0.9],
        [0.0, 1.0, 0.5, 0.8],
        [0.1, 0.2, 0.3, 0.1],
    ]
)


def counted(matrix: np.ndarray) -> tuple[Entry, set[tuple[int, int]]]:
    asked: set[tuple[int, int]] = set()

    def entry(i: int, j: int) -> float:
        asked.add((i, j))
        return float(matrix[i, j])

    return entry, asked


def test_the_best_response_to_a_mix_is_the_known_one() -> None:
    entry, _ = counted(RPS)
    # against a column mix of 80% rock and 20% paper, paper (row 1) scores 0.9: the best row
    assert best_response(entry, 4, [0, 1], [0.8, 0.2], rows=True) == (1, pytest.approx(0.9))
    # against rows all rock, the column side answers paper (column 1), which wins every game
    assert best_response(entry, 4, [0], [1.0], rows=False) == (1, 0.0)
    with pytest.raises(ValueError, match="one weight per strategy"):
        best_response(entry, 4, [0, 1], [1.0], rows=True)


def test_the_double_oracle_finds_the_whole_games_equilibrium() -> None:
    entry, _ = counted(RPS)
    found = double_oracle(entry, 4, 4, start=(3, 3))
    assert found.converged
    assert found.equilibrium.value == pytest.approx(0.5)
    assert found.row_mix(4) == pytest.approx([1 / 3, 1 / 3, 1 / 3, 0])
    assert found.column_mix(4) == pytest.approx([1 / 3, 1 / 3, 1 / 3, 0])
    assert found.row_gain <= 1e-9 and found.column_gain <= 1e-9
    assert found.values[0] == pytest.approx(0.1)  # the start: the two losers against each other


@pytest.mark.parametrize("seed", range(20))
def test_the_double_oracle_agrees_with_the_full_game(seed: int) -> None:
    rng = np.random.default_rng(seed)
    matrix = rng.random((9, 6))
    entry, asked = counted(matrix)
    found = double_oracle(entry, 9, 6)
    assert found.converged
    assert found.equilibrium.value == pytest.approx(solve_zero_sum(matrix).value, abs=1e-9)
    # each side's mix over its whole pool is unexploitable within the whole game
    assert (found.row_mix(9) @ matrix).min() == pytest.approx(found.equilibrium.value, abs=1e-9)
    assert (matrix @ found.column_mix(6)).max() == pytest.approx(found.equilibrium.value, abs=1e-9)
    assert len(asked) <= matrix.size


def test_a_dominated_pool_is_not_measured_whole() -> None:
    # the row pool's first strategy beats every column: one column's entries are enough
    matrix = np.full((5, 5), 0.2)
    matrix[0] = 0.9
    matrix[0, 3] = 0.8
    entry, asked = counted(matrix)
    found = double_oracle(entry, 5, 5)
    assert found.converged and found.rows == (0,) and found.columns == (0, 3)
    assert found.equilibrium.value == pytest.approx(0.8)
    assert len(asked) < matrix.size


def test_the_iterations_bound_the_search() -> None:
    entry, _ = counted(RPS)
    found = double_oracle(entry, 4, 4, start=(3, 3), iterations=1)
    assert not found.converged and found.values == (pytest.approx(0.1),)
    assert found.row_gain > 0
    with pytest.raises(ValueError, match="outside the pools"):
        double_oracle(entry, 4, 4, start=(4, 0))
