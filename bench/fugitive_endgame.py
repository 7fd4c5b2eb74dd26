"""Benchmark: the Marshal's look ahead before 42 and her Manhunt expectimax.

The belief Marshal plays the heuristic Fugitive on games (seeds of the 100,000-game run
``sleuth play fugitive --bots heuristic,belief:opponent=heuristic -n 100000 --seed 99 -o
max_rounds=50`` where, before the look ahead, she lost), once from her own odds (``belief``)
and once knowing his strategy (``belief:opponent=heuristic``).  Every time 42 may come next
she scores her options (:func:`~sleuth.games.fugitive.deduction.endgame.best_before_42`); those
problems are recorded, then solved again by:

(a) ``fast``: :mod:`sleuth.games.fugitive.deduction.endgame`: routes that become the same once a
hideout
    is shown are merged, and the sub-problems solved are remembered for the options of one
    decision;
(b) ``baseline``: the same expectimax written plainly (``_plain_endgame.py``), a textbook
    recursion over the list of routes.

Both must give the same chances (checked).  It prints the time of each and the ratio (baseline
time / fast time: above 1, fast is faster), then what the look ahead costs a whole game: the
mean time of a game with and without it (``lookahead=false``).

    .venv/bin/python bench/fugitive_endgame.py [--quick]
"""

from __future__ import annotations

import argparse
import platform
import time
from typing import Any

import _plain_endgame
from _report import print_table
from sleuth.core.match import run_match
from sleuth.games.fugitive import SPEC
from sleuth.games.fugitive.deduction import advice
from sleuth.games.fugitive.deduction.endgame import Routes, best_before_42

SEEDS = (
    1929535862749209168,
    445582381743035112,
    5715956213912807889,
    3109802000669830902,
    3553405385516563887,
    8406533103158565922,
    3357240297302792809,
    3999222025644622402,
    5014867779188015600,
    2108333288703569200,
    7140506754513285687,
    8546455763121333094,
)
MARSHALS = ("belief", "belief:opponent=heuristic")

Problem = tuple[Routes, int, tuple[int, ...]]


def record_problems(game: Any, seeds: tuple[int, ...], marshal: str) -> tuple[list[Problem], float]:
    """The look-ahead problems her games pose, and the time of those games."""
    problems: list[Problem] = []

    def recording(routes: Routes, threshold: int, preferred: tuple[int, ...] = ()) -> Any:
        found = best_before_42(routes, threshold, preferred)  # over budget: not a problem
        problems.append((routes, threshold, preferred))
        return found

    advice.best_before_42 = recording  # type: ignore[assignment]
    try:
        started = time.perf_counter()
        for seed in seeds:
            run_match(game, [SPEC.bot("heuristic"), SPEC.bot(marshal)], seed, None)
        return problems, time.perf_counter() - started
    finally:
        advice.best_before_42 = best_before_42  # type: ignore[assignment]


def game_time(game: Any, seeds: tuple[int, ...], marshal: str) -> float:
    started = time.perf_counter()
    for seed in seeds:
        run_match(game, [SPEC.bot("heuristic"), SPEC.bot(marshal)], seed, None)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two games (smoke test)")
    args = parser.parse_args()
    seeds = SEEDS[:2] if args.quick else SEEDS
    game = SPEC.make({"max_rounds": 50})
    rows = []
    game_time(game, seeds[:1], "belief")  # warm up: the first counts compile
    for marshal in MARSHALS:
        problems, with_lookahead = record_problems(game, seeds, marshal)
        without = game_time(game, seeds, f"{marshal}:lookahead=false")
        started = time.perf_counter()
        fast = [best_before_42(*problem) for problem in problems]
        fast_time = time.perf_counter() - started
        started = time.perf_counter()
        plain = [_plain_endgame.best_before_42(list(r), t, p) for r, t, p in problems]
        plain_time = time.perf_counter() - started
        for (_, a), (_, b) in zip(fast, plain, strict=True):
            assert abs(a - b) < 1e-9, (a, b)
        routes = max((len(r) for r, _, _ in problems), default=0)
        rows.append(
            [
                marshal,
                str(len(problems)),
                str(routes),
                f"{fast_time:.3f} s",
                f"{plain_time:.3f} s",
                f"{plain_time / max(fast_time, 1e-9):.1f}x",
                f"{with_lookahead / len(seeds):.2f} s",
                f"{without / len(seeds):.2f} s",
            ]
        )
    print(f"Python {platform.python_version()}, {len(seeds)} games per Marshal")
    header = [
        "Marshal",
        "problems",
        "most routes",
        "fast",
        "baseline",
        "ratio",
        "game, look ahead",
        "game, without",
    ]
    print_table(header, rows)


if __name__ == "__main__":
    main()
