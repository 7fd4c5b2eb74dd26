"""The Gymnasium adapter (sleuth.envs.gymnasium): Gymnasium's own checker on every game with an
encoding, the registered ids, games equal to the match runner's, the opponents' errors,
illegal ids and the learner's options."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import sleuth
from sleuth.core.bots import Bot, BotSpec
from sleuth.core.errors import OptionError, UnknownNameError
from sleuth.core.events import View
from sleuth.core.game import Game
from sleuth.core.registry import builtin_game_names, game_spec
from tests.envs.adapters import (
    GAMES,
    RL_MISSING,
    bot_ids,
    bot_sets,
    options,
    reference,
    same_game,
    seat_bots,
)

gymnasium = pytest.importorskip("gymnasium", reason=f"gymnasium {RL_MISSING}")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from sleuth.envs.gymnasium import IDS, OpponentError, SleuthEnv  # noqa: E402


def seats(name: str) -> list[int]:
    return list(range(game_spec(name).make(options(name)).num_players))


LEARNERS = [(name, seat) for name in GAMES for seat in seats(name)]


@pytest.mark.filterwarnings("ignore::UserWarning")  # the checker's advice (render fps)
@pytest.mark.parametrize(("name", "seat"), LEARNERS)
def test_check_env(name: str, seat: int) -> None:
    check_env(SleuthEnv(name, seat=seat, **options(name)))


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("env_id", [i for i, (game, _) in IDS.items() if game in GAMES])
def test_check_env_on_the_registered_ids(env_id: str) -> None:
    """gymnasium.make builds each id of a game with an encoding (its render modes included:
    the checker remakes the id with each)."""
    made = gymnasium.make(env_id, **options(IDS[env_id][0]))
    check_env(made.unwrapped)
    made.close()


def test_the_ids_name_every_built_in_game_and_role() -> None:
    """A game whose seats share one role has one id (the learner chooses a seat); any other
    game has an id per role of its default seating."""
    named: dict[str, set[str | None]] = {}
    for game, role in IDS.values():
        named.setdefault(game, set()).add(role)
    expected: dict[str, set[str | None]] = {}
    for name in builtin_game_names():
        roles = game_spec(name).make({}).roles
        expected[name] = {None} if len(set(roles)) == 1 else set(roles)
    assert named == expected
    assert all(re.fullmatch(r"sleuth/[A-Za-z]+(-[A-Za-z]+)*-v\d+", i) for i in IDS), IDS


def python(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter that imports this Sleuth."""
    source = str(Path(sleuth.__file__).resolve().parents[1])
    path = os.pathsep.join([source, os.environ.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=cwd,
        env={**os.environ, "PYTHONPATH": path},
    )  # fmt: skip


def test_registering_the_ids_imports_no_game(tmp_path: Path) -> None:
    """``import sleuth.envs.gymnasium`` registers every id and imports no game (entry points
    are strings); gymnasium.make("sleuth.envs.gymnasium:ID") works after ``import gymnasium``
    alone."""
    probe = (
        "import json, sys, gymnasium, sleuth.envs.gymnasium\n"
        "ids = sorted(i for i in gymnasium.registry if i.startswith('sleuth/'))\n"
        "games = sorted(m for m in sys.modules if m.startswith('sleuth.games'))\n"
        "print(json.dumps([ids, games]))\n"
    )
    done = python(probe, tmp_path)
    assert done.returncode == 0, done.stderr
    ids, games = json.loads(done.stdout)
    assert ids == sorted(IDS) and games == []
    made = python(
        "import gymnasium\n"
        "env = gymnasium.make('sleuth.envs.gymnasium:sleuth/Fox-Hunter-v0', graph='path:4')\n"
        "print(env.reset(seed=1)[0]['action_mask'].tolist())",
        tmp_path,
    )
    assert made.returncode == 0, made.stderr
    assert made.stdout.strip() == "[1, 1, 1, 1, 0, 0, 0, 0, 0]"


@pytest.mark.parametrize(("name", "seat"), LEARNERS)
@pytest.mark.parametrize("seed", [0, 5])
def test_a_learner_choosing_its_bot_s_ids_plays_the_match_runner_s_game(
    name: str, seat: int, seed: int
) -> None:
    """The learner's seat choosing the ids of the action its bot would choose, against the
    same bots as opponents, plays the game run_match plays with the same seed (the reference);
    the last reward is the learner's win share."""
    for bots in bot_sets(name):
        record = reference(name, bots, seed)
        opponents = ",".join(b for s, b in enumerate(record.bots) if s != seat)
        env = SleuthEnv(name, seat=seat, opponent=opponents, **options(name))
        observation, _ = env.reset(seed=seed)
        assert env.episode is not None
        learner = seat_bots(record, env.episode, seed)[seat]
        reward, terminated = 0.0, env.episode.over
        while not terminated:
            for action_id in bot_ids(env.episode, learner):
                assert observation["action_mask"][action_id] == 1
                observation, reward, terminated, _, info = env.step(action_id)
                assert "illegal" not in info
        same_game(env.episode, record)
        assert reward == record.wins[seat]


def test_action_masks_are_the_observation_s_mask() -> None:
    env = SleuthEnv("fox", role="hunter", graph="path:5")
    observation, _ = env.reset(seed=0)
    while True:
        mask = env.action_masks()
        assert mask.dtype == np.bool_ and (mask == observation["action_mask"].astype(bool)).all()
        observation, _, terminated, _, _ = env.step(int(np.flatnonzero(mask)[-1]))
        if terminated:
            break


def test_an_illegal_id_ends_the_episode_with_minus_one() -> None:
    env = SleuthEnv("fox", role="hunter", graph="path:5")
    observation, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    after, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info == {"illegal": f"action id {illegal} is not legal here"}
    assert after["observation"].tobytes() == observation["observation"].tobytes()
    with pytest.raises(RuntimeError, match=r"the episode has ended: call reset\(\)"):
        env.step(0)


class Broken(Bot):
    """Raises, or returns an action no game has, as ``how`` says."""

    how = "raise"

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        if self.how == "raise":
            raise ValueError("no idea")
        return "nonsense"


class Nonsense(Broken):
    how = "nonsense"


@pytest.mark.parametrize(
    ("bot", "message"),
    [
        (Broken, "bot 'broken' at seat 0 (hunter) raised ValueError: no idea"),
        (Nonsense, "bot 'broken' at seat 0 (hunter) returned an illegal action 'nonsense'"),
    ],
)
def test_an_opponent_that_fails_is_named_with_its_seat(bot: type[Bot], message: str) -> None:
    env = SleuthEnv("fox", role="fox", graph="path:5")

    def factory(game: Game[Any], seat: int, seed: int) -> Bot:
        return bot(game, seat, seed)

    env.opponents[0] = BotSpec("broken", ("hunter",), factory, "fails")
    observation, _ = env.reset(seed=0)  # the fox moves first
    with pytest.raises(OpponentError, match=re.escape(message)):
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"role": "owl"}, OptionError, "no seat plays 'owl'; the seats play hunter, fox"),
        ({"seat": 2}, OptionError, "seat 2: the game has seats 0-1"),
        ({"seat": 0, "role": "fox"}, OptionError, "seat 0 plays hunter, not fox"),
        ({"opponent": "solver"}, OptionError, "solver cannot play seat 1 \\(fox\\)"),
        ({"opponent": "random,random"}, OptionError, "2 bots for the 1 other seats \\[1\\]"),
        ({"opponent": "wizard"}, UnknownNameError, "unknown bot 'wizard' for fox"),
        ({"belief": True, "colour": "red"}, OptionError, "colour"),
    ],
)
def test_bad_learner_options_are_named(
    kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        SleuthEnv("fox", graph="path:5", **kwargs)


def test_seats_sharing_a_role_are_chosen_by_seat() -> None:
    from sleuth.envs.gymnasium import learner_seat

    assert learner_seat(("player",) * 4, None, None) == 0
    assert learner_seat(("player",) * 4, "player", 2) == 2
    with pytest.raises(OptionError, match=r"seats \[0, 1, 2, 3\] play player: choose one"):
        learner_seat(("player",) * 4, "player", None)
