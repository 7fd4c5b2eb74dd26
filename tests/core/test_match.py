from __future__ import annotations

import time
from collections.abc import Hashable, Sequence
from dataclasses import replace

import pytest

from sleuth.core import match
from sleuth.core.bots import BotSpec
from sleuth.core.events import View
from sleuth.core.game import CHANCE
from sleuth.core.match import DEFAULT_TIME_LIMIT, DefaultLimit, run_match, seat_limits
from sleuth.core.registry import game_spec, make_game
from tests.core import toy


def bots(*names: str) -> list[BotSpec]:
    return [toy.SPEC.bot(n) for n in names]


def test_same_seed_same_game_bit_for_bit() -> None:
    game = make_game("highcard")
    first = run_match(game, bots("peeker", "peeker"), seed=42)
    again = run_match(game, bots("peeker", "peeker"), seed=42)
    assert [(s.seat, s.action, s.events) for s in first.steps] == [
        (s.seat, s.action, s.events) for s in again.steps
    ]
    assert first.wins == again.wins


def test_different_seeds_give_different_deals() -> None:
    game = make_game("highcard", {"cards": 50})
    deals = {
        tuple(s.action for s in run_match(game, bots("caller", "caller"), seed=s).steps[:2])
        for s in range(20)
    }
    assert len(deals) > 10


def test_chance_steps_are_recorded_as_chance() -> None:
    record = run_match(make_game("highcard"), bots("caller", "caller"), seed=1)
    assert [s.seat for s in record.steps[:2]] == [CHANCE, CHANCE]
    assert record.length == len(record.steps) - 2


def test_views_hide_other_seats_cards() -> None:
    toy.Peeker.seen.clear()
    run_match(make_game("highcard"), bots("peeker", "peeker"), seed=3)
    assert toy.Peeker.seen
    for view in toy.Peeker.seen:
        for event in view.events:
            if event.kind == "dealt":
                mine = event.public["to"] == view.seat
                assert (event.private is not None) == mine


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("raise", "raised RuntimeError: boom"),
        ("illegal", "illegal action: 'dance'"),
        ("slow", "s of CPU time (limit 0.1 s per move)"),
        ("hang", "interrupted after 1.1 s of CPU time (limit 0.1 s per move)"),
        ("broken", "could not start: ZeroDivisionError"),
    ],
)
def test_misbehaving_bot_forfeits_and_the_match_goes_on(mode: str, reason: str) -> None:
    record = run_match(make_game("highcard"), bots(mode, "caller"), seed=5, time_limit=0.1)
    assert len(record.forfeits) == 1
    forfeit = record.forfeits[0]
    assert forfeit.seat == 0
    assert forfeit.bot == mode
    assert reason in forfeit.reason
    assert record.wins == (0.0, 1.0)
    assert "forfeit" in record.outcome


def test_the_limit_counts_cpu_time_so_a_bot_that_waits_does_not_forfeit() -> None:
    """A move's limit is the CPU time the bot used, which load does not change: a bot that
    sleeps 0.3 s (as one starved of CPU by a busy machine waits) keeps its seat under a 0.1 s
    limit; one that computes 0.3 s forfeits, and the reason says it was CPU time."""
    game = make_game("highcard")
    sleepy = run_match(game, bots("sleepy", "caller"), seed=5, time_limit=0.1)
    assert not sleepy.forfeits
    assert 0 <= sleepy.thinking[0][0] < 0.05  # its CPU time, not the 0.3 s it waited
    slow = run_match(game, bots("slow", "caller"), seed=5, time_limit=0.1)
    (forfeit,) = slow.forfeits
    used = float(forfeit.reason.split()[1])
    assert 0.3 <= used < 0.5
    assert forfeit.reason == f"used {used:.3f} s of CPU time (limit 0.1 s per move)"


