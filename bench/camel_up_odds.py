"""Benchmark: exact Camel Up odds against the public engines' methods, in one process.

(a) The current leg at position M (rule O9 of ``docs/camel-up-odds.md``:
    ``3:[0] | 4:[1,2] | 6:[3] | 7:[4]``, five dice left): Sleuth's merged enumeration
    (:func:`leg_odds`) against the baseline the public engines use, a naive recursion over every
    die order and value that copies the whole board at each node (published: about 90 ms),
    written plainly below.
(b) The whole race from M, per query once the table is in memory (:func:`game_odds`), against
    Monte Carlo rollouts of the race (:func:`monte_carlo`, 10,000 rollouts); plus a mid-leg
    query with live tiles.
(c) The whole-race table (15,504 shapes): build time, and loading it from its cache file.

Times are per query, the best and the median of repeated runs; "vs baseline" divides the
baseline's median by the method's (above 1: faster than the baseline).  Every method's answer
is checked against the exact one.

    .venv/bin/python bench/camel_up_odds.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _report import print_table
from sleuth.games.camel_up import _kernels
from sleuth.games.camel_up.odds import game_odds, leg_odds, monte_carlo
from sleuth.games.camel_up.race_table import build_table, load_table, save_table
from sleuth.games.camel_up.track import MIRAGE, OASIS, arrangement

M_STACKS = {3: [0], 4: [1, 2], 6: [3], 7: [4]}
M = arrangement(M_STACKS)
S2 = arrangement({0: [0], 1: [1, 2], 2: [3, 4], 14: [5], 15: [6]})
"""The 2nd edition's start shape with the crazy camels on 14 and 15 (a fresh leg)."""
FINISH = 16


def naive_leg(stacks: dict[int, list[int]], dice: list[int]) -> tuple[list[float], list[float]]:
    """The baseline: P(1st) and P(2nd) per camel by recursion over every die and value, copying
    the board (a list of stacks, bottom to top, and each camel's index) at every node and
    scoring every leaf."""
    first = [0.0] * 5
    second = [0.0] * 5

    def recurse(board: list[list[int]], where: list[int], dice: list[int], p: float) -> None:
        q = p / (3 * len(dice))
        for die in dice:
            rest = [d for d in dice if d != die]
            for steps in (1, 2, 3):
                new = [stack[:] for stack in board]
                at = where[:]
                index = at[die]
                height = new[index].index(die)
                unit = new[index][height:]
                del new[index][height:]
                target = min(index + steps, FINISH)
                new[target] += unit
                for camel in unit:
                    at[camel] = target
                if target == FINISH or not rest:
                    ranking = [camel for stack in new for camel in stack]
                    first[ranking[-1]] += q
                    second[ranking[-2]] += q
                else:
                    recurse(new, at, rest, q)

    board: list[list[int]] = [[] for _ in range(FINISH + 1)]
    where = [0] * 5
    for index, stack in stacks.items():
        board[index] = list(stack)
        for camel in stack:
            where[camel] = index
    recurse(board, where, dice, 1.0)
    return first, second


def timed(function: Callable[[], Any], budget: float, most: int) -> tuple[float, float, Any]:
    """Run ``function`` until ``budget`` seconds or ``most`` runs (at least once); return the
    best and median seconds per run and the last result."""
    times = []
    spent = 0.0
    result = None
    while not times or (spent < budget and len(times) < most):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
        spent += times[-1]
    return min(times), statistics.median(times), result


FALLBACK = """
import sys, time
sys.modules["numba"] = None
from sleuth.games.camel_up.odds import leg_odds
from sleuth.games.camel_up.track import arrangement
M = arrangement({3: [0], 4: [1, 2], 6: [3], 7: [4]})
times = []
for _ in range(5):
    start = time.perf_counter()
    leg_odds(M)
    times.append(time.perf_counter() - start)
print(min(times), sorted(times)[2])
"""


def pure_python_leg() -> tuple[float, float]:
    """Best and median seconds of :func:`leg_odds` at M with Numba hidden (a subprocess)."""
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    out = subprocess.run(
        [sys.executable, "-c", FALLBACK], env=env, capture_output=True, text=True, check=True
    )
    best, median = out.stdout.split()
    return float(best), float(median)


