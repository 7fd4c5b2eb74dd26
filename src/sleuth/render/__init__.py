"""SVG pictures and event texts of each game, drawn from one seat's view only.

A game's module here defines ``svg(game, view, legal) -> str``: the board as the seat sees it
(``legal`` are the texts of the seat's legal actions, empty when it is not the seat's turn;
a picture may make them clickable with ``data-action`` attributes), and may define
``describe(game, event, viewer) -> str | None``: the event in words, as told to the seat
``viewer`` (``you`` for that seat's own doings) or to nobody in particular (None).
Invariant: they read nothing but their arguments, so a picture can hold nothing the seat may
not see.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from sleuth.core.events import Event, View, thaw
from sleuth.core.game import Game

MODULES = {
    "fox": "sleuth.render.fox",
    "fugitive": "sleuth.render.fugitive",
    "camel-up": "sleuth.render.camel_up",
    "scotland-yard": "sleuth.render.scotland_yard",
    "cluedo": "sleuth.render.cluedo",
}


def _module(game: Game[Any]) -> ModuleType | None:
    name = MODULES.get(game.name)
    return None if name is None else importlib.import_module(name)


def board_svg(game: Game[Any], view: View, legal: Sequence[str]) -> str:
    """The board as ``view``'s seat sees it (empty for a game without a picture)."""
    module = _module(game)
    if module is None:
        return ""
    svg: str = module.svg(game, view, legal)
    return svg


def describe(game: Game[Any], event: Event, viewer: int | None = None) -> str:
    """``event`` in words, as told to the seat ``viewer`` (None: to nobody in particular): the
    game's own text, else its kind and fields."""
    module = _module(game)
    if module is not None and hasattr(module, "describe"):
        text: str | None = module.describe(game, event, viewer)
        if text is not None:
            return text
    fields = {**thaw(event.public), **(thaw(event.private) if event.private else {})}
    shown = ", ".join(f"{key} {_value(value)}" for key, value in fields.items())
    hidden = " (hidden)" if event.private is None and event.audience else ""
    return f"{event.kind.replace('_', ' ')}{': ' if shown else ''}{shown}{hidden}"


def _value(value: object) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_value(v)}" for k, v in value.items()) + "}"
    return str(value)
