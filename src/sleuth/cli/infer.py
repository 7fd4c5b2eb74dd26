"""``sleuth infer GAME``: a seat's exact deduction from a log."""

from __future__ import annotations

import typer

from sleuth.cli import fugitive

app = typer.Typer(help="Exact deduction from a log: what a seat can know.", no_args_is_help=True)
app.command("fugitive")(fugitive.infer_command)
