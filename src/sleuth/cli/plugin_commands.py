"""The per-game commands of ``infer`` and ``assist``, built from the games' plug-ins.

A plug-in's :class:`~sleuth.core.plugins.Param` values become ``--name`` options:
:func:`generated_command` returns a function with the signature Typer reads (every parameter
``Annotated`` with its ``typer.Option``), whose body gets the values by name.
:func:`games_group` is the group holding one such command per game; a game it does not hold
is a precise error listing the games it does.  :func:`commands_module` loads a game's own
sub-commands (``GameSpec.commands``).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from enum import Enum
from types import ModuleType
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from sleuth.core.plugins import Param
from sleuth.core.registry import GameSpec, game_names


def option_parameter(param: Param) -> inspect.Parameter:
    """The Typer parameter of one plug-in option (choices become an Enum of strings)."""
    kind: Any = _choice_type(param) if param.choices else param.kind
    default: Any = param.default
    if default is None:
        kind = kind | None
    elif param.choices:
        default = kind(default)
    option = typer.Option(param.flag, help=param.help, min=param.minimum)
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


class GameCommands(TyperGroup):
    """A group of per-game commands; ``plugin`` names what a game needs to be in it."""

    plugin = "a plug-in"

    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[str | None, Any, list[str]]:
        name = args[0]
        if self.get_command(ctx, name) is None and not name.startswith("-"):
            having = ", ".join(self.commands) or "none"
            if name in game_names():
                ctx.fail(f"{name} has no {self.plugin}; games with one: {having}")
            ctx.fail(f"unknown game {name!r}; games with a {self.plugin}: {having}")
        return super().resolve_command(ctx, args)


def games_group(plugin: str, help: str) -> typer.Typer:
    """An empty Typer group of per-game commands whose errors say a game lacks ``plugin``."""
    cls = type("GameCommands", (GameCommands,), {"plugin": plugin})
    return typer.Typer(cls=cls, help=help, no_args_is_help=True)


def commands_module(spec: GameSpec) -> tuple[typer.Typer, ModuleType] | None:
    """The Typer app named by ``spec.commands`` and its module (None if the game has none)."""
    if spec.commands is None:
        return None
    module_name, _, attribute = spec.commands.partition(":")
    module = importlib.import_module(module_name)
    found = getattr(module, attribute or "app", None)
    if not isinstance(found, typer.Typer):
        raise TypeError(f"game {spec.name!r}: {spec.commands} is not a Typer app")
    return found, module
