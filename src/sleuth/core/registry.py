"""The registry of games: their options, roles, bots and plug-ins.

Each game package exposes one :class:`GameSpec`; :func:`game_specs` lists them all and
:func:`make_game` builds a game from option texts such as ``{"graph": "path:5", "k": "2"}``.
A spec carries the game's optional plug-ins (:mod:`sleuth.core.plugins`).  Games outside
Sleuth register with :func:`register` or through an entry point (:data:`ENTRY_POINT_GROUP`);
bots for any game, a built-in one included, through :data:`BOT_ENTRY_POINT_GROUP`.

What a game is — its options, roles and bots — is also a light :class:`GameInfo`, which
:func:`game_infos` lists for ``sleuth games``.  A built-in game declares it in its catalogue
(``sleuth.games.<game>.catalogue``, a module that imports no engine), and its spec is made from
that same declaration (:meth:`GameInfo.spec`); other games' are read from their spec.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import importlib.metadata
import re
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import zip_longest
from typing import TYPE_CHECKING, Any

from sleuth.core.bots import BotInfo, BotSpec
from sleuth.core.botwire import CMD_PREFIX
from sleuth.core.errors import OptionError, SleuthError, UnknownNameError
from sleuth.core.events import JSON
from sleuth.core.game import Game
from sleuth.core.options import OptionSpec, parse_bool, parse_float, parse_int, parse_options

if TYPE_CHECKING:
    from sleuth.core.encoding import Encoding
    from sleuth.core.plugins import AssistPlugin, InferPlugin, PagePlugin
    from sleuth.core.searchmodel import SearchModel

__all__ = [
    "BOT_ENTRY_POINT_GROUP",
    "ENTRY_POINT_GROUP",
    "GameInfo",
    "GameSpec",
    "OptionSpec",
    "PluginWarning",
    "builtin_game_names",
    "game_info",
    "game_infos",
    "game_names",
    "game_spec",
    "game_specs",
    "make_game",
    "parse_bool",
    "parse_float",
    "parse_int",
    "parse_option_texts",
    "register",
    "spec_on_first_use",
]

# Game name -> package that defines ``SPEC`` (imported on first use) and whose ``catalogue``
# module defines ``GAME``, the game's :class:`GameInfo` (light: ``sleuth games`` reads it).
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
    view_rules_versions: tuple[str, ...] = ()
    """Older rules versions whose view logs (as assistants save them) still read: the change
    did not touch the events those views hold."""
    seats_option: str | None = None
    """The option that sets the number of seats, if any: when it is not given, a tournament
    sets it to the number of bots named (``--bots a,b,c`` is a 3-player game)."""
    infer: InferPlugin | None = None
    """The belief behind ``sleuth infer GAME``, if the game has one."""
    assist: AssistPlugin | None = None
    """The table session behind ``sleuth assist GAME``, if the game has one."""
    page: PagePlugin | None = None
    """The game's pictures and event texts in the web app (:mod:`sleuth.render` draws a game
    without one as no picture and generic texts)."""
    commands: str | None = None
    """``"module:attribute"`` of the game's own sub-commands (``sleuth GAME ...``), a
    :class:`~sleuth.core.plugins.CommandsPlugin`, imported only by the command line."""
    search: SearchModel[Any] | None = None
    """The game's search model (its world sampler), if it has one: the conformance kit
    checks the sampler (:func:`sleuth.testing.check_sampler`); register its search bots
    with :func:`sleuth.search.players.search_bots` from the same model."""

    encoding: str | None = None
    """``"module:attribute"`` of the game's :class:`~sleuth.core.encoding.Encoding` class
    (built from a game: observations and action ids for learning agents), imported only by
    :mod:`sleuth.envs` and the web app's tap picker (:mod:`sleuth.web.picker`); None for a
    game with none."""

    def encoding_for(self, game: Game[Any]) -> Encoding[Any]:
        """The encoding of ``game`` (a game of this spec); a game without one is an error."""
        if self.encoding is None:
            raise UnknownNameError(f"{self.name} has no encoding for learning agents")
        module, _, attribute = self.encoding.partition(":")
        return getattr(importlib.import_module(module), attribute)(game)  # type: ignore[no-any-return]

    def options_for(self, texts: Mapping[str, Any], bots: int) -> dict[str, Any]:
        """``texts`` with the seat-count option filled in from the number of ``bots``."""
        filled = dict(texts)
        if self.seats_option is not None and self.seats_option not in filled:
            filled[self.seats_option] = bots
        return filled

    def bot(self, name: str, interactive: bool = False) -> BotSpec:
        """The bot called ``name``: a base name, optionally with options (``ismcts:c=0.5``),
        or ``cmd:COMMAND``, a bot process that plays any role (:mod:`sleuth.core.external`).

        With ``interactive=True`` (the web app) option values over their interactive limit
        are refused (:meth:`BotSpec.configured`)."""
        if name.startswith(CMD_PREFIX):
            if interactive:
                raise OptionError(
                    f"bot {name!r}: a {CMD_PREFIX} bot runs a command on this machine; it is "
                    "offered where the person running Sleuth names it (sleuth play), not here"
                )
            from sleuth.core.external import command_bot  # starts processes: imported on use

            command = name.removeprefix(CMD_PREFIX)
            return command_bot(name, command, self.roles, rules_version=self.rules_version)
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

        With ``canonical=True`` (options from a log), values must be canonical, and an option
        with a ``parse_canonical`` reads no file (a Fox board); a Scotland Yard map folder is
        still read, so a program that must read no file a user names refuses those values
        first (:meth:`OptionSpec.names_file`, as the web app does).
        Invariant: the game is named as the spec (its bots, logs and results are found by
        that name), so a build that makes a game of another name is an error naming both.
        """
        game = self.build(parse_options(self.options, dict(texts or {}), self.name, canonical))
        if game.name != self.name:
            raise SleuthError(
                f"game {self.name!r} builds a {type(game).__name__} named {game.name!r}: its "
                f"Game class must be named {self.name!r} too (name: ClassVar[str])"
            )
        return game


