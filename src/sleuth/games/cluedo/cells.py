"""How a Cluedo notepad writes one (card, owner) cell, shared by `infer` and the notepad."""

from __future__ import annotations

from rich.text import Text

from sleuth.games.cluedo.deduction.constraints import Owner
from sleuth.games.cluedo.deduction.counting import Posterior


def percent(p: float) -> str:
    """A probability strictly between 0 and 1, never printed as 0% or 100%."""
    return "<1%" if p < 0.005 else ">99%" if p > 0.995 else f"{p:.0%}"


def cell(post: Posterior, card: int, owner: Owner) -> Text:
    """✓ when ``owner`` surely holds ``card``, ✗ when it surely does not, else the chance."""
    n = post.count(card, owner)
    if n == post.total:
        return Text("✓", style="bold green")
    if n == 0:
        return Text("✗", style="dim")
    return Text(percent(n / post.total))
