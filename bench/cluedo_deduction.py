"""Benchmark: Cluedo's exact deduction (first posterior, then event by event) vs the plain DP.

Games: the rules engine with 6 players (``--players``), every seat suggesting whenever it may
(random cards), never accusing, moving at random, for ``--turns`` turns; seeded.  Seat 0's
view is read by a :class:`~sleuth.games.cluedo.deduction.belief.CluedoBelief`.  What is timed
after each event that changes the seat's knowledge (a pass, a refutation, an unrefuted
suggestion): the update (the exact count) *and* the outputs the notepad shows (every
(card, owner) probability, the envelope's distribution, its entropy, the top triples).

(a) ``sleuth``: the belief as shipped (plain Python for small problems, int64 tables for
    large ones: the Numba kernels, or NumPy's where Numba is missing; run the script with
    ``SLEUTH_NO_NUMBA=1`` to time that case);
(b) ``sleuth, Python ints``: the same belief with its counting forced onto Python ints
    (``compiled=False``), as every problem ran without Numba before the NumPy kernels;
(c) ``plain DP`` (the baseline): the spec's dynamic programme done plainly
    (``bench/_plain_cluedo.py``: hands enumerated card by card, a dict over card bitmasks,
    forward and backward for the marginals, no binomials, no kernels); it is not asked for the
    envelope's distribution, a favour to it.

Against Velma's method (:mod:`sleuth.games.cluedo.velma_hypotheses` and
:mod:`~sleuth.games.cluedo.velma`, 100,000 hypotheses, its sampler compiled by Numba when
installed), in the same process on the same views:

* first posterior: seat 0's exact posterior with the notepad's outputs against Velma's first
  pool of hypotheses, both after the deal and seat 0's hand;
* each knowledge-changing event: the exact update with the outputs against Velma's (deleting
  the hypotheses the event rules out, refilling the pool, its envelope counts);
* a turn's decisions: at each of seat 0's turns, the ``sleuth`` player's decisions (move,
  the room to head for after a roll, suggestion, accusation) against ``velma``'s at the same
  points of the same game, each bot having read the view untimed first (so the update is
  not counted twice); the game itself is played by the random suggesters above.

The first posterior is seat 0's after the deal and its own hand (no other information).
Sleuth's methods keep each event's fastest of ``--rounds`` passes; the baseline runs once (it
takes seconds where Sleuth takes milliseconds).  The check column confirms that all three
count the same deals and that (a) and (c) give the same marginals at every event.  The ratio
is the baseline's time over the method's (median over events; above 1: faster).  The one-off
load of the compiled kernels (once per process) is reported apart.

    .venv/bin/python bench/cluedo_deduction.py [--quick] [--games N] [--players P] [--rounds R]
        [--hypotheses H] [--clock wall|cpu]
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import TypeVar

from _plain_cluedo import plain_marginals
from _report import print_table
from sleuth.core.bots import Bot
from sleuth.core.compiled import COMPILED
from sleuth.core.events import Event, View
from sleuth.games.cluedo import velma_hypotheses
from sleuth.games.cluedo.actions import Accuse, Show, Suggest
from sleuth.games.cluedo.deduction.belief import CluedoBelief
from sleuth.games.cluedo.deduction.constraints import Knowledge
from sleuth.games.cluedo.deduction.counting import Posterior, warm_up
from sleuth.games.cluedo.rules import CluedoGame
from sleuth.games.cluedo.sleuth_player import SleuthPlayer
from sleuth.games.cluedo.velma import VelmaPlayer

T = TypeVar("T")


class Clock:
    """The clock every time is read from: wall time by default, or this process's CPU time
    (``--clock cpu``: on a machine busy with other work, what the code itself costs)."""

    now: Callable[[], float] = time.perf_counter


CLOCK = Clock()
ANSWERS = frozenset(("passed", "refuted", "unrefuted"))


Decision = tuple[int, int, tuple[object, ...]]
"""Seat 0 to act (not refuting): (its turn number, the events of its view so far, the legal
actions)."""


def seat0_game(players: int, turns: int, seed: int) -> tuple[list[Event], list[Decision]]:
    """Seat 0's view of a random game in which everyone suggests whenever allowed, and the
    points where seat 0 chose an action (refutations aside)."""
    game = CluedoGame(players=players, max_turns=turns)
    rng = random.Random(seed)
    state = game.new_initial_state()
    view: list[Event] = []
    decisions: list[Decision] = []
    while not state.is_terminal():
        if state.current_player() < 0:
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            if state.current_player() == 0 and not isinstance(legal[0], Show):
                decisions.append((state.turn, len(view), tuple(legal)))
            suggest = [a for a in legal if isinstance(a, Suggest)]
            other = [a for a in legal if not isinstance(a, Accuse | Suggest)]
            action = rng.choice(suggest or other)
        view += [event.seen_by(0) for event in state.apply(action)]
    return view, decisions


def seat0_view(players: int, turns: int, seed: int) -> list[Event]:
    """Seat 0's view of a random game in which everyone suggests whenever allowed."""
    return seat0_game(players, turns, seed)[0]


