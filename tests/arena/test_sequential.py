"""Sequential stopping of paired comparisons: the confidence sequence and `compare --stop-early`."""

from __future__ import annotations

import json
import random
from pathlib import Path

import duckdb
import pytest

from sleuth.arena.paired import compare
from sleuth.arena.sequential import ConfidenceSequence
from tests.cli_helpers import entry


def test_the_sequence_holds_the_true_mean_at_every_count_in_95_percent_of_runs() -> None:
    """Coverage at every count at once (what lets a comparison look after every game): the
    fraction of runs whose sequence ever leaves the true mean stays under alpha."""
    rng = random.Random(5)
    runs, left = 150, 0
    for _ in range(runs):
        sequence = ConfidenceSequence(0.05)
        for _ in range(120):
            u = rng.random()
            sequence.update([1.0 if u < 0.25 else -1.0 if u < 0.35 else 0.0])  # mean 0.15
            low, high = sequence.interval()
            if not low <= 0.15 <= high:
                left += 1
                break
    assert left / runs <= 0.05


def test_the_sequence_narrows_with_the_variance() -> None:
    """Pairing makes most differences 0: the betting sequence is much narrower for them than
    for coin flips of the same count (a variance-blind bound would not be)."""
    zeros, coins = ConfidenceSequence(), ConfidenceSequence()
    zeros.update([0.0] * 200)
    coins.update([1.0, -1.0] * 100)
    zero_low, zero_high = zeros.interval()
    coin_low, coin_high = coins.interval()
    assert zero_low < 0.0 < zero_high and coin_low < 0.0 < coin_high
    assert zero_high - zero_low < (coin_high - coin_low) / 4


def test_a_clear_difference_is_decided_and_none_is_not() -> None:
    wins = ConfidenceSequence()
    wins.update([1.0] * 10)
    assert wins.excludes_zero() and wins.interval()[0] > 0.0
    losses = ConfidenceSequence()
    losses.update([-1.0] * 10)
    assert losses.excludes_zero() and losses.interval()[1] < 0.0
    ties = ConfidenceSequence()
    ties.update([0.0] * 1000)
    assert not ties.excludes_zero()


@pytest.mark.parametrize("bad", [1.5, -2.0])
def test_a_difference_out_of_range_is_refused(bad: float) -> None:
    sequence = ConfidenceSequence()
    with pytest.raises(ValueError, match="between -1 and 1"):
        sequence.update([0.0, bad])


def test_a_clear_comparison_stops_at_the_first_look() -> None:
    """The exact solver against a random hunter: 20 games per bot decide it."""
    result = compare("fox", "solver", "random", ["quantum"], games=400, seed=3, stop_early=True)
    assert len(result.seats) == 20 and len(result.candidate.rows) == 20
    assert result.sequential is not None and result.sequential.decided
    assert result.sequential.interval[0] > 0.0
    summary = result.summary()["sequential"]
    assert isinstance(summary, dict) and summary["saved"] == 380


def test_equal_bots_play_every_game_and_state_the_bound() -> None:
    result = compare("fox", "random", "random", ["quantum"], games=50, seed=3, stop_early=True)
    assert len(result.seats) == 50
    assert result.sequential is not None and not result.sequential.decided
    low, high = result.sequential.interval
    assert low < 0.0 < high


def test_the_games_are_those_of_a_whole_comparison() -> None:
    """Looking early changes which games are played, never how: the first 40 games of a
    comparison that stops at 40 are those of one that plays 40 at once."""
    early = compare("fox", "solver", "random", ["quantum"], 40, seed=8, stop_early=True)
    whole = compare("fox", "solver", "random", ["quantum"], len(early.seats), seed=8)
    assert [r.actions for r in early.candidate.rows] == [r.actions for r in whole.candidate.rows]
    assert [r.actions for r in early.baseline.rows] == [r.actions for r in whole.baseline.rows]


def test_the_command_says_where_it_stopped_and_stores_finished_runs(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    args = ("compare", "fox", "-a", "solver", "-b", "random", "--field", "quantum", "-n", "400")
    done = entry(*args, "--stop-early", "--db", db, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "stopped early: the candidate is better" in done.stdout
    assert "380 of 400 saved per bot" in done.stdout
    with duckdb.connect(str(db)) as con:
        rows = con.execute("SELECT status, games FROM runs").fetchall()
        assert rows == [("finished", 400), ("finished", 400)]
        assert con.execute("SELECT count(*) FROM games").fetchone() == (40,)
    tied = entry("compare", "fox", "-a", "random", "-b", "random", "--field", "quantum",
                 "-n", "30", "--stop-early", "--no-db", "--json", cwd=tmp_path)  # fmt: skip
    sequential = json.loads(tied.stdout)["sequential"]
    assert sequential["decided"] is False and sequential["saved"] == 0
