"""Benchmark: the Marshal's deduction over whole Fugitive games, exact engine vs the source's
NetworkX layered graph.

Games: the heuristic Fugitive against the belief Marshal (1st edition), seeded.  At each of the
Marshal's guesses we ask each method for the candidate values of every face-down hideout:

(a) ``networkx notes`` (the baseline): the source blog's graph on NetworkX
    (``bench/_networkx_notes.py``), updated event by event as the blog describes; the time
    counts every update.
(b) ``exact``: :meth:`ExactBelief.candidates`: its facts (the Marshal's :class:`Timeline`)
    are updated event by event, and its programme runs from scratch at each guess (compiled
    with Numba when installed); the candidates are the values with a non-zero exact count, read
    without turning the counts into integers (``counts()`` does that, for the probabilities).
(c) ``relaxed``: :class:`RelaxedBelief`, the same way (sound, not always complete).
(d) ``notes``: Sleuth's plain :class:`MarshalNotes` (the same relaxation as (a), on sets).

Each method makes several passes over all the games (``--rounds``, interleaved with the other
methods) and its fastest pass is reported, as the machine's speed varies; the collector is
frozen after the games are prepared (see ``main``).  The ratio is the baseline's time over the
method's (above 1: faster than the baseline).  The
check column confirms soundness along the way: the exact candidates are within the baseline's
at every guess, and the truth is always an exact candidate.

    .venv/bin/python bench/fugitive_belief.py [--quick] [--games N] [--rounds R]
"""

from __future__ import annotations

import argparse
import gc
import math
import platform
import time
from collections.abc import Callable
from typing import Any

from _networkx_notes import NetworkxNotes
from _report import print_table
from sleuth.core.events import Event
from sleuth.core.match import run_match
from sleuth.games.fugitive import SPEC
from sleuth.games.fugitive.belief import ExactBelief, RelaxedBelief
from sleuth.games.fugitive.deduction.notes import MarshalNotes
from sleuth.games.fugitive.deduction.timeline import Timeline
from sleuth.games.fugitive.rules import MARSHAL

Query = tuple[list[Event], dict[int, int]]
"""The Marshal's view before a guess, and the true value of each face-down position."""


def queries(games: int, seed: int) -> list[list[Query]]:
    """Per game, the Marshal's view at each of her guesses, with the truth."""
    game = SPEC.make({})
    out = []
    for i in range(games):
        record = run_match(game, [SPEC.bot("heuristic"), SPEC.bot("belief")], seed + i, None)
        events = [e for step in record.steps for e in step.events]
        route = next(e for e in events if e.kind == "route").public["hideouts"]
        seen = [e.seen_by(MARSHAL) for e in events]
        points = []
        for k, event in enumerate(seen):
            if event.kind in ("guessed", "skipped"):
                placed = sum(e.kind == "placed" for e in seen[:k])
                truth = {p: int(route[p - 1]) for p in range(1, placed + 1)}
                points.append((seen[:k], truth))
        out.append(points)
    return out


def incremental(
    make: Callable[[], Any], candidates: Callable[[Any, int], set[int]]
) -> Callable[[list[Query]], list[dict[int, set[int]]]]:
    """A method that feeds a fresh ``make()`` every event and reads ``candidates`` at each
    guess."""

    def run(game_queries: list[Query]) -> list[dict[int, set[int]]]:
        notes = make()
        answers = []
        done = 0
        for prefix, truth in game_queries:
            for event in prefix[done:]:
                notes.apply(event)
            done = len(prefix)
            answers.append({p: candidates(notes, p) for p in truth})
        return answers

    return run


def recomputed(kind: type[ExactBelief]) -> Callable[[list[Query]], list[dict[int, set[int]]]]:
    """A belief whose facts (the :class:`Timeline`) are updated event by event, like the
    baseline's graph, and whose programme runs from scratch at each guess."""

    def run(game_queries: list[Query]) -> list[dict[int, set[int]]]:
        timeline = Timeline()
        answers = []
        done = 0
        for prefix, _ in game_queries:
            for event in prefix[done:]:
                timeline.apply(event)
            done = len(prefix)
            candidates = kind(timeline).candidates()
            answers.append({p: set(v) for p, v in candidates.items()})
        return answers

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few games (a smoke test)")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rounds", type=int, default=5, help="passes over the games (best kept)")
    args = parser.parse_args()
    games, args.rounds = (3, 1) if args.quick else (args.games, args.rounds)
    print(f"Python {platform.python_version()} on {platform.machine()}; {games} games, "
          f"heuristic Fugitive vs belief Marshal, seed {args.seed}")  # fmt: skip
    all_queries = queries(games, args.seed)
    total = sum(len(q) for q in all_queries)
    methods = {
        "networkx notes (baseline)": incremental(NetworkxNotes, NetworkxNotes.candidates),
        "exact (ExactBelief)": recomputed(ExactBelief),
        "relaxed (RelaxedBelief)": recomputed(RelaxedBelief),
        "notes (MarshalNotes, sets)": incremental(
            MarshalNotes, lambda notes, p: set(notes.hideouts_range(p))
        ),
    }
    # The prepared views are many long-lived objects: freeze them so that the collector does
    # not rescan them, which would charge the methods that allocate most for the benchmark's
    # own data.  Each method's own objects are still collected as usual.
    gc.collect()
    gc.freeze()
    seconds = dict.fromkeys(methods, math.inf)
    answers: dict[str, list[dict[int, set[int]]]] = {}
    for _ in range(args.rounds):  # interleaved, so that every method sees the same machine
        elapsed = dict.fromkeys(methods, 0.0)
        found: dict[str, list[dict[int, set[int]]]] = {name: [] for name in methods}
        for game_queries in all_queries:
            for name, method in methods.items():
                start = time.perf_counter()
                found[name] += method(game_queries)
                elapsed[name] += time.perf_counter() - start
        seconds = {name: min(seconds[name], elapsed[name]) for name in methods}
        answers = found
    truths = [truth for game_queries in all_queries for _, truth in game_queries]
    baseline, exact = answers["networkx notes (baseline)"], answers["exact (ExactBelief)"]
    sound = all(
        exact_sets[p] <= base_sets[p] and truth[p] in exact_sets[p]
        for exact_sets, base_sets, truth in zip(exact, baseline, truths, strict=True)
        for p in exact_sets
    )
    hidden = sum(len(a) for a in exact)  # face-down positions, over all guesses
    sizes = {
        name: sum(len(a[p]) for a, e in zip(found, exact, strict=True) for p in e) / hidden
        for name, found in answers.items()
    }
    base_time = seconds["networkx notes (baseline)"]
    rows = [
        [
            name,
            f"{seconds[name]:.3f}",
            f"{1000 * seconds[name] / total:.2f}",
            f"{sizes[name]:.2f}",
            f"{base_time / seconds[name]:.2f}x",
        ]
        for name in methods
    ]
    print(f"{total} guesses; exact within baseline and truth always exact: {sound}")
    print("mean candidates: values per face-down hideout, averaged over guesses")
    print_table(["method", "seconds", "ms/guess", "mean candidates", "vs baseline"], rows)


if __name__ == "__main__":
    main()
