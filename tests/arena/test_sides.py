"""Standings per side and side swaps in comparisons, on the toy teams game ``hideseek`` (one
hider against five detectives who win together, with a known win probability)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sleuth.arena.paired import compare
from sleuth.arena.stats import wilson_interval
from sleuth.arena.tournament import reported_sides, run_tournament
from sleuth.core.errors import SleuthError
from sleuth.core.registry import make_game
from tests.cli_helpers import check_error, entry, flat, one_json_object
from tests.hideseek import detectives_win_probability

GAMES = 1000
RANDOM = ["random"] * 6


def cells(table: str, word: str) -> list[str]:
    """The cells of the first line of a printed table that holds ``word``."""
    line = next(line for line in table.splitlines() if word in line)
    return [cell.strip() for cell in line.strip().strip("┃│").replace("┃", "│").split("│")]


def test_sides_are_reported_whole_and_free_for_all_seats_by_role() -> None:
    assert reported_sides(make_game("hideseek")) == ("hider",) + ("detectives",) * 5
    assert reported_sides(make_game("fox")) == ("hunter", "fox")
    assert reported_sides(make_game("camel-up", {"players": 3})) == ("player",) * 3


def test_a_side_of_five_seats_counts_each_game_once() -> None:
    t = run_tournament("hideseek", RANDOM, GAMES, seed=2, workers=1)
    hider, detectives = t.standings()
    assert (hider.bot, hider.side, hider.role) == ("random", "hider", "hider")
    assert (detectives.side, detectives.role) == ("detectives", "detective")
    # every game once per side, and exactly one side wins it
    assert hider.games == detectives.games == GAMES
    assert hider.wins + detectives.wins == GAMES
    # the rate is the side's (about 59.8%), not a fifth of it, and the interval is over games
    # (a 95% interval: about one seed in 20 misses it, seed 1 among them since bots draw a
    # stream per decision)
    p = detectives_win_probability()
    low, high = detectives.ci95
    assert low < p < high
    assert (low, high) == wilson_interval(detectives.wins, GAMES)
    assert 0.04 < high - low < 0.07  # 2 x 1.96 x sqrt(p(1 - p) / 1000) = 0.061
    assert detectives.moves == sum(r.length for r in t.rows) - GAMES  # every search counted


def test_several_bots_on_one_side_each_count_the_game() -> None:
    bots = ["random", "sweep", "random", "sweep", "random", "sweep"]
    t = run_tournament("hideseek", bots, 30, seed=2, workers=1)
    games = {(s.bot, s.side): s.games for s in t.standings()}
    assert games == {("random", "hider"): 30, ("random", "detectives"): 30,
                     ("sweep", "detectives"): 30}  # fmt: skip
    wins = {(s.bot, s.side): s.wins for s in t.standings()}
    assert wins["random", "detectives"] == wins["sweep", "detectives"]
    assert wins["random", "detectives"] + wins["random", "hider"] == 30


def test_play_reports_the_side_rate_and_interval(cwd: Path) -> None:
    args = ["play", "hideseek", "--bots", ",".join(RANDOM), "-n", str(GAMES), "-w", "1"]
    done = entry(*args, "--seed", "1", "--no-db", "--json", cwd=cwd)
    assert done.returncode == 0, done.stderr
    results = one_json_object(done.stdout)["results"]
    assert [(r["bot"], r["side"], r["role"], r["games"]) for r in results] == [
        ("random", "hider", "hider", GAMES),
        ("random", "detectives", "detective", GAMES),
    ]
    detectives = results[1]
    assert detectives["win_rate"] == pytest.approx(detectives_win_probability(), abs=0.04)
    assert detectives["ci95"] == list(wilson_interval(detectives["wins"], GAMES))
    table = entry(*args, "-n", "50", "--no-db", cwd=cwd)
    assert table.returncode == 0, table.stderr
    assert cells(table.stdout, "win rate")[:3] == ["bot", "side", "role"]
    assert cells(table.stdout, "detective ")[:3] == ["random", "detectives", "detective"]


def test_compare_swaps_a_whole_side() -> None:
    result = compare("hideseek", "sweep", "random", ["random"], games=400, seed=3,
                     workers=1, side="detectives")  # fmt: skip
    assert result.side == "detectives" and result.seats == (1,) * 400
    assert result.tested_seats == (1, 2, 3, 4, 5)
    assert (result.bot(), result.bot(baseline=True), result.field) == (
        "sweep",
        "random",
        ("random",),
    )
    for a, b in zip(result.candidate.rows, result.baseline.rows, strict=True):
        assert a.bots == ("random",) + ("sweep",) * 5 and b.bots == ("random",) * 6
        assert a.seed == b.seed and a.actions[0] == b.actions[0]  # the same hiding place
    summary = result.summary()
    candidate, baseline = summary["candidate"], summary["baseline"]
    assert isinstance(candidate, dict) and isinstance(baseline, dict)
    assert candidate["win_rate"] == pytest.approx(5 / 6, abs=0.05)  # sweep finds 5 of 6 holes
    assert baseline["win_rate"] == pytest.approx(detectives_win_probability(), abs=0.06)
    assert result.win_gain.low > 0.1
    assert summary["side"] == "detectives" and summary["field"] == ["random"]


def test_compare_side_errors_name_the_culprit() -> None:
    with pytest.raises(SleuthError, match=r"no side 'robbers'.*hider, detectives"):
        compare("hideseek", "sweep", "random", ["random"], games=2, side="robbers")
    with pytest.raises(SleuthError, match="leaves 1 seat"):
        compare("hideseek", "sweep", "random", ["random", "random"], games=2, side="detectives")
    with pytest.raises(SleuthError, match="sweep cannot play seat 0"):
        compare("hideseek", "random", "sweep", ["random"] * 5, games=2, side="hider")


def test_compare_command_with_a_side(cwd: Path) -> None:
    args = ["compare", "hideseek", "-a", "sweep", "-b", "random", "--field", "random"]
    done = entry(*args, "--side", "detectives", "-n", "40", "-w", "1", "--json", cwd=cwd)
    assert done.returncode == 0, done.stderr
    summary = one_json_object(done.stdout)
    assert summary["side"] == "detectives" and summary["games"] == 40
    assert summary["candidate"]["bot"] == "sweep" and summary["baseline"]["bot"] == "random"
    done = entry(*args, "--side", "detectives", "-n", "40", "-w", "1", cwd=cwd)
    assert done.returncode == 0, done.stderr
    assert "side detectives, field random" in flat(done.stdout)
    check_error(entry(*args, "--side", "robbers", cwd=cwd), "robbers")
