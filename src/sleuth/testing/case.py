"""The game under test, how failures name it, and uniform random play.

A :class:`Case` is one registered game with one set of options.  Every check of the kit takes
a case and a seed; a failure is a :class:`ConformanceError` whose message names the game, its
options, the seed and the step (``fox {graph=path:5} seed 3 step 12: ...``), so that the
failure replays with the same arguments.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sleuth.core.bots import Bot, BotSpec
from sleuth.core.events import Event, View
from sleuth.core.game import CHANCE, Game, State
from sleuth.core.registry import GameSpec, game_spec
from sleuth.core.rng import derive_seed

MAX_STEPS = 20_000
"""Steps a random playthrough may take before the kit calls the game endless."""


class ConformanceError(AssertionError):
    """A game broke a rule of the core protocol; the message names game, seed and step."""


@dataclass(frozen=True)
class Case:
    """A registered game with its options: ``spec.make(options)`` is the game under test."""

    spec: GameSpec
    options: Mapping[str, Any] = field(default_factory=dict)

    @staticmethod
    def of(game: str | GameSpec | Case, options: Mapping[str, Any] | None = None) -> Case:
        """The case of a game given by name, spec or case (``options`` as option texts)."""
        if isinstance(game, Case):
            return game if options is None else Case(game.spec, dict(options))
        spec = game if isinstance(game, GameSpec) else game_spec(game)
        return Case(spec, dict(options or {}))

    def make(self) -> Game[Any]:
        """A fresh game object (bots may hold it; nothing is shared between checks)."""
        return self.spec.make(self.options)

    def fail(self, seed: int, problem: str, step: int | None = None) -> ConformanceError:
        """The error for ``problem`` found in the game of ``seed`` (at ``step``, if known)."""
        options = ",".join(f"{k}={v}" for k, v in self.options.items())
        at = "" if step is None else f" step {step}"
        return ConformanceError(f"{self.spec.name} {{{options}}} seed {seed}{at}: {problem}")


def seat_move(state: State[Any], rng: random.Random) -> Hashable:
    """A uniformly random legal action of the seat to move (lazy sequences are indexed)."""
    legal: Sequence[Hashable] = state.legal_actions()
    return legal[rng.randrange(len(legal))]


def next_action(state: State[Any], rng: random.Random) -> Hashable:
    """The next action of uniform random play: a sampled chance outcome or a seat's move."""
    if state.current_player() == CHANCE:
        chance: Hashable = state.sample_chance(rng)
        return chance
    return seat_move(state, rng)


def random_steps(
    case: Case, game: Game[Any], seed: int
) -> Iterator[tuple[int, State[Any], Hashable]]:
    """Uniform random play of ``game`` from the start, the caller applying each action:
    yields ``(step, state, action)``; the caller must apply ``action`` to ``state`` before
    asking for the next step.  Raises a :class:`ConformanceError` if the game does not end
    within :data:`MAX_STEPS` steps."""
    rng = random.Random(derive_seed(seed, "conformance", "play"))
    state = game.new_initial_state()
    for step in range(MAX_STEPS):
        if state.is_terminal():
            return
        yield step, state, next_action(state, rng)
    raise case.fail(seed, f"no end after {MAX_STEPS} random steps", MAX_STEPS)


def playthrough(
    case: Case, game: Game[Any], seed: int
) -> Iterator[tuple[int, State[Any], Hashable]]:
    """:func:`random_steps` that applies each action itself, after the caller has looked at
    the state (which it must not change).  A legal action refused is a
    :class:`ConformanceError`."""
    for step, state, action in random_steps(case, game, seed):
        yield step, state, action
        try:
            state.apply(action)
        except Exception as exc:
            raise case.fail(seed, f"legal action {action} refused: {exc!r}", step) from exc


class RandomBot(Bot):
    """Uniform over the legal actions (the kit's partner for every other seat)."""

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        return legal[self.rng.randrange(len(legal))]


class RecordingBot(RandomBot):
    """Uniform random play that keeps a copy of every view it is given (in :attr:`views`)."""

    def __init__(self, game: Game[Any], seat: int, seed: int) -> None:
        super().__init__(game, seat, seed)
        self.views: list[View] = []

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        self._keep(view)
        return super().act(view, legal)

    def game_over(self, view: View) -> None:
        self._keep(view)

    def _keep(self, view: View) -> None:
        events: list[Event] = list(view.events)
        self.views.append(View(view.seat, view.role, view.game_info, events))


def random_bots(spec: GameSpec, seats: int) -> list[BotSpec]:
    """A :class:`RandomBot` spec for each of ``seats`` seats."""
    bot = BotSpec("conformance-random", tuple(dict.fromkeys(spec.roles)), RandomBot, "uniform")
    return [bot] * seats


def recording_bots(spec: GameSpec, seats: int) -> tuple[list[BotSpec], list[RecordingBot]]:
    """A :class:`RecordingBot` spec for each seat, and the list the bots land in when built."""
    made: list[RecordingBot] = []

    def build(game: Game[Any], seat: int, seed: int) -> RecordingBot:
        made.append(RecordingBot(game, seat, seed))
        return made[-1]

    roles = tuple(dict.fromkeys(spec.roles))
    return [BotSpec("conformance-recorder", roles, build, "records its views")] * seats, made


def partner_bots(case: Case, game: Game[Any]) -> list[BotSpec]:
    """Realistic play for every seat: the game's bot named ``random`` where it plays the
    seat's role (games' random players play sensible random moves), else uniform random."""
    bots = random_bots(case.spec, game.num_players)
    for spec in case.spec.bots:
        if spec.name == "random":
            for seat, role in enumerate(game.roles):
                if role in spec.roles:
                    bots[seat] = spec
    return bots
