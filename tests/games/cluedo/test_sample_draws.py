"""The posterior's sampler draws through ``random.Random._randbelow`` (:func:`~.counting._below`)
and redoes ``rng.sample`` for small populations (:func:`~.counting._pick`) for speed: both
must make exactly the calls the standard library makes, or the same seed would give other
deals (and the ``sleuth`` player other decisions).  These tests fail if a Python version
changes either."""

from __future__ import annotations

import random

import pytest

from sleuth.games.cluedo.advice import draw
from sleuth.games.cluedo.deduction.constraints import CLASSIC, Knowledge
from sleuth.games.cluedo.deduction.counting import Posterior, _below, _pick


@pytest.mark.parametrize("seed", range(5))
def test_pick_draws_as_random_sample(seed: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    for size in range(1, 22):
        cards = random.Random(size).sample(range(21), size)
        for n in range(1, size + 1):
            assert _pick(_below(ours), cards, n) == theirs.sample(cards, n), (size, n)
    assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("stop", [1, 2, 3, 7, 2**31 + 5, 2**64 - 3, 3**60 + 1])
def test_below_draws_as_randrange(stop: int) -> None:
    ours, theirs = random.Random(stop), random.Random(stop)
    below = _below(ours)
    assert [below(stop) for _ in range(200)] == [theirs.randrange(stop) for _ in range(200)]
    assert ours.getstate() == theirs.getstate()


def test_pick_leaves_the_cards_as_they_were() -> None:
    cards = [3, 1, 4, 15, 9]
    _pick(_below(random.Random(1)), cards, 3)
    assert cards == [3, 1, 4, 15, 9]


@pytest.mark.parametrize("players", [3, 6])
def test_draw_indexes_the_envelopes_it_drew(players: int) -> None:
    """``draw``'s envelope indices (computed on arrays) are the deck's solution indices of the
    deals the same seed draws, and its orders name who holds each card."""
    sizes = tuple((18 + p) // players for p in range(players))[::-1]
    posterior = Posterior(Knowledge(tuple(sorted(sizes, reverse=True))))
    samples = draw(posterior, 1, players, random.Random(players), 300)
    deals = posterior.samples(random.Random(players), 300)
    assert samples.envelopes.tolist() == [CLASSIC.solution_index(d.envelope) for d in deals]
    assert len(set(samples.envelopes.tolist())) > 50
    for i, deal in enumerate(deals[:20]):
        for card in range(21):
            owner = deal.owner(card)
            steps = (owner - 1) % players if isinstance(owner, int) and owner >= 0 else 0
            assert samples.order[i, card] == (steps if steps else players)
