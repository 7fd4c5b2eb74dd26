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

Suggestions (:func:`suggest_moves`) are the moves the Monte Carlo detective (the ``mc`` bot,
:mod:`~sleuth.games.scotland_yard.mc`) would play, for each detective still to move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from sleuth.core.compiled import COMPILED, compile_in_background
from sleuth.core.errors import SleuthError
from sleuth.core.events import Event
from sleuth.core.game import Game
from sleuth.core.seatview import ViewLog
from sleuth.core.table import Command, count_entries
from sleuth.core.viewlog import (
    enter_entries,
    event_fields,
    loading,
    read_view_log,
    same_events,
    whole,
    write_view_log,
)
from sleuth.games.scotland_yard import rollouts
from sleuth.games.scotland_yard.edition import UNLIMITED
from sleuth.games.scotland_yard.mc import MCParams, Position, horizon
from sleuth.games.scotland_yard.moves import PASS, Move, Pass
from sleuth.games.scotland_yard.rules import ScotlandYardGame
from sleuth.games.scotland_yard.table import ENTRY_FORMS, PublicTable, example_starts
from sleuth.games.scotland_yard.tracker import Model

DETECTIVE_ROLES = ("detectives", "detective")
"""The roles whose view the assistant saves and loads (one seat for all, or one each)."""
SHOWN_PROBABILITIES = 12
"""Stations listed with their probability, most likely first."""

SUGGESTION = MCParams(rollouts=200 if COMPILED else 40, depth=5)
"""The Monte Carlo detective's settings for suggestions: the bot's own defaults when its
kernels are compiled (a few milliseconds a detective), fewer rollouts in plain Python."""


def suggest_moves(table: PublicTable, params: MCParams = SUGGESTION) -> dict[int, Move | Pass]:
    """For each detective still to move (from 0), in detective order: the move the Monte Carlo
    detective (``mc``) would play, or a pass.  Each is decided as if the detectives who have
    moved came first in seat order, then him, then the others still to move (who move at
    random in his rollouts); once suggested, his move counts as played (a miss) for the next
    one.  The random stream's seed is the number of events so far, so a position always gets
    the same suggestions."""
    tracker = table.tracker
    if tracker is None or not table.to_move:
        return {}
    p = table.game.profile
    turns_left, last_phase = horizon(p, table.entries, table.round)
    stations = list(table.detectives)
    tickets = [list(t) for t in table.detective_tickets]
    mrx_tickets = list(table.mrx_tickets)
    possible = tracker.possible
    seeded = replace(params, seed=len(table.events))
    remaining = list(table.to_move)
    out: dict[int, Move | Pass] = {}
    while remaining and possible:
        mover = remaining[0]
        order = [i for i in range(p.detectives) if i not in remaining] + remaining
        a, b, c, d, e = mrx_tickets
        position = Position(
            board=table.game.board,
            detectives=tuple(stations[i] for i in order),
            detective_tickets=tuple((tickets[i][0], tickets[i][1], tickets[i][2]) for i in order),
            mrx_tickets=(a, b, c, d, e),
            mover=order.index(mover),
            possible=possible,
            anchor=possible,
            since=0,
            turns_left=turns_left,
            last_phase=last_phase,
            tickets_to_mrx=p.tickets_to_mrx,
            mrx_unlimited=p.mrx_unlimited,
        )
        move = rollouts.decide(position, seeded).move
        remaining.pop(0)
        if move is None:
            out[mover] = PASS
            continue
        out[mover] = move
        stations[mover] = move.station
        tickets[mover][move.ticket.slot] -= 1
        if p.tickets_to_mrx:
            mrx_tickets[move.ticket.slot] += 1
        possible &= ~(1 << move.station)
    return out


