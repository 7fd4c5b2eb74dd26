"""Fox in a Hole as a pure-Python OpenSpiel game, and OpenSpiel's ISMCTS bot playing it.

A benchmark baseline: how many simulations per second does OpenSpiel's own pure-Python
``ISMCTSBot`` (``open_spiel.python.algorithms.ismcts``, ``open_spiel>=2.0.2``) reach on a
Python OpenSpiel port of Fox in a Hole, written the way an OpenSpiel user writes a Python game
(``pyspiel.Game`` / ``pyspiel.State`` subclasses, a Python observer, ``pyspiel.register_game``).

Importing this module registers the game ``python_sleuth_fox`` (once; a second import is a
no-op).  Parameters: ``n`` holes on a path graph ``0..n-1`` (default 5) and ``days`` (default 6).

Rules (those of Sleuth's engine with one inspection a day and a fox that must move every night):

* Seat 0 is the hunter, seat 1 the fox.  No chance nodes; sequential; imperfect information.
* The fox moves first and picks any hole (action id = hole, ``0..n-1``).
* Each day the hunter inspects one hole (action id = hole).  If the fox is there, the hunter
  wins.  If not and that was day ``days``, the fox wins.  Otherwise the fox moves at night to a
  path neighbour (``h - 1`` or ``h + 1``, within range).
* Returns are zero-sum: ``[1, -1]`` when the fox is caught, ``[-1, 1]`` when it escapes.

Information: the hunter's information state is its own inspections (every one before the
last move missed, or the game would be over) and whose turn it is; the fox sees everything
(its own holes and the inspections).

``resample_from_infostate(player, sampler)`` is implemented in Python.  The C++ ``PyState``
trampoline does not forward ``ResampleFromInfostate`` to Python, so C++ algorithms cannot use
it, but the Python ``ISMCTSBot`` calls ``state.resample_from_infostate(...)`` on the Python
state object, where ordinary attribute lookup finds this method.  For the hunter it draws a
fox walk uniformly from the walks consistent with the inspections (forward counting, backward
sampling) and replays it, with the hunter's real inspections, from a new initial state, so the
sampled state's C++ history matches its Python fields.  For the fox it returns a clone.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

GAME_NAME = "python_sleuth_fox"
HUNTER = 0
FOX = 1
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
DEFAULT_HOLES = 5
DEFAULT_DAYS = 6

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Sleuth Fox in a Hole",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification={"n": DEFAULT_HOLES, "days": DEFAULT_DAYS},
)


def path_neighbours(hole: int, n: int) -> list[int]:
    """Holes adjacent to ``hole`` on the path ``0..n-1``, in ascending order."""
    return [h for h in (hole - 1, hole + 1) if 0 <= h < n]


def _pick(weights: Sequence[int], u: float) -> int:
    """Index drawn with probability proportional to ``weights``, given ``u`` in ``[0, 1)``."""
    target = u * sum(weights)
    acc = 0
    last = 0
    for i, w in enumerate(weights):
        if w:
            acc += w
            last = i
            if target < acc:
                return i
    return last  # only reached through float rounding when u is close to 1


def sample_fox_walk(
    n: int, allowed: Sequence[Sequence[bool]], uniform: Callable[[], float]
) -> list[int]:
    """A walk on the path ``0..n-1`` drawn uniformly among walks that keep to ``allowed``.

    ``allowed[t][h]`` says whether the fox may be in hole ``h`` on day ``t``; consecutive
    holes must be path neighbours.  ``alive[t][h]`` counts the allowed walks of days
    ``0..t`` that end in ``h``; the last hole is drawn in proportion to those counts and each
    earlier one in proportion to the counts of its neighbours of the hole after it.
    """
    alive = [[1 if ok else 0 for ok in allowed[0]]]
    for day_allowed in allowed[1:]:
        prev = alive[-1]
        alive.append(
            [
                sum(prev[g] for g in path_neighbours(h, n)) if ok else 0
                for h, ok in enumerate(day_allowed)
            ]
        )
    if not any(alive[-1]):
        raise ValueError("no fox walk is consistent with the inspections")
    walk = [_pick(alive[-1], uniform())]
    for counts in reversed(alive[:-1]):
        options = path_neighbours(walk[-1], n)
        walk.append(options[_pick([counts[g] for g in options], uniform())])
    walk.reverse()
    return walk


class FoxGame(pyspiel.Game):
    """Fox in a Hole on a path of ``n`` holes, lasting at most ``days`` days."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        n = int(params.get("n", DEFAULT_HOLES))
        days = int(params.get("days", DEFAULT_DAYS))
        if n < 2 or days < 1:
            raise ValueError(f"need n >= 2 and days >= 1, got n={n}, days={days}")
        info = pyspiel.GameInfo(
            num_distinct_actions=n,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=2 * days,  # hide, then `days` inspections and `days - 1` nights
        )
        super().__init__(_GAME_TYPE, info, params)
        self.n = n
        self.days = days

    def new_initial_state(self) -> FoxState:
        """The state before the fox has hidden."""
        return FoxState(self)

    def make_py_observer(
        self,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: dict[str, Any] | None = None,
    ) -> FoxObserver:
        """An observer of the requested kind (information state or observation)."""
        return FoxObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class FoxState(pyspiel.State):
    """A position: the fox's hole on each day so far and the hunter's inspections.

    ``fox[t]`` is the fox's hole on day ``t`` (0-based) and ``inspections[t]`` the hole the
    hunter inspected that day.  The fox is to move when both lists have the same length
    (hiding, or a night move); otherwise the hunter is.  ``_player`` caches the seat to move,
    since OpenSpiel's C++ side asks for it many times per action.
    """

    def __init__(self, game: FoxGame) -> None:
        super().__init__(game)
        self._n = game.n
        self._days = game.days
        self.fox: list[int] = []
        self.inspections: list[int] = []
        self.caught = False
        self._player = FOX

    def current_player(self) -> int:
        """Seat to move, or ``TERMINAL`` (``pyspiel.PlayerId.TERMINAL``)."""
        return self._player

    def _legal_actions(self, player: int) -> list[int]:
        """Holes: any for the hunter and the hiding fox, a neighbour for a moving fox."""
        if player == FOX and self.fox:
            return path_neighbours(self.fox[-1], self._n)
        return list(range(self._n))

    def _apply_action(self, action: int) -> None:
        """Hide or move the fox, or inspect a hole."""
        if self._player == FOX:
            self.fox.append(action)
            self._player = HUNTER
        else:
            self.inspections.append(action)
            self.caught = action == self.fox[-1]
            if self.caught or len(self.inspections) == self._days:
                self._player = TERMINAL
            else:
                self._player = FOX

    def _action_to_string(self, player: int, action: int) -> str:
        return f"hole {action}" if player == FOX else f"inspect {action}"

    def is_terminal(self) -> bool:
        """Whether the fox has been caught or has survived the last day."""
        return self._player == TERMINAL

    def returns(self) -> list[float]:
        """``[1, -1]`` if the fox was caught, ``[-1, 1]`` if it escaped, else ``[0, 0]``."""
        if self.caught:
            return [1.0, -1.0]
        if len(self.inspections) == self._days:
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> FoxState:
        """A state drawn uniformly from those ``player_id`` cannot tell from this one.

        For the hunter, the fox walk is drawn uniformly from the walks that avoid every missed
        inspection (and sit on the catching one, if the game ended so); ``probability_sampler()``
        supplies the uniform numbers.  The fox knows everything, so it gets a clone.
        """
        if player_id == FOX or not self.fox:
            return self.clone()
        last = len(self.inspections) - 1
        allowed = []
        for day in range(len(self.fox)):
            if day > last:
                allowed.append([True] * self._n)
            elif self.caught and day == last:
                allowed.append([h == self.inspections[day] for h in range(self._n)])
            else:
                allowed.append([h != self.inspections[day] for h in range(self._n)])
        walk = sample_fox_walk(self._n, allowed, probability_sampler)
        state = self.get_game().new_initial_state()
        for day, hole in enumerate(walk):
            state.apply_action(hole)
            if day < len(self.inspections):
                state.apply_action(self.inspections[day])
        return state

    def __str__(self) -> str:
        fox = ",".join(map(str, self.fox))
        inspections = ",".join(map(str, self.inspections))
        return f"fox:{fox} inspections:{inspections}"


