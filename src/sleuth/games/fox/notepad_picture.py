"""The fox puzzle's picture in the web app's assistant, drawn from the session's own deduction:
the board with the holes the fox may be in (the hunter's view, drawn by
:mod:`sleuth.games.fox.picture`), which the page's switch :data:`POSSIBLE` hides; a hole alone
is one click's inspection when ``k`` is 1, and one of the day's holes (``data-collect``) when
``k`` is more; after the end, the fox's walk (caught, escaped, or given up: one that dodged
every look) as a caption and as the days written above each hole.

Invariant: :func:`notepad` never raises for a session in any state.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from sleuth.core.events import View, freeze
from sleuth.games.fox import picture as board
from sleuth.games.fox.rules import HUNTER
from sleuth.render.svg import text

POSSIBLE = "possible"
"""The switch that shows the possible holes: off, the page's panel has the class
``hide-possible``, which the picture's own style turns into plain white holes."""
STYLE = f"<style>.hide-{POSSIBLE} .possible circle {{ fill: #ffffff; }}</style>"


def notepad(session: Any) -> str:
    """The board with the possible holes; clickable holes while the hunt goes on."""
    game = session.game
    legal = []
    if not session.finished and game.k == 1:
        legal = [f"inspect {hole}" for hole in range(game.graph.n)]
    picture: str = board.svg(
        game,
        View(HUNTER, game.roles[HUNTER], freeze(game.public_info()), list(session.events)),
        legal,
    ).replace("</svg>", STYLE + "</svg>")
    if not session.finished and game.k > 1:
        picture = COLLECTED.sub(r'\g<0> data-collect="\1"', picture)
    if session.finished and session.entries:
        walk = session._walk()
        picture = _caption(picture, f"the fox's walk: {' → '.join(map(str, walk))}")
        picture = _days(picture, walk)
    return picture


def _caption(picture: str, words: str) -> str:
    """``picture`` with a caption line added at its top."""
    line = text(8, 14, words, fill="#b3261e", font_weight=700, class_="walk")
    return picture.replace("</svg>", line + "</svg>")


COLLECTED = re.compile(r'(?<=<g )class="hole[^"]*" data-hole="(\d+)"')
"""A hole's group without an action (its class, then its hole: the board's order)."""
HOLE = re.compile(
    r'<g [^>]*data-hole="(\d+)"[^>]*><circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"'
)
"""A hole's group in the board picture, with its circle's centre and radius."""


def _days(picture: str, walk: Sequence[int]) -> str:
    """``picture`` with the days of ``walk`` written above each hole the fox was in then
    (``1,3`` above a hole it hid in on days 1 and 3)."""
    days: dict[int, list[int]] = {}
    for day, hole in enumerate(walk, start=1):
        days.setdefault(hole, []).append(day)
    labels = []
    for found in HOLE.finditer(picture):
        hole, x, y, r = int(found[1]), float(found[2]), float(found[3]), float(found[4])
        if hole in days:
            words = ",".join(map(str, days[hole]))
            labels.append(
                text(
                    x,
                    y - r - 4,
                    words,
                    text_anchor="middle",
                    fill="#b3261e",
                    font_weight=700,
                    class_="walk-days",
                    data_hole=hole,
                )
            )
    return picture.replace("</svg>", "".join(labels) + "</svg>")
