"""``sleuth --version`` and how ``--help`` reads, for every command and sub-command."""

from __future__ import annotations

import importlib.metadata
import inspect
import re
from collections.abc import Iterator
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

import sleuth
from sleuth.cli.app import app
from sleuth.cli.lazy import subcommand

runner = CliRunner()
WIDE = {"COLUMNS": "200", "TERMINAL_WIDTH": "200", "NO_COLOR": "1"}


def _subcommands(command: Any) -> dict[str, Any]:
    """The commands of a group by name, as they run (those made on first use made now)."""
    if not hasattr(command, "list_commands"):  # a command, not a group
        return {}
    return {n: subcommand(command, n) for n in command.list_commands(typer.Context(command))}


def command_paths(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """The path of ``command`` and of every command below it, root first."""
    yield path
    for name, sub in _subcommands(command).items():
        yield from command_paths(sub, (*path, name))


def _find(command: Any, path: tuple[str, ...]) -> Any:
    for name in path:
        command = subcommand(command, name)
    return command


ROOT = typer.main.get_command(app)
PATHS = list(command_paths(ROOT))
COMMANDS = {path: _find(ROOT, path) for path in PATHS}


def test_the_tree_is_walked() -> None:
    assert ("fox", "solve") in PATHS and ("assist", "camel-up") in PATHS and () in PATHS


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout == f"sleuth {sleuth.__version__}\n"
    assert sleuth.__version__ == importlib.metadata.version("sleuth")  # one version everywhere
    with_command = runner.invoke(app, ["--version", "games"])  # eager: no command runs
    assert with_command.exit_code == 0 and with_command.stdout == result.stdout


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "sleuth")
def test_help_reads_well(path: tuple[str, ...]) -> None:
    result = runner.invoke(app, [*path, "--help"], env=WIDE)
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert re.search(r"--help +Show this message and exit\.", text)  # a flag takes no value
    assert "<bool>" not in text and "<list[" not in text  # Typer's raw type names
    assert "9223372036854775807" not in text  # the seed's bounds are in its help, in words
    if "--option" in text:
        assert re.search(r"--option +-o +NAME=VALUE ", text)
    for sub in _subcommands(COMMANDS[path]).values():  # the list of commands
        first = " ".join(inspect.cleandoc(sub.help or "").split("\n\n")[0].split())
        if len(first) < 150:  # one line at 200 columns, not broken where the docstring was
            assert first in text, first


def test_seed_bounds() -> None:
    too_big = runner.invoke(app, ["play", "fox", "--bots", "random,random", "--seed", str(2**63)])
    assert too_big.exit_code == 2 and f"{2**63} does not fit in 64 bits" in too_big.output
    largest = runner.invoke(
        app, ["play", "fox", "--bots", "random,random", "-n", "1", "-w", "1", "--no-db",
              "--seed", str(2**63 - 1), "--json"],
    )  # fmt: skip
    assert largest.exit_code == 0, largest.output
    smallest = runner.invoke(
        app, ["play", "fox", "--bots", "random,random", "-n", "1", "-w", "1", "--no-db",
              "--seed", str(-(2**63)), "--json"],
    )  # fmt: skip
    assert smallest.exit_code == 0, smallest.output


def test_help_prose_is_reflowed_and_structured_paragraphs_kept() -> None:
    """A docstring's paragraph of prose becomes one line for the terminal to wrap (it broke
    where the source line did: 'stops it within about a' / 'second, ...'); lists keep theirs."""
    from sleuth.cli.help import reflow

    text = """First line.

        Prose that goes on
        over two lines.

        - an item
        - another

        \f
        after the cut
        stays."""
    assert reflow(text) == (
        "First line.\n\nProse that goes on over two lines.\n\n- an item\n- another\n\n"
        "\f\nafter the cut\nstays."
    )
    result = runner.invoke(app, ["play", "--help"], env=WIDE)
    assert "stops it within about a second, keeping every finished game;" in result.stdout
