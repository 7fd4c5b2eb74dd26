"""Benchmark: a random bot in another process against the same bot in Sleuth's process, per move.

Plays the same games (same seeds) of every game with every seat a random bot: the built-in
``random`` (in-process, the baseline) and the example bots of ``examples/bots/`` over the bot
protocol: the Python bot in version 1 (``--protocol 1``) and in version 2, and the Node.js bot
(version 1) where Node.js is installed.  The games are played in this process as a
tournament's worker plays them (``play_many`` with ``IN_FLIGHT`` games at once: a version 2
process answers the decisions of all of them in one exchange; the others play one game after
another), processes reused from game to game.  The cost of a move is the wall-clock time of
all the games over the seats' decisions (the bot process works while Sleuth waits), and the CPU
time of this process and of the bot processes together over the same decisions (what a loaded
machine does not inflate: waking a process costs wall-clock time there).  The issue's target:
an out-of-process random bot at most 3x an in-process one per move.  The start of a bot process
(interpreter and handshake) is printed too, in moves: what starting a process for every game
would add, and why processes are reused.

    .venv/bin/python bench/external_bots.py [--quick] [--games N] [--rounds R]
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import sys
import time
from pathlib import Path

from _report import print_table
from sleuth.arena.play import IN_FLIGHT
from sleuth.core import botprocess
from sleuth.core.botprocess import Limits
from sleuth.core.botwire import read_reply, start_message
from sleuth.core.match import MatchRunner, play_many
from sleuth.core.registry import game_spec, make_game

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "bots"
GAMES: dict[str, dict[str, object]] = {
    "fox": {}, "camel-up": {}, "scotland-yard": {}, "cluedo": {}, "fugitive": {"max_rounds": 50},
}  # fmt: skip
"""Each game's options (a random pick among the first 1000 of a Fugitive hand's actions can go
on for ever)."""
SCALE = {"fox": 8, "cluedo": 4}
"""Times more games of the games with few decisions each (a Fox game has about 14, Camel Up's
270), so that the bot processes' CPU time, read in 10 ms ticks, adds up to a second or more."""


def per_move(name: str, bot: str, games: int) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, decisions) per decision over ``games`` games with ``bot`` in
    every seat; CPU seconds are this process's and its bot processes' together."""
    spec, game = game_spec(name), make_game(name, GAMES[name])
    runner = MatchRunner(game, [spec.bot(bot)] * game.num_players, None)
    runner.play(-1)  # warm: imports, caches, the bot processes started
    decisions, cpu, started = 0, cpu_seconds(), time.perf_counter()
    for _, record in play_many(((runner, seed) for seed in range(games)), IN_FLIGHT):
        assert not record.forfeits, record.forfeits
        decisions += sum(map(len, record.thinking))
    wall, cpu = time.perf_counter() - started, cpu_seconds() - cpu
    return wall / decisions, cpu / decisions, decisions


def cpu_seconds() -> float:
    """CPU seconds of this process and of the bot processes it runs."""
    return time.process_time() + sum(p.cpu_seconds() for p in botprocess._LIVE)


def start_seconds(command: str) -> float:
    """Wall seconds to start a bot process and have its answer to a handshake."""
    game = make_game("fox")
    started = time.perf_counter()
    process = botprocess.BotProcess(tuple(command.split()), Limits())
    process.send(start_message(game, "1", 0, 0), time.monotonic() + 30)
    read_reply(process.receive(time.monotonic() + 30), "ready")
    seconds = time.perf_counter() - started
    process.kill()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few games (smoke test)")
    parser.add_argument("--games", type=int, default=64, help="games per game and bot")
    parser.add_argument("--rounds", type=int, default=3, help="runs per setting (best kept)")
    args = parser.parse_args()
    games, rounds = (2, 1) if args.quick else (args.games, args.rounds)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    commands = {
        "Python v1": f"{sys.executable} {EXAMPLES / 'random_bot.py'} --protocol 1",
        "Python v2": f"{sys.executable} {EXAMPLES / 'random_bot.py'}",
    }
    if shutil.which("node"):
        commands["Node.js v1"] = f"node {EXAMPLES / 'random_bot.js'}"
    bots = {"in-process": "random", **{k: f"cmd:{v}" for k, v in commands.items()}}

    # Rounds interleave the settings, so a burst of load elsewhere hits all of them alike.
    best: dict[tuple[str, str], tuple[float, float]] = {}
    moves: dict[str, int] = {}
    for _ in range(rounds):
        for name in GAMES:
            for label, bot in bots.items():
                wall, cpu, moves[name] = per_move(name, bot, games * SCALE.get(name, 1))
                old = best.get((name, label), (wall, cpu))
                best[name, label] = (min(old[0], wall), min(old[1], cpu))
    botprocess.close_all()
    starts = {label: min(start_seconds(c) for _ in range(rounds)) for label, c in commands.items()}

    rows = []
    for name in GAMES:
        wall, cpu = best[name, "in-process"]
        row = [name, f"{moves[name]:,}", f"{wall * 1e6:,.0f} / {cpu * 1e6:,.0f}"]
        for label in commands:
            other = best[name, label]
            row += [
                f"{other[0] * 1e6:,.0f} / {other[1] * 1e6:,.0f}",
                f"{other[0] / wall:.2f}x / {other[1] / cpu:.2f}x",
            ]
        rows.append(row)
    print(
        f"Random bots in every seat, up to {IN_FLIGHT} games in flight, wall clock per decision; "
        f"Python "
        f"{platform.python_version()}, {os.cpu_count()} CPUs, load average before: {load}"
    )
    print()
    header = ["game", "decisions", "in-process us wall / CPU"]
    for label in commands:
        header += [f"{label} us wall / CPU", f"{label} vs in-process"]
    print_table(header, rows)
    print()
    for label, seconds in starts.items():
        fox = best["fox", label][0]
        print(
            f"Starting a {label} bot process and its handshake: {seconds * 1000:.0f} ms "
            f"(about {seconds / fox:,.0f} of its fox moves): processes are reused across games."
        )
    scaled = ", ".join(f"{name} {games * times}" for name, times in SCALE.items())
    print(
        f"Best of {rounds} interleaved run(s) of {games} games per setting ({scaled}), wall and "
        "CPU each."
    )
    print("CPU: this process's and the bot processes' (the /proc clock, 10 ms ticks) per decision.")


if __name__ == "__main__":
    main()
