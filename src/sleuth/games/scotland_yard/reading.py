"""Views read incrementally into observation vectors (for
:class:`~sleuth.games.scotland_yard.encoding.ScotlandYardEncoding`).

Observations are made at every step, from views that only grow, so each view's reading is kept
and extended by the events added since (:class:`ViewReading`).  Everything but Mr. X's own
station is public, and every seat's view of one game holds the same public fields (the very
same objects: :meth:`~sleuth.core.events.Event.seen_by` keeps them), so the public part is read
once per game and shared by the views that show it (:class:`PublicReading`): a game with a
seat per detective costs no more than one with two seats.

The public state (stations, tickets, entries, round, the detective to move) is the Monte Carlo
detective's :class:`~sleuth.games.scotland_yard.mc.PublicRecord`, which reads the public events
one at a time by the rules (S5, S6, C1); the belief is
:class:`~sleuth.games.scotland_yard.belief.MrXBelief`, fed the same events.

Invariant: a reading is a pure function of the events it has read (a view whose read events
changed, or that falls behind the shared reading, is read again from its start).
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from sleuth.core.encoding import Observation
from sleuth.core.events import JSON, Event, View
from sleuth.games.scotland_yard.belief import MrXBelief
from sleuth.games.scotland_yard.edition import UNLIMITED
from sleuth.games.scotland_yard.mc import PublicRecord
from sleuth.games.scotland_yard.moves import Ticket
from sleuth.games.scotland_yard.rules import MRX

if TYPE_CHECKING:
    from sleuth.games.scotland_yard.encoding import ScotlandYardEncoding


class PublicReading:
    """The public facts of one sequence of events and the observation segments made of them:
    every segment but ``seat``, ``mrx station`` and ``prefix`` (left zero).

    The segments that only grow (the log, the last reveal) are written as their events are
    read, the others (whose turn, the clock, the tickets, the detectives) again after every
    read.  The belief is read when first asked for, then kept up to date."""

    def __init__(self, encoding: ScotlandYardEncoding) -> None:
        self.encoding = encoding
        self.publics: list[Mapping[str, JSON]] = []
        """The public fields of each event read (the events' own objects)."""
        self.record = PublicRecord(encoding.sy_game)
        self.over = False
        self.cornered = False
        """The game ended at Mr. X's turn, where he had no move (S26)."""
        self.out = np.zeros(sum(s.size for s in encoding.segments), np.float32)
        self._events: list[Event] = []
        self._stations: list[int] = []
        """Where the ``detectives`` segment has its ones."""
        self._belief: MrXBelief | None = None
        self._belief_vector: Observation | None = None

    @property
    def read(self) -> int:
        """How many events have been read."""
        return len(self.publics)

    def shows(self, events: Sequence[Event], start: int, end: int) -> bool:
        """Whether ``events[start:end]`` are the events read there (their public fields)."""
        publics = self.publics
        return end <= len(publics) and all(
            events[i].public is publics[i] for i in range(start, end)
        )

    def extend(self, events: Sequence[Event]) -> None:
        """Read ``events``, which follow those read."""
        for event in events:
            self.record.read(event)
            self._note(event)
            self.publics.append(event.public)
        self._events.extend(events)
        self._refresh()
        self._belief_vector = None

    def _note(self, event: Event) -> None:
        """Write what ``event`` adds to the log and the last reveal."""
        public = event.public
        at, out, n = self.encoding.start, self.out, self.encoding.sy_game.board.n
        if event.kind == "mrx_moved":
            row = at["log"] + 5 * (int(public["entry"]) - 1)
            out[row + Ticket(str(public["ticket"])).slot] = 1.0
            out[row + 4] = float(public["leg"] != 0)
            if public["reveal"] is not None:
                shown = at["last reveal"]
                out[shown : shown + n] = 0.0
                out[shown + int(public["reveal"]) - 1] = 1.0
        elif event.kind == "game_over":
            self.over = True
            self.cornered = public["termination"] == "cornered"

    def _refresh(self) -> None:
        """Write the segments any event may change: ``to move`` to ``mrx tickets`` (they
        follow each other: whose turn, the clock, everyone's tickets) at once, then the
        detectives' stations."""
        enc, record, out = self.encoding, self.record, self.out
        if not record.detectives:
            return
        at, p, n = enc.start, enc.sy_game.profile, enc.sy_game.board.n
        # The record counts Mr. X's turns and names the next detective (D once all have
        # moved): Mr. X's turn comes at the start and after the last detective, and its round
        # begins then, unless the game is over (if not by that turn: S26).
        mrx_next = not record.round or record.to_move == p.detectives
        values = [0.0] * (1 + p.detectives)
        if not self.over:
            values[0 if mrx_next else 1 + record.to_move] = 1.0
        entries, length = record.entries, p.log_length
        upcoming = next((r for r in enc.reveals if r > entries), entries)
        begun = mrx_next and (not self.over or self.cornered)
        values += [(record.round + begun) / length, entries / length]
        values += [(upcoming - entries) / length, (entries - record.anchor_entry) / length]
        taxi, bus, underground = enc.ticket_scale
        for a, b, c in record.detective_tickets:
            values += (a * taxi, b * bus, c * underground)
        for count, scale in zip(record.mrx_tickets, enc.mrx_scale, strict=True):
            values.append(1.0 if count >= UNLIMITED else count * scale)
        out[at["to move"] : at["detectives"]] = values
        for index in self._stations:
            out[index] = 0.0
        first = at["detectives"] - 1
        self._stations = [first + i * n + station for i, station in enumerate(record.detectives)]
        for index in self._stations:
            out[index] = 1.0

    def belief(self) -> Observation:
        """The belief segments: where Mr. X may be, and his random-walk probabilities."""
        if self._belief_vector is not None:
            return self._belief_vector
        game = self.encoding.sy_game
        n = game.board.n
        if self._belief is None:
            self._belief = MrXBelief(game, "random-walk")
        belief = self._belief
        for event in self._events[belief.events_read :]:
            belief.update(event)
        out = np.zeros(2 * n, np.float32)
        tracker = belief.tracker
        if tracker is not None:
            weights = tracker.weights  # the random-walk model's, on the possible stations
            assert weights is not None
            stations = np.fromiter(weights, np.intp, len(weights)) - 1
            out[stations] = 1.0
            out[n + stations] = np.fromiter(weights.values(), np.float32, len(weights))
        self._belief_vector = out
        return out


class SharedReadings:
    """The public readings of one encoding, found by the public fields of a view's first
    event; a reading lives as long as a view reading uses it."""

    def __init__(self, encoding: ScotlandYardEncoding) -> None:
        self.encoding = encoding
        self._by_first: weakref.WeakValueDictionary[int, PublicReading] = (
            weakref.WeakValueDictionary()
        )
        self._views: dict[int, tuple[weakref.ref[View], ViewReading]] = {}

    def of(self, view: View) -> ViewReading:
        """The reading of ``view``, extended by the events added since it was last read."""
        key = id(view)
        kept = self._views.get(key)
        reading = kept[1] if kept is not None and kept[0]() is view else None
        if reading is None or not reading.extends(view.events):
            reading = ViewReading(self, view)
            forget = self._views.pop
            self._views[key] = (weakref.ref(view, lambda _: forget(key, None)), reading)
        reading.sync()
        return reading

    def public_for(self, events: Sequence[Event], end: int) -> PublicReading:
        """A public reading that has read ``events[:end]`` exactly: the shared one of their
        game if it has read no more than that, else a new one (shared if there is none)."""
        key = id(events[0].public)
        found = self._by_first.get(key)
        if found is None or found.publics[0] is not events[0].public:
            found = PublicReading(self.encoding)
            found.extend(events[:end])
            self._by_first[key] = found
            return found
        if found.read > end or not found.shows(events, 1, found.read):
            own = PublicReading(self.encoding)
            own.extend(events[:end])
            return own
        if found.read < end:
            found.extend(events[found.read : end])
        return found


class ViewReading:
    """One view read so far: its public reading and Mr. X's own station (seat 0 only)."""

    def __init__(self, shared: SharedReadings, view: View) -> None:
        self.shared = shared
        self.view = view
        self.events = view.events
        self.read = 0
        self.last: Event | None = None
        """The last event read (a view whose event there changed is read again)."""
        self.public: PublicReading | None = None
        self.mrx: int | None = None

    def extends(self, events: Sequence[Event]) -> bool:
        """Whether ``events`` are the events read so far followed by more (or none)."""
        read = self.read
        return (
            events is self.events
            and len(events) >= read
            and (not read or events[read - 1] is self.last)
        )

    def sync(self) -> None:
        """Read the events added to the view since the last call."""
        events = self.events
        end = len(events)
        if end == self.read:
            return
        public = self.public
        if public is not None and public.read == self.read:
            public.extend(events[self.read : end])  # this view is the game's frontier
        elif public is not None and self.read < public.read <= end:
            if not public.shows(events, self.read, public.read):
                public = None
            elif public.read < end:
                public.extend(events[public.read : end])
        else:
            public = None
        if public is None:
            public = self.shared.public_for(events, end)
        self.public = public
        if self.view.seat == MRX:
            for event in events[self.read : end]:
                private = event.private
                if private is not None:
                    self.mrx = int(private["mrx" if event.kind == "start" else "station"])
        self.read, self.last = end, events[end - 1]

    def write(self, out: Observation) -> None:
        """Write the observation's segments but ``prefix`` into ``out`` (of their size)."""
        enc = self.shared.encoding
        if self.public is not None:
            out[:] = self.public.out
        out[enc.start["seat"] + self.view.seat] = 1.0
        if self.mrx is not None:
            out[enc.start["mrx station"] + self.mrx - 1] = 1.0
