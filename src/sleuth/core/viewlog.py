"""View logs: one seat's events, as JSONL, for assistants and ``sleuth infer``.

A view log records what one seat saw, nothing more, so it can be written at a real table (the
assistants save one) and read back by the deduction commands:

1. a header ``{"type": "header", "format": "sleuth-view", "version": 1, "game": ...,
   "rules_version": ..., "options": {...}, "seat": 1, "role": "marshal", "sleuth": ...}``;
2. one ``{"type": "event", "kind": ..., "public": {...}, "private": {...}, "to": [...]}`` line
   per event the seat saw, in order (``private`` only where the seat may read it).

:func:`read_view_log` also accepts a full game log (``sleuth play --logs``): it validates it
by replaying it and keeps the chosen seat's view of every event.  Problems are
:class:`~sleuth.core.errors.LogError` naming the line.  The format is in
``docs/file-formats.md``.

Reading a view checks its lines, not its events' fields: an assistant that loads a view turns
its events back into entries inside :func:`loading` and reads each event's fields inside
:func:`event_fields`, so that a badly shaped field (a missing key, a number for a list, a
value out of range) is a :class:`~sleuth.core.errors.LogError` naming the file, the line and
the event, never a traceback; :func:`same_events` checks that the entries gave back the saved
events exactly.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

import sleuth
from sleuth.core.errors import LogError, SleuthError
from sleuth.core.events import JSON, Event
from sleuth.core.log import (
    LOG_FORMAT,
    VIEW_FORMAT,
    JsonLines,
    StepLine,
    StrictModel,
    first_error,
    replay_lines,
)
from sleuth.core.registry import game_spec
from sleuth.core.seatview import ViewLog

Roles = str | tuple[str, ...]
"""A role, or roles that see alike (see :func:`read_view_log`)."""
VIEW_VERSION = 1


class ViewHeader(StrictModel):
    type: Literal["header"]
    format: Literal["sleuth-view"]
    version: Literal[1]
    game: str
    rules_version: str
    options: dict[str, Any]
    seat: int
    role: str
    sleuth: str


class ViewEventLine(StrictModel):
    type: Literal["event"]
    kind: str
    public: dict[str, Any]
    private: dict[str, Any] | None = None
    to: list[int] = Field(default_factory=list)


def view_log_lines(log: ViewLog) -> Iterator[dict[str, JSON]]:
    """The JSON objects of a view log, in order."""
    yield {
        "type": "header",
        "format": VIEW_FORMAT,
        "version": VIEW_VERSION,
        "game": log.game.name,
        "rules_version": game_spec(log.game.name).rules_version,
        "options": log.game.options(),
        "seat": log.seat,
        "role": log.role,
        "sleuth": sleuth.__version__,
    }
    for event in log.events:
        yield {"type": "event", **event.seen_by(log.seat).to_json()}


def write_view_log(log: ViewLog, path: Path | str) -> None:
    """Write ``log`` to ``path``, replacing an earlier view log; any other existing file is a
    :class:`LogError` and stays as it was (a game log saved over by mistake would be lost), and
    a file that cannot be written is a :class:`~sleuth.core.errors.SleuthError` naming it."""
    path = Path(path)
    if path.is_file() and not _is_view_log(path):
        raise LogError(f"{path} exists and is not a view log: not replaced (choose another name)")
    text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in view_log_lines(log))
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise SleuthError(f"{path}: cannot write: {exc}") from None


def _is_view_log(path: Path) -> bool:
    """Whether ``path`` starts with a view log's header (an empty file counts as one)."""
    try:
        with path.open(encoding="utf-8") as file:
            first = file.readline()
        return not first.strip() or json.loads(first).get("format") == VIEW_FORMAT
    except (OSError, UnicodeDecodeError, ValueError, AttributeError):
        return False


