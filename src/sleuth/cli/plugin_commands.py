"""The per-game commands of ``infer``, ``assist`` and ``export``, and each game's own commands.

A plug-in's :class:`~sleuth.core.plugins.Param` values become ``--name`` options:
:func:`generated_command` returns a function with the signature Typer reads (every parameter
``Annotated`` with its ``typer.Option``), whose body gets the values by name.
:func:`games_group` is the group holding one such command per game, made the first time it is
run or listed (:mod:`sleuth.cli.lazy`): ``sleuth infer fox`` imports the fox game only.  A game
it does not hold is a precise error listing the games it does.  :func:`game_commands` loads a
game's own sub-commands (``GameSpec.commands``, data: :class:`~sleuth.core.plugins.CommandsPlugin`)
and :func:`command_function` makes each a command that prints its answer; :class:`RootGroup`
mounts them as ``sleuth GAME ...`` without importing a built-in game before its commands run
(:data:`BUILTIN_COMMANDS`).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from sleuth.cli.common import console, print_json
from sleuth.cli.help import SleuthGroup
from sleuth.cli.lazy import DeferredGroup, LazyGroup, group_of
from sleuth.core.errors import UnknownNameError
from sleuth.core.plugins import AS_JSON, Answer, CommandsPlugin, GameCommand
from sleuth.core.registry import GameSpec, builtin_game_names, game_names, game_spec, game_specs

if TYPE_CHECKING:
    from sleuth.core.plugins import Param


def option_parameter(param: Param) -> inspect.Parameter:
    """The Typer parameter of one plug-in option (choices become an Enum of strings)."""
    kind: Any = _choice_type(param) if param.choices else param.kind
    default: Any = param.default
    if param.required:
        default = inspect.Parameter.empty
    elif default is None:
        kind = kind | None
    elif param.choices:
        default = kind(default)
    flags = (param.flag, param.short) if param.short else (param.flag,)
    option = typer.Option(*flags, help=param.help, min=param.minimum)
    return inspect.Parameter(
        param.name, inspect.Parameter.KEYWORD_ONLY, default=default,
        annotation=Annotated[kind, option],
    )  # fmt: skip


def _choice_type(param: Param) -> type[Enum]:
    """An Enum of strings, one member per choice (Typer shows ``<a|b|c>``)."""
    name = param.name.title().replace("_", "")
    choices: type[Enum] = Enum(name, {c: c for c in param.choices}, type=str)  # type: ignore[misc]
    return choices


def generated_command(
    name: str,
    doc: str,
    parameters: list[inspect.Parameter],
    body: Callable[[dict[str, Any]], None],
) -> Callable[..., None]:
    """A command function named ``name`` with help ``doc`` and ``parameters``; it calls
    ``body`` with the values by parameter name (choices as plain strings)."""

    def command(**values: Any) -> None:
        body({k: v.value if isinstance(v, Enum) else v for k, v in values.items()})

    command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    command.__doc__ = doc
    command.__name__ = command.__qualname__ = name.replace("-", "_") + "_command"
    return command


CommandMaker = Callable[[GameSpec], Any]
"""Makes the command of one game in a :func:`games_group` (None: the game has none)."""


class GameCommands(LazyGroup):
    """A group of per-game commands, one per game for which :meth:`command_for` makes one,
    made on first use; ``plugin`` names what a game needs to be in it, and ``friendly`` says
    whether a game it does not hold is an error naming the games it does (else Typer's own
    "No such command", with a close name suggested)."""

    plugin = "a plug-in"
    friendly = True

    def command_for(self, spec: GameSpec) -> Any:
        """The command of ``spec``'s game in this group, made now (None: the game has none)."""
        return None

    def lazy_names(self, ctx: Any) -> list[str]:
        return [spec.name for spec in game_specs() if self.get_command(ctx, spec.name)]

    def make_command(self, ctx: Any, name: str) -> Any:
        try:
            spec = game_spec(name)
        except UnknownNameError:
            return None
        return self.command_for(spec)

    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[str | None, Any, list[str]]:
        name = args[0]
        if self.friendly and not name.startswith("-") and self.get_command(ctx, name) is None:
            having = ", ".join(self.list_commands(ctx)) or "none"
            if name in game_names():
                ctx.fail(f"{name} has no {self.plugin}; games with one: {having}")
            ctx.fail(f"unknown game {name!r}; games with a {self.plugin}: {having}")
        return super().resolve_command(ctx, args)


