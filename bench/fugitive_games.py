"""Benchmark: Fugitive games per second (1st edition, default options, a round limit).

Every method plays the same game, ``FugitiveGame(max_rounds=50)`` (``--max-rounds``; a game
still going after 50 rounds is a draw, so every game ends), all in this process:

(a) ``random v random``: ``run_match`` with the registered ``random`` bots for both seats
    (hierarchical random play: pile, place or pass, hideout, cheapest sprint set; the Marshal
    names one or two numbers, never skips).  ``time_limit=None``: no per-move timer.
(b) ``heuristic v notes``: ``run_match``, the ``heuristic`` Fugitive against the ``notes``
    Marshal (the layered-graph notepad).
(c) ``steady v belief``: ``run_match``, the ``steady`` Fugitive against the ``belief`` Marshal
    (exact deduction at every guess, with its state budget).
(d) ``baseline``: the naive way public engines pick a random move: a bare loop over Sleuth's
    engine (no match runner) where the seat to move turns its legal actions into a Python
    list, ``list(state.legal_actions())``, and picks uniformly among the atomic actions.  A
    Fugitive hand can have millions of placements and the Marshal 2^41 - 1 guesses, so the
    list is only made when there are at most 5,000 actions (``--materialise``); above that the
    baseline falls back to ``rng.choice`` on Sleuth's lazy sequence (counted and reported).
    Chance draws use ``sample_chance``, as in ``run_match``.
(e) ``random, bare loop``: the ``random`` bots' policy of (a) called from the bare loop of (d)
    (no views, events or legality checks of the runner): it separates the runner's cost from
    the cost of the move choice.

An action is one move by a seat (chance draws are not counted, as in ``MatchRecord.length``).
Each method plays several rounds, interleaved with the others, and the best round is reported.
The ratio ``vs baseline`` is games/s divided by the baseline's games/s.  The baseline's
uniform choice over atomic actions is not the ``random`` bot's policy (a uniform guess names
about half the numbers and nearly always misses), so its games differ in length and outcome;
the Fugitive win rate and actions per game are printed for that reason.

    /work/main/.venv/bin/python bench/fugitive_games.py [--quick]
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from _report import print_table
from sleuth.core.game import CHANCE
from sleuth.core.match import run_match
from sleuth.games.fugitive import SPEC
from sleuth.games.fugitive.bots import RandomPlayer
from sleuth.games.fugitive.rules import FUGITIVE, MARSHAL, FugitiveGame

MAX_ROUNDS = 50
MATERIALISE = 5_000
"""The baseline lists the legal actions only when there are at most this many."""


@dataclass
class Tally:
    """What a batch of games did: actions by the seats, results, and the baseline's lists."""

    games: int = 0
    actions: int = 0
    fugitive_wins: int = 0
    draws: int = 0
    decisions: int = 0
    materialised: int = 0
    listed_items: int = 0
    largest_lazy: int = 0

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.actions += other.actions
        self.fugitive_wins += other.fugitive_wins
        self.draws += other.draws
        self.decisions += other.decisions
        self.materialised += other.materialised
        self.listed_items += other.listed_items
        self.largest_lazy = max(self.largest_lazy, other.largest_lazy)


Play = Callable[[FugitiveGame, int, int], Tally]


# ---------------------------------------------------------------------------------------------
# (a)-(c): the match runner
# ---------------------------------------------------------------------------------------------


def runner(fugitive: str, marshal: str) -> Play:
    bots = [SPEC.bot(fugitive), SPEC.bot(marshal)]

    def play(game: FugitiveGame, games: int, seed: int) -> Tally:
        tally = Tally(games=games)
        for i in range(games):
            record = run_match(game, bots, seed * 1_000_003 + i, time_limit=None)
            assert not record.forfeits, record.forfeits
            tally.actions += record.length
            tally.fugitive_wins += record.returns[FUGITIVE] == 1.0
            tally.draws += record.returns == (0.0, 0.0)  # a draw's wins are (0.5, 0.5)
        return tally

    return play


# ---------------------------------------------------------------------------------------------
# (d) Baseline: materialise the legal actions, uniform atomic choice; (e) the random policy
# ---------------------------------------------------------------------------------------------


def play_materialising(game: FugitiveGame, games: int, seed: int, limit: int) -> Tally:
    rng = random.Random(seed)
    choice = rng.choice
    tally = Tally(games=games)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            size = len(legal)
            tally.decisions += 1
            if size <= limit:
                legal = list(legal)
                tally.materialised += 1
                tally.listed_items += size
            elif size > tally.largest_lazy:
                tally.largest_lazy = size
            state.apply(choice(legal))
            tally.actions += 1
        fugitive, marshal = state.returns()
        tally.fugitive_wins += fugitive == 1.0
        tally.draws += fugitive == marshal == 0.0
    return tally


