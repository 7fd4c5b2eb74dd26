"""Benchmark: the Cluedo notepad's answer time per entry (``sleuth assist cluedo``, U9: well
under a second) vs the same notepad with the advice at its own defaults.

Games: the rules engine with 6 players (``--players``), random moves and suggestions, never
accusing, seeded; seat 0's view is turned into the notepad's entries (suggestions, answers,
its token's rooms and rolls).  What is timed for each entry: entering it (the exact
deduction) and rendering everything the notepad shows after it (notepad, bars, envelopes,
entropy, the best suggestion of each room with its answers' odds, which card to show,
accusation advice) to a string.

(a) ``notepad``: as shipped, each room's best suggestion by the sample estimate scored again
    exactly (``table.RESCORE = 1``);
(b) ``advice defaults`` (the baseline): the three best of each room scored exactly, as the
    ``sleuth`` player does (``advice.RESCORE``).

Each pass starts with empty caches.  The ratio is the baseline's median over the notepad's
(above 1: faster); the last column counts the entries answered in under a second.

    .venv/bin/python bench/cluedo_notepad.py [--quick] [--games N] [--players P]
"""

from __future__ import annotations

import argparse
import io
import platform
import random
import statistics
import time

from rich.console import Console

from _report import print_table
from sleuth.core.events import Event
from sleuth.core.game import CHANCE
from sleuth.games.cluedo import advice, table
from sleuth.games.cluedo.actions import Accuse
from sleuth.games.cluedo.assistant import NotepadSession, entry_texts, prepare
from sleuth.games.cluedo.rules import CluedoGame


def game_view(players: int, seed: int, events: int) -> tuple[CluedoGame, list[Event]]:
    """Seat 0's view of a random game (no accusations), cut after ``events`` events."""
    game = CluedoGame(players=players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    out: list[Event] = []
    action = state.sample_chance(rng)
    while len(out) < events:
        out += state.apply(action)
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            action = state.sample_chance(rng)
        else:
            action = rng.choice([a for a in state.legal_actions() if not isinstance(a, Accuse)])
    return game, [e.seen_by(0) for e in out]


def entry_times(game: CluedoGame, view: list[Event], rescore: int) -> list[float]:
    """Seconds for each entry after the setup: enter it, then render what the notepad shows."""
    table.RESCORE = rescore
    advice._entropy.cache_clear()
    session = NotepadSession(game)
    console = Console(file=io.StringIO(), width=140)
    times = []
    for _, text in entry_texts(game, 0, view, session):
        start = time.perf_counter()
        session.enter(text)
        console.print(session.render())
        if session.pad.started:
            times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one short 3-player game")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=6)
    args = parser.parse_args()
    games, players, events = (1, 3, 60) if args.quick else (args.games, args.players, 400)
    prepare(CluedoGame())
    shipped = table.RESCORE
    rows = []
    times: dict[str, list[float]] = {"notepad": [], "advice defaults": []}
    for seed in range(games):
        game, view = game_view(players, seed, events)
        times["advice defaults"] += entry_times(game, view, advice.RESCORE)
        times["notepad"] += entry_times(game, view, shipped)
    table.RESCORE = shipped
    base = statistics.median(times["advice defaults"])
    for name, ts in times.items():
        ordered = sorted(ts)
        rows.append([
            name,
            str(len(ts)),
            f"{statistics.median(ts):.3f}",
            f"{ordered[int(0.95 * (len(ordered) - 1))]:.3f}",
            f"{ordered[-1]:.3f}",
            f"{base / statistics.median(ts):.2f}",
            f"{sum(t < 1 for t in ts) / len(ts):.1%}",
        ])  # fmt: skip
    print(f"Python {platform.python_version()}, {games} game(s) of {players} players, seat 0")
    print("seconds per entry: enter it and render everything shown after it")
    print()
    header = ["method", "entries", "median s", "p95 s", "max s", "vs baseline", "under 1 s"]
    print_table(header, rows)


if __name__ == "__main__":
    main()
