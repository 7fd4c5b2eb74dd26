"""Every game's encoding, by random play through an episode (sleuth.testing.encoding)."""

from __future__ import annotations

import pytest

from sleuth.testing.case import Case
from sleuth.testing.encoding import check_encoding

CASES = [
    Case.of("fox", {"graph": "path:5"}),
    Case.of("fox", {"graph": "cycle:6", "k": 2}),
    Case.of("fox", {"graph": "star:4", "lazy": True, "days": 6}),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.spec.name}-{c.options}")
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("belief", [False, True])
def test_encoding(case: Case, seed: int, belief: bool) -> None:
    check_encoding(case, seed, belief)
