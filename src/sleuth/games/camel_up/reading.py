"""The table of a Camel Up game read once for all its seats (the encoding's readings).

Every seat sees every event of a game; they differ only in the overall cards, whose camel a
seat sees on its own cards alone.  So the encoding replays the public side of the events once
per game, every overall card hidden (a :class:`PublicTable`, shared by the seats' views), and
each seat keeps its own cards apart (a :class:`SeatReading`): an action is replayed once, not
once per seat.

Invariant: a seat's reading after ``events`` shows what a
:class:`~sleuth.games.camel_up.belief.TableTracker` of those events shows (the table, with the
seat's own cards known) and the card hints of the others' cards, whatever order the views are
read in, and whatever other histories share the encoding (a table is shared only while the
events' public fields are the very objects it read).
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence

from sleuth.core.belief import contradiction
from sleuth.core.events import JSON, Event
from sleuth.games.camel_up.actions import PILES
from sleuth.games.camel_up.belief import TableTracker
from sleuth.games.camel_up.rules import HIDDEN, CamelState, CamelUpGame
from sleuth.games.camel_up.track import RACERS, racing_order

Hints = list[list[int]]
"""By pile (winner, loser), by racing camel: hidden cards placed while it led (winner pile) or
was last (loser pile)."""


class PublicTable(TableTracker):
    """The table after the public fields of events, every overall card hidden until the
    reveal, with each bettor's card hints (:attr:`hints`, by seat)."""

    def __init__(self, game: CamelUpGame) -> None:
        super().__init__(game)
        self.publics: list[Mapping[str, JSON]] = []
        """The public fields of each event read (the events' own objects)."""
        self.hints: list[Hints] = [[[0] * RACERS, [0] * RACERS] for _ in range(game.players)]
        """By bettor: the hints its cards gave."""
        self.total: Hints = [[0] * RACERS, [0] * RACERS]
        """The hints of every bettor's cards."""

    def shows(self, events: Sequence[Event], start: int) -> bool:
        """Whether ``events`` go on from the events read, at least from ``start`` on."""
        publics = self.publics
        return len(publics) <= len(events) and all(
            events[i].public is publics[i] for i in range(start, len(publics))
        )

    def _replay(self, event: Event) -> None:
        state, public = self.state, event.public
        if event.kind == "overall_bet":
            pile = PILES.index(str(public["pile"]))
            bettor = state.current_player()
            if state.order is not None:
                ranking = racing_order(state.order)
                hinted = ranking[-1] if pile == 0 else ranking[0]
            state.apply_hidden_bet(str(public["pile"]))
            if state.order is not None:
                self.hints[bettor][pile][hinted] += 1
                self.total[pile][hinted] += 1
        else:
            super()._replay(event)
        self.publics.append(public)


class SharedTables:
    """The public tables of one encoding, found by the public fields of a view's first event;
    a table lives as long as a seat's reading uses it."""

    def __init__(self, game: CamelUpGame) -> None:
        self.game = game
        self._by_first: weakref.WeakValueDictionary[int, PublicTable] = (
            weakref.WeakValueDictionary()
        )

    def __reduce__(self) -> tuple[type[SharedTables], tuple[CamelUpGame]]:
        return SharedTables, (self.game,)  # the tables are a cache (weak references do not pickle)

    def table_for(self, events: Sequence[Event]) -> PublicTable:
        """A table that has read a start of ``events`` (then read to their end by its user):
        their game's shared one, if it has read nothing else, else a new one."""
        key = id(events[0].public)
        found = self._by_first.get(key)
        if found is not None and found.shows(events, 0):
            return found
        table = PublicTable(self.game)
        if found is None:
            self._by_first[key] = table
        return table


class SeatReading:
    """One seat's view read so far: the shared table and the seat's own overall cards."""

    def __init__(self, tables: SharedTables, seat: int) -> None:
        self.tables = tables
        self.seat = seat
        self.table = PublicTable(tables.game)
        """The table after the events read (an empty one of its own before the first)."""
        self.own: dict[tuple[int, int], int] = {}
        """The camel of each of the seat's cards, by pile and place in the pile (from 0)."""
        self.read = 0
        self.last: Event | None = None

    def update(self, events: Sequence[Event]) -> None:
        """Read ``events[self.read:]`` (the events read before them being the same)."""
        if not events:
            return
        table = self.table
        if not table.publics or not table.shows(events, self.read):
            table = self.table = self.tables.table_for(events)
        table.update(events)
        for number in range(self.read, len(events)):
            event = events[number]
            if event.kind == "overall_bet" and event.private is not None:
                self._own_card(number, event)
        self.read, self.last = len(events), events[-1]

    def _own_card(self, number: int, event: Event) -> None:
        pile = PILES.index(str(event.public["pile"]))
        camel = self.tables.game.racer_id(str(event.private["camel"]))  # type: ignore[index]
        if camel in self.own.values():
            reason = f"not possible here: seat {self.seat} has only one such card"
            raise contradiction(number, event, reason)
        self.own[pile, int(event.public["position"]) - 1] = camel

    @property
    def state(self) -> CamelState:
        """The table after the events read, every other seat's overall card hidden."""
        return self.table.state

    def hints(self) -> Hints:
        """The card hints of the other seats' cards."""
        own = self.table.hints[self.seat]
        return [
            [all_ - mine for all_, mine in zip(total, own[pile], strict=True)]
            for pile, total in enumerate(self.table.total)
        ]

    def camel(self, pile: int, place: int, shown: int) -> int:
        """The camel of the card at ``place`` in ``pile`` as the seat knows it (``shown``: the
        table's, :data:`~sleuth.games.camel_up.rules.HIDDEN` until the reveal)."""
        return self.own.get((pile, place), shown) if shown == HIDDEN else shown
