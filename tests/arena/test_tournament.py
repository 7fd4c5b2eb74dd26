"""Tournaments: seat rotation, seeds, worker independence, summaries, ties and bad input."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from sleuth.arena.stats import wilson_interval
from sleuth.arena.tournament import (
    GameRow,
    Tournament,
    run_tournament,
    schedule,
    valid_seatings,
)
from sleuth.core.errors import OptionError, SleuthError, UnknownNameError
from sleuth.core.log import replay_log
from sleuth.core.registry import make_game
from sleuth.core.rng import derive_seed
from tests.tally import ROLES


def seats_played(t: Tournament) -> Counter[tuple[str, int]]:
    return Counter((bot, seat) for row in t.rows for seat, bot in enumerate(row.bots))


def comparable(rows: list[GameRow]) -> list[tuple[Any, ...]]:
    """Everything in a row except the wall-clock duration."""
    return [
        (r.index, r.seed, r.bots, r.roles, r.outcome, r.returns, r.wins, r.length, r.forfeits)
        for r in rows
    ]


# --- seat rotation ---------------------------------------------------------------------------


def test_three_bots_each_play_every_seat_equally_often() -> None:
    t = run_tournament("tally", ["one", "zero", "coin"], 12, seed=1, workers=1)
    assert seats_played(t) == {
        (bot, seat): 4 for bot in ("one", "zero", "coin") for seat in range(3)
    }
    # cyclic rotations, in order
    assert [r.bots for r in t.rows[:3]] == [
        ("one", "zero", "coin"),
        ("coin", "one", "zero"),
        ("zero", "coin", "one"),
    ]
    assert all(r.bots == t.rows[i % 3].bots for i, r in enumerate(t.rows))
    by_role = {(s.bot, s.role): s.games for s in t.standings()}
    assert by_role == {
        (b, r): 4 if r == "leader" else 8 for b in ("one", "zero", "coin") for r in ROLES
    }


def test_two_bots_alternate_seats_over_an_even_number_of_games() -> None:
    t = run_tournament("tally", ["one", "zero"], 10, options={"seats": 2}, workers=1)
    assert seats_played(t) == {("one", 0): 5, ("one", 1): 5, ("zero", 0): 5, ("zero", 1): 5}
    assert [s.wins for s in t.standings()] == [5.0, 5.0, 0.0, 0.0]


def test_fox_random_random_plays_both_seats_equally() -> None:
    game = make_game("fox")
    assert valid_seatings(game, ["random", "random"]) == [("random", "random")] * 2
    t = run_tournament("fox", ["random", "random"], 10, seed=3, workers=1)
    assert [(s.bot, s.role, s.games) for s in t.standings()] == [
        ("random", "hunter", 10),
        ("random", "fox", 10),
    ]
    assert all(r.roles == ("hunter", "fox") for r in t.rows)


@pytest.mark.parametrize("bots", [["solver", "quantum"], ["quantum", "solver"]])
def test_role_bound_bots_keep_their_seats(bots: list[str]) -> None:
    t = run_tournament("fox", bots, 5, seed=0, workers=1)
    assert all(r.bots == ("solver", "quantum") and r.roles == ("hunter", "fox") for r in t.rows)
    assert t.bots == tuple(bots)  # the summary keeps the order given
    standings = {(s.bot, s.role): (s.games, s.wins) for s in t.standings()}
    assert standings == {("solver", "hunter"): (5, 5.0), ("quantum", "fox"): (5, 0.0)}
    assert [res["bot"] for res in t.summary()["results"]] == bots  # named order


def test_rotation_skips_seatings_a_bot_cannot_play() -> None:
    # boss plays only leader (seat 0), grunt only member: one valid rotation of each order
    for bots in (
        ["boss", "grunt", "grunt"],
        ["grunt", "boss", "grunt"],
        ["grunt", "grunt", "boss"],
    ):
        game = make_game("tally")
        assert valid_seatings(game, bots) == [("boss", "grunt", "grunt")]
    t = run_tournament("tally", ["grunt", "boss", "grunt"], 4, workers=1)
    assert {r.bots for r in t.rows} == {("boss", "grunt", "grunt")}
    # one leader-only bot and two flexible ones: the two rotations with boss at seat 0 only
    seatings = valid_seatings(make_game("tally"), ["boss", "one", "zero"])
    assert seatings == [("boss", "one", "zero")]
    seatings = valid_seatings(make_game("tally"), ["one", "one", "grunt"])
    assert seatings == [("one", "one", "grunt"), ("one", "grunt", "one")]


def test_schedule_uses_derived_seeds_and_cycles_seatings() -> None:
    jobs = schedule(make_game("tally"), ["one", "zero", "coin"], 7, seed=99)
    assert [i for i, _, _ in jobs] == list(range(7))
    assert [s for _, s, _ in jobs] == [derive_seed(99, "game", i) for i in range(7)]
    assert len({s for _, s, _ in jobs}) == 7
    assert jobs[3][2] == jobs[0][2] and jobs[6][2] == jobs[0][2]


@pytest.mark.parametrize(
    ("game", "bots", "culprits"),
    [
        ("fox", ["quantum", "quantum"], ["quantum", "fox", "hunter"]),
        ("fox", ["solver", "solver"], ["solver", "hunter"]),
        ("tally", ["grunt", "grunt", "grunt"], ["grunt", "member", "leader"]),
        ("tally", ["boss", "boss", "one"], ["boss", "leader"]),
    ],
)
def test_impossible_seating_is_a_clear_error(
    game: str, bots: list[str], culprits: list[str]
) -> None:
    with pytest.raises(SleuthError, match="no seating") as info:
        run_tournament(game, bots, 2, workers=1)
    for word in culprits:
        assert word in str(info.value)


# --- seeds and workers -----------------------------------------------------------------------


def test_results_do_not_depend_on_the_number_of_workers(tmp_path: Path) -> None:
    options = {"graph": "cycle:6", "days": "8"}
    one = run_tournament("fox", ["random", "random"], 37, seed=5, options=options, workers=1)
    two = run_tournament(
        "fox", ["random", "random"], 37, seed=5, options=options, workers=2, logs=tmp_path
    )
    assert comparable(one.rows) == comparable(two.rows)
    assert [r.index for r in two.rows] == list(range(37))
    clockless = {"seconds": 0, "thinking": [], "run_id": ""}
    assert one.summary() | clockless == two.summary() | clockless
    assert len({r.outcome for r in one.rows}) > 2  # a real mix of outcomes was compared
    assert 0 < one.summary()["results"][0]["win_rate"] < 1
    # the worker processes wrote every log, and each replays to its row
    logs = sorted(tmp_path.glob("*.jsonl"))
    assert [p.name for p in logs] == [f"game-{i:06d}.jsonl" for i in range(37)]
    for row, path in zip(two.rows, logs, strict=True):
        replay = replay_log(path)
        assert (replay.seed, replay.wins, replay.bots) == (row.seed, row.wins, row.bots)


def test_same_seed_same_games_different_seed_different_games() -> None:
    a = run_tournament("fox", ["random", "random"], 12, seed=7, workers=1)
    b = run_tournament("fox", ["random", "random"], 12, seed=7, workers=1)
    c = run_tournament("fox", ["random", "random"], 12, seed=8, workers=1)
    assert comparable(a.rows) == comparable(b.rows)
    assert [r.seed for r in a.rows] == [derive_seed(7, "game", i) for i in range(12)]
    assert [r.seed for r in a.rows] != [r.seed for r in c.rows]
    assert a.run_id != b.run_id


def test_game_i_is_the_same_whatever_the_number_of_games() -> None:
    short = run_tournament("fox", ["random", "random"], 4, seed=2, workers=1)
    long = run_tournament("fox", ["random", "random"], 10, seed=2, workers=1)
    assert comparable(short.rows) == comparable(long.rows[:4])


def test_progress_reports_every_game() -> None:
    for workers in (1, 2):
        seen: list[int] = []
        run_tournament("fox", ["solver", "quantum"], 21, workers=workers, on_progress=seen.append)
        assert sum(seen) == 21 and all(n > 0 for n in seen)


def test_a_single_game_and_many_workers() -> None:
    t = run_tournament("fox", ["solver", "quantum"], 1, workers=8)
    assert len(t.rows) == 1 and t.rows[0].wins == (1.0, 0.0)


# --- summary ---------------------------------------------------------------------------------


def check_summary_shape(summary: dict[str, Any]) -> None:
    """The exact ``sleuth play --json`` schema of the issue."""
    assert list(summary) == [
        "game", "run_id", "games", "requested", "stopped_by", "seed", "bots", "results",
        "mean_length", "forfeits", "seconds", "thinking",
    ]  # fmt: skip
    assert type(summary["game"]) is str and type(summary["run_id"]) is str
    assert type(summary["games"]) is int and summary["games"] == summary["requested"]
    assert summary["stopped_by"] is None  # a finished run
    assert type(summary["seed"]) is int
    assert type(summary["bots"]) is list and all(type(b) is str for b in summary["bots"])
    assert type(summary["results"]) is list and summary["results"]
    for res in summary["results"]:
        assert list(res) == [
            "bot", "side", "role", "games", "wins", "win_rate", "ci95", "forfeits",
        ]  # fmt: skip
        assert type(res["forfeits"]) is int and 0 <= res["forfeits"] <= res["games"]
        assert all(type(res[key]) is str for key in ("bot", "side", "role"))
        assert type(res["games"]) is int
        assert type(res["wins"]) is float and type(res["win_rate"]) is float
        assert type(res["ci95"]) is list and len(res["ci95"]) == 2
        assert all(type(x) is float for x in res["ci95"])
        lo, hi = res["ci95"]
        assert 0.0 <= lo <= res["win_rate"] <= hi <= 1.0
    assert type(summary["mean_length"]) is float
    assert type(summary["forfeits"]) is int
    assert type(summary["seconds"]) is float and summary["seconds"] >= 0
    assert json.loads(json.dumps(summary)) == summary


def test_summary_shape_and_values() -> None:
    t = run_tournament("fox", ["solver", "quantum"], 20, seed=4, workers=1)
    summary = t.summary()
    check_summary_shape(summary)
    assert summary["game"] == "fox" and summary["games"] == 20 and summary["seed"] == 4
    assert summary["bots"] == ["solver", "quantum"]
    assert summary["results"] == [
        {"bot": "solver", "side": "hunter", "role": "hunter", "games": 20, "wins": 20.0,
         "win_rate": 1.0, "ci95": list(wilson_interval(20, 20)), "forfeits": 0},
        {"bot": "quantum", "side": "fox", "role": "fox", "games": 20, "wins": 0.0,
         "win_rate": 0.0, "ci95": list(wilson_interval(0, 20)), "forfeits": 0},
    ]  # fmt: skip
    assert summary["results"][0]["ci95"][1] == 1.0 and summary["results"][1]["ci95"][0] == 0.0
    assert summary["mean_length"] == 12.0  # 6 days on path:5, a fox move and an inspection each
    assert summary["forfeits"] == 0
    assert summary["seconds"] == t.seconds


def test_summary_of_random_play_and_of_the_tally_game() -> None:
    check_summary_shape(run_tournament("fox", ["random", "random"], 6, workers=1).summary())
    check_summary_shape(run_tournament("tally", ["coin", "one", "zero"], 6, workers=1).summary())


def test_options_are_canonical() -> None:
    t = run_tournament(
        "fox", ["solver", "quantum"], 2, options={"graph": "cycle:5", "days": "10"}, workers=1
    )
    assert t.options == {"graph": "cycle:5", "k": 1, "lazy": False, "days": 10}
    # cycle:5 with one inspection a day cannot be won: the quantum fox survives all 10 days
    assert all(r.wins == (0.0, 1.0) and r.length == 20 for r in t.rows)
    assert t.summary()["results"][1]["win_rate"] == 1.0


# --- ties and forfeits -----------------------------------------------------------------------


def test_ties_count_as_fractional_wins_end_to_end() -> None:
    t = run_tournament("tally", ["one", "one", "zero"], 6, workers=1)
    # two "one"s tie for the win in every game, whatever the seating
    assert all(sorted(r.wins) == [0.0, 0.5, 0.5] for r in t.rows)
    wins = {(s.bot, s.role): s.wins for s in t.standings()}
    games = {(s.bot, s.role): s.games for s in t.standings()}
    assert wins == {("one", "leader"): 2.0, ("one", "member"): 4.0,
                    ("zero", "leader"): 0.0, ("zero", "member"): 0.0}  # fmt: skip
    assert games == {("one", "leader"): 4, ("one", "member"): 8,
                     ("zero", "leader"): 2, ("zero", "member"): 4}  # fmt: skip
    three = run_tournament("tally", ["one", "one", "one"], 3, workers=1)
    res = three.summary()["results"]
    assert [(r["role"], r["games"]) for r in res] == [("leader", 3), ("member", 6)]
    assert res[0]["wins"] == pytest.approx(1.0) and res[1]["wins"] == pytest.approx(2.0)
    assert res[0]["win_rate"] == pytest.approx(1 / 3)


def row(index: int, bots: tuple[str, str], wins: tuple[float, float], length: int) -> GameRow:
    return GameRow(
        index=index, seed=index, bots=bots, roles=("hunter", "fox"), outcome="test",
        returns=wins, wins=wins, length=length, duration=0.01, forfeits=[],
    )  # fmt: skip


def test_hand_built_tournament_with_ties() -> None:
    t = Tournament("run", "fox", {}, 0, ("random", "solver"), 1, seconds=1.5, requested=4)
    t.rows = [
        row(0, ("random", "random"), (0.5, 0.5), 4),
        row(1, ("solver", "random"), (1.0, 0.0), 6),
        row(2, ("random", "random"), (0.5, 0.5), 8),
        row(3, ("solver", "random"), (0.5, 0.5), 10),
    ]
    summary = t.summary()
    check_summary_shape(summary)
    results = {(r["bot"], r["role"]): r for r in summary["results"]}
    # ordered by the order the bots were named, then by seat role
    assert list(results) == [("random", "hunter"), ("random", "fox"), ("solver", "hunter")]
    assert results["random", "hunter"]["games"] == 2
    assert results["random", "hunter"]["wins"] == 1.0
    assert results["random", "fox"]["games"] == 4
    assert results["random", "fox"]["wins"] == 1.5
    assert results["random", "fox"]["win_rate"] == 0.375
    assert results["solver", "hunter"]["wins"] == 1.5
    assert results["solver", "hunter"]["win_rate"] == 0.75
    assert results["solver", "hunter"]["ci95"] == pytest.approx(list(wilson_interval(1.5, 2)))
    means = {(s.bot, s.role): s.mean_length for s in t.standings()}
    assert means == {("random", "hunter"): 6.0, ("random", "fox"): 7.0, ("solver", "hunter"): 8.0}
    assert summary["mean_length"] == 7.0
    assert summary["games"] == 4 and summary["seconds"] == 1.5


def test_empty_tournament_summary() -> None:
    t = Tournament("run", "fox", {}, 0, ("solver", "quantum"), 1)
    assert t.summary()["results"] == [] and t.summary()["mean_length"] == 0.0
    assert t.forfeits == 0


def test_forfeits_are_counted_and_recorded() -> None:
    t = run_tournament("tally", ["crash", "one", "zero"], 3, workers=1)
    assert t.summary()["forfeits"] == 3
    for r in t.rows:
        seat = r.bots.index("crash")
        assert r.forfeits == [
            {
                "seat": seat,
                "bot": "crash",
                "step": seat,
                "reason": "raised RuntimeError: crashed on purpose",
            }
        ]
        # the others share the win of a game ended by a forfeit
        assert r.wins[seat] == 0.0 and sum(r.wins) == pytest.approx(1.0)
        assert r.outcome.startswith("forfeit by")
    assert all(s.wins == 0.0 for s in t.standings() if s.bot == "crash")
    # forfeits are counted per bot and role: every game of crash, nobody else
    assert {(s.bot, s.role): s.forfeits for s in t.standings()} == {
        (s.bot, s.role): (s.games if s.bot == "crash" else 0) for s in t.standings()
    }
    assert sum(s.forfeits for s in t.standings()) == 3


# --- bad input -------------------------------------------------------------------------------


def test_unknown_game() -> None:
    with pytest.raises(UnknownNameError) as info:
        run_tournament("chess", ["a", "b"], 2)
    message = str(info.value)
    assert "'chess'" in message and "fox" in message and "known games" in message


def test_unknown_bot() -> None:
    with pytest.raises(UnknownNameError) as info:
        run_tournament("fox", ["solver", "wolf"], 2)
    message = str(info.value)
    assert "'wolf'" in message
    assert "random" in message and "solver" in message and "quantum" in message


@pytest.mark.parametrize("bots", [[], ["solver"], ["solver", "quantum", "random"]])
def test_wrong_number_of_bots(bots: list[str]) -> None:
    with pytest.raises(SleuthError) as info:
        run_tournament("fox", bots, 2)
    got = f"got {len(bots)} bot{'' if len(bots) == 1 else 's'}"  # "got 1 bot", not "1 bots"
    assert "2 seats" in str(info.value) and str(info.value).endswith(got)


@pytest.mark.parametrize(
    ("options", "culprit"),
    [
        ({"colour": "red"}, "colour"),
        ({"k": "0"}, "k"),
        ({"k": "two"}, "k"),
        ({"graph": "blob:3"}, "blob:3"),
        ({"graph": "path:0"}, "path"),
        ({"graph": "edges:0-1,2-3"}, "connected"),
        ({"lazy": "maybe"}, "lazy"),
        ({"days": "-1"}, "days"),
    ],
)
def test_bad_options(options: dict[str, str], culprit: str) -> None:
    with pytest.raises(OptionError) as info:
        run_tournament("fox", ["solver", "quantum"], 2, options=options)
    assert culprit in str(info.value)


@pytest.mark.parametrize("games", [0, -3])
def test_too_few_games(games: int) -> None:
    with pytest.raises(SleuthError, match="at least 1"):
        run_tournament("fox", ["solver", "quantum"], games)


def test_errors_come_before_any_game_or_log(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    calls: list[int] = []
    for kwargs in (
        {"name": "fox", "bots": ["solver", "nobody"]},
        {"name": "fox", "bots": ["quantum", "quantum"]},
        {"name": "fox", "bots": ["solver", "quantum"], "options": {"k": "0"}},
    ):
        with pytest.raises(SleuthError):
            run_tournament(games=3, logs=logs, on_progress=calls.append, **kwargs)  # type: ignore[arg-type]
    assert calls == [] and not logs.exists()


def test_thinking_time_is_reported_per_bot() -> None:
    t = run_tournament("fox", ["solver", "random"], 4, workers=1)
    thinking = t.summary()["thinking"]
    assert [(r["bot"], r["role"]) for r in thinking] == [("solver", "hunter"), ("random", "fox")]
    for row, standing in zip(thinking, t.standings(), strict=True):
        assert row["moves"] == standing.moves > 0
        assert 0 < row["ms_per_move"] <= row["max_ms"] < 1000
