"""A game of Fox in a Hole against the quantum fox, behind ``sleuth fox play``.

:class:`FoxSession` plugs the game into the shared loop (:func:`sleuth.assist.repl.run_repl`):
each entry is one day's inspection, played by the rules engine against a fox that always hides
(rule A3: it never commits while a consistent hole remains, so it is caught exactly when the
hunter's belief becomes empty).  The session adds ``hint``, ``marks`` and ``give up`` to the
loop's commands, draws the board after every change, and ends when the fox is caught, when
the day limit passes (the fox escapes) or on ``give up``; each end shows a walk the fox could
have taken when one exists.  After the end no inspection is taken until ``undo`` (which also
takes back a ``give up``) reopens the game.  Its view log is the hunter's view of that engine
game, so a saved game loads by re-entering its inspections, and the events must come out the
same.
"""

from __future__ import annotations

import re
from pathlib import Path

from sleuth.core.errors import SleuthError
from sleuth.core.events import Event
from sleuth.core.numbers import shorten, whole_number
from sleuth.core.seatview import ViewLog
from sleuth.core.table import Command
from sleuth.core.viewlog import (
    EventFieldError,
    event_fields,
    loading,
    read_view_log,
    same_events,
    wholes,
    write_view_log,
)
from sleuth.games.fox.graph import FoxGraph, cycle, grid, holes_of, path
from sleuth.games.fox.rules import HIDE, HUNTER, FoxGame, FoxState, Inspect
from sleuth.games.fox.solver import solve
from sleuth.games.fox.walk import reconstruct_path

MAX_DRAWN = 64
"""Largest board drawn after each entry (beyond it only the marked holes are listed)."""

ENTRY_HELP = """\
2  (or: inspect 2)         inspect hole 2 today"""

ENTRY_HELP_K = """\
1,3  (or: 1 3)             inspect holes 1 and 3 today (up to {k} a day)"""


