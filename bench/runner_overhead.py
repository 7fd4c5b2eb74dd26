"""Benchmark: what the match runner costs over the rules engine, per game, with random bots.

For every built-in game (its default options), three ways to play random games in this
process, one core, timed in CPU time:

(a) ``engine``: the rules engine driven by a bare loop (``current_player``, ``legal_actions``,
    the random bot's choice made from the legal actions alone, ``apply``; chance drawn with
    ``sample_chance``).  No views, no bots, no time limits.
(b) ``run_match``: :func:`sleuth.core.match.run_match` with the registered ``random`` bots
    (views, per-seat redaction, bots built and seeded, legality checks, CPU-time limits and
    hard stops, the outcome).
(c) ``tournament``: :func:`sleuth.arena.tournament.run_tournament` on one worker (in this
    process, as ``sleuth play --workers 1`` plays): the schedule, the seat rotation, each
    game's result row.

A step is one applied action (chance included).  The random bots' games are not the bare
loop's games (Cluedo's bot heads for rooms, for instance), so the methods are compared by the
cost of a step: ``run_match / engine`` is the runner's CPU time per step divided by the
engine's.  The issue's target: under 1.5x on every game.  ``bots' share`` is the part of
``run_match``'s time spent inside the bots' ``ask`` (their own thinking, which no runner can
save).  Each method plays several rounds, interleaved with the others; the best round is kept.

A second table puts Sleuth's Fox in a Hole engine against the plain ``__slots__`` engine of
``bench/fox_games.py`` (P5, 6-day limit, the same bare loop): the issue's target, within 4x.

``--profile GAME`` prints a cProfile of ``run_match`` on that game instead (where the runner's
time goes, by function).

    .venv/bin/python bench/runner_overhead.py [--quick] [--games fox,cluedo] [--profile fox]
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import random
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from _report import print_table
from cli_startup import rounds_count
from fox_games import play_baseline, play_direct
from sleuth.arena.tournament import run_tournament
from sleuth.core.game import CHANCE, Game
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec
from sleuth.games.camel_up.bots import random_action
from sleuth.games.cluedo.actions import Accuse, End, Go, Passage, Roll, Show, Stay, Suggest
from sleuth.games.fox.rules import FoxMove, Inspect
from sleuth.games.fugitive.bots import random_move

Policy = Callable[[Sequence[Hashable], random.Random], Hashable]
Play = Callable[[str, int, int], tuple[int, float]]
"""Plays ``games`` games of a game from a seed; returns (steps, CPU seconds in bots)."""


def fox_policy(legal: Sequence[Hashable], rng: random.Random) -> Hashable:
    """The ``random`` bots' choice: a one-hole inspection (k = 1), or a committed fox move."""
    if isinstance(legal[0], Inspect):
        return rng.choice(legal)
    return rng.choice([a for a in legal if isinstance(a, FoxMove) and a.hole is not None])


def cluedo_policy(legal: Sequence[Hashable], rng: random.Random) -> Hashable:
    """The ``random`` bot's choice, but a uniformly random room to head for (the bot's own
    choice reads its view)."""
    for kinds in (Show, Roll | Passage | Stay, Go, Suggest):
        some = [a for a in legal if isinstance(a, kinds)]
        if some:
            return rng.choice(some)
    ends = [a for a in legal if isinstance(a, End)]
    return ends[0] if ends else rng.choice([a for a in legal if not isinstance(a, Accuse)])


POLICIES: dict[str, Policy] = {
    "fox": fox_policy,
    "fugitive": random_move,
    "camel-up": random_action,  # type: ignore[dict-item]
    "scotland-yard": lambda legal, rng: rng.choice(legal),
    "cluedo": cluedo_policy,
}


def game_of(name: str) -> Game[Any]:
    return game_spec(name).make({})


def play_engine(name: str, games: int, seed: int) -> tuple[int, float]:
    game, policy = game_of(name), POLICIES[name]
    rng = random.Random(seed)
    steps = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(policy(state.legal_actions(), rng))
            steps += 1
    return steps, 0.0


def play_runner(name: str, games: int, seed: int) -> tuple[int, float]:
    game = game_of(name)
    bots = [game_spec(name).bot("random")] * game.num_players
    steps, thinking = 0, 0.0
    for i in range(games):
        record = run_match(game, bots, seed * 1_000_003 + i)
        assert not record.forfeits, record.forfeits
        steps += len(record.steps)
        thinking += sum(sum(seat) for seat in record.thinking)
    return steps, thinking


