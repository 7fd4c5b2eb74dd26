"""Benchmark: one Mr. X leg in the detectives' tracker, bitsets vs plain sets.

Games: uniformly random legal play (classic edition, 5 detectives), seeded, recorded once; the
detectives' public events are then replayed.  Each Mr. X leg (the ticket shown: every station
one such move from a possible station, less the detectives' stations) is timed on its own:

(a) ``bitset``: :class:`~sleuth.games.scotland_yard.tracker.Tracker` (model ``uniform``):
    per-ticket neighbour bitsets, a station at a time for small sets, a byte of stations at a
    time for large ones.
(b) ``plain sets`` (the baseline): a Python set of stations and per-ticket adjacency dicts of
    sets, read from the board's edge list.
(c) ``random-walk``: the tracker keeping the random-walk weights too (a dict of floats).

The methods replay the same games in turn, several times (``--rounds``); each leg keeps its
fastest time and the median over the legs is reported.  Both trackers must agree on the
possible set after every event (checked).  The ratio is the baseline's median over the
method's (above 1: faster).  The board is the classic map from ``../shared/data/scotland-yard``
when it is there, else Sleuth's own board (said in the output).

    .venv/bin/python bench/scotland_yard_tracker.py [--quick] [--games N] [--rounds R]
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import time
from collections.abc import Sequence
from typing import Protocol

from _classic_map import the_game
from _report import print_table
from sleuth.core.bitsets import mask_of
from sleuth.core.events import Event
from sleuth.games.scotland_yard.board import Board
from sleuth.games.scotland_yard.rules import ScotlandYardGame
from sleuth.games.scotland_yard.tracker import Tracker

SMALL = 8
"""Legs from at most this many possible stations are also reported apart."""


class PlainTracker:
    """The baseline: the possible stations as a Python set, adjacency as dicts of sets."""

    def __init__(self, board: Board, start: set[int], detectives: Sequence[int]) -> None:
        self.adjacency: dict[str, dict[int, set[int]]] = {
            t: {s: set() for s in range(1, board.n + 1)}
            for t in ("taxi", "bus", "underground", "black")
        }
        for u, v, transport in board.edges:
            for ticket in (transport.value, "black"):
                if ticket in self.adjacency:
                    self.adjacency[ticket][u].add(v)
                    self.adjacency[ticket][v].add(u)
        self.detectives = list(detectives)
        self.possible = start - set(detectives)

    def mrx_leg(self, ticket: str) -> None:
        table = self.adjacency[ticket]
        out: set[int] = set()
        for station in self.possible:
            out |= table[station]
        out -= set(self.detectives)
        if not out:
            raise ValueError("no station left")
        self.possible = out

    def reveal(self, station: int) -> None:
        self.possible = {station}

    def detective_moved(self, detective: int, station: int, captured: bool) -> None:
        self.detectives[detective] = station
        self.possible = {station} if captured else self.possible - {station}


class Method(Protocol):
    def mrx_leg(self, ticket: str) -> None: ...
    def reveal(self, station: int) -> None: ...
    def detective_moved(self, detective: int, station: int, captured: bool) -> None: ...


Game = tuple[int, list[int], list[Event]]
"""A recorded game: Mr. X's start set (a bitset), the detectives' start, the public events."""


def record(game: ScotlandYardGame, games: int, seed: int) -> list[Game]:
    out = []
    for i in range(games):
        rng = random.Random(seed + i)
        state = game.new_initial_state()
        events = state.apply(state.sample_chance(rng))
        while not state.is_terminal():
            events += state.apply(rng.choice(state.legal_actions()))
        detectives = list(events[0].public["detectives"])
        public = [e.seen_by(1) for e in events[1:] if e.kind != "game_over"]
        out.append((game.mrx_start_set(detectives), detectives, public))
    return out


def replay(method: Method, events: list[Event], times: list[int]) -> list[int]:
    """Replay one game, appending each leg's time (ns) to ``times``; the possible set after
    each event is returned (as a bitset, from either tracker) for the agreement check and the
    sizes before each leg."""
    sets = []
    clock = time.perf_counter_ns
    for event in events:
        public = event.public
        if event.kind == "mrx_moved":
            ticket = public["ticket"]
            start = clock()
            method.mrx_leg(ticket)
            times.append(clock() - start)
            if public["reveal"] is not None:
                method.reveal(public["reveal"])
        elif event.kind == "detective_moved":
            method.detective_moved(public["detective"], public["station"], public["captured"])
        possible = method.possible  # type: ignore[attr-defined]
        sets.append(possible if isinstance(possible, int) else mask_of(possible))
    return sets


def sizes_before_legs(recorded: list[Game], sets: list[list[int]]) -> list[int]:
    """How many stations were possible before each Mr. X leg, in replay order."""
    out = []
    for (start, detectives, events), after in zip(recorded, sets, strict=True):
        before = start & ~mask_of(detectives)
        for event, possible in zip(events, after, strict=True):
            if event.kind == "mrx_moved":
                out.append(before.bit_count())
            before = possible
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few games (smoke test)")
    parser.add_argument("--games", type=int, default=200, help="random games to replay")
    parser.add_argument("--rounds", type=int, default=5, help="passes per method (best kept)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    games, rounds = (5, 1) if args.quick else (args.games, args.rounds)

    game, where = the_game()
    board = game.board
    recorded = record(game, games, args.seed)
    gc.collect()
    gc.freeze()

    def make(name: str, start: int, detectives: list[int]) -> Method:
        if name == "plain sets":
            stations = {s for s in range(1, board.n + 1) if start >> s & 1}
            return PlainTracker(board, stations, detectives)
        return Tracker(
            board, start, detectives, "random-walk" if name == "random-walk" else "uniform"
        )

    names = ["bitset", "plain sets", "random-walk"]
    best: dict[str, list[float]] = {}
    sets: dict[str, list[list[int]]] = {}
    for _ in range(rounds):
        for name in names:
            times: list[int] = []
            sets[name] = [replay(make(name, s, d), events, times) for s, d, events in recorded]
            kept = best.setdefault(name, [float("inf")] * len(times))
            best[name] = [min(a, b) for a, b in zip(kept, times, strict=True)]
    assert sets["bitset"] == sets["plain sets"] == sets["random-walk"], "the trackers disagree"

    sizes = sizes_before_legs(recorded, sets["bitset"])
    small = [i for i, size in enumerate(sizes) if size <= SMALL]
    large = [i for i, size in enumerate(sizes) if size > SMALL]
    print(f"Python {platform.python_version()}, {where}, {games} random games")
    print(
        f"{len(sizes)} Mr. X legs, from {statistics.median(sizes):.0f} possible stations "
        f"(median; {len(small)} legs from at most {SMALL}, {len(large)} from more)"
    )
    print(f"each leg's fastest of {rounds} rounds; the trackers agree after every event")
    print()
    base = statistics.median(best["plain sets"])
    rows = []
    for name in names:
        times = best[name]
        median = statistics.median(times)
        rows.append(
            [
                name,
                f"{median / 1000:.2f}",
                f"{statistics.fmean(times) / 1000:.2f}",
                f"{statistics.median(times[i] for i in small) / 1000:.2f}" if small else "-",
                f"{statistics.median(times[i] for i in large) / 1000:.2f}" if large else "-",
                f"{base / median:.1f}x",
            ]
        )
    header = ["method", "median us/leg", "mean", f"median <={SMALL}", f"median >{SMALL}"]
    print_table([*header, "vs baseline"], rows)


if __name__ == "__main__":
    main()