class FoxSession:
    """One game against the quantum fox, for :func:`~sleuth.assist.repl.run_repl`.

    Invariants: ``state`` is the engine state after the fox's hide and the inspections of
    ``entries`` (each followed by the fox's next hide while the game goes on), and ``events``
    is the hunter's view of exactly those moves.  The fox's possible holes are ``state.fox``
    whenever it is the hunter's turn.
    """

    def __init__(self, game: FoxGame, marks: bool = False, warn: bool = True) -> None:
        self.game = game
        self.marks = marks
        """Whether the board marks the holes the fox may be in."""
        self.gave_up = False
        self.entries: list[Inspect] = []
        self.state, self.events = self._replay([])
        self._warning = warn and _unwinnable(game)
        self.commands = (
            Command(("hint",), "the solver's next inspection from here", self._hint),
            Command(("marks",), "mark the holes the fox may be in, or stop marking", self._mark),
            Command(("give up", "giveup"), "end the game; see a walk that dodged you", self._quit),
        )

    # --- the loop's protocol ----------------------------------------------------------------

    @property
    def title(self) -> str:
        game, n = self.game, self.game.graph.n
        lines = [
            f"Fox in a Hole on {game.graph.spec}: holes 0..{n - 1}; inspect up to {game.k} "
            f"a day. The fox moves every night{' or stays' if game.lazy else ''}, and escapes "
            f"if it is not caught by day {game.days}."
        ]
        if self._warning:
            lines.append("Warning: no strategy is sure to catch this fox.")
        return "\n".join(lines)

    @property
    def entry_help(self) -> str:
        k = self.game.k
        return ENTRY_HELP + ("\n" + ENTRY_HELP_K.format(k=k) if k > 1 else "")

    @property
    def finished(self) -> bool:
        return self.gave_up or self.state.is_terminal()

    def enter(self, text: str) -> str:
        if self.finished:
            raise SleuthError(f"{text.strip()!r}: the game is over ('undo' takes entries back)")
        action = self._parse(text)
        state, events = self._replay([*self.entries, action])
        self.state, self.events = state, events
        self.entries.append(action)
        day = len(self.entries)
        if state.caught:
            return f"{action} on day {day}: caught!"
        return f"{action} on day {day}: not there"

    def undo(self) -> str:
        if not self.entries:
            raise SleuthError("nothing to undo")
        self.gave_up = False  # the game goes on from the day before
        day = len(self.entries)
        last = self.entries[-1]
        self.state, self.events = self._replay(self.entries[:-1])
        self.entries.pop()
        return f"{last} (day {day})"

    def history(self) -> list[str]:
        return [str(action) for action in self.entries]

    def render(self) -> str:
        if self.state.caught:
            walk = self._walk()
            return (
                f"Caught on day {len(self.entries)}! One way the fox could have come: "
                + " → ".join(map(str, walk))
            )
        if self.state.is_terminal():
            return (
                f"The fox escaped: day {self.game.days} has passed. One path that dodged every "
                "inspection: " + " → ".join(map(str, self._walk()))
            )
        if self.gave_up:
            if not self.entries:
                return "You gave up before the first inspection."
            return (
                f"You gave up on day {len(self.entries) + 1}. One path that dodged every "
                "inspection: " + " → ".join(map(str, self._walk()))
            )
        possible = holes_of(self.state.fox)
        head = f"Day {len(self.entries) + 1} of {self.game.days}."
        if self.marks:
            head += f" The fox may be in {len(possible)} of {self.game.graph.n} holes, [marked]."
        board = draw_board(self.game.graph, set(possible) if self.marks else set())
        return head + "\n" + board

    def save(self, path: Path) -> None:
        write_view_log(ViewLog(self.game, HUNTER, self.events), path)

    def load(self, path: Path) -> None:
        view = read_view_log(path, "hunter", "fox")
        assert isinstance(view.game, FoxGame)  # read_view_log checked the game's name
        with loading(view):
            session = FoxSession(view.game, self.marks, warn=False)
            inspections = [(i, e) for i, e in enumerate(view.events) if e.kind == "inspected"]
            for number, (index, event) in enumerate(inspections, start=1):
                with event_fields(index, event):
                    holes = wholes(event.public, "holes")
                try:
                    session.enter(",".join(map(str, holes)))
                except SleuthError as exc:
                    raise SleuthError(f"inspection {number}: {exc}") from None
            mine = [e.to_json() for e in session.events]
            theirs = [e.to_json() for e in view.events]
            for index, (ours, saved) in enumerate(zip(mine, theirs, strict=False)):
                if ours != saved:
                    raise EventFieldError(
                        index,
                        view.events[index].kind,
                        f"{saved} in the file; a game against the quantum fox shows {ours} here",
                    )
            if len(mine) != len(theirs):
                raise SleuthError(
                    f"{len(theirs)} events; a game against the quantum fox with these "
                    f"inspections has {len(mine)}"
                )
            same_events(view, session.events)  # a saved view: true is not 1
        self.game, self.state, self.events = session.game, session.state, session.events
        self.entries, self.gave_up = session.entries, False
        self._warning = _unwinnable(self.game)

    def leave(self) -> str:
        days = len(self.entries)
        if self.finished:
            return f"Left the game after its end ({days} inspection{'' if days == 1 else 's'})."
        return (
            f"Game abandoned on day {days + 1} "
            f"({days} inspection{'' if days == 1 else 's'}; no result)."
        )

    # --- the session's own commands ---------------------------------------------------------

    def _hint(self) -> str:
        game, left = self.game, self.game.days - len(self.entries)
        try:
            solution = solve(
                game.graph, k=game.k, lazy=game.lazy, start=self.state.fox, max_seconds=5.0
            )
        except SleuthError as exc:
            return f"no hint: {exc}"
        if not solution.strategy:
            return "hint: from here no strategy is sure to catch the fox"
        first = ",".join(map(str, solution.strategy[0]))
        days = solution.days or 0
        late = f", but only {left} days are left" if days > left else ""
        return f"hint: inspect {first} (a catch is certain within {days} more days{late})"

    def _mark(self) -> str:
        self.marks = not self.marks
        if self.marks:
            return "marks on: [h] marks a hole the fox may be in"
        return "marks off"

    def _quit(self) -> str:
        if self.finished:
            raise SleuthError("the game is over already ('undo' takes entries back)")
        self.gave_up = True
        return f"gave up on day {len(self.entries) + 1}"

    # --- helpers ----------------------------------------------------------------------------

    def _parse(self, text: str) -> Inspect:
        """The inspection ``text`` names, checked against the board and ``k``."""
        words = text.strip().lower()
        words = re.sub(r"^inspect\b", "", words)
        parts = words.replace(",", " ").split()
        n, k = self.game.graph.n, self.game.k
        bad = next((p for p in parts if not (p.isascii() and p.isdigit())), None)
        if bad is not None and any(c.isdigit() for c in bad):  # -1, 2.5, 3rd
            raise SleuthError(f"{shorten(bad)!r} is not a hole (holes 0..{n - 1})")
        if not parts or bad is not None:
            raise SleuthError(
                f"cannot read {text.strip()!r}: type the holes to inspect, such as 2 or 1,3 "
                "('help' lists the commands)"
            )
        holes = [whole_number(p) for p in parts]
        outside = [h for h in holes if h >= n]
        if outside:
            raise SleuthError(f"hole {outside[0]} is not on the board (holes 0..{n - 1})")
        repeated = next((h for h in holes if holes.count(h) > 1), None)
        if repeated is not None:
            raise SleuthError(f"{text.strip()!r} names hole {repeated} twice")
        if len(holes) > k:
            raise SleuthError(
                f"at most {k} {'hole' if k == 1 else 'holes'} may be inspected per day, "
                f"got {len(holes)}"
            )
        return Inspect(tuple(holes))

    def _replay(self, entries: list[Inspect]) -> tuple[FoxState, list[Event]]:
        """The engine state and the hunter's view after ``entries`` (checked by
        :meth:`_parse`, so the engine accepts them)."""
        state = self.game.new_initial_state()
        events = state.apply(HIDE)
        for action in entries:
            events += state.apply(action)
            if not state.is_terminal():
                events += state.apply(HIDE)
        return state, [e.seen_by(HUNTER) for e in events]

    def _walk(self) -> list[int]:
        """The fox's walk of the ``fox_path`` event at the end, or (given up) one that dodged
        every inspection so far."""
        ending = [e for e in self.events if e.kind == "fox_path"]
        if ending:
            return list(ending[-1].public["path"])
        return reconstruct_path(self.game.graph, self.state.evenings, self.game.lazy)


