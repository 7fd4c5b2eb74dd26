"""From a sampled :class:`~sleuth.games.fugitive.belief.World` back to a whole game.

:func:`history` lists the actions (chance cards included) of a game that produces exactly the
Marshal's view it was sampled from, with the world's hidden cards filled in: the search layer
replays it to get a full state, and the tests replay it to check that every sampled world is
consistent.  :func:`fugitive_history` does the same for the Fugitive's view, given the cards
the Marshal drew (the only thing he does not see).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence

from sleuth.core.errors import IllegalActionError, SleuthError
from sleuth.core.events import Event
from sleuth.games.fugitive.belief import ExactBelief, World
from sleuth.games.fugitive.engine.actions import (
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
from sleuth.games.fugitive.rules import MARSHAL, FugitiveGame

REPLAY_TRIES = 20
"""Sampled worlds replayed before a view is declared impossible (see :func:`check_view`)."""


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


def replay_difference(
    game: FugitiveGame, world: World, events: Sequence[Event], cut: bool = False
) -> tuple[int, str] | None:
    """None when the rules engine, playing the game ``world`` fills in, shows the Marshal
    exactly ``events``, or with ``cut`` when ``events`` stops partway through the last
    action's events (a view cut short, as ``--events N`` does); else the index of the first
    event it does not show, and why.  The final ``route`` event is compared only when
    ``events`` has one."""
    state = game.new_initial_state()
    produced: list[Event] = []
    last_action_start = 0
    try:
        for action in history(world, events):
            last_action_start = len(produced)
            produced += (e.seen_by(MARSHAL) for e in state.apply(action))
    except IllegalActionError as exc:
        earlier = first_mismatch(produced, events)  # an earlier event may be the culprit
        if earlier is not None:
            return earlier, describe_difference(produced[earlier], events[earlier])
        reason = str(exc)
        marshal_cards = {e.private["card"] for e in events if e.kind == "drew" and e.private}
        if isinstance(action, Place) or (
            isinstance(action, Card) and action.card not in marshal_cards
        ):  # the world filled in its values: they are no fact of the log
            hidden = "a hideout" if isinstance(action, Place) else "a Fugitive card"
            reason = reason.replace(f"{action}:", f"{hidden}:", 1)
        return min(len(produced), len(events) - 1), reason
    if not any(e.kind == "route" for e in events):
        produced = [e for e in produced if e.kind != "route"]
    index = first_mismatch(produced, events)
    if index is not None:
        return index, describe_difference(produced[index], events[index])
    if len(events) > len(produced):
        return len(produced), "the rules would show nothing more here"
    if len(events) == len(produced) or (cut and len(events) > last_action_start):
        return None
    following = produced[len(events)]
    return len(events) - 1, (
        f"the view stops partway through an action: the rules would show a "
        f"{following.kind!r} event next"
    )


def first_mismatch(produced: Sequence[Event], events: Sequence[Event]) -> int | None:
    """The first index where ``produced`` and ``events`` differ, compared as JSON (a log read
    from a file has lists, not tuples); None when one is a prefix of the other."""
    for i, (shown, logged) in enumerate(zip(produced, events, strict=False)):
        if shown.to_json() != logged.to_json():
            return i
    return None


def describe_difference(shown: Event, logged: Event) -> str:
    """What the rules would show instead of ``logged``, in the terms of the log's fields."""
    if shown.kind != logged.kind:
        return f"the rules would show a {shown.kind!r} event here, not {logged.kind!r}"
    a, b = shown.to_json(), logged.to_json()
    if a.get("public") != b.get("public"):
        return f"the rules would show {shown.kind} {dict(shown.public)} here"
    field = next(f for f in ("private", "to") if a.get(f) != b.get(f))
    return f"its {field!r} field is {b.get(field)}; the rules would show {a.get(field)} here"


def view_problem(
    game: FugitiveGame,
    events: Sequence[Event],
    belief: ExactBelief,
    rng: random.Random,
    cut: bool = False,
) -> tuple[int, str] | None:
    """None when the rules could have shown the Marshal ``events`` (some world of ``belief``,
    her exact belief after them, found by :meth:`ExactBelief.witness`, replays to exactly
    them); else the index of the culprit event and why.

    The belief models every constraint on values but not the turn order, the range of
    guesses or which fields an event carries; the replay checks those.  A sampled world may
    break a rule the belief does not model (F14's dead-end check on the first opening
    hideout), so up to :data:`REPLAY_TRIES` worlds are tried; the answer is the one that got
    furthest."""
    if cut and events and events[-1].kind == "guessed" and events[-1].public.get("hit") is True:
        events = events[:-1]  # its reveals are cut off, and the belief learns a hit from them
    furthest = (-1, "")
    for _ in range(REPLAY_TRIES):
        difference = replay_difference(game, belief.witness(rng), events, cut)
        if difference is None:
            return None
        furthest = max(furthest, difference, key=lambda d: d[0])
    return furthest


def check_view(
    game: FugitiveGame,
    events: Sequence[Event],
    belief: ExactBelief,
    rng: random.Random,
    cut: bool = False,
) -> None:
    """A :class:`SleuthError` naming the culprit event unless the rules could have shown the
    Marshal ``events`` (see :func:`view_problem`; ``cut``: the view may stop mid-action)."""
    problem = view_problem(game, events, belief, rng, cut)
    if problem is not None:
        index, reason = problem
        event = events[index]
        raise SleuthError(f"event {index + 1} ({event.kind} {dict(event.public)}): {reason}")