def prepare(game: Game[Any]) -> None:
    """Compile (or load) the Monte Carlo kernels in the background while the user types the
    first entries (the first suggestion waits for whatever is left)."""
    compile_in_background(rollouts.warm_up)


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
    ) -> None:
        """A session on ``game``; with ``starts`` (the detectives' start stations) its first
        entry is the ``start`` entry."""
        self.game = game
        self.model: Model = model
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
        reveals = ", ".join(map(str, sorted(p.reveals)))
        shows = (
            f"Mr. X shows himself after his moves {reveals} of {p.log_length}"
            if reveals
            else f"Mr. X never shows himself in his travel log of {p.log_length} moves"
        )
        detectives = f"{p.detectives} detective{'' if p.detectives == 1 else 's'}"
        return (
            f"Scotland Yard detectives' assistant: {detectives}, {p.edition} "
            f"edition, {self.game.board.n} stations; {shows}. Type what happens, one entry "
            "per line."
        )

    def leave(self) -> str:
        return f"Left the assistant after {count_entries(len(self._texts))}."

    def save(self, path: Path) -> None:
        table = self.table
        if table.awaiting is not None:
            raise SleuthError(
                f"Mr. X's move {table.awaiting.entry} waits for its reveal: enter it ('reveal "
                "STATION') or 'undo' before saving"
            )
        write_view_log(ViewLog(self.game, 1, table.events), path)

    def load(self, path: Path) -> None:
        view = read_view_log(path, DETECTIVE_ROLES, "scotland-yard")
        session = replay_view(view, self.model)
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
            Text(f"Round {table.round}, Mr. X's move {table.entries} of {p.log_length}. "
                 f"Mr. X's tickets: {_mrx_tickets(table)}"),
        ]  # fmt: skip
        suggestions = suggest_moves(table)
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
            suggested = "" if hint is None else str(hint)
            if isinstance(hint, Move) and tracker.possible == 1 << hint.station:
                suggested += " caught"  # the entry to type, and why no one is suggested after
            grid.add_row(f"d{i + 1}", str(station), str(taxi), str(bus), str(underground),
                         state, suggested)  # fmt: skip
        lines.append(grid)
        lines.append(Text(_next(table), style="bold"))
        if table.over != "caught":
            lines += [Text(line) for line in where_lines(tracker.probabilities(), self.model)]
        return Group(*lines)


ENDINGS = {
    "cornered": "Mr. X cannot move from any station he may be at (S26)",
    "blocked": "no detective can move, so Mr. X wins (S27)",
    "escaped": "Mr. X escaped (the log is full or the last round is played)",
}
"""How a game that did not end in a capture ended, in the words the assistant shows after
'Game over: ' (``sleuth infer`` shows them too)."""


def replay_view(view: ViewLog, model: Model = "uniform") -> DetectivesSession:
    """A new session with the entries of ``view`` entered (a saved view, or the detectives'
    view of a full game log): what loading it does, and how ``sleuth infer`` checks a saved
    view.  An entry the table refuses, a field that cannot be read, a view that ends between
    the two legs of a double move, or a saved event that its entries do not give back is a
    :class:`~sleuth.core.errors.SleuthError` naming the file, the event (its line, number and
    kind) and the reason."""
    game = view.game
    assert isinstance(game, ScotlandYardGame)  # read_view_log checked the game's name
    with loading(view):
        session = DetectivesSession(game, model)
        enter_entries(view.events, entry_sources(view.events), session.enter)
        same_events(view, session.table.events)
    return session


def _next(table: PublicTable) -> str:
    """What the table waits for, or how the game ended."""
    tracker = table.tracker
    assert tracker is not None
    if table.over == "caught":
        return f"Game over: d{(table.caught_by or 0) + 1} caught Mr. X at {tracker.caught}."
    if table.over is not None:
        return f"Game over: {ENDINGS[table.over]}."
    reveals = table.game.profile.reveals
    if table.awaiting is not None:
        return (
            f"Mr. X's move {table.awaiting.entry} is a reveal move: where did he show himself? "
            "('reveal STATION')"
        )
    if table.to_move:
        names = ", ".join(f"d{i + 1}" for i in table.to_move)
        any_order = " (in any order)" if len(table.to_move) > 1 else ""
        if table.last_round:
            return f"To move: {names}{any_order}, the last moves: Mr. X escapes unless caught."
        return f"To move: {names}{any_order}, then Mr. X."
    after = table.entries + 1
    reveal = " (a reveal move)" if after in reveals else ""
    return f"Mr. X to move: his ticket for move {after}{reveal} ('x taxi', 'x double bus black')."


