"""The decoy Fugitive: placements chosen where the belief Marshal's odds least expect them.

The belief Marshal guesses from the exact posterior over his route under her Fugitive model
(``frugal`` by default: a world that wastes sprint reach is unlikely).  The Fugitive knows the
public record, so he can work out that posterior for each placement he might make, before he
makes it, and compare it with the truth he alone knows.  The decoy Fugitive does exactly that
(issue 38's Fugitive that exploits her inference):

- **Options.** The ``candidates`` best hideouts by the heuristic Fugitive's
  :func:`~.fugitives.placement_score` (within ``stride`` of the last one when ``stride`` > 0,
  as the ``policy`` Fugitive), each paid as the heuristic Fugitive pays it and padded with
  sprint cards worth 1 to ``pad`` footprints more than the jump needs
  (:func:`~.policy.padded`): wasted reach, which her model weighs down, so padding can make
  the true hideout look unlikely.
- **Risk.** For each option, the posterior she would hold just after it (her
  :class:`~sleuth.games.fugitive.deduction.timeline.Timeline` with one more slot of that many
  sprint cards, counted by :class:`~sleuth.games.fugitive.belief.ExactBelief` under ``model``):
  with ``aim=position`` the probability she gives the true hideout at its own position; with
  ``aim=route`` the sum, over his face-down hideouts after the option, of the probability she
  gives each number of being a face-down hideout (her guesses name numbers, and a number hits
  wherever it lies on the route).  Both are exact ratios of her weighted world counts.
- **Choice.** The option with the highest ``placement_score - weight * risk`` (ties: the lower
  hideout, then the fewer sprint cards): ``weight`` is the footprints of progress given up to
  take the risk from 1 to 0.  With ``weight=0`` he plays the cheapest best option, as the
  ``policy`` Fugitive with that stride.

He cannot see the Marshal's cards, so the timeline he imitates has one uniform draw of her
cards from those he has not seen, made afresh at each decision from his random stream
(:func:`~.elusive.marshal_timeline`).  An option whose count needs more than ``RISK_STATES``
states has risk 0, as for the elusive Fugitive.  His draws (``draw``), passes, 42 and his
first hideout are the ``policy`` Fugitive's.  Every choice depends only on his view, the legal
actions and his random stream: his moves are legal and repeat with the same seed.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from sleuth.core.errors import SolverLimitError
from sleuth.core.events import View
from sleuth.core.game import Game
from sleuth.games.fugitive.belief import ExactBelief
from sleuth.games.fugitive.deduction.timeline import Timeline
from sleuth.games.fugitive.engine.actions import PASS, Pass, Place
from sleuth.games.fugitive.engine.cards import LAST
from sleuth.games.fugitive.players.elusive import (
    after_placement,
    face_down_hideouts,
    marshal_timeline,
)
from sleuth.games.fugitive.players.fugitives import SHORT_HAND, payment, placement_score
from sleuth.games.fugitive.players.policy import PolicyFugitive, padded

RISK_STATES = 20_000
"""States each imitated count may use (a few milliseconds compiled)."""


class DecoyFugitive(PolicyFugitive):
    """See the module docstring."""

    def __init__(
        self,
        game: Game[Any],
        seat: int,
        seed: int,
        weight: float,
        aim: str,
        model: str,
        candidates: int,
        pad: int,
        stride: int,
        draw: str,
    ) -> None:
        super().__init__(game, seat, seed, slack=0.0, stride=stride, sprints=-1, bluff=0.0,
                         draw=draw)  # fmt: skip
        self.weight = weight
        self.aim = aim
        self.model = model
        """The Fugitive model of the belief Marshal whose odds he reads."""
        self.candidates = candidates
        self.pad = pad
        self._view: View | None = None

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        self._view = view
        return super().act(view, legal)

    def _place_or_pass(
        self, hand: list[int], last: int, hideouts: Sequence[int], can_pass: bool
    ) -> Place | Pass:
        view = self._view
        if (
            not hideouts
            or LAST in hideouts
            or view is None
            or not any(e.kind == "placed" for e in view.events)  # his first hideout
        ):
            return super()._place_or_pass(hand, last, hideouts, can_pass)
        near = [h for h in hideouts if self.stride == 0 or h - last <= self.stride]
        cheapest = sorted(
            (payment(hand, last, h, bluff=False) for h in near or [min(hideouts)]),
            key=lambda p: (-placement_score(p, last), p.hideout),
        )
        best = cheapest[0]
        if can_pass and any(c > best.hideout for c in best.sprints) and len(hand) < SHORT_HAND:
            return PASS
        options = sorted(
            {
                padded(hand, last, p.hideout, extra)
                for p in cheapest[: self.candidates]
                for extra in range(self.pad + 1)
            },
            key=lambda p: (p.hideout, len(p.sprints), p.sprints),
        )
        if self.weight <= 0:
            return max(options, key=lambda p: placement_score(p, last))
        timeline = marshal_timeline(view.events, self.rng)
        hidden = face_down_hideouts(view.events)
        return max(
            options,
            key=lambda p: placement_score(p, last) - self.weight * self.risk(timeline, hidden, p),
        )

    def risk(self, timeline: Timeline, hidden: set[int], place: Place) -> float:
        """How likely the Marshal whose view is ``timeline`` finds his route right after
        ``place`` (see the module docstring's ``aim``), ``hidden`` his face-down hideouts
        before it; 0 when counting needs over :data:`RISK_STATES` states."""
        after = after_placement(timeline, len(place.sprints))
        try:
            counts = ExactBelief(after, RISK_STATES, model=self.model).counts()
        except SolverLimitError:
            return 0.0
        if self.aim == "position":
            position = len(after.slots)
            return counts.by_position[position].get(place.hideout, 0) / counts.total
        return sum(float(counts.hideout_probability(v)) for v in hidden | {place.hideout})
