"""The baseline of ``bench/fugitive_games.py``, ``bench/_plain_fugitive.py``, plays Fugitive:
hand-traced rules (F14, F21-F22, F26-F28) and, over a few hundred games, the same results as
Sleuth's ``random v random`` through ``run_match``."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from sleuth.core.match import run_match
from sleuth.games.fugitive import SPEC
from sleuth.games.fugitive.rules import FUGITIVE, FugitiveGame


def _load() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "bench" / "_plain_fugitive.py"
    spec = importlib.util.spec_from_file_location("_plain_fugitive", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


plain = _load()


def new_game(hand: set[int]) -> Any:
    game = plain.PlainFugitive(random.Random(0))
    game.hands[plain.FUGITIVE] = set(hand)
    return game


def test_setup_gives_the_fugitive_nine_cards() -> None:
    game = plain.PlainFugitive(random.Random(1))
    hand = game.hands[plain.FUGITIVE]
    assert len(hand) == 9 and {1, 2, 3, 42} <= hand
    assert [len(p) for p in game.piles] == [8, 12, 13]
    assert len(hand & set(range(4, 15))) == 3 and len(hand & set(range(15, 29))) == 2


def test_opening_dead_end_check_f14() -> None:
    game = new_game({1, 2, 3, 12, 13, 14, 15, 17, 42})
    assert not game.is_legal_placement(3, (1, 2))
    assert game.is_legal_placement(3, ())
    with pytest.raises(ValueError):
        game.place(3, (1, 2))


def test_guesses_are_all_or_nothing_and_miss_sprint_cards() -> None:
    game = new_game({1, 2, 3, 5, 42})
    game.place(1, ())
    game.place(5, (2,))  # 5 - 1 = 4 <= 3 + 2
    assert game.turn == plain.MARSHAL_DRAW
    game.draw(1)
    game.draw(1)
    assert not game.guess((1, 4))  # 4 is no hideout: nothing is revealed (F21)
    assert game.face_up == [True, False, False]
    game.draw(2)  # the Fugitive's draw
    game.pass_turn()
    game.draw(3)
    assert not game.guess((2,))  # a sprint card is not a hideout (F22)
    game.draw(2)
    game.pass_turn()
    game.draw(3)
    assert game.guess((1, 5))
    assert game.turn == plain.OVER and game.winner == plain.MARSHAL
    assert game.reason == "marshal_uncovered_route"


@pytest.mark.parametrize(("shown", "reason"), [(29, ""), (30, "escape_no_manhunt")])
def test_42_escapes_only_past_the_threshold_f26(shown: int, reason: str) -> None:
    game = new_game({1, 2, 3, 42})
    game.route, game.sprints, game.face_up = [0, shown, 40], [(), (), ()], [True, True, False]
    game.shown = {shown}
    game.turn = plain.FUGITIVE_PLACE
    game.place(42, ())  # 42 - 40 <= 3
    assert game.reason == reason
    if not reason:  # the Manhunt (F27): single numbers, the first miss loses
        assert game.turn == plain.MANHUNT
        with pytest.raises(ValueError):
            game.guess((40, 41))
        assert not game.guess((11,))
        assert game.winner == plain.FUGITIVE and game.reason == "manhunt_failed"


def test_draws_are_skipped_when_the_piles_are_empty() -> None:
    game = new_game({1, 2, 3, 42})
    game.piles = [[], [], []]
    game.place(1, ())
    game.place(3, ())
    assert game.turn == plain.MARSHAL_GUESS
    assert not game.guess((2,))
    assert game.turn == plain.FUGITIVE_PLACE


def test_plain_engine_plays_the_same_game_as_sleuth() -> None:
    """Fugitive wins, draws and actions per game within four standard errors of
    ``random v random`` through ``run_match`` (fixed seeds, so the test is deterministic)."""
    games = 300
    game = FugitiveGame(max_rounds=50)
    bots = [SPEC.bot("random"), SPEC.bot("random")]
    sleuth = []
    for seed in range(games):
        record = run_match(game, bots, seed, time_limit=None)
        sleuth.append(
            (record.returns[FUGITIVE] == 1.0, record.returns == (0.0, 0.0), record.length)
        )
    ours = []
    for seed in range(games):
        final, actions = plain.play_random_game(random.Random(seed), 50)
        ours.append((final.winner == plain.FUGITIVE, final.reason == "max_rounds", actions))
    for column in range(3):
        a = [float(row[column]) for row in sleuth]
        b = [float(row[column]) for row in ours]
        mean_a, mean_b = sum(a) / games, sum(b) / games
        var = sum((x - mean_a) ** 2 for x in a) + sum((x - mean_b) ** 2 for x in b)
        assert abs(mean_a - mean_b) <= 4 * (var / (games - 1) / games) ** 0.5 + 1e-9, column
