"""``sleuth export GAME``: stored games as flat tables for analysis elsewhere, for every game
whose commands module (``GameSpec.commands``) defines ``export_command``."""

from __future__ import annotations

import typer

from sleuth.cli.plugin_commands import commands_module
from sleuth.core.registry import game_specs

app = typer.Typer(help="Export stored games as flat tables (CSV).", no_args_is_help=True)

for _spec in game_specs():
    if (_found := commands_module(_spec)) is not None and hasattr(_found[1], "export_command"):
        app.command(_spec.name)(_found[1].export_command)