def read_view_log(
    path: Path | str, role: Roles, game: str | None = None, seat: int | None = None
) -> ViewLog:
    """The view of ``role`` from a view log or a full game log at ``path`` (of the game named
    ``game``, when given).  ``seat`` chooses among seats that share the role (a full game log;
    a view log must be that seat's); by default the first seat with the role.

    ``role`` may be a tuple of roles that see alike (Scotland Yard's detectives, one seat for
    all or one seat each): a view log of any of them is read, and from a full game log the
    first seat with the first of them the game has."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise LogError(f"{path}: cannot read: {exc}") from exc
    return parse_view_lines(lines, role, source=str(path), game=game, seat=seat)


def parse_view_lines(
    lines: Iterable[str],
    role: Roles,
    source: str = "<log>",
    game: str | None = None,
    seat: int | None = None,
) -> ViewLog:
    """See :func:`read_view_log`."""
    lines = list(lines)
    reader = JsonLines(lines, source)
    numbered, fail, parse = reader.numbered, reader.fail, reader.parse

    first_no, header = reader.header()
    if header.get("format") == LOG_FORMAT:
        return _from_game_log(lines, role, source, game, seat)
    try:
        valid = ViewHeader.model_validate(header)
    except ValidationError as exc:
        raise fail(first_no, f"bad header: {first_error(exc)}") from None
    if game is not None and valid.game != game:
        raise fail(first_no, f"a {valid.game} log, not a {game} one")
    played = reader.game(first_no, valid.game, valid.options, valid.rules_version, view=True)
    if not 0 <= valid.seat < played.num_players:
        seats = f"0 to {played.num_players - 1}"
        raise fail(first_no, f"seat {valid.seat} is not one of the game's seats ({seats})")
    if played.roles[valid.seat] != valid.role:
        role = played.roles[valid.seat]
        raise fail(first_no, f"seat {valid.seat} is the {role}, not the {valid.role}")
    if valid.role not in _roles(role):
        raise fail(first_no, f"this is the {valid.role}'s view, not the {_named(role)}'s")
    if seat is not None and valid.seat != seat:
        raise fail(first_no, f"this is seat {valid.seat}'s view, not seat {seat}'s")
    events: list[Event] = []
    for line_no, line in numbered[1:]:
        try:
            body = ViewEventLine.model_validate(parse(line_no, line))
        except ValidationError as exc:
            raise fail(line_no, first_error(exc)) from None
        events.append(Event.from_json(body.model_dump(exclude={"type"})))
    return ViewLog(played, valid.seat, events, source, [n for n, _ in numbered[1:]])


def _from_game_log(
    lines: list[str], roles: Roles, source: str, name: str | None, seat: int | None
) -> ViewLog:
    replay = replay_lines(lines, source=source)
    game = replay.game
    if name is not None and game.name != name:
        raise LogError(f"{source}: a {game.name} game log, not a {name} one")
    role = next((r for r in _roles(roles) if r in game.roles), None)
    if role is None:
        raise LogError(
            f"{source}: a {game.name} game log, which has no {_named(roles)} (roles: "
            f"{', '.join(game.roles)})"
        )
    if seat is None:
        seat = game.roles.index(role)
    elif not 0 <= seat < game.num_players or game.roles[seat] != role:
        raise LogError(
            f"{source}: seat {seat} is not a {role} of this {game.name} game (seats 0 to "
            f"{game.num_players - 1}: {', '.join(game.roles)})"
        )
    events: list[Event] = []
    numbers: list[int] = []
    for line_no, line in enumerate(lines[1:], start=2):
        body = json.loads(line) if line.strip() else {}
        if body.get("type") == "step":
            step = StepLine.model_validate(body)
            events += [Event.from_json(e.model_dump()).seen_by(seat) for e in step.events]
            numbers += [line_no] * len(step.events)
    return ViewLog(game, seat, events, source, numbers, from_game_log=True)


def _roles(roles: Roles) -> tuple[str, ...]:
    return (roles,) if isinstance(roles, str) else roles


def _named(roles: Roles) -> str:
    """``marshal``, or ``detectives or detective``."""
    return " or ".join(_roles(roles))


MALFORMED = (TypeError, ValueError, KeyError, IndexError, AttributeError)
"""What reading a badly shaped field raises (a missing key, a number for a list, ...)."""


class EventFieldError(LogError):
    """An event of a view whose fields are not what its game writes; ``index`` is the event's
    place in the view's events (from 0)."""

    def __init__(self, index: int, kind: str, problem: str) -> None:
        super().__init__(f"event {index + 1} ({kind}): {problem}")
        self.index = index


