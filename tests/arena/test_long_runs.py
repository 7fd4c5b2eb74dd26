"""Runs of any length: ``--games`` is bounded by what the results store can hold, the schedule
is made as it is played (a run of two billion games starts at once and takes no memory for
the games it has not reached), and ``play`` and ``compare`` stop on the first Ctrl-C or
SIGTERM from their first second, keeping every finished game, with no process left behind.
``compare`` stores its two runs as it goes and ``--resume`` continues them."""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import time
from pathlib import Path

import duckdb
import pytest

from sleuth.arena.paired import ComparisonStopped, compare
from sleuth.arena.play import MAX_GAMES
from sleuth.arena.tournament import run_tournament, schedule
from sleuth.core.errors import SleuthError
from sleuth.core.registry import make_game
from sleuth.core.rng import derive_seed
from tests.cli_helpers import COMMAND, check_error, entry, one_json_object
from tests.signalled import SIGNALS, check_nothing_left, start

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

HUGE = "99999999999999999999"


@pytest.mark.parametrize("command", ["play", "compare"])
def test_more_games_than_the_store_holds_is_an_error_naming_the_bound(
    command: str, cwd: Path
) -> None:
    bots = ["--bots", "random,random"] if command == "play" else ["-a", "random", "-b", "random"]
    field = [] if command == "play" else ["--field", "random"]
    done = entry(command, "fox", *bots, *field, "-n", HUGE, "--no-db", cwd=cwd)
    check_error(done, "--games", "at most", "2,147,483,647", HUGE)
    assert list(cwd.iterdir()) == []  # refused before anything was made
    with pytest.raises(SleuthError, match=f"at most 2,147,483,647.*got {MAX_GAMES + 1}"):
        run_tournament("fox", ["random", "random"], MAX_GAMES + 1)


def test_the_schedule_is_made_as_it_is_read() -> None:
    started = time.perf_counter()
    jobs = schedule(make_game("fox"), ["random", "quantum"], MAX_GAMES, seed=5)
    last = jobs[-1]
    assert time.perf_counter() - started < 1.0
    assert len(jobs) == MAX_GAMES
    assert last == (MAX_GAMES - 1, derive_seed(5, "game", MAX_GAMES - 1), last[2])
    assert [job[0] for job, _ in zip(jobs, range(3), strict=False)] == [0, 1, 2]
    with pytest.raises(IndexError):
        jobs[MAX_GAMES]


def play_command(tmp_path: Path, workers: str, *extra: str) -> list[str]:
    return [
        *COMMAND, "play", "fox", "--bots", "random,random", "-n", "2000000000", "-w", workers,
        "--logs", str(tmp_path / "logs"), *extra,
    ]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(
    ("how", "workers"), [("ctrl-c", "2"), ("sigterm", "2"), ("ctrl-c", "1"), ("sigterm", "1")]
)
def test_a_run_of_two_billion_games_stops_at_once_and_keeps_its_games(
    tmp_path: Path, how: str, workers: str
) -> None:
    db = tmp_path / "r.duckdb"
    run = start(play_command(tmp_path, workers, "--db", str(db)), cwd=tmp_path)
    logs = tmp_path / "logs"
    run.wait_for(lambda: time.monotonic() - run.started > 1.0, within=5)
    run.wait_for(lambda: logs.exists() and any(logs.glob("game-*.jsonl")), within=30)
    run.stop(how)
    code, took = run.finish(within=30)
    assert code == SIGNALS[how][1], run.stderr
    assert took < 10, f"took {took:.1f} s to stop"
    assert "Traceback" not in run.stderr
    with duckdb.connect(str(db), read_only=True) as con:
        stored = [i for (i,) in con.execute("SELECT game_index FROM games").fetchall()]
        statuses = [s for (s,) in con.execute("SELECT status FROM runs").fetchall()]
    assert stored and sorted(stored) == sorted(set(stored))
    assert statuses == ["stopped"]
    kept = re.search(r"(\d+) of 2000000000 games finished and stored", " ".join(run.err))
    assert kept and int(kept.group(1)) == len(stored), run.stderr
    assert "--resume" in run.stderr
    check_nothing_left(run)


@pytest.mark.slow
def test_the_command_of_the_issue_stops_without_a_results_file(tmp_path: Path) -> None:
    run = start(play_command(tmp_path, "2", "--no-db"), cwd=tmp_path)
    logs = tmp_path / "logs"
    run.wait_for(lambda: logs.exists() and any(logs.glob("game-*.jsonl")), within=30)
    run.stop("sigterm")
    code, took = run.finish(within=30)
    assert code == 143 and took < 10, run.stderr
    assert re.search(r"stopped by SIGTERM: \d+ of 2000000000 games finished", run.stderr)
    check_nothing_left(run)


COMPARE = ["compare", "fox", "-a", "random", "-b", "solver", "--field", "quantum"]


