"""Benchmark: Camel Up games per second with four random bots (1st edition, one core).

All methods play 1st-edition games between four bots that choose like the source's RandomBot
(a uniform action type among roll / leg bet / desert tile / overall bet, then a uniform
variant), in this process, one core:

(a) ``kernel``: :func:`sleuth.games.camel_up.simulate.play_random_game`, the rules engine's
    primitive moves without events or views.  It plays exactly the games of (b) (a test
    checks this, seed by seed).
(b) ``match runner``: ``run_match`` with the registered ``random`` bots: events with their
    visibility, a view per seat, the engine's legal actions handed to the bot, the bot's
    answer checked against them and again by the engine, a per-move clock
    (``time_limit=None``: no timer signal).
(c) ``baseline``: the source's architecture written plainly (DragonDuck/CamelAI: a Python engine
    with a bot API): a game-state object of lists and dicts, a deep copy with the other players'
    overall bets masked handed to the bot on every turn, ``get_valid_moves`` called by the bot and
    again by the engine (double validation), the camel moved by list surgery.  Same rules and bot
    policy, its own random streams (so its games differ; the actions per game show that they are
    alike).

Each method plays several rounds, interleaved, and the best round is reported.  ``vs
baseline`` is games/s divided by the baseline's games/s.  Sleuth's target is at least 2,000
games/s per core for random bots; public Python engines reach 97-226 (the published figures of
``docs/camel-up.md``).

    .venv/bin/python bench/camel_up_games.py [--quick]
"""

from __future__ import annotations

import argparse
import copy
import platform
import random
import time
from collections.abc import Callable

from _report import print_table
from sleuth.core.match import run_match
from sleuth.games.camel_up import SPEC
from sleuth.games.camel_up.rules import CamelUpGame
from sleuth.games.camel_up.simulate import play_random_game

PLAYERS = 4
Play = Callable[[int, int], int]
"""Plays ``games`` games from a seed; returns the number of actions taken by the players."""


def play_kernel(games: int, seed: int) -> int:
    game = CamelUpGame(players=PLAYERS)
    return sum(play_random_game(game, seed + i).final.turns for i in range(games))


def play_runner(games: int, seed: int) -> int:
    game = CamelUpGame(players=PLAYERS)
    bots = [SPEC.bot("random")] * PLAYERS
    return sum(run_match(game, bots, seed + i, time_limit=None).length for i in range(games))


# -- the baseline: the source's engine, written plainly ------------------------------------------

ROLL, TRAP, LEG, OVERALL = range(4)


class PlainGame:
    """Camel Up in the style of the source's ``camelup.GameState`` (lists, dicts, deep copies;
    the dice's random generator is kept outside, so the copies do not include it)."""

    def __init__(self, rng: random.Random) -> None:
        self.track: list[list[int]] = [[] for _ in range(20)]
        for camel in rng.sample(range(5), 5):
            self.track[rng.randint(0, 2)].append(camel)
        self.traps: list[list[int] | None] = [None] * 16  # [side, owner]
        self.trap_of: list[int | None] = [None] * PLAYERS
        self.leg_tiles = {c: [5, 3, 2] for c in range(5)}
        self.leg_bets: list[tuple[int, int, int]] = []
        self.pyramid = [0] * PLAYERS
        self.moved: list[int] = []
        self.winner_bets: list[tuple[int | None, int | None]] = []
        self.loser_bets: list[tuple[int | None, int | None]] = []
        self.money = [3] * PLAYERS
        self.active = True

    def ranking(self) -> list[int]:
        return [c for stack in self.track for c in stack]

    def player_copy(self, player: int) -> PlainGame:
        view = copy.deepcopy(self)
        view.winner_bets = [b if b[0] == player else (None, None) for b in self.winner_bets]
        view.loser_bets = [b if b[0] == player else (None, None) for b in self.loser_bets]
        return view

    def valid_moves(self, player: int) -> list[tuple[int, ...]]:
        moves: list[tuple[int, ...]] = [(ROLL,)]
        own = self.trap_of[player]
        occupied = {i for i, s in enumerate(self.track) if s}
        for index in range(1, 16):
            near = [self.traps[j] for j in (index - 1, index, index + 1) if 0 <= j < 16]
            blocked = any(t is not None and t[1] != player for t in near)
            if index not in occupied and not blocked and index != own:
                moves += [(TRAP, 1, index), (TRAP, -1, index)]
        moves += [(LEG, c) for c in range(5) if self.leg_tiles[c]]
        used = {c for p, c in self.winner_bets + self.loser_bets if p == player}
        for pile in (0, 1):
            moves += [(OVERALL, pile, c) for c in range(5) if c not in used]
        return moves

    def apply(self, player: int, move: tuple[int, ...], rng: random.Random) -> None:
        if move[0] == ROLL:
            self.roll(player, rng)
        elif move[0] == TRAP:
            if self.trap_of[player] is not None:
                self.traps[self.trap_of[player]] = None
            self.traps[move[2]] = [move[1], player]
            self.trap_of[player] = move[2]
        elif move[0] == LEG:
            self.leg_bets.append((player, move[1], self.leg_tiles[move[1]].pop(0)))
        else:
            (self.winner_bets if move[1] == 0 else self.loser_bets).append((player, move[2]))

    def roll(self, player: int, rng: random.Random) -> None:
        self.pyramid[player] += 1
        camel = rng.choice([c for c in range(5) if c not in self.moved])
        self.moved.append(camel)
        start = next(i for i, s in enumerate(self.track) if camel in s)
        height = self.track[start].index(camel)
        unit = self.track[start][height:]
        del self.track[start][height:]
        target = start + rng.randint(1, 3)
        trap = self.traps[target] if target < 16 else None
        if trap is not None:
            self.money[trap[1]] += 1
            target += trap[0]
        if trap is not None and trap[0] < 0:
            self.track[target] = unit + self.track[target]
        else:
            self.track[target] += unit
        if target >= 16:
            self.end_leg()
            self.end_game()
        elif len(self.moved) == 5:
            self.end_leg()

    def end_leg(self) -> None:
        ranking = self.ranking()
        first, second = ranking[-1], ranking[-2]
        for player, camel, value in self.leg_bets:
            self.money[player] += value if camel == first else 1 if camel == second else -1
        for player in range(PLAYERS):
            self.money[player] = max(0, self.money[player] + self.pyramid[player])
        self.leg_tiles = {c: [5, 3, 2] for c in range(5)}
        self.leg_bets, self.pyramid, self.moved = [], [0] * PLAYERS, []
        self.traps, self.trap_of = [None] * 16, [None] * PLAYERS

    def end_game(self) -> None:
        self.active = False
        ranking = self.ranking()
        for bets, right in ((self.winner_bets, ranking[-1]), (self.loser_bets, ranking[0])):
            paid = 0
            for player, camel in bets:
                assert player is not None
                if camel == right:
                    self.money[player] += (8, 5, 3, 2)[paid] if paid < 4 else 1
                    paid += 1
                else:
                    self.money[player] = max(0, self.money[player] - 1)


