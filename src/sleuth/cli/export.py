"""``sleuth export GAME``: stored games as flat tables for analysis elsewhere."""

from __future__ import annotations

import typer

from sleuth.cli import camel_up

app = typer.Typer(help="Export stored games as flat tables (CSV).", no_args_is_help=True)
app.command("camel-up")(camel_up.export_command)
