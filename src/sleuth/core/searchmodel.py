"""What a game gives the search layer: a belief sampler and, optionally, a faster or smarter model.

It lives in the core, as the belief and encoding protocols do, so that a game's
:class:`~sleuth.core.registry.GameSpec` names its model without the core importing the search.

The search players (:mod:`sleuth.search.players`) know nothing about any particular game.  A
game that wants them implements a :class:`SearchModel`:

* :meth:`SearchModel.sampler` builds a :class:`WorldSampler` from one seat's view.  A sampler
  draws complete hidden worlds consistent with that view.  It must be **sound**: every world it
  draws reproduces the view exactly, which :func:`replay_history` lets tests check for any game;
  and it states its weights (normally: every consistent world equally likely).
* the other hooks are optional refinements: the rollout policy of "random" play, a heuristic
  for epsilon-greedy rollouts, a fast rollout kernel, an evaluation at a depth limit, cheap
  observation classes for moves the searching seat cannot see, teams and capture credit.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

from sleuth.core.events import Event, View
from sleuth.core.game import Game, State
from sleuth.core.options import OptionSpec
from sleuth.core.outcome import side_seats

ITERATION_COST = 1e-3
"""CPU seconds a simulation may take, at most, unless the game declares its own (its search
model's :attr:`~sleuth.core.searchmodel.SearchModel.iteration_cost`)."""

A = TypeVar("A", bound=Hashable)

ObservationKey = tuple[Hashable, ...]
"""What a set of observers learns from the events of one step (hashable, comparable)."""


class WorldSampler(Protocol[A]):
    """Draws complete worlds consistent with one seat's view (see :class:`SearchModel`)."""

    def sample_history(self, rng: random.Random) -> list[A]:
        """Every action from the initial state (chance outcomes included) of one world.

        Replaying it with :func:`replay_history` gives a state whose events, as the viewing
        seat sees them, are exactly the view's events."""
        ...

    def sample_state(self, rng: random.Random) -> State[A]:
        """The current state of one world, drawn from the same distribution as replaying
        :meth:`sample_history` (games build it directly, which is faster)."""
        ...


class SearchModel(Generic[A]):
    """A game's hooks for the search layer; only :meth:`sampler` is required.

    Every move a hook returns (rollout, heuristic, candidate, class member) must be legal in
    the state it is given: the tree plays them unchecked
    (:meth:`~sleuth.core.game.State.apply_trusted`).

    A model holds no game state: all it knows comes from the arguments of each call.  The
    game's model object serves every seat; a bot with values of the game's :attr:`options`
    uses the model :meth:`configured` returns (:meth:`warm_up` runs on the game's object)."""

    options: tuple[OptionSpec, ...] = ()
    """The game's own options of its search bots (``ismcts:model=thrifty``), added to the
    common ones; a bot's values reach :meth:`configured`."""
    overhead: float = 0.0
    """Seconds a decision may spend outside the tree search on a hard position (building the
    sampler, :meth:`root_moves`, :meth:`unsampled_action`): added to the move budget the
    search bots declare (:func:`sleuth.search.players.search_bots`)."""
    iteration_cost: float = ITERATION_COST
    """CPU seconds one simulation may take at most (with the game's default search options, on
    its largest boards): the search bots declare their ``iterations`` times it (see
    :class:`~sleuth.search.catalogue.SearchBudget`)."""

    def configured(self, **values: Any) -> SearchModel[A]:
        """The model a bot with these values of :attr:`options` uses (default: this one,
        which has none)."""
        return self

    def sampler(self, game: Game[A], view: View) -> WorldSampler[A]:
        """A sampler of the worlds consistent with ``view``."""
        raise NotImplementedError

    def unsampled_action(
        self, game: Game[A], view: View, legal: Sequence[A], rng: random.Random
    ) -> A | None:
        """A move for a seat whose worlds are too many to sample (the sampler raised
        :class:`~sleuth.core.errors.SolverLimitError`), from its view alone; None (the
        default) lets the error stand, which forfeits the move in a match."""
        return None

    def warm_up(self) -> None:
        """Load the compiled kernels the model uses, before any move is timed (the search
        bots' :attr:`~sleuth.core.bots.BotSpec.warm_up`); none by default."""

    def rollout_action(self, state: State[A], rng: random.Random) -> A:
        """The move of "random" play (default: uniform over the legal actions)."""
        return rng.choice(state.legal_actions())

    def candidate_moves(self, state: State[A]) -> Sequence[A] | None:
        """The moves the search considers for the seat to move, when its legal moves are too
        many to try (Fugitive placements and guesses); None (the default) means every legal
        move.  The candidates of a seat must depend only on what that seat knows, or the tree
        would learn hidden information from them."""
        return None

    def root_moves(self, game: Game[A], view: View, legal: Sequence[A]) -> Sequence[A]:
        """Moves the search also tries at the root of a decision, besides the root's
        candidates: found from the seat's ``view``, for example a strong player's choice that
        :meth:`candidate_moves` leaves out.  Every one must be in ``legal`` (the players raise
        :class:`~sleuth.search.players.SearchError` otherwise).  The root's candidates are
        copied to add them on each visit, so give :meth:`candidate_moves` a short list where
        this adds moves, not a huge legal sequence.  None (an empty tuple) by default."""
        return ()

    def heuristic_action(self, state: State[A], rng: random.Random) -> A | None:
        """A good move for epsilon-greedy rollouts, or None when the game has no heuristic."""
        return None

    def fast_rollout(self, state: State[A], rng: random.Random) -> Sequence[float] | None:
        """Play ``state`` (not terminal) to the end with :meth:`rollout_action`, without building
        events, and return each seat's win share; None when the game has no such kernel.  It
        must play exactly like :meth:`rollout_action` (games test this).  Not used for games
        with teams, since it does not say which seat won."""
        return None

    def fast_playout(
        self, state: State[A], rng: random.Random, greedy: bool, epsilon: float, left: int | None
    ) -> tuple[Sequence[float], int | None] | None:
        """Play ``state`` on as the tree's own simulation loop would, faster: each move the
        heuristic one with probability ``1 - epsilon`` when ``greedy`` (one ``rng.random()``
        decides), else :meth:`rollout_action`; after ``left`` moves (None: no limit) the
        position is scored by :meth:`evaluate`.  Returns the win shares (or the evaluation)
        and the :meth:`credit` seat, exactly what that loop finds, drawing the same random
        numbers (games test this); None when the game has no such shortcut (the default).
        ``state`` may be left in any position."""
        return None

    def evaluate(self, state: State[A]) -> Sequence[float] | None:
        """Each seat's estimated win share in a non-terminal state, for depth-limited search;
        None when the game has no evaluation (the rollout then goes on to the end)."""
        return None

    def hidden_move(self, state: State[A], observers: frozenset[int]) -> Hashable | None:
        """A label for the mover's moves when the observers cannot tell any of them apart (the
        fox's night moves, to the hunter): the search then plays :meth:`rollout_action` without
        listing them.  None (the default) when that is not known to be so."""
        return None

    def move_classes(
        self, state: State[A], observers: frozenset[int]
    ) -> Mapping[Hashable, Sequence[A]] | None:
        """The legal moves of a seat outside ``observers``, grouped by what the observers see
        of them; None means "work it out by playing each move on a copy" (always correct,
        slower)."""
        return None

    def teams(self, game: Game[A]) -> tuple[tuple[int, ...], ...]:
        """Groups of seats that share one view and one result (default: the game's sides,
        :meth:`~sleuth.core.game.Game.sides`, in order of their first seat; a game whose sides
        are single seats has every seat alone)."""
        return tuple(side_seats(game.sides()).values())

    def credit(self, state: State[A]) -> int | None:
        """The seat that won a team's game for it (a detective who captured), if any."""
        return None


def _plain(value: Any) -> Hashable:
    if isinstance(value, Mapping):
        return tuple((k, _plain(v)) for k, v in value.items())
    if isinstance(value, tuple | list):
        return tuple(_plain(v) for v in value)
    return value  # type: ignore[no-any-return]


def _fields(mapping: Mapping[str, Any]) -> tuple[Hashable, ...]:
    items = tuple(mapping.items())
    try:
        hash(items)
    except TypeError:  # a nested mapping or list: turn it into tuples
        return tuple((k, _plain(v)) for k, v in items)
    return items


def event_key(event: Event, observers: frozenset[int]) -> Hashable:
    """What ``observers`` see of ``event``: kind, public fields, private fields if in audience."""
    private = event.private
    if private is not None and observers.isdisjoint(event.audience):
        private = None
    return (event.kind, _fields(event.public), None if private is None else _fields(private))


def observation(events: Sequence[Event], observers: frozenset[int]) -> ObservationKey:
    """The observers' view of the events of one step, as a hashable key."""
    return tuple(event_key(e, observers) for e in events)


def replay_history(game: Game[A], history: Sequence[A]) -> tuple[State[A], list[Event]]:
    """Replay ``history`` from the initial state; returns the state and every event."""
    state = game.new_initial_state()
    events: list[Event] = []
    for action in history:
        events.extend(state.apply(action))
    return state, events


def view_matches(events: Sequence[Event], view: View) -> bool:
    """True if ``events`` look exactly like ``view.events`` to the view's seat."""
    seen = [e.seen_by(view.seat) for e in events]
    return len(seen) == len(view.events) and all(
        a == b for a, b in zip(seen, view.events, strict=True)
    )
