"""Benchmark: random Fox in a Hole games per second (P5, 6-day limit, random hunter vs random fox).

Three ways to play the same game, all in this process:

(a) ``sleuth direct``: Sleuth's rules engine driven by a bare loop (``new_initial_state``,
    ``current_player``, ``legal_actions``, a random choice, ``apply``); no match runner.  The
    random fox chooses among the committed moves (``hole h``), as the ``random`` fox bot does,
    never the uncommitted ``hide``.
(b) ``sleuth run_match``: the full match runner with the registered ``random`` bots (views,
    events, legality checks, per-move time limits).
(c) ``baseline``: a minimal plain-Python engine written for this benchmark: one small class
    with ``__slots__``, integer actions, the fox's hole as an int; the same bare loop as (a)
    drives it.  Day t: the hunter inspects one hole (X3), then an uncaught fox moves to a
    random neighbour (X4).  The published reference figure for such an engine is about
    79,000 games/s (586,000 steps/s) on a 2-core machine with Python 3.11.

A step is one applied action (the fox hiding, an inspection, a night move).  Each method plays
several rounds, interleaved with the others, and the best round is reported.  The catch rate
is printed as a check that the three play the same game (a published measurement: 75.5%
over 200 games).

    .venv/bin/python bench/fox_games.py [--quick]
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable

from _report import print_table
from sleuth.core.match import run_match
from sleuth.games.fox import SPEC
from sleuth.games.fox.graph import path
from sleuth.games.fox.rules import FOX, FoxGame

HOLES = 5
DAYS = 6
REFERENCE_GAMES_PER_S = 79_000
"""The published figure for a plain-Python engine on a 2-core machine (games/s)."""

# ---------------------------------------------------------------------------------------------
# (c) Baseline: a minimal plain-Python engine
# ---------------------------------------------------------------------------------------------


class PlainFox:
    """Fox in a Hole on a fixed graph: seat 0 hunts, seat 1 is the fox; actions are holes."""

    __slots__ = ("adjacency", "caught", "day", "fox", "holes", "limit", "over", "to_move")

    def __init__(self, adjacency: list[tuple[int, ...]], limit: int) -> None:
        self.adjacency = adjacency
        self.holes = tuple(range(len(adjacency)))
        self.limit = limit
        self.fox = -1  # not hidden yet
        self.day = 1
        self.to_move = 1  # the fox hides first
        self.caught = False
        self.over = False

    def legal_actions(self) -> tuple[int, ...]:
        if self.over:
            return ()
        if self.to_move == 0 or self.fox < 0:
            return self.holes
        return self.adjacency[self.fox]

    def apply(self, action: int) -> None:
        if self.to_move == 1:  # the fox hides (before day 1) or moves at night
            self.fox = action
            self.to_move = 0
        elif action == self.fox:  # the hunter inspects the fox's hole
            self.caught = self.over = True
        elif self.day >= self.limit:
            self.over = True
        else:
            self.day += 1
            self.to_move = 1


def plain_adjacency(n: int) -> list[tuple[int, ...]]:
    return [tuple(j for j in (i - 1, i + 1) if 0 <= j < n) for i in range(n)]


def play_baseline(games: int, seed: int) -> tuple[int, int]:
    """Play ``games`` random games; return (steps, catches)."""
    rng = random.Random(seed)
    choice = rng.choice
    adjacency = plain_adjacency(HOLES)
    steps = catches = 0
    for _ in range(games):
        state = PlainFox(adjacency, DAYS)
        while not state.over:
            state.apply(choice(state.legal_actions()))
            steps += 1
        catches += state.caught
    return steps, catches


# ---------------------------------------------------------------------------------------------
# (a) Sleuth's engine, driven directly; (b) the match runner
# ---------------------------------------------------------------------------------------------

GAME = FoxGame(path(HOLES), k=1, lazy=False, days=DAYS)


def play_direct(games: int, seed: int) -> tuple[int, int]:
    rng = random.Random(seed)
    choice = rng.choice
    steps = catches = 0
    for _ in range(games):
        state = GAME.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.current_player() == FOX:
                legal = [a for a in legal if a.hole is not None]  # a random fox commits
            state.apply(choice(legal))
            steps += 1
        catches += state.caught
    return steps, catches


RANDOM_BOT = SPEC.bot("random")


def play_runner(games: int, seed: int) -> tuple[int, int]:
    steps = catches = 0
    bots = [RANDOM_BOT, RANDOM_BOT]
    for i in range(games):
        record = run_match(GAME, bots, seed * 1_000_003 + i)
        assert not record.forfeits, record.forfeits
        steps += record.length
        catches += record.wins[0] == 1.0
    return steps, catches


# ---------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few hundred games (smoke test)")
    parser.add_argument("--seconds", type=float, default=4.0, help="target seconds per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per method (best kept)")
    args = parser.parse_args()
    seconds, rounds = (0.1, 1) if args.quick else (args.seconds, args.rounds)

    methods: dict[str, Callable[[int, int], tuple[int, int]]] = {
        "sleuth direct": play_direct,
        "sleuth run_match": play_runner,
        "baseline (plain, __slots__)": play_baseline,
    }
    # Calibrate a round size per method from a short trial.
    sizes = {}
    for name, play in methods.items():
        t0 = time.perf_counter()
        play(200, 0)
        rate = 200 / (time.perf_counter() - t0)
        sizes[name] = max(100, int(rate * seconds))

    best: dict[str, float] = dict.fromkeys(methods, 0.0)
    best_steps: dict[str, float] = dict.fromkeys(methods, 0.0)
    totals = {name: [0, 0, 0] for name in methods}  # games, steps, catches
    for r in range(rounds):
        for name, play in methods.items():
            games = sizes[name]
            t0 = time.perf_counter()
            steps, catches = play(games, r + 1)
            dt = time.perf_counter() - t0
            if games / dt > best[name]:
                best[name] = games / dt
                best_steps[name] = steps / dt
            totals[name][0] += games
            totals[name][1] += steps
            totals[name][2] += catches

    base = best["baseline (plain, __slots__)"]
    print(
        f"Random Fox games, P{HOLES}, {DAYS}-day limit, random hunter vs random fox "
        f"(Python {platform.python_version()}; best of {rounds} round(s) of ~{seconds:g} s)"
    )
    print()
    header = ["method", "games/s", "steps/s", "vs baseline", "vs 79k ref", "games", "steps/game",
              "caught"]  # fmt: skip
    rows = []
    for name in methods:
        games, steps, catches = totals[name]
        rows.append(
            [
                name,
                f"{best[name]:,.0f}",
                f"{best_steps[name]:,.0f}",
                f"{best[name] / base:.3f}x",
                f"{best[name] / REFERENCE_GAMES_PER_S:.3f}x",
                f"{games:,}",
                f"{steps / games:.2f}",
                f"{100 * catches / games:.1f}%",
            ]
        )
    print_table(header, rows)
    print()
    print("vs baseline = games/s divided by the baseline's games/s (below 1: slower).")
    print("vs 79k ref = games/s divided by the published reference figure (79,000 games/s).")
    exact = 100 * (1 - (1 - 1 / HOLES) ** DAYS)
    print(
        f"Exact catch rate: 1 - (1 - 1/{HOLES})^{DAYS} = {exact:.1f}% (a uniformly random "
        "inspection catches any fox with probability 1/n each day)."
    )


if __name__ == "__main__":
    main()
