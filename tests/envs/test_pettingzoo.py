"""The PettingZoo AEC adapter (sleuth.envs.pettingzoo): PettingZoo's own checkers, seeding,
rewards, max_cycles, illegal ids, options and the text rendering, on every game with an
encoding."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

from sleuth.core.errors import IllegalActionError, OptionError
from sleuth.core.registry import game_spec
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

pytest.importorskip("pettingzoo", reason=f"pettingzoo {RL_MISSING}")

from pettingzoo.test import api_test, seed_test

from sleuth.envs.pettingzoo import env, raw_env
from sleuth.envs.seats import agent_names


def beliefs(name: str) -> list[bool]:
    spec = game_spec(name)
    has = bool(spec.encoding_for(spec.make(options(name))).belief_segments)
    return [False, True] if has else [False]


CASES = [(name, belief) for name in GAMES for belief in beliefs(name)]


@pytest.mark.filterwarnings("ignore::UserWarning")  # the checker's advice (agent names, dicts)
@pytest.mark.parametrize(("name", "belief"), CASES)
def test_api_test(name: str, belief: bool) -> None:
    api_test(env(name, belief=belief, **options(name)), num_cycles=300)


@pytest.mark.parametrize("name", GAMES)
def test_seed_test(name: str) -> None:
    seed_test(lambda: env(name, **options(name)), num_cycles=100)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", [0, 7])
def test_bots_choices_by_ids_play_the_match_runner_s_game(name: str, seed: int) -> None:
    """Every agent choosing the ids of its bot's action plays the game run_match plays with the
    same bots and seed (chance is drawn from the seed as the runner draws it), and each agent's
    cumulative reward is its win share."""
    for bots in bot_sets(name):
        record = reference(name, bots, seed)
        made = raw_env(name, **options(name))
        made.reset(seed=seed)
        assert made.episode is not None
        players = seat_bots(record, made.episode, seed)
        pending: list[int] = []
        rewards: dict[str, float] = {}
        for agent in made.agent_iter():
            _, reward, terminated, truncated, _ = made.last()
            if terminated or truncated:
                rewards[agent] = reward
                made.step(None)
                continue
            if not pending:
                pending = list(bot_ids(made.episode, players[made.possible_agents.index(agent)]))
            made.step(pending.pop(0))
        same_game(made.episode, record)
        assert [rewards[a] for a in made.possible_agents] == list(record.wins)


def test_reset_without_a_seed_follows_the_last_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """reset(seed=s) plays the game of seed s; the resets without a seed that follow draw
    new seeds from s (the same ones after the same s), and from the system's entropy in an
    environment never given a seed."""
    import sleuth.envs.pettingzoo as module

    seeds: list[int] = []

    class Recorded(module.Episode):
        def __init__(self, encoding: Any, seed: int, belief: bool = False) -> None:
            seeds.append(seed)
            super().__init__(encoding, seed, belief)

    monkeypatch.setattr(module, "Episode", Recorded)

    def drawn(first: int | None) -> list[int]:
        seeds.clear()
        made = raw_env("fox", graph="path:5")
        made.reset(seed=first)
        made.reset()
        made.reset()
        return list(seeds)

    three = drawn(3)
    assert three[0] == 3 and len(set(three)) == 3
    assert drawn(3) == three
    assert drawn(4)[1:] != three[1:]
    assert drawn(None) != drawn(None)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("max_cycles", [1, 3])
def test_max_cycles_truncates_every_agent(name: str, max_cycles: int) -> None:
    """The AEC half of PettingZoo's max_cycles_test (its parallel half needs a parallel
    environment, which turn-based games have none of): the busiest agent chooses max_cycles
    ids, then every agent is truncated and steps once with None."""
    made = env(name, max_cycles=max_cycles, **options(name))
    made.reset(seed=1)
    counts: Counter[str] = Counter()
    truncated = set()
    for agent in made.agent_iter():
        counts[agent] += 1
        observation, _, terminated, truncation, _ = made.last()
        assert not terminated  # none of these games ends so soon
        if truncation:
            truncated.add(agent)
            made.step(None)
        else:
            legal = np.flatnonzero(observation["action_mask"])
            made.step(int(legal[0]))
    assert max(counts.values()) == max_cycles + 1
    assert truncated == set(made.possible_agents)


def test_an_illegal_id_raises_in_the_raw_environment_and_changes_nothing() -> None:
    made = raw_env("fox", graph="path:5")
    made.reset(seed=2)
    agent = made.agent_selection
    before = made.observe(agent)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=f"action id {illegal} is not legal here"):
        made.step(illegal)
    after = made.observe(agent)
    assert made.agent_selection == agent
    assert after["observation"].tobytes() == before["observation"].tobytes()
    assert after["action_mask"].tobytes() == before["action_mask"].tobytes()


@pytest.mark.filterwarnings("ignore::UserWarning")  # PettingZoo warns of the illegal move
def test_an_illegal_id_ends_the_wrapped_game_with_minus_one_for_its_agent() -> None:
    made = env("fox", graph="path:5")
    made.reset(seed=2)
    agent = made.agent_selection
    observation, *_ = made.last()
    made.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    assert all(made.terminations.values())
    assert made.rewards == {a: (-1.0 if a == agent else 0.0) for a in made.possible_agents}


@pytest.mark.parametrize(
    ("texts", "error"),
    [({"graph": "path:0"}, "graph"), ({"colour": "red"}, "colour")],
)
def test_bad_options_are_the_games_own_errors(texts: dict[str, Any], error: str) -> None:
    """The options go through GameSpec.make, as ``sleuth play -o`` sends them."""
    with pytest.raises(OptionError) as expected:
        game_spec("fox").make(texts)
    assert error in str(expected.value)
    with pytest.raises(OptionError) as got:
        env("fox", **texts)
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"render_mode": "rgb_array"}, "render_mode 'rgb_array': use None, ansi, human"),
        ({"max_cycles": 0}, "max_cycles must be at least 1, got 0"),
    ],
)
def test_bad_arguments_are_named(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        raw_env("fox", graph="path:5", **kwargs)


def test_agents_are_named_by_role_or_by_role_and_seat() -> None:
    assert agent_names(("hunter", "fox")) == ["hunter", "fox"]
    assert agent_names(("player",) * 3) == ["player_0", "player_1", "player_2"]
    assert agent_names(("mrx", "detective", "detective")) == [
        "mrx",
        "detective_1",
        "detective_2",
    ]


def test_the_ansi_rendering_is_the_seat_s_view_in_the_game_s_words() -> None:
    """The hunter's rendering tells the fox's night without its hole; the fox's tells it."""
    made = raw_env("fox", graph="path:5", render_mode="ansi")
    made.reset(seed=0)
    assert made.agent_selection == "fox"
    made.step(6)  # hole 0
    text = made.render()
    assert text == (
        "fox: seat 0 (hunter)\n"
        "  night 0: the fox moved (unseen)\n"
        "legal ids: 0 inspect 0, 1 inspect 1, 2 inspect 2, 3 inspect 3, 4 inspect 4"
    )
    made.step(1)
    assert made.render() == (
        "fox: seat 1 (fox)\n"
        "  night 0: the fox is in 0\n"
        "  day 1: the hunter inspected 1: no fox\n"
        "legal ids: 5 hide, 7 hole 1"
    )


def test_human_rendering_prints_after_each_step(capsys: pytest.CaptureFixture[str]) -> None:
    made = raw_env("fox", graph="path:5", render_mode="human")
    made.reset(seed=0)
    made.step(6)
    assert capsys.readouterr().out.startswith("fox: seat 0 (hunter)\n")