def plain_random_bot(player: int, view: PlainGame, rng: random.Random) -> tuple[int, ...]:
    """The source's RandomBot: a uniform type among the valid moves, then a uniform variant."""
    moves = view.valid_moves(player)
    kinds = sorted({m[0] for m in moves})
    kind = rng.choice(kinds)
    return rng.choice([m for m in moves if m[0] == kind])


def play_baseline(games: int, seed: int) -> int:
    actions = 0
    for i in range(games):
        rng = random.Random(seed + i)
        dice = random.Random(rng.random())
        game = PlainGame(dice)
        player = 0
        while game.active:
            move = plain_random_bot(player, game.player_copy(player), rng)
            if move not in game.valid_moves(player):
                raise AssertionError(f"invalid move {move}")
            game.apply(player, move, dice)
            actions += 1
            player = (player + 1) % PLAYERS
    return actions


# -- the measurement ------------------------------------------------------------------------------

A = "kernel (simulate.play_random_game)"
B = "match runner (run_match, random bots)"
C = "baseline (the source's engine, plainly)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few games each (smoke test)")
    parser.add_argument("--seconds", type=float, default=4.0, help="target seconds per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per method (best kept)")
    args = parser.parse_args()
    seconds, rounds, trial = (0.1, 1, 5) if args.quick else (args.seconds, args.rounds, 50)
    methods: dict[str, Play] = {A: play_kernel, B: play_runner, C: play_baseline}
    sizes = {}
    for name, play in methods.items():
        t0 = time.perf_counter()
        play(trial, 10**6)
        sizes[name] = max(5, int(trial / (time.perf_counter() - t0) * seconds))
    best = dict.fromkeys(methods, 0.0)
    per_game = dict.fromkeys(methods, 0.0)
    for r in range(rounds):
        for name, play in methods.items():
            t0 = time.perf_counter()
            actions = play(sizes[name], r * 100_000)
            rate = sizes[name] / (time.perf_counter() - t0)
            best[name] = max(best[name], rate)
            per_game[name] = actions / sizes[name]
    python = platform.python_version()
    print(f"Camel Up, 1st edition, {PLAYERS} random bots, one core, Python {python}")
    rows = [
        [name, f"{best[name]:,.0f}", f"{per_game[name]:.1f}", f"{best[name] / best[C]:.1f}x"]
        for name in methods
    ]
    print_table(["method", "games/s", "actions/game", "vs baseline"], rows)
    verdict = "met" if best[A] >= 2000 else "NOT met"
    print(f"target >= 2,000 random-bot games/s per core: {verdict} ({best[A]:,.0f})")


if __name__ == "__main__":
    main()
