"""Every game's encoding, by random play through an episode (sleuth.testing.encoding)."""

from __future__ import annotations

import pytest

from sleuth.core.registry import builtin_game_names, game_spec
from sleuth.testing.case import Case
from sleuth.testing.encoding import check_encoding


@pytest.mark.parametrize("name", builtin_game_names())
def test_every_built_in_game_has_an_encoding(name: str) -> None:
    """So that every adapter (their tests take the games from the registry) plays it."""
    spec = game_spec(name)
    assert spec.encoding is not None
    assert spec.encoding_for(spec.make({})).action_count > 0


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