def _mrx_tickets(table: PublicTable) -> str:
    names = ("taxi", "bus", "underground", "black", "double")
    return ", ".join(
        f"{name} {'unlimited' if count >= UNLIMITED // 2 else count}"
        for name, count in zip(names, table.mrx_tickets, strict=True)
    )


def where_lines(probabilities: Mapping[int, float], model: str) -> list[str]:
    """Mr. X's possible stations (the keys of ``probabilities``, in order) and the most likely
    of them with their probabilities under ``model`` (uniform: one share for all)."""
    stations = sorted(probabilities)
    if len(stations) == 1:
        return [f"Mr. X is at {stations[0]}."]
    listed = f"Mr. X may be at {len(stations)} stations: {', '.join(map(str, stations))}"
    if model == "uniform":
        return [listed, f"Probabilities (uniform): {1 / len(stations):.1%} each"]
    ranked = sorted(probabilities.items(), key=lambda kv: (-kv[1], kv[0]))
    shown = ", ".join(f"{s} {p:.1%}" for s, p in ranked[:SHOWN_PROBABILITIES])
    more = f", ... ({len(ranked)} stations)" if len(ranked) > SHOWN_PROBABILITIES else ""
    return [listed, f"Probabilities ({model}), most likely first: {shown}{more}"]


def entry_texts(events: Sequence[Event]) -> list[str]:
    """The entries that give the detectives' view ``events`` (a saved view, or the detectives'
    view of a full game log): the inverse of :class:`PublicTable`'s events.  The end of the
    game adds no entry (the table works it out).  An event whose fields cannot be read is an
    :class:`~sleuth.core.viewlog.EventFieldError`."""
    return [text for _, text in entry_sources(events)]


def entry_sources(events: Sequence[Event]) -> list[tuple[int, str]]:
    """:func:`entry_texts`, each with the index of the event it comes from: a double move's
    entry and its first leg's reveal come from the first leg's event, although only the
    second leg's completes them."""
    out: list[tuple[int, str]] = []
    first: FirstLeg | None = None
    for index, event in enumerate(events):
        with event_fields(index, event):
            out += _entries_of(index, event, first)
            public = event.public
            if event.kind == "mrx_moved":
                leg = public["leg"]
                first = (index, str(public["ticket"]), public["reveal"]) if leg == 1 else None
    if first is not None:
        raise SleuthError("the view ends between the two legs of a double move")
    return out


FirstLeg = tuple[int, str, object]
"""The first leg of a double move in a view: its event's index, its ticket and its reveal."""


def _entries_of(index: int, event: Event, first: FirstLeg | None) -> list[tuple[int, str]]:
    """The entries of the event at ``index`` with the index each comes from (see
    :func:`entry_sources`); ``first`` is the first leg of a double move just before it."""
    public = event.public
    if event.kind == "start":
        return [(index, "start " + ",".join(map(str, public["detectives"])))]
    if event.kind == "mrx_moved":
        ticket, reveal, leg = public["ticket"], public["reveal"], public["leg"]
        if leg == 1:
            return []
        if leg == 2 and first is not None:
            at, first_ticket, first_reveal = first
            out = [(at, f"x double {first_ticket} {ticket}")]
            out += [(at, f"reveal {first_reveal}")] if first_reveal is not None else []
            return out + ([] if reveal is None else [(index, f"reveal {reveal}")])
        return [(index, f"x {ticket}"), *([] if reveal is None else [(index, f"reveal {reveal}")])]
    if event.kind == "detective_moved":
        caught = " caught" if public["captured"] else ""
        detective = whole(public, "detective") + 1
        return [(index, f"d{detective} {public['ticket']} {public['station']}{caught}")]
    if event.kind == "detective_passed":
        return [(index, f"d{whole(public, 'detective') + 1} pass")]
    return []
