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
(d) ``baseline``: a plain Fugitive engine written from the rules the way public engines are
    (``bench/_plain_fugitive.py``: shuffled lists for piles, sets for hands, no events, views,
    action objects or lazy sequences), played by the same random policy as (a) with its own
    random stream.  Chance is its shuffled piles.
(e) ``random, bare loop``: the ``random`` bots' policy of (a) called from a bare loop over
    Sleuth's engine (no views, events or legality checks of the runner): against (a) it
    separates the runner's cost, against (d) it compares the two engines under one policy.

An action is one move by a seat (chance draws are not counted, as in ``MatchRecord.length``).
Each method plays several rounds, interleaved with the others, and the best round is reported.
The ratio ``vs baseline`` is games/s divided by the baseline's games/s.  (a), (d) and (e) play
the same game, so their Fugitive win rates, draw rates and actions per game agree within
sampling error; the script prints the differences with two standard errors.

    .venv/bin/python bench/fugitive_games.py [--quick]
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from _plain_fugitive import FUGITIVE as PLAIN_FUGITIVE
from _plain_fugitive import play_random_game
from _report import print_table
from sleuth.core.game import CHANCE
from sleuth.core.match import run_match
from sleuth.games.fugitive import SPEC
from sleuth.games.fugitive.bots import RandomPlayer
from sleuth.games.fugitive.rules import FUGITIVE, MARSHAL, FugitiveGame

MAX_ROUNDS = 50


@dataclass
class Tally:
    """What a batch of games did: actions by the seats (and their squares), results."""

    games: int = 0
    actions: int = 0
    actions_squared: int = 0
    fugitive_wins: int = 0
    draws: int = 0

    def game(self, actions: int, fugitive_won: bool, draw: bool) -> None:
        self.games += 1
        self.actions += actions
        self.actions_squared += actions * actions
        self.fugitive_wins += fugitive_won
        self.draws += draw

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.actions += other.actions
        self.actions_squared += other.actions_squared
        self.fugitive_wins += other.fugitive_wins
        self.draws += other.draws


Play = Callable[[FugitiveGame, int, int], Tally]


# ---------------------------------------------------------------------------------------------
# (a)-(c): the match runner
# ---------------------------------------------------------------------------------------------


def runner(fugitive: str, marshal: str) -> Play:
    bots = [SPEC.bot(fugitive), SPEC.bot(marshal)]

    def play(game: FugitiveGame, games: int, seed: int) -> Tally:
        tally = Tally()
        for i in range(games):
            record = run_match(game, bots, seed * 1_000_003 + i, time_limit=None)
            assert not record.forfeits, record.forfeits
            tally.game(
                record.length,
                record.returns[FUGITIVE] == 1.0,
                record.returns == (0.0, 0.0),  # a draw's wins are (0.5, 0.5)
            )
        return tally

    return play


# ---------------------------------------------------------------------------------------------
# (d) Baseline: the plain engine and the random policy; (e) the policy on Sleuth's engine
# ---------------------------------------------------------------------------------------------


def play_plain(game: FugitiveGame, games: int, seed: int) -> Tally:
    tally = Tally()
    for i in range(games):
        final, actions = play_random_game(random.Random(seed * 1_000_003 + i), game.max_rounds)
        tally.game(actions, final.winner == PLAIN_FUGITIVE, final.reason == "max_rounds")
    return tally


def play_random_bare(game: FugitiveGame, games: int, seed: int) -> Tally:
    rng = random.Random(seed)
    tally = Tally()
    for i in range(games):
        bots = [RandomPlayer(game, s, seed * 1_000_003 + 2 * i + s) for s in (FUGITIVE, MARSHAL)]
        state = game.new_initial_state()
        actions = 0
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            state.apply(bots[seat].act(None, state.legal_actions()))  # type: ignore[arg-type]
            actions += 1
        fugitive, marshal = state.returns()
        tally.game(actions, fugitive == 1.0, fugitive == marshal == 0.0)
    return tally


def same_game(t: Tally, base: Tally) -> str:
    """Differences from the baseline in Fugitive wins and draws (points) and in actions per
    game, each with two standard errors."""

    def rate(k: int, n: int) -> tuple[float, float]:
        p = k / n
        return 100 * p, 100 * 100 * p * (1 - p) / n  # percent, variance of the percent

    def mean(s: int, sq: int, n: int) -> tuple[float, float]:
        m = s / n
        return m, max(sq / n - m * m, 0.0) / n

    parts = []
    for label, (x, vx), (y, vy), unit in (
        ("Fugitive wins", rate(t.fugitive_wins, t.games), rate(base.fugitive_wins, base.games),
         " points"),
        ("draws", rate(t.draws, t.games), rate(base.draws, base.games), " points"),
        ("actions/game", mean(t.actions, t.actions_squared, t.games),
         mean(base.actions, base.actions_squared, base.games), ""),
    ):  # fmt: skip
        parts.append(f"{label} {x - y:+.1f} ± {2 * (vx + vy) ** 0.5:.1f}{unit}")
    return ", ".join(parts)


# ---------------------------------------------------------------------------------------------

A = "(a) random v random"
B = "(b) heuristic v notes"
C = "(c) steady v belief"
D = "(d) baseline: plain engine"
E = "(e) random, bare loop"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few games each (smoke test)")
    parser.add_argument("--seconds", type=float, default=6.0, help="target seconds per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per method (best kept)")
    parser.add_argument("--max-rounds", type=int, default=MAX_ROUNDS, help="rounds to a draw")
    args = parser.parse_args()
    seconds, rounds, trial = (0.1, 1, 3) if args.quick else (args.seconds, args.rounds, 20)
    game = FugitiveGame(max_rounds=args.max_rounds)

    methods: dict[str, Play] = {
        A: runner("random", "random"),
        B: runner("heuristic", "notes"),
        C: runner("steady", "belief"),
        D: play_plain,
        E: play_random_bare,
    }
    # Calibrate a round size per method from a short trial (seed 0, not used in the rounds),
    # after one untimed game that loads compiled kernels and fills caches.
    sizes = {}
    for name, play in methods.items():
        play(game, 1, 0)
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

    base = best[D]
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
    print("Same game as the baseline? Difference from (d), ± 2 standard errors:")
    for name in (A, E):
        print(f"  {name[:3]}: {same_game(totals[name], totals[D])}")
    print(
        f"Runner's share of random play, 1 - (a)/(e): {100 * (1 - best[A] / best[E]):.0f}% "
        f"of the time; Sleuth's engine against the plain one, (e)/(d): {best[E] / base:.2f}x."
    )


if __name__ == "__main__":
    main()
