"""The ``sleuth`` player's decisions pinned: seeded games whose every action, and at each
sleuth move its samples, its rooms' screened worth and, at each suggestion, the room's screen
and the exact gains of the suggestions it weighed, must equal what the code produced when the
fixture was recorded.

Speed-ups of the advice (sampling, screening, exact rescoring) must not change a single
decision: the same seeds give the same samples (to the bit), the same screened and exact
gains (to 12 significant digits, so that the fixture holds on another CPU's logarithms) and
the same actions.  The fixture ``data/sleuth_pinned.json`` was recorded from the code before
those hot paths were sped up.  The other seats are ``velma`` (small pools) and ``logic``:
neither depends on the ``sleuth`` code but through the game.  The ``sleuth`` player decides
alike with Numba and without (``SLEUTH_NO_NUMBA``: the plain-Python counting); velma's draws
differ without it, so only the games marked ``plain`` (where velma's pool is small enough to
be enumerated, or no velma plays) are replayed without Numba.

To re-record after an *intended* change of the player's decisions (never for a speed-up):
``.venv/bin/python -m tests.games.cluedo.test_sleuth_pinned``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sleuth.core.match import run_match
from sleuth.core.registry import game_spec, make_game
from sleuth.games.cluedo import _velma_kernels as velma_kernels
from sleuth.games.cluedo.actions import Suggest
from sleuth.games.cluedo.advice import RESCORE, exact_gain, room_gains
from sleuth.games.cluedo.cards import SUSPECTS, WEAPONS
from sleuth.games.cluedo.sleuth_player import SleuthPlayer
from tests.games.cluedo.pinning import digest, first_difference, recording

FIXTURE = Path(__file__).parent / "data" / "sleuth_pinned.json"

GAMES: dict[str, dict[str, Any]] = {
    "3p-velma": {
        "options": {"players": 3, "max_turns": 200},
        "bots": ["sleuth", "velma:hypotheses=3000", "logic"],
        "seed": 1,
        "plain": True,
    },
    "4p-logic": {
        "options": {"players": 4},
        "bots": ["sleuth", "logic", "logic", "logic"],
        "seed": 12,  # 11 before turns ended with an event: then sleuth suggested 3 times only
        "plain": True,
    },
    # a rushed accusation and a seat that gives up a share of gain not to summon rivals
    "4p-options": {
        "options": {"players": 4, "max_turns": 200},
        "bots": [
            "logic",
            "sleuth:threshold=0.6:rush=0.4:spare=0.1",
            "velma:hypotheses=2000",
            "sleuth:rescore=1",
        ],
        "seed": 6,  # 5 before turns ended with an event: then no sleuth seat accused
        "plain": False,
    },
    "6p-mixed": {
        "options": {"players": 6, "max_turns": 200},
        "bots": [
            "velma:hypotheses=3000",
            "sleuth",
            "logic",
            "sleuth",
            "logic",
            "velma:hypotheses=2000",
        ],
        "seed": 5,
        "plain": False,
    },
}


def _floats(values: Any) -> str:
    return ",".join(f"{x:.12g}" for x in np.asarray(values, dtype=np.float64).ravel())


def _state(player: SleuthPlayer, action: Hashable) -> dict[str, Any]:
    """What ``player`` decided and from what: the action, a digest of the samples its
    decision used (bit for bit) and its rooms' screened worth; at a suggestion, the room's
    screen and the exact gain of each suggestion it weighed (the ``rescore`` best of the
    screen, or every one for a seat with ``rescore`` below 3: more to pin)."""
    out: dict[str, Any] = {"seat": player.seat, "action": repr(action)}
    scored = player._scored
    if scored is not None and scored[0] is player.belief.posterior:
        _, samples, worth = scored
        out["samples"] = digest(samples.order.tobytes(), samples.envelopes.tobytes())
        out["worth"] = _floats([worth[room] for room in sorted(worth)])
        if isinstance(action, Suggest):
            screen = room_gains(samples, action.room)
            out["screen"] = digest(_floats(screen).encode())
            ranked = sorted(range(36), key=lambda i: -screen.ravel()[i])[: max(RESCORE, 3)]
            triples = [
                (SUSPECTS.start + i // 6, WEAPONS.start + i % 6, action.room) for i in ranked
            ]
            players = player.cluedo.players
            posterior = player.belief.posterior
            out["gains"] = _floats(
                [exact_gain(posterior, player.seat, players, t, samples) for t in triples]
            )
    return out


def play(name: str) -> dict[str, Any]:
    """Plays the pinned game ``name``: every step's seat and action, and sleuth's states."""
    setting = GAMES[name]
    if not setting["plain"] and not velma_kernels.COMPILED:
        pytest.skip("velma draws otherwise without Numba")
    spec = game_spec("cluedo")
    bots = [spec.bot(b) for b in setting["bots"]]
    states: list[dict[str, Any]] = []
    with recording(SleuthPlayer, lambda player, action: states.append(_state(player, action))):
        record = run_match(
            make_game("cluedo", setting["options"]), bots, setting["seed"], time_limit=None
        )
    assert not record.forfeits
    steps = [f"{s.seat}:{s.action!r}" for s in record.steps]
    return {"steps": steps, "sleuth": states}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_sleuth_decides_as_pinned(name: str) -> None:
    want = json.loads(FIXTURE.read_text())[name]
    got = play(name)
    assert got["steps"] == want["steps"], first_difference(got["steps"], want["steps"])
    assert got["sleuth"] == want["sleuth"], first_difference(got["sleuth"], want["sleuth"])


def test_sleuth_decides_as_pinned_without_numba() -> None:
    """The plain games replayed in a fresh interpreter with ``SLEUTH_NO_NUMBA=1``."""
    plain = [name for name, setting in GAMES.items() if setting["plain"]]
    script = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import test_sleuth_pinned as t; "
        "print(json.dumps({n: t.play(n) for n in sys.argv[2:]}))"
    )
    env = {**os.environ, "SLEUTH_NO_NUMBA": "1"}
    run = subprocess.run(
        [sys.executable, "-c", script, str(Path(__file__).parent), *plain],
        env=env, capture_output=True, text=True, check=True, timeout=300,
    )  # fmt: skip
    got = json.loads(run.stdout)
    pinned = json.loads(FIXTURE.read_text())
    for name in plain:
        want = pinned[name]
        assert got[name]["steps"] == want["steps"], name
        assert got[name]["sleuth"] == want["sleuth"], (
            name, first_difference(got[name]["sleuth"], want["sleuth"])
        )  # fmt: skip


def test_the_pinned_games_exercise_what_they_are_for() -> None:
    """The fixture is not trivial: sleuth moves and suggests many times in each game, with
    samples it did not have at its move before, and the option seats accuse."""
    pinned = json.loads(FIXTURE.read_text())
    assert set(pinned) == set(GAMES)
    for name, game in pinned.items():
        moves = game["sleuth"]
        suggestions = [m for m in moves if "gains" in m]
        assert len(moves) >= 20 and len(suggestions) >= 5, name
        digests = [m["samples"] for m in moves if "samples" in m]
        assert len(set(digests)) >= 5, name
    assert any("Accuse" in m["action"] for m in pinned["4p-options"]["sleuth"])


if __name__ == "__main__":
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(json.dumps({name: play(name) for name in GAMES}, indent=1) + "\n")
    print(f"wrote {FIXTURE}")