class FoxObserver:
    """Observer conforming to OpenSpiel's PyObserver interface; strings only, no tensor.

    Public information: whose turn it is and the inspections (all of them with perfect
    recall, the number of them and the last one without).  The fox's private information: its
    holes (all of them with perfect recall, the current one without).
    """

    tensor = None  # no tensor observation; the C++ side checks for ``None``

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.dict: dict[str, np.ndarray] = {}
        self._perfect_recall = iig_obs_type.perfect_recall
        self._public = iig_obs_type.public_info
        self._private = iig_obs_type.private_info

    def set_from(self, state: FoxState, player: int) -> None:
        """Nothing to do: this observer has no tensor."""

    def string_from(self, state: FoxState, player: int) -> str:
        """The observation of ``state`` by ``player`` as a string."""
        pieces = [f"p{player}"]
        sees_fox = self._private == pyspiel.PrivateInfoType.ALL_PLAYERS or (
            self._private == pyspiel.PrivateInfoType.SINGLE_PLAYER and player == FOX
        )
        if sees_fox and state.fox:
            holes = state.fox if self._perfect_recall else state.fox[-1:]
            pieces.append("fox:" + ",".join(map(str, holes)))
        if self._public:
            pieces.append(f"turn:{state.current_player()}")
            if self._perfect_recall:
                pieces.append("insp:" + ",".join(map(str, state.inspections)))
            else:
                last = state.inspections[-1] if state.inspections else "-"
                pieces.append(f"day:{len(state.inspections)} last:{last}")
        return " ".join(pieces)


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, FoxGame)


