"""Benchmark: `sleuth report` on a 100,000-game results file, DuckDB SQL vs plain Python.

The store holds one fox run (random vs random on path:5): ``--base`` real games played once,
then copied in SQL (new game indices, the same rows otherwise) up to ``--games``.  Timed, best
of ``--rounds``, each a fresh read of the file:

- ``sql``: :func:`sleuth.arena.report.read_report`, the report's tables (DuckDB does the
  counting; the game's sides are read once per run);
- ``python``: the baseline, the same figures in plain Python: every game loaded as a
  ``GameRow`` (:func:`sleuth.arena.store.find_run`), ``Tournament.standings`` (the table
  ``sleuth play`` prints), a ``Counter`` of lengths and ``statistics.quantiles``;
- ``page``: the whole command, :func:`sleuth.arena.report_page.write_report` (the tables, the
  Matplotlib plots and the HTML page).

The SQL tables are checked equal to the baseline's (games, wins, moves per bot and side).

    .venv/bin/python bench/report.py [--quick] [--games N] [--base B] [--rounds R]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import duckdb

from _report import print_table
from sleuth.arena import store
from sleuth.arena.report import read_report
from sleuth.arena.report_page import write_report
from sleuth.arena.tournament import Tournament, run_tournament
from sleuth.core.match import DEFAULT_TIME_LIMIT

BOTS = ["random", "random"]
OPTIONS = {"graph": "path:5"}


def make_store(db: Path, base: int, games: int) -> Tournament:
    """A store of one run of ``games`` games: ``base`` played, copied up to ``games``."""
    played = run_tournament("fox", BOTS, base, seed=1, options=OPTIONS, workers=1)
    played.requested = games
    store.begin(db, played, datetime.now(), "bench", DEFAULT_TIME_LIMIT)
    store.add_games(db, played.run_id, played.game, played.options, played.rows)
    copies = -(-games // base)
    with duckdb.connect(str(db)) as con:
        con.execute(
            "INSERT INTO games SELECT g.* REPLACE (g.game_index + k * ? AS game_index) "
            "FROM games AS g, range(1, ?) AS r(k) WHERE g.game_index + k * ? < ?",
            [base, copies, base, games],
        )
        con.execute("UPDATE runs SET status = 'finished'")
    return played


def python_report(db: Path, played: Tournament, games: int) -> Tournament:
    """The baseline: load every game into Python and aggregate there."""
    found = store.find_run(db, "fox", played.options, played.seed, BOTS, games, DEFAULT_TIME_LIMIT)
    t = Tournament(found.run_id, "fox", played.options, played.seed, tuple(BOTS), 1, found.rows)
    t.standings()
    lengths = [row.length for row in found.rows]
    Counter(lengths)
    statistics.quantiles(lengths, n=4)
    return t


def best(rounds: int, work: Callable[[], object]) -> float:
    """The fastest of ``rounds`` runs of ``work``, in wall seconds."""
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        work()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2,000 games, one round")
    parser.add_argument("--games", type=int, default=100_000, help="games in the store")
    parser.add_argument("--base", type=int, default=1_000, help="games played (then copied)")
    parser.add_argument("--rounds", type=int, default=3, help="runs per method (best kept)")
    args = parser.parse_args()
    games, base, rounds = (2_000, 200, 1) if args.quick else (args.games, args.base, args.rounds)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.duckdb"
        played = make_store(db, base, games)
        (sql,) = read_report(db)
        baseline = python_report(db, played, games)
        expected = [(s.bot, s.side, s.games, s.wins, s.moves) for s in baseline.standings()]
        assert [(s.bot, s.side, s.games, s.wins, s.moves) for s in sql.by_side] == expected
        assert sql.games == games
        write_report(db, Path(folder) / "out")  # imports Matplotlib, builds its font cache
        seconds = {
            "python": best(rounds, lambda: python_report(db, played, games)),
            "sql": best(rounds, lambda: read_report(db)),
            "page": best(rounds, lambda: write_report(db, Path(folder) / "out")),
        }
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, "
        f"load average {load}; best of {rounds} round(s), wall clock"
    )
    print(f"fox {BOTS[0]} v {BOTS[1]}, {OPTIONS['graph']}: {games:,} games in the store")
    rows = [[name, f"{s:.3f}", f"{seconds['python'] / s:.1f}x"] for name, s in seconds.items()]
    print_table(["method", "seconds", "vs baseline"], rows)


if __name__ == "__main__":
    main()
