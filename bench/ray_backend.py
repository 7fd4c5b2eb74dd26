"""Benchmark: a local Ray cluster against the process backend, and a Ray run stopped and resumed.

Throughput: ``run_tournament("camel-up", ["random"] * 4, N, workers=2)`` (two worker
processes) against the same tournament with ``backend="ray"`` on a local Ray cluster of 2 CPUs
started once beforehand (its start-up is shown apart, as the pool's is part of every process
run).  Games per second on the wall clock, best of ``--rounds``; the two must give the same
games (asserted, measured times aside).  The control runs a pure-Python work unit without
Sleuth in-process, on a 2-process pool and as Ray tasks: the pool's speed-up is the parallelism
the machine offered, and Ray's against the pool is Ray's own cost on this machine.  The issue's
target is Ray within 20% of the process backend (a ratio of at least 0.80).

Stop and resume: ``sleuth play camel-up --backend ray`` of ``--resume-games`` games (2,000 by
default; the issue's 100,000 with ``--resume-games 100000``) gets Ctrl-C part way, then the
same command with ``--resume`` finishes it; its stored games must be exactly the games of an
uninterrupted ``sleuth play`` of the process backend (every column but the measured times).
``--quick`` measures the throughput alone, on a few games (tests/arena/test_ray_backend.py
stops and resumes the real command).

    .venv/bin/python bench/ray_backend.py [--quick] [--games N] [--rounds R] [--resume-games N]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import duckdb
import ray

from _report import print_table
from sleuth.arena.play import GameRow
from sleuth.arena.tournament import run_tournament

BOTS = ["random"] * 4
SPIN = 3_000_000
"""Iterations of the control loop per work unit (about 0.2 s of pure Python)."""
SLEUTH = str(Path(sys.executable).with_name("sleuth"))
COLUMNS = "game_index, seed, bots, roles, outcome, returns, wins, length, forfeits, actions, " + (
    "winners, termination"
)
"""The stored columns that do not depend on timing."""


def spin(n: int) -> int:
    x = 0
    for i in range(n):
        x += i
    return x


def control(units: int) -> dict[str, float]:
    """Work units per second in-process, on a 2-process pool and as Ray tasks."""
    rates = {}
    t0 = time.perf_counter()
    for _ in range(units):
        spin(SPIN)
    rates["in-process"] = units / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=2) as pool:
        list(pool.map(spin, [SPIN] * units))
    rates["processes"] = units / (time.perf_counter() - t0)
    task = ray.remote(spin)
    t0 = time.perf_counter()
    ray.get([task.remote(SPIN) for _ in range(units)])
    rates["ray"] = units / (time.perf_counter() - t0)
    return rates


def timeless(rows: list[GameRow]) -> list[GameRow]:
    return [
        dataclasses.replace(
            r, duration=0.0, thinking=tuple((n, 0.0, 0.0) for n, _, _ in r.thinking)
        )
        for r in rows
    ]


def throughput(games: int, rounds: int) -> dict[str, float]:
    """Games per second of each backend (best of ``rounds``, interleaved)."""
    best: dict[str, float] = {}
    played: dict[str, list[GameRow]] = {}
    for _ in range(rounds):
        for backend in ("processes", "ray"):
            t0 = time.perf_counter()
            t = run_tournament("camel-up", BOTS, games, seed=9, workers=2, backend=backend)  # type: ignore[arg-type]
            rate = games / (time.perf_counter() - t0)
            best[backend] = max(best.get(backend, 0.0), rate)
            played[backend] = timeless(t.rows)
    assert played["ray"] == played["processes"], "Ray played other games"
    return best


def command(db: Path, games: int, *extra: str) -> list[str]:
    return [
        SLEUTH, "play", "camel-up", "--bots", ",".join(BOTS), "-n", str(games), "-w", "2",
        "--seed", "5", "--db", str(db), "--json", *extra,
    ]  # fmt: skip


def stop_and_resume(games: int, folder: Path) -> list[list[str]]:
    """Play ``games`` on Ray, Ctrl-C once its progress line (every 10 s on a pipe) shows 40%
    of them played, resume; compare with an uninterrupted run of the process backend."""
    interrupted, whole = folder / "ray.duckdb", folder / "whole.duckdb"
    t0 = time.perf_counter()
    run = subprocess.Popen(
        command(interrupted, games, "--backend", "ray"), stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    assert run.stderr is not None
    for line in run.stderr:
        progress = re.search(r": ([\d,]+) of [\d,]+ games", line)
        if progress and int(progress.group(1).replace(",", "")) >= 0.4 * games:
            os.killpg(run.pid, signal.SIGINT)
            break
    run.stderr.read()
    code = run.wait()
    first = time.perf_counter() - t0
    assert code == 130, f"the run ended with {code} before 40% of it was reported: play more games"
    with duckdb.connect(str(interrupted), read_only=True) as con:
        (kept,) = con.execute("SELECT count(*) FROM games").fetchone() or (0,)
    t0 = time.perf_counter()
    subprocess.run(command(interrupted, games, "--backend", "ray", "--resume"), check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    second = time.perf_counter() - t0
    t0 = time.perf_counter()
    subprocess.run(command(whole, games), check=True, stdout=subprocess.DEVNULL)
    reference = time.perf_counter() - t0
    with duckdb.connect() as con:
        con.execute(f"ATTACH '{interrupted}' AS a (READ_ONLY)")
        con.execute(f"ATTACH '{whole}' AS b (READ_ONLY)")

        def count(query: str) -> int:
            (n,) = con.execute(f"SELECT count(*) FROM ({query})").fetchone() or (0,)
            return int(n)

        rows = count("SELECT * FROM a.games")
        indices = count("SELECT DISTINCT game_index FROM a.games")
        differ = count(f"SELECT {COLUMNS} FROM a.games EXCEPT ALL SELECT {COLUMNS} FROM b.games")
        differ += count(f"SELECT {COLUMNS} FROM b.games EXCEPT ALL SELECT {COLUMNS} FROM a.games")
        status = con.execute("SELECT status FROM a.runs").fetchall()
    assert rows == indices == games and differ == 0 and status == [("finished",)], (
        rows, indices, differ, status,
    )  # fmt: skip
    return [
        ["Ctrl-C part way (ray)", f"{kept:,} stored", f"{first:.1f} s"],
        ["--resume (ray)", f"{games - kept:,} more: {rows:,} rows", f"{second:.1f} s"],
        ["uninterrupted (processes)", "the same rows", f"{reference:.1f} s"],
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few hundred games (smoke test)")
    parser.add_argument("--games", type=int, default=3_000, help="games per throughput run")
    parser.add_argument("--rounds", type=int, default=3, help="throughput runs (best kept)")
    parser.add_argument("--resume-games", type=int, default=2_000, help="games stopped/resumed")
    args = parser.parse_args()
    games, rounds = (100, 1) if args.quick else (args.games, args.rounds)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())

    t0 = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    startup = time.perf_counter() - t0
    try:
        run_tournament("camel-up", BOTS, 20, workers=2, backend="ray")  # Ray's workers import
        rates = throughput(games, rounds)
        spins = control(2 if args.quick else 8)
    finally:
        ray.shutdown()
    print_table(
        ["camel-up, 4 x random", "games", "processes g/s", "ray g/s", "ray / processes"],
        [
            [
                "2 CPUs", f"{games:,}", f"{rates['processes']:,.0f}", f"{rates['ray']:,.0f}",
                f"{rates['ray'] / rates['processes']:.2f}",
            ],
            [
                "control: pure-Python loop", "units/s", f"{spins['processes']:.2f}",
                f"{spins['ray']:.2f}", f"{spins['ray'] / spins['processes']:.2f}",
            ],
        ],
    )  # fmt: skip
    print(
        f"control: a 2-process pool runs {spins['processes'] / spins['in-process']:.2f}x one "
        f"process; Ray's local cluster started in {startup:.1f} s; load average {load}"
    )
    print()
    if args.quick:  # the stop and resume: tests/arena/test_ray_backend.py
        return
    with tempfile.TemporaryDirectory() as folder:
        table = stop_and_resume(args.resume_games, Path(folder))
    print_table([f"camel-up, {args.resume_games:,} games", "games", "wall"], table)


if __name__ == "__main__":
    main()