@contextmanager
def event_fields(index: int, event: Event) -> Iterator[None]:
    """Read the fields of ``event`` (the view's event ``index``, from 0) in the body: a
    missing field, or one of the wrong type or out of range, is an :class:`EventFieldError`
    naming the event and the field.  A :class:`SleuthError` passes as it is."""
    try:
        yield
    except SleuthError:
        raise
    except KeyError as exc:
        raise EventFieldError(index, event.kind, f"no field {exc.args[0]!r}") from None
    except IndexError as exc:
        raise EventFieldError(index, event.kind, f"a number out of range ({exc})") from None
    except MALFORMED as exc:
        raise EventFieldError(index, event.kind, f"a field has the wrong shape ({exc})") from None


def whole(fields: Mapping[str, JSON], name: str, stop: int | None = None) -> int:
    """The field ``name`` of ``fields``: a whole number from 0 (below ``stop`` when given);
    anything else is a ``ValueError`` naming the field (for :func:`event_fields`)."""
    value = fields[name]
    try:
        number = None if isinstance(value, bool) else operator.index(value)
    except TypeError:
        number = None
    if number is None or number < 0 or (stop is not None and number >= stop):
        within = "from 0" if stop is None else f"from 0 to {stop - 1}"
        raise ValueError(f"field {name!r} is {value!r}, not a whole number {within}")
    return number


def wholes(fields: Mapping[str, JSON], name: str, stop: int | None = None) -> list[int]:
    """The field ``name`` of ``fields``: a list of whole numbers from 0 (below ``stop`` when
    given); anything else is a ``ValueError`` naming the field (for :func:`event_fields`)."""
    value = fields[name]
    if not isinstance(value, list | tuple):
        raise ValueError(f"field {name!r} is {value!r}, not a list")
    return [whole({name: v}, name, stop) for v in value]


@contextmanager
def loading(view: ViewLog) -> Iterator[None]:
    """Turn ``view`` back into entries in the body: an :class:`EventFieldError` becomes a
    :class:`LogError` naming the file and the event's line, any other :class:`SleuthError` a
    :class:`LogError` naming the file.  (The caller changes its session only after the body.)"""
    try:
        yield
    except EventFieldError as exc:
        where = f" line {view.lines[exc.index]}" if exc.index < len(view.lines) else ""
        raise LogError(f"{view.source}{where}: {exc}") from None
    except SleuthError as exc:
        raise LogError(f"{view.source}: {exc}") from None


def enter_entries(
    events: Sequence[Event], sources: Iterable[tuple[int, str]], enter: Callable[[str], object]
) -> None:
    """Enter, in order, the entry texts that ``sources`` gives for a view's ``events`` (each
    with the index of the event it comes from).  A refused entry is an
    :class:`EventFieldError` at that event, naming the entry by its number and text, which
    :func:`loading` turns into an error naming the file's line."""
    for number, (index, text) in enumerate(sources, start=1):
        try:
            enter(text)
        except SleuthError as exc:
            kind = events[index].kind
            raise EventFieldError(index, kind, f"entry {number} ({text}): {exc}") from None


def same_events(view: ViewLog, replayed: Sequence[Event]) -> None:
    """Check that entering a view log's entries gave back its events exactly (a saved view
    holds nothing the entries do not: an event of a kind the entries never give, or else the
    first event that differs from theirs, is a :class:`LogError` naming it).  A full game
    log's view is not checked: the replay of the log checked it."""
    if view.from_game_log:
        return
    kinds = {e.kind for e in replayed}
    strays = [(i, e.kind) for i, e in enumerate(view.events) if e.kind not in kinds]
    if strays:  # an unknown kind, or one the entries lost (a stray event before it)
        (index, kind), *more = strays
        others = "".join(f", nor event {i + 1} ({k})" for i, k in more[:3])
        raise EventFieldError(index, kind, f"the view's entries give no such event{others}")
    ours = [e.to_json() for e in replayed]
    theirs = [e.to_json() for e in view.events]
    for index, (mine, saved) in enumerate(zip(ours, theirs, strict=False)):
        if _text(mine) != _text(saved):  # as JSON texts: true is not 1, nor 1.0
            raise EventFieldError(
                index, view.events[index].kind, f"{saved} in the file, but its entries give {mine}"
            )
    if len(ours) != len(theirs):
        raise LogError(f"{len(theirs)} events, but its entries give {len(ours)}")


def _text(value: JSON) -> str:
    return json.dumps(value, sort_keys=True)
