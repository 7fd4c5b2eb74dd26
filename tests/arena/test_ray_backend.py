"""``sleuth play/league --backend ray``: the same games as the process backend, on Ray.

A local Ray cluster (2 CPUs) plays every game's tournament: each game's row equals the process
backend's (but for the measured times) and its log is the same file, byte for byte; a league
on it rates the same games; a cluster started by ``ray start --head`` and joined with
``--address`` plays them too, and outlives the command.  The real command, stopped by Ctrl-C,
SIGTERM or a SIGKILL of the driver, keeps every finished game, leaves no process behind (Ray's
included) and resumes to exactly the requested games, the games of an uninterrupted run.
Without Ray, ``--backend ray`` is refused naming the extra; a bad backend or address is refused
before the results file is made.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from sleuth.arena.play import GameRow
from sleuth.arena.tournament import run_tournament
from sleuth.core.errors import SleuthError
from sleuth.core.registry import game_infos, make_game
from tests.cli_helpers import entry
from tests.signalled import in_session

needs_ray = pytest.mark.skipif(
    importlib.util.find_spec("ray") is None,
    reason="Ray is not installed (the ray extra: pip install 'sleuth[ray]')",
)
on_linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
SLEUTH = str(Path(sys.executable).with_name("sleuth"))
GAMES_EACH = {"cluedo": 6}
"""Games per backend where random games are long (a random Cluedo game takes seconds);
24 elsewhere: every seating several times."""
GAMES = 300
"""Camel Up games of the interrupted command (about 10 ms each on one core)."""


def timeless(rows: list[GameRow]) -> list[GameRow]:
    """The rows without what is measured (durations and CPU times; move counts are kept)."""
    return [
        dataclasses.replace(
            r, duration=0.0, thinking=tuple((n, 0.0, 0.0) for n, _, _ in r.thinking)
        )
        for r in rows
    ]


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One local Ray cluster of 2 CPUs for the module's in-process runs (they use a connected
    Ray as it is)."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


@needs_ray
@pytest.mark.parametrize("game", [info.name for info in game_infos()])
def test_ray_plays_every_game_as_the_process_backend_does(
    game: str, tmp_path: Path, local_ray: None
) -> None:
    bots = ["random"] * make_game(game, {}).num_players
    games = GAMES_EACH.get(game, 24)
    processes = run_tournament(game, bots, games, seed=11, workers=2, logs=tmp_path / "processes")
    on_ray = run_tournament(game, bots, games, seed=11, backend="ray", logs=tmp_path / "ray")
    assert on_ray.complete and not on_ray.lost and on_ray.workers == 2
    assert timeless(on_ray.rows) == timeless(processes.rows)
    logs = sorted(p.name for p in (tmp_path / "processes").iterdir())
    assert len(logs) == games
    assert sorted(p.name for p in (tmp_path / "ray").iterdir()) == logs  # no .part left
    for name in logs:
        assert (tmp_path / "ray" / name).read_bytes() == (
            tmp_path / "processes" / name
        ).read_bytes()


@needs_ray
def test_a_resumed_ray_run_plays_only_the_missing_games(local_ray: None) -> None:
    whole = run_tournament("camel-up", ["random"] * 4, 40, seed=2, workers=1)
    kept = [r for r in whole.rows if r.index % 4 != 1]
    played: list[GameRow] = []
    resumed = run_tournament(
        "camel-up", ["random"] * 4, 40, seed=2, backend="ray", previous=kept,
        on_rows=played.extend,
    )  # fmt: skip
    assert sorted(r.index for r in played) == list(range(1, 40, 4))
    assert timeless(resumed.rows) == timeless(whole.rows)


@needs_ray
def test_a_league_on_ray_rates_the_games_the_process_backend_plays(
    tmp_path: Path, local_ray: None
) -> None:
    league = ["league", "fox", "--bots", "random,quantum,solver", "-o", "graph=path:4", "-n", "12"]
    on_ray = entry(*league, "--db", "ray.duckdb", "--backend", "ray", "--json", cwd=tmp_path)
    processes = entry(*league, "--db", "processes.duckdb", "-w", "2", "--json", cwd=tmp_path)
    assert on_ray.returncode == processes.returncode == 0, on_ray.stderr
    a, b = json.loads(on_ray.stdout), json.loads(processes.stdout)
    for key in ("results", "ratings", "seatings", "games", "mean_length"):
        assert a[key] == b[key]


@needs_ray
def test_a_comparison_on_ray_plays_the_games_of_the_process_backend(
    tmp_path: Path, local_ray: None
) -> None:
    """``compare --backend ray`` (with sequential stopping, several looks) gives the whole
    comparison the process backend gives."""
    compare = ["compare", "fox", "-a", "random", "-b", "solver", "--field", "quantum"]
    compare += ["-n", "40", "--seed", "3", "--stop-early", "--json"]
    on_ray = entry(*compare, "--db", "ray.duckdb", "--backend", "ray", cwd=tmp_path)
    processes = entry(*compare, "--db", "processes.duckdb", "-w", "2", cwd=tmp_path)
    assert on_ray.returncode == processes.returncode == 0, on_ray.stderr
    a, b = json.loads(on_ray.stdout), json.loads(processes.stdout)
    for key in ("candidate", "baseline", "win_gain", "sequential", "better", "worse", "same"):
        assert a[key] == b[key]
    assert a["sequential"]["decided"]


@needs_ray
@on_linux
@pytest.mark.slow
def test_a_cluster_started_by_ray_start_plays_the_same_games(tmp_path: Path) -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    ray_start = Path(sys.executable).with_name("ray")
    short = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # Ray's socket paths are short
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}  # no token to share with the driver
    head = subprocess.Popen(
        [ray_start, "start", "--head", "--block", f"--port={port}", "--num-cpus=2",
         "--include-dashboard=false", f"--temp-dir={short}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, env=env,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert head.poll() is None, "ray start --head ended"
            time.sleep(0.2)
        result = subprocess.run(
            [SLEUTH, "play", "fugitive", "--bots", "random,random", "-n", "30", "--seed", "3",
             "--db", str(tmp_path / "r.duckdb"), "--backend", "ray", "--address",
             f"127.0.0.1:{port}", "--json"],
            capture_output=True, text=True, timeout=300, env=env,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        assert head.poll() is None, "the cluster must outlive a command that joined it"
    finally:
        os.killpg(head.pid, signal.SIGTERM)  # `ray start --block` stops its cluster
        head.wait(timeout=60)
        shutil.rmtree(short, ignore_errors=True)
    check_nothing_left(head.pid)
    reference = run_tournament("fugitive", ["random", "random"], 30, seed=3, workers=1)
    with duckdb.connect(str(tmp_path / "r.duckdb"), read_only=True) as con:
        rows = con.execute(
            "SELECT game_index, outcome, actions FROM games ORDER BY game_index"
        ).fetchall()
        assert con.execute("SELECT status, workers FROM runs").fetchall() == [("finished", 2)]
    assert rows == [(r.index, r.outcome, list(r.actions)) for r in reference.rows]


def test_backend_choices_are_checked_before_anything_is_written(tmp_path: Path) -> None:
    with pytest.raises(SleuthError, match="unknown backend 'dask': choose one of processes, ray"):
        run_tournament("fox", ["random", "random"], 2, backend="dask")  # type: ignore[arg-type]
    play = ["play", "fox", "--bots", "random,random", "--db", "r.duckdb"]
    result = entry(*play, "--address", "auto", cwd=tmp_path)
    assert result.returncode == 2
    assert "--address auto is the address of a Ray cluster: add --backend ray" in result.stderr
    result = entry(*play, "--backend", "dask", cwd=tmp_path)
    assert result.returncode == 2 and "unknown backend 'dask'" in result.stderr
    assert not (tmp_path / "r.duckdb").exists()


@needs_ray
def test_an_address_nobody_answers_at_is_refused_before_anything_is_written(
    tmp_path: Path,
) -> None:
    with socket.socket() as closed:  # a port that was free a moment ago: nothing listens
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    result = entry(
        "play", "fox", "--bots", "random,random", "--db", "r.duckdb", "--backend", "ray",
        "--address", f"127.0.0.1:{port}", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 2
    assert f"cannot reach the Ray cluster at 127.0.0.1:{port}: Connection refused" in result.stderr
    assert not (tmp_path / "r.duckdb").exists()


def test_without_ray_the_backend_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray: ImportError, as when missing
    result = entry(
        "play", "fox", "--bots", "random,random", "--db", "r.duckdb", "--backend", "ray",
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 2
    assert "needs Ray, which is not installed: pip install 'sleuth[ray]'" in result.stderr
    assert not (tmp_path / "r.duckdb").exists()


# The real command, stopped from outside.


def command(tmp_path: Path, *extra: str) -> list[str]:
    return [
        SLEUTH, "play", "camel-up", "--bots", "random,random,random,random", "-n", str(GAMES),
        "-w", "2", "--seed", "4", "--db", str(tmp_path / "r.duckdb"), "--logs",
        str(tmp_path / "logs"), "--backend", "ray", *extra,
    ]  # fmt: skip


def start(tmp_path: Path) -> subprocess.Popen[str]:
    """Start the command in its own session; return once 20 games have finished."""
    run = subprocess.Popen(
        command(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    logs = tmp_path / "logs"
    while not (logs.exists() and len(list(logs.glob("game-*.jsonl"))) >= 20):
        assert run.poll() is None, run.communicate()
        assert time.monotonic() < deadline, "no game finished within 120 s"
        time.sleep(0.05)
    return run


def stored(tmp_path: Path) -> list[int]:
    with duckdb.connect(str(tmp_path / "r.duckdb"), read_only=True) as con:
        return [i for (i,) in con.execute("SELECT game_index FROM games").fetchall()]


def check_nothing_left(session: int) -> None:
    """No process of the command's session (Ray's own included) outlives it for long."""
    deadline = time.monotonic() + 15
    while in_session(session) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = {pid: describe(pid) for pid in in_session(session)}
    assert left == {}, "a process of the run was left behind"


def describe(pid: int) -> str:
    """A process's state and command line, to say what was left behind."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").strip()
    except OSError:
        return "gone"
    return f"{stat[stat.rindex(')') + 2]} {command.decode(errors='replace')}"


