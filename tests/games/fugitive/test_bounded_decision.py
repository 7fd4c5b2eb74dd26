"""The belief Marshal's slowest decision found (``data/slow_marshal_view.json``): its work is
bounded, counted in states and hideout scans, never in time."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sleuth.core.compiled import COMPILED
from sleuth.core.events import Event, View, freeze
from sleuth.games.fugitive import SPEC
from sleuth.games.fugitive.belief import ExactBelief
from sleuth.games.fugitive.deduction import _counting, endgame
from sleuth.games.fugitive.deduction.timeline import read_view
from sleuth.games.fugitive.players.marshals import STATE_BUDGET, BeliefMarshal
from sleuth.games.fugitive.rules import MARSHAL
from tests.games.fugitive.helpers import plain_programme

DATA = Path(__file__).parent / "data" / "slow_marshal_view.json"
OLD_POOL_LIMIT = 16
"""The candidate values the compiled programme could track before 2026-11-26; beyond them
the pass ran in plain Python, up to the whole state budget (seconds)."""

needs_numba = pytest.mark.skipif(not COMPILED, reason="the compiled programme needs Numba")


def _position() -> tuple[Any, View]:
    data = json.loads(DATA.read_text())
    game = SPEC.make(data["options"])
    events = [Event.from_json(e) for e in data["events"]]
    return game, View(MARSHAL, game.roles[MARSHAL], freeze(game.public_info()), events)


@needs_numba
def test_the_slowest_decision_stays_within_its_state_and_scan_budgets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, view = _position()
    runs: list[tuple[int, int]] = []  # (states, numbers tracked) of each compiled run
    kernel = _counting.count_worlds

    def counted(*args: Any) -> Any:
        found = kernel(*args)
        runs.append((int(found[0]), int((args[6] >= 0).sum())))  # extra_bit: the pool
        return found

    solvers: list[endgame.Expectimax] = []

    class Recorded(endgame.Expectimax):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            solvers.append(self)

    def no_plain_state(self: ExactBelief) -> None:
        raise AssertionError("the plain programme ran")

    monkeypatch.setattr(_counting, "count_worlds", counted)
    monkeypatch.setattr(endgame, "Expectimax", Recorded)
    monkeypatch.setattr(ExactBelief, "_count_state", no_plain_state)
    marshal = BeliefMarshal(game, MARSHAL, 0, guess="gamble", draw="frontier")
    assert marshal.choose(view) == (10, 14)  # what she chose before the bound (an oracle)
    assert max(pool for _, pool in runs) > OLD_POOL_LIMIT  # every candidate, compiled
    assert all(0 <= states <= STATE_BUDGET for states, _ in runs)
    assert len(runs) <= 4  # counts and the pool pass, each in floats then modulo primes
    assert solvers and all(0 < s.scans <= s.max_scans for s in solvers)
    assert solvers[0].max_scans == endgame.EXPECTIMAX_SCANS


@needs_numba
def test_the_compiled_pass_over_every_candidate_equals_the_plain_one() -> None:
    """The compiled programme tracks any set of numbers (bits up to 41, its result sparse by
    mask); the plain programme, checked on the same position, is the oracle."""
    _, view = _position()
    timeline = read_view(list(view.events))
    compiled = ExactBelief(timeline, model="frugal")
    counts = compiled.counts()
    pool = tuple(sorted(set().union(*counts.candidates().values())))
    assert len(pool) > OLD_POOL_LIMIT
    assert compiled._compiled(pool) is not None
    with plain_programme():
        assert ExactBelief(timeline, model="frugal")._pool_hits(pool) == compiled._pool_hits(pool)
