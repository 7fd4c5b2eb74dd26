"""A seat's picture of the table, rebuilt from its view (V3: a fresh, masked copy of the state).

:class:`TableTracker` replays the events a seat has seen through the rules engine itself, so the
observed :class:`~sleuth.games.camel_up.rules.CamelState` has every public fact (camels, dice,
tickets, tiles, money, who bet on which pile in which order) and the seat's own overall cards,
while other seats' cards read :data:`~sleuth.games.camel_up.rules.HIDDEN` until the reveal at
the end.  It holds no random generator and no scripted dice, and changing it changes nothing in
the game.  Because the engine checks each replayed action, a view that is not a possible game
raises ``IllegalActionError`` naming the event.
"""

from __future__ import annotations

from collections.abc import Sequence

from sleuth.core.errors import IllegalActionError
from sleuth.core.events import Event
from sleuth.games.camel_up.actions import ROLL, Die, LegBet, OverallBet, PlaceTile, Start
from sleuth.games.camel_up.rules import CamelState, CamelUpGame

DERIVED = frozenset(("capped", "leg_scored", "game_over"))
"""Events the engine derives by itself when it replays the others."""


class TableTracker:
    """The observed state of one seat, updated incrementally from its growing event list."""

    def __init__(self, game: CamelUpGame) -> None:
        self.state = game.new_initial_state()
        self.read = 0

    def update(self, events: Sequence[Event]) -> CamelState:
        """Read the events not read yet and return the observed state."""
        for number in range(self.read, len(events)):
            try:
                self._replay(events[number])
            except (IllegalActionError, KeyError, TypeError, ValueError) as exc:
                raise IllegalActionError(
                    f"event {number} ({events[number].kind}) is not possible here: {exc}"
                ) from None
            self.read = number + 1
        return self.state

    def _replay(self, event: Event) -> None:
        state = self.state
        public = event.public
        kind = event.kind
        if kind in DERIVED:
            return
        if kind == "start":
            state.apply(Start(tuple((int(s), tuple(n)) for s, n in public["stacks"])))
        elif kind == "roll":
            if not public["forced"]:
                state.apply(ROLL)
        elif kind == "die":
            state.apply(Die(str(public["colour"]), int(public["value"])))
        elif kind == "leg_bet":
            state.apply(LegBet(str(public["camel"])))
        elif kind == "tile":
            state.apply(PlaceTile(int(public["space"]), str(public["side"])))
        elif kind == "overall_bet":
            if event.private is not None:
                state.apply(OverallBet(str(public["pile"]), str(event.private["camel"])))
            else:
                state.apply_hidden_bet(str(public["pile"]))
        elif kind == "overall_scored":
            state.reveal_overall(str(public["pile"]), public["cards"])
        else:
            raise IllegalActionError(f"unknown event kind {kind!r}")
