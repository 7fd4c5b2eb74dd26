"""The protocol every game implements.

A :class:`Game` is an immutable description (board, options, seats and roles); a :class:`State`
is one position of that game.  States are mutable and cheap to :meth:`State.clone`: search
clones, match runners apply in place.

Conventions shared by all games:

* seats are ``0 .. num_players - 1``; :attr:`Game.roles` gives each seat's role (several seats
  may share a role, e.g. a team of detectives); :meth:`Game.sides` groups the seats into sides
  that win or lose together, and :meth:`State.result` is a finished game's structured outcome;
* :meth:`State.current_player` is a seat, :data:`CHANCE` when the next action is drawn from
  :meth:`State.chance_outcomes`, or :data:`TERMINAL`;
* actions are hashable values whose ``str`` is their text form, and
  ``game.parse_action(str(a)) == a`` for every action ``a``;
* :meth:`State.apply` is the same in every game: the game's :meth:`State.illegal_reason`
  judges the action (the state is unchanged when :class:`~sleuth.core.errors.IllegalActionError`
  is raised) and its unchecked :meth:`State._apply` plays it and returns the events it caused;
  :meth:`State.apply_trusted` skips the check for actions known to be legal (search, replays of
  histories validated when first played).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from typing import ClassVar, Generic, TypeVar

from sleuth.core.errors import IllegalActionError
from sleuth.core.events import JSON, Event
from sleuth.core.outcome import Outcome, default_sides, side_seats, side_wins, sides_of

CHANCE = -1
"""``current_player()`` of a state whose next action is a chance outcome."""
TERMINAL = -2
"""``current_player()`` of a finished game."""

ActionT = TypeVar("ActionT", bound=Hashable)


class Game(ABC, Generic[ActionT]):
    """An immutable game description: rules options, seats and roles.

    Bots hold the game object, so a game must never store anything derived from a state
    (no caches keyed by hidden information): that would leak it to every seat.
    """

    name: ClassVar[str]
    continues_after_forfeit: ClassVar[bool] = False
    """If True, a forfeited seat is played by :meth:`State.fallback_action` and the game goes on;
    otherwise the first forfeit ends the game (see :meth:`forfeit_wins`)."""
    terminations: ClassVar[tuple[str, ...]] = ("finished",)
    """Every termination reason :meth:`State.termination` can give (``"forfeit"``, a game
    ended by a forfeit, is the core's own and never listed here)."""

    @property
    @abstractmethod
    def roles(self) -> tuple[str, ...]:
        """The role of each seat, indexed by seat."""

    @property
    def num_players(self) -> int:
        return len(self.roles)

    @abstractmethod
    def options(self) -> dict[str, JSON]:
        """Canonical option values; ``make_game(name, options())`` rebuilds an equal game."""

    def public_info(self) -> dict[str, JSON]:
        """What every seat knows about the game before it starts (goes into every view)."""
        return {"game": self.name, "options": self.options(), "roles": list(self.roles)}

    @abstractmethod
    def new_initial_state(self) -> State[ActionT]:
        """The position before the first action."""

    @abstractmethod
    def parse_action(self, text: str) -> ActionT:
        """The action whose text form is ``text``; raises ``ActionParseError`` otherwise."""

    def sides(self) -> tuple[str, ...]:
        """The side of each seat, indexed by seat: seats of one side win or lose together.

        Default: every seat its own side, named by its role when the role is one seat's, else
        by role and seat (``player0``, ``player1``, ...; see
        :func:`~sleuth.core.outcome.default_sides`).  A team game overrides this."""
        return default_sides(tuple(self.roles))

    def forfeit_winners(self, forfeited: frozenset[int]) -> tuple[str, ...]:
        """The winning sides when the game ends because the seats in ``forfeited`` forfeited.

        Default: every side none of whose seats forfeited (several share the win)."""
        return tuple(
            side for side, seats in side_seats(self.sides()).items() if forfeited.isdisjoint(seats)
        )

    def forfeit_wins(self, forfeited: frozenset[int]) -> tuple[float, ...]:
        """Win shares when the game ends because the seats in ``forfeited`` forfeited: every
        seat of a side of :meth:`forfeit_winners` gets the side's whole share."""
        return side_wins(self.sides(), self.forfeit_winners(forfeited))


class State(ABC, Generic[ActionT]):
    """One position of a game (subclasses may declare ``__slots__``)."""

    __slots__ = ()

    game: Game[ActionT]

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, or :data:`CHANCE`, or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> Sequence[ActionT]:
        """Every legal action of the player to move, in a fixed order (empty when terminal).

        Games may return a shared, cached sequence: callers must not modify it (a tuple is the
        natural choice; the match runner hands tuples to bots unchanged).  A game with too many
        legal actions to list (every sprint set of a hand) returns a read-only lazy
        :class:`~collections.abc.Sequence` that computes its items on demand; the runner hands
        it over unchanged too, and only copies mutable sequences."""

    def apply(self, action: ActionT) -> list[Event]:
        """Play ``action`` and return the events it caused.

        The one validated way to play, the same in every game: :meth:`illegal_reason` judges
        the action and :meth:`_apply` plays it.  An illegal action raises
        :class:`~sleuth.core.errors.IllegalActionError` (``"<action>: <reason>"``) and changes
        nothing.  Games do not override this; they implement the two halves."""
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(f"{action}: {reason}")
        return self._apply(action)

    def apply_trusted(self, action: ActionT) -> list[Event]:
        """:meth:`apply` without the legality check: the fast path for actions already known
        to be legal (taken from :meth:`legal_actions` of this very state, or a history that
        was validated when it was first played, such as a search sampler's world).

        The caller vouches for the action: an illegal one is not detected and may corrupt
        the state.  Untrusted input (a bot's answer, a log read from disk, a person's entry)
        always goes through :meth:`apply`."""
        return self._apply(action)

    @abstractmethod
    def illegal_reason(self, action: object) -> str | None:
        """Why ``action`` may not be played now (``None`` if it is legal).

        The reason names the rule broken, without repeating the action: :meth:`apply` puts
        the action's text form before it.  It never changes the state, and it is ``None``
        exactly when :meth:`is_legal` is True."""

    @abstractmethod
    def _apply(self, action: ActionT) -> list[Event]:
        """Play a legal ``action`` (unchecked) and return the events it caused."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the game is over."""

    @abstractmethod
    def returns(self) -> tuple[float, ...]:
        """Each seat's payoff in a finished game (for games with scores, the scores)."""

    @abstractmethod
    def clone(self) -> State[ActionT]:
        """An independent copy: applying actions to it leaves this state unchanged."""

    def chance_outcomes(self) -> Sequence[tuple[ActionT, float]]:
        """The chance actions and their probabilities when ``current_player() == CHANCE``."""
        raise NotImplementedError(f"{self.game.name} has no chance events")

    def sample_chance(self, rng: random.Random) -> ActionT:
        """Draw the next chance action with ``rng``.

        The default draws from :meth:`chance_outcomes`; games whose chance events have too many
        outcomes to list (a shuffle, a deal) override this and :meth:`is_legal`."""
        outcomes = self.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]

    def termination(self) -> str:
        """Why a finished game ended, as one of :attr:`Game.terminations` (default
        ``"finished"``, for games that end in one way only)."""
        return "finished"

    def winners(self) -> tuple[str, ...]:
        """The winning sides of a finished game, in seat order; empty when nobody won.

        Default: the sides of the seats with the highest return (a tie names several)."""
        returns = self.returns()
        best = max(returns)
        return sides_of(self.game.sides(), [s for s, r in enumerate(returns) if r == best])

    def winners_without(self, forfeited: frozenset[int]) -> tuple[str, ...]:
        """The winning sides of a finished game in which the ``forfeited`` seats score 0 and
        cannot win (a game that :attr:`Game.continues_after_forfeit`); empty when nobody won.

        Default: the sides of the other seats with the highest return.  A game that goes on
        after a forfeit and decides its winners otherwise overrides it."""
        returns = self.returns()
        standing = [s for s in range(len(returns)) if s not in forfeited]
        if not standing:
            return ()
        best = max(returns[s] for s in standing)
        return sides_of(self.game.sides(), [s for s in standing if returns[s] == best])

    def wins(self) -> tuple[float, ...]:
        """Win shares of a finished game: every seat of a winning side gets a full win, and
        winning sides share one win equally (see :func:`~sleuth.core.outcome.side_wins`)."""
        return side_wins(self.game.sides(), self.winners())

    def result(self) -> Outcome:
        """The structured outcome of a finished game (termination, winning sides, returns,
        win shares and :meth:`outcome` text)."""
        winners = self.winners()
        if type(self).wins is State.wins:  # the default wins, from the winners just read
            wins = side_wins(self.game.sides(), winners)
        else:
            wins = self.wins()
        return Outcome(self.termination(), winners, self.returns(), wins, self.outcome())

    def outcome(self) -> str:
        """A short human description of the result of a finished game."""
        pairs = zip(self.game.roles, self.returns(), strict=True)
        return ", ".join(f"{role}={r:g}" for role, r in pairs)

    def fallback_action(self) -> ActionT:
        """The action played for a forfeited seat when the game continues after a forfeit."""
        return self.legal_actions()[0]

    def is_legal(self, action: object) -> bool:
        """True if ``action`` is one of :meth:`legal_actions` (games may answer faster); it
        agrees with :meth:`illegal_reason` (True exactly when that is None)."""
        return action in self.legal_actions()
