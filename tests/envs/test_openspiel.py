"""Sleuth's games in OpenSpiel (sleuth.envs.openspiel): OpenSpiel's own checks and algorithms."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (the rl extra)")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import (  # noqa: E402
    cfr,
    expected_game_score,
    exploitability,
    ismcts,
    mcts,
)

from sleuth.core.errors import OptionError, SleuthError  # noqa: E402
from sleuth.core.registry import game_spec  # noqa: E402
from sleuth.envs import openspiel as sleuth_spiel  # noqa: E402
from tests.envs.adapters import GAMES, options  # noqa: E402


def loaded(name: str) -> pyspiel.Game:
    """The OpenSpiel game of the Sleuth game ``name`` with its test options."""
    return pyspiel.load_game(sleuth_spiel.game_name(name), options(name))


def test_every_game_with_an_encoding_is_registered() -> None:
    assert [sleuth_spiel.game_name(name) for name in GAMES] == sleuth_spiel.REGISTERED


@pytest.mark.parametrize("name", GAMES)
def test_random_simulations(name: str) -> None:
    """OpenSpiel's own random-simulation test: legal actions, chance, returns, clones,
    observation and information-state tensors and strings at every node."""
    pyspiel.random_sim_test(loaded(name), num_sims=2, serialize=False, verbose=False)


def test_the_utility_is_that_of_the_options() -> None:
    """A Camel Up of 2 players is constant-sum, one of 4 (the default) is not: each loaded
    game says which (OpenSpiel's random simulation checks the returns against it)."""
    utility = pyspiel.GameType.Utility
    two = pyspiel.load_game("python_sleuth_camel_up(players=2,turn_cap=20)")
    four = pyspiel.load_game("python_sleuth_camel_up(turn_cap=20)")
    assert two.get_type().utility == utility.CONSTANT_SUM and two.utility_sum() == 1.0
    assert four.get_type().utility == utility.GENERAL_SUM
    pyspiel.random_sim_test(two, num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_resampled_worlds_look_the_same(name: str) -> None:
    """A world drawn from a seat's information state gives that seat the same information
    state, observation and legal actions (the exact belief's sampler behind OpenSpiel)."""
    game = loaded(name)
    rng = random.Random(7)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 6:
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
            continue
        player = state.current_player()
        if rng.random() < 0.3:
            world = state.resample_from_infostate(player, rng.random)
            assert world.information_state_string(player) == state.information_state_string(player)
            assert world.observation_tensor(player) == state.observation_tensor(player)
            assert world.legal_actions() == state.legal_actions()
            checked += 1
        state.apply_action(rng.choice(state.legal_actions()))


def test_parameters_are_the_options() -> None:
    """Each option OpenSpiel can carry is a parameter; a bad value is the CLI's error."""
    game = pyspiel.load_game("python_sleuth_fox(graph=cycle:5,k=2,days=3)")
    assert game.sleuth.options() == {"graph": "cycle:5", "k": 2, "lazy": False, "days": 3}
    assert game.num_distinct_actions() == len(game.sleuth.inspections) + 1 + 5
    with pytest.raises(OptionError, match="k=9: at most 5"):
        pyspiel.load_game("python_sleuth_fox(graph=path:5,k=9)")


def test_information_state_has_perfect_recall() -> None:
    """The hunter's information-state string lists every inspection it made."""
    game = loaded("fox")
    state = game.new_initial_state()
    state.apply_action(len(game.sleuth.inspections) + 1)  # the fox commits to hole 0
    state.apply_action(2)  # inspect 2
    text = state.information_state_string(0)
    assert '"holes": [2]' in text and '"holes": [0]' not in text
    assert '"holes": [0]' in state.information_state_string(1)


def cfr_hunter_value(options: str, iterations: int) -> tuple[float, float]:
    game = pyspiel.load_game(f"python_sleuth_fox({options})")
    solver = cfr.CFRSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    value = expected_game_score.policy_value(game.new_initial_state(), [average] * 2)[0]
    return value, exploitability.nash_conv(game, average)


@pytest.mark.parametrize(
    ("options", "value"),
    [
        # Path 0-1-2: inspecting hole 1 twice catches any fox, even the uncommitted one.
        pytest.param("graph=path:3,days=2", 1.0, marks=pytest.mark.slow),  # 10-40 s
        # One day on a path of 3 holes: the uncommitted fox ("hide") is never caught by one
        # inspection, so the hunter's value is 0.
        ("graph=path:3,days=1", 0.0),
    ],
)
def test_cfr_solves_small_fox_games(options: str, value: float) -> None:
    """OpenSpiel's CFR on Fox in a Hole converges to the value Sleuth's rules give."""
    got, nash_conv = cfr_hunter_value(options, 200)
    assert got == pytest.approx(value, abs=0.02)
    assert nash_conv < 0.05


def test_ismcts_searches_the_worlds_of_sleuths_belief() -> None:
    """OpenSpiel's ISMCTS hunter with a resampler from Sleuth's exact sampler finds the sure
    catch on path:3 in 2 days (inspect hole 1 twice) against a random fox; a random hunter
    does not."""
    game = pyspiel.load_game("python_sleuth_fox(graph=path:3,days=2)")
    rng = random.Random(3)
    wins = {"ismcts": 0.0, "random": 0.0}
    for hunter in wins:
        for seed in range(6):
            bot = ismcts.ISMCTSBot(
                game,
                mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
                uct_c=2.0,
                max_simulations=200,
                random_state=np.random.RandomState(seed),
            )
            bot.set_resampler(lambda s, p: s.resample_from_infostate(p, rng.random))
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.current_player() == 0 and hunter == "ismcts":
                    state.apply_action(bot.step(state))
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
            wins[hunter] += state.returns()[0]
    assert wins["ismcts"] == 6.0
    assert wins["random"] < 6.0


def _ismcts(
    game: pyspiel.Game,
    resample: Callable[[pyspiel.State, int], pyspiel.State],
    simulations: int,
    seed: int,
) -> ismcts.ISMCTSBot:
    """OpenSpiel's ISMCTS with random rollouts, searching the worlds ``resample`` draws."""
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
        uct_c=2.0,
        max_simulations=simulations,
        random_state=np.random.RandomState(seed),
    )
    bot.set_resampler(resample)
    return bot


def _play(
    game: pyspiel.Game,
    bot: ismcts.ISMCTSBot,
    seat: int,
    rng: random.Random,
    choose: Callable[[list[int]], int],
) -> pyspiel.State:
    """A game with ``bot`` at ``seat``, the other seats choosing among their legal ids with
    ``choose``, chance drawn by ``rng``: its terminal state."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        elif state.current_player() == seat:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(choose(state.legal_actions()))
    return state


def test_ismcts_detectives_play_scotland_yard_to_the_end_in_sleuths_worlds() -> None:
    """OpenSpiel's ISMCTS plays the detectives of a short Scotland Yard against a random
    Mr. X, searching worlds drawn by Sleuth's exact sampler: every world it searches gives
    the detectives the information state of the real game, and the game ends."""
    game = loaded("scotland-yard")
    rng = random.Random(5)
    resampled = 0

    def resample(state: pyspiel.State, player: int) -> pyspiel.State:
        nonlocal resampled
        world = state.resample_from_infostate(player, rng.random)
        assert world.information_state_string(player) == state.information_state_string(player)
        resampled += 1
        return world

    bot = _ismcts(game, resample, simulations=20, seed=5)
    state = _play(game, bot, 1, rng, lambda ids: rng.choice(ids))
    assert sorted(state.returns()) == [0.0, 1.0]
    assert resampled >= 20


def test_a_game_without_a_world_sampler_refuses_to_resample() -> None:
    """Resampling a game whose spec has no search model is refused by name (a clone of the
    true state would show a search the hidden information)."""
    spec = dataclasses.replace(game_spec("fox"), search=None)
    attributes = {"spec": spec, "game_type": sleuth_spiel._game_type(spec)}
    game = type("Unsampled", (sleuth_spiel.SleuthGame,), attributes)({"graph": "path:3"})
    state = game.new_initial_state()
    with pytest.raises(SleuthError, match="fox has no world sampler"):
        state.resample_from_infostate(0, random.Random(0).random)


def test_ismcts_plays_cluedo_in_worlds_of_the_exact_deal_sampler() -> None:
    """OpenSpiel's ISMCTS plays seat 0 of short Cluedo games against players of random ids
    that never accuse, every world it searches drawn by Sleuth's exact sampler: each gives
    the seat the real game's information state and legal ids, and their deals are not the
    true one (the sampler draws among every deal the view allows, not a copy of the truth)."""
    from sleuth.games.cluedo.action_ids import ACCUSE_ID

    game = loaded("cluedo")
    rng = random.Random(3)
    resampled = differ = 0

    def resample(state: pyspiel.State, player: int) -> pyspiel.State:
        nonlocal resampled, differ
        world = state.resample_from_infostate(player, rng.random)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.legal_actions() == state.legal_actions()
        truth, drawn = state.progress.sleuth, world.progress.sleuth
        assert drawn.hands[player] == truth.hands[player]
        resampled += 1
        differ += drawn.hands != truth.hands or drawn.envelope != truth.envelope
        return world

    bot = _ismcts(game, resample, simulations=8, seed=3)
    for _ in range(2):
        state = _play(game, bot, 0, rng, lambda ids: rng.choice([i for i in ids if i != ACCUSE_ID]))
        assert sum(state.returns()) <= 1.0
    assert resampled >= 100
    assert differ > 0.9 * resampled


def test_observations_read_each_event_of_a_view_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A state hands the encoding the same view object of a seat from node to node, so that an
    encoding keeping its reading per view (Cluedo's) reads each event once, not once per node;
    the observations equal those of views read afresh."""
    from sleuth.core.events import View
    from sleuth.games.cluedo import encoding as cluedo_encoding

    read = 0
    take = cluedo_encoding._Notes.take

    def counted(notes: Any, event: Any) -> None:
        nonlocal read
        read += 1
        take(notes, event)

    monkeypatch.setattr(cluedo_encoding._Notes, "take", counted)
    game = loaded("cluedo")
    rng = random.Random(2)
    state = game.new_initial_state()
    nodes = 0
    while not state.is_terminal() and nodes < 60:
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
            continue
        for seat in range(game.num_players()):
            state.observation_tensor(seat)
        nodes += 1
        state.apply_action(rng.choice(state.legal_actions()))
    observed = [state.observation_tensor(seat) for seat in range(game.num_players())]
    seen = [state.view(seat) for seat in range(game.num_players())]
    assert nodes >= 10 and read == sum(len(view.events) for view in seen)
    for seat, view in enumerate(seen):
        fresh = View(view.seat, view.role, view.game_info, tuple(view.events))
        expected = game.encoding.observe(fresh, state.prefix(seat), game.belief)
        assert observed[seat] == pytest.approx(expected.tolist())


@pytest.mark.parametrize("name", GAMES)
def test_an_action_of_several_ids_is_built_across_nodes(name: str) -> None:
    """Each id a player chooses extends the action being built (the builder keeps its prefix
    from node to node): the ids between two completed actions of a seat are exactly the ids
    of the action that completed, and random play ends."""
    game = loaded(name)
    rng = random.Random(3)
    state = game.new_initial_state()
    pushed: list[int] = []
    several = 0
    for _ in range(20_000):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
            continue
        progress = state.progress
        before = len(progress.actions)
        if not pushed:  # the state before the action (the engine applies it in place)
            fresh = progress.game.encoding.builder(progress.sleuth.clone())
        action_id = rng.choice(state.legal_actions())
        state.apply_action(action_id)
        pushed.append(action_id)
        if len(progress.actions) > before:
            assert tuple(pushed) == fresh.ids_of(progress.actions[-1])
            several += len(pushed) > 1
            pushed = []
    assert state.is_terminal()
    if name in ("fugitive", "scotland-yard", "cluedo"):
        assert several > 0  # these games build some actions from several ids
