"""Bots from outside Sleuth for a built-in game: entry points of a real (tiny) distribution
put on ``sys.path``, listed with the game's own bots, played by ``sleuth play`` in worker
processes, and a broken one is a warning naming it, not a crash."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from sleuth.core import registry
from sleuth.core.errors import UnknownNameError
from sleuth.core.match import run_match
from sleuth.core.registry import PluginWarning, game_info, game_names, game_spec, make_game
from sleuth.games import fox

ENTRY_POINTS = """\
[sleuth.bots]
fox.greedy = tiny_sleuth_bots:GREEDY
fox.random = tiny_sleuth_bots:RANDOM_AGAIN
fox.misnamed = tiny_sleuth_bots:GREEDY
fox.notabot = tiny_sleuth_bots:NOT_A_BOT
fox.dragon = tiny_sleuth_bots:DRAGON
fox.broken = tiny_sleuth_broken_bots:BOT
fugitive.greedy = tiny_sleuth_bots:GREEDY
noprefix = tiny_sleuth_bots:GREEDY
chess.knight = tiny_sleuth_bots:GREEDY
fox.a,b = tiny_sleuth_bots:GREEDY
"""

BOTS = """\
import dataclasses
from sleuth.core.registry import game_spec
from sleuth.games.fox import SPEC
mine = game_spec("fox")  # asking for the game's spec while its bots load is allowed
GREEDY = dataclasses.replace(SPEC.bot("random"), name="greedy", description="a plug-in bot")
RANDOM_AGAIN = SPEC.bot("random")
DRAGON = dataclasses.replace(GREEDY, name="dragon", roles=("dragon",))
NOT_A_BOT = 42
"""

EXPECTED_WARNINGS = [
    "bot plug-in 'fox.random' (tiny_sleuth_bots:RANDOM_AGAIN) not loaded: fox already has a "
    "bot 'random'",
    "bot plug-in 'fox.misnamed' (tiny_sleuth_bots:GREEDY) not loaded: its spec is named 'greedy', "
    "not 'misnamed' as the entry point says",
    "bot plug-in 'fox.notabot' (tiny_sleuth_bots:NOT_A_BOT) not loaded: int is not a BotSpec",
    "bot plug-in 'fox.dragon' (tiny_sleuth_bots:DRAGON) not loaded: its roles ['dragon'] are not "
    "among fox's: hunter, fox",
    "bot plug-in 'fox.broken' (tiny_sleuth_broken_bots:BOT) not loaded: ImportError: no such "
    "module here",
]


def naming_warnings() -> list[str]:
    """The warnings of the entry points whose names are wrong (the games known depend on
    which test games this process has registered)."""
    return [
        "bot plug-in 'noprefix' (tiny_sleuth_bots:GREEDY) not loaded: its name must be "
        "GAME.BOT, the game's name, a dot and the bot's",
        "bot plug-in 'chess.knight' (tiny_sleuth_bots:GREEDY) not loaded: no game 'chess' "
        f"(known games: {', '.join(game_names())})",
        "bot plug-in 'fox.a,b' (tiny_sleuth_bots:GREEDY) not loaded: bot name 'a,b' must be "
        "letters, digits, '_' or '-' (for --bots)",
    ]


@pytest.fixture
def distribution(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on ``sys.path`` holding one installed distribution with bot plug-ins: a good
    fox bot (also named for Fugitive, whose roles it does not play), and five broken ones.
    The registry's state is restored afterwards."""
    info = tmp_path / "tiny_sleuth_bots-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tiny-sleuth-bots\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    (tmp_path / "tiny_sleuth_bots.py").write_text(BOTS)
    (tmp_path / "tiny_sleuth_broken_bots.py").write_text(
        "raise ImportError('no such module here')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_PLUGIN_BOTS", {})
    registry._bot_points.cache_clear()
    yield tmp_path
    registry._bot_points.cache_clear()
    sys.modules.pop("tiny_sleuth_bots", None)


def test_a_plug_in_bot_joins_the_games_bots_and_the_broken_ones_warn_once(
    distribution: Path,
) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        spec = game_spec("fox")
    assert [str(w.message) for w in caught] == naming_warnings() + EXPECTED_WARNINGS
    assert all(w.category is PluginWarning for w in caught)
    own = [b.name for b in fox.SPEC.bots]
    assert [b.name for b in spec.bots] == [*own, "greedy"]  # after the game's own
    assert game_info("fox").bot("greedy").description == "a plug-in bot"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no second warning
        assert game_spec("fox").bot("greedy").roles == ("hunter", "fox")
    game = make_game("fox", {"graph": "path:5"})
    record = run_match(game, [spec.bot("greedy"), spec.bot("random")], seed=3)
    assert record.outcome


def test_a_bot_for_roles_the_game_lacks_is_left_out_of_that_game(distribution: Path) -> None:
    with pytest.warns(PluginWarning):
        game_spec("fox")  # the plug-in's module asks for it: its warnings first
    with pytest.warns(PluginWarning, match="'fugitive.greedy'.*not among fugitive's"):
        spec = game_spec("fugitive")
    with pytest.raises(UnknownNameError, match="unknown bot 'greedy' for fugitive"):
        spec.bot("greedy")


def _sleuth(distribution: Path, *args: str) -> subprocess.CompletedProcess[str]:
    root = Path(__file__).resolve().parents[2]
    path = os.pathsep.join([str(distribution), str(root), os.environ.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-c", "from sleuth.cli import main; main()", *args],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": path}, check=False,
        cwd=distribution, timeout=300,
    )  # fmt: skip


def test_the_command_line_lists_and_plays_a_plug_in_bot(distribution: Path) -> None:
    listed = _sleuth(distribution, "games", "--json")
    assert listed.returncode == 0, listed.stderr
    fox = next(g for g in json.loads(listed.stdout)["games"] if g["name"] == "fox")
    assert fox["bots"][-1]["name"] == "greedy"
    assert "warning: bot plug-in 'fox.notabot'" in listed.stderr
    assert "Traceback" not in listed.stderr
    played = _sleuth(
        distribution, "play", "fox", "--bots", "greedy,random", "-n", "6", "-w", "2", "--no-db",
        "--json",
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    summary = json.loads(played.stdout)
    assert summary["games"] == 6 and summary["forfeits"] == 0, summary