@pytest.mark.slow
def test_compare_says_how_far_it_is_and_a_signal_keeps_its_finished_games(tmp_path: Path) -> None:
    """With stderr not a terminal a progress line comes every 10 seconds; Ctrl-C then stops the
    comparison with its finished games stored, and says how to resume."""
    db = tmp_path / "r.duckdb"
    args = [*COMMAND, *COMPARE, "-n", "2000000", "-w", "2", "--db", str(db)]
    run = start(args, cwd=tmp_path)
    run.wait_for(lambda: "of 4,000,000 games" in run.stderr, within=60)
    assert re.search(r"fox: random / solver: [\d,]+ of 4,000,000 games \(", run.stderr)
    run.stop("ctrl-c")
    code, took = run.finish(within=30)
    assert code == 130 and took < 10, run.stderr
    with duckdb.connect(str(db), read_only=True) as con:
        runs = con.execute("SELECT run_id, bots, status FROM runs ORDER BY bots").fetchall()
        counts = dict(con.execute("SELECT run_id, count(*) FROM games GROUP BY run_id").fetchall())
    assert [(bots, status) for _, bots, status in runs] == [
        (["random", "quantum"], "stopped"),
        (["solver", "quantum"], "running"),  # the baseline's run: begun, never played
    ]
    kept = counts[runs[0][0]]
    message = " ".join(run.stderr.split())
    assert f"stopped by Ctrl-C: {kept} of 2000000 games of the candidate" in message
    assert "--resume" in message and "nothing stored" not in message
    check_nothing_left(run)


def test_a_stopped_comparison_resumes_into_the_uninterrupted_one(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    whole = compare("fox", "random", "solver", ["quantum"], games=30, seed=4, workers=1)
    seen = [0]

    def interrupt_after_40(n: int) -> None:  # a Ctrl-C during the baseline's tournament
        seen[0] += n
        if seen[0] == 40:
            os.kill(os.getpid(), signal.SIGINT)

    with pytest.raises(ComparisonStopped) as stopped:
        compare(
            "fox", "random", "solver", ["quantum"], games=30, seed=4, workers=1,
            on_progress=interrupt_after_40, db=db,
        )  # fmt: skip
    assert [len(t.rows) for t in stopped.value.played] == [30, 10]
    assert stopped.value.exit_code == 130
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (40,)
    progress: list[int] = []
    resumed = compare(
        "fox", "random", "solver", ["quantum"], games=30, seed=4, workers=1,
        on_progress=progress.append, db=db, resume=True,
    )  # fmt: skip
    assert sum(progress) == 60  # the 40 stored games count as they are taken up
    assert resumed.wins() == whole.wins() and resumed.wins(True) == whole.wins(True)
    assert resumed.win_gain == whole.win_gain
    assert [r.actions for r in resumed.baseline.rows] == [r.actions for r in whole.baseline.rows]
    with duckdb.connect(str(db), read_only=True) as con:
        counts = con.execute("SELECT count(*), count(DISTINCT (run_id, game_index)) FROM games")
        assert counts.fetchone() == (60, 60)
        assert con.execute("SELECT status FROM runs").fetchall() == [("finished",)] * 2


def test_compare_resume_in_the_command_line(tmp_path: Path, cwd: Path) -> None:
    args = [*COMPARE, "-n", "6", "-w", "1", "--seed", "2"]
    check_error(entry(*args, "--resume", "--no-db", cwd=cwd), "--resume", "--no-db")
    check_error(entry(*args, "--resume", cwd=cwd), "no run of this tournament to resume")
    first = entry(*args, "--json", cwd=cwd)
    assert first.returncode == 0, first.stderr
    assert (cwd / "sleuth.duckdb").exists()  # stored by default, as play does
    again = entry(*args, "--json", "--resume", cwd=cwd)  # finished: nothing is played again
    assert again.returncode == 0, again.stderr
    before, after = one_json_object(first.stdout), one_json_object(again.stdout)
    assert {**before, "seconds": 0} == {**after, "seconds": 0}
    with duckdb.connect(str(cwd / "sleuth.duckdb"), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (12,)
    side = entry(*args, "--side", "hunter", "--resume", cwd=cwd)  # another tournament
    check_error(side, "no run of this tournament")
    assert json.loads(first.stdout)["games"] == 6


def test_a_stop_during_a_bots_warm_up_is_a_stop_not_a_compilers_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A signal landing in a compiler's callback is swallowed there, and the compiler fails
    with an error of its own (Numba: 'no compiled object yet'): the run stops, as asked."""
    from sleuth.core.bots import BotSpec

    def warm(self: BotSpec) -> None:
        os.kill(os.getpid(), signal.SIGINT)  # abandons the warm-up ...
        raise RuntimeError("no compiled object yet")  # ... as a compiler reports it

    monkeypatch.setattr(BotSpec, "warm", warm)
    tournament = run_tournament("fox", ["random", "random"], 5, workers=1)
    assert tournament.stopped_by == "Ctrl-C" and tournament.rows == []
