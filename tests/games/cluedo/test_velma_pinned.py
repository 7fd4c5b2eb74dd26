"""Velma's decisions pinned: seeded games whose every action, and velma's pool and scores at
each of her moves, must equal what the code produced when the fixture was recorded.

Speed-ups of Velma's sampler and scoring must not change a single decision: the same seeds
give the same hypotheses in the same order (a refill keeps the first of the sampler's
hypotheses), the same expected entropies and room distributions (to the bit), the same
actions.  The fixture ``data/velma_pinned.json`` was recorded from the code before its hot
paths were compiled further, with the compiled sampler (Numba) and with the vectorised one
(``SLEUTH_NO_NUMBA`` or no Numba).  Every seat is ``velma`` or a ``random`` player, so that
only Velma's code (and the rules engine) decides these games.

To re-record after an *intended* change of Velma's decisions (never for a speed-up):
``.venv/bin/python -m tests.games.cluedo.test_velma_pinned``.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sleuth.core.match import run_match
from sleuth.core.registry import game_spec, make_game
from sleuth.games.cluedo import _velma_kernels as kernels
from sleuth.games.cluedo.velma import VelmaPlayer
from tests.games.cluedo.pinning import digest, first_difference, recording

FIXTURE = Path(__file__).parent / "data" / "velma_pinned.json"

GAMES: dict[str, dict[str, Any]] = {
    # the study's shape: four players, 100,000 hypotheses
    "4p-default": {
        "options": {"players": 4},
        "bots": ["velma", "velma", "random", "velma"],
        "seed": 11,
        "compiled": True,
    },
    # small pools: many refills, the enumeration switch, wrong accusations (low threshold)
    "3p-small": {
        "options": {"players": 3, "max_turns": 200},
        "bots": ["velma:hypotheses=3000", "random", "velma:hypotheses=2000:threshold=0.3"],
        "seed": 3,
        "compiled": True,
    },
    "6p-wrong": {
        "options": {"players": 6, "max_turns": 200, "leftover": "face_up"},
        "bots": [
            "velma:hypotheses=4000:threshold=0.2:accuse_in_room=false",
            "random",
            "velma:hypotheses=3000:threshold=0.25",
            "random",
            "velma:hypotheses=5000:threshold=0.3:accuse_in_room=false",
            "random",
        ],
        "seed": 5,
        "compiled": True,
    },
    # the NumPy sampler (used without Numba)
    "4p-vectorised": {
        "options": {"players": 4, "max_turns": 120},
        "bots": [
            "velma:hypotheses=5000",
            "random",
            "velma:hypotheses=4000:threshold=0.4",
            "random",
        ],
        "seed": 7,
        "compiled": False,
    },
}


def _state(player: VelmaPlayer, action: Hashable) -> str:
    """A digest of ``player``'s pool (ordered), of her cached room analyses (floats to 12
    significant digits, so that the fixture holds on another CPU's logarithms) and of the
    action she chose."""
    parts = [repr(action).encode()]
    belief = player.belief
    if belief is not None and not player.out:
        parts += [belief.owners.tobytes(), belief.envelopes.tobytes()]
        parts.append(np.array([belief.count, belief.enumerated, belief.attempts]).tobytes())
        for room in sorted(player._analysed):
            expected, rooms, choice = player._analysed[room]
            shares = ",".join(f"{x:.12g}" for x in np.asarray(rooms, dtype=np.float64))
            parts.append(f"{room}:{expected:.12g}:{choice}:{shares}".encode())
    return digest(*parts)


def play(name: str) -> dict[str, Any]:
    """Plays the pinned game ``name``: every step's seat and action, and velma's states."""
    setting = GAMES[name]
    if setting["compiled"] and not kernels.COMPILED:
        pytest.skip("Numba is not installed (or SLEUTH_NO_NUMBA is set)")
    spec = game_spec("cluedo")
    bots = [spec.bot(b) for b in setting["bots"]]
    states: list[str] = []
    compiled = kernels.COMPILED
    kernels_module: Any = kernels
    kernels_module.COMPILED = setting["compiled"] and compiled
    try:
        with recording(
            VelmaPlayer,
            lambda player, action: states.append(f"{player.seat}:{_state(player, action)}"),
        ):
            record = run_match(
                make_game("cluedo", setting["options"]), bots, setting["seed"], time_limit=None
            )
    finally:
        kernels_module.COMPILED = compiled
    assert not record.forfeits
    steps = [f"{s.seat}:{s.action!r}" for s in record.steps]
    return {"steps": steps, "velma": states}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_velma_decides_as_pinned(name: str) -> None:
    want = json.loads(FIXTURE.read_text())[name]
    got = play(name)
    assert got["steps"] == want["steps"], first_difference(got["steps"], want["steps"])
    assert got["velma"] == want["velma"], first_difference(got["velma"], want["velma"])


def test_the_pinned_games_exercise_what_they_are_for() -> None:
    """The fixture is not trivial: velma moves many times in each game, mostly with a pool or
    analyses she did not have at her move before, and wrong accusations happen where they are
    meant to."""
    pinned = json.loads(FIXTURE.read_text())
    assert set(pinned) == set(GAMES)
    for name, game in pinned.items():
        assert len(game["velma"]) >= 20, name
        assert len(set(game["velma"])) > 0.8 * len(game["velma"]), name
    accusations = [step for step in pinned["6p-wrong"]["steps"] if "Accuse" in step]
    assert len(accusations) >= 2  # the game ends at the first right one


if __name__ == "__main__":
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(json.dumps({name: play(name) for name in GAMES}, indent=1) + "\n")
    print(f"wrote {FIXTURE}")
