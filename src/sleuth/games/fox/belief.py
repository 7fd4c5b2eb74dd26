"""The hunter's deduction: the set of holes the fox may be in (rules A2 and A4).

A :class:`FoxBelief` is a replay of the inspections made so far.  With ``B_1`` = every hole,
day t's inspection ``K_t`` gives the evening belief ``A_t = B_t \\ K_t`` and the next morning's
``B_{t+1} = night(A_t)``.  ``A_t`` empty means the fox has been caught, whatever it did.

Soundness invariant: a fox that has not been caught is in ``B_t`` every morning and in ``A_t``
every evening.  Exactness: every hole of ``B_t`` is the position at day t of some fox walk that
dodged every inspection so far.

It follows the core's belief protocol (:mod:`sleuth.core.belief`): :meth:`FoxBelief.from_view`
reads a hunter's (or anyone's) view, :meth:`FoxBelief.update` one event of it, and an inspection
that no fox explains (a catch where the fox cannot be, a miss that leaves it no hole) raises
:class:`~sleuth.core.errors.ContradictionError` naming the event.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, cast

from sleuth.core.belief import contradiction, read_events
from sleuth.core.errors import IllegalActionError
from sleuth.core.events import Event, View
from sleuth.core.game import Game, State
from sleuth.games.fox.graph import FoxGraph, holes_of, mask_of
from sleuth.games.fox.rules import FoxGame, FoxState
from sleuth.games.fox.walk import reconstruct_path


class FoxBelief:
    """Possible fox holes from the hunter's point of view (bitsets over the graph's holes)."""

    def __init__(self, graph: FoxGraph, k: int = 1, lazy: bool = False) -> None:
        self.graph = graph
        self.k = k
        self.lazy = lazy
        self.inspections: list[int] = []
        self.evenings: list[int] = []
        self.morning = graph.all_holes
        self.found: int | None = None
        """The holes where the fox was caught (a bitset), once an event says so."""
        self.read = 0
        """Events read by :meth:`update`."""

    @classmethod
    def from_view(cls, game: Game[Any], view: View) -> FoxBelief:
        """The belief after every event of ``view`` (the core's belief protocol)."""
        if not isinstance(game, FoxGame):
            raise TypeError(f"a FoxBelief needs a fox game, not {game.name}")
        belief = cls(game.graph, game.k, game.lazy)
        read_events(belief, view.events)
        return belief

    @property
    def events_read(self) -> int:
        return self.read

    def update(self, event: Event) -> None:
        """Read one event of a view: an ``inspected`` event is the day's inspection and says
        whether the fox was caught; the others (the fox's nights, its path at the end) add no
        fact about where it is.  Raises ``ContradictionError`` naming the event when no fox
        explains it."""
        index, self.read = self.read, self.read + 1
        if event.kind != "inspected":
            return
        if self.found is not None:
            raise contradiction(index, event, "the fox was already caught")
        holes = tuple(event.public["holes"])
        morning = self.morning
        try:
            self.inspect(holes)
        except IllegalActionError as exc:
            raise contradiction(index, event, str(exc)) from None
        if event.public["caught"]:
            self.found = morning & mask_of(holes)
            if not self.found:
                reason = "says the fox was caught, but it could be in none of those holes"
                raise contradiction(index, event, reason)
        elif self.caught:
            raise contradiction(index, event, "says the fox was missed, but it had no hole left")

    def admits(self, state: State[Any]) -> bool:
        """True if the fox's holes in ``state`` (the true position at the same moment: one
        hole for a fox that commits, several for the quantum fox) are all possible."""
        fox = cast("FoxState", state)
        if fox.fox == 0:  # it has not hidden yet
            return True
        if self.found is not None:
            allowed = self.found
        elif fox.fox_to_move or fox.over:  # after an inspection, before the night
            allowed = self.evenings[-1]
        else:
            allowed = self.morning
        return fox.fox & ~allowed == 0

    @property
    def day(self) -> int:
        """The day of the next inspection (1-based)."""
        return len(self.inspections) + 1

    @property
    def caught(self) -> bool:
        return bool(self.evenings) and self.evenings[-1] == 0

    def possible_holes(self) -> list[int]:
        """The holes the fox may be in at the next inspection (empty once it is caught)."""
        return [] if self.caught else holes_of(self.morning)

    def inspect(self, holes: Sequence[int]) -> bool:
        """Record day ``day``'s inspection; return True if it certainly catches the fox."""
        if self.caught:
            raise IllegalActionError("the fox has already been caught")
        if not holes:
            raise IllegalActionError("an inspection needs at least one hole")
        if len(set(holes)) != len(holes):
            raise IllegalActionError(f"inspection {list(holes)} repeats a hole")
        if len(holes) > self.k:
            raise IllegalActionError(
                f"at most {self.k} {'hole' if self.k == 1 else 'holes'} may be inspected "
                f"per day, got {len(holes)}"
            )
        for h in holes:
            if not 0 <= h < self.graph.n:
                raise IllegalActionError(
                    f"hole {h} is not on the board (holes 0..{self.graph.n - 1})"
                )
        inspected = mask_of(holes)
        evening = self.morning & ~inspected
        self.inspections.append(inspected)
        self.evenings.append(evening)
        if evening:
            self.morning = self.graph.night(evening, self.lazy)
        return evening == 0

    def undo(self) -> None:
        """Forget the last inspection."""
        if not self.inspections:
            raise IllegalActionError("nothing to undo")
        self.inspections.pop()
        self.evenings.pop()
        self.morning = self._night_or_start(len(self.evenings) - 1)

    def fox_path(self, rng: random.Random | None = None) -> list[int]:
        """One fox walk consistent with every inspection (A4); see :func:`reconstruct_path`."""
        if self.caught:
            last_morning = self._morning_before_last()
            return reconstruct_path(
                self.graph,
                self.evenings[:-1],
                self.lazy,
                rng,
                final=last_morning & self.inspections[-1],
            )
        return reconstruct_path(self.graph, self.evenings, self.lazy, rng)

    def _morning_before_last(self) -> int:
        return self._night_or_start(len(self.evenings) - 2)

    def _night_or_start(self, evening_index: int) -> int:
        """The morning after evening ``evening_index`` (every hole before day 1)."""
        if evening_index < 0:
            return self.graph.all_holes
        return self.graph.night(self.evenings[evening_index], self.lazy)
