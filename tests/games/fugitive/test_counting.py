"""The compiled programme of the exact belief against the plain one, and its exact arithmetic."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from sleuth.core.compiled import COMPILED
from sleuth.core.errors import SolverLimitError
from sleuth.core.events import Event
from sleuth.core.match import run_match
from sleuth.games.fugitive import SPEC
from sleuth.games.fugitive.belief import MODELS, Counts, ExactBelief, RelaxedBelief
from sleuth.games.fugitive.deduction import _counting
from sleuth.games.fugitive.deduction.timeline import Miss, Slot, Timeline, read_view
from sleuth.games.fugitive.rules import MARSHAL
from tests.games.fugitive.helpers import plain_programme

needs_numba = pytest.mark.skipif(not COMPILED, reason="the compiled programme needs Numba")


def _is_prime_by_division(n: int) -> bool:
    return n > 1 and all(n % d for d in range(2, int(n**0.5) + 1))


def test_the_moduli_are_the_largest_primes_below_2_31() -> None:
    found = _counting.primes(2).tolist()
    assert all(_is_prime_by_division(p) for p in found)
    assert not any(_is_prime_by_division(n) for n in range(found[1] + 1, 2**31) if n not in found)
    assert max(found) < 2**31  # a product of two residues fits an int64


def test_recombination_gives_back_every_integer_below_the_modulus() -> None:
    moduli = _counting.primes(4)
    crt = _counting.Recombination(moduli)
    rng = random.Random(5)
    for value in [0, 1, crt.modulus - 1, *(rng.randrange(crt.modulus) for _ in range(200))]:
        residues = np.array([value % p for p in moduli.tolist()], dtype=np.int64)
        assert crt(residues) == value


def marshal_views(seeds: range) -> Iterator[list[Event]]:
    """The Marshal's view before each of her guesses, in games of the heuristic Fugitive
    against the belief Marshal."""
    game = SPEC.make({})
    for seed in seeds:
        record = run_match(game, [SPEC.bot("heuristic"), SPEC.bot("belief")], seed, None)
        seen = [e.seen_by(MARSHAL) for step in record.steps for e in step.events]
        for k, event in enumerate(seen):
            if event.kind == "guessed":
                yield seen[:k]


def plain(
    make: type[ExactBelief], timeline: Timeline, model: str, pool: tuple[int, ...] = ()
) -> tuple[Counts, dict[int, int]]:
    """The plain programme's counts, and its counts by which ``pool`` numbers are hideouts."""
    with plain_programme():
        belief = make(timeline, model=model)
        hits = belief._pool_hits(pool) if pool else {}
        return belief.counts(), {mask: n for mask, n in hits.items() if n}


@needs_numba
def test_the_compiled_programme_equals_the_plain_one_on_real_games() -> None:
    large = 0
    checked = 0
    for view in marshal_views(range(2026, 2032)):
        timeline = read_view(view)
        for model in MODELS:
            for make in (ExactBelief, RelaxedBelief):
                compiled = make(timeline, model=model)
                assert compiled._compiled() is not None
                candidates = compiled.candidates()
                counts = compiled.counts()
                assert candidates == counts.candidates()
                pool = tuple(sorted(set().union(*counts.candidates().values())))[:10]
                assert (counts, compiled._pool_hits(pool)) == plain(make, timeline, model, pool)
                large += compiled._weighted_total() >= 2**52  # beyond exact floats: residues
                checked += 1
    assert checked > 60 and large > 0


@needs_numba
def test_counts_beyond_the_first_moduli_are_still_exact() -> None:
    """A long frugal route whose weighted total needs more than two primes."""
    beliefs = [ExactBelief(read_view(v), model="frugal") for v in marshal_views(range(2026, 2032))]
    compiled = max(beliefs, key=lambda belief: belief._weighted_total())
    timeline = compiled.timeline
    assert compiled._weighted_total() >= 2**62
    assert compiled.counts() == plain(ExactBelief, timeline, "frugal")[0]


def _timeline_with_misses(clauses: int) -> Timeline:
    timeline = Timeline(fugitive_draws=[3, 2, 0])
    timeline.slots = [Slot(1, 0, (3, 2, 0)), Slot(2, 1, (3, 2, 0))]
    timeline.misses = [Miss((n, n + 1), 2) for n in range(4, 4 + 2 * clauses, 2)]
    return timeline


def test_more_clauses_than_a_packed_state_holds_use_the_plain_programme() -> None:
    many = _timeline_with_misses(_counting.MAX_CLAUSES + 1)
    belief = ExactBelief(many)
    assert belief._compiled() is None
    assert belief.counts() == plain(ExactBelief, many, "uniform")[0]
    assert belief.candidates() == belief.counts().candidates()
    few = _timeline_with_misses(3)
    assert ExactBelief(few).counts() == plain(ExactBelief, few, "uniform")[0]


@needs_numba
def test_the_compiled_programme_keeps_the_state_limit() -> None:
    timeline = _timeline_with_misses(1)
    with pytest.raises(SolverLimitError, match="more than 5 states"):
        ExactBelief(timeline, max_states=5).counts()


COMPILES = """\
import collections
from numba.core import event
from sleuth.games.fugitive.belief import warm_up
compiled = collections.Counter()
class Count(event.Listener):
    def on_start(self, data):
        function = data.data["dispatcher"].py_func
        if function.__module__.startswith("sleuth."):  # not Numba's own overloads
            compiled[function.__qualname__] += 1
    def on_end(self, data):
        pass
event.register("numba:compile", Count())
warm_up()
print(max(compiled.values()), sum(compiled.values()))
"""


@needs_numba
@pytest.mark.slow
def test_a_cold_cache_compiles_each_kernel_of_the_programme_once(tmp_path: Path) -> None:
    """Compiling the programme takes tens of seconds after an install: no kernel of it is
    compiled twice (count_worlds calls its steps with constants first, and Numba compiled a
    version for those too: the steps twice, the hash table six times)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", COMPILES], env=env, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr
    most, total = map(int, done.stdout.split())
    assert most == 1 and total > 10
