"""The registry of games: their options, roles, bots and plug-ins.

Each game package exposes one :class:`GameSpec`; :func:`game_specs` lists them all and
:func:`make_game` builds a game from option texts such as ``{"graph": "path:5", "k": "2"}``.
A spec carries the game's optional plug-ins (:mod:`sleuth.core.plugins`).  Games outside
Sleuth register with :func:`register` or through an entry point (:data:`ENTRY_POINT_GROUP`).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import warnings
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
    from sleuth.search.model import SearchModel

__all__ = [
    "ENTRY_POINT_GROUP",
    "GameSpec",
    "OptionSpec",
    "PluginWarning",
    "builtin_game_names",
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
    "scotland-yard": "sleuth.games.scotland_yard",
    "cluedo": "sleuth.games.cluedo",
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
    search: SearchModel[Any] | None = None
    """The game's search model (its world sampler), if it has one: the conformance kit
    checks the sampler (:func:`sleuth.testing.check_sampler`); register its search bots
    with :func:`sleuth.search.players.search_bots` from the same model."""

    def options_for(self, texts: Mapping[str, Any], bots: int) -> dict[str, Any]:
        """``texts`` with the seat-count option filled in from the number of ``bots``."""
        filled = dict(texts)
        if self.seats_option is not None and self.seats_option not in filled:
            filled[self.seats_option] = bots
        return filled

    def bot(self, name: str, interactive: bool = False) -> BotSpec:
        """The bot called ``name``: a base name, optionally with options (``ismcts:c=0.5``).

        With ``interactive=True`` (the web app) option values over their interactive limit
        are refused (:meth:`BotSpec.configured`)."""
        base, *settings = name.split(":")
        for spec in self.bots:
            if spec.name == base:
                if not settings:
                    return spec
                try:
                    texts = parse_option_texts(settings)
                except OptionError as exc:
                    raise OptionError(f"bot {name!r}: {exc}") from None
                return spec.configured(texts, self.name, interactive)
        known = ", ".join(b.name for b in self.bots)
        raise UnknownNameError(f"unknown bot {base!r} for {self.name}; known bots: {known}")

    def make(self, texts: Mapping[str, Any] | None = None, canonical: bool = False) -> Game[Any]:
        """Build the game from option values (texts or typed values); unknown names fail.

        With ``canonical=True`` (options from a log), values must be canonical: no file is read.
        """
        return self.build(parse_options(self.options, dict(texts or {}), self.name, canonical))


_REGISTERED: dict[str, GameSpec] = {}

ENTRY_POINT_GROUP = "sleuth.games"
"""Games outside Sleuth name their ``GameSpec`` in this entry-point group of their
distribution (``[project.entry-points."sleuth.games"] mygame = "mypackage:SPEC"``); the entry
point's name is the game's name.  They are found when the games are listed or a name is not a
built-in one, and imported only then."""


class PluginWarning(UserWarning):
    """A game plug-in (an entry point of :data:`ENTRY_POINT_GROUP`) could not be loaded."""


_REFUSED: set[str] = set()
"""Plug-ins refused (warned about once) in this process: left out of the games from then on."""


def register(spec: GameSpec) -> None:
    """Add a game defined outside Sleuth (a plugin or a test game) to the registry."""
    if spec.name in _GAME_MODULES:
        raise ValueError(f"game name {spec.name!r} is taken by a built-in game")
    _REGISTERED[spec.name] = spec


def _entry_points() -> dict[str, importlib.metadata.EntryPoint]:
    """The installed game plug-ins not shadowed by a built-in or registered game (a name a
    built-in game has is refused with a :class:`PluginWarning`)."""
    found = {}
    for point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        if point.name in _REFUSED:
            continue
        if point.name in _GAME_MODULES:
            _REFUSED.add(point.name)
            warnings.warn(
                f"game plug-in {point.name!r} ({point.value}) ignored: a built-in game has "
                "that name",
                PluginWarning,
                stacklevel=3,
            )
        elif point.name not in _REGISTERED:
            found[point.name] = point
    return found


def _load_entry_point(point: importlib.metadata.EntryPoint) -> GameSpec:
    """Import a plug-in's spec and register it; any failure is a :class:`PluginWarning`
    naming the plug-in (once: it is refused from then on), and an :class:`UnknownNameError`."""
    try:
        spec = point.load()
        if not isinstance(spec, GameSpec):
            raise TypeError(f"{type(spec).__name__} is not a GameSpec")
        if spec.name != point.name:
            raise ValueError(f"its spec is named {spec.name!r}")
    except Exception as exc:  # a broken plug-in must not stop Sleuth
        message = f"game plug-in {point.name!r} ({point.value}) not loaded: {exc}"
        _REFUSED.add(point.name)
        warnings.warn(message, PluginWarning, stacklevel=3)
        raise UnknownNameError(message) from None
    register(spec)
    return spec


def builtin_game_names() -> list[str]:
    """The games that come with Sleuth, in listing order (none is imported)."""
    return list(_GAME_MODULES)


def game_names() -> list[str]:
    """Built-in games, registered games, then installed plug-ins (not imported yet)."""
    return [*_GAME_MODULES, *_REGISTERED, *_entry_points()]


def game_spec(name: str) -> GameSpec:
    """The spec of the game called ``name`` (a plug-in's is imported now)."""
    if name in _REGISTERED:
        return _REGISTERED[name]
    module_name = _GAME_MODULES.get(name)
    if module_name is None:
        point = _entry_points().get(name)
        if point is not None:
            return _load_entry_point(point)
        raise UnknownNameError(f"unknown game {name!r}; known games: {', '.join(game_names())}")
    spec = importlib.import_module(module_name).SPEC
    assert isinstance(spec, GameSpec)
    return spec


def game_specs() -> list[GameSpec]:
    """Every game's spec; a plug-in that fails to load is left out (with a warning)."""
    specs = []
    for name in game_names():
        try:
            specs.append(game_spec(name))
        except UnknownNameError:
            continue  # a broken plug-in: _load_entry_point has warned
    return specs


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
