"""Sleuth's games as OpenSpiel Python games (``pip install 'sleuth[rl]'``; ``open_spiel``).

Importing this module registers ``python_sleuth_<game>`` (``python_sleuth_fox``,
``python_sleuth_camel_up``, ...) for every game with an encoding; load one with its options as
OpenSpiel parameters (each option whose value OpenSpiel can carry, plus ``belief`` and
``rng_seed``)::

    game = pyspiel.load_game("python_sleuth_fox(graph=path:4,days=3)")

What OpenSpiel sees (docs/envs.md, "OpenSpiel"):

* **Actions** are the encoding's ids (:mod:`sleuth.core.encoding`); an action that takes
  several ids (a Fugitive hideout and its sprint cards) is several OpenSpiel moves of the same
  player, and the ids chosen so far are part of the observation.
* **Chance**: a chance event whose outcomes the engine lists (dice, a card drawn) is an
  explicit chance node, its outcome ids being positions in the engine's list.  An event with
  too many outcomes to list (a shuffle, a deal) is drawn from the game's ``rng_seed``
  parameter and offered as one outcome of probability 1, so such games are
  ``SAMPLED_STOCHASTIC``: their chance outcomes are exact, the deal is sampled.
* **Information**: the information-state string is the seat's whole view (every event it saw,
  as JSON) and the ids it has chosen, so it has perfect recall; the observation string and
  both tensors are the encoding's observation of that view (its ``belief`` parameter adds the
  exact belief).  Neither reads anything the seat may not see.
* **Returns** are win shares (:meth:`sleuth.core.game.State.wins`); a two-sided game with two
  seats is constant-sum (1).
* :meth:`SleuthState.resample_from_infostate` draws a world from the game's exact search
  sampler (the one Sleuth's ISMCTS uses) and replays it, so OpenSpiel's ISMCTS bot searches
  the worlds Sleuth's belief allows.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np
import pyspiel

from sleuth.core.encoding import ActionBuilder, Encoding
from sleuth.core.errors import SleuthError
from sleuth.core.events import Event, View, freeze
from sleuth.core.game import CHANCE, TERMINAL, Game, State
from sleuth.core.registry import GameSpec, builtin_game_names, game_spec
from sleuth.core.rng import derive_seed
from sleuth.core.searchmodel import WorldSampler

PREFIX = "python_sleuth_"
MAX_CHANCE_OUTCOMES = 64
"""The most outcomes a listed chance event may have (Camel Up's dice, a Fugitive draw)."""
MAX_GAME_LENGTH = 200_000
"""A bound on the ids of one game (OpenSpiel asks for one; no game comes near it)."""


def game_name(game: str) -> str:
    """The OpenSpiel name of a Sleuth game (``camel-up`` is ``python_sleuth_camel_up``)."""
    return PREFIX + game.replace("-", "_")


class SleuthGame(pyspiel.Game):  # type: ignore[misc]
    """One Sleuth game with its options, as an OpenSpiel game (each game registers a subclass
    that sets :attr:`spec` and :attr:`game_type`)."""

    spec: GameSpec
    game_type: Any

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec, game_type = self.spec, self.game_type
        defaults = game_type.parameter_specification
        params = {**defaults, **(params or {})}
        options = {
            name: value
            for name, value in params.items()
            if name not in ENGINE_PARAMETERS and value != defaults[name]
        }
        self.sleuth: Game[Any] = spec.make(options)
        if _constant_sum(self.sleuth) != (game_type.utility == CONSTANT_SUM):
            game_type = _game_type(spec, self.sleuth)  # options that change the players
        self.encoding: Encoding[Any] = spec.encoding_for(self.sleuth)
        self.belief = bool(params["belief"])
        self.info = freeze(self.sleuth.public_info())
        self._seeds = random.Random(int(params["rng_seed"]))
        players = self.sleuth.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.action_count,
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0 if _constant_sum(self.sleuth) else None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> SleuthState:
        return SleuthState(self)

    def draw_seed(self) -> int:
        """A seed for one game's unlisted chance events, from the ``rng_seed`` stream."""
        return self._seeds.getrandbits(63)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SleuthObserver:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return SleuthObserver(self, perfect_recall, params)


def _constant_sum(game: Game[Any]) -> bool:
    """Two seats on two sides: one wins, or they share the win."""
    return game.num_players == 2 and len(set(game.sides())) == 2


class Progress:
    """The Python side of a :class:`SleuthState` (OpenSpiel clones a Python state by deep-copying
    its attributes: this one copies itself with the engine's ``clone``, sharing the immutable
    game and events).

    Invariant: :attr:`sleuth` is the engine's state after :attr:`actions`; :attr:`builder`
    holds the ids chosen towards the next action (None at chance and terminal nodes);
    :attr:`seen` holds each seat's view events, and :attr:`views` each seat's view over them
    (one object per seat as the events grow, so an encoding that keeps its reading of a view
    object reads only the events added since: an observation costs a step's events, not the
    game's).
    """

    def __init__(self, game: SleuthGame) -> None:
        self.game = game
        self.seed: int | None = None
        """Drawn from the game on the first unlisted chance event (a clone keeps it)."""
        self.sleuth: State[Any] = game.sleuth.new_initial_state()
        self.seen: list[list[Event]] = [[] for _ in range(game.sleuth.num_players)]
        self.views = self._views()
        self.actions: list[Hashable] = []
        self.forced: dict[int, Hashable] = {}
        """Outcomes of unlisted chance events set by :func:`replay`, by action number."""
        self.builder: ActionBuilder[Any] | None = None
        self.samplers: dict[int, tuple[int, WorldSampler[Any]]] = {}
        """Each seat's world sampler with the length of the view it was made from (a search
        resamples one state many times; a copy starts without them)."""
        self.settle()

    def __deepcopy__(self, memo: dict[int, Any]) -> Progress:
        copy = Progress.__new__(Progress)
        copy.game, copy.seed = self.game, self.seed
        copy.sleuth = self.sleuth.clone()
        copy.seen = [list(events) for events in self.seen]
        copy.views = copy._views()
        copy.actions = list(self.actions)
        copy.forced = dict(self.forced)
        copy.samplers = {}
        copy.settle()
        if self.builder is not None and copy.builder is not None:
            for action_id in self.builder.prefix:
                copy.builder.push(action_id)
        return copy

    def _views(self) -> list[View]:
        roles, info = self.game.sleuth.roles, self.game.info
        return [View(seat, roles[seat], info, seen) for seat, seen in enumerate(self.seen)]

    def settle(self) -> None:
        """Make the builder of the seat to move (none at chance and terminal nodes)."""
        player = self.sleuth.current_player()
        self.builder = (
            None if player in (CHANCE, TERMINAL) else self.game.encoding.builder(self.sleuth)
        )

    def play(self, action: Hashable) -> None:
        """Apply a whole action and record what each seat sees of it."""
        events = self.sleuth.apply(action)
        self.actions.append(action)
        for seat, seen in enumerate(self.seen):
            seen.extend(e if e.private is None else e.seen_by(seat) for e in events)


class SleuthState(pyspiel.State):  # type: ignore[misc]
    """A Sleuth state stepped by ids, chance as the module docstring says (its Python side is
    one :class:`Progress`)."""

    def __init__(self, game: SleuthGame) -> None:
        super().__init__(game)
        self.progress = Progress(game)

    # --- OpenSpiel's API ----------------------------------------------------------------------

    def current_player(self) -> int:
        player = self.progress.sleuth.current_player()
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return int(player)

    def _legal_actions(self, player: int) -> list[int]:
        if self.progress.builder is None or player != self.progress.sleuth.current_player():
            return []
        return self.progress.builder.legal_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self._chance_list()
        if outcomes is None:
            return [(0, 1.0)]
        return [(i, p) for i, (_, p) in enumerate(outcomes)]

    def _apply_action(self, action_id: int) -> None:
        if self.progress.sleuth.current_player() == CHANCE:
            outcomes = self._chance_list()
            if outcomes is None:
                self.progress.play(self._sampled_chance())
            else:
                self.progress.play(outcomes[action_id][0])
        else:
            assert self.progress.builder is not None
            action = self.progress.builder.push(action_id)
            if action is None:
                return  # more ids to come: the builder keeps its prefix
            self.progress.play(action)
        self.progress.settle()

    def _action_to_string(self, player: int, action_id: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            outcomes = self._chance_list()
            if outcomes is None:
                return f"sampled {self._sampled_chance()}"
            return str(outcomes[action_id][0])
        return self.progress.game.encoding.id_text(action_id)

    def is_terminal(self) -> bool:
        return self.progress.sleuth.is_terminal()

    def returns(self) -> list[float]:
        if not self.progress.sleuth.is_terminal():
            return [0.0] * self.progress.game.sleuth.num_players
        return list(self.progress.sleuth.wins())

    def __str__(self) -> str:
        return " ".join(str(a) for a in self.progress.actions) or "start"

    def resample_from_infostate(self, player: int, sampler: Callable[[], float]) -> SleuthState:
        """A state ``player`` cannot tell from this one, drawn by the game's search sampler
        from its view, with the same chosen ids.  A game without a sampler is refused by name:
        a clone of this state would hand a search the hidden truth.  The sampler made from a
        view is kept while the view does not grow (a search resamples one state many times)."""
        game = self.progress.game
        model = game.spec.search
        if model is None:
            raise SleuthError(
                f"{game.spec.name} has no world sampler: resample_from_infostate cannot draw "
                "a world its information state allows without showing the hidden one"
            )
        rng = random.Random(int(sampler() * 2**53))
        now = self.view(player)
        samplers = self.progress.samplers
        kept = samplers.get(player)
        if kept is None or kept[0] != len(now.events):
            frozen = View(now.seat, now.role, now.game_info, tuple(now.events))  # as of now
            kept = (len(now.events), model.sampler(game.sleuth, frozen))
            samplers[player] = kept
        world = replay(game, kept[1].sample_history(rng))
        for action_id in self.prefix(player):
            world.apply_action(action_id)
        return world

    # --- helpers ------------------------------------------------------------------------------

    def view(self, seat: int) -> View:
        """``seat``'s view, which grows with the game (the same object at every node)."""
        return self.progress.views[seat]

    def prefix(self, seat: int) -> Sequence[int]:
        """The ids ``seat`` has chosen towards its next action (empty unless it is to move)."""
        builder = self.progress.builder
        if builder is None or seat != self.progress.sleuth.current_player():
            return ()
        return builder.prefix

    def _chance_list(self) -> Sequence[tuple[Hashable, float]] | None:
        """The engine's listed chance outcomes here, or None when it cannot list them."""
        try:
            outcomes = self.progress.sleuth.chance_outcomes()
        except NotImplementedError:
            return None
        if len(outcomes) > MAX_CHANCE_OUTCOMES:
            raise ValueError(
                f"{self.progress.game.sleuth.name}: {len(outcomes)} chance outcomes, more "
                f"than {MAX_CHANCE_OUTCOMES}"
            )
        return outcomes

    def _sampled_chance(self) -> Hashable:
        """The drawn outcome of an unlisted chance event: a function of the state's seed and
        the number of actions so far, so clones draw the same (unless :func:`replay` set it)."""
        progress = self.progress
        done = len(progress.actions)
        if done in progress.forced:
            return progress.forced[done]
        if progress.seed is None:
            progress.seed = progress.game.draw_seed()
        drawn: Hashable = progress.sleuth.sample_chance(
            random.Random(derive_seed(progress.seed, "chance", done))
        )
        return drawn


def replay(game: SleuthGame, history: Sequence[Hashable]) -> SleuthState:
    """The OpenSpiel state after the engine actions of ``history`` (chance included), played
    through OpenSpiel's ``apply_action`` so that its history is that of the ids."""
    state = game.new_initial_state()
    for action in history:
        progress = state.progress
        if progress.sleuth.current_player() == CHANCE:
            outcomes = state._chance_list()
            if outcomes is None:
                progress.forced[len(progress.actions)] = action
                state.apply_action(0)
            else:
                state.apply_action(next(i for i, (a, _) in enumerate(outcomes) if a == action))
        else:
            assert progress.builder is not None
            for action_id in progress.builder.ids_of(action):
                state.apply_action(action_id)
    return state


class SleuthObserver:
    """OpenSpiel's PyObserver: the encoding's observation as the tensor (for both kinds), the
    view as JSON as the information-state string, the tensor's nonzero entries as the
    observation string."""

    def __init__(self, game: SleuthGame, perfect_recall: bool, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.game = game
        self.perfect_recall = perfect_recall
        encoding = game.encoding
        self.tensor = np.zeros(encoding.size(game.belief), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        start = 0
        for segment in encoding.layout(game.belief):
            self.dict[segment.name] = self.tensor[start : start + segment.size]
            start += segment.size

    def set_from(self, state: SleuthState, player: int) -> None:
        self.game.encoding.observe_to(
            self.tensor, state.view(player), state.prefix(player), self.game.belief
        )

    def string_from(self, state: SleuthState, player: int) -> str:
        prefix = list(state.prefix(player))
        if self.perfect_recall:
            events = [e.to_json() for e in state.progress.seen[player]]
            return json.dumps({"seat": player, "events": events, "chosen": prefix})
        self.set_from(state, player)
        nonzero = {int(i): round(float(self.tensor[i]), 4) for i in np.flatnonzero(self.tensor)}
        return json.dumps({"seat": player, "observation": nonzero, "chosen": prefix})


ENGINE_PARAMETERS = {"belief": False, "rng_seed": 0}
"""OpenSpiel parameters of every Sleuth game beside its own options."""


def _parameters(game: Game[Any]) -> dict[str, Any]:
    """The game's options that OpenSpiel can carry (booleans, numbers, strings without ``,``,
    ``=`` or brackets) with their default values, and :data:`ENGINE_PARAMETERS`."""
    out: dict[str, Any] = {}
    for name, value in game.options().items():
        carried = isinstance(value, bool | int | float) or (
            isinstance(value, str) and not set(value) & set(",=()")
        )
        if carried:
            out[name] = value
    return {**out, **ENGINE_PARAMETERS}


CONSTANT_SUM = pyspiel.GameType.Utility.CONSTANT_SUM


def _game_type(spec: GameSpec, played: Game[Any] | None = None) -> Any:
    """The OpenSpiel type of ``spec``'s game with its default options, but for the utility,
    that of the game ``played`` when given (OpenSpiel checks the returns of a constant-sum
    type: a Camel Up of 2 players is one, the default of 4 is not)."""
    game = spec.make({})
    chance = _chance_mode(spec)
    return pyspiel.GameType(
        short_name=game_name(spec.name),
        long_name=f"Sleuth {spec.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            CONSTANT_SUM
            if _constant_sum(game if played is None else played)
            else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(game.num_players, 8 if spec.seats_option else 0),
        min_num_players=2 if spec.seats_option else game.num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(game),
    )


UNLISTED_CHANCE = frozenset({"camel-up", "cluedo", "scotland-yard"})
"""Games with a chance event the engine cannot list (the start, a deal): sampled."""


def _chance_mode(spec: GameSpec) -> Any:
    if spec.name == "fox":
        return pyspiel.GameType.ChanceMode.DETERMINISTIC
    if spec.name in UNLISTED_CHANCE:
        return pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    return pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


def register_all() -> list[str]:
    """Register every built-in game with an encoding (once); return their OpenSpiel names."""
    names = []
    for name in builtin_game_names():
        spec = game_spec(name)
        if spec.encoding is None:
            continue
        short = game_name(name)
        names.append(short)
        if short not in pyspiel.registered_names():
            game_type = _game_type(spec)
            attributes = {"spec": spec, "game_type": game_type, "__module__": __name__}
            pyspiel.register_game(game_type, type(short, (SleuthGame,), attributes))
    return names


REGISTERED = register_all()
"""The OpenSpiel names registered by importing this module."""
