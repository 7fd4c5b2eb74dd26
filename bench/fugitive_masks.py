"""Benchmark: Fugitive legal-action masks for the fixed-size encoding (what an RL step costs).

The positions are every decision of random games (the registered ``random`` bots, seeds 0..N,
1st edition, ``max_rounds=50``).  At each one a legal action is chosen and its id sequence
is built step by step; before every step the mask of what may come next is computed, as an
RL agent would.  Two methods compute the same masks, in this process:

(a) ``builder``: :class:`ActionBuilder` (closed-form reach for placements, increasing-order
    names for guesses; only the opening, a small hand, is listed).
(b) ``baseline``: the plain way: list ``state.legal_actions()``, encode every action, keep the
    next id of those that start with the prefix.  Fugitive hands can have millions of
    placements and guesses 2^41 - 1 sets, so the baseline is only run on positions with at
    most 5,000 legal actions; (a) is timed on the same positions for the ratio, and once more
    on all positions.

Both methods must agree on every mask (checked).  Each method runs several rounds, the best
is kept.

    .venv/bin/python bench/fugitive_masks.py [--quick]
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable

from _report import print_table
from sleuth.core.events import View
from sleuth.core.game import CHANCE
from sleuth.games.fugitive.bots import RandomPlayer
from sleuth.games.fugitive.engine.encoding import ActionBuilder, encode
from sleuth.games.fugitive.rules import FugitiveGame, FugitiveState

LISTABLE = 5_000
Step = tuple[FugitiveState, tuple[int, ...]]
"""A position and the id prefix chosen so far in it."""


def steps_of(games: int) -> list[Step]:
    """Every (position, prefix) an agent meets while playing the random bots' moves."""
    game = FugitiveGame(max_rounds=50)
    out: list[Step] = []
    for seed in range(games):
        rng = random.Random(seed)
        players = [RandomPlayer(game, 0, seed), RandomPlayer(game, 1, seed + 1)]
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            action = players[player].act(View(player, "", {}, []), state.legal_actions())
            ids = encode(action)
            frozen = state.clone()
            out.extend((frozen, ids[:depth]) for depth in range(len(ids)))
            state.apply(action)  # type: ignore[arg-type]
    return out


def builder_masks(steps: list[Step]) -> list[list[int]]:
    out = []
    for state, prefix in steps:
        builder = ActionBuilder(state)
        builder.prefix = list(prefix)
        out.append(builder.legal_ids())
    return out


def listing_masks(steps: list[Step]) -> list[list[int]]:
    out = []
    for state, prefix in steps:
        depth = len(prefix)
        follow = set()
        for action in state.legal_actions():
            ids = encode(action)  # type: ignore[arg-type]
            if len(ids) > depth and ids[:depth] == prefix:
                follow.add(ids[depth])
        out.append(sorted(follow))
    return out


def best_time(
    method: Callable[[list[Step]], list[list[int]]], steps: list[Step], rounds: int
) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        method(steps)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few games (smoke test)")
    parser.add_argument("--games", type=int, default=40, help="random games to collect from")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per method (best kept)")
    args = parser.parse_args()
    games, rounds = (3, 1) if args.quick else (args.games, args.rounds)

    steps = steps_of(games)
    listable = [s for s in steps if len(s[0].legal_actions()) <= LISTABLE]
    assert builder_masks(listable) == listing_masks(listable), "the methods disagree"
    print(f"Python {platform.python_version()}, {games} random games, best of {rounds} rounds")
    print(f"{len(steps)} mask computations, {len(listable)} with at most {LISTABLE} legal actions")
    print()
    timed = {
        "builder (listable)": best_time(builder_masks, listable, rounds),
        "baseline (listable)": best_time(listing_masks, listable, rounds),
        "builder (all)": best_time(builder_masks, steps, rounds),
    }
    base = timed["baseline (listable)"] / len(listable)
    rows = []
    for name, seconds in timed.items():
        count = len(steps) if name.endswith("(all)") else len(listable)
        per = seconds / count
        ratio = f"{base / per:.1f}x" if name.endswith("(listable)") else "-"
        rows.append([name, str(count), f"{per * 1e6:.1f}", f"{1 / per:,.0f}", ratio])
    print_table(["method", "masks", "us/mask", "masks/s", "vs baseline"], rows)


if __name__ == "__main__":
    main()