def row(name: str, best: float, median: float, baseline: float | None, unit: float) -> list[str]:
    ratio = f"{baseline / median:.1f}x" if baseline is not None else "1.0x"
    return [name, f"{best * unit:,.2f}", f"{median * unit:,.2f}", ratio]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few runs (a smoke test)")
    parser.add_argument("--rollouts", type=int, default=10_000)
    args = parser.parse_args()
    budget, most = (0.2, 3) if args.quick else (3.0, 200)
    rollouts = 1_000 if args.quick else args.rollouts
    backend = "Numba kernels" if _kernels.COMPILED else "plain Python (Numba not installed)"
    print(f"Python {platform.python_version()} on {platform.machine()}; {backend}; "
          f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip

    # (c) first, then a first leg_odds loads the kernels (the table is built with NumPy alone).
    start = time.perf_counter()
    table = build_table()
    first_build = time.perf_counter() - start
    leg_odds(M)
    build_best, build_median, _ = timed(build_table, budget * 3, 3 if args.quick else 10)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "table.npz"
        save_table(table, path)
        size = path.stat().st_size
        load_best, load_median, loaded = timed(lambda: load_table(path), budget, 20)
    assert loaded is not None and (loaded.joint == table.joint).all()

    # (a) the current leg at M.
    exact = leg_odds(M)
    base_best, base_median, (first, second) = timed(
        lambda: naive_leg(M_STACKS, [0, 1, 2, 3, 4]), budget * 3, 10
    )
    agree = max(
        abs(a - b) for a, b in zip([*first, *second], [*exact.first, *exact.second], strict=True)
    )
    leg_best, leg_median, _ = timed(lambda: leg_odds(M), budget, most * 10)
    leg_rows = [
        row("naive copying recursion (baseline)", base_best, base_median, None, 1e3),
        row("sleuth leg_odds (merged)", leg_best, leg_median, base_median, 1e3),
    ]
    two_best, two_median, _ = timed(lambda: leg_odds(S2, edition=2), budget, most)
    leg_rows.append(row("sleuth leg_odds, 2nd edition, 6 dice", two_best, two_median, None, 1e3))
    leg_rows[-1][-1] = "-"
    if not args.quick and _kernels.COMPILED:
        pure_best, pure_median = pure_python_leg()
        leg_rows.append(
            row("sleuth leg_odds, without Numba", pure_best, pure_median, base_median, 1e3)
        )
    print("\n(a) exact odds of the current leg at M, 5 dice (29,160 leaves); 2nd edition: the")
    print("    start 0:[0] | 1:[1,2] | 2:[3,4] | 14:[white] | 15:[black], 6 dice (320,760 leaves)")
    print_table(["method", "best ms", "median ms", "vs baseline"], leg_rows)
    print(f"largest difference from the baseline's P(1st), P(2nd): {agree:.1e}")

    # (b) the whole race.
    tiles = {9: OASIS, 12: MIRAGE}
    exact_game = game_odds(M, table=table)
    mc_best, mc_median, sampled = timed(
        lambda: monte_carlo(M, rollouts=rollouts, seed=1), budget * 3, 5
    )
    worst = max(abs(a - b) for a, b in zip(exact_game.win, sampled.win, strict=True))
    game_best, game_median, _ = timed(lambda: game_odds(M, table=table), budget, most * 10)
    mid_best, mid_median, _ = timed(
        lambda: game_odds(M, 0b10110, tiles, table=table), budget, most * 10
    )
    print("\n(b) whole-race odds from M, per query (table in memory)")
    print_table(
        ["method", "best ms", "median ms", "vs baseline"],
        [
            row(f"Monte Carlo, {rollouts:,} rollouts (baseline)", mc_best, mc_median, None, 1e3),
            row("sleuth game_odds, fresh leg", game_best, game_median, mc_median, 1e3),
            row("sleuth game_odds, 3 dice left, 2 tiles", mid_best, mid_median, mc_median, 1e3),
        ],
    )
    print(f"largest |MC - exact| P(win): {worst:.4f} (MC standard error at most "
          f"{(0.25 / rollouts) ** 0.5:.4f})")  # fmt: skip

    print(f"\n(c) whole-race table, 15,504 shapes ({size / 1e6:.1f} MB on disk)")
    print_table(
        ["step", "best ms", "median ms"],
        [
            row("build, first call in this process", first_build, first_build, None, 1e3)[:3],
            row("build, warm", build_best, build_median, None, 1e3)[:3],
            row("load from the cache file (checksum)", load_best, load_median, None, 1e3)[:3],
        ],
    )
    print("\npublished figures (docs/camel-up.md): naive copying recursion 90 ms, camel-up-solver")
    print("MC 10k runs 297 ms, exact trapless table 7 min build (reported)")


if __name__ == "__main__":
    main()
