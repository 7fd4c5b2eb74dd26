"""The detectives' assistant behind ``sleuth assist scotland-yard``.

Detectives at a real table type what happens, one entry per line (the forms are
:data:`~sleuth.games.scotland_yard.table.ENTRY_FORMS`); a :class:`DetectivesSession` checks
each on a :class:`~sleuth.games.scotland_yard.table.PublicTable` and shows, after every entry,
where Mr. X may be (the tracker's exact set, with probabilities under the chosen model) and a
suggested move for every detective still to move in the round.

The session keeps one table per entry, so :meth:`DetectivesSession.undo` is a pop; the shared
loop's ``edit`` and ``delete`` replay :meth:`DetectivesSession.history`.  A saved view log is
the detectives' events; :func:`entry_texts` turns such a view (or the detectives' view of a
full game log) back into entries, so loading is re-entering.

Suggestions come from a :data:`Suggest` function of the table.  :func:`nearest_moves`, the
default, is the cheap one: each detective still to move goes, by a legal move, as close as he
can (C8 distance) to the nearest station where Mr. X may be.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np
from rich.console import Group
from rich.table import Table
from rich.text import Text

from sleuth.core.bitsets import mask_of
from sleuth.core.errors import SleuthError
from sleuth.core.events import Event
from sleuth.core.table import Command, count_entries
from sleuth.core.viewlog import ViewLog, read_view_log, write_view_log
from sleuth.games.scotland_yard.edition import UNLIMITED
from sleuth.games.scotland_yard.moves import PASS, Move, Pass, detective_moves
from sleuth.games.scotland_yard.rules import ScotlandYardGame
from sleuth.games.scotland_yard.table import ENTRY_FORMS, PublicTable, example_starts
from sleuth.games.scotland_yard.tracker import Model

DETECTIVE_ROLES = ("detectives", "detective")
"""The roles whose view the assistant saves and loads (one seat for all, or one each)."""
SHOWN_PROBABILITIES = 12
"""Stations listed with their probability, most likely first."""

Suggest = Callable[[PublicTable], dict[int, Move | Pass]]
"""A move for each detective (from 0) still to move in the table's round."""


def nearest_moves(table: PublicTable) -> dict[int, Move | Pass]:
    """For each detective still to move, in detective order: the legal move that brings him
    closest to the nearest possible station of Mr. X (first in move order on a tie), or a
    pass.  A station suggested to one detective is taken for the later ones."""
    tracker = table.tracker
    if tracker is None:
        return {}
    board = table.game.board
    possible = np.array(tracker.stations(), dtype=np.intp)
    stations = list(table.detectives)
    out: dict[int, Move | Pass] = {}
    for i in table.to_move:
        occupied = mask_of(s for j, s in enumerate(stations) if j != i)
        moves = detective_moves(board, stations[i], table.detective_tickets[i], occupied)
        if not moves:
            out[i] = PASS
            continue
        targets = np.array([m.station for m in moves], dtype=np.intp)
        nearest = board.distances[np.ix_(targets, possible)].min(axis=1)
        best = moves[int(np.argmin(nearest))]
        out[i] = best
        stations[i] = best.station
    return out


class DetectivesSession:
    """The detectives' game at a real table, for :func:`sleuth.assist.repl.run_repl`; it ends
    (``finished``) when the game does."""

    entry_help = ENTRY_FORMS
    commands: tuple[Command, ...] = ()

    def __init__(
        self,
        game: ScotlandYardGame,
        model: Model = "uniform",
        starts: Sequence[int] | None = None,
        suggest: Suggest = nearest_moves,
    ) -> None:
        """A session on ``game``; with ``starts`` (the detectives' start stations) its first
        entry is the ``start`` entry."""
        self.game = game
        self.model: Model = model
        self.suggest = suggest
        self._tables = [PublicTable(game, model)]
        """The table before the first entry, then after each one."""
        self._texts: list[str] = []
        if starts:
            self.enter("start " + ",".join(map(str, starts)))

    @property
    def table(self) -> PublicTable:
        """The table after every entry so far."""
        return self._tables[-1]

    @property
    def finished(self) -> bool:
        return self.table.over is not None

    def enter(self, text: str) -> str:
        table = self.table.copy()
        canonical = table.play(text)
        self._tables.append(table)
        self._texts.append(canonical)
        return canonical

    def undo(self) -> str:
        if not self._texts:
            raise SleuthError("nothing to undo")
        self._tables.pop()
        return self._texts.pop()

    def history(self) -> list[str]:
        return list(self._texts)

    @property
    def title(self) -> str:
        p = self.game.profile
        reveals = ", ".join(map(str, sorted(p.reveals))) or "none"
        return (
            f"Scotland Yard detectives' assistant: {p.detectives} detectives, {p.edition} "
            f"edition, {self.game.board.n} stations; Mr. X shows himself after entries "
            f"{reveals} of {p.log_length}. Type what happens, one entry per line."
        )

    def leave(self) -> str:
        return f"Left the assistant after {count_entries(len(self._texts))}."

    def save(self, path: Path) -> None:
        table = self.table
        if table.awaiting is not None:
            raise SleuthError(
                f"entry {table.awaiting.entry} waits for its reveal: enter it ('reveal "
                "STATION') or 'undo' before saving"
            )
        try:
            write_view_log(ViewLog(self.game, 1, table.events), path)
        except OSError as exc:
            raise SleuthError(f"{path}: cannot write: {exc}") from None

    def load(self, path: Path) -> None:
        view = read_view_log(path, DETECTIVE_ROLES, "scotland-yard")
        assert isinstance(view.game, ScotlandYardGame)  # read_view_log checked the game's name
        session = DetectivesSession(view.game, self.model, suggest=self.suggest)
        try:
            texts = entry_texts(view.events)
            for number, text in enumerate(texts, start=1):
                try:
                    session.enter(text)
                except SleuthError as exc:
                    raise SleuthError(f"entry {number} ({text}): {exc}") from None
        except SleuthError as exc:
            raise SleuthError(f"{path}: {exc}") from None
        self.game, self._tables, self._texts = session.game, session._tables, session._texts

    # --- what the detectives see ----------------------------------------------------------

    def render(self) -> Group:
        table = self.table
        tracker = table.tracker
        if tracker is None:
            return Group(Text("Enter the detectives' start stations, detective 1 first: "
                              f"start {example_starts(self.game)}"))  # fmt: skip
        p = self.game.profile
        lines: list[Text | Table] = [
            Text(f"Round {table.round}, log entry {table.entries} of {p.log_length}. "
                 f"Mr. X's tickets: {_mrx_tickets(table)}"),
        ]  # fmt: skip
        suggestions = self.suggest(table) if table.to_move else {}
        grid = Table("detective", "station", "taxi", "bus", "underground", "this round",
                     "suggested", box=None)  # fmt: skip
        for i, station in enumerate(table.detectives):
            taxi, bus, underground = table.detective_tickets[i]
            state = (
                "moved"
                if i in table.moved and table.mrx_done
                else "to move"
                if i in table.to_move
                else ""
            )
            hint = suggestions.get(i)
            grid.add_row(f"d{i + 1}", str(station), str(taxi), str(bus), str(underground),
                         state, "" if hint is None else str(hint))  # fmt: skip
        lines.append(grid)
        lines.append(Text(_next(table), style="bold"))
        stations = tracker.stations()
        if table.over == "caught":
            return Group(*lines)
        listed = ", ".join(map(str, stations))
        lines.append(Text(f"Mr. X may be at {len(stations)} stations: {listed}"))
        lines.append(Text(probability_line(tracker.probabilities(), self.model)))
        return Group(*lines)