def outputs(posterior: Posterior) -> float:
    """What the notepad reads after an event; returns the entropy."""
    posterior.matrix()
    posterior.top(5)
    return posterior.entropy()


def replay(
    view: list[Event], compiled: bool | None = None
) -> tuple[list[float], list[Knowledge], list[int]]:
    """Seat 0's belief over the view: the time of each knowledge-changing update with its
    outputs, the knowledge after it and the deal count."""
    belief = CluedoBelief(0, compiled=compiled)
    times, known, counts = [], [], []
    for event in view:
        before = belief.knowledge
        started = CLOCK.now()
        belief.update(event)
        changed = belief.knowledge is not before
        if changed and event.kind in ANSWERS:
            outputs(belief.posterior)
            times.append(CLOCK.now() - started)
            assert belief.knowledge is not None
            known.append(belief.knowledge)
            counts.append(belief.posterior.deals)
    return times, known, counts


def timed(function: Callable[[Knowledge], T], k: Knowledge) -> tuple[float, T]:
    started = CLOCK.now()
    result = function(k)
    return CLOCK.now() - started, result


def first_knowledge(view: list[Event]) -> Knowledge:
    """Seat 0's knowledge once it has read the deal (setup and every hand)."""
    belief = CluedoBelief(0)
    for event in view:
        if event.kind not in ("setup", "hand"):
            break
        belief.update(event)
    assert belief.knowledge is not None
    return belief.knowledge


def first_posterior(k: Knowledge, rounds: int, compiled: bool | None) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = CLOCK.now()
        outputs(Posterior(k, compiled=compiled))
        best = min(best, CLOCK.now() - started)
    return best


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def velma_first(view: list[Event], hypotheses: int, rounds: int) -> float:
    """Velma's first pool: the fastest of ``rounds`` reads of the deal and seat 0's hand."""
    game = CluedoGame(players=view[0].public["players"])
    deal = [e for e in view if e.kind in ("setup", "hand")]
    best = float("inf")
    for round_ in range(rounds):
        player = VelmaPlayer(game, 0, round_, hypotheses=hypotheses)
        started = CLOCK.now()
        player.observe(View(0, "player", {}, deal))
        assert player.belief is not None
        player.belief.solution_counts()
        best = min(best, CLOCK.now() - started)
    return best


def velma_events(view: list[Event], hypotheses: int) -> list[float]:
    """Velma's update (and envelope counts) at each event that changes seat 0's exact
    knowledge (the events :func:`replay` times)."""
    game = CluedoGame(players=view[0].public["players"])
    player = VelmaPlayer(game, 0, 0, hypotheses=hypotheses)
    exact = CluedoBelief(0)
    times = []
    for i, event in enumerate(view):
        before = exact.knowledge
        exact.update(event)
        started = CLOCK.now()
        player.observe(View(0, "player", {}, view[: i + 1]))
        if player.belief is not None and not player.out:
            player.belief.solution_counts()
        spent = CLOCK.now() - started
        if event.kind in ANSWERS and exact.knowledge is not before:
            times.append(spent)
    return times


def turn_decisions(bot: Bot, view: list[Event], decisions: list[Decision]) -> list[float]:
    """The time of each of seat 0's turns' decisions by ``bot`` (fresh), which reads the view
    untimed before each decision."""
    turns: dict[int, float] = {}
    for turn, seen, legal in decisions:
        at = View(0, "player", {}, view[:seen])
        bot.observe(at)
        started = CLOCK.now()
        bot.act(at, legal)
        turns[turn] = turns.get(turn, 0.0) + CLOCK.now() - started
    return list(turns.values())


