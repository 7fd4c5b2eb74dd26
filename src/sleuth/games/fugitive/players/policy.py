"""A parameterised Fugitive (``policy``): the family the balance study searches.

The ``policy`` Fugitive is the heuristic Fugitive's hand management with every choice the
belief Marshal's odds depend on made a parameter, so that a search over the parameters can
look for what beats a given Marshal (issue 38):

- ``slack``: footprints of sprint reach paid for beyond what the jump needs.  The ``thrifty``
  and ``frugal`` models weigh a world down for each footprint of reach it wastes, so a
  Fugitive who wastes reach on purpose looks unlikely to them.  A fractional value mixes:
  ``slack=1.5`` wastes 1 or 2 footprints, each half the time.  The sprint cards are chosen as
  the heuristic Fugitive chooses them (:func:`~.fugitives.payment`), to cover the jump plus
  the slack; it places only hideouts its hand can pay so, unless none (then it pays what it
  can).
- ``stride``: the longest jump it makes (0: no limit); short jumps waste the three free
  footprints every placement has.  When no placeable hideout is that close, the nearest.
- ``sprints``: at most this many sprint cards a placement (-1: no limit); it passes when no
  hideout can be paid so (42 is always placed as soon as it can be).
- ``bluff``: the chance of one sprint card more, as the heuristic Fugitive's ``bluff``.
- ``draw``: the pile it draws from: ``next`` (the pile of its next hideouts, as the heuristic
  Fugitive), ``low``, ``high`` or ``random``.

Among the hideouts these allow it takes the best
:func:`~.fugitives.placement_score` and passes, as the heuristic Fugitive does, rather than
pay with a future hideout when its hand is short.  Its moves depend only on its hand, its
last hideout, the legal actions and its random stream, so they are legal and repeat with the
same seed.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

from sleuth.core.events import View
from sleuth.core.game import Game
from sleuth.games.fugitive.engine.actions import PASS, Draw, Pass, Place
from sleuth.games.fugitive.engine.cards import LAST, SPRINT
from sleuth.games.fugitive.engine.moves import OpeningPlacements
from sleuth.games.fugitive.players.fugitives import (
    SHORT_HAND,
    HeuristicFugitive,
    Mixed,
    payment,
    placement_score,
)


class PolicyFugitive(HeuristicFugitive):
    """See the module docstring."""

    def __init__(
        self,
        game: Game[Any],
        seat: int,
        seed: int,
        slack: float,
        stride: int,
        sprints: int,
        bluff: float,
        draw: str,
    ) -> None:
        super().__init__(game, seat, seed, bluff)
        self.slack = slack
        self.stride = stride
        self.sprints = sprints
        self.draw = draw

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        if isinstance(legal[0], Draw) and self.draw != "next":
            piles = [a for a in legal if isinstance(a, Draw)]
            if self.draw == "random":
                return self.rng.choice(piles)
            return self._pile(piles)
        return super().act(view, legal)  # the heuristic Fugitive's draw, bonus and opening

    def _pile(self, piles: list[Draw]) -> Draw:
        """The ``low`` or ``high`` pile among ``piles``."""
        return min(piles, key=lambda d: d.pile if self.draw == "low" else -d.pile)

    def strategy(self, hand: list[int], last: int, legal: Sequence[Hashable]) -> Mixed:
        """:meth:`act`'s moves with their probabilities (see :class:`~.fugitives.Strategy`):
        its pile, and its placements over both whole slacks of a fractional ``slack`` and
        the bluff."""
        if not isinstance(legal, OpeningPlacements) and isinstance(legal[0], Draw):
            piles = [a for a in legal if isinstance(a, Draw)]
            if self.draw == "random":
                return [(1 / len(piles), pile) for pile in piles]
            if self.draw != "next":
                return [(1.0, self._pile(piles))]
        return super().strategy(hand, last, legal)

    def _place_or_pass(
        self, hand: list[int], last: int, hideouts: Sequence[int], can_pass: bool
    ) -> Place | Pass:
        if not hideouts:
            return PASS
        if LAST in hideouts:
            return payment(hand, last, LAST, bluff=False)
        extra = math.floor(self.slack) + int(self.rng.random() < self.slack % 1)
        move, bluffed = self._choice(hand, last, hideouts, can_pass, extra)
        if bluffed is not None and self.rng.random() < self.bluff:
            return bluffed
        return move

    def _odds(self, hand: list[int], last: int, hideouts: Sequence[int], can_pass: bool) -> Mixed:
        """:meth:`_place_or_pass`'s choices with their probabilities, the same moves merged."""
        if not hideouts:
            return [(1.0, PASS)]
        if LAST in hideouts:
            return [(1.0, payment(hand, last, LAST, bluff=False))]
        part = self.slack % 1
        odds: dict[Place | Pass, float] = {}
        for p, extra in ((1 - part, math.floor(self.slack)), (part, math.floor(self.slack) + 1)):
            move, bluffed = self._choice(hand, last, hideouts, can_pass, extra)
            outcomes = [(1.0, move)] if bluffed is None else [(1 - self.bluff, move)]
            if bluffed is not None:
                outcomes.append((self.bluff, bluffed))
            for q, choice in outcomes:
                if p * q > 0:
                    odds[choice] = odds.get(choice, 0.0) + p * q
        return [(p, choice) for choice, p in odds.items()]

    def _choice(
        self, hand: list[int], last: int, hideouts: Sequence[int], can_pass: bool, extra: int
    ) -> tuple[Place | Pass, Place | None]:
        """The move among ``hideouts`` (42 not among them) paying ``extra`` footprints of
        slack, and the move if its bluff comes (the same placement when no card may be added);
        None when it makes no bluff roll (a pass, or no hideout the limits allow)."""
        near = [h for h in hideouts if self.stride == 0 or h - last <= self.stride]
        allowed = near or [min(hideouts)]
        places = [padded(hand, last, h, extra) for h in allowed]
        if self.sprints >= 0:
            places = [p for p in places if len(p.sprints) <= self.sprints]
        places = [p for p in places if surplus(p, last) >= extra] or places
        if not places:
            return (PASS if can_pass else payment(hand, last, min(hideouts), bluff=False)), None
        best = max(places, key=lambda p: (placement_score(p, last), -p.hideout))
        if can_pass and any(c > best.hideout for c in best.sprints) and len(hand) < SHORT_HAND:
            return PASS, None
        spare = [c for c in hand if c not in (best.hideout, LAST, *best.sprints)]
        if spare and (self.sprints < 0 or len(best.sprints) < self.sprints):
            card = min(spare, key=lambda c: (c > best.hideout, -SPRINT[c], c))
            return best, Place(best.hideout, (*best.sprints, card))
        return best, best


def surplus(place: Place, last: int) -> int:
    """The footprints of reach ``place`` wastes after ``last``: its slack as the ``thrifty``
    and ``frugal`` models count it."""
    return 3 + sum(SPRINT[c] for c in place.sprints) - (place.hideout - last)


def padded(hand: Sequence[int], last: int, hideout: int, extra: int) -> Place:
    """``hideout`` after ``last`` paid as :func:`~.fugitives.payment` pays it, with sprint
    cards covering ``extra`` footprints more than the jump needs as far as the hand allows
    (the placement is legal whatever ``extra``)."""
    return payment(hand, last - extra, hideout, bluff=False)
