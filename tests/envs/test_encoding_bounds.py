"""Observations stay within their segments' bounds, the bounds of the adapters' spaces."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import pytest

from sleuth.core.encoding import Observation, Segment
from sleuth.core.events import View
from sleuth.core.registry import game_spec
from sleuth.games.fox.encoding import FoxEncoding
from sleuth.testing.case import Case, ConformanceError
from sleuth.testing.encoding import check_encoding


def test_bounds_repeat_each_segment_s_over_its_size() -> None:
    encoding = FoxEncoding(game_spec("fox").make({"graph": "path:3", "days": 2}))
    encoding.segments = (Segment("a", 2, "x"), Segment("b", 3, "y", low=-1.0, high=4.0))
    low, high = encoding.bounds()
    assert low.tolist() == [0, 0, -1, -1, -1] and high.tolist() == [1, 1, 4, 4, 4]
    assert low.dtype == high.dtype == np.float32
    low, high = encoding.bounds(belief=True)
    assert low.shape == high.shape == (5 + 3,)


class Overflowing(FoxEncoding):
    """Fox's encoding writing its day as a count, past its segment's bound of 1."""

    def observe_into(self, out: Observation, view: View, prefix: Sequence[int]) -> None:
        super().observe_into(out, view, prefix)
        out[2] *= self.fox_game.days


def test_the_kit_refuses_an_observation_out_of_its_bounds() -> None:
    spec = dataclasses.replace(game_spec("fox"), encoding=f"{__name__}:Overflowing")
    with pytest.raises(ConformanceError, match="out of its segment's bounds at \\[2\\]"):
        check_encoding(Case(spec, {"graph": "path:5"}), seed=0)
