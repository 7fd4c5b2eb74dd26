"""``sleuth assist GAME``: a table-side assistant for a person at a real game, for every game
with an assist plug-in (:class:`~sleuth.core.plugins.AssistPlugin`), on the shared loop; a
game's command is made the first time it is run or listed
(:func:`~sleuth.cli.plugin_commands.games_group`)."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from sleuth.cli.common import console
from sleuth.cli.lazy import command_of
from sleuth.cli.plugin_commands import games_group, generated_command, option_parameter
from sleuth.core.errors import OptionError
from sleuth.core.registry import parse_option_texts

if TYPE_CHECKING:
    from sleuth.core.plugins import AssistPlugin
    from sleuth.core.registry import GameSpec

COMMON = [
    inspect.Parameter(
        "option", inspect.Parameter.KEYWORD_ONLY, default=None,
        annotation=Annotated[list[str] | None, typer.Option(
            "--option", "-o", help="Game option name=value (repeatable).")],
    ),
    inspect.Parameter(
        "load", inspect.Parameter.KEYWORD_ONLY, default=None,
        annotation=Annotated[Path | None, typer.Option(
            "--load", help="Continue from a saved view log, or from a full game log (its view "
            "is taken).")],
    ),
]  # fmt: skip
"""The options of every assistant."""


def _assist(spec: GameSpec, plugin: AssistPlugin, values: dict[str, Any]) -> None:
    from sleuth.assist.repl import run_repl

    option: list[str] = values.pop("option") or []
    load: Path | None = values.pop("load")
    if load is not None:
        given = ["-o"] * bool(option) + [
            f"--{name.replace('_', '-')}" for name in plugin.load_sets if values[name] is not None
        ]
        if given:
            also = "".join(f" and {f'--{n}'.replace('_', '-')}" for n in plugin.load_sets)
            raise OptionError(
                f"--load takes the game's options{also} from the log: leave out {given[0]}"
            )
    game = spec.make(parse_option_texts(option))
    if plugin.check is not None:
        plugin.check(game, values)
    if plugin.prepare is not None:
        plugin.prepare(game)
    session = plugin.session(game, values)
    if load is not None:
        session.load(load)
    run_repl(session, console)


def _command(spec: GameSpec) -> Any:
    """The ``sleuth assist`` command of ``spec``'s game (None if it has no assist plug-in)."""
    plugin = spec.assist
    if plugin is None:
        return None
    parameters = [*COMMON, *(option_parameter(p) for p in plugin.params)]
    function = generated_command(
        spec.name, plugin.help, parameters, lambda v: _assist(spec, plugin, v)
    )
    return command_of(spec.name, function)


app = games_group(
    "table-side assistant", "Table-side assistants: type what happens, see what follows.", _command
)
