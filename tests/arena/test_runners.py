"""A tournament keeps one match runner per seating in each process (its fixed work once)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sleuth.arena import play
from sleuth.arena.play import play_game, runner_of
from sleuth.core.match import DEFAULT_TIME_LIMIT
from sleuth.core.registry import game_spec


def test_a_seating_keeps_its_runner_and_a_chosen_limit_is_not_the_default() -> None:
    options = game_spec("fox").make({}).options()
    seating = ("random", "random")
    runner = runner_of("fox", options, seating, DEFAULT_TIME_LIMIT)
    assert runner_of("fox", options, seating, DEFAULT_TIME_LIMIT) is runner
    chosen = runner_of("fox", options, seating, 1.0)  # equal to the default, but chosen
    assert chosen is not runner and chosen.limits == [1.0, 1.0]
    assert runner_of("fox", options, ("random", "quantum"), None) is not runner
    assert play_game("fox", options, (0, 5, seating), None, None).actions


def test_a_spec_registered_anew_gets_a_new_runner(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = game_spec("fox")
    options = spec.make({}).options()
    runner = runner_of("fox", options, ("random", "random"), None)
    renewed = replace(spec, bots=tuple(replace(b) for b in spec.bots))
    monkeypatch.setattr(play, "game_spec", lambda name: renewed)
    fresh = runner_of("fox", options, ("random", "random"), None)
    assert fresh is not runner and fresh.bots[0] is renewed.bots[0]
