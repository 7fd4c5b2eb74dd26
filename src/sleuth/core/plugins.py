"""A game's optional parts, carried by its :class:`~sleuth.core.registry.GameSpec`.

- :class:`InferPlugin` — ``sleuth infer GAME``: a seat's belief after a game log or a view
  log, cut after ``--events N``, as an :class:`Inferred` that renders as text and as JSON.
- :class:`AssistPlugin` — ``sleuth assist GAME``: a factory for the
  :class:`~sleuth.core.table.TableSession` the shared loop runs.
- :class:`PagePlugin` — the game's page in the web app (``sleuth serve``) and its event texts:
  the board drawn from one seat's view, each event in words, the assistant's picture.
- :class:`CommandsPlugin` — the game's own sub-commands (``sleuth fox solve``) and its
  ``sleuth export GAME``, each a :class:`GameCommand`; ``GameSpec.commands`` names them as
  ``"module:attribute"``, a module that only the command line imports.

A plug-in's command-line options are :class:`Param` values (data, not a CLI library's
objects), so a game package needs no CLI code: the command line builds its commands from them,
with the options every game shares (``--log``, ``--events``, ``--json``; ``-o``, ``--load``),
and prints what they answer (an :class:`Answer`, or runs a session on the shared table loop).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from sleuth.core.events import JSON, Event, View
from sleuth.core.game import Game
from sleuth.core.seatview import ViewLog
from sleuth.core.table import Command, TableSession

if TYPE_CHECKING:
    from rich.console import RenderableType

ParamValue = str | int | float | Path | None
"""What a :class:`Param` gives its plug-in (None: not given and no default)."""


@dataclass(frozen=True)
class Param:
    """One ``--name`` option of a plug-in's command.

    ``kind`` is ``str``, ``int``, ``float``, ``Path`` or ``bool`` (a flag, off unless given);
    with ``choices`` the value is one of them (a ``str``); ``minimum`` bounds numbers from
    below; ``short`` is a one-letter alias (``-g``); a ``required`` option must be given.
    Invariant: ``default`` is None or a valid value, and None when ``required``.
    """

    name: str
    help: str
    kind: type[str] | type[int] | type[float] | type[Path] | type[bool] = str
    default: ParamValue = None
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    short: str = ""
    required: bool = False

    def __post_init__(self) -> None:
        if not self.name.isidentifier():
            raise ValueError(f"parameter name {self.name!r} is not an identifier")
        if self.choices and self.default is not None and self.default not in self.choices:
            raise ValueError(f"parameter {self.name}: default {self.default!r} is not a choice")
        if self.short and not (len(self.short) == 2 and self.short[0] == "-"):
            raise ValueError(f"parameter {self.name}: short flag {self.short!r} is not '-x'")
        if self.required and self.default is not None:
            raise ValueError(f"parameter {self.name}: required, so it has no default")

    @property
    def flag(self) -> str:
        """``--name`` with dashes for underscores."""
        return "--" + self.name.replace("_", "-")


class Inferred(Protocol):
    """A belief read from a view, as ``sleuth infer`` prints it."""

    def to_json(self) -> dict[str, JSON]:
        """The ``--json`` answer: one JSON object (it includes ``"events"``: how many were read)."""
        ...

    def render(self) -> RenderableType:
        """The text answer (a Rich renderable)."""
        ...


@dataclass(frozen=True)
class InferPlugin:
    """``sleuth infer GAME``: the belief of the seat playing ``role`` after a log.

    ``run(view, events, params)`` gets the seat's whole view (``read_view_log`` has checked
    the file, the game and the role), ``events`` (None, or a count from 0 to the number of
    events of the view, checked by the caller) and the values of ``params`` by name.  It
    raises a :class:`~sleuth.core.errors.SleuthError` naming the event on a contradiction.
    With ``by_seat`` (games whose seats share one role, such as Camel Up's players) the
    command takes ``--seat S`` to choose the view of a full game log.  ``also`` names other
    roles that see what ``role`` sees (Scotland Yard's ``detective`` seats beside the
    ``detectives`` seat): their views are read too.  ``prepare()`` (optional) is called once
    the log is read, before ``run``, and returns at once: it starts what ``run`` would
    otherwise wait for (compiled kernels), which ``run`` does without meanwhile.
    """

    role: str
    help: str
    run: Callable[[ViewLog, int | None, Mapping[str, Any]], Inferred]
    params: tuple[Param, ...] = ()
    by_seat: bool = False
    also: tuple[str, ...] = ()
    prepare: Callable[[], None] | None = None


@dataclass(frozen=True)
class AssistPlugin:
    """``sleuth assist GAME``: a table-side assistant on the shared loop.

    ``check(game, params)`` (optional) refuses bad params with a SleuthError naming the
    culprit, cheaply, before ``prepare``; ``prepare(game)`` (optional) loads what the first
    answer would wait for (compiled kernels, tables); ``session(game, params)`` opens a session
    on a game built from the ``-o`` options.  ``load_sets`` names the params a saved log sets
    (with ``--load`` they must be left out, like ``-o``).
    """

    help: str
    session: Callable[[Game[Any], Mapping[str, Any]], TableSession]
    params: tuple[Param, ...] = ()
    prepare: Callable[[Game[Any]], None] | None = None
    check: Callable[[Game[Any], Mapping[str, Any]], None] | None = None
    load_sets: tuple[str, ...] = ()


@dataclass(frozen=True)
class Switch:
    """A checkbox beside the assistant's picture, on at first, that shows or hides a layer of
    it: while it is off, the picture's panel has the class ``hide-NAME``, and the picture
    itself says what that hides (a CSS rule in its own ``<style>``), so the page holds nothing
    of the game.  ``label`` is the checkbox's text ("show the holes the fox may be in").
    Invariant: ``name`` is a CSS identifier (letters, digits and dashes)."""

    name: str
    label: str

    def __post_init__(self) -> None:
        if not self.name or not all(c.isascii() and (c.isalnum() or c == "-") for c in self.name):
            raise ValueError(f"switch name {self.name!r} is not letters, digits and dashes")


@dataclass(frozen=True)
class PagePlugin:
    """The game's pictures and words, drawn as SVG text by the game's own modules, which the
    web app shows (through :mod:`sleuth.render`) without any code of its own for the game.

    ``board(game, view, legal)`` is the board as ``view``'s seat sees it; ``legal`` are the
    texts of the seat's legal actions (empty when it is not the seat's turn), which the picture
    may make clickable with ``data-action`` attributes.  ``describe(game, event, viewer,
    names)`` (optional) is an event in words as told to the seat ``viewer`` ("you" for that
    seat's own doings; None: to nobody in particular), with the other seats that people play
    called by the names they gave (``names``: a name or None by seat, empty when none is
    known; :func:`named` writes one), or None to leave it to the generic text of its kind and
    fields.
    ``notepad(session)`` (optional) is the picture of the game's assistant session (its
    :class:`AssistPlugin`'s), or ``""`` when there is nothing to draw yet; its parts with a
    ``data-action`` are one click's entry, those with a ``data-collect`` one item of an entry
    that lists several (a click adds the item to the entry box's comma-separated list), those
    with a ``data-append`` one word of an entry (a click adds it at the end of the entry box's
    text: the Scotland Yard map's stations), and
    ``switches`` are its layers the page lets the person show or hide (:class:`Switch`).
    ``assistant`` is the assistant the page offers for a game whose spec has none (the fox
    puzzle of ``sleuth fox play``); ``hidden`` names the assistant's commands and params that
    the page offers in its own way, not in its lists (the fox's ``marks``: a switch on the
    board); ``commands(session)`` (optional) are the page's own commands, besides the
    session's, none of which changes the session (the fox's ``solve``); ``entry_event`` is the
    kind of the view-log event that each entry gives, for a game whose loaded log is replayed
    from the start (the web app counts them before any replay).
    Invariants: ``board`` and ``describe`` read nothing but their arguments, so a picture holds
    nothing the seat may not see; ``notepad`` never raises for a session in any state.  Text
    is written with :mod:`sleuth.render.svg`'s helpers, which escape it.
    """

    board: Callable[[Game[Any], View, Sequence[str]], str]
    describe: Callable[[Game[Any], Event, int | None, Sequence[str | None]], str | None] | None = (
        None
    )
    notepad: Callable[[TableSession], str] | None = None
    assistant: AssistPlugin | None = None
    hidden: tuple[str, ...] = ()
    commands: Callable[[TableSession], Sequence[Command]] | None = None
    entry_event: str | None = None
    switches: tuple[Switch, ...] = ()


def named(word: str, seat: int, names: Sequence[str | None]) -> str:
    """How an event's text calls ``seat``: ``word``, the game's own word for it ("Colonel
    Mustard", "p1", "the Marshal"), after the name its person gave, as ``Ann (Colonel
    Mustard)``; ``word`` alone for a seat without a name (or beyond ``names``).

    >>> named("the Marshal", 1, [None, "Ann"]), named("the Fugitive", 0, [None, "Ann"])
    ('Ann (the Marshal)', 'the Fugitive')
    """
    name = names[seat] if 0 <= seat < len(names) else None
    return word if name is None else f"{name} ({word})"


AS_JSON = Param("json", "Print one JSON object.", kind=bool)
"""Among a :class:`GameCommand`'s params, where ``--json`` is listed: the command prints its
answer's JSON object when it is given (its ``run`` does not get it)."""


@dataclass(frozen=True)
class Answer:
    """What a :class:`GameCommand` prints: ``text``, a Rich renderable, or with ``--json`` the
    one JSON object ``json`` (None for a command without :data:`AS_JSON`)."""

    text: RenderableType
    json: dict[str, JSON] | None = None


@dataclass(frozen=True)
class GameCommand:
    """``sleuth GAME NAME``: one of a game's own sub-commands.

    ``run(params)`` gets the values of ``params`` by name (but :data:`AS_JSON`'s; a flag not
    given is None) and answers with an :class:`Answer` to print, or with a
    :class:`~sleuth.core.table.TableSession` that the command line runs on the shared table
    loop (``sleuth fox play``).  It raises a :class:`~sleuth.core.errors.SleuthError` naming the
    culprit on bad input.  ``help`` is the command's help text (its first sentence is the
    line listed in its group's help).
    """

    name: str
    help: str
    run: Callable[[Mapping[str, Any]], Answer | TableSession]
    params: tuple[Param, ...] = ()


@dataclass(frozen=True)
class CommandsPlugin:
    """A game's own commands: ``sleuth GAME ...`` (``help`` is the group's help, ``commands``
    its sub-commands in the order listed) and, optionally, ``sleuth export GAME``
    (``export``)."""

    help: str
    commands: tuple[GameCommand, ...]
    export: GameCommand | None = None
