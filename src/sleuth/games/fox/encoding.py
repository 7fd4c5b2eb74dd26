"""Fox in a Hole as tensors for learning agents (:class:`~sleuth.core.encoding.Encoding`).

Actions: one id per action.  Ids ``0 .. I-1`` are the hunter's inspections in the engine's
order (sizes 1..k, lexicographic: :attr:`~sleuth.games.fox.rules.FoxGame.inspections`); id
``I`` is the fox's ``hide`` and ``I + 1 + h`` is ``hole h``.

Observations (``n`` holes, ``D`` days; see :meth:`FoxEncoding.describe` for the indices):

==============  =======  ===================================================================
segment         size     meaning
==============  =======  ===================================================================
role            2        one-hot: hunter, fox
day             1        the day of the next inspection divided by ``D``
inspections     D × n    row ``d``: 1 for each hole inspected on day ``d + 1``
fox holes       D × n    the fox's own possible holes after night ``d`` (row ``d``): zeros for
                         the hunter, who never sees them
==============  =======  ===================================================================

With ``belief=True`` one more segment of ``n``: 1 for each hole the hunter's exact belief
(:class:`~sleuth.games.fox.belief.FoxBelief`, rule A2) says the fox may be in now.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sleuth.core.encoding import Encoding, ListedActions, Observation, Segment, ViewReaders
from sleuth.core.events import Event, View
from sleuth.core.game import State
from sleuth.games.fox.belief import FoxBelief
from sleuth.games.fox.rules import HIDE, FoxAction, FoxGame, FoxMove, Inspect


class _Reader:
    """What one view's events have shown so far, read one event at a time: the observation's
    grids (:attr:`values`, each event setting its own ones there, once) and the day of the
    next inspection."""

    def __init__(self, game: FoxGame, size: int) -> None:
        self.n = game.graph.n
        self.fox_holes = 3 + game.days * self.n  # where the second grid starts (the first: 3)
        self.values: Observation = np.zeros(size, np.float32)
        self.day = 1
        self.read = 0
        self.last: Event | None = None

    def update(self, events: Sequence[Event]) -> None:
        n, values = self.n, self.values
        for index in range(self.read, len(events)):
            event = events[index]
            if event.kind == "inspected":
                day = int(event.public["day"])
                row = 3 + (day - 1) * n
                for hole in event.public["holes"]:
                    values[row + hole] = 1.0
                self.day = day + 1
            elif event.kind == "fox_moved" and event.private is not None:
                row = self.fox_holes + int(event.public["night"]) * n
                for hole in event.private["holes"]:
                    values[row + hole] = 1.0
            self.read, self.last = index + 1, event


class FoxEncoding(Encoding[FoxAction]):
    """The encoding of one fox game (its board, ``k`` and day limit fix the sizes)."""

    version = 1

    def __init__(self, game: FoxGame) -> None:
        super().__init__(game)
        self.fox_game = game
        n, days = game.graph.n, game.days
        self._inspection_ids = {a: i for i, a in enumerate(game.inspections)}
        self.action_count = len(game.inspections) + 1 + n
        self.segments = (
            Segment("role", 2, "one-hot: hunter, fox"),
            Segment("day", 1, "the day of the next inspection divided by the day limit"),
            Segment("inspections", days * n, "row d: 1 for each hole inspected on day d+1"),
            Segment("fox holes", days * n, "row d: the fox's own possible holes after night d"),
        )
        self.belief_segments = (Segment("possible", n, "1 where the hunter's belief holds"),)
        self._readers: ViewReaders[_Reader] = ViewReaders()
        self._kept: dict[int, tuple[Sequence[FoxAction], dict[int, FoxAction], list[int]]] = {}
        """The ids of recurring legal-action tuples (:class:`ListedActions`)."""

    def action_id(self, action: FoxAction) -> int:
        """The id of one action."""
        if isinstance(action, Inspect):
            return self._inspection_ids[action]
        assert isinstance(action, FoxMove)
        first = len(self._inspection_ids) + 1
        return first - 1 if action.hole is None else first + action.hole

    def builder(self, state: State[FoxAction]) -> ListedActions[FoxAction]:
        return ListedActions(state, self.action_id, self._kept)

    def id_text(self, action_id: int) -> str:
        inspections = self.fox_game.inspections
        if 0 <= action_id < len(inspections):
            return str(inspections[action_id])
        hole = action_id - len(inspections) - 1
        if hole == -1:
            return str(HIDE)
        if 0 <= hole < self.fox_game.graph.n:
            return str(FoxMove(hole))
        raise ValueError(f"{action_id} is not a fox action id (0-{self.action_count - 1})")

    def observe_into(self, out: Observation, view: View, prefix: Sequence[int]) -> None:
        reader = self._readers.of(view, lambda _: _Reader(self.fox_game, len(out)))
        out[:] = reader.values
        out[view.seat] = 1.0
        out[2] = min(reader.day, self.fox_game.days) / self.fox_game.days

    def belief_into(self, out: Observation, view: View) -> None:
        out[FoxBelief.from_view(self.game, view).possible_holes()] = 1.0
