"""Benchmark: the Monte Carlo detective, plain Python against the compiled rollouts.

(a) Decisions at N = 200 rollouts per candidate, depth 5 (the defaults): the detectives'
    turns of seeded games of uniformly random play (classic edition, 5 detectives), each seen
    as the detectives see it (:class:`~sleuth.games.scotland_yard.belief.MrXBelief` and
    :class:`~sleuth.games.scotland_yard.mc.PublicRecord`).  At each, the plain implementation
    (:func:`sleuth.games.scotland_yard.mc.decide`, the baseline) and the compiled one
    (:func:`sleuth.games.scotland_yard.rollouts.decide`) decide with the same seed; their moves
    and scores must be identical (checked).  "vs baseline" divides the plain median time by
    the compiled one (above 1: faster).
(b) Whole games through the match runner (:func:`~sleuth.core.match.run_match`): ``random``
    against ``random``, and a ``random`` Mr. X against the ``mc`` detectives (default options),
    in games per second, with the detectives' win rate and ``mc``'s time per move.

The board is the classic map when it is found where the tests look for it
(``tests/games/scotland_yard/helpers.py``), else Sleuth's own board (said in the output).

    .venv/bin/python bench/scotland_yard_mc.py [--quick] [--positions N] [--games N]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time

from _classic_map import the_game
from _report import print_table
from sleuth.core.compiled import COMPILED
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec
from sleuth.games.scotland_yard import mc, rollouts
from sleuth.games.scotland_yard.belief import MrXBelief
from sleuth.games.scotland_yard.rules import ScotlandYardGame


def positions(game: ScotlandYardGame, count: int) -> list[mc.Position]:
    """``count`` detectives' turns, about one in four of seeded random games."""
    found: list[mc.Position] = []
    seed = 0
    while len(found) < count:
        rng = random.Random(seed)
        state = game.new_initial_state()
        belief = MrXBelief(game)
        record = mc.PublicRecord(game)
        events = state.apply(state.sample_chance(rng))
        while len(found) < count:
            for event in events:
                belief.update(event.seen_by(1))
                record.read(event.seen_by(1))
            if state.is_terminal():
                break
            if state.to_move >= 0 and rng.random() < 0.25:
                assert belief.tracker is not None
                found.append(record.position(belief.tracker.possible))
            events = state.apply(rng.choice(state.legal_actions()))
        seed += 1
    return found


def decisions(found: list[mc.Position]) -> tuple[list[float], list[float], int]:
    """Seconds per decision of the plain and the compiled implementation, and the number of
    candidate moves in all; the two must decide alike."""
    plain_times, fast_times, candidates = [], [], 0
    for i, position in enumerate(found):
        params = mc.MCParams(seed=i)
        started = time.perf_counter()
        fast = rollouts.decide(position, params)
        fast_times.append(time.perf_counter() - started)
        started = time.perf_counter()
        plain = mc.decide(position, params)
        plain_times.append(time.perf_counter() - started)
        assert plain == fast, f"position {i}: {plain} != {fast}"
        candidates += len(plain.candidates)
    return plain_times, fast_times, candidates


def games(game: ScotlandYardGame, detectives: str, count: int) -> tuple[float, float, float]:
    """Games per second of a random Mr. X against ``detectives``, their win rate, and their
    median seconds per move."""
    spec = {b.name: b for b in game_spec("scotland-yard").bots}
    bots = [spec["random"], spec[detectives]]
    bots[1].warm()
    wins = 0
    moves: list[float] = []
    started = time.perf_counter()
    for seed in range(count):
        record = run_match(game, bots, seed)
        assert not record.forfeits and record.result is not None
        wins += record.result.winners == ("detectives",)
        moves += record.thinking[1]
    elapsed = time.perf_counter() - started
    return count / elapsed, wins / count, statistics.median(moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few positions (smoke test)")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    count, played = (3, 2) if args.quick else (args.positions, args.games)
    game, board_name = the_game()
    backend = "Numba kernels" if COMPILED else "plain Python (Numba not installed)"
    print(f"Python {platform.python_version()} on {platform.machine()}; {backend}; "
          f"load average {os.getloadavg()[0]:.1f}; board: {board_name}")  # fmt: skip

    rollouts.warm_up()
    rollouts.board_arrays(game.board)  # built once per board (its distances too): not timed
    found = positions(game, count)
    plain, fast, candidates = decisions(found)
    base = statistics.median(plain)
    print(f"\n(a) {len(found)} decisions at N = 200, depth = 5 ({candidates / len(found):.1f} "
          "candidate moves on average): the same moves and scores")  # fmt: skip
    print_table(
        ["implementation", "median ms", "worst ms", "vs baseline"],
        [
            ["plain (baseline)", f"{base * 1e3:,.1f}", f"{max(plain) * 1e3:,.1f}", "1.0x"],
            [
                "compiled rollouts",
                f"{statistics.median(fast) * 1e3:,.2f}",
                f"{max(fast) * 1e3:,.2f}",
                f"{base / statistics.median(fast):,.0f}x",
            ],
        ],
    )
    print(f"ratio of total times: {sum(plain) / sum(fast):,.0f}x")

    rows = []
    for detectives in ("random", "mc"):
        per_second, won, move = games(game, detectives, played)
        rows.append(
            [
                f"random Mr. X vs {detectives}",
                f"{per_second:,.1f}",
                f"{won:.0%}",
                f"{move * 1e3:.2f}",
            ]
        )
    print(f"\n(b) {played} games each through the match runner")
    print_table(["players", "games/s", "detectives win", "detective ms/move"], rows)


if __name__ == "__main__":
    main()
