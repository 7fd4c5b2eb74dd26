"""Games outside Sleuth: registered through an entry point of a real (tiny) distribution put
on ``sys.path``, found lazily, and a broken plug-in is a warning naming it, not a crash."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from sleuth.core import registry
from sleuth.core.errors import SleuthError, UnknownNameError
from sleuth.core.registry import PluginWarning, game_names, game_spec, game_specs

ENTRY_POINTS = """\
[sleuth.games]
tinygame = tiny_sleuth_game:SPEC
brokengame = tiny_sleuth_broken:SPEC
notaspec = tiny_sleuth_game:NOT_A_SPEC
fox = tiny_sleuth_game:SPEC
"""

GAME = """\
import dataclasses
from tests.core import toy
class TinyGame(toy.HighCard):
    name = "tinygame"
SPEC = dataclasses.replace(
    toy.SPEC, name="tinygame", description="a game from a plug-in",
    build=lambda values: TinyGame(values["cards"]),
)
RENAMED_ONLY = dataclasses.replace(toy.SPEC, name="renamedonly")
NOT_A_SPEC = 42
"""


@pytest.fixture
def distribution(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on ``sys.path`` holding one installed distribution with four game plug-ins:
    a good one, one whose module fails to import, one that is not a spec, and one that takes
    a built-in game's name.  The registry's state is restored afterwards."""
    info = tmp_path / "tiny_sleuth_game-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tiny-sleuth-game\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    (tmp_path / "tiny_sleuth_game.py").write_text(GAME)
    (tmp_path / "tiny_sleuth_broken.py").write_text("raise ImportError('no such thing')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_REGISTERED", dict(registry._REGISTERED))
    monkeypatch.setattr(registry, "_REFUSED", set())
    yield tmp_path
    sys.modules.pop("tiny_sleuth_game", None)


def test_a_plug_in_is_listed_and_imported_only_when_needed(distribution: Path) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        names = game_names()
    assert "tinygame" in names and "brokengame" in names
    assert names.count("fox") == 1  # the built-in game keeps its name
    assert [str(w.message) for w in caught] == [
        "game plug-in 'fox' (tiny_sleuth_game:SPEC) ignored: a built-in game has that name"
    ]
    assert "tiny_sleuth_game" not in sys.modules  # listed, not imported
    spec = game_spec("tinygame")
    assert spec.name == "tinygame" and spec.description == "a game from a plug-in"
    assert spec.make().num_players == 2  # a working game


def test_a_plug_in_whose_game_has_another_name_is_an_error_naming_both(distribution: Path) -> None:
    spec = registry._load_entry_point(
        importlib.metadata.EntryPoint(
            "renamedonly", "tiny_sleuth_game:RENAMED_ONLY", "sleuth.games"
        )
    )
    # its bots, logs and results would be looked up under 'highcard': "unknown bot ... for highcard"
    with pytest.raises(SleuthError, match="game 'renamedonly' builds a HighCard named 'highcard'"):
        spec.make()


def test_broken_plug_ins_warn_once_naming_themselves(distribution: Path) -> None:
    with pytest.warns(PluginWarning) as caught:
        specs = {s.name for s in game_specs()}
    assert "tinygame" in specs and {"fox", "fugitive", "camel-up"} <= specs
    assert "brokengame" not in specs and "notaspec" not in specs
    messages = sorted(str(w.message) for w in caught)
    assert any(
        m.startswith("game plug-in 'brokengame' (tiny_sleuth_broken:SPEC) not loaded")
        and "no such thing" in m
        for m in messages
    ), messages
    assert any("'notaspec'" in m and "int is not a GameSpec" in m for m in messages), messages
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no second warning
        assert "brokengame" not in game_names()
        with pytest.raises(UnknownNameError, match="unknown game 'brokengame'"):
            game_spec("brokengame")


def test_the_command_line_lists_a_plug_in_and_survives_a_broken_one(distribution: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    path = os.pathsep.join([str(distribution), str(root), os.environ.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", "from sleuth.cli import main; main()", "games"],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": path}, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "tinygame — a game from a plug-in" in done.stdout
    assert "warning: game plug-in 'brokengame'" in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.count("'brokengame'") == 1
