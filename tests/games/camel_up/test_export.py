"""One row per action (T1): replayed from stored actions, checked against the engine."""

from __future__ import annotations

import pytest

from sleuth.core.errors import IllegalActionError
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec
from sleuth.games.camel_up.export import action_rows, columns
from sleuth.games.camel_up.rules import CamelUpGame


def test_capped_games_have_forced_roll_rows() -> None:
    game = CamelUpGame(turn_cap=30, players=3)
    spec = game_spec("camel-up")
    record = run_match(game, [spec.bot("random")] * 3, seed=4, time_limit=None)
    actions = [str(step.action) for step in record.steps]
    rows = list(action_rows(game, 4, ["a", "b", "c"], actions))
    assert set(rows[0]) <= set(columns(3))
    forced = [r for r in rows if r["kind"] == "forced roll"]
    assert forced and all(r["capped"] for r in rows)
    assert [r["turn"] for r in rows[1:]] == list(range(1, len(rows)))
    assert all(r["bot"] == "abc"[r["seat"]] for r in rows[1:])
    final = record.final_state
    assert final is not None and rows[-1]["player0_money"] == final.money[0]


def test_bad_action_lists_name_the_action() -> None:
    game = CamelUpGame()
    start = "start 1:blue 2:green,orange 3:yellow,white"
    with pytest.raises(IllegalActionError, match=r"action 1 \('leg pink'\)"):
        list(action_rows(game, 0, ["x"] * 4, [start, "leg pink"]))
    with pytest.raises(IllegalActionError, match="do not finish the game"):
        list(action_rows(game, 0, ["x"] * 4, [start, "roll"]))
