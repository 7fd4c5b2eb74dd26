"""Benchmark: search simulations per second on Fox in a Hole (P5, 6 days), against OpenSpiel.

The same experiment for every player, in this process: a search hunter plays whole games
against a fox that walks uniformly at random, with a fixed number of simulations per move;
only the hunter's decisions are timed (for Sleuth: ``act``, which also builds the belief
sampler from the view).

* ``openspiel ismcts``: OpenSpiel's pure-Python ``ISMCTSBot`` (open_spiel >= 2.0.2) on a
  Python OpenSpiel port of the same rules (``bench/_openspiel_fox.py``): information-state
  strings as keys, one random rollout per simulation, ``uct_c = 2`` on rewards in [-1, 1]
  (the same exploration as ``c = 1`` on [0, 1]).  A published measurement gives about
  6,700 simulations/s for it on a 2-core machine.
* ``sleuth ismcts``: :class:`sleuth.search.players.ISMCTSPlayer` with a fresh tree per move
  (as OpenSpiel), then with the tree kept between moves (``reuse``).
* ``sleuth dmcts``: determinized MCTS with 10 worlds (the same total simulations).

Each player runs several rounds interleaved with the others; the best round counts.  The catch
rate is a sanity check (a published figure in ``docs/fox.md``: ISMCTS 87.5% at 1,000
simulations, 40 games).

    .venv/bin/python bench/search_fox.py [--quick] [--simulations N] [--games G]
"""

from __future__ import annotations

import platform
import random
import time
from collections.abc import Callable
from typing import Any

from _report import print_table, search_budget
from sleuth.core.bots import Bot
from sleuth.core.events import Event, View
from sleuth.core.registry import make_game
from sleuth.games.fox.rules import FoxMove
from sleuth.games.fox.search import FoxSearchModel
from sleuth.search.players import DeterminizedPlayer, ISMCTSPlayer
from sleuth.search.tree import SearchSettings

HOLES = 5
DAYS = 6
REFERENCE_OPENSPIEL = 6_700
"""Published figure (``docs/fox.md``): OpenSpiel's Python ISMCTS on a Python port of this game."""

Rate = tuple[float, float]
"""(simulations per second, catch rate) of one round."""


def sleuth_rate(
    make_bot: Callable[[Any, int], Bot], simulations: int, games: int, seed: int
) -> Rate:
    game = make_game("fox", {"graph": f"path:{HOLES}", "days": str(DAYS)})
    fox_rng = random.Random(seed + 1)
    seconds = 0.0
    decisions = caught = 0
    for g in range(games):
        bot = make_bot(game, seed + g)
        state = game.new_initial_state()
        events: list[Event] = []
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.current_player() == 0:
                view = View(0, "hunter", game.public_info(), [e.seen_by(0) for e in events])
                start = time.perf_counter()
                action = bot.act(view, legal)
                seconds += time.perf_counter() - start
                decisions += 1
            else:
                action = fox_rng.choice(
                    [a for a in legal if isinstance(a, FoxMove) and a.hole is not None]
                )
            events += state.apply(action)
        caught += state.returns()[0] == 1.0
    return decisions * simulations / seconds, caught / games


def _ismcts(simulations: int, reuse: bool) -> Callable[[Any, int], Bot]:
    settings = SearchSettings(iterations=simulations, reuse=reuse)
    return lambda game, seed: ISMCTSPlayer(game, 0, seed, FoxSearchModel(), settings)


def _dmcts(simulations: int) -> Callable[[Any, int], Bot]:
    settings = SearchSettings(iterations=simulations, worlds=10)
    return lambda game, seed: DeterminizedPlayer(game, 0, seed, FoxSearchModel(), settings)


def openspiel_rate(simulations: int, games: int, seed: int) -> Rate | None:
    try:
        from _openspiel_fox import openspiel_ismcts_rate
    except ImportError:
        return None
    rate, _ = openspiel_ismcts_rate(HOLES, DAYS, simulations, games, seed)
    return rate, float("nan")


def main() -> None:
    simulations, games, rounds, _ = search_budget(__doc__.splitlines()[0], 1000, 3, 3, 100)
    players: dict[str, Callable[[int], Rate | None]] = {
        "openspiel ismcts": lambda seed: openspiel_rate(simulations, games, seed),
        "sleuth ismcts": lambda seed: sleuth_rate(
            _ismcts(simulations, False), simulations, games, seed
        ),
        "sleuth ismcts (reuse)": lambda seed: sleuth_rate(
            _ismcts(simulations, True), simulations, games, seed
        ),
        "sleuth dmcts (10 worlds)": lambda seed: sleuth_rate(
            _dmcts(simulations), simulations, games, seed
        ),
    }
    best: dict[str, Rate | None] = dict.fromkeys(players)
    catches: dict[str, list[float]] = {name: [] for name in players}
    for r in range(rounds):
        for name, run in players.items():
            result = run(1000 * r)
            if result is None:
                continue
            catches[name].append(result[1])
            if best[name] is None or result[0] > best[name][0]:  # type: ignore[index]
                best[name] = result
    print(
        f"P{HOLES}, {DAYS} days, {simulations} simulations per move, "
        f"{games} games x {rounds} rounds vs a random-walk fox; Python {platform.python_version()}"
    )
    baseline = best["openspiel ismcts"]
    rows = []
    for name, result in best.items():
        if result is None:
            rows.append([name, "not installed", "", ""])
            continue
        ratio = f"{result[0] / baseline[0]:.2f}x" if baseline else "n/a"
        rate = [c for c in catches[name] if c == c]
        caught = f"{sum(rate) / len(rate):.0%}" if rate else ""
        rows.append([name, f"{result[0]:,.0f}", ratio, caught])
    print_table(["player", "simulations/s", "vs openspiel", "caught"], rows)
    if baseline is None:
        print("OpenSpiel is not installed: pip install 'sleuth[bench]' for the baseline.")
    print(f"(published figure for OpenSpiel's Python ISMCTS: about {REFERENCE_OPENSPIEL:,}/s)")


if __name__ == "__main__":
    main()