def play_random_bare(game: FugitiveGame, games: int, seed: int) -> Tally:
    rng = random.Random(seed)
    tally = Tally(games=games)
    for i in range(games):
        bots = [RandomPlayer(game, s, seed * 1_000_003 + 2 * i + s) for s in (FUGITIVE, MARSHAL)]
        state = game.new_initial_state()
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            state.apply(bots[seat].act(None, state.legal_actions()))  # type: ignore[arg-type]
            tally.actions += 1
        fugitive, marshal = state.returns()
        tally.fugitive_wins += fugitive == 1.0
        tally.draws += fugitive == marshal == 0.0
    return tally


# ---------------------------------------------------------------------------------------------

A = "(a) random v random"
B = "(b) heuristic v notes"
C = "(c) steady v belief"
D = "(d) baseline: list <= {limit:,}"
E = "(e) random, bare loop"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few games each (smoke test)")
    parser.add_argument("--seconds", type=float, default=6.0, help="target seconds per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per method (best kept)")
    parser.add_argument("--max-rounds", type=int, default=MAX_ROUNDS, help="rounds to a draw")
    parser.add_argument(
        "--materialise",
        type=int,
        default=MATERIALISE,
        help="the baseline lists the legal actions when there are at most this many",
    )
    args = parser.parse_args()
    seconds, rounds, trial = (0.1, 1, 3) if args.quick else (args.seconds, args.rounds, 20)
    game = FugitiveGame(max_rounds=args.max_rounds)
    limit = args.materialise
    baseline = D.format(limit=limit)

    def play_baseline(game: FugitiveGame, games: int, seed: int) -> Tally:
        return play_materialising(game, games, seed, limit)

    methods: dict[str, Play] = {
        A: runner("random", "random"),
        B: runner("heuristic", "notes"),
        C: runner("steady", "belief"),
        baseline: play_baseline,
        E: play_random_bare,
    }
    # Calibrate a round size per method from a short trial (seed 0, not used in the rounds).
    sizes = {}
    for name, play in methods.items():
        t0 = time.perf_counter()
        play(game, trial, 0)
        rate = trial / (time.perf_counter() - t0)
        sizes[name] = max(3, int(rate * seconds))

    best = dict.fromkeys(methods, 0.0)
    best_actions = dict.fromkeys(methods, 0.0)
    elapsed = dict.fromkeys(methods, 0.0)
    totals = {name: Tally() for name in methods}
    for r in range(rounds):
        for name, play in methods.items():
            t0 = time.perf_counter()
            tally = play(game, sizes[name], r + 1)
            dt = time.perf_counter() - t0
            if tally.games / dt > best[name]:
                best[name] = tally.games / dt
                best_actions[name] = tally.actions / dt
            elapsed[name] += dt
            totals[name].add(tally)

    base, base_actions = best[baseline], best_actions[baseline]
    print(
        f"Fugitive games, 1st edition, max_rounds={args.max_rounds} "
        f"(Python {platform.python_version()}; best of {rounds} round(s) of ~{seconds:g} s)"
    )
    print()
    header = ["method", "games", "seconds", "games/s", "actions/s", "actions/game",
              "Fugitive wins", "draws", "vs baseline"]  # fmt: skip
    rows = []
    for name in methods:
        t = totals[name]
        rows.append(
            [
                name,
                f"{t.games:,}",
                f"{elapsed[name]:.1f}",
                f"{best[name]:,.1f}",
                f"{best_actions[name]:,.0f}",
                f"{t.actions / t.games:.1f}",
                f"{100 * t.fugitive_wins / t.games:.1f}%",
                f"{100 * t.draws / t.games:.1f}%",
                f"{best[name] / base:.2f}x",
            ]
        )
    print_table(header, rows)
    print()
    print("games, seconds, win and draw rates: all rounds; games/s and actions/s: best round.")
    print("vs baseline = games/s divided by the baseline's games/s (above 1: faster).")
    t = totals[baseline]
    print(
        f"Baseline: {t.materialised:,} of {t.decisions:,} decisions "
        f"({100 * t.materialised / max(t.decisions, 1):.1f}%) listed their legal actions "
        f"(mean {t.listed_items / max(t.materialised, 1):.1f} items); the others, with more "
        f"than {limit:,}, chose from the lazy sequence (largest: {t.largest_lazy:,} actions)."
    )
    print(
        f"Lazy legal moves vs materialising them, (a)/(d): {best[A] / base:.2f}x games/s, "
        f"{best_actions[A] / base_actions:.2f}x actions/s."
    )


if __name__ == "__main__":
    main()
