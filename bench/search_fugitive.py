"""Benchmark: Fugitive search simulations per second, for both seats and both rollout policies.

A search player (ISMCTS, a fresh tree per move, a fixed number of simulations) plays whole
games, 1st edition, ``max_rounds=50``: as the Fugitive against the belief Marshal, as the
Marshal against the heuristic Fugitive.  Only the search player's decisions are timed (``act``:
building the world sampler from the view, then the simulations: a sampled world, the tree
walk, a rollout).  Rollouts play ``random`` (the random players' policy) or ``heuristic``
(epsilon-greedy on the heuristic Fugitive and a quick Marshal guess).

The baseline, in the same process: whole random games per second in a plain engine of lists
and sets (``bench/_plain_fugitive.py``, the random players' policy).  A simulation plays at
most the rest of one such game, plus sampling and the tree, so the ratio is a scale of what
the search adds to the cheapest possible rollout.  The win rate is a sanity check.

    .venv/bin/python bench/search_fugitive.py [--quick] [--simulations N] [--games G]
"""

from __future__ import annotations

import platform
import random
import time
from collections.abc import Callable

from _plain_fugitive import play_random_game
from _report import print_table, search_budget
from sleuth.core.bots import Bot
from sleuth.core.events import Event, View
from sleuth.core.game import CHANCE
from sleuth.games.fugitive import SPEC
from sleuth.games.fugitive.belief import warm_up
from sleuth.games.fugitive.rules import FUGITIVE, MARSHAL, FugitiveGame
from sleuth.games.fugitive.search import FugitiveSearchModel
from sleuth.search.players import ISMCTSPlayer
from sleuth.search.tree import SearchSettings

GAME = FugitiveGame(max_rounds=50)
RIVALS = ("heuristic", "belief")
"""The opponents of the searching seat, by seat, with their default options."""

Rate = tuple[float, float]
"""(per second, the searching seat's win share) of one round."""


def search_rate(seat: int, policy: str, simulations: int, games: int, seed: int) -> Rate:
    settings = SearchSettings(iterations=simulations, policy=policy, reuse=False)
    seconds, decisions, wins = 0.0, 0, 0.0
    for g in range(games):
        rng = random.Random(seed + g)
        bots: list[Bot] = [SPEC.bot(name).make(GAME, s, seed + g) for s, name in enumerate(RIVALS)]
        bots[seat] = ISMCTSPlayer(GAME, seat, seed + g, FugitiveSearchModel(), settings)
        state, events = GAME.new_initial_state(), list[Event]()
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                events += state.apply(state.sample_chance(rng))
                continue
            view = View(player, "", {}, [e.seen_by(player) for e in events])
            start = time.perf_counter()
            action = bots[player].act(view, state.legal_actions())
            if player == seat:
                seconds += time.perf_counter() - start
                decisions += 1
            events += state.apply(action)  # type: ignore[arg-type]
        wins += state.returns()[seat] == 1.0
    return decisions * simulations / seconds, wins / games


def plain_rate(games: int, seed: int) -> Rate:
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(games):
        play_random_game(rng)
    return games / (time.perf_counter() - start), float("nan")


def main() -> None:
    simulations, games, rounds, quick = search_budget(__doc__.splitlines()[0], 100, 2, 2, 10)
    warm_up()
    players: dict[str, Callable[[int], Rate]] = {
        "plain random games": lambda seed: plain_rate(200 if quick else 2000, seed),
    }
    for seat, name in ((FUGITIVE, "fugitive"), (MARSHAL, "marshal")):
        for policy in ("random", "heuristic"):
            players[f"ismcts {name}, {policy} rollouts"] = lambda seed, seat=seat, policy=policy: (
                search_rate(seat, policy, simulations, games, seed)
            )
    best: dict[str, Rate] = {}
    shares: dict[str, list[float]] = {name: [] for name in players}
    for r in range(rounds):
        for name, run in players.items():
            rate = run(1000 * r)
            shares[name].append(rate[1])
            if name not in best or rate[0] > best[name][0]:
                best[name] = rate
    print(
        f"1st edition, max_rounds=50, {simulations} simulations per move, {games} games x "
        f"{rounds} rounds; the Fugitive against the belief Marshal, the Marshal against the "
        f"heuristic Fugitive; Python {platform.python_version()}"
    )
    baseline = best["plain random games"][0]
    rows = []
    for name, (rate, _) in best.items():
        won = [w for w in shares[name] if w == w]
        share = f"{sum(won) / len(won):.0%}" if won else ""
        unit = "games/s" if name.startswith("plain") else "simulations/s"
        rows.append([name, f"{rate:,.0f} {unit}", f"{rate / baseline:.2f}x", share])
    print_table(["player", "rate", "vs baseline", "won"], rows)


if __name__ == "__main__":
    main()
