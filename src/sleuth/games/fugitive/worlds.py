"""From a sampled :class:`~sleuth.games.fugitive.belief.World` back to a whole game.

:func:`history` lists the actions (chance cards included) of a game that produces exactly the
Marshal's view it was sampled from, with the world's hidden cards filled in: the search layer
replays it to get a full state, and the tests replay it to check that every sampled world is
consistent.
"""

from __future__ import annotations

from collections.abc import Iterable

from sleuth.core.errors import SleuthError
from sleuth.core.events import Event
from sleuth.games.fugitive.actions import (
    NO_BONUS,
    PASS,
    SKIP,
    TAKE_BONUS,
    Card,
    Draw,
    FugitiveAction,
    Guess,
    Place,
)
from sleuth.games.fugitive.belief import World
from sleuth.games.fugitive.timeline import MARSHAL


def history(world: World, events: Iterable[Event]) -> list[FugitiveAction]:
    """The actions that replay to the Marshal's ``events`` in ``world``."""
    draws = [iter(cards) for cards in world.draws]
    actions: list[FugitiveAction] = []
    for event in events:
        public = event.public
        if event.kind == "chose_pile":
            pile = int(public["pile"])
            actions.append(TAKE_BONUS if public["bonus"] else Draw(pile))
        elif event.kind == "drew":
            if public["seat"] == MARSHAL:
                if event.private is None:
                    raise SleuthError("a Marshal draw without its card: not the Marshal's view")
                actions.append(Card(int(event.private["card"])))
            else:
                actions.append(Card(next(draws[int(public["pile"]) - 1])))
        elif event.kind == "placed":
            i = int(public["position"]) - 1
            actions.append(Place(world.hideouts[i], world.stacks[i]))
        elif event.kind == "passed":
            actions.append(PASS)
        elif event.kind == "declined_bonus":
            actions.append(NO_BONUS)
        elif event.kind == "guessed":
            actions.append(Guess(tuple(public["numbers"])))
        elif event.kind == "skipped":
            actions.append(SKIP)
    return actions