@dataclass(frozen=True)
class GameInfo:
    """What a game is, as ``sleuth games`` lists it: a :class:`GameSpec` without the engine
    (no builder, plug-ins or search model), the bots as :class:`~sleuth.core.bots.BotInfo`.

    A built-in game declares it as ``GAME`` in ``sleuth.games.<game>.catalogue``, a module that
    imports no engine and no heavy library; the engine makes its spec from it
    (:meth:`spec`).  Invariant: the listing and the game that plays share one declaration.
    """

    name: str
    description: str
    roles: tuple[str, ...]
    options: tuple[OptionSpec, ...]
    bots: tuple[BotInfo, ...]
    rules_version: str = "1"
    view_rules_versions: tuple[str, ...] = ()
    """See :attr:`GameSpec.view_rules_versions`."""
    seats_option: str | None = None

    def bot(self, name: str) -> BotInfo:
        """The declared bot called ``name`` (an engine implements it: a wrong name is a bug)."""
        for info in self.bots:
            if info.name == name:
                return info
        raise LookupError(f"{self.name} declares no bot {name!r}")

    def spec(
        self,
        build: Callable[[dict[str, JSON]], Game[Any]],
        bots: tuple[BotSpec, ...],
        infer: InferPlugin | None = None,
        assist: AssistPlugin | None = None,
        commands: str | None = None,
        search: SearchModel[Any] | None = None,
        encoding: str | None = None,
        page: PagePlugin | None = None,
    ) -> GameSpec:
        """The game's spec: this declaration with the engine's parts.  ``bots`` must be the
        declared bots in their order, implemented (:meth:`BotInfo.implemented`), else
        ValueError naming the first that differs."""
        for made, declared in zip_longest(map(BotInfo.of, bots), self.bots):
            if made != declared:
                name = (made or declared).name
                raise ValueError(
                    f"{self.name}: the engine's bot {name!r} is not the catalogue's (same bots, "
                    "in the same order, each made with BotInfo.implemented)"
                )
        return GameSpec(
            name=self.name,
            description=self.description,
            roles=self.roles,
            options=self.options,
            bots=bots,
            build=build,
            rules_version=self.rules_version,
            view_rules_versions=self.view_rules_versions,
            seats_option=self.seats_option,
            infer=infer,
            assist=assist,
            page=page,
            commands=commands,
            encoding=encoding,
            search=search,
        )

    @classmethod
    def of(cls, spec: GameSpec) -> GameInfo:
        """What ``spec`` declares (for a game without a catalogue)."""
        return cls(
            spec.name, spec.description, spec.roles, spec.options,
            tuple(BotInfo.of(bot) for bot in spec.bots), spec.rules_version,
            spec.view_rules_versions, spec.seats_option,
        )  # fmt: skip


_REGISTERED: dict[str, GameSpec] = {}

