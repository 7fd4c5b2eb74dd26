"""Scotland Yard's plug-ins: the detectives' tracker after a log (``sleuth infer
scotland-yard``) and the detectives' assistant (``sleuth assist scotland-yard``).

``infer`` reads the detectives' view (of a full game log, whichever way its detectives were
seated, or of a view log the assistant saved) into a
:class:`~sleuth.games.scotland_yard.belief.MrXBelief`, one event at a time, and answers with
Mr. X's possible stations (*P* of ``docs/scotland-yard.md``), their probabilities under the
chosen model, *P*'s size after every log entry and, with ``--smooth``, the smoothed sets.  A
saved view is checked first with the assistant's own rules, as its ``load`` checks one
(:func:`~sleuth.games.scotland_yard.assistant.replay_view`); a view that no game explains is
an error naming the first impossible event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, cast

from rich.console import Group
from rich.table import Table
from rich.text import Text

from sleuth.core.bitsets import members
from sleuth.core.errors import SleuthError
from sleuth.core.events import JSON, Event
from sleuth.core.game import Game
from sleuth.core.plugins import AssistPlugin, InferPlugin, PagePlugin, Param
from sleuth.core.seatview import ViewLog
from sleuth.games.scotland_yard import notepad_picture, picture
from sleuth.games.scotland_yard.assistant import (
    ENDINGS,
    DetectivesSession,
    prepare,
    replay_view,
    where_lines,
)
from sleuth.games.scotland_yard.belief import MrXBelief
from sleuth.games.scotland_yard.rules import ScotlandYardGame
from sleuth.games.scotland_yard.table import check_starts, parse_starts
from sleuth.games.scotland_yard.tracker import MODELS, Model

MODEL = Param(
    "model",
    "What the probabilities assume of Mr. X: uniform (every possible station alike) or "
    "random-walk (he picks at random among the stations his ticket reaches). The possible "
    "stations do not depend on it.",
    default="uniform",
    choices=MODELS,
)


@dataclass(frozen=True)
class LogEntry:
    """One entry of Mr. X's log as the detectives saw it: its ticket, which leg of a double
    move it was (0: a single move), where it revealed him, and how many stations were possible
    after it and the detective moves that followed (before the end-of-game log, if any)."""

    entry: int
    ticket: str
    leg: int
    reveal: int | None
    size: int


@dataclass(frozen=True)
class TrackerNotes:
    """The detectives' tracker after the first ``events`` events of their view.

    Invariants: ``possible`` is sorted and is the support of ``probabilities``; ``sizes[k]`` is
    the size of *P_k* as known when the game was at entry ``k`` (``sizes[0]``: before entry 1),
    so ``len(sizes) == entry + 1`` once the game has started (empty before); ``smoothed[k]`` is
    *B_k* when asked for; ``ending`` is how the game ended within those events (``caught``,
    ``escaped``, ``blocked``, ``cornered``; None while it goes on), ``caught`` the capture
    station exactly when it is ``caught``."""

    events: int
    started: bool
    model: Model
    entry: int
    possible: tuple[int, ...]
    probabilities: dict[int, float]
    detectives: tuple[int, ...]
    sizes: tuple[int, ...]
    log: tuple[LogEntry, ...]
    caught: int | None
    ending: str | None
    smoothed: tuple[tuple[int, ...], ...] | None

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "events": self.events,
            "started": self.started,
            "entry": self.entry,
            "possible": list(self.possible),
            "size": len(self.possible),
            "model": self.model,
            "probabilities": {str(s): p for s, p in self.probabilities.items()},
            "detectives": list(self.detectives),
            "history": list(self.sizes),
            "log": [
                {"entry": e.entry, "ticket": e.ticket, "leg": e.leg, "reveal": e.reveal}
                for e in self.log
            ],
            "caught": self.caught,
            "over": self.ending is not None,
            "ending": self.ending,
        }
        if self.smoothed is not None:
            out["smoothed"] = [list(b) for b in self.smoothed]
        return out

    def render(self) -> Group:
        if not self.started:
            return Group(Text(f"After {_events(self.events)}: the game has not started."))
        lines: list[Table | Text] = []
        if self.log:
            table = Table("move", "ticket", "revealed at", "possible", box=None)
            if self.smoothed is not None:
                table.add_column("after smoothing")
            for e in self.log:
                ticket = e.ticket + ("" if not e.leg else f" (double, leg {e.leg})")
                row = [str(e.entry), ticket, "" if e.reveal is None else str(e.reveal)]
                row.append(str(self.sizes[e.entry]))
                if self.smoothed is not None:
                    row.append(str(len(self.smoothed[e.entry])))
                table.add_row(*row)
            lines.append(table)
        where = f"After {_events(self.events)} (Mr. X's move {self.entry}): "
        lines.append(Text(f"Detectives at {', '.join(map(str, self.detectives))}."))
        if self.caught is not None:
            lines.append(Text(where + f"Mr. X was caught at {self.caught}."))
        elif self.ending is not None:
            lines.append(Text(where + f"Game over: {ENDINGS[self.ending]}."))
            lines += map(Text, where_lines(self.probabilities, self.model))
        else:
            first, *rest = where_lines(self.probabilities, self.model)
            lines += [Text(where + first), *map(Text, rest)]
        return Group(*lines)


def _events(count: int) -> str:
    """``1 event``, ``2 events``."""
    return f"{count} event{'' if count == 1 else 's'}"


def infer(view: ViewLog, events: int | None, params: Mapping[str, Any]) -> TrackerNotes:
    """The tracker after the first ``events`` events of ``view`` (all by default).

    A view the assistant saved is first checked as its ``load`` checks one (a full game log
    was checked by replaying it).  Raises ``LogError`` or ``ContradictionError`` naming the
    first event that no game explains."""
    game = view.game
    assert isinstance(game, ScotlandYardGame)  # read_view_log checked the game's name
    model = cast(Model, params.get("model") or "uniform")
    seen = view.events if events is None else view.events[:events]
    ending = None
    if not view.from_game_log:  # a full game log was checked by replaying it
        ending = _check_saved(view, len(seen))
    belief = MrXBelief(game, model)
    sizes: list[int] = []
    log: list[LogEntry] = []
    for event in seen:
        if event.kind == "game_over" and belief.tracker is not None:
            sizes = [b.bit_count() for b in belief.tracker.history]
        belief.update(event)
        public = event.public
        if event.kind == "game_over":
            ending = str(public["termination"])
        if event.kind == "mrx_moved":
            reveal = public["reveal"]
            log.append(
                LogEntry(
                    int(public["entry"]),
                    str(public["ticket"]),
                    int(public["leg"]),
                    None if reveal is None else int(reveal),
                    0,
                )
            )
    tracker = belief.tracker
    if tracker is None:
        return TrackerNotes(len(seen), False, model, 0, (), {}, (), (), (), None, None, None)
    if not belief.over:
        sizes = [b.bit_count() for b in tracker.history]
    smoothed = None
    if params.get("smooth"):
        smoothed = tuple(tuple(members(b)) for b in tracker.smoothed())
    return TrackerNotes(
        events=len(seen),
        started=True,
        model=model,
        entry=tracker.entry,
        possible=tuple(tracker.stations()),
        probabilities=tracker.probabilities(),
        detectives=tuple(tracker.detectives),
        sizes=tuple(sizes),
        log=tuple(LogEntry(e.entry, e.ticket, e.leg, e.reveal, sizes[e.entry]) for e in log),
        caught=tracker.caught,
        ending=ending or ("caught" if tracker.caught is not None else None),
        smoothed=smoothed,
    )


def _check_saved(view: ViewLog, events: int) -> str | None:
    """Check the first ``events`` events of a view the assistant saved as its ``load`` checks a
    view (:func:`~sleuth.games.scotland_yard.assistant.replay_view`), and return how the game
    ended within them as the assistant's table saw it (``caught``, ``escaped``, ``blocked``,
    ``cornered``; a saved view has no ``game_over`` event), or None.  The first event no game
    explains is a :class:`~sleuth.core.errors.LogError` naming it and the reason.  A cut just
    after the first leg of a double move checks the second leg too, as a leg alone is no
    entry (the game is not over between the legs)."""
    cut = events
    if 0 < cut < len(view.events) and _first_leg(view.events[cut - 1]):
        cut += 1
    ending = replay_view(replace(view, events=view.events[:cut])).table.over
    return ending if cut == events else None


def _first_leg(event: Event) -> bool:
    """Whether ``event`` is the first leg of a double move."""
    return event.kind == "mrx_moved" and event.public.get("leg") == 1


def _check(game: Game[Any], params: Mapping[str, Any]) -> None:
    """``--starts``, checked against the board before the kernels are prepared."""
    assert isinstance(game, ScotlandYardGame)
    given = params.get("starts")
    if given:
        try:
            check_starts(game, parse_starts(given))
        except SleuthError as exc:
            raise SleuthError(f"starts {given}: {exc}") from None


def _session(game: Game[Any], params: Mapping[str, Any]) -> DetectivesSession:
    assert isinstance(game, ScotlandYardGame)
    given = params.get("starts")
    starts = parse_starts(given) if given else game.profile.detective_starts
    return DetectivesSession(game, cast(Model, params.get("model") or "uniform"), starts)


INFER = InferPlugin(
    role="detectives",
    also=("detective",),
    help="The detectives' tracker: Mr. X's possible stations after a log (with their "
    "probabilities under a model), how many were possible after each log entry, and with "
    "--smooth what later entries rule out of earlier ones.",
    run=infer,
    params=(
        MODEL,
        Param(
            "smooth",
            "Also the smoothed sets: each entry's stations from which Mr. X could still make "
            "the later moves.",
            kind=bool,
            default=False,
        ),
    ),
)

ASSIST = AssistPlugin(
    help="The detectives' assistant at a real table: type Mr. X's tickets as he plays them, "
    "the reveals and each detective's move (in any order within a round, each naming its "
    "detective) and see where Mr. X may be and a suggested move for every detective still "
    "to move.  'help' lists the forms; undo, edit, delete, save FILE and load FILE work at "
    "any time.",
    session=_session,
    check=_check,
    prepare=prepare,
    params=(
        Param(
            "starts",
            "The detectives' start stations in detective order, e.g. 9,10,15,17,19 on the "
            "built-in board (or type 'start 9,10,15,17,19' as the first entry).",
        ),
        MODEL,
    ),
    load_sets=("starts",),
)

PAGE = PagePlugin(board=picture.svg, describe=picture.describe, notepad=notepad_picture.notepad)
"""The game's page in the web app: the board from one seat's view, the events in words, and
the assistant's picture."""
