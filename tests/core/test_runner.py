"""The match runner's fixed work done once (MatchRunner, hard_stopping) and its fast path for
actions the engine listed, with the records and the safety checks unchanged."""

from __future__ import annotations

import random
import signal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sleuth.core import bots, match
from sleuth.core.bots import Bot, BotSpec
from sleuth.core.match import MatchRecord, MatchRunner, hard_stopping, run_match
from sleuth.core.registry import game_spec, make_game
from sleuth.core.rng import derive_last, derive_seed
from tests.core import toy

GAMES = ("fox", "fugitive", "camel-up", "scotland-yard", "cluedo")


def moves(record: MatchRecord) -> list[tuple[int, str, type, tuple[Any, ...]]]:
    return [(s.seat, str(s.action), type(s.action), s.events) for s in record.steps]


@pytest.mark.parametrize("name", GAMES)
def test_a_runner_plays_each_seed_as_run_match_does(name: str) -> None:
    spec = game_spec(name)
    game = spec.make({})
    bots = [spec.bot("random")] * game.num_players
    runner = MatchRunner(game, bots)
    for seed in (3, 4):
        alone, kept = run_match(game, bots, seed), runner.play(seed)
        assert moves(alone) == moves(kept) and alone.result == kept.result
        assert not kept.forfeits


def test_the_game_information_is_frozen_once_per_runner(monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game("highcard")
    calls: list[int] = []
    original = type(game).public_info
    monkeypatch.setattr(type(game), "public_info", lambda g: calls.append(1) or original(g))
    runner = MatchRunner(game, [toy.SPEC.bot("peeker")] * 2)
    records = [runner.play(seed) for seed in range(5)]
    assert len(calls) == 1
    assert len({id(r.steps[0].events) for r in records}) == 5  # the records are their own


def test_listed_actions_are_applied_without_their_text_round_trip(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Bots that answer with an object of the legal actions: nothing is parsed, and the record
    is the one the text round trip gave (the same actions, of the same types, as text)."""
    spec = game_spec("fox")
    game = make_game("fox")
    bots = [spec.bot("random")] * 2
    before = [moves(run_match(game, bots, seed)) for seed in range(5)]

    def refused(text: str) -> None:
        raise AssertionError(f"parsed {text!r}")

    monkeypatch.setattr(game, "parse_action", refused)
    assert [moves(run_match(game, bots, seed)) for seed in range(5)] == before


def test_an_equal_action_that_is_not_listed_still_goes_through_its_text() -> None:
    """A bot may build its action: it is parsed back, so the engine's own object is applied."""
    from sleuth.games.fox.rules import FoxMove, Inspect

    class Builder(Bot):
        def act(self, view, legal):  # type: ignore[no-untyped-def]
            first = legal[-1]
            return Inspect(first.holes) if isinstance(first, Inspect) else FoxMove(first.hole)

    builder = BotSpec("b", ("hunter", "fox"), Builder, "builds its actions")
    record = run_match(make_game("fox"), [builder, builder], seed=2)
    assert not record.forfeits and record.length > 1


def handlers_installed(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    installed: list[object] = []
    original = signal.signal

    def counting(signum: int, handler: Any) -> Any:
        if signum == signal.SIGALRM:
            installed.append(handler)
        return original(signum, handler)

    monkeypatch.setattr(signal, "signal", counting)
    return installed


def test_inside_hard_stopping_matches_install_no_signal_handler(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    installed = handlers_installed(monkeypatch)
    game = make_game("highcard")
    runner = MatchRunner(game, [toy.SPEC.bot("caller")] * 2, time_limit=0.1)
    for seed in range(3):
        runner.play(seed)
    assert len(installed) == 6  # outside a block: each match installs and restores
    installed.clear()
    before = signal.getsignal(signal.SIGALRM)
    with hard_stopping():
        for seed in range(20):
            runner.play(seed)
        with hard_stopping():  # a nested block shares the outer one's handler
            runner.play(0)
    assert len(installed) == 2  # the block's handler, then the one before it
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # no timer left pending


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("hang", "interrupted after 1.1 s of CPU time (limit 0.1 s per move)"),
        ("stuck", "interrupted after 0.5 s of wall-clock time (limit 2 s per move)"),
    ],
)
def test_inside_hard_stopping_a_runaway_bot_is_still_interrupted_and_named(
    monkeypatch: pytest.MonkeyPatch, mode: str, reason: str
) -> None:
    if mode == "stuck":  # a wall-clock stop at 0.5 s, not 60 s
        monkeypatch.setattr(match, "WALL_FACTOR", 0.0)
        monkeypatch.setattr(match, "WALL_LEAST", 0.5)
    limit = 0.1 if mode == "hang" else 2
    runner = MatchRunner(make_game("highcard"), [toy.SPEC.bot(mode), toy.SPEC.bot("caller")], limit)
    with hard_stopping():
        caller = MatchRunner(make_game("highcard"), [toy.SPEC.bot("caller")] * 2, limit)
        for seed in range(3):
            assert not caller.play(seed).forfeits  # a timer armed by these stays harmless
        (forfeit,) = runner.play(5).forfeits
        assert forfeit.reason == reason
        assert not caller.play(6).forfeits


def test_run_match_reuses_its_runner_while_called_with_the_same_game_bots_and_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = make_game("highcard")
    calls: list[int] = []
    original = type(game).public_info
    monkeypatch.setattr(type(game), "public_info", lambda g: calls.append(1) or original(g))
    bots = [toy.SPEC.bot("peeker")] * 2
    records = [run_match(game, list(bots), seed) for seed in range(4)]
    assert len(calls) == 1
    assert [moves(r) for r in records] == [moves(MatchRunner(game, bots).play(s)) for s in range(4)]
    calls.clear()
    run_match(game, bots, 0, time_limit=1.0)  # the user's 1.0, not the default limit it equals
    run_match(game, bots, 0, time_limit=1.0)
    run_match(game, [toy.SPEC.bot("peeker"), toy.SPEC.bot("caller")], 0, time_limit=1.0)
    run_match(make_game("highcard"), bots, 0, time_limit=1.0)
    assert len(calls) == 3  # a new limit, new bots, a new game: each a new runner


@given(st.integers(-(2**70), 2**70), st.sampled_from(["decision", "bot", "x:y"]), st.integers())
def test_derive_last_is_derive_seed(master: int, label: str, last: int) -> None:
    assert derive_last(master, label, last) == derive_seed(master, label, last)


def test_a_bot_seeds_its_generator_once_per_decision_and_not_when_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The generator is made on the first reseed (or read), with the stream it had when the
    constructor made it: the decisions and a stream read before any decision are unchanged."""
    seeded: list[object] = []

    class Counting(random.Random):
        def seed(self, *args: Any, **kwargs: Any) -> None:
            seeded.append(args)
            super().seed(*args, **kwargs)

    monkeypatch.setattr(bots.random, "Random", Counting)
    spec = game_spec("fox")
    game = make_game("fox")
    record = run_match(game, [spec.bot("random")] * 2, seed=4)
    decisions = sum(len(seat) for seat in record.thinking)
    assert len(seeded) == decisions
    monkeypatch.undo()
    assert moves(record) == moves(MatchRunner(game, [spec.bot("random")] * 2).play(4))
    early = spec.bot("random").make(game, 0, 77)
    assert early.rng.random() == random.Random(77).random()
