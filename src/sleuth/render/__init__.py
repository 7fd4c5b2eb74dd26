"""SVG pictures and event texts of any game, drawn by the game's own page plug-in.

A game's :class:`~sleuth.core.plugins.PagePlugin` (``GameSpec.page``) draws its board from one
seat's view, puts its events in words and draws its assistant's picture; this package holds
no code of any one game: it finds the plug-in by the game's name in the registry, so that a
game registered from another package gets its page as a built-in one does, and gives the
generic answers for a game without one (no picture, an event as its kind and fields).
:mod:`sleuth.render.svg` holds the helpers the games draw with.  Invariant: the board and the
texts read nothing but the view, the event and the legal actions given, so a picture can hold
nothing the seat may not see.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sleuth.core.events import Event, View, thaw
from sleuth.core.game import Game
from sleuth.core.plugins import PagePlugin
from sleuth.core.registry import game_spec
from sleuth.core.table import TableSession


def page(name: str) -> PagePlugin | None:
    """The page plug-in of the game called ``name`` (None for a game without one)."""
    return game_spec(name).page


def board_svg(game: Game[Any], view: View, legal: Sequence[str]) -> str:
    """The board as ``view``'s seat sees it (empty for a game without a picture)."""
    plugin = page(game.name)
    return "" if plugin is None else plugin.board(game, view, legal)


def describe(
    game: Game[Any], event: Event, viewer: int | None = None, names: Sequence[str | None] = ()
) -> str:
    """``event`` in words, as told to the seat ``viewer`` (None: to nobody in particular), the
    seats of ``names`` (a name or None by seat) called by their people's names: the game's
    own text, else its kind and fields."""
    plugin = page(game.name)
    if plugin is not None and plugin.describe is not None:
        text = plugin.describe(game, event, viewer, names)
        if text is not None:
            return text
    fields = {**thaw(event.public), **(thaw(event.private) if event.private else {})}
    shown = ", ".join(f"{key} {_value(value)}" for key, value in fields.items())
    hidden = " (hidden)" if event.private is None and event.audience else ""
    return f"{event.kind.replace('_', ' ')}{': ' if shown else ''}{shown}{hidden}"


def notepad_svg(name: str, session: TableSession) -> str:
    """The picture of ``session``, an assistant of the game called ``name``, or ``""`` (a
    game without one, or nothing to draw yet)."""
    plugin = page(name)
    return "" if plugin is None or plugin.notepad is None else plugin.notepad(session)


def _value(value: object) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_value(v)}" for k, v in value.items()) + "}"
    return str(value)