def test_a_bot_that_waits_far_longer_than_its_limit_is_interrupted_by_the_wall_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(match, "WALL_FACTOR", 0.0)  # 30 times the limit by default
    monkeypatch.setattr(match, "WALL_LEAST", 0.5)  # at least 60 s by default
    assert match.hard_stops(2) == (10, 0.5)
    started = time.perf_counter()
    record = run_match(make_game("highcard"), bots("stuck", "caller"), seed=5, time_limit=2)
    assert 0.5 <= time.perf_counter() - started < 5  # the wall-clock stop, not the CPU one
    (forfeit,) = record.forfeits
    assert forfeit.reason == "interrupted after 0.5 s of wall-clock time (limit 2 s per move)"


def test_forfeit_in_either_seat_gives_the_other_the_win() -> None:
    records = [run_match(make_game("highcard"), bots("caller", "raise"), seed=s) for s in range(30)]
    forfeited = [r for r in records if r.forfeits]
    assert forfeited  # seat 1 only acts when seat 0 calls
    assert all(r.wins == (1.0, 0.0) and r.forfeits[0].seat == 1 for r in forfeited)


def test_wrong_number_of_bots_is_an_error() -> None:
    with pytest.raises(ValueError, match="needs 2 bots"):
        run_match(make_game("highcard"), bots("caller"), seed=0)


def test_ties_split_the_win() -> None:
    game = make_game("highcard", {"cards": 2})
    ties = [
        r for r in (run_match(game, bots("peeker", "peeker"), seed=s) for s in range(60))
        if r.wins == (0.5, 0.5)
    ]  # fmt: skip
    assert ties
    assert all(sum(r.wins) == 1.0 for r in ties)


def test_registry_lists_the_test_game() -> None:
    assert game_spec("highcard") is toy.SPEC


def test_a_cheating_action_that_fakes_equality_is_refused_by_the_engine() -> None:
    """An object that claims to equal every action passes a naive check, not the engine's."""

    class Liar:
        def __eq__(self, other: object) -> bool:
            return True

        def __hash__(self) -> int:
            return hash("call")

    class LiarBot(toy.Caller):
        def act(self, view, legal):  # type: ignore[no-untyped-def]
            return Liar()

    spec = BotSpec("liar", ("first", "second"), LiarBot, "returns a lying object")
    record = run_match(make_game("highcard"), [spec, toy.SPEC.bot("caller")], seed=0)
    assert record.forfeits and record.forfeits[0].seat == 0
    assert record.wins == (0.0, 1.0)


def test_actions_that_only_compare_equal_are_refused() -> None:
    """``True == 1`` and ``1.0 == 1``: such objects must not pass for legal fox actions."""
    from sleuth.core.bots import Bot
    from sleuth.games.fox.rules import FoxMove, Inspect

    class SneakyFox(Bot):
        def act(self, view, legal):  # type: ignore[no-untyped-def]
            return FoxMove(True)  # type: ignore[arg-type]

    class SneakyHunter(Bot):
        def act(self, view, legal):  # type: ignore[no-untyped-def]
            return Inspect((1.0,))  # type: ignore[arg-type]

    fox = game_spec("fox")
    game = make_game("fox")
    for hunter, foxbot, culprit in (
        (BotSpec("h", ("hunter",), SneakyHunter, ""), fox.bot("quantum"), 0),
        (fox.bot("random"), BotSpec("f", ("fox",), SneakyFox, ""), 1),
    ):
        record = run_match(game, [hunter, foxbot], seed=0)
        assert [f.seat for f in record.forfeits] == [culprit]
        assert "illegal action" in record.forfeits[0].reason


def test_bot_exiting_or_overlong_limits_do_not_stop_the_match() -> None:
    class Exiter(toy.Caller):
        def act(self, view, legal):  # type: ignore[no-untyped-def]
            raise SystemExit(3)

    spec = BotSpec("exit", ("first", "second"), Exiter, "")
    record = run_match(make_game("highcard"), [spec, toy.SPEC.bot("caller")], seed=0)
    assert "SystemExit" in record.forfeits[0].reason
    record = run_match(
        make_game("highcard"), bots("caller", "caller"), seed=0, time_limit=float("inf")
    )
    assert not record.forfeits


