"""Stopping a multi-worker ``sleuth play`` from outside, the way users and machines do it.

Each test starts the real command in its own session (as a terminal would), waits until some
games have finished (their logs appear), then sends a signal and checks what users were
promised: the command ends within seconds, the games it reports finished are exactly the
stored ones, no process is left behind, and ``--resume`` completes the run with exactly the
requested games, the same games an uninterrupted run plays.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from sleuth.arena.tournament import run_tournament
from tests.signalled import in_session, processes

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

GAMES = 400
BOTS = "random,random"
SLEUTH = str(Path(sys.executable).with_name("sleuth"))


def command(tmp_path: Path, *extra: str) -> list[str]:
    return [
        SLEUTH, "play", "fugitive", "--bots", BOTS, "-n", str(GAMES), "-w", "2",
        "--db", str(tmp_path / "r.duckdb"), "--logs", str(tmp_path / "logs"), *extra,
    ]  # fmt: skip


def start(tmp_path: Path, *extra: str) -> subprocess.Popen[str]:
    """Start the tournament and return once it has finished some games."""
    run = subprocess.Popen(
        command(tmp_path, *extra),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    logs = tmp_path / "logs"
    while not (logs.exists() and len(list(logs.glob("game-*.jsonl"))) >= 20):
        assert run.poll() is None, run.communicate()
        assert time.monotonic() < deadline, "no game finished within 60 s"
        time.sleep(0.05)
    return run


def finish(run: subprocess.Popen[str], within: float) -> tuple[int, str, str, float]:
    """Wait for the command to end; ``(code, stdout, stderr, seconds it took)``."""
    t0 = time.monotonic()
    out, err = run.communicate(timeout=within + 30)
    return run.returncode, out, err, time.monotonic() - t0


def stored(tmp_path: Path) -> tuple[list[int], list[str]]:
    """The stored game indices (with repeats, if any) and the runs' statuses."""
    with duckdb.connect(str(tmp_path / "r.duckdb"), read_only=True) as con:
        indices = [i for (i,) in con.execute("SELECT game_index FROM games").fetchall()]
        statuses = [s for (s,) in con.execute("SELECT status FROM runs").fetchall()]
    return indices, statuses


def reported(out: str) -> int:
    """The number of games the results line says were played."""
    match = re.search(r"^(\d+) games", out, re.MULTILINE)
    assert match, out
    return int(match.group(1))


def check_no_partial_logs(tmp_path: Path) -> None:
    assert list((tmp_path / "logs").glob(".game-*")) == [], "a half-written log was left"


def check_nothing_left(session: int) -> None:
    deadline = time.monotonic() + 3
    while in_session(session) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert in_session(session) == [], "a process of the run was left behind"


def check_resume_completes(tmp_path: Path, before: list[int]) -> None:
    resumed = subprocess.run(
        [*command(tmp_path), "--resume", "--json"], capture_output=True, text=True, timeout=300
    )
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    assert summary["games"] == summary["requested"] == GAMES and summary["stopped_by"] is None
    indices, statuses = stored(tmp_path)
    assert sorted(indices) == list(range(GAMES)), "lost or duplicated games"
    assert statuses == ["finished"]
    assert set(before) <= set(indices)
    # the stored games are those of an uninterrupted run (game i depends only on i)
    reference = run_tournament("fugitive", BOTS.split(","), 40, workers=1)
    with duckdb.connect(str(tmp_path / "r.duckdb"), read_only=True) as con:
        rows = con.execute(
            "SELECT game_index, outcome, actions FROM games WHERE game_index < 40 "
            "ORDER BY game_index"
        ).fetchall()
    assert rows == [(r.index, r.outcome, list(r.actions)) for r in reference.rows]


@pytest.mark.parametrize(
    ("how", "code"), [("ctrl-c", 130), ("sigterm", 143)], ids=["ctrl-c", "sigterm"]
)
def test_a_signal_stops_the_run_keeps_every_finished_game_and_resume_completes_it(
    tmp_path: Path, how: str, code: int
) -> None:
    run = start(tmp_path)
    if how == "ctrl-c":
        os.killpg(run.pid, signal.SIGINT)  # a terminal's Ctrl-C reaches the whole group
    else:
        os.kill(run.pid, signal.SIGTERM)  # a process manager signals the parent only
    returncode, out, err, took = finish(run, within=5)
    assert returncode == code, err
    assert took < 5
    indices, statuses = stored(tmp_path)
    assert 20 <= len(indices) < GAMES
    assert sorted(indices) == sorted(set(indices))
    assert reported(out) == len(indices), "stored games differ from the games reported"
    assert statuses == ["stopped"]
    assert "--resume" in err and ("Ctrl-C" if how == "ctrl-c" else "SIGTERM") in err
    check_nothing_left(run.pid)
    check_no_partial_logs(tmp_path)
    check_resume_completes(tmp_path, indices)


def test_a_second_ctrl_c_stops_at_once(tmp_path: Path) -> None:
    run = start(tmp_path)
    os.killpg(run.pid, signal.SIGINT)
    time.sleep(0.05)
    os.killpg(run.pid, signal.SIGINT)
    returncode, out, err, took = finish(run, within=2)
    assert returncode == 130 and took < 2, err
    indices, _ = stored(tmp_path)
    assert reported(out) == len(indices) == len(set(indices))
    check_nothing_left(run.pid)
    check_no_partial_logs(tmp_path)


def test_a_killed_worker_loses_only_its_games_and_resume_plays_them(tmp_path: Path) -> None:
    run = start(tmp_path)
    workers = [pid for pid, ppid, _ in processes() if ppid == run.pid]
    assert len(workers) == 2
    os.kill(workers[0], signal.SIGKILL)
    returncode, out, err, _ = finish(run, within=120)
    assert returncode == 1, err
    assert "died (killed by signal 9)" in err and "--resume" in err
    indices, statuses = stored(tmp_path)
    assert reported(out) == len(indices) == len(set(indices)) < GAMES
    assert statuses == ["stopped"]
    check_nothing_left(run.pid)
    check_resume_completes(tmp_path, indices)


def test_workers_do_not_outlive_a_killed_parent(tmp_path: Path) -> None:
    run = start(tmp_path)
    os.kill(run.pid, signal.SIGKILL)
    run.communicate(timeout=30)
    check_nothing_left(run.pid)
