"""Benchmark: the Marshal's posterior under a known Fugitive strategy, at the Manhunt.

For each game (the heuristic Fugitive against the belief Marshal without the look ahead: the
first six games of ``sleuth play fugitive --bots heuristic,belief:lookahead=false -n 10000
--seed 99 -o max_rounds=50``, games 354, 453, 1019, 5164, 8140 and 9115, where her own odds
lost the Manhunt), the Marshal's view is cut where the Manhunt starts, and the
probability of each set of face-down hideouts given the heuristic Fugitive's strategy is
computed by:

(a) ``exact``: :class:`~sleuth.games.fugitive.deduction.opponent.StrategyBelief`, read at once from
the
    start (the belief Marshal with ``opponent=heuristic`` does this at her first uncertain
    Manhunt guess, then reads only the new events);
(b) ``baseline``: a plain particle filter of ``--particles`` games (``_particle_fugitive.py``),
    the usual way to track a known opponent: an estimate, which can lose every particle.

It prints the time of each, the ratio (baseline time / exact time: above 1, exact is faster),
the number of hands and routes the exact answer weighs, and the baseline's error: the total
variation distance from the exact answer (1 when it lost every particle).

    .venv/bin/python bench/fugitive_opponent.py [--quick] [--particles 2000]
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from _particle_fugitive import face_down_sets
from _report import print_table
from sleuth.core.events import Event
from sleuth.core.match import run_match
from sleuth.games.fugitive import SPEC
from sleuth.games.fugitive.deduction.opponent import StrategyBelief
from sleuth.games.fugitive.players.fugitives import BLUFF, HeuristicFugitive
from sleuth.games.fugitive.rules import FUGITIVE, MARSHAL, FugitiveGame

SEEDS = (
    3199840145693738,
    3453696890559247333,
    7075680144286570626,
    5715956213912807889,
    8408290864910025793,
    8287035516510166743,
)
"""The games' seeds (``derive_seed(99, "game", i)``); each reaches a Manhunt, else the
benchmark stops with an error naming it."""


def manhunt_view(game: FugitiveGame, seed: int) -> list[Event]:
    marshal = SPEC.bot("belief:lookahead=false")  # as when these seeds were picked
    record = run_match(game, [SPEC.bot("heuristic"), marshal], seed, None)
    events = [e.seen_by(MARSHAL) for step in record.steps for e in step.events]
    manhunt = next((i for i, e in enumerate(events) if e.kind == "manhunt"), None)
    if manhunt is None:
        raise SystemExit(f"the game of seed {seed} has no Manhunt: pick the seeds again")
    return events[: manhunt + 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one game, 200 particles (smoke test)")
    parser.add_argument("--particles", type=int, default=2000)
    args = parser.parse_args()
    if args.quick:
        args.particles = 200
    game = SPEC.make({"max_rounds": 50})
    assert isinstance(game, FugitiveGame)
    fugitive = HeuristicFugitive(game, FUGITIVE, 0, BLUFF)
    rows = []
    totals = [0.0, 0.0]
    for seed in SEEDS[:1] if args.quick else SEEDS:
        events = manhunt_view(game, seed)
        started = time.perf_counter()
        belief = StrategyBelief(game, fugitive)
        belief.update(events)
        exact_time = time.perf_counter() - started
        exact = belief.face_down_sets()
        started = time.perf_counter()
        estimate = face_down_sets(game, events, fugitive, args.particles, random.Random(seed))
        filter_time = time.perf_counter() - started
        error = (
            sum(
                abs(exact.get(s, 0.0) - estimate.get(s, 0.0))
                for s in exact.keys() | estimate.keys()
            )
            / 2
        )
        totals[0] += exact_time
        totals[1] += filter_time
        rows.append(
            [
                str(seed),
                str(len(belief.states)),
                f"{exact_time:.2f} s",
                f"{filter_time:.2f} s",
                f"{filter_time / exact_time:.2f}x",
                "lost every particle" if not estimate else f"{error:.3f}",
            ]
        )
    print(f"Python {platform.python_version()}, {args.particles} particles")
    header = ["game seed", "hands x routes", "exact", "baseline", "ratio", "baseline error (TV)"]
    print_table(header, rows)
    exact_time, filter_time = totals
    ratio = filter_time / exact_time
    print(f"all games: exact {exact_time:.2f} s, baseline {filter_time:.2f} s, ratio {ratio:.2f}x")


if __name__ == "__main__":
    main()
