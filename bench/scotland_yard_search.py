"""Benchmark: the Scotland Yard search (``ismcts``), simulations per second, fast against plain.

Decisions at a fixed number of iterations (default 300, no time budget), on turns of seeded games
of uniformly random play (classic edition, 5 detectives, a seat each): detectives' turns and,
with ``--mrx``, Mr. X's too.  At each, the search decides twice with the same seed: with
``impl=plain`` (the baseline: the search layer's generic playout loop through the engine, the
engine's move lists) and with ``impl=fast`` (the default: playouts on plain numbers,
:mod:`sleuth.games.scotland_yard.playouts`, and the detectives' move lists from a cache).  The
two must choose the same move after the same visits to every root move (checked).  Times are the
process's CPU time (less sensitive to a loaded machine than the wall clock), the two
implementations alternating position by position; "vs baseline" divides the fast rate by the
plain one.

The board is the classic map when it is found where the tests look for it
(``tests/games/scotland_yard/helpers.py``), else Sleuth's own board (said in the output).

    .venv/bin/python bench/scotland_yard_search.py [--quick] [--positions N] [--iterations N]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from typing import Any

from _classic_map import the_game
from _report import print_table
from sleuth.core.events import Event, View
from sleuth.core.registry import game_spec
from sleuth.games.scotland_yard.rules import MRX, ScotlandYardGame
from sleuth.search.players import ISMCTSPlayer


def positions(game: ScotlandYardGame, count: int, mrx: bool) -> list[View]:
    """``count`` views of the seat to move, about one turn in four of seeded random games
    (Mr. X's turns only with ``mrx``); each has more than one legal move."""
    found: list[View] = []
    seed = 0
    while len(found) < count:
        rng = random.Random(seed)
        state = game.new_initial_state()
        events: list[Event] = list(state.apply(state.sample_chance(rng)))
        while not state.is_terminal() and len(found) < count:
            seat = state.current_player()
            wanted = mrx or seat != MRX
            if wanted and len(state.legal_actions()) > 1 and rng.random() < 0.25:
                seen = [e.seen_by(seat) for e in events]
                found.append(View(seat, game.roles[seat], game.public_info(), seen))
            events += state.apply(rng.choice(state.legal_actions()))
        seed += 1
    return found


def decide(game: ScotlandYardGame, view: View, seed: int, options: dict[str, str]) -> Any:
    """The search's move at ``view``, the root's visits per move and the CPU seconds taken."""
    spec = next(b for b in game_spec("scotland-yard").bots if b.name == "ismcts")
    bot = spec.configured(options, "scotland-yard").make(game, view.seat, seed)
    assert isinstance(bot, ISMCTSPlayer)
    # the seat's legal moves are the same in every world of its view
    legal = bot.model.sampler(game, view).sample_state(random.Random(0)).legal_actions()
    started = time.process_time()
    move = bot.act(view, legal)
    elapsed = time.process_time() - started
    assert bot.root is not None
    visits = sorted((str(a), e.visits) for a, e in bot.root.edges.items())
    return move, visits, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few positions (smoke test)")
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--mrx", action="store_true", help="Mr. X's turns as well")
    args = parser.parse_args()
    count = 3 if args.quick else args.positions
    game, board_name = the_game()
    print(f"Python {platform.python_version()} on {platform.machine()}; "
          f"load average {os.getloadavg()[0]:.1f}; board: {board_name}")  # fmt: skip
    common = {"iterations": str(args.iterations), "seconds": "0"}
    views = positions(game, count, args.mrx)
    decide(game, views[0], 0, {**common, "impl": "fast"})  # the distance tables: not timed
    times: dict[str, list[float]] = {"plain": [], "fast": []}
    for i, view in enumerate(views):
        chosen = {}
        for impl in ("plain", "fast"):
            move, visits, elapsed = decide(game, view, i, {**common, "impl": impl})
            chosen[impl] = (move, visits)
            times[impl].append(elapsed)
        assert chosen["plain"] == chosen["fast"], f"position {i}: {chosen}"
    rate = {impl: args.iterations / statistics.median(t) for impl, t in times.items()}
    print(f"\n{len(views)} decisions at iterations = {args.iterations}: the same moves and visits")
    print_table(
        ["implementation", "median ms", "simulations/s", "vs baseline"],
        [
            [
                "plain (baseline)" if impl == "plain" else "fast",
                f"{statistics.median(t) * 1e3:,.1f}",
                f"{rate[impl]:,.0f}",
                f"{rate[impl] / rate['plain']:.2f}x",
            ]
            for impl, t in times.items()
        ],
    )
    print(f"ratio of total times: {sum(times['plain']) / sum(times['fast']):.2f}x")


if __name__ == "__main__":
    main()
