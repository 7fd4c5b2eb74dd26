"""Self-check of the OpenSpiel port of Fox in a Hole (``_openspiel_fox``); not a pytest file.

1. OpenSpiel's own API consistency test (``pyspiel.random_sim_test``) on a few sizes.
2. Every state, via ``get_all_states``: the hunter's and the fox's information strings, and
   returns at terminal states.
3. The hunter's resampler: every sample keeps the hunter's information state, and the samples
   are uniform over all fox walks consistent with the inspections (checked against brute-force
   enumeration, chi-square).
4. A few games of OpenSpiel's ISMCTS hunter against the random-walk fox, then the sims/s of
   ``openspiel_ismcts_rate(simulations=1000, games=2)`` and the wall time of that call.

    .venv/bin/python bench/_openspiel_fox_check.py
"""

from __future__ import annotations

import collections
import itertools
import random
import time

import pyspiel
from open_spiel.python.algorithms.get_all_states import get_all_states

from _openspiel_fox import FOX, GAME_NAME, HUNTER, openspiel_ismcts_rate


def check_random_sims() -> None:
    """OpenSpiel's random simulation test (legality, cloning, strings, returns)."""
    for n, days in [(2, 1), (3, 4), (5, 6), (7, 10)]:
        game = pyspiel.load_game(GAME_NAME, {"n": n, "days": days})
        pyspiel.random_sim_test(game, num_sims=50, serialize=False, verbose=False)
    print("random_sim_test: ok")


def check_all_states() -> None:
    """Walk the whole tree of a small game and check strings and returns."""
    game = pyspiel.load_game(GAME_NAME, {"n": 4, "days": 4})
    states = get_all_states(
        game, depth_limit=-1, include_terminals=True, include_chance_states=False
    )
    hunter_infosets = set()
    for state in states.values():
        hunter_view = state.information_state_string(HUNTER)
        fox_view = state.information_state_string(FOX)
        assert "fox:" not in hunter_view, hunter_view
        if state.fox:
            assert "fox:" in fox_view, fox_view
        if state.is_terminal():
            assert state.returns() in ([1.0, -1.0], [-1.0, 1.0]), state
            assert state.returns()[HUNTER] == (1.0 if state.caught else -1.0)
        elif state.current_player() == HUNTER:
            hunter_infosets.add(hunter_view)
    terminals = sum(s.is_terminal() for s in states.values())
    print(
        f"get_all_states: {len(states)} states, {terminals} terminal, "
        f"{len(hunter_infosets)} hunter decision infosets: ok"
    )


def consistent_walks(n: int, inspections: list[int], length: int) -> list[tuple[int, ...]]:
    """All fox walks of ``length`` days on the path that miss every inspection."""
    return [
        walk
        for walk in itertools.product(range(n), repeat=length)
        if all(abs(a - b) == 1 for a, b in itertools.pairwise(walk))
        and all(walk[t] != hole for t, hole in enumerate(inspections))
    ]


def check_resampling(samples: int = 60_000) -> None:
    """Resampled fox walks keep the hunter's view and are uniform over consistent walks."""
    game = pyspiel.load_game(GAME_NAME)
    rng = random.Random(7)
    for actions in ([2], [3, 1, 2, 0, 3], [3, 1, 2, 0, 3, 4, 2, 1], [0, 4, 1, 0, 2, 3, 1]):
        state = game.new_initial_state()
        for action in actions:
            assert action in state.legal_actions(), (actions, action)
            state.apply_action(action)
        assert not state.is_terminal()
        key = state.information_state_string(HUNTER)
        walks = consistent_walks(game.n, state.inspections, len(state.fox))
        counts: collections.Counter[tuple[int, ...]] = collections.Counter()
        for _ in range(samples):
            sample = state.resample_from_infostate(HUNTER, rng.random)
            assert sample.information_state_string(HUNTER) == key
            assert sample.history()[1::2] == state.inspections
            counts[tuple(sample.fox)] += 1
        assert set(counts) == set(walks), set(counts) ^ set(walks)
        expected = samples / len(walks)
        chi2 = sum((counts[w] - expected) ** 2 / expected for w in walks)
        dof = len(walks) - 1
        # A loose bound: mean dof, sd sqrt(2 dof); 6 sd is far beyond chance.
        assert chi2 < dof + 6 * (2 * dof) ** 0.5 + 1, (actions, chi2, dof)
        print(f"resample {actions}: {len(walks)} walks, chi2 {chi2:.1f} on {dof} dof: ok")
    fox_clone = state.resample_from_infostate(FOX, rng.random)
    assert str(fox_clone) == str(state)
    caught = game.new_initial_state()
    for action in [2, 0, 3, 3]:  # hide in 2, miss 0, move to 3, inspect 3: caught
        caught.apply_action(action)
    assert caught.is_terminal() and caught.caught
    for _ in range(100):
        assert caught.resample_from_infostate(HUNTER, rng.random).fox[-1] == 3


def main() -> None:
    print(f"pyspiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else '?'}")
    check_random_sims()
    check_all_states()
    check_resampling()
    rate, total = openspiel_ismcts_rate(simulations=200, games=4, seed=1)
    print(f"4 quick games (200 sims/move): {total} simulations, {rate:,.0f} sims/s")
    start = time.perf_counter()
    rate, total = openspiel_ismcts_rate(simulations=1000, games=2)
    wall = time.perf_counter() - start
    print(
        f"openspiel_ismcts_rate(simulations=1000, games=2): {rate:,.0f} sims/s "
        f"over {total} simulations; call took {wall:.2f} s"
    )


if __name__ == "__main__":
    main()
