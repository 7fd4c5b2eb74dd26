"""Camel Up bots through the match runner: the greedy bot beats random ones, bots see only
their view, and a misbehaving bot forfeits while the game goes on (T5)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from typing import ClassVar

from sleuth.arena.tournament import run_tournament, schedule
from sleuth.core.bots import Bot, BotSpec
from sleuth.core.events import View
from sleuth.core.match import run_match
from sleuth.games.camel_up import SPEC
from sleuth.games.camel_up.actions import CamelAction, OverallBet
from sleuth.games.camel_up.belief import TableTracker
from sleuth.games.camel_up.bots import CamelBot
from sleuth.games.camel_up.rules import HIDDEN, CamelState, CamelUpGame


def test_the_greedy_bot_beats_three_random_bots() -> None:
    result = run_tournament("camel-up", ["ev", "random", "random", "random"], 24, workers=1)
    ev = next(s for s in result.standings() if s.bot == "ev")
    assert ev.games == 24 and ev.wins >= 18 and result.forfeits == 0


class Spy(CamelBot):
    """Records what it sees of other players' overall cards; bets overall whenever it can."""

    seen: ClassVar[list[int]] = []

    def decide(self, state: CamelState) -> CamelAction:
        for pile in state.piles:
            Spy.seen += [camel for seat, camel in pile if seat != self.seat]
        bets = [a for a in state.legal_actions() if isinstance(a, OverallBet)]
        return bets[0] if bets else state.legal_actions()[0]


def test_bots_never_see_other_players_overall_cards() -> None:
    spy = BotSpec("spy", ("player",), Spy, "test")
    Spy.seen = []
    run_match(CamelUpGame(players=3), [spy, spy, spy], seed=3)
    assert Spy.seen and set(Spy.seen) == {HIDDEN}


class Crasher(Bot):
    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        if len(view.events) > 30:
            raise RuntimeError("boom")
        return legal[0]


def test_a_crashing_bot_forfeits_and_its_seat_rolls_on() -> None:
    crasher = BotSpec("crasher", ("player",), Crasher, "test")
    record = run_match(CamelUpGame(), [crasher, SPEC.bot("random"), SPEC.bot("random"),
                                       SPEC.bot("random")], seed=5)  # fmt: skip
    assert [f.seat for f in record.forfeits] == [0] and "boom" in record.forfeits[0].reason
    assert record.final_state is not None and record.final_state.is_terminal()
    assert record.returns[0] == 0 and record.wins[0] == 0 and sum(record.wins) == 1
    rolls_after = [s for s in record.steps[record.forfeits[0].step :] if s.seat == 0]
    assert rolls_after and all(str(s.action) == "roll" for s in rolls_after)


def test_mistake_9_seats_rotate_so_every_bot_plays_every_seat() -> None:
    jobs = schedule(CamelUpGame(), ["ev", "random", "random", "random"], 4 * 3, seed=1)
    seats_of_ev = Counter(seating.index("ev") for _, _, seating in jobs)
    assert seats_of_ev == {0: 3, 1: 3, 2: 3, 3: 3}
    assert len({seed for _, seed, _ in jobs}) == 12


def test_every_seats_observed_money_ends_as_the_engines() -> None:
    """A bot's observed table scores the overall piles once their cards are turned up, also a
    pile that held no hidden card when another pile did (its cards were paid nowhere else)."""
    for seed in range(60):
        game = CamelUpGame(players=2 + seed % 3)
        record = run_match(game, [SPEC.bot("random")] * game.players, seed, time_limit=None)
        for seat in range(game.players):
            view = [e.seen_by(seat) for step in record.steps for e in step.events]
            observed = TableTracker(game).update(view)
            assert observed.money == list(record.final_state.money), (seed, seat)


def test_the_thinking_bots_declare_a_budget_and_warm_up_untimed() -> None:
    from sleuth.games.camel_up.bots import warm_up_bots
    from sleuth.games.camel_up.catalogue import move_budget_at_default

    budget = move_budget_at_default()

    for name in ("ev", "strong"):
        assert SPEC.bot(name).budget() == budget
        assert SPEC.bot(f"{name}:rollouts=8000").budget() == 4 * budget
        assert SPEC.bot(name).warm_up is warm_up_bots
    assert SPEC.bot("random").budget() is None
