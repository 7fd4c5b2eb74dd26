"""Option declarations: a web bound below the default is refused where it is declared."""

from __future__ import annotations

import pytest

from sleuth.core.options import OptionSpec


def test_a_web_bound_below_the_default_is_refused_at_declaration() -> None:
    with pytest.raises(ValueError, match="interactive_max=100 is below the default 200"):
        OptionSpec("rollouts", 200, "rollouts", int, interactive_max=100)


def test_a_web_bound_at_or_above_the_default_is_accepted() -> None:
    assert OptionSpec("rollouts", 200, "rollouts", int, interactive_max=200).interactive_max == 200
    assert OptionSpec("c", 0.7, "exploration", float, interactive_max=5.0).interactive_max == 5.0
    assert OptionSpec("model", "uniform", "model", str).interactive_max is None
