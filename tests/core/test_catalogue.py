"""A game's catalogue (:class:`GameInfo`) and the spec made from it share one declaration.

``sleuth games`` lists the catalogues without importing any engine; these tests hold that the
listing says what the games that play do, and that a spec whose bots stray from its catalogue
is refused where it is made.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import subprocess
import sys

import pytest

from sleuth.core.bots import BotInfo
from sleuth.core.compiling import DISABLE_VARIABLE, kernels_compiled
from sleuth.core.registry import (
    GameInfo,
    builtin_game_names,
    game_info,
    game_infos,
    game_names,
    game_spec,
)
from tests.core import toy


@pytest.mark.parametrize("name", builtin_game_names())
def test_a_built_in_game_s_catalogue_is_what_its_spec_declares(name: str) -> None:
    info, spec = game_info(name), game_spec(name)
    assert GameInfo.of(spec) == info
    assert spec.options is info.options  # the same declarations, not copies
    for bot, declared in zip(spec.bots, info.bots, strict=True):
        assert bot.options is declared.options or bot.options == declared.options
        assert bot.budget() == declared.budget()


def test_every_game_is_listed_once_in_order() -> None:
    assert [info.name for info in game_infos()] == game_names()


def test_a_game_without_a_catalogue_is_read_from_its_spec() -> None:
    assert game_info(toy.SPEC.name) == GameInfo.of(toy.SPEC)


TOY = GameInfo.of(toy.SPEC)


def test_the_spec_made_from_a_catalogue_carries_it() -> None:
    spec = TOY.spec(build=toy.SPEC.build, bots=toy.SPEC.bots)
    assert GameInfo.of(spec) == TOY
    assert spec.make().name == toy.SPEC.name


@pytest.mark.parametrize(
    ("bots", "culprit"),
    [
        pytest.param(toy.SPEC.bots[:-1], "'broken'", id="one missing"),
        pytest.param(toy.SPEC.bots[::-1], "'broken'", id="reordered"),
        pytest.param(
            (*toy.SPEC.bots, BotInfo("extra", ("first",), "not declared").implemented(toy.Caller)),
            "'extra'",
            id="one more",
        ),
        pytest.param(
            (dataclasses.replace(toy.SPEC.bots[0], description="changed"), *toy.SPEC.bots[1:]),
            "'caller'",
            id="description changed",
        ),
        pytest.param(
            (dataclasses.replace(toy.SPEC.bots[0], move_budget=5.0), *toy.SPEC.bots[1:]),
            "'caller'",
            id="budget changed",
        ),
    ],
)
def test_a_spec_whose_bots_are_not_the_catalogue_s_is_refused(bots: tuple, culprit: str) -> None:
    with pytest.raises(ValueError, match=f"bot {culprit} is not the catalogue's"):
        TOY.spec(build=toy.SPEC.build, bots=bots)


def test_an_engine_asking_for_an_undeclared_bot_fails_naming_it() -> None:
    with pytest.raises(LookupError, match="declares no bot 'nosuch'"):
        TOY.bot("nosuch")


def test_a_bot_declaration_round_trips_through_the_playable_bot() -> None:
    declared = BotInfo("slow", ("first",), "thinks", toy.SPEC.bots[0].options, lambda **_: 3.0)
    made = declared.implemented(toy.Caller)
    assert BotInfo.of(made) == declared
    assert made.budget() == declared.budget() == 3.0


def test_whether_kernels_compile_is_known_without_numba() -> None:
    from sleuth.core.compiled import COMPILED

    assert kernels_compiled() == COMPILED
    probe = (
        "import sys; from sleuth.core.compiling import kernels_compiled; "
        "print(kernels_compiled(), 'numba' in sys.modules)"
    )
    for value, expected in (("1", "False False"), ("0", f"{COMPILED} False")):
        env = {**os.environ, DISABLE_VARIABLE: value}
        done = subprocess.run(
            [sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=60
        )
        assert done.stdout.split() == expected.split(), done.stderr


@pytest.mark.parametrize("name", builtin_game_names())
def test_a_built_in_game_package_hands_out_its_spec_and_nothing_else(name: str) -> None:
    package = importlib.import_module(f"sleuth.games.{name.replace('-', '_')}")
    made = importlib.import_module(f"{package.__name__}.spec")
    assert package.SPEC is made.SPEC is game_spec(name)
    if made.SPEC.search is not None:
        assert package.SEARCH is made.SEARCH is made.SPEC.search
    else:
        with pytest.raises(AttributeError, match=f"{package.__name__}' has no attribute 'SEARCH'"):
            package.SEARCH  # noqa: B018
    with pytest.raises(AttributeError, match=f"{package.__name__}' has no attribute 'BOTS'"):
        package.BOTS  # noqa: B018


def test_spec_on_first_use_imports_the_spec_module_only_when_asked() -> None:
    probe = (
        "import sys; from sleuth.games import fox; "
        "print('sleuth.games.fox.spec' in sys.modules, fox.SPEC.name, "
        "'sleuth.games.fox.spec' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120
    )
    assert done.stdout.split() == ["False", "fox", "True"], done.stderr
