"""The last seat still playing (C23): every other seat has accused wrongly, and its ``end`` is
followed by its own next turn.  Each end of turn is a public ``ended`` event, so that seat
never decides twice after the same events (the decision number of ``Bot.ask``), its logs
replay, and the worlds behind its view are in its new turn, not in the one it ended.

Two tables: a match through the runner where seats 1 and 2 accuse wrongly at once (real
``accused`` events), and the conformance kit's checks on a table dealt with seats 1 and 2
out from the start (random play then reaches the lone seat's ends at once).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from typing import Any, ClassVar

from sleuth.core.bots import Bot, BotSpec
from sleuth.core.events import Event, View
from sleuth.core.game import CHANCE
from sleuth.core.log import replay_log, write_log
from sleuth.core.match import MatchRecord, run_match
from sleuth.core.registry import game_spec
from sleuth.core.searchmodel import replay_history
from sleuth.games.cluedo.actions import Accuse, End, Show
from sleuth.games.cluedo.bots import RandomPlayer
from sleuth.games.cluedo.rules import CluedoGame, CluedoState
from sleuth.games.cluedo.search import CluedoSampler
from sleuth.testing import check_moves_show_events, check_sampler
from sleuth.testing.case import Case, random_steps


class WrongAccuser(Bot):
    """Accuses at its first turn, naming a card of its own hand (so surely wrong); shows the
    first card it may when refuting (it still does, out of the game)."""

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        if isinstance(legal[0], Show):
            return legal[0]
        hand = next(
            e.private["cards"] for e in view.events if e.kind == "hand" and e.private is not None
        )
        return next(a for a in legal if isinstance(a, Accuse) and set(a.cards) & set(hand))


class Counted(RandomPlayer):
    """The random player, noting the number of events each of its decisions saw."""

    seen: ClassVar[list[int]] = []

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        Counted.seen.append(len(view.events))
        return super().act(view, legal)


def lone_match(seed: int) -> MatchRecord:
    """Three seats, 30 turns: seat 0 plays the random player, seats 1 and 2 accuse wrongly."""
    game = CluedoGame(players=3, max_turns=30)
    accuser = BotSpec("accuser", ("player",), WrongAccuser, "accuses wrongly at once")
    counted = BotSpec("counted", ("player",), Counted, "the random player, counted")
    Counted.seen = []
    return run_match(game, [counted, accuser, accuser], seed, time_limit=None)


def test_the_last_seat_decides_after_new_events_and_its_log_replays(tmp_path: Path) -> None:
    record = lone_match(seed=4)
    final = record.final_state
    assert isinstance(final, CluedoState)
    assert final.eliminated == [False, True, True] and final.termination() == "turn_limit"
    ends = [i for i, s in enumerate(record.steps) if s.seat == 0 and isinstance(s.action, End)]
    assert len(ends) > 20  # seat 0 alone played most of the 30 turns, each ended by 'end'
    seen = Counted.seen
    assert len(seen) > 2 * len(ends)
    assert all(a < b for a, b in pairwise(seen)), seen  # each decision after new events
    for i in ends:
        ended = record.steps[i].events[0]  # (and game_over after the last)
        assert (ended.kind, dict(ended.public)) == ("ended", {"seat": 0})
    write_log(record, tmp_path / "lone.jsonl")
    assert replay_log(tmp_path / "lone.jsonl").result == record.result


def test_the_worlds_of_the_last_seat_are_in_its_new_turn() -> None:
    """At each decision of seat 0 after both wrong accusations, every world drawn replays to
    the true turn, phase and legal actions (the old blind spot: worlds kept the seat in the
    turn it had ended)."""
    record = lone_match(seed=5)
    game = record.game
    assert isinstance(game, CluedoGame)
    state = game.new_initial_state()
    events: list[Event] = []
    rng = random.Random(0)
    checked = 0
    for step in record.steps:
        if step.seat == 0 and all(state.eliminated[1:]) and checked < 12:
            view = View(0, "player", game.public_info(), [e.seen_by(0) for e in events])
            sampler = CluedoSampler(game, view)
            for _ in range(3):
                world, _ = replay_history(game, sampler.sample_history(rng))
                assert isinstance(world, CluedoState)
                assert (world.turn, world.phase, world.to_move) == (
                    state.turn,
                    state.phase,
                    state.to_move,
                )
                assert world.legal_actions() == state.legal_actions()
            checked += 1
        events.extend(state.apply(step.action))
    assert checked == 12


class LoneSeatGame(CluedoGame):
    """Cluedo dealt with every seat but seat 0 out of the game (as after their wrong
    accusations: they refute, they take no turns)."""

    def new_initial_state(self) -> CluedoState:
        state = super().new_initial_state()
        state.eliminated = [seat != 0 for seat in range(self.players)]
        return state


def lone_case(options: dict[str, Any]) -> Case:
    spec = game_spec("cluedo")
    base = spec.build

    def build(values: dict[str, Any]) -> CluedoGame:
        game = base(values)
        assert isinstance(game, CluedoGame)
        return LoneSeatGame(
            players=game.players,
            suspects=game.suspects,
            accuse_at=game.accuse_at,
            max_turns=game.max_turns,
        )

    return Case.of(replace(spec, build=build), options)


def test_the_conformance_kit_passes_on_a_lone_seat() -> None:
    """Under ``accuse_at=in_named_room`` a token short of a room must end its turn, so random
    play of the lone seat ends turns at once: the kit's check that no seat decides twice after
    the same events, and its sampler check (worlds with the true seat to move and legal
    actions) at decisions of the lone seat."""
    case = lone_case({"players": "3", "accuse_at": "in_named_room", "max_turns": "40"})
    game = case.make()
    assert isinstance(game, LoneSeatGame)
    for seed in range(4):
        check_moves_show_events(case, seed)
    model = case.spec.search
    assert model is not None
    report = check_sampler(case, model, seed=1, decisions=6, draws=20)
    assert report.decisions == 6


def test_random_play_of_the_lone_seat_ends_its_turns() -> None:
    """The kit's check above is not vacuous: its random play has the lone seat decide right
    after its own ``end``."""
    case = lone_case({"players": "3", "accuse_at": "in_named_room", "max_turns": "40"})
    again = 0
    for seed in range(4):
        for _, state, action in random_steps(case, case.make(), seed):
            seat = state.current_player()
            state.apply(action)
            again += isinstance(action, End) and seat != CHANCE and state.current_player() == seat
    assert again >= 4
