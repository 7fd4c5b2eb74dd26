"""The command line starts without importing what a command does not need.

Importing every game (and Numba, NumPy, DuckDB, PySAT, rapidfuzz, ... behind them) takes about
a second; ``sleuth --help`` must not pay for it, ``sleuth play fox`` must not pay for the other
games, and no listing pays for the web app or for games' own commands.  Each case runs the
real entry point in a fresh interpreter and reads the modules it imported.  The speed itself
is measured by ``bench/cli_startup.py``, not here.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from sleuth.cli.app import app
from sleuth.cli.lazy import subcommand
from sleuth.cli.plugin_commands import BUILTIN_COMMANDS, game_commands
from sleuth.core.registry import builtin_game_names, game_spec
from tests.cli_helpers import check_error, entry
from tests.core import toy

HEAVY = ("numba", "llvmlite", "numpy", "scipy", "duckdb", "pysat", "rapidfuzz")
"""Libraries the games and the arena import, none needed to start the command line.  (Pydantic
is not among them: Typer itself imports it to build a command's options.)"""
WEB = ("fastapi", "starlette", "uvicorn", "jinja2", "sleuth.web")
RL = ("gymnasium", "pettingzoo", "sleuth.envs")
"""The ``rl`` extra and its adapters: imported by a learner's program only."""
GAMES = tuple(f"sleuth.games.{name.replace('-', '_')}" for name in builtin_game_names())
CATALOGUES = tuple(f"{package}.catalogue" for package in GAMES)
"""What ``sleuth games`` reads of each built-in game: its catalogue (and the package, which
imports none of the game's modules)."""


def engine_modules(modules: set[str]) -> list[str]:
    """The modules of ``modules`` in a game package other than the package and its catalogue:
    the engine (rules, bots, belief, ...)."""
    light = {*GAMES, *CATALOGUES}
    return sorted(m for m in modules if m.startswith(GAMES) and m not in light)


PROBE = """\
import json, sys
from sleuth.cli import main
sys.argv = ["sleuth", *json.loads(sys.argv[1])]
try:
    main()
except SystemExit:
    pass
with open(OUT, "w") as out:
    json.dump(sorted(sys.modules), out)
"""


def imported_by(
    args: list[str], tmp_path: Path, before: str = "", env: dict[str, str] | None = None
) -> set[str]:
    """The modules imported by running ``sleuth ARGS`` in a fresh interpreter (``before``:
    Python run first, in the same interpreter)."""
    out = tmp_path / "modules.json"
    out.unlink(missing_ok=True)  # a run that fails to write it must not read an earlier one
    code = before + f"\nOUT = {str(out)!r}\n" + PROBE
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(args)],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert out.exists(), done.stderr
    return set(json.loads(out.read_text()))


def loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    """The ``names`` that are among ``modules``, as packages (``numba`` covers ``numba.core``)."""
    return sorted(n for n in names if any(m == n or m.startswith(n + ".") for m in modules))


def test_the_probe_sees_what_an_import_loads(tmp_path: Path) -> None:
    """The checks below can fail: a game's engine imported before the command shows up with
    its libraries (a game package alone imports none of its modules:
    :func:`engine_modules`)."""
    modules = imported_by(["--version"], tmp_path, before="import sleuth.games.cluedo.spec")
    assert loaded(modules, GAMES) == ["sleuth.games.cluedo"]
    assert "sleuth.games.cluedo.rules" in engine_modules(modules)
    assert {"numpy", "rapidfuzz"} <= set(loaded(modules, HEAVY))
    assert "numba" not in modules  # kernels compile, and import Numba, on their first call


@pytest.mark.parametrize(
    "args", [["--help"], ["--version"], ["play", "--help"], ["foxx"]], ids=" ".join
)
def test_starting_imports_no_game_and_no_heavy_library(args: list[str], tmp_path: Path) -> None:
    modules = imported_by(args, tmp_path)
    assert "sleuth.cli.app" in modules  # the command line did start
    assert loaded(modules, GAMES) == []
    assert loaded(modules, (*HEAVY, *WEB, *RL, "sleuth.arena", "sleuth.assist")) == []


def test_playing_one_game_imports_no_other_game_and_no_database(tmp_path: Path) -> None:
    modules = imported_by(
        ["play", "fox", "--bots", "solver,quantum", "-n", "2", "-w", "1", "--no-db"], tmp_path
    )
    assert "sleuth.arena.tournament" in modules  # the tournament did run
    assert loaded(modules, GAMES) == ["sleuth.games.fox"]
    assert loaded(modules, ("numba", "duckdb", "pysat", "rapidfuzz", "scipy", *WEB, *RL)) == []