def play_tournament(name: str, games: int, seed: int) -> tuple[int, float]:
    seats = game_of(name).num_players
    result = run_tournament(name, ["random"] * seats, games, seed=seed, workers=1)
    assert not result.forfeits, f"{result.forfeits} forfeits"
    return (
        sum(len(row.actions) for row in result.rows),
        sum(total for row in result.rows for _, total, _ in row.thinking),
    )


METHODS: dict[str, Play] = {
    "engine": play_engine,
    "run_match": play_runner,
    "tournament": play_tournament,
}


def measure(
    plays: dict[str, Callable[[int, int], tuple[int, float]]], seconds: float, rounds: int
) -> dict[str, tuple[float, float]]:
    """Each method's best CPU seconds per step and its bots' share of that round."""
    sizes = {}
    for label, play in plays.items():
        t0 = time.process_time()
        games = 1
        while time.process_time() - t0 < seconds / 10:
            play(games, 0)
            games *= 2
        rate = (2 * games - 1) / max(time.process_time() - t0, 1e-9)
        sizes[label] = max(1, int(rate * seconds))
    best: dict[str, tuple[float, float]] = {label: (float("inf"), 0.0) for label in plays}
    for r in range(rounds):
        for label, play in plays.items():
            t0 = time.process_time()
            steps, thinking = play(sizes[label], r + 1)
            cpu = time.process_time() - t0
            if cpu / steps < best[label][0]:
                best[label] = (cpu / steps, thinking / cpu)
    return best


def runner_table(names: Sequence[str], seconds: float, rounds: int) -> None:
    rows = []
    for name in names:
        plays = {m: (lambda g, s, p=play, n=name: p(n, g, s)) for m, play in METHODS.items()}
        best = measure(plays, seconds, rounds)
        engine = best["engine"][0]
        rows.append(
            [
                name,
                f"{engine * 1e6:.1f}",
                f"{best['run_match'][0] * 1e6:.1f}",
                f"{best['tournament'][0] * 1e6:.1f}",
                f"{best['run_match'][0] / engine:.2f}x",
                f"{best['tournament'][0] / engine:.2f}x",
                f"{100 * best['run_match'][1]:.0f}%",
            ]
        )
    header = ["game (random bots)", "engine µs/step", "run_match µs/step",
              "tournament µs/step", "run_match / engine", "tournament / engine",
              "bots' share"]  # fmt: skip
    print_table(header, rows)
    print()
    print("run_match / engine = the runner's CPU time per step over the bare loop's (target 1.5x).")


def fox_table(seconds: float, rounds: int) -> None:
    plays = {"fox engine": play_direct, "plain engine": play_baseline}
    best = {}
    for label, play in plays.items():
        best[label] = measure({label: lambda g, s, p=play: (p(g, s)[0], 0.0)}, seconds, rounds)[
            label
        ][0]
    plain = best["plain engine"]
    rows = [[label, f"{per * 1e6:.2f}", f"{per / plain:.2f}x"] for label, per in best.items()]
    print_table(["P5, 6 days, bare loop", "µs/step", "fox / plain"], rows)
    print()
    print("fox / plain = the fox engine's CPU time per step over the plain engine's (target 4x).")


def profile(name: str, seconds: float) -> None:
    profiler = cProfile.Profile()
    games = 1
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        profiler.enable()
        play_runner(name, games, games)
        profiler.disable()
        games *= 2
    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def positive(text: str) -> float:
    """``--seconds``: a number above 0 (the parser reports anything else)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be above 0, got {text}")
    return value


def game_list(text: str) -> list[str]:
    """``--games``: comma-separated built-in games (the parser names an unknown one)."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in POLICIES]
    if unknown or not names:
        problem = f"unknown game {unknown[0]!r}" if unknown else "no game named"
        raise argparse.ArgumentTypeError(f"{problem} (games: {', '.join(POLICIES)})")
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--seconds", type=positive, default=2.0, help="CPU seconds per round")
    parser.add_argument("--rounds", type=rounds_count, default=3, help="rounds (best kept)")
    parser.add_argument("--games", type=game_list, default=list(POLICIES), help="games to run")
    parser.add_argument("--profile", metavar="GAME", choices=list(POLICIES), help="profile it")
    args = parser.parse_args()
    seconds, rounds = (0.05, 1) if args.quick else (args.seconds, args.rounds)
    if args.profile:
        profile(args.profile, max(seconds, 0.1))
        return
    print(
        f"Random bots, default options, one core (Python {platform.python_version()}; CPU "
        f"time, best of {rounds} round(s) of ~{seconds:g} s)"
    )
    print()
    runner_table(args.games, seconds, rounds)
    print()
    fox_table(seconds, rounds)


if __name__ == "__main__":
    main()
