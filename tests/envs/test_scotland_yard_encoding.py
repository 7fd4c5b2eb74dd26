"""Scotland Yard's encoding (sleuth.games.scotland_yard.encoding): the kit, and oracles."""

from __future__ import annotations

import pytest

from sleuth.testing.case import Case
from sleuth.testing.encoding import check_encoding

CASES = [
    Case.of("scotland-yard", {}),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.spec.name}-{c.options}")
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("belief", [False, True])
def test_encoding(case: Case, seed: int, belief: bool) -> None:
    check_encoding(case, seed, belief)
