"""Benchmark: the Camel Up bots' time per decision, strong against greedy, in one process.

The decisions are the player turns of seeded games between four ``ev`` bots (1st edition),
each taken as seat to move sees it (its :class:`InferringTracker` replays its view, so the
hidden cards it has inferred are in place).  For each decision we time

* ``ev``: :func:`advise` (exact leg and race odds, every action's expected coins), the whole of
  the greedy bot's decision and the baseline;
* ``strong``: :func:`advise` with the inferred cards plus :func:`strong_values` (denial with
  the roll's chance expectation, threat, risk), the strong bot's decision;
* ``inference``: the belief about one hidden card (one race-odds query and five card values),
  paid once per hidden card placed.

"vs baseline" divides ``ev``'s median by the method's (below 1: slower).  The Camel Up Cup's strong
house bots average 83–236 ms per move (the published figures of ``docs/camel-up.md``).

    .venv/bin/python bench/camel_up_bots.py [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from _report import print_table
from sleuth.core.events import Event
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec
from sleuth.games.camel_up.advice import advise
from sleuth.games.camel_up.belief import InferringTracker
from sleuth.games.camel_up.bots import warm_up
from sleuth.games.camel_up.rules import CamelState, CamelUpGame
from sleuth.games.camel_up.strategy import Weights, strong_values

Beliefs = dict[tuple[int, int], tuple[float, ...]]
Decision = tuple[CamelState, Beliefs]


def decisions(games: int) -> list[Decision]:
    """Each player turn of ``games`` seeded ev games as its seat observes it: the state and the
    inferred cards."""
    game = CamelUpGame()
    spec = game_spec("camel-up")
    found = []
    for seed in range(games):
        record = run_match(game, [spec.bot("ev")] * 4, seed=seed)
        trackers = [InferringTracker(game, sharpness=3.0) for _ in range(game.players)]
        views: list[list[Event]] = [[] for _ in range(game.players)]
        for step in record.steps:
            if step.seat >= 0:
                tracker = trackers[step.seat]
                state = tracker.update(views[step.seat]).clone()
                found.append((state, dict(tracker.beliefs)))
            for seat, view in enumerate(views):
                view.extend(event.seen_by(seat) for event in step.events)
    return found


def decide(state: CamelState, beliefs: Beliefs, weights: Weights) -> object:
    """The strong bot's decision: advice with the inferred cards, then the adjusted values."""
    values = strong_values(state, advise(state, beliefs=beliefs), beliefs, weights)
    return max(values, key=lambda action: values[action])


def timed(work: Callable[[], object], repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one game (smoke test)")
    args = parser.parse_args()
    games = 1 if args.quick else 8
    warm_up(CamelUpGame())
    found = decisions(games)
    weights = Weights()
    ev: list[float] = []
    strong: list[float] = []
    inference: list[float] = []
    probe = InferringTracker(CamelUpGame(), sharpness=3.0)
    for number, (state, beliefs) in enumerate(found):
        ev.append(min(timed(lambda s=state: advise(s), 3)))
        strong.append(min(timed(lambda s=state, b=beliefs: decide(s, b, weights), 3)))
        if number % 5 == 0:
            probe.state, probe.beliefs = state, beliefs
            inference.append(min(timed(lambda: probe.belief(0), 3)))
    base = statistics.median(ev)
    rows = []
    for name, times in (("ev (advise)", ev), ("strong", strong), ("inference", inference)):
        if not times:
            continue
        median = statistics.median(times)
        rows.append(
            [
                name,
                str(len(times)),
                f"{1000 * median:.2f}",
                f"{1000 * statistics.mean(times):.2f}",
                f"{1000 * max(times):.2f}",
                f"{base / median:.2f}",
            ]
        )
    print(f"{len(found)} decisions from {games} games of four ev bots (1st edition)")
    print_table(["decision", "n", "median ms", "mean ms", "max ms", "vs baseline"], rows)


if __name__ == "__main__":
    main()
