"""The protocol every game's belief follows: deduction from one seat's view.

A belief is what one seat can know about the hidden state, and nothing else: it is built from
the game and that seat's :class:`~sleuth.core.events.View` (:meth:`Belief.from_view`), and it
reads the seat's later events one at a time (:meth:`Belief.update`).  The same class serves the
game's players, its assistant and ``sleuth infer``.  Each game keeps its own deduction and its
own queries (a set of holes, exact world counts, card probabilities); this protocol is the
shape they share, so that generic code and the conformance checks can drive any of them.

Invariants every game's belief keeps:

* **sound**: the true hidden state of the game the view comes from is always possible
  (:meth:`Belief.admits` is True for it after every event);
* **contradictions are errors**: events that no hidden state explains raise
  :class:`~sleuth.core.errors.ContradictionError` naming the first such event by its number in
  the view (counted from 1, as the assistants and ``sleuth infer`` number events) and its kind,
  never a silent empty belief (:func:`contradiction` writes that message).  A belief that
  counts worlds lazily may raise when it is next queried rather than in :meth:`Belief.update`;
  the error names the event either way;
* **samples are sound** where the game has them (:class:`SamplingBelief`): every world drawn is
  consistent with the events read.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, Protocol, Self, TypeVar, runtime_checkable

from sleuth.core.errors import ContradictionError
from sleuth.core.events import Event, View
from sleuth.core.game import Game, State

__all__ = ["Belief", "ContradictionError", "SamplingBelief", "contradiction", "read_events"]

W_co = TypeVar("W_co", covariant=True)


@runtime_checkable
class Belief(Protocol):
    """One seat's deduction, built from its view and updated event by event."""

    @classmethod
    def from_view(cls, game: Game[Any], view: View) -> Self:
        """The belief of ``view.seat`` after every event of ``view``."""
        ...

    @property
    def events_read(self) -> int:
        """How many events of the seat's view the belief has read (the next one's 0-based
        index)."""
        ...

    def update(self, event: Event) -> None:
        """Read the seat's next event (as the seat sees it).  Raises
        :class:`~sleuth.core.errors.ContradictionError` naming it (see :func:`contradiction`)
        when no hidden state explains it; the belief is then unusable."""
        ...

    def admits(self, state: State[Any]) -> bool:
        """True if the hidden facts of ``state`` (the true state of the game the view comes
        from, at the same moment) are possible under this belief.  Soundness means this is
        True for the true state after every event."""
        ...


@runtime_checkable
class SamplingBelief(Belief, Protocol[W_co]):
    """A belief that also draws complete hidden worlds (the search samplers use these)."""

    def sample(self, rng: random.Random) -> W_co:
        """One hidden world consistent with every event read, drawn with ``rng`` in proportion
        to its weight."""
        ...


def contradiction(index: int, event: Event, reason: str) -> ContradictionError:
    """The error for the event at ``index`` (0-based) of a view that no hidden state explains:
    ``event 3 (inspected): <reason>`` names it from 1."""
    return ContradictionError(f"event {index + 1} ({event.kind}): {reason}")


def read_events(belief: Belief, events: Iterable[Event]) -> None:
    """Feed ``events`` to ``belief`` in order (what :meth:`Belief.from_view` implementations
    do after building the empty belief)."""
    for event in events:
        belief.update(event)
