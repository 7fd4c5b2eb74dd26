"""From a sampled :class:`~sleuth.games.fugitive.belief.World` back to a whole game.

:func:`history` lists the actions (chance cards included) of a game that produces exactly the
Marshal's view it was sampled from, with the world's hidden cards filled in: the search layer
replays it to get a full state, and the tests replay it to check that every sampled world is
consistent.  :func:`fugitive_history` does the same for the Fugitive's view, given the cards
the Marshal drew (the only thing he does not see).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

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
from sleuth.games.fugitive.rules import MARSHAL


def history(world: World, events: Iterable[Event]) -> list[FugitiveAction]:
    """The actions that replay to the Marshal's ``events`` in ``world``."""
    draws = [iter(cards) for cards in world.draws]

    def card(event: Event) -> int:
        if event.public["seat"] == MARSHAL:
            if event.private is None:
                raise SleuthError("a Marshal draw without its card: not the Marshal's view")
            return int(event.private["card"])
        return next(draws[int(event.public["pile"]) - 1])

    def place(event: Event) -> Place:
        i = int(event.public["position"]) - 1
        return Place(world.hideouts[i], world.stacks[i])

    return actions_of(events, card, place)


def fugitive_history(
    events: Iterable[Event], marshal_cards: Sequence[Sequence[int]]
) -> list[FugitiveAction]:
    """The actions that replay to the Fugitive's ``events`` when the Marshal drew
    ``marshal_cards[p - 1]`` from pile ``p``, in order."""
    draws = [iter(cards) for cards in marshal_cards]

    def card(event: Event) -> int:
        if event.public["seat"] == MARSHAL:
            return next(draws[int(event.public["pile"]) - 1])
        if event.private is None:
            raise SleuthError("a Fugitive draw without its card: not the Fugitive's view")
        return int(event.private["card"])

    def place(event: Event) -> Place:
        if event.private is None:
            raise SleuthError("a placement without its cards: not the Fugitive's view")
        return Place(int(event.private["value"]), tuple(event.private["sprint_cards"]))

    return actions_of(events, card, place)


def actions_of(
    events: Iterable[Event], card: Callable[[Event], int], place: Callable[[Event], Place]
) -> list[FugitiveAction]:
    """The actions behind a seat's ``events``, with ``card`` and ``place`` filling in the
    draws and placements it could not see."""
    actions: list[FugitiveAction] = []
    for event in events:
        public = event.public
        if event.kind == "chose_pile":
            pile = int(public["pile"])
            actions.append(TAKE_BONUS if public["bonus"] else Draw(pile))
        elif event.kind == "drew":
            actions.append(Card(card(event)))
        elif event.kind == "placed":
            actions.append(place(event))
        elif event.kind == "passed":
            actions.append(PASS)
        elif event.kind == "declined_bonus":
            actions.append(NO_BONUS)
        elif event.kind == "guessed":
            actions.append(Guess(tuple(public["numbers"])))
        elif event.kind == "skipped":
            actions.append(SKIP)
    return actions
