"""The detectives' deduction about Mr. X, from one seat's view (the core's belief protocol).

A :class:`MrXBelief` reads the public fields of the events, so it is the same for every seat
(Mr. X's own view included: his secrets are not used), and keeps a
:class:`~sleuth.games.scotland_yard.tracker.Tracker`:

* ``start``: the tracker starts from the stations Mr. X may have drawn (the game's
  :meth:`~sleuth.games.scotland_yard.rules.ScotlandYardGame.mrx_start_set`) less the
  detectives' stations;
* ``mrx_moved``: one leg with the ticket shown, then the reveal if the entry has one (which
  it must exactly when the entry is one of the game's reveal entries);
* ``detective_moved``: a miss or a capture; ``detective_passed`` changes nothing;
* ``game_over``: the whole log and Mr. X's station, checked against everything read.

A field of the wrong shape is named as a view's loading names it (``event 3
(detective_moved): a field has the wrong shape (field 'detective' is 'x', not a whole number
from 0)``, see :func:`~sleuth.core.viewlog.event_fields`).

Invariants: sound (the true station of the game the view comes from is always possible, see
:meth:`MrXBelief.admits`) and exact (see :mod:`~sleuth.games.scotland_yard.tracker`).  Events
that no game explains raise :class:`~sleuth.core.errors.ContradictionError` naming the event
(``event 7 (mrx_moved): ...``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, cast

from sleuth.core.belief import contradiction, read_events
from sleuth.core.errors import ContradictionError
from sleuth.core.events import JSON, Event, View
from sleuth.core.game import Game, State
from sleuth.core.viewlog import EventFieldError, event_fields, whole, wholes
from sleuth.games.scotland_yard.rules import ScotlandYardGame, ScotlandYardState
from sleuth.games.scotland_yard.tracker import Model, Tracker

KINDS = frozenset(("start", "mrx_moved", "detective_moved", "detective_passed", "game_over"))


class MrXBelief:
    """Where Mr. X can be, as the detectives know it.  ``tracker`` is None before ``start``."""

    def __init__(self, game: ScotlandYardGame, model: Model = "uniform") -> None:
        self.game = game
        self.model: Model = model
        self.tracker: Tracker | None = None
        self.over = False
        """True once ``game_over`` has been read."""
        self.read = 0

    @classmethod
    def from_view(cls, game: Game[Any], view: View) -> MrXBelief:
        """The belief after every event of ``view`` (the core's belief protocol)."""
        if not isinstance(game, ScotlandYardGame):
            raise TypeError(f"a MrXBelief needs a Scotland Yard game, not {game.name}")
        belief = cls(game)
        read_events(belief, view.events)
        return belief

    @property
    def events_read(self) -> int:
        return self.read

    def update(self, event: Event) -> None:
        """Read the next event of the view; raises ``ContradictionError`` naming it when no
        game explains it."""
        index, self.read = self.read, self.read + 1
        try:
            with event_fields(index, event):
                self._read(event)
        except EventFieldError as exc:  # a badly shaped field, named as a view's loading names it
            raise ContradictionError(str(exc)) from None
        except ContradictionError as exc:
            raise contradiction(index, event, str(exc)) from None

    def _read(self, event: Event) -> None:
        if event.kind not in KINDS:
            raise ContradictionError(f"unknown event kind (known: {', '.join(sorted(KINDS))})")
        if self.over:
            raise ContradictionError("the game is over")
        public = event.public
        if event.kind == "start":
            if self.tracker is not None:
                raise ContradictionError("the game has started already")
            detectives = tuple(wholes(public, "detectives"))
            start = self.game.mrx_start_set(detectives)
            self.tracker = Tracker(self.game.board, start, detectives, self.model)
            return
        tracker = self.tracker
        if tracker is None:
            raise ContradictionError("the game has not started")
        if event.kind == "mrx_moved":
            self._mrx_moved(tracker, public)
        elif event.kind == "detective_moved":
            captured = public["captured"]
            if not isinstance(captured, bool):
                raise ValueError(f"field 'captured' is {captured!r}, not true or false")
            detective, station = whole(public, "detective"), whole(public, "station")
            tracker.detective_moved(detective, station, captured)
        elif event.kind == "game_over":
            self._game_over(tracker, public)

    def _mrx_moved(self, tracker: Tracker, public: Mapping[str, JSON]) -> None:
        entry = whole(public, "entry")
        if entry != tracker.entry + 1:
            raise ContradictionError(f"entry {entry} follows entry {tracker.entry}")
        reveal = public["reveal"]
        if (reveal is not None) != (entry in self.game.profile.reveals):
            shown = "shows" if reveal is not None else "does not show"
            raise ContradictionError(f"entry {entry} {shown} Mr. X, against the reveal entries")
        tracker.mrx_leg(str(public["ticket"]))
        if reveal is not None:
            tracker.reveal(whole(public, "reveal"))

    def _game_over(self, tracker: Tracker, public: Mapping[str, JSON]) -> None:
        caught = public["termination"] == "caught"
        if caught != (tracker.caught is not None):
            said = "caught" if caught else str(public["termination"])
            happened = "was" if tracker.caught is not None else "was not"
            raise ContradictionError(f"the game ends {said}, but Mr. X {happened} caught")
        log = [(str(ticket), whole({"log": station}, "log")) for ticket, station in public["log"]]
        tracker.reveal_log(log)
        tracker.reveal(whole(public, "mrx"))
        self.over = True

    # --- queries --------------------------------------------------------------------------

    def admits(self, state: State[Any]) -> bool:
        """True if Mr. X's station in ``state`` is possible (always, before the start)."""
        truth = cast("ScotlandYardState", state)
        if self.tracker is None or truth.mrx == 0:
            return True
        return bool(self.tracker.possible >> truth.mrx & 1)

    def sample(self, rng: random.Random) -> int:
        """One station where Mr. X may be, drawn under the belief's model."""
        return self._started().sample(rng)[0]

    def possible(self) -> list[int]:
        """Mr. X's possible stations, in increasing order."""
        return self._started().stations()

    def _started(self) -> Tracker:
        if self.tracker is None:
            raise ValueError("the game has not started: Mr. X is nowhere yet")
        return self.tracker
