"""``sleuth export GAME``: stored games as flat tables for analysis elsewhere, for every game
whose own commands (``GameSpec.commands``) have an ``export``; a game's command is made the
first time it is run or listed (:func:`~sleuth.cli.plugin_commands.games_group`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sleuth.cli.lazy import command_of
from sleuth.cli.plugin_commands import command_function, game_commands, games_group

if TYPE_CHECKING:
    from sleuth.core.registry import GameSpec


def _command(spec: GameSpec) -> Any:
    """The ``sleuth export`` command of ``spec``'s game (None if its commands have no
    ``export``)."""
    found = game_commands(spec)
    if found is None or found.export is None:
        return None
    return command_of(spec.name, command_function(found.export))


app = games_group(
    "table export", "Export stored games as flat tables (CSV).", _command, friendly=False
)
