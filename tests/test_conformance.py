"""The conformance kit (:mod:`sleuth.testing`) on every registered game and every bot.

Every game in ``game_names()`` (the tests' toy games included) runs every check; a game the
tables below do not name runs with its default options, so a new game is covered by
registering.  Heavier variants (more seeds, bots with their default settings) are marked slow.
The kit's own oracles: broken variants of a toy game, each caught by the check it breaks.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tests.core.toy
import tests.hideseek
import tests.tally  # noqa: F401  (registers the tournament tests' toy game)
from sleuth.core.events import Event
from sleuth.core.outcome import Outcome
from sleuth.core.registry import game_names, game_spec
from sleuth.search import learned
from sleuth.testing import (
    GAME_CHECKS,
    Case,
    ConformanceError,
    check_action_texts,
    check_bot,
    check_clones,
    check_events,
    check_illegal_actions,
    check_outcome,
    check_playthrough,
    check_rebuilt_bot,
    check_sampler,
)
from tests.core.toy import HighCard, HighCardState

OPTIONS: dict[str, list[dict[str, str]]] = {
    "fox": [{}, {"graph": "grid:2x3", "k": "2", "lazy": "true"}],
    # Uniformly random players can pass and skip for ever: a round limit (option max_rounds).
    "fugitive": [
        {"max_rounds": "50"},
        {"max_rounds": "30", "edition": "second", "opening": "one_or_two"},
    ],
    "camel-up": [{}, {"edition": "2", "players": "3"}],
    "cluedo": [
        {},
        {
            "players": "5",
            "dice": "2",
            "leftover": "face_up",
            "accuse_at": "in_named_room",
            "allow_retarget": "true",
            "max_turns": "150",
        },
    ],
}
"""Option sets each game is checked with (default: the game's defaults)."""
BOT_OPTIONS = {("fugitive", "ppo"): {"max_rounds": 50}}
"""Bots checked with other options than their game's first set: a learned model plays the
options it was trained on only (Fugitive's shipped Marshal: the defaults, 50 rounds at most)."""
MISBEHAVING = {
    "highcard": {"raise", "illegal", "hang", "sleepy", "stuck", "broken"},
    "tally": {"crash"},
}
"""Test bots that misbehave on purpose, forfeiting or idling (the match runner's tests use them)."""
QUICK_SETTINGS = {
    "ismcts": ":iterations=30:seconds=0",
    "dmcts": ":iterations=30:seconds=0",
    "ev": ":rollouts=100",
    "strong": ":rollouts=100",
}
"""Bot options for the quick run; the slow run plays every bot with its defaults."""
SLOW_BOTS = {("fugitive", "elusive"), ("fugitive", "decoy")}
"""Bots whose every game takes seconds even in the quick run: run only when slow."""
LEARN_MISSING = pytest.mark.skipif(
    importlib.util.find_spec("sb3_contrib") is None,
    reason="the ppo bots need the learn extra (torch's CPU build, then pip install -e '.[learn]')",
)
"""The learned players (:mod:`sleuth.search.learned`) play where the learn extra is installed."""


def _cases() -> list[Any]:
    return [
        pytest.param(Case.of(name, options), id=f"{name}-{i}")
        for name in game_names()
        for i, options in enumerate(OPTIONS.get(name, [{}]))
    ]


def _checks() -> list[Any]:
    return [pytest.param(check, id=check.__name__) for check in GAME_CHECKS]


@pytest.mark.parametrize("check", _checks())
@pytest.mark.parametrize("case", _cases())
@settings(max_examples=3, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_game_passes_every_check(
    case: Case, check: Callable[[Case, int], None], seed: int
) -> None:
    check(case, seed)


@pytest.mark.slow
@pytest.mark.parametrize("check", _checks())
@pytest.mark.parametrize("case", _cases())
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_game_passes_every_check_on_many_seeds(
    case: Case, check: Callable[[Case, int], None], seed: int
) -> None:
    check(case, seed)


def _searchable() -> list[Any]:
    return [
        pytest.param(Case.of(name, options), id=f"{name}-{i}")
        for name in game_names()
        if game_spec(name).search is not None
        for i, options in enumerate(OPTIONS.get(name, [{}]))
    ]


@pytest.mark.parametrize("case", _searchable())
def test_search_samplers_are_sound(case: Case) -> None:
    model = case.spec.search
    assert model is not None
    # Fugitive's samplers count worlds, Cluedo's worlds replay games of a thousand actions: slow
    decisions = 2 if case.spec.name in ("fugitive", "cluedo") else 6
    reports = [check_sampler(case, model, seed, decisions) for seed in (0, 1)]
    assert sum(r.decisions for r in reports) > 0, "no decision was checked"


@pytest.mark.slow
@pytest.mark.parametrize("case", _searchable())
def test_search_samplers_are_sound_on_many_games(case: Case) -> None:
    model = case.spec.search
    assert model is not None
    for seed in range(2, 12):
        check_sampler(case, model, seed)


def test_the_sampler_check_finds_the_true_world_where_worlds_are_few() -> None:
    case = Case.of("fox", {"graph": "path:4"})
    assert case.spec.search is not None
    reports = [check_sampler(case, case.spec.search, seed) for seed in range(4)]
    assert sum(r.covered for r in reports) > 0


def _bots(quick: bool) -> list[Any]:
    out = []
    for name in game_names():
        spec = game_spec(name)
        for bot in spec.bots:
            if bot.name in MISBEHAVING.get(name, ()):
                continue
            if quick and (name, bot.name) in SLOW_BOTS:
                continue
            setting = QUICK_SETTINGS.get(bot.name, "") if quick else ""
            options = BOT_OPTIONS.get((name, bot.name), OPTIONS.get(name, [{}])[0])
            marks = [LEARN_MISSING] if bot.factory.__module__ == learned.__name__ else []
            out.append(
                pytest.param(
                    Case.of(name, options), bot.name + setting, id=f"{name}-{bot.name}", marks=marks
                )
            )
    return out


@pytest.mark.parametrize(("case", "bot"), _bots(quick=True))
def test_every_bot_plays_whole_games(case: Case, bot: str) -> None:
    check_bot(case, bot, seed=0)


@pytest.mark.slow
@pytest.mark.parametrize(("case", "bot"), _bots(quick=False))
def test_every_bot_plays_whole_games_with_its_default_settings(case: Case, bot: str) -> None:
    for seed in (1, 2):
        check_bot(case, bot, seed)


@pytest.mark.parametrize(("case", "bot"), _bots(quick=True))
def test_every_bot_continues_a_game_when_rebuilt(case: Case, bot: str) -> None:
    check_rebuilt_bot(case, bot, seed=0)


@pytest.mark.slow
@pytest.mark.parametrize(("case", "bot"), _bots(quick=False))
def test_every_bot_continues_a_game_when_rebuilt_with_its_default_settings(
    case: Case, bot: str
) -> None:
    for seed in (1, 2):
        check_rebuilt_bot(case, bot.replace(":seconds=0", ""), seed)


# --- the kit's own oracles: each broken game is caught by the check it breaks ---------------


def _broken(state_class: type[HighCardState], **game: Callable[..., Any]) -> Case:
    """The highcard case with its states of ``state_class`` (and game methods replaced)."""

    class Broken(HighCard):
        def new_initial_state(self) -> HighCardState:
            return state_class(self)

    for name, method in game.items():
        setattr(Broken, name, method)
    spec = game_spec("highcard")
    return Case.of(replace(spec, build=lambda values: Broken(values["cards"])))


class ChangesWhenRefusing(HighCardState):
    def illegal_reason(self, action: object) -> str | None:
        reason = super().illegal_reason(action)
        if reason is not None:
            self.hands.append(0)
        return reason


class SharesItsLists(HighCardState):
    def clone(self) -> HighCardState:
        assert isinstance(self.game, HighCard)
        other = SharesItsLists(self.game)
        other.hands, other.calls = self.hands, self.calls
        return other


class ListsInEvents(HighCardState):
    def _apply(self, action: str) -> list[Event]:
        return [Event("said", {"words": [action]}) for _ in super()._apply(action)]


class EndsUndeclared(HighCardState):
    def termination(self) -> str:
        return "showdown"  # HighCard declares only "finished"


class SplitsEveryPot(HighCardState):
    def wins(self) -> tuple[float, ...]:
        return (0.5, 0.5)  # the loser's side gets half a win


class PaysTheWinnerTwice(HighCardState):
    def returns(self) -> tuple[float, ...]:
        return tuple(2 * r for r in super().returns())

    def result(self) -> Outcome:
        result = super().result()
        return replace(result, returns=tuple(r / 2 for r in result.returns))


class SaysYesTooOften(HighCardState):
    def is_legal(self, action: object) -> bool:
        return True  # every action of the game, legal or not


def _misreads(self: HighCard, text: str) -> str:
    return "fold" if text == "call" else HighCard.parse_action(self, text)


@pytest.mark.parametrize(
    ("case", "check", "message"),
    [
        (_broken(ChangesWhenRefusing), check_illegal_actions, "changed the state: state.hands"),
        (_broken(SharesItsLists), check_clones, "on a clone changed the original"),
        (_broken(ListsInEvents), check_events, "mutable public field 'words'"),
        (_broken(HighCardState, parse_action=_misreads), check_action_texts, "parses to 'fold'"),
        (_broken(EndsUndeclared), check_outcome, "termination 'showdown' is not one of"),
        (_broken(SplitsEveryPot), check_playthrough, "did not win but has win share 0.5"),
        (_broken(PaysTheWinnerTwice), check_outcome, "result().returns is"),
        (_broken(SaysYesTooOften), check_illegal_actions, "is not listed as legal"),
    ],
    ids=[
        "refusal-changes",
        "shared-clone",
        "mutable-event",
        "text-misread",
        "undeclared-termination",
        "share-to-a-loser",
        "returns-disagree",
        "is-legal-too-often",
    ],
)
def test_the_kit_catches_a_broken_game(
    case: Case, check: Callable[[Case, int], None], message: str
) -> None:
    with pytest.raises(ConformanceError, match=r"^highcard \{\} seed 4") as caught:
        check(case, 4)
    assert message in str(caught.value)


@pytest.mark.parametrize("bot", ["raise", "illegal", "broken"])
def test_the_kit_catches_a_bot_that_forfeits(bot: str) -> None:
    with pytest.raises(ConformanceError, match=f"{bot} in seat 0 forfeited"):
        check_bot(Case.of("highcard"), bot, seed=0)


def test_failures_name_the_game_options_seed_and_step() -> None:
    error = Case.of("fox", {"graph": "path:3"}).fail(7, "something broke", step=12)
    assert str(error) == "fox {graph=path:3} seed 7 step 12: something broke"
    assert isinstance(error, AssertionError)