WORKER_PROBE = """\
import json, os, sys
import sleuth.arena.processes as processes
playing = processes.play_games
def play_games(*args, **kwargs):
    for row in playing(*args, **kwargs):
        with open(os.path.join(WORKERS, str(os.getpid())), "w") as out:
            json.dump(sorted(sys.modules), out)
        yield row
processes.play_games = play_games
"""
"""Run before ``sleuth play``: each worker process (forked from this one) writes the modules it
has after each game it plays to a file in the folder ``WORKERS``."""

COMPILED_LIBRARIES = ("numba", "llvmlite", "scipy")


@pytest.mark.parametrize("name", builtin_game_names())
def test_random_bots_import_no_compiler_in_the_process_or_its_workers(
    name: str, tmp_path: Path
) -> None:
    """No built-in random bot calls a kernel: ``sleuth play GAME --bots random,...`` loads
    neither Numba nor what it brings (llvmlite, SciPy: 0.7 s and 60 MiB a process), in the
    main process (one worker plays inline) nor in each of two worker processes."""
    bots = ",".join(["random"] * (3 if name == "cluedo" else 2))  # the fewest seats
    play = ["play", name, "--bots", bots, "--no-db", "--seed", "3"]
    inline = imported_by([*play, "-n", "1", "-w", "1"], tmp_path)
    assert "sleuth.arena.tournament" in inline  # the games did run
    assert loaded(inline, COMPILED_LIBRARIES) == []
    workers = tmp_path / "workers"
    workers.mkdir()
    before = f"WORKERS = {str(workers)!r}\n" + WORKER_PROBE
    parent = imported_by([*play, "-n", "4", "-w", "2"], tmp_path, before=before)
    assert loaded(parent, COMPILED_LIBRARIES) == []
    reports = list(workers.iterdir())
    assert reports  # the workers did play
    for report in reports:
        assert loaded(set(json.loads(report.read_text())), COMPILED_LIBRARIES) == []


def test_the_probe_sees_a_worker_that_loads_numba(tmp_path: Path) -> None:
    """The check above can fail: Camel Up's ``ev`` bot loads Numba in the workers (its warm-up
    runs in the parent, in the foreground, before they fork).  (Fugitive's ``belief`` no longer
    serves: on a cold cache it plays its plain programme while the kernel compiles elsewhere,
    so whether Numba is loaded depends on timing.)"""
    if importlib.util.find_spec("numba") is None:
        pytest.skip("Numba is not installed")
    workers = tmp_path / "workers"
    workers.mkdir()
    before = f"WORKERS = {str(workers)!r}\n" + WORKER_PROBE
    bots = "ev,random,random,random"
    play = ["play", "camel-up", "--bots", bots, "--no-db", "-n", "2", "-w", "2"]
    parent = imported_by(play, tmp_path, before=before)
    assert "numba" in loaded(parent, COMPILED_LIBRARIES)
    reports = list(workers.iterdir())
    assert reports
    for report in reports:
        assert "numba" in loaded(set(json.loads(report.read_text())), COMPILED_LIBRARIES)


@pytest.mark.parametrize("args", [["games"], ["games", "--json"]], ids=" ".join)
def test_listing_the_games_imports_no_engine_and_no_heavy_library(
    args: list[str], tmp_path: Path
) -> None:
    """``sleuth games`` reads every built-in game's catalogue and nothing behind it."""
    modules = imported_by(args, tmp_path)
    assert set(CATALOGUES) <= modules  # every game is listed
    assert engine_modules(modules) == []
    assert (
        loaded(modules, (*HEAVY, *WEB, "sleuth.arena", "sleuth.assist", "sleuth.core.compiled"))
        == []
    )
    assert loaded(modules, ("sleuth.search.players", "sleuth.search.tree")) == []


@pytest.mark.parametrize(
    ("args", "module"),
    [
        pytest.param(
            ["fox", "solve", "--graph", "path:3", "--json"], "sleuth.games.fox.commands", id="solve"
        ),
        pytest.param(["infer", "fox", "--help"], "sleuth.games.fox.plugins", id="infer"),
    ],
)
def test_a_game_command_imports_that_game_only(
    args: list[str], module: str, tmp_path: Path
) -> None:
    modules = imported_by(args, tmp_path)
    assert module in modules
    assert loaded(modules, GAMES) == ["sleuth.games.fox"]
    assert loaded(modules, ("numba", "duckdb", "pysat", "rapidfuzz", *WEB)) == []