def _next(table: PublicTable) -> str:
    """What the table waits for, or how the game ended."""
    tracker = table.tracker
    assert tracker is not None
    if table.over == "caught":
        return f"Game over: d{(table.caught_by or 0) + 1} caught Mr. X at {tracker.caught}."
    if table.over == "cornered":
        return "Game over: Mr. X cannot move from any station he may be at (S26)."
    if table.over == "blocked":
        return "Game over: no detective can move, so Mr. X wins (S27)."
    if table.over == "escaped":
        return "Game over: Mr. X escaped (the log is full or the last round is played)."
    reveals = table.game.profile.reveals
    if table.awaiting is not None:
        return (
            f"Entry {table.awaiting.entry} is a reveal entry: where did Mr. X show himself? "
            "('reveal STATION')"
        )
    if table.to_move:
        names = ", ".join(f"d{i + 1}" for i in table.to_move)
        return f"To move: {names} (in any order), then Mr. X."
    after = table.entries + 1
    reveal = " (a reveal entry)" if after in reveals else ""
    return f"Mr. X to move: his ticket for entry {after}{reveal} ('x taxi', 'x double bus black')."


def _mrx_tickets(table: PublicTable) -> str:
    names = ("taxi", "bus", "underground", "black", "double")
    return ", ".join(
        f"{name} {'unlimited' if count >= UNLIMITED // 2 else count}"
        for name, count in zip(names, table.mrx_tickets, strict=True)
    )


def probability_line(probabilities: Mapping[int, float], model: str) -> str:
    """The most likely stations with their probabilities (uniform: one share for all)."""
    if model == "uniform" or len(probabilities) == 1:
        return f"Probabilities ({model}): {1 / len(probabilities):.1%} each"
    ranked = sorted(probabilities.items(), key=lambda kv: (-kv[1], kv[0]))
    shown = ", ".join(f"{s} {p:.1%}" for s, p in ranked[:SHOWN_PROBABILITIES])
    more = f", ... ({len(ranked)} stations)" if len(ranked) > SHOWN_PROBABILITIES else ""
    return f"Probabilities ({model}), most likely first: {shown}{more}"


def entry_texts(events: Sequence[Event]) -> list[str]:
    """The entries that give the detectives' view ``events`` (a saved view, or the detectives'
    view of a full game log): the inverse of :class:`PublicTable`'s events.  The end of the
    game adds no entry (the table works it out)."""
    out: list[str] = []
    first: tuple[str, object] | None = None  # a double's first leg: its ticket and reveal
    for event in events:
        public = event.public
        if event.kind == "start":
            out.append("start " + ",".join(map(str, public["detectives"])))
        elif event.kind == "mrx_moved":
            ticket, reveal, leg = public["ticket"], public["reveal"], public["leg"]
            if leg == 1:
                first = (str(ticket), reveal)
                continue
            if leg == 2 and first is not None:
                out.append(f"x double {first[0]} {ticket}")
                out += [f"reveal {r}" for r in (first[1], reveal) if r is not None]
                first = None
                continue
            out.append(f"x {ticket}")
            out += [] if reveal is None else [f"reveal {reveal}"]
        elif event.kind == "detective_moved":
            caught = " caught" if public["captured"] else ""
            out.append(f"d{public['detective'] + 1} {public['ticket']} {public['station']}{caught}")
        elif event.kind == "detective_passed":
            out.append(f"d{public['detective'] + 1} pass")
    if first is not None:
        raise SleuthError("the view ends between the two legs of a double move")
    return out
