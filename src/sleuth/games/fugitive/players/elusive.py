"""The elusive Fugitive: the heuristic Fugitive's hand management, with placements chosen
against the belief Marshal's next guess.

The heuristic Fugitive scores each placement by the distance it covers minus the cost of its
sprint cards.  The elusive Fugitive takes its ``candidates`` best hideouts, each paid the
cheapest way and with a one-card bluff, and charges each option ``caution`` times its
*exposure*: the hideouts that the belief Marshal's ``gamble`` guess, made on what she would see
after the option, would reveal.  The Fugitive knows his route, so he knows whether that guess
would hit: a multi-number guess hits only if every number is a face-down hideout, and a guess
naming every face-down hideout (which ends the game) counts as ``ROUTE_WEIGHT`` hideouts.  The
Marshal sees only the sprint count, so the option changes her guess through the count and
changes whether it hits through the hideout.

He cannot see the Marshal's cards, so the deduction he imitates uses one uniform draw of her
cards from those he has not seen, made afresh at each decision; everything else in her
:class:`~sleuth.games.fugitive.deduction.timeline.Timeline` is public.  His draws, passes, 42 and
his
first hideout are the heuristic Fugitive's.  A deduction that needs more than
``EXPOSURE_STATES`` states counts as exposure 0 (a Marshal on a clock then guesses from a
looser belief too).
With ``caution=0`` he plays exactly as the heuristic Fugitive.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

from sleuth.core.errors import SolverLimitError
from sleuth.core.events import Event, View
from sleuth.core.game import Game
from sleuth.games.fugitive.belief import DEFAULT_MODEL, ExactBelief
from sleuth.games.fugitive.deduction.advice import Deduction
from sleuth.games.fugitive.deduction.timeline import Slot, Timeline
from sleuth.games.fugitive.engine.actions import Pass, Place
from sleuth.games.fugitive.engine.cards import LAST
from sleuth.games.fugitive.players.fugitives import (
    HeuristicFugitive,
    payment,
    placement_score,
    unseen_cards,
)
from sleuth.games.fugitive.rules import MARSHAL

ROUTE_WEIGHT = 10.0
"""Exposure of a guess that names the whole face-down route (a hit ends the game)."""
EXPOSURE_STATES = 20_000
"""States each imitated deduction may use (a few milliseconds compiled)."""


class ElusiveFugitive(HeuristicFugitive):
    """See the module docstring."""

    def __init__(
        self,
        game: Game[Any],
        seat: int,
        seed: int,
        bluff: float,
        caution: float,
        candidates: int,
        model: str = DEFAULT_MODEL,
    ) -> None:
        super().__init__(game, seat, seed, bluff)
        self.caution = caution
        self.candidates = candidates
        self.model = model
        """The Fugitive model of the Marshal he imitates (her odds)."""
        self.threshold: int = game.manhunt_threshold  # type: ignore[attr-defined]
        self._view: View | None = None

    def act(self, view: View, legal: Sequence[Any]) -> Any:
        self._view = view
        return super().act(view, legal)

    def _place_or_pass(
        self, hand: list[int], last: int, hideouts: Sequence[int], can_pass: bool
    ) -> Place | Pass:
        choice = super()._place_or_pass(hand, last, hideouts, can_pass)
        if (
            self.caution <= 0
            or not isinstance(choice, Place)
            or choice.hideout == LAST
            or self._view is None
            or not any(e.kind == "placed" for e in self._view.events)  # his first hideout
        ):
            return choice
        cheapest = [payment(hand, last, h, bluff=False) for h in hideouts if h != LAST]
        cheapest.sort(key=lambda p: (-placement_score(p, last), p.hideout))
        options = {
            payment(hand, last, p.hideout, bluff)
            for p in cheapest[: self.candidates]
            for bluff in (False, True)
        }
        timeline = marshal_timeline(self._view.events, self.rng)
        hidden = face_down_hideouts(self._view.events)
        return max(
            sorted(options, key=lambda p: (p.hideout, p.sprints)),
            key=lambda p: (
                placement_score(p, last) - self.caution * self._exposure(timeline, hidden, p)
            ),
        )

    def _exposure(self, timeline: Timeline, hidden: set[int], place: Place) -> float:
        """The hideouts the belief Marshal's next guess would reveal after ``place``, with
        ``hidden`` the face-down hideouts before it."""
        after = after_placement(timeline, len(place.sprints))
        try:
            belief = ExactBelief(after, EXPOSURE_STATES, model=self.model)
            deduction = Deduction(belief, belief.counts(), self.threshold)
            advice = deduction.advice("gamble")
        except SolverLimitError:
            return 0.0
        if advice is None or not set(advice.numbers) <= hidden | {place.hideout}:
            return 0.0
        if len(advice.numbers) == len(deduction.counts.by_position):
            return ROUTE_WEIGHT
        return float(len(advice.numbers))


def after_placement(timeline: Timeline, sprints: int) -> Timeline:
    """A copy of the Marshal's ``timeline`` with one more hideout, placed now with ``sprints``
    sprint cards (what she knows once he places it; ``timeline`` is left as it was)."""
    after = copy.deepcopy(timeline)
    position = len(after.slots) + 1
    after.slots.append(Slot(position, sprints, tuple(after.fugitive_draws)))  # type: ignore[arg-type]
    return after


def face_down_hideouts(events: Sequence[Event]) -> set[int]:
    """The Fugitive's face-down hideouts, read from his own view."""
    placed: dict[int, int] = {}
    for event in events:
        if event.kind == "placed" and event.private is not None:
            placed[int(event.public["position"])] = int(event.private["value"])
        elif event.kind == "revealed":
            placed.pop(int(event.public["position"]), None)
    return set(placed.values())


def marshal_timeline(events: Sequence[Event], rng: random.Random) -> Timeline:
    """The Marshal's :class:`Timeline` from the Fugitive's view, her cards drawn uniformly
    from the cards of each pile he has not seen."""
    unseen = unseen_cards(events)
    for pool in unseen:
        rng.shuffle(pool)
    timeline = Timeline()
    for event in events:
        if event.kind == "drew" and event.public["seat"] == MARSHAL:
            timeline.marshal_cards.add(unseen[int(event.public["pile"]) - 1].pop())
        else:
            timeline.apply(event)
    return timeline
