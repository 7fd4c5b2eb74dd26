"""The encodings' per-view readers (:class:`sleuth.core.encoding.ViewReaders`): each event of a
growing view read once, a view whose events were replaced read afresh, dead views forgotten,
nothing pickled."""

from __future__ import annotations

import gc
import pickle
from collections.abc import Sequence

from sleuth.core.encoding import ViewReaders
from sleuth.core.events import Event, View


class Tally:
    """A reader that records every event it reads."""

    def __init__(self, view: View) -> None:
        self.seat = view.seat
        self.read = 0
        self.last: Event | None = None
        self.taken: list[Event] = []

    def update(self, events: Sequence[Event]) -> None:
        for event in events[self.read :]:
            self.taken.append(event)
            self.read += 1
            self.last = event


def _events(n: int, kind: str = "tick") -> list[Event]:
    return [Event(kind, {"n": i}) for i in range(n)]


def test_a_growing_view_is_read_once_event_by_event() -> None:
    readers: ViewReaders[Tally] = ViewReaders()
    events = _events(3)
    view = View(1, "player", {}, events)
    first = readers.of(view, Tally)
    events.extend(_events(2, "tock"))
    again = readers.of(view, Tally)
    assert again is first and again.seat == 1
    assert again.taken == [*_events(3), *_events(2, "tock")]  # each event once, in order


def test_a_view_whose_events_were_replaced_or_cut_is_read_afresh() -> None:
    readers: ViewReaders[Tally] = ViewReaders()
    events = _events(4)
    view = View(0, "player", {}, events)
    kept = readers.of(view, Tally)
    events[:] = _events(4, "other")  # the same list and length, other events (an undo)
    replaced = readers.of(view, Tally)
    assert replaced is not kept and replaced.taken == _events(4, "other")
    del events[2:]
    cut = readers.of(view, Tally)
    assert cut is not replaced and cut.taken == _events(2, "other")


def test_two_views_keep_two_readers_and_a_dead_view_is_forgotten() -> None:
    readers: ViewReaders[Tally] = ViewReaders()
    views = [View(seat, "player", {}, _events(seat + 1)) for seat in range(2)]
    assert [len(readers.of(v, Tally).taken) for v in views] == [1, 2]
    assert len(readers) == 2
    del views[0]
    gc.collect()
    assert len(readers) == 1


def test_a_pickled_copy_keeps_no_reader_and_reads_again() -> None:
    readers: ViewReaders[Tally] = ViewReaders()
    view = View(0, "player", {}, _events(2))
    readers.of(view, Tally)
    copy = pickle.loads(pickle.dumps(readers))
    assert len(copy) == 0
    assert copy.of(view, Tally).taken == _events(2)
