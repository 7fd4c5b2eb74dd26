"""Commands made on first use, so that ``sleuth`` starts without importing every game.

The command line holds five games and their plug-ins; importing them all (and Numba, NumPy,
DuckDB, ... behind them) costs about a second, which ``sleuth --help`` or ``sleuth play fox``
should not pay.  Two kinds of group make their commands only when asked:

- :class:`LazyGroup` lists some of its commands by name (:meth:`LazyGroup.lazy_names`) and
  makes one (:meth:`LazyGroup.make_command`) the first time it is looked up.  Running
  ``sleuth infer fox`` makes only the fox command; listing the commands (``--help``, an error
  naming the games that have one) makes them all.
- :class:`DeferredGroup` stands in the command tree for a group whose making imports a lot (a
  game's own commands): it carries the name and help shown in its parent's list, and hands
  over to the real group, made then, as soon as it is run or its commands are asked for.

Invariant: what a user sees — help, errors, suggestions for a mistyped name, the answers — is
the same as if every command had been made at start-up.  Code that walks the command tree goes
through :meth:`~typer.core.TyperGroup.list_commands` and :func:`subcommand` (not a group's
``commands`` dictionary, which holds only what is made so far).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import typer
from typer.core import TyperGroup

from sleuth.cli.help import tidy_help


def command_of(name: str, function: Callable[..., Any]) -> Any:
    """The Click command Typer makes of ``function`` when it is registered as ``name``."""
    holder = typer.Typer(add_completion=False)
    holder.command(name)(function)
    return typer.main.get_command(holder)


def group_of(name: str, app: typer.Typer) -> TyperGroup:
    """The Click group Typer makes of ``app`` when it is added under ``name``."""
    group = typer.main.get_group(app)
    group.name = name
    return group


class LazyGroup(TyperGroup):
    """A Typer group whose commands past the ones it was built with are made on first use.

    Subclasses name those commands (:meth:`lazy_names`, in listing order) and make one by name
    (:meth:`make_command`, None when there is no such command).  A command made is tidied
    (:func:`~sleuth.cli.help.tidy_help`) and kept: it is made at most once per group.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.built_with = list(self.commands)
        """The commands given when the group was built (listed first, in their order)."""

    def lazy_names(self, ctx: Any) -> list[str]:
        """The names of the commands made on first use, in the order they are listed."""
        return []

    def make_command(self, ctx: Any, name: str) -> Any:
        """The command called ``name`` among :meth:`lazy_names`, made now (None if none)."""
        return None

    def list_commands(self, ctx: Any) -> list[str]:
        lazy = [name for name in self.lazy_names(ctx) if name not in self.built_with]
        return [*self.built_with, *lazy]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        found = self.commands.get(cmd_name)
        if found is None:
            found = self.make_command(ctx, cmd_name)
            if found is not None:
                tidy_help(found)
                self.commands[cmd_name] = found
        return found

    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[str | None, Any, list[str]]:
        if args and self.get_command(ctx, args[0]) is None:
            for name in self.list_commands(ctx):  # Typer suggests a close name among the
                self.get_command(ctx, name)  # commands made: make them all first
        return super().resolve_command(ctx, args)


class DeferredGroup(TyperGroup):
    """The stand-in of a group made only when it is used: its name and help are known in
    advance (for its parent's list of commands); :meth:`real` makes the group (once), and
    running it, listing or looking up its commands all go to that group."""

    def __init__(self, name: str, help: str, make: Callable[[], TyperGroup]) -> None:
        super().__init__(name=name, help=help)
        self._make = make
        self._real: TyperGroup | None = None

    def real(self) -> TyperGroup:
        """The group this one stands for, made (and tidied) the first time it is asked for."""
        if self._real is None:
            self._real = self._make()
            tidy_help(self._real)
        return self._real

    def make_context(
        self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any
    ) -> Any:
        return self.real().make_context(info_name, args, parent=parent, **extra)

    def list_commands(self, ctx: Any) -> list[str]:
        return self.real().list_commands(ctx)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        return self.real().get_command(ctx, cmd_name)


def subcommand(group: Any, name: str) -> Any:
    """The command ``name`` of ``group`` as it runs (made now if it is made on first use; the
    real group for a :class:`DeferredGroup`), or None."""
    found = group.get_command(typer.Context(group), name)
    return found.real() if isinstance(found, DeferredGroup) else found
