"""Paired-seed comparisons: the pairing itself, the statistics, and bad input."""

from __future__ import annotations

import math
import statistics
from pathlib import Path

import pytest

from sleuth.arena.paired import PairedMean, compare
from sleuth.arena.stats import Z95
from sleuth.core.errors import SleuthError, UnknownNameError
from tests.cli_helpers import check_error, entry, one_json_object


def test_paired_mean_matches_the_textbook_formula() -> None:
    differences = [1.0, 0.0, 0.5, -1.0, 1.0, 0.0, 1.0, 0.25]
    paired = PairedMean.of(differences)
    mean = statistics.fmean(differences)
    error = statistics.stdev(differences) / math.sqrt(len(differences))
    assert paired.mean == pytest.approx(mean)
    assert (paired.low, paired.high) == pytest.approx((mean - Z95 * error, mean + Z95 * error))
    assert paired.p_value == pytest.approx(math.erfc(mean / error / math.sqrt(2)))


def test_paired_mean_of_constant_differences_has_no_spread() -> None:
    """No spread: the exact sign test's p-value (3 games all won is 1 chance in 4 for a fair
    coin's two tails, not certainty)."""
    assert PairedMean.of([0.0, 0.0, 0.0]) == PairedMean(0.0, 0.0, 0.0, 1.0)
    assert PairedMean.of([1.0, 1.0]) == PairedMean(1.0, 1.0, 1.0, 0.5)
    assert PairedMean.of([-1.0, -1.0, -1.0]).p_value == 0.25
    assert PairedMean.of([0.5] * 40).p_value == pytest.approx(2 * 0.5**40)
    assert PairedMean.of([1.0]).p_value == 1.0


def test_a_bot_compared_with_itself_plays_identical_games() -> None:
    """Same seeds, seats and field: the two runs are the same games, action for action."""
    result = compare("camel-up", "random", "random", ["random", "random"], games=9, seed=4)
    for a, b in zip(result.candidate.rows, result.baseline.rows, strict=True):
        assert a.seed == b.seed and a.actions == b.actions
    assert result.counts == (0, 0, 9)
    assert result.win_gain == PairedMean(0.0, 0.0, 0.0, 1.0)


def test_the_tested_bot_rotates_through_the_seats_on_shared_seeds() -> None:
    result = compare("camel-up", "ev", "random", ["random", "random"], games=6, seed=2)
    assert result.seats == (0, 1, 2, 0, 1, 2)
    for seat, a, b in zip(result.seats, result.candidate.rows, result.baseline.rows, strict=True):
        assert a.seed == b.seed
        assert a.bots[seat] == "ev" and b.bots[seat] == "random"
        assert [x for i, x in enumerate(a.bots) if i != seat] == ["random", "random"]
        # The set-up and the scripted dice come from the seed alone, whoever rolls.
        assert a.actions[0] == b.actions[0]
        dice_a = [x for x in a.actions if x.startswith("die ")]
        dice_b = [x for x in b.actions if x.startswith("die ")]
        shorter = min(len(dice_a), len(dice_b))
        assert shorter > 0 and dice_a[:shorter] == dice_b[:shorter]
    assert result.wins() == [
        r.wins[s] for r, s in zip(result.candidate.rows, result.seats, strict=True)
    ]
    gain = result.win_gain
    assert gain.mean == pytest.approx(
        statistics.fmean(result.wins()) - statistics.fmean(result.wins(baseline=True))
    )
    assert sum(result.counts) == 6


def test_bots_that_cannot_share_seats_are_refused_before_any_game() -> None:
    with pytest.raises(SleuthError, match="cannot play the same seats"):
        compare("fox", "random", "solver", ["random"], games=2)
    with pytest.raises(UnknownNameError, match="nobot"):
        compare("camel-up", "nobot", "random", ["random"], games=2)


def test_compare_command_prints_the_gain(tmp_path: Path, cwd: Path) -> None:
    args = ["compare", "camel-up", "-a", "ev", "-b", "random", "--field", "random,random"]
    done = entry(*args, "-n", "6", "-w", "1", "--json", cwd=cwd)
    assert done.returncode == 0, done.stderr
    summary = one_json_object(done.stdout)
    assert summary["games"] == 6 and summary["field"] == ["random", "random"]
    assert summary["candidate"]["bot"] == "ev" and summary["baseline"]["bot"] == "random"
    assert summary["better"] + summary["worse"] + summary["same"] == 6
    gain = summary["win_gain"]
    assert gain["ci95"][0] <= gain["mean"] <= gain["ci95"][1]
    db = tmp_path / "runs.duckdb"
    done = entry(*args, "-n", "3", "-w", "1", "--db", db, cwd=cwd)
    assert done.returncode == 0, done.stderr
    assert "win-rate gain" in done.stdout and "candidate better in" in done.stdout
    assert "fewer than 30 paired games" in " ".join(done.stdout.split())
    assert db.exists()


def test_compare_command_errors_name_the_culprit(cwd: Path) -> None:
    check_error(
        entry("compare", "camel-up", "-a", "ev", "-b", "nobot", "--field", "random", cwd=cwd),
        "nobot",
    )
    check_error(
        entry("compare", "fox", "-a", "random", "-b", "solver", "--field", "random", cwd=cwd),
        "cannot play the same seats",
    )