NAME_ERRORS = [
    (["foxx"], ["No such command 'foxx'. Did you mean 'fox'?"]),
    (["camel-upp", "odds"], ["Did you mean 'camel-up'?"]),
    (["export", "camel-upp"], ["No such command 'camel-upp'. Did you mean 'camel-up'?"]),
    (["export", "fox"], ["No such command 'fox'."]),
    (["infer", "foxx"], ["unknown game 'foxx'; games with a belief for `sleuth infer`: fox,"]),
    (["assist", "fox"], ["fox has no table-side assistant; games with one: fugitive,"]),
    (["fox", "nosuch"], ["No such command 'nosuch'."]),
]
"""Mistyped or missing names at each level, and what the error must say."""


@pytest.mark.parametrize(
    ("args", "culprits"), [pytest.param(a, c, id=" ".join(a)) for a, c in NAME_ERRORS]
)
def test_a_name_not_made_yet_gets_the_same_errors(
    args: list[str], culprits: list[str], tmp_path: Path
) -> None:
    """Commands made on first use are known to errors and to Typer's close-name suggestions
    as if they had been made at start-up."""
    check_error(entry(*args, cwd=tmp_path), *culprits)


def test_the_builtin_commands_table_matches_the_games() -> None:
    """``sleuth --help`` shows :data:`BUILTIN_COMMANDS` for the games' own commands: it names
    exactly the built-in games with commands, with the help of their commands."""
    with_commands = {}
    for name in builtin_game_names():
        found = game_commands(game_spec(name))
        if found is not None:
            with_commands[name] = found.help
    assert with_commands == BUILTIN_COMMANDS
    root = typer.main.get_command(app)
    for name, help_text in BUILTIN_COMMANDS.items():
        assert subcommand(root, name).help == help_text  # the group that runs says the same


PLUGIN = """\
import dataclasses
from sleuth.core.plugins import Answer, CommandsPlugin, GameCommand
from tests.core import toy
HELLO = GameCommand("hello", "Say hello.", lambda values: Answer("hello from a plug-in"))
COMMANDS = CommandsPlugin(help="Tiny tools: say hello.", commands=(HELLO,))
SPEC = dataclasses.replace(toy.SPEC, name="tinycli", commands="tiny_cli_game:COMMANDS")
"""


@pytest.fixture
def plugin_env(tmp_path: Path) -> dict[str, str]:
    """An environment with one more installed game, ``tinycli``, a plug-in (an entry point)
    with its own commands."""
    info = tmp_path / "tiny_cli_game-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tiny-cli-game\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[sleuth.games]\ntinycli = tiny_cli_game:SPEC\n")
    (tmp_path / "tiny_cli_game.py").write_text(PLUGIN)
    root = Path(__file__).resolve().parents[1]
    path = os.pathsep.join([str(tmp_path), str(root), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path, "COLUMNS": "200", "NO_COLOR": "1"}


def test_a_plug_in_game_s_commands_are_listed_and_run(
    plugin_env: dict[str, str], tmp_path: Path
) -> None:
    def sleuth(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", "from sleuth.cli import main; main()", *args],
            cwd=tmp_path, env=plugin_env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip

    listed = sleuth("--help")
    assert listed.returncode == 0, listed.stderr
    assert "tinycli" in listed.stdout and "Tiny tools: say hello." in listed.stdout
    assert "fox " in listed.stdout and "camel-up " in listed.stdout  # the built-in ones too
    ran = sleuth("tinycli", "hello")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == "hello from a plug-in\n"
    typo = sleuth("tinycl")
    assert typo.returncode == 2 and "Did you mean 'tinycli'?" in typo.stderr


def test_a_plug_in_is_imported_only_when_the_games_are_listed(
    plugin_env: dict[str, str], tmp_path: Path
) -> None:
    playing = ["play", "fox", "--bots", "solver,quantum", "-n", "1", "-w", "1", "--no-db"]
    assert "tiny_cli_game" not in imported_by(playing, tmp_path, env=plugin_env)
    assert "tiny_cli_game" in imported_by(["--help"], tmp_path, env=plugin_env)


def test_a_plug_in_without_a_catalogue_is_listed_from_its_spec(
    plugin_env: dict[str, str], tmp_path: Path
) -> None:
    """``sleuth games`` imports a plug-in to read its spec (it declares no light catalogue),
    and still no built-in game's engine."""
    modules = imported_by(["games"], tmp_path, env=plugin_env)
    assert "tiny_cli_game" in modules
    assert engine_modules(modules) == []
    listed = subprocess.run(
        [sys.executable, "-c", "from sleuth.cli import main; main()", "games", "--json"],
        cwd=tmp_path, env=plugin_env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    games = {game["name"]: game for game in json.loads(listed.stdout)["games"]}
    assert list(games)[-1] == "tinycli" and "fox" in games
    assert [bot["name"] for bot in games["tinycli"]["bots"]] == [b.name for b in toy.SPEC.bots]