def _unwinnable(game: FoxGame) -> bool:
    """Whether the solver proves, quickly, that no strategy is sure to catch the fox."""
    if game.graph.n > 24:
        return False
    try:
        return not solve(game.graph, k=game.k, lazy=game.lazy, max_seconds=2.0).winnable
    except SleuthError:
        return False


def draw_board(graph: FoxGraph, marked: set[int]) -> str:
    """The board as text: paths, cycles and grids as pictures, other graphs as each hole with
    its neighbours; the holes of ``marked`` in brackets, ``[3]``."""
    n = graph.n
    if n > MAX_DRAWN:
        listed = " ".join(map(str, sorted(marked)))
        return f"({n} holes: too many to draw)" + (f" marked: {listed}" if marked else "")
    width = len(str(n - 1)) + 2

    def cell(h: int) -> str:
        return (f"[{h}]" if h in marked else f" {h} ").rjust(width)

    if graph == path(n) or (n >= 3 and graph == cycle(n)):
        line = "-".join(cell(h) for h in range(n))
        return (line + ("- (back to 0)" if n >= 3 and graph == cycle(n) else "")).rstrip()
    shape = re.fullmatch(r"grid:(\d+)x(\d+)", graph.spec)
    if shape and graph == grid(int(shape[1]), int(shape[2])):
        rows, cols = int(shape[1]), int(shape[2])
        lines = []
        for r in range(rows):
            if r:
                lines.append(" ".join("|".center(width) for _ in range(cols)).rstrip())
            lines.append("-".join(cell(r * cols + c) for c in range(cols)).rstrip())
        return "\n".join(lines)
    items = [
        f"{cell(h).rstrip()}: " + " ".join(map(str, holes_of(graph.neighbours[h])))
        for h in range(n)
    ]
    column = max(map(len, items)) + 3
    per_line = max(1, 78 // column)
    packed = (
        "".join(item.ljust(column) for item in items[i : i + per_line]).rstrip()
        for i in range(0, n, per_line)
    )
    return "\n".join(["Each hole and its neighbours:", *packed])
