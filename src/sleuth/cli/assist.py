"""``sleuth assist GAME``: a table-side assistant for a person at a real game."""

from __future__ import annotations

import typer

from sleuth.cli import camel_up, fugitive

app = typer.Typer(
    help="Table-side assistants: type what happens, see what follows.", no_args_is_help=True
)
app.command("fugitive")(fugitive.assist_command)
app.command("camel-up")(camel_up.assist_command)
