"""``sleuth export GAME``: stored games as flat tables for analysis elsewhere, for every game
whose commands module (``GameSpec.commands``) defines ``export_command``; a game's command is
made the first time it is run or listed (:func:`~sleuth.cli.plugin_commands.games_group`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sleuth.cli.lazy import command_of
from sleuth.cli.plugin_commands import commands_module, games_group

if TYPE_CHECKING:
    from sleuth.core.registry import GameSpec


def _command(spec: GameSpec) -> Any:
    """The ``sleuth export`` command of ``spec``'s game (None if its commands module has no
    ``export_command``)."""
    found = commands_module(spec)
    if found is None or not hasattr(found[1], "export_command"):
        return None
    return command_of(spec.name, found[1].export_command)


app = games_group(
    "table export", "Export stored games as flat tables (CSV).", _command, friendly=False
)
