"""``sleuth infer GAME``: a seat's belief after a log, for every game with an infer plug-in
(:class:`~sleuth.core.plugins.InferPlugin`); a game's command is made the first time it is
run or listed (:func:`~sleuth.cli.plugin_commands.games_group`)."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from sleuth.cli.common import console, print_json
from sleuth.cli.lazy import command_of
from sleuth.cli.plugin_commands import games_group, generated_command, option_parameter
from sleuth.core.errors import LogError, SleuthError

if TYPE_CHECKING:
    from sleuth.core.plugins import InferPlugin
    from sleuth.core.registry import GameSpec


def _option(name: str, annotation: Any, default: Any = None) -> inspect.Parameter:
    return inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
    )


def _parameters(spec: GameSpec, plugin: InferPlugin) -> list[inspect.Parameter]:
    role = plugin.role + ("'" if plugin.role.endswith("s") else "'s")
    common = [
        _option("log", Annotated[Path, typer.Option(
            "--log", help=f"The {role} view log (as an assistant saves it) or a full game "
            "log (sleuth play --logs).")], inspect.Parameter.empty),
        _option("events", Annotated[int | None, typer.Option(
            "--events", min=0, help="Use only the first N events of the view.")]),
        _option("as_json", Annotated[bool, typer.Option(
            "--json", help="Print one JSON object.")], False),
    ]  # fmt: skip
    if plugin.by_seat:
        common.append(_option("seat", Annotated[int | None, typer.Option(
            "--seat", min=0, help="The seat whose view to read from a full game log, counted "
            "from 0 (default: the first); a view log is its own seat's.")]))  # fmt: skip
    return [*common, *(option_parameter(p) for p in plugin.params)]


def _infer(spec: GameSpec, plugin: InferPlugin, values: dict[str, Any]) -> None:
    from sleuth.core.viewlog import read_view_log  # pydantic and the log models: when run

    log: Path = values.pop("log")
    events: int | None = values.pop("events")
    as_json: bool = values.pop("as_json")
    roles = (plugin.role, *plugin.also)
    view = read_view_log(log, roles, spec.name, seat=values.pop("seat", None))
    if events is not None and events > len(view.events):
        owner = f"{plugin.role}'" if plugin.role.endswith("s") else f"{plugin.role}'s"
        count = len(view.events)
        raise SleuthError(
            f"--events {events}: the {owner} view in {log} has only {count} "
            f"event{'' if count == 1 else 's'}"
        )
    if plugin.prepare is not None:
        plugin.prepare()
    try:
        inferred = plugin.run(view, events, values)
    except LogError:
        raise  # it names the file already
    except SleuthError as exc:
        raise SleuthError(f"{log}: {exc}") from None
    if as_json:
        print_json(inferred.to_json())
    else:
        console.print(inferred.render())


def _command(spec: GameSpec) -> Any:
    """The ``sleuth infer`` command of ``spec``'s game (None if it has no infer plug-in)."""
    plugin = spec.infer
    if plugin is None:
        return None
    function = generated_command(
        spec.name, plugin.help, _parameters(spec, plugin), lambda v: _infer(spec, plugin, v)
    )
    return command_of(spec.name, function)


app = games_group(
    "belief for `sleuth infer`", "Exact deduction from a log: what a seat can know.", _command
)