def summary(times: list[float]) -> tuple[float, float, float]:
    """Median, 95th percentile and maximum."""
    ordered = sorted(times)
    return statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))], ordered[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one short 3-player game")
    parser.add_argument("--games", type=int, default=3, help="random games")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--turns", type=int, default=60, help="turns per game")
    parser.add_argument("--rounds", type=int, default=3, help="passes of Sleuth's methods")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hypotheses", type=int, default=100_000, help="Velma's pool")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args()
    if args.clock == "cpu":
        CLOCK.now = time.process_time
    games, players, turns, rounds = args.games, args.players, args.turns, args.rounds
    hypotheses = args.hypotheses
    if args.quick:
        games, players, turns, rounds, hypotheses = 1, 3, 12, 1, 2_000

    started = CLOCK.now()
    warm_up()
    velma_hypotheses.warm_up()
    load = CLOCK.now() - started
    played = [seat0_game(players, turns, args.seed + g) for g in range(games)]
    views = [view for view, _ in played]
    gc.collect()
    gc.freeze()

    first = first_knowledge(views[0])
    first_times = {
        "sleuth": first_posterior(first, rounds, None),
        "sleuth, Python ints": first_posterior(first, rounds, False),
    }
    base_first, (base_total, _) = timed(plain_marginals, first)
    assert base_total == Posterior(first).total

    best: list[float] = []
    plain: list[float] = []
    knowledge: list[Knowledge] = []
    counts: list[int] = []
    for round_ in range(rounds):
        this_round: list[float] = []
        this_plain: list[float] = []
        for view in views:
            spent, known, deals = replay(view)
            this_round += spent
            spent, _, plain_deals = replay(view, compiled=False)
            assert plain_deals == deals
            this_plain += spent
            if round_ == 0:
                knowledge += known
                counts += deals
        best = (
            this_round if not best else [min(a, b) for a, b in zip(best, this_round, strict=True)]
        )
        plain = (
            this_plain if not plain else [min(a, b) for a, b in zip(plain, this_plain, strict=True)]
        )
    baseline = []
    for i, k in enumerate(knowledge):
        seconds, (total, marginals) = timed(plain_marginals, k)
        posterior = Posterior(k)
        assert total == counts[i] == posterior.total
        assert all(v == posterior.count(c, k.owner(o)) for (c, o), v in marginals.items())
        baseline.append(seconds)

    kernels = "Numba kernels" if COMPILED else "no Numba"
    print(
        f"Python {platform.python_version()}, {kernels}, {games} game(s) of {players} players, "
        f"{args.clock} clock"
    )
    print(
        f"{len(knowledge)} knowledge-changing events in seat 0's view (turns: {turns}); "
        f"deals from {max(counts):,} down to {min(counts):,}"
    )
    print(f"kernels loaded in {load:.2f} s (once per process; not in the times below)")
    print(f"Sleuth: each event's fastest of {rounds} rounds; the baseline once; counts agree")
    print()
    base_event = statistics.median(baseline)
    rows = []
    for name, spent in (("sleuth", best), ("sleuth, Python ints", plain), ("plain DP", baseline)):
        first_time = first_times.get(name, base_first)
        rows.append(
            [
                name,
                ms(first_time),
                ms(statistics.median(spent)),
                ms(sorted(spent)[int(0.95 * (len(spent) - 1))]),
                ms(max(spent)),
                "same deals and marginals" if name != "plain DP" else "-",
                f"{base_event / statistics.median(spent):.0f}x",
                f"{base_first / first_time:.0f}x",
            ]
        )
    header = ["method", "first ms", "event ms (median)", "p95", "max", "check"]
    print_table([*header, "vs baseline", "first vs baseline"], rows)

    game = CluedoGame(players=players, max_turns=turns)
    velma_first_time = velma_first(views[0], hypotheses, rounds)
    velma_times = [t for view in views for t in velma_events(view, hypotheses)]
    makers: dict[str, Callable[[int], Bot]] = {
        "sleuth": lambda seed: SleuthPlayer(game, 0, seed),
        "velma": lambda seed: VelmaPlayer(game, 0, seed, hypotheses=hypotheses),
    }
    decided: dict[str, list[float]] = {name: [] for name in makers}
    for name, make in makers.items():
        for g, (view, decisions) in enumerate(played):
            decided[name] += turn_decisions(make(g), view, decisions)
    print()
    print(
        f"Against Velma's method ({hypotheses:,} hypotheses), same games and process: "
        f"{len(velma_times)} events, {len(decided['sleuth'])} turns of seat 0"
    )
    sleuth_first = first_times["sleuth"]
    sleuth_event, velma_event = summary(best), summary(velma_times)
    sleuth_turn, velma_turn = summary(decided["sleuth"]), summary(decided["velma"])
    rows = [
        ["first posterior", ms(sleuth_first), "-", "-", ms(velma_first_time), "-", "-",
         f"{velma_first_time / sleuth_first:.1f}x"],
        ["event update", *map(ms, sleuth_event), *map(ms, velma_event),
         f"{velma_event[0] / sleuth_event[0]:.1f}x"],
        ["turn decision", *map(ms, sleuth_turn), *map(ms, velma_turn),
         f"{velma_turn[0] / sleuth_turn[0]:.1f}x"],
    ]  # fmt: skip
    header = ["what", "sleuth ms (median)", "p95", "max", "velma ms (median)", "p95", "max"]
    print_table([*header, "velma / sleuth"], rows)


if __name__ == "__main__":
    main()
