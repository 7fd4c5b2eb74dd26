"""A game's own commands are data (``core/plugins.py``) that the command line builds
(``cli/plugin_commands.py``): their params become options, their answers are printed."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest
from typer.testing import CliRunner

from sleuth.cli.plugin_commands import commands_app
from sleuth.core.plugins import AS_JSON, Answer, CommandsPlugin, GameCommand, Param

runner = CliRunner()


def _add(values: Mapping[str, Any]) -> Answer:
    total = values["a"] + values["b"]
    return Answer(f"{values['a']} + {values['b']} = {total}", {"sum": total})


COMMANDS = CommandsPlugin(
    help="Toy tools.",
    commands=(
        GameCommand(
            "add",
            "Add two numbers.",
            _add,
            (
                Param("a", "The first.", kind=int, minimum=0, short="-a", required=True),
                AS_JSON,
                Param("b", "The second.", kind=int, default=2),
            ),
        ),
        GameCommand("broken", "Takes --json, answers none.", lambda v: Answer("text"), (AS_JSON,)),
    ),
)
APP = commands_app(COMMANDS)


def test_params_become_options_and_the_answer_is_printed() -> None:
    assert runner.invoke(APP, ["add", "-a", "3"]).stdout == "3 + 2 = 5\n"
    assert json.loads(runner.invoke(APP, ["add", "--a", "3", "--b", "4", "--json"]).stdout) == {
        "sum": 7
    }


def test_a_required_option_and_a_minimum_are_enforced() -> None:
    missing = runner.invoke(APP, ["add", "--b", "1"])
    assert missing.exit_code == 2 and "Missing option '--a'" in missing.output
    negative = runner.invoke(APP, ["add", "-a", "-1"])
    assert negative.exit_code == 2
    assert "greater than or equal to 0" in " ".join(negative.output.replace("│", " ").split())


def test_a_command_that_takes_json_must_answer_json() -> None:
    result = runner.invoke(APP, ["broken", "--json"])
    assert isinstance(result.exception, TypeError)
    assert "command 'broken' takes --json but answered no JSON" in str(result.exception)


@pytest.mark.parametrize(
    ("kwargs", "problem"),
    [
        ({"short": "g"}, "parameter graph: short flag 'g' is not '-x'"),
        ({"short": "--g"}, "parameter graph: short flag '--g' is not '-x'"),
        ({"required": True, "default": "path:5"}, "parameter graph: required, so it has no"),
    ],
)
def test_a_bad_param_is_refused_naming_it(kwargs: dict[str, Any], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        Param("graph", "The board.", **kwargs)
