"""One seat's events in a game with known options: the :class:`ViewLog` that view logs store
(:mod:`sleuth.core.viewlog` reads and writes them) and ``sleuth infer`` plug-ins read
(:class:`~sleuth.core.plugins.InferPlugin`).

It sits below both so that a plug-in's signature needs no log reader: the registry names the
plug-ins, and reading a log needs the registry (its header names the game)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sleuth.core.events import Event
from sleuth.core.game import Game


@dataclass
class ViewLog:
    """One seat's events in a game with known options.  Read from a file, it also knows the
    file (``source``), the line of each event (``lines``, as long as ``events``) and whether
    it is a full game log's view (``from_game_log``: the log was checked by replaying it)."""

    game: Game[Any]
    seat: int
    events: list[Event]
    source: str = "<log>"
    lines: Sequence[int] = field(default_factory=list)
    from_game_log: bool = False

    @property
    def role(self) -> str:
        return self.game.roles[self.seat]