def games_group(
    plugin: str, help: str, command_for: CommandMaker, friendly: bool = True
) -> typer.Typer:
    """A Typer group of per-game commands made by ``command_for`` (see :class:`GameCommands`)
    whose errors say a game lacks ``plugin``."""

    def made(self: GameCommands, spec: GameSpec) -> Any:
        return command_for(spec)

    attributes = {"plugin": plugin, "friendly": friendly, "command_for": made}
    cls = type("GameCommands", (GameCommands,), attributes)
    return typer.Typer(cls=cls, help=help, no_args_is_help=True)


def game_commands(spec: GameSpec) -> CommandsPlugin | None:
    """The game's own commands named by ``spec.commands`` (None if the game has none)."""
    if spec.commands is None:
        return None
    module_name, _, attribute = spec.commands.partition(":")
    found = getattr(importlib.import_module(module_name), attribute or "COMMANDS", None)
    if not isinstance(found, CommandsPlugin):
        raise TypeError(f"game {spec.name!r}: {spec.commands} is not a CommandsPlugin")
    return found


def command_function(command: GameCommand) -> Callable[..., None]:
    """The Typer command function of one of a game's commands: its params as options; it
    prints the answer (its JSON object with ``--json``) or runs the session it answers on the
    shared table loop."""

    def body(values: dict[str, Any]) -> None:
        as_json = values.pop(AS_JSON.name) if AS_JSON in command.params else None
        answer = command.run(values)
        if not isinstance(answer, Answer):
            from sleuth.assist.repl import run_repl  # only when a session runs (start-up)

            run_repl(answer, console)
        elif as_json:
            if answer.json is None:
                raise TypeError(f"command {command.name!r} takes --json but answered no JSON")
            print_json(answer.json)
        else:
            console.print(answer.text)

    parameters = [option_parameter(p) for p in command.params]
    return generated_command(command.name, command.help, parameters, body)


def commands_app(commands: CommandsPlugin) -> typer.Typer:
    """The Typer app of a game's own commands (``sleuth GAME ...``)."""
    app = typer.Typer(help=commands.help, no_args_is_help=True)
    for command in commands.commands:
        app.command(command.name)(command_function(command))
    return app


BUILTIN_COMMANDS = {
    "fox": "Fox in a Hole: solve boards, compute game values, play the quantum fox.",
    "camel-up": "Camel Up tools: exact odds and advice.",
}
"""The built-in games that have their own commands (``GameSpec.commands``), with the help of
their group: ``sleuth --help`` lists them without importing the games.  A test checks this
against the games' specs and commands."""


def _game_group(name: str) -> TyperGroup | None:
    """The group of the game's own commands, made now (None if the game has none)."""
    found = game_commands(game_spec(name))
    return None if found is None else group_of(name, commands_app(found))


def _builtin_group(name: str) -> TyperGroup:
    """The group of a game of :data:`BUILTIN_COMMANDS`, made now."""
    group = _game_group(name)
    if group is None:
        raise TypeError(f"game {name!r} is in BUILTIN_COMMANDS but its spec names no commands")
    return group


class RootGroup(SleuthGroup, LazyGroup):
    """The root ``sleuth`` group: its own commands, then one group per game with commands of
    its own.  A built-in game's group is a :class:`~sleuth.cli.lazy.DeferredGroup` (its game is
    imported when it runs); a game registered or installed as a plug-in is imported when the
    commands are listed or its name is looked up."""

    def lazy_names(self, ctx: Any) -> list[str]:
        return [name for name in game_names() if self.get_command(ctx, name) is not None]

    def make_command(self, ctx: Any, name: str) -> Any:
        if name in BUILTIN_COMMANDS:
            return DeferredGroup(name, BUILTIN_COMMANDS[name], lambda: _builtin_group(name))
        if name in builtin_game_names():
            return None
        try:
            return _game_group(name)
        except UnknownNameError:
            return None
