"""The suggestion screen's compiled kernel (:func:`~._advice_kernels.answer_counts`) against
its NumPy version: the same histograms and weights to the bit, so that the screen
(:func:`~sleuth.games.cluedo.advice.room_gains`) and the ``sleuth`` player's decisions are
the same with Numba and without."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from sleuth.games.cluedo import _advice_kernels as kernels
from sleuth.games.cluedo import advice
from sleuth.games.cluedo.cards import ROOMS, SUSPECTS, WEAPONS
from sleuth.games.cluedo.deduction.constraints import Knowledge
from sleuth.games.cluedo.deduction.counting import Posterior


def _samples(players: int, seed: int, k: int = 400) -> advice.Samples:
    """Samples of a posterior after a few facts, seen from seat 0."""
    sizes = tuple((18 + p) // players for p in range(players))
    sizes = tuple(sorted(sizes, reverse=True))
    knowledge = Knowledge(sizes).with_has(0, (1 << 2) | (1 << 8) | (1 << 13))
    knowledge = knowledge.with_lacks(1, (1 << 0) | (1 << 7) | (1 << 14))
    return advice.draw(Posterior(knowledge), 0, players, random.Random(seed), k)


def _counts(samples: advice.Samples, room: int, compiled: bool) -> list[Any]:
    n = samples.players
    slots = 3 * (n - 1) + 1
    envelopes = samples.envelopes
    parts = [envelopes // 54, envelopes // 9 % 6, envelopes % 9]
    hists = [np.zeros(36 * slots * size) for size in (6, 6, 9)]
    weight = np.zeros(36 * slots)
    if compiled:
        kernels.answer_counts(
            samples.order, np.array(parts, dtype=np.intp), np.array((6, 6, 9), dtype=np.intp),
            SUSPECTS.start, WEAPONS.start, room, n, (hists[0], hists[1], hists[2]), weight,
        )  # fmt: skip
    else:
        advice._answer_counts(samples, room, parts, hists, weight)
    return [*hists, weight]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_kernel_counts_as_numpy_does(players: int) -> None:
    samples = _samples(players, players)
    for room in ROOMS:
        ours, theirs = _counts(samples, room, True), _counts(samples, room, False)
        for a, b in zip(ours, theirs, strict=True):
            assert np.array_equal(a, b), room
        assert ours[-1].sum() == pytest.approx(len(samples.envelopes) * 36)
        assert 0 < np.count_nonzero(ours[-1]) < ours[-1].size


def test_the_screen_is_the_same_without_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    samples = _samples(5, 1)
    compiled = {room: advice.room_gains(samples, room) for room in ROOMS}
    monkeypatch.setattr(kernels, "COMPILED", False)
    for room in ROOMS:
        assert np.array_equal(advice.room_gains(samples, room), compiled[room]), room


def test_the_kernel_runs_as_plain_python() -> None:
    """Its Python source (what runs without Numba were it called) adds the same counts."""
    plain = getattr(kernels.answer_counts, "py_func", kernels.answer_counts)
    samples = _samples(4, 2, k=30)
    room = ROOMS.start + 3
    n = samples.players
    slots = 3 * (n - 1) + 1
    envelopes = samples.envelopes
    parts = np.array([envelopes // 54, envelopes // 9 % 6, envelopes % 9], dtype=np.intp)
    hists = (np.zeros(36 * slots * 6), np.zeros(36 * slots * 6), np.zeros(36 * slots * 9))
    weight = np.zeros(36 * slots)
    sizes = np.array((6, 6, 9), dtype=np.intp)
    plain(samples.order, parts, sizes, SUSPECTS.start, WEAPONS.start, room, n, hists, weight)
    for a, b in zip([*hists, weight], _counts(samples, room, False), strict=True):
        assert np.array_equal(a, b)


def test_warm_up_loads_the_screen() -> None:
    advice.warm_up()
    if kernels.COMPILED:
        assert kernels.answer_counts.signatures  # type: ignore[attr-defined]
