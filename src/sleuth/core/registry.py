"""The registry of games: their options, roles, bots and plug-ins.

Each game package exposes one :class:`GameSpec`; :func:`game_specs` lists them all and
:func:`make_game` builds a game from option texts such as ``{"graph": "path:5", "k": "2"}``.
A spec carries the game's optional plug-ins (:mod:`sleuth.core.plugins`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sleuth.core.bots import BotSpec
from sleuth.core.errors import OptionError, UnknownNameError
from sleuth.core.events import JSON
from sleuth.core.game import Game
from sleuth.core.options import OptionSpec, parse_bool, parse_float, parse_int, parse_options

if TYPE_CHECKING:
    from sleuth.core.plugins import AssistPlugin, InferPlugin

__all__ = [
    "GameSpec",
    "OptionSpec",
    "game_names",
    "game_spec",
    "game_specs",
    "make_game",
    "parse_bool",
    "parse_float",
    "parse_int",
    "parse_option_texts",
    "register",
]

# Game name -> module that defines ``SPEC``.  Imported lazily so ``sleuth games`` stays fast.
_GAME_MODULES = {
    "fox": "sleuth.games.fox",
    "fugitive": "sleuth.games.fugitive",
    "camel-up": "sleuth.games.camel_up",
}


@dataclass(frozen=True)
class GameSpec:
    """Everything the CLI, the arena and the docs need to know about a game."""

    name: str
    description: str
    roles: tuple[str, ...]
    options: tuple[OptionSpec, ...]
    bots: tuple[BotSpec, ...]
    build: Callable[[dict[str, JSON]], Game[Any]]
    rules_version: str = "1"
    seats_option: str | None = None
    """The option that sets the number of seats, if any: when it is not given, a tournament
    sets it to the number of bots named (``--bots a,b,c`` is a 3-player game)."""
    infer: InferPlugin | None = None
    """The belief behind ``sleuth infer GAME``, if the game has one."""
    assist: AssistPlugin | None = None
    """The table session behind ``sleuth assist GAME``, if the game has one."""
    commands: str | None = None
    """``"module:attribute"`` of a Typer app with the game's own sub-commands
    (``sleuth GAME ...``), imported only by the command line."""

    def options_for(self, texts: Mapping[str, Any], bots: int) -> dict[str, Any]:
        """``texts`` with the seat-count option filled in from the number of ``bots``."""
        filled = dict(texts)
        if self.seats_option is not None and self.seats_option not in filled:
            filled[self.seats_option] = bots
        return filled

    def bot(self, name: str) -> BotSpec:
        """The bot called ``name``: a base name, optionally with options (``ismcts:c=0.5``)."""
        base, *settings = name.split(":")
        for spec in self.bots:
            if spec.name == base:
                if not settings:
                    return spec
                try:
                    texts = parse_option_texts(settings)
                except OptionError as exc:
                    raise OptionError(f"bot {name!r}: {exc}") from None
                return spec.configured(texts, self.name)
        known = ", ".join(b.name for b in self.bots)
        raise UnknownNameError(f"unknown bot {base!r} for {self.name}; known bots: {known}")

    def make(self, texts: Mapping[str, Any] | None = None, canonical: bool = False) -> Game[Any]:
        """Build the game from option values (texts or typed values); unknown names fail.

        With ``canonical=True`` (options from a log), values must be canonical: no file is read.
        """
        return self.build(parse_options(self.options, dict(texts or {}), self.name, canonical))


_REGISTERED: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> None:
    """Add a game defined outside Sleuth (a plugin or a test game) to the registry."""
    if spec.name in _GAME_MODULES:
        raise ValueError(f"game name {spec.name!r} is taken by a built-in game")
    _REGISTERED[spec.name] = spec


def game_names() -> list[str]:
    return [*_GAME_MODULES, *_REGISTERED]


def game_spec(name: str) -> GameSpec:
    """The spec of the game called ``name``."""
    if name in _REGISTERED:
        return _REGISTERED[name]
    module_name = _GAME_MODULES.get(name)
    if module_name is None:
        raise UnknownNameError(f"unknown game {name!r}; known games: {', '.join(game_names())}")
    spec = importlib.import_module(module_name).SPEC
    assert isinstance(spec, GameSpec)
    return spec


def game_specs() -> list[GameSpec]:
    return [game_spec(name) for name in game_names()]


def make_game(name: str, options: Mapping[str, Any] | None = None) -> Game[Any]:
    """Build a game by name from option texts or values."""
    return game_spec(name).make(options)


def parse_option_texts(items: list[str]) -> dict[str, str]:
    """Turn ``["k=2", "graph=path:5"]`` into a dict, with a clear error for bad items."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"option {item!r} is not of the form name=value")
        if name.strip() in out:
            raise OptionError(f"option {name.strip()!r} is given twice")
        out[name.strip()] = value.strip()
    return out
