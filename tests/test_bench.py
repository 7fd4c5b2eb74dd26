"""Smoke tests: every benchmark script runs with ``--quick`` and exits cleanly (a few seconds)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"


def run_bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    ("script", "column"),
    [
        ("fox_solver.py", "ratio"),
        ("fox_games.py", "vs baseline"),
        ("fox_tournament.py", "speed-up 2/1"),
        ("search_fox.py", "vs openspiel"),
        ("search_fugitive.py", "vs baseline"),
        ("fugitive_belief.py", "vs baseline"),
        ("fugitive_games.py", "vs baseline"),
        ("fugitive_masks.py", "vs baseline"),
        ("fugitive_opponent.py", "ratio"),
        ("fugitive_endgame.py", "ratio"),
        ("fugitive_slow_decision.py", "ratio"),
        ("camel_up_games.py", "vs baseline"),
        ("camel_up_odds.py", "vs baseline"),
        ("camel_up_bots.py", "vs baseline"),
        ("scotland_yard_tracker.py", "vs baseline"),
        ("scotland_yard_mc.py", "vs baseline"),
        ("scotland_yard_search.py", "vs baseline"),
        ("cluedo_deduction.py", "vs baseline"),
        ("web_load.py", "vs alone"),
        ("web_assist_cpu.py", "before/after"),
        ("cluedo_notepad.py", "vs baseline"),
        ("cli_startup.py", "vs eager"),
        ("first_run.py", "first/second"),
        ("envs.py", "cost vs engine"),
        ("report.py", "vs baseline"),
        ("ray_backend.py", "ray / processes"),
        ("runner_overhead.py", "run_match / engine"),
        ("external_bots.py", "Python v2 vs in-process"),
    ],
)
def test_benchmark_quick_run(script: str, column: str) -> None:
    result = run_bench(str(BENCH / script), "--quick")
    assert result.returncode == 0, result.stderr
    assert column in result.stdout
    assert "not installed" not in result.stdout  # the baselines are part of the dev install


@pytest.mark.slow
def test_openspiel_port_of_the_fox_game_passes_its_self_check() -> None:
    """The OpenSpiel baseline plays the same rules (OpenSpiel's own API test, all states,
    uniform resampling against brute force)."""
    result = run_bench(str(BENCH / "_openspiel_fox_check.py"))
    assert result.returncode == 0, result.stderr


def test_solver_benchmark_reports_budget_overrun() -> None:
    result = run_bench(str(BENCH / "fox_solver.py"), "--quick", "--budget", "0")
    assert result.returncode == 0, result.stderr
    assert "> " in result.stdout


@pytest.mark.parametrize(
    ("rounds", "culprit"),
    [("0", "must be at least 1, got 0"), ("-2", "got -2"), ("two", "got 'two'")],
)
def test_startup_benchmark_refuses_a_bad_number_of_rounds(rounds: str, culprit: str) -> None:
    result = run_bench(str(BENCH / "cli_startup.py"), "--rounds", rounds)
    assert result.returncode == 2
    assert "argument --rounds:" in result.stderr and culprit in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


@pytest.mark.parametrize(
    ("args", "culprit"),
    [
        (("--rounds", "0"), "argument --rounds: must be at least 1, got 0"),
        (("--seconds", "-1"), "argument --seconds: must be above 0, got -1"),
        (("--games", "fox,chess"), "argument --games: unknown game 'chess'"),
    ],
)
def test_runner_benchmark_refuses_bad_arguments(args: tuple[str, ...], culprit: str) -> None:
    result = run_bench(str(BENCH / "runner_overhead.py"), *args)
    assert result.returncode == 2
    assert culprit in result.stderr and "Traceback" not in result.stderr


def test_every_benchmark_is_tested() -> None:
    scripts = {p.name for p in BENCH.glob("*.py") if not p.name.startswith("_")}
    assert scripts == {
        "fox_solver.py",
        "fox_games.py",
        "fox_tournament.py",
        "search_fox.py",
        "search_fugitive.py",
        "fugitive_belief.py",
        "fugitive_games.py",
        "fugitive_masks.py",
        "fugitive_opponent.py",
        "fugitive_endgame.py",
        "fugitive_slow_decision.py",
        "camel_up_games.py",
        "camel_up_odds.py",
        "camel_up_bots.py",
        "scotland_yard_tracker.py",
        "scotland_yard_mc.py",
        "scotland_yard_search.py",
        "cluedo_deduction.py",
        "cluedo_notepad.py",
        "web_load.py",
        "web_assist_cpu.py",
        "cli_startup.py",
        "first_run.py",
        "envs.py",
        "report.py",
        "ray_backend.py",
        "runner_overhead.py",
        "external_bots.py",
    }
