"""``sleuth export``: the results file's tables as Parquet (``sleuth export --parquet DIR``),
and ``sleuth export GAME``: stored games as flat tables for analysis elsewhere, for every game
whose own commands (``GameSpec.commands``) have an ``export``; a game's command is made the
first time it is run or listed (:func:`~sleuth.cli.plugin_commands.games_group`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from sleuth.cli.common import DEFAULT_DB, console
from sleuth.cli.lazy import command_of
from sleuth.cli.plugin_commands import command_function, game_commands, games_group
from sleuth.core.errors import SleuthError

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
    "table export",
    "Export the results file's tables as Parquet (--parquet DIR), or a game's stored games "
    "as flat tables (sleuth export GAME ...).",
    _command,
    friendly=False,
)


@app.callback(invoke_without_command=True)
def export_tables(
    ctx: typer.Context,
    db: Annotated[Path, typer.Option("--db", help="DuckDB results file.")] = DEFAULT_DB,
    parquet: Annotated[
        Path | None,
        typer.Option("--parquet", help="Write each table to DIR/TABLE.parquet.", metavar="DIR"),
    ] = None,
    table: Annotated[
        list[str] | None,
        typer.Option(
            "--table", help="Only this table (repeatable). Default: every table.", metavar="TABLE"
        ),
    ] = None,
) -> None:
    """With --parquet, write tables of the results file (runs, games, ratings) as Parquet."""
    if ctx.invoked_subcommand is not None:
        if parquet is not None or table:
            raise SleuthError(
                f"--parquet and --table export the results file's tables: give them without "
                f"the game ({ctx.invoked_subcommand})"
            )
        return
    if parquet is None:
        raise SleuthError("give --parquet DIR (the results file's tables) or a game to export")
    from sleuth.arena.parquet import export_parquet

    written = export_parquet(db, parquet, table or ())
    names = ", ".join(f"{name} ({path})" for name, path in written.items())
    console.print(f"{len(written)} table{'' if len(written) == 1 else 's'} of {db}: {names}")
