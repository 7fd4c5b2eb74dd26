"""With or without Numba the belief Marshal is the same player.

The compiled programme and the plain one must not only count the same worlds (see
``test_counting.py``) but also visit the same states, since a state budget decides when a player
falls back to the relaxed belief or to the graph notes; and the budget itself must not depend on
which programme runs.  Before both held, ``belief:guess=certain`` played different games with
and without Numba (``SLEUTH_NO_NUMBA=1``).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from sleuth.arena.play import play_game
from sleuth.arena.tournament import schedule
from sleuth.core.compiled import COMPILED
from sleuth.core.errors import SolverLimitError
from sleuth.core.match import run_match
from sleuth.games.fugitive import SPEC
from sleuth.games.fugitive.belief import ExactBelief, RelaxedBelief
from sleuth.games.fugitive.deduction import _counting
from sleuth.games.fugitive.deduction.timeline import Timeline, read_view
from sleuth.games.fugitive.rules import MARSHAL
from tests.cli_helpers import COMMAND
from tests.games.fugitive.helpers import plain_programme

needs_numba = pytest.mark.skipif(not COMPILED, reason="the compiled programme needs Numba")

SMALL = 2_000
"""Views whose exact programme needs at most this many states (the plain one stays quick)."""


def small_views() -> list[Timeline]:
    """The Marshal's views before each of her guesses and skips, those with a small exact
    programme, in games of both editions; the random Marshal's misses many pairs of numbers
    (two of her games: one alone has too few since the bots draw a stream per decision)."""
    views = []
    for edition, marshal, seed in (
        ("first", "random", 0),
        ("first", "random", 1),
        ("first", "belief:guess=certain", 16),
        ("second", "belief:guess=certain:draw=low", 17),
    ):
        game = SPEC.make({"edition": edition})
        record = run_match(game, [SPEC.bot("steady"), SPEC.bot(marshal)], seed, None)
        seen = [e.seen_by(MARSHAL) for step in record.steps for e in step.events]
        for k, event in enumerate(seen):
            if event.kind in ("guessed", "skipped"):
                timeline = read_view(seen[:k])
                if _kernel_states(ExactBelief(timeline), (), SMALL) >= 0:
                    views.append(timeline)
    return views


def _kernel_states(belief: ExactBelief, pool: tuple[int, ...], limit: int = 10**7) -> int:
    """The states and mids the compiled programme visits for ``belief`` with ``pool``; -1
    beyond ``limit``."""
    inputs = [*belief._kernel_inputs(pool), _counting.primes(0), limit]
    return _counting.count_worlds(*inputs)[0]


def _fits(make: type[ExactBelief], timeline: Timeline, budget: int, pool: tuple[int, ...]) -> bool:
    """Whether the counts (and the pass that tracks ``pool``) fit ``budget`` states."""
    belief = make(timeline, budget, model="frugal")
    try:
        belief.counts()
        if pool:
            belief.joints(pool)
    except SolverLimitError:
        return False
    return True


@needs_numba
def test_both_programmes_run_out_of_states_at_the_same_budget() -> None:
    views = small_views()
    assert len(views) > 20
    assert sum(any(len(miss.numbers) > 1 for miss in view.misses) for view in views) > 5
    for timeline in views:
        for make in (ExactBelief, RelaxedBelief):
            belief = make(timeline, model="frugal")
            candidates = sorted(set().union(*belief.counts().candidates().values()))
            for pool in ((), tuple(candidates[:3])):
                needed = max(_kernel_states(belief, ()), _kernel_states(belief, pool))
                assert _fits(make, timeline, needed, pool)
                assert not _fits(make, timeline, needed - 1, pool)
                with plain_programme():
                    assert _fits(make, timeline, needed, pool), (make.label, pool)
                    assert not _fits(make, timeline, needed - 1, pool), (make.label, pool)


def _actions(log: Path) -> list[str]:
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    return [row["action"] for row in rows if row["type"] == "step"]


@needs_numba
@pytest.mark.slow
@pytest.mark.parametrize(
    ("edition", "marshal", "seed"),
    [
        ("first", "belief:guess=certain", 16),
        ("second", "belief:guess=certain", 2),
        ("second", "belief:guess=certain:draw=low", 17),
    ],
)
def test_the_belief_marshal_plays_the_same_game_without_numba(
    edition: str, marshal: str, seed: int, tmp_path: Path
) -> None:
    """Games whose positions need more states than the plain programme was once allowed."""
    options = {"edition": edition}
    bots = ("steady", marshal)
    job = schedule(SPEC.make(options), bots, 1, seed)[0]
    compiled_logs, plain_logs = tmp_path / "compiled", tmp_path / "plain"
    compiled_logs.mkdir()
    play_game("fugitive", dict(options), job, str(compiled_logs), None)
    command = (
        f"play fugitive --bots {','.join(bots)} -n 1 --seed {seed} -o edition={edition} -w 1"
        " --no-db --time-limit 600"  # slower without Numba: no forfeit on a busy machine
    )
    done = subprocess.run(
        [*COMMAND, *command.split(), "--logs", str(plain_logs)],
        env={**os.environ, "SLEUTH_NO_NUMBA": "1"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    name = "game-000000.jsonl"
    assert _actions(plain_logs / name) == _actions(compiled_logs / name)
