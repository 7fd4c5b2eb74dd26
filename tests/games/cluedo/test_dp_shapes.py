"""The compiled DP's shape arrays (:class:`~.dp._Shapes`), built with NumPy for speed, hold
exactly what :meth:`~.units.Problem.index` and :func:`~.dp.terms` say of each shape."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sleuth.games.cluedo.deduction.constraints import Knowledge, close
from sleuth.games.cluedo.deduction.counting import Posterior
from sleuth.games.cluedo.deduction.dp import _Shapes, terms
from sleuth.games.cluedo.deduction.units import Problem


def _knowledges() -> list[Knowledge]:
    six = Knowledge((3, 3, 3, 3, 3, 3))
    four = Knowledge((5, 5, 4, 4)).with_has(0, 0b1011)
    return [
        six,
        six.with_has(0, (1 << 1) | (1 << 7) | (1 << 13)).with_lacks(2, (1 << 2) | (1 << 8)),
        four.with_lacks(1, (1 << 5) | (1 << 9) | (1 << 16)).with_has(3, 1 << 20),
        Knowledge((6, 6, 6)).with_has(1, (1 << 0) | (1 << 6)),
    ]


@pytest.mark.parametrize("knowledge", _knowledges())
@pytest.mark.parametrize("weighted", [False, True])
def test_shape_arrays_match_index_and_terms(knowledge: Knowledge, weighted: bool) -> None:
    problem = Problem(close(knowledge), weighted)
    assert problem.shapes
    for shapes in problem.shapes:
        arrays = _Shapes(problem, shapes, weighted)
        assert arrays.index.tolist() == [problem.index(p) for p, _ in shapes]
        flat = [t for p, _ in shapes for t in terms(problem, p)]
        starts = np.cumsum([0] + [len(terms(problem, p)) for p, _ in shapes]).tolist()
        assert arrays.term_start.tolist() == starts
        assert arrays.term_shift.tolist() == [t[0] for t in flat]
        assert arrays.term_mask.tolist() == [t[1] for t in flat]
        assert arrays.term_k.tolist() == [t[2] for t in flat]
        for a in (arrays.index, arrays.term_start, arrays.term_shift, arrays.term_k):
            assert a.dtype == np.int64


def test_no_shapes_make_empty_arrays() -> None:
    problem = Problem(close(Knowledge((3, 3, 3, 3, 3, 3))), False)
    arrays = _Shapes(problem, [], False)
    assert arrays.index.size == 0 and arrays.term_k.size == 0
    assert arrays.term_start.tolist() == [0]


@pytest.mark.parametrize("knowledge", _knowledges())
@pytest.mark.parametrize("responder", ["any", "uniform"])
def test_entropy_is_that_of_the_solution_counts(knowledge: Knowledge, responder: str) -> None:
    """The envelope's entropy, computed shape by shape, is the float that summing over
    :meth:`~.Posterior.solution_counts` gives, to the bit."""
    knowledge = knowledge.with_shown(1, (1 << 0) | (1 << 6) | (1 << 12), 12).with_lacks(
        2, (1 << 3) | (1 << 18)
    )
    for k in (knowledge, knowledge.with_has(3 % len(knowledge.hand_sizes), 1 << 4)):
        posterior = Posterior(k, responder)  # type: ignore[arg-type]
        h = 0.0
        for count in posterior.solution_counts().values():
            p = count / posterior.total
            h -= p * math.log(p)
        assert posterior.entropy() == h
        assert len(posterior.solution_counts()) > 1


def test_a_known_envelope_has_no_entropy() -> None:
    k = Knowledge((6, 6, 6)).with_has(0, 0b111110 | 1 << 7).with_has(1, 0b111111 << 8)
    k = k.with_has(2, 0b111111 << 14)
    posterior = Posterior(k)
    assert posterior.solution_counts() == {(0, 6, 20): posterior.total}
    assert posterior.entropy() == 0.0