def test_every_bot_hears_the_end_of_the_game_with_the_final_reveal() -> None:
    from sleuth.games.fox.bots import QuantumFox, RandomHunter

    finals: dict[int, list[str]] = {}

    def recording(base: type) -> type:
        class Recording(base):  # type: ignore[valid-type, misc]
            def game_over(self, view):  # type: ignore[no-untyped-def]
                finals[self.seat] = [e.kind for e in view.events]

        return Recording

    hunter = BotSpec("h", ("hunter",), recording(RandomHunter), "")
    fox = BotSpec("f", ("fox",), recording(QuantumFox), "")
    run_match(make_game("fox", {"days": 3}), [hunter, fox], seed=1)
    assert set(finals) == {0, 1}
    assert all(kinds[-1] == "fox_path" for kinds in finals.values())


def test_a_bots_warm_up_runs_once_per_process_before_any_move_is_timed() -> None:
    calls: list[str] = []

    def slow_warm_up() -> None:  # like compiling kernels on a cold cache
        calls.append("warm-up")
        time.sleep(0.3)

    class Noted(toy.Caller):
        def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
            calls.append("move")
            return super().act(view, legal)

    caller = replace(toy.SPEC.bot("caller"), factory=Noted, warm_up=slow_warm_up)
    game = make_game("highcard")
    for seed in range(3):
        record = run_match(game, [caller, caller], seed=seed, time_limit=0.1)
        assert not record.forfeits  # a timed 0.3 s warm-up would forfeit at 0.1 s a move
    assert calls[0] == "warm-up" and calls.count("warm-up") == 1 and "move" in calls


def test_a_declared_move_budget_raises_the_default_limit_but_not_a_chosen_one() -> None:
    game = make_game("highcard")
    slow = toy.SPEC.bot("slow")  # 0.3 s a move
    patient = replace(slow, move_budget=0.6)
    default = DefaultLimit(0.1)
    assert seat_limits([patient, slow], default) == [0.6, 0.1]
    assert seat_limits([patient, slow], 0.1) == [0.1, 0.1]
    assert seat_limits([patient, slow], None) == [None, None]
    assert not run_match(game, [patient, patient], seed=1, time_limit=default).forfeits
    chosen = run_match(game, [patient, patient], seed=1, time_limit=0.1)
    assert [f.reason.endswith("(limit 0.1 s per move)") for f in chosen.forfeits] == [True]
    undeclared = run_match(game, [slow, slow], seed=1, time_limit=default)
    assert len(undeclared.forfeits) == 1


def test_the_default_limit_survives_pickling_and_a_budget_may_depend_on_options() -> None:
    import pickle

    assert isinstance(pickle.loads(pickle.dumps(DEFAULT_TIME_LIMIT)), DefaultLimit)
    assert float(DEFAULT_TIME_LIMIT) == 1.0
    spec = replace(
        game_spec("fox").bot("ismcts"), move_budget=lambda iterations, **_: iterations / 100
    )
    assert spec.budget() == 10.0
    assert spec.configured({"iterations": "50"}, "fox").budget() == 0.5


def test_in_a_game_that_goes_on_a_forfeiter_scores_0_and_its_lead_passes_on() -> None:
    """Camel Up goes on after a forfeit: the forfeiter scores 0, so the richest of the others
    wins (the richest seat forfeiting used to leave the game with no winner)."""
    import random

    from sleuth.core.game import TERMINAL
    from sleuth.core.match import Forfeit, final_result

    game = make_game("camel-up", {"players": 3})
    rng = random.Random(4)
    state = game.new_initial_state()
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    money = state.returns()
    richest = max(range(3), key=lambda s: money[s])
    others = sorted((s for s in range(3) if s != richest), key=lambda s: -money[s])
    assert money[others[0]] > money[others[1]]  # this seed has a clear second
    result = final_result(game, state, [Forfeit(richest, "raise", 5, "raised")])
    assert result.returns[richest] == 0.0 and result.wins[richest] == 0.0
    assert result.wins[others[0]] == 1.0 and result.winners == (game.sides()[others[0]],)
    assert f"forfeited, scoring 0: player (seat {richest})" in result.text
    assert final_result(game, state, []).wins[richest] == 1.0
