"""Leagues (sleuth.arena.league, `sleuth league`): seatings, balance, ratings, storage."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import duckdb
import pytest
from openskill.models import PlackettLuce

from sleuth.arena.league import league_seatings, rate
from sleuth.arena.play import GameRow
from sleuth.arena.tournament import run_tournament
from sleuth.core.errors import SleuthError
from sleuth.core.registry import game_spec
from tests.cli_helpers import entry

FOX = {"graph": "path:4"}


def fox_game():  # type: ignore[no-untyped-def]
    return game_spec("fox").make(FOX)


def test_fox_seatings_are_every_fitting_pair_of_distinct_bots() -> None:
    # solver hunts only, quantum hides only, random plays both: random cannot meet itself.
    got = league_seatings(fox_game(), ["solver", "random", "quantum"])
    assert got == [("solver", "random"), ("solver", "quantum"), ("random", "quantum")]


def test_free_for_all_seatings_are_every_order() -> None:
    game = game_spec("camel-up").make({"players": 3})
    got = league_seatings(game, ["ev", "random", "strong"])
    assert len(got) == 6 and len(set(got)) == 6
    assert all(sorted(s) == ["ev", "random", "strong"] for s in got)


def test_a_team_side_is_played_by_one_bot() -> None:
    game = game_spec("scotland-yard").make({"seats": 6})
    got = league_seatings(game, ["heuristic", "mc", "random"])
    assert got  # each seating: one bot for Mr. X, one for all five detective seats
    for seating in got:
        assert len(set(seating[1:])) == 1 and seating[0] != seating[1]
    assert ("heuristic", "mc", "mc", "mc", "mc", "mc") in got


@pytest.mark.parametrize(
    ("pool", "message"),
    [
        (["solver", "solver", "quantum"], "each bot once"),
        (["solver"], "2 sides; a league needs at least as many bots, got 1"),
    ],
)
def test_pools_that_cannot_make_a_league_are_refused(pool: list[str], message: str) -> None:
    with pytest.raises(SleuthError, match=message):
        league_seatings(fox_game(), pool)


def test_a_pool_without_a_bot_for_some_side_is_refused() -> None:
    game = game_spec("scotland-yard").make({})
    with pytest.raises(SleuthError, match=r"no seating of mc, mc:rollouts=20 fits the roles mrx"):
        league_seatings(game, ["mc", "mc:rollouts=20"])


def test_a_whole_number_of_cycles_plays_every_seating_equally_often() -> None:
    pool = ["solver", "random", "quantum"]
    t = run_tournament("fox", pool, 9, seed=4, options=FOX, workers=1, league=True)
    assert Counter(r.bots for r in t.rows) == {
        ("solver", "random"): 3,
        ("solver", "quantum"): 3,
        ("random", "quantum"): 3,
    }


def row(index: int, bots: tuple[str, ...], winners: tuple[str, ...]) -> GameRow:
    wins = tuple(1.0 if side in winners else 0.0 for side in ("hunter", "fox"))
    return GameRow(index, 0, bots, ("hunter", "fox"), "", wins, wins, 1, 0.0, [], winners=winners)


def test_ratings_are_openskill_updates_in_game_order() -> None:
    """The oracle: OpenSkill's model called by hand on the same games."""
    rows = [
        row(1, ("random", "quantum"), ("fox",)),
        row(0, ("solver", "quantum"), ("hunter",)),
    ]
    model = PlackettLuce()
    solver, random_bot, quantum = (model.rating() for _ in range(3))
    [[solver], [quantum]] = model.rate([[solver], [quantum]], ranks=[1, 2])
    [[random_bot], [quantum]] = model.rate([[random_bot], [quantum]], ranks=[2, 1])
    got = {r.bot: r for r in rate(fox_game(), ["solver", "random", "quantum"], rows)}
    for bot, expected in (("solver", solver), ("random", random_bot), ("quantum", quantum)):
        assert (got[bot].mu, got[bot].sigma) == (expected.mu, expected.sigma)
    assert got["quantum"].games == 2 and got["solver"].games == 1


def test_a_game_nobody_won_is_a_tie() -> None:
    (a, b) = rate(fox_game(), ["solver", "quantum"], [row(0, ("solver", "quantum"), ())])
    assert a.mu == pytest.approx(b.mu) and a.games == b.games == 1


def test_the_table_puts_the_best_conservative_estimate_first() -> None:
    rows = [row(i, ("solver", "quantum"), ("hunter",)) for i in range(5)]
    ratings = rate(fox_game(), ["quantum", "solver", "random"], rows)
    assert ratings[0].bot == "solver"
    assert [r.ordinal for r in ratings] == sorted((r.ordinal for r in ratings), reverse=True)
    assert next(r for r in ratings if r.bot == "random").games == 0


def test_the_command_prints_stores_and_resumes(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    args = ("league", "fox", "--bots", "solver,random,quantum", "-n", "6", "-o", "graph=path:4")
    done = entry(*args, "--db", db, "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["seatings"] == 3
    assert summary["ratings"][0]["bot"] == "solver"
    with duckdb.connect(str(db)) as con:
        stored = con.execute("SELECT bot, mu FROM ratings ORDER BY ordinal DESC").fetchall()
        assert [(b, pytest.approx(m)) for b, m in stored] == [
            (r["bot"], r["mu"]) for r in summary["ratings"]
        ]
        assert con.execute("SELECT league FROM runs").fetchall() == [(True,)]
    again = entry(*args, "--db", db, "--resume", cwd=tmp_path)
    assert again.returncode == 0 and "already finished: nothing to resume" in again.stderr
    # `play` with the same bots is another tournament: a league is never resumed by it.
    play = entry("play", "fox", "--bots", "solver,random", "-n", "6", "--db", db, "--resume",
                 "-o", "graph=path:4", cwd=tmp_path)  # fmt: skip
    assert play.returncode != 0 and "holds no run of this tournament" in play.stderr


def test_a_bad_pool_fails_before_the_results_file_is_touched(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    done = entry("league", "fox", "--bots", "solver,solver", "--db", db, cwd=tmp_path)
    assert done.returncode != 0 and "each bot once" in done.stderr
    assert not db.exists()
