"""Benchmark: the belief Marshal's slowest decision found, now and before it was bounded.

The position is ``tests/games/fugitive/data/slow_marshal_view.json`` (2nd edition, many
hidden sprint cards: 17 candidate values face down).  Her decision there needs the pass over
every candidate value (the whole-route guess and the look ahead before 42), then the
look ahead's expectimax.  Before 2026-11-26 the compiled programme tracked at most 16
numbers, so that pass ran in plain Python; ``before`` repeats that by restoring the old limit.
Both must choose the same guess (checked).  It prints the best of ``--repeat`` timings of
each, the states the pass visits (the same in both programmes), the expectimax's hideout
scans and the machine's load.

    .venv/bin/python bench/fugitive_slow_decision.py [--repeat 5] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path
from typing import Any

from _report import print_table
from sleuth.core.events import Event, View, freeze
from sleuth.games.fugitive import SPEC
from sleuth.games.fugitive.belief import ExactBelief
from sleuth.games.fugitive.deduction import _counting, endgame
from sleuth.games.fugitive.players.marshals import BeliefMarshal
from sleuth.games.fugitive.rules import MARSHAL

DATA = Path(__file__).parent.parent / "tests/games/fugitive/data/slow_marshal_view.json"
OLD_POOL_LIMIT = 16
"""The numbers the compiled programme could track before 2026-11-26."""


def position() -> tuple[Any, View]:
    data = json.loads(DATA.read_text())
    game = SPEC.make(data["options"])
    events = [Event.from_json(e) for e in data["events"]]
    return game, View(MARSHAL, game.roles[MARSHAL], freeze(game.public_info()), events)


def decide(game: Any, view: View) -> tuple[float, tuple[int, ...] | None]:
    marshal = BeliefMarshal(game, MARSHAL, 0, guess="gamble", draw="frontier")
    started = time.perf_counter()
    choice = marshal.choose(view)
    return time.perf_counter() - started, choice


def work(game: Any, view: View) -> tuple[int, int]:
    """(the largest state count of a compiled run, the expectimax's hideout scans)."""
    states: list[int] = []
    solvers: list[endgame.Expectimax] = []
    kernel, solver = _counting.count_worlds, endgame.Expectimax

    def counted(*args: Any) -> Any:
        found = kernel(*args)
        states.append(int(found[0]))
        return found

    class Recorded(solver):  # type: ignore[valid-type, misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            solvers.append(self)

    _counting.count_worlds, endgame.Expectimax = counted, Recorded  # type: ignore[misc]
    try:
        decide(game, view)
    finally:
        _counting.count_worlds, endgame.Expectimax = kernel, solver  # type: ignore[misc]
    return max(states), sum(s.scans for s in solvers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timings of each, the best kept")
    parser.add_argument("--quick", action="store_true", help="one timing of each (smoke test)")
    args = parser.parse_args()
    repeat = 1 if args.quick else args.repeat
    game, view = position()
    decide(game, view)  # warm up: the compiled code loads
    now = min(decide(game, view) for _ in range(repeat))
    states, scans = work(game, view)
    saved = _counting.MAX_EXTRA
    _counting.MAX_EXTRA = OLD_POOL_LIMIT  # the pass over 17 numbers runs in plain Python
    try:
        before = min(decide(game, view) for _ in range(repeat))
    finally:
        _counting.MAX_EXTRA = saved
    assert now[1] == before[1], (now[1], before[1])
    belief = ExactBelief.from_events(view.events, model="frugal")
    pool = set().union(*belief.counts().candidates().values())
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores, load {load}")
    print(
        f"guess {now[1]}; the pass over {len(pool)} candidate values visits {states:,} states "
        f"(either programme); the expectimax scans {scans:,} hideouts"
    )
    print_table(
        ["decision", "now (compiled pass)", "before (plain pass)", "ratio"],
        [["best time", f"{now[0]:.3f} s", f"{before[0]:.3f} s", f"{before[0] / now[0]:.1f}x"]],
    )


if __name__ == "__main__":
    main()
