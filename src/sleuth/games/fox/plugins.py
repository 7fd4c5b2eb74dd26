"""Fox in a Hole's plug-ins: the hunter's belief behind ``sleuth infer fox``, and its page in
the web app (the board, the events in words, and the fox puzzle as its assistant).

The answer reads the hunter's view into a :class:`~sleuth.games.fox.belief.FoxBelief`, one
event at a time: after each inspection, the holes the fox may be in that evening and the next
morning (rule A2), and one fox walk that dodged every inspection (rule A4).  A view that no fox
could produce (an inspection said to miss that left the fox no hole, a catch where the fox
could not be, anything after the catch) is the belief's ``ContradictionError`` naming the
event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from sleuth.core.errors import SleuthError
from sleuth.core.events import JSON
from sleuth.core.game import Game
from sleuth.core.plugins import AssistPlugin, InferPlugin, PagePlugin, Switch
from sleuth.core.seatview import ViewLog
from sleuth.core.table import Command, TableSession
from sleuth.games.fox import notepad_picture, picture
from sleuth.games.fox.belief import FoxBelief
from sleuth.games.fox.graph import holes_of
from sleuth.games.fox.hunt import FoxSession
from sleuth.games.fox.rules import FoxGame
from sleuth.games.fox.walk import reconstruct_path


@dataclass(frozen=True)
class Inspection:
    """One day's inspection and the fox's possible holes that evening and the next morning
    (both empty once it is caught)."""

    day: int
    holes: tuple[int, ...]
    caught: bool
    evening: tuple[int, ...]
    morning: tuple[int, ...]


@dataclass(frozen=True)
class HunterNotes:
    """The hunter's belief after the first ``events`` events of the view.

    Invariant: ``walk`` visits, on day i, a hole of ``inspections[i-1].evening`` (and, after a
    catch, ends in a hole of the catching inspection)."""

    events: int
    holes: int
    inspections: tuple[Inspection, ...]
    possible: tuple[int, ...]
    walk: tuple[int, ...]

    @property
    def caught(self) -> bool:
        return bool(self.inspections) and self.inspections[-1].caught

    @property
    def day(self) -> int:
        """The day of the next inspection (1-based)."""
        return len(self.inspections) + 1

    def to_json(self) -> dict[str, JSON]:
        return {
            "events": self.events,
            "day": self.day,
            "caught": self.caught,
            "possible_holes": list(self.possible),
            "inspections": [
                {
                    "day": i.day,
                    "holes": list(i.holes),
                    "caught": i.caught,
                    "evening": list(i.evening),
                    "morning": list(i.morning),
                }
                for i in self.inspections
            ],
            "walk": list(self.walk),
        }

    def render(self) -> Group:
        table = Table("day", "inspected", "fox may be (evening)", "next morning", box=None)
        for i in self.inspections:
            evening = "caught" if i.caught else _holes(i.evening)
            table.add_row(str(i.day), _holes(i.holes), evening, _holes(i.morning))
        walk = " → ".join(map(str, self.walk))
        if self.caught:
            last = f"Caught on day {self.day - 1}. One way the fox could have come: {walk}"
        else:
            last = (
                f"Day {self.day}: the fox may be in {len(self.possible)} of {self.holes} "
                f"holes: {_holes(self.possible)}"
                + (f". One walk that dodged every inspection: {walk}" if walk else "")
            )
        return Group(*([table] if self.inspections else []), Text(last))


def _holes(holes: tuple[int, ...]) -> str:
    return ", ".join(map(str, holes)) or "none"


def infer(view: ViewLog, events: int | None, params: Mapping[str, Any]) -> HunterNotes:
    """The hunter's belief after the first ``events`` events of ``view`` (all by default).

    Raises ``ContradictionError`` naming the first event that no fox explains."""
    game = view.game
    assert isinstance(game, FoxGame)  # read_view_log checked the game's name
    seen = view.events if events is None else view.events[:events]
    belief = FoxBelief(game.graph, game.k, game.lazy)
    inspections: list[Inspection] = []
    for event in seen:
        belief.update(event)
        if event.kind != "inspected":
            continue
        holes, day = tuple(event.public["holes"]), belief.day - 1
        if belief.found is not None:
            inspections.append(Inspection(day, holes, True, (), ()))
        else:
            evening, morning = holes_of(belief.evenings[-1]), holes_of(belief.morning)
            inspections.append(Inspection(day, holes, False, tuple(evening), tuple(morning)))
    if belief.found is not None:
        walk = reconstruct_path(game.graph, belief.evenings[:-1], game.lazy, final=belief.found)
        possible: list[int] = []
    else:
        walk = reconstruct_path(game.graph, belief.evenings, game.lazy)
        possible = belief.possible_holes()
    return HunterNotes(len(seen), game.graph.n, tuple(inspections), tuple(possible), tuple(walk))


INFER = InferPlugin(
    role="hunter",
    help="The hunter's exact deduction: the holes the fox may be in after each inspection, "
    "and one walk that dodged them all.",
    run=infer,
)


def _puzzle(game: Game[Any], params: Mapping[str, Any]) -> TableSession:
    """The fox puzzle of ``sleuth fox play``, with the possible holes marked."""
    assert isinstance(game, FoxGame)
    return FoxSession(game, marks=True)


PUZZLE = AssistPlugin(
    help="The fox puzzle: hunt a fox that moves every night and is never where you look while "
    "it can be elsewhere.  Click holes (or type them) to inspect; see the holes it may be "
    "in, give up to see a path that dodged you, or ask the solver.",
    session=_puzzle,
)
"""The fox puzzle as the web app's assistant (the command line's is ``sleuth fox play``)."""


def _page_commands(session: TableSession) -> list[Command]:
    game = session.game  # type: ignore[attr-defined]  # a FoxSession: the puzzle's session
    return [
        Command(
            ("solve",),
            "the solver's optimal inspections from the first day",
            lambda: fox_solution(game),
        )
    ]


def fox_solution(game: FoxGame) -> str:
    """The solver's shortest sure inspection sequence for ``game``'s board from the first
    day, or why there is none."""
    from sleuth.games.fox.solver import solve  # SciPy: imported when asked

    try:
        solution = solve(game.graph, k=game.k, lazy=game.lazy, max_seconds=5.0)
    except SleuthError as exc:
        return f"no solution: {exc}"
    if not solution.winnable or not solution.strategy:
        return "no inspection sequence is sure to catch this fox"
    days = "; ".join(
        f"day {day}: {','.join(map(str, holes))}"
        for day, holes in enumerate(solution.strategy, start=1)
    )
    return f"the fox is sure to be caught within {solution.days} days: {days}"


PAGE = PagePlugin(
    board=picture.svg,
    describe=picture.describe,
    notepad=notepad_picture.notepad,
    assistant=PUZZLE,
    hidden=("marks",),  # the switch below
    commands=_page_commands,
    entry_event="inspected",  # a loaded log is replayed from the start: its entries counted
    switches=(Switch(notepad_picture.POSSIBLE, "show the holes the fox may be in"),),
)
"""The game's page in the web app: the board from one seat's view, the events in words, the
fox puzzle as its assistant, with its picture (the possible holes behind a switch) and the
solver's ``solve``."""