def check_resume_gives_the_uninterrupted_run(tmp_path: Path, before: list[int]) -> None:
    resumed = subprocess.run(
        [*command(tmp_path), "--resume", "--json"], capture_output=True, text=True, timeout=600
    )
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    assert summary["games"] == summary["requested"] == GAMES and summary["stopped_by"] is None
    assert set(before) <= set(stored(tmp_path))
    reference = run_tournament("camel-up", ["random"] * 4, GAMES, seed=4, workers=2)
    with duckdb.connect(str(tmp_path / "r.duckdb"), read_only=True) as con:
        rows = con.execute(
            "SELECT game_index, seed, bots, outcome, returns, wins, length, actions, winners, "
            "termination FROM games ORDER BY game_index"
        ).fetchall()
        assert con.execute("SELECT status FROM runs").fetchall() == [("finished",)]
    assert rows == [
        (r.index, r.seed, list(r.bots), r.outcome, list(r.returns), list(r.wins), r.length,
         list(r.actions), list(r.winners or ()), r.termination)
        for r in reference.rows
    ]  # fmt: skip
    assert len(list((tmp_path / "logs").glob("game-*.jsonl"))) == GAMES
    assert list((tmp_path / "logs").glob(".game-*")) == []


@needs_ray
@on_linux
@pytest.mark.slow
@pytest.mark.parametrize(("how", "code"), [("ctrl-c", 130), ("sigterm", 143)])
def test_a_signal_stops_a_ray_run_keeping_its_games_and_resume_completes_it(
    tmp_path: Path, how: str, code: int
) -> None:
    run = start(tmp_path)
    if how == "ctrl-c":
        os.killpg(run.pid, signal.SIGINT)  # a terminal's Ctrl-C reaches the whole group
    else:
        os.kill(run.pid, signal.SIGTERM)
    out, err = run.communicate(timeout=60)
    assert run.returncode == code, err
    indices = stored(tmp_path)
    assert 20 <= len(indices) < GAMES and len(indices) == len(set(indices))
    assert f"{len(indices)} games in" in out, "stored games differ from the games reported"
    assert "--resume" in err
    check_nothing_left(run.pid)
    check_resume_gives_the_uninterrupted_run(tmp_path, indices)


@needs_ray
@on_linux
@pytest.mark.slow
def test_a_killed_driver_leaves_no_ray_process_and_resume_completes_it(tmp_path: Path) -> None:
    run = start(tmp_path)
    os.kill(run.pid, signal.SIGKILL)
    run.communicate(timeout=30)
    check_nothing_left(run.pid)
    check_resume_gives_the_uninterrupted_run(tmp_path, stored(tmp_path))