ENTRY_POINT_GROUP = "sleuth.games"
"""Games outside Sleuth name their ``GameSpec`` in this entry-point group of their
distribution (``[project.entry-points."sleuth.games"] mygame = "mypackage:SPEC"``); the entry
point's name is the game's name.  They are found when the games are listed or a name is not a
built-in one, and imported only then."""


BOT_ENTRY_POINT_GROUP = "sleuth.bots"
"""Bots from outside Sleuth, for any game (a built-in one included), name their
:class:`~sleuth.core.bots.BotSpec` in this entry-point group (``[project.entry-points.
"sleuth.bots"] "fox.greedy" = "mypackage:GREEDY"``): the entry point's name is the game's and
the bot's, joined by a dot.  They are imported when the game's spec or listing is first asked
for in a process, and join its bots after its own."""


def spec_on_first_use(package: str, *names: str) -> Callable[[str], Any]:
    """A built-in game package's module ``__getattr__`` (PEP 562): each of ``names`` (``SPEC``,
    and ``SEARCH`` for a game with a search model) is read from ``<package>.spec``, imported the
    first time one is asked for, so that importing the package imports none of the game's
    modules and ``sleuth games`` reads its catalogue without the engine.  Any other name is an
    AttributeError naming the package and the name."""

    def __getattr__(name: str) -> Any:
        if name in names:
            return getattr(importlib.import_module(f"{package}.spec"), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


class PluginWarning(UserWarning):
    """A game plug-in (an entry point of :data:`ENTRY_POINT_GROUP`) could not be loaded."""


_REFUSED: set[str] = set()
"""Plug-ins refused (warned about once) in this process: left out of the games from then on."""

_PLUGIN_BOTS: dict[str, tuple[BotSpec, ...]] = {}
"""Each game's bots from :data:`BOT_ENTRY_POINT_GROUP`, once loaded in this process."""


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


class _Refused(Exception):
    """A plug-in that loaded but is not what its entry point promises (the message says why)."""


def _failure(exc: Exception) -> str:
    """Why a plug-in was not loaded: a refusal's message, or the error its import raised,
    with its type."""
    return str(exc) if isinstance(exc, _Refused) else f"{type(exc).__name__}: {exc}"


def _load_entry_point(point: importlib.metadata.EntryPoint) -> GameSpec:
    """Import a plug-in's spec and register it; any failure is a :class:`PluginWarning`
    naming the plug-in (once: it is refused from then on), and an :class:`UnknownNameError`."""
    try:
        spec = point.load()
        if not isinstance(spec, GameSpec):
            raise _Refused(f"{type(spec).__name__} is not a GameSpec")
        if spec.name != point.name:
            raise _Refused(
                f"its spec is named {spec.name!r}, not {point.name!r} as the entry point says"
            )
    except Exception as exc:  # a broken plug-in must not stop Sleuth
        message = f"game plug-in {point.name!r} ({point.value}) not loaded: {_failure(exc)}"
        _REFUSED.add(point.name)
        warnings.warn(message, PluginWarning, stacklevel=3)
        raise UnknownNameError(message) from None
    register(spec)
    return spec


BOT_NAME = re.compile(r"[A-Za-z0-9_-]+")
"""What a plug-in bot's name may hold: what ``--bots a,b:option=1`` can name."""


@functools.cache
def _bot_points() -> dict[str, tuple[importlib.metadata.EntryPoint, ...]]:
    """The bot plug-ins by game, read once per process.  One whose name is not ``GAME.BOT``,
    with a game Sleuth knows and a bot name of :data:`BOT_NAME`'s characters, gives one
    :class:`PluginWarning` naming it and is left out."""
    known = game_names()
    found: dict[str, list[importlib.metadata.EntryPoint]] = {}
    for point in importlib.metadata.entry_points(group=BOT_ENTRY_POINT_GROUP):
        game, _, name = point.name.rpartition(".")
        problem = None
        if not game:
            problem = "its name must be GAME.BOT, the game's name, a dot and the bot's"
        elif game not in known:
            problem = f"no game {game!r} (known games: {', '.join(known)})"
        elif not BOT_NAME.fullmatch(name):
            problem = f"bot name {name!r} must be letters, digits, '_' or '-' (for --bots)"
        if problem is None:
            found.setdefault(game, []).append(point)
        else:
            _warn(f"bot plug-in {point.name!r} ({point.value}) not loaded: {problem}")
    return {game: tuple(points) for game, points in found.items()}


def _warn(message: str) -> None:
    """A :class:`PluginWarning` pointing at the code that asked for the plug-in."""
    warnings.warn(message, PluginWarning, stacklevel=5)


def _plugin_bots(game: str, roles: tuple[str, ...], own: tuple[str, ...]) -> tuple[BotSpec, ...]:
    """The bots that plug-ins add to ``game`` (whose roles and own bots' names are given), in
    the entry points' order.  One that fails to import, is not a ``BotSpec``, is named other
    than its entry point says, takes a name the game's bots have, or plays a role the game
    does not have gives one :class:`PluginWarning` naming it and is left out."""
    if game in _PLUGIN_BOTS:
        return _PLUGIN_BOTS[game]
    _PLUGIN_BOTS[game] = ()  # a plug-in that asks for the game's spec gets it without them
    found: list[BotSpec] = []
    for point in _bot_points().get(game, ()):
        name = point.name.rpartition(".")[2]
        taken = [*own, *(bot.name for bot in found)]
        try:
            bot = point.load()
            if not isinstance(bot, BotSpec):
                raise _Refused(f"{type(bot).__name__} is not a BotSpec")
            if bot.name != name:
                raise _Refused(
                    f"its spec is named {bot.name!r}, not {name!r} as the entry point says"
                )
            if name in taken:
                raise _Refused(f"{game} already has a bot {name!r}")
            strange = [role for role in bot.roles if role not in roles]
            if strange or not bot.roles:
                raise _Refused(
                    f"its roles {list(bot.roles)} are not among {game}'s: {', '.join(roles)}"
                )
        except Exception as exc:  # a broken plug-in must not stop Sleuth
            _warn(f"bot plug-in {point.name!r} ({point.value}) not loaded: {_failure(exc)}")
            continue
        found.append(bot)
    _PLUGIN_BOTS[game] = tuple(found)
    return _PLUGIN_BOTS[game]


def _with_plugin_bots(spec: GameSpec) -> GameSpec:
    """``spec`` with the bots plug-ins add to its game (itself when there are none)."""
    extra = _plugin_bots(spec.name, spec.roles, tuple(bot.name for bot in spec.bots))
    return dataclasses.replace(spec, bots=spec.bots + extra) if extra else spec


def builtin_game_names() -> list[str]:
    """The games that come with Sleuth, in listing order (none is imported)."""
    return list(_GAME_MODULES)


def game_names() -> list[str]:
    """Built-in games, registered games, then installed plug-ins (not imported yet)."""
    return [*_GAME_MODULES, *_REGISTERED, *_entry_points()]


def game_spec(name: str) -> GameSpec:
    """The spec of the game called ``name`` (a plug-in's is imported now), with the bots
    plug-ins add to it (:data:`BOT_ENTRY_POINT_GROUP`)."""
    if name in _REGISTERED:
        return _with_plugin_bots(_REGISTERED[name])
    module_name = _GAME_MODULES.get(name)
    if module_name is None:
        point = _entry_points().get(name)
        if point is not None:
            return _with_plugin_bots(_load_entry_point(point))
        raise UnknownNameError(f"unknown game {name!r}; known games: {', '.join(game_names())}")
    spec = importlib.import_module(module_name).SPEC
    assert isinstance(spec, GameSpec)
    return _with_plugin_bots(spec)


def game_specs() -> list[GameSpec]:
    """Every game's spec; a plug-in that fails to load is left out (with a warning)."""
    specs = []
    for name in game_names():
        try:
            specs.append(game_spec(name))
        except UnknownNameError:
            continue  # a broken plug-in: _load_entry_point has warned
    return specs


def game_info(name: str) -> GameInfo:
    """What the game called ``name`` is: a built-in game's catalogue (no engine imported), or
    read from the spec of a registered game or plug-in (a plug-in is imported now); with the
    bots plug-ins add to it (imported now too)."""
    module_name = _GAME_MODULES.get(name)
    if module_name is None:
        return GameInfo.of(game_spec(name))
    info = importlib.import_module(module_name + ".catalogue").GAME
    assert isinstance(info, GameInfo)
    extra = _plugin_bots(name, info.roles, tuple(bot.name for bot in info.bots))
    if extra:
        return dataclasses.replace(info, bots=info.bots + tuple(map(BotInfo.of, extra)))
    return info


def game_infos() -> list[GameInfo]:
    """Every game's :func:`game_info`, as :func:`game_specs` lists them."""
    infos = []
    for name in game_names():
        try:
            infos.append(game_info(name))
        except UnknownNameError:
            continue  # a broken plug-in: _load_entry_point has warned
    return infos


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