def openspiel_ismcts_rate(
    n: int = DEFAULT_HOLES,
    days: int = DEFAULT_DAYS,
    simulations: int = 1000,
    games: int = 2,
    seed: int = 0,
) -> tuple[float, int]:
    """OpenSpiel ISMCTS hunter against a random-walk fox: (simulations per second, total).

    The hunter is ``ISMCTSBot`` with a one-rollout ``RandomRolloutEvaluator``, UCT child
    selection with ``uct_c = 2.0`` (the default of OpenSpiel's ``mcts_example``),
    ``max_simulations = simulations``, unlimited world samples, the max-visit-count final
    policy and information-state strings as node keys.  Its resampler hook is given a seeded
    ``random.Random`` as the probability sampler (otherwise ISMCTS passes an unseeded
    ``pyspiel.UniformProbabilitySampler``), so a run is reproducible from ``seed``.  The fox
    picks uniformly among its legal moves.  Only the bot's ``step`` calls are timed; every one
    runs ``simulations`` simulations (the hunter always has ``n >= 2`` choices).
    """
    game = pyspiel.load_game(GAME_NAME, {"n": n, "days": days})
    rng = np.random.RandomState(seed)
    sampler_rng = random.Random(seed)
    fox_rng = random.Random(seed + 1)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, rng),
        uct_c=2.0,
        max_simulations=simulations,
        random_state=rng,
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        use_observation_string=False,
        child_selection_policy=ismcts.ChildSelectionPolicy.UCT,
    )
    bot.set_resampler(
        lambda state, player: state.resample_from_infostate(player, sampler_rng.random)
    )
    searches = 0
    seconds = 0.0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == HUNTER:
                start = time.perf_counter()
                action = bot.step(state)
                seconds += time.perf_counter() - start
                searches += 1
            else:
                action = fox_rng.choice(state.legal_actions())
            state.apply_action(int(action))
    total = searches * simulations
    return total / seconds, total
