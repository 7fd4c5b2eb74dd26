"""The Marshal's notepad: what the exact belief says, and which guess to make.

:class:`Deduction` wraps a belief and its counts with the questions a Marshal asks: which
values each face-down hideout can have and how likely each is, which numbers are certain
hideouts (a sure multi-number hit, E2), which numbers cannot be hideouts, and the suggested
guess.  ``sleuth infer fugitive``, the assistant and the belief Marshal all read it.

Probabilities assume every consistent world is equally likely: a uniform shuffle and a
Fugitive whose every legal choice is equally likely (E3).  A real Fugitive is not uniform, so
these are the odds of an uninformed observer, labelled as such wherever they are shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from sleuth.core.events import JSON, Event
from sleuth.games.fugitive.belief import Counts, ExactBelief
from sleuth.games.fugitive.cards import GUESSABLE

ASSUMPTION = "every consistent world equally likely (uniform shuffle, uninformed Fugitive model)"


@dataclass(frozen=True)
class Advice:
    """A suggested guess and the exact chance that every number in it is a hideout."""

    numbers: tuple[int, ...]
    probability: Fraction
    reason: str

    def __str__(self) -> str:
        return "guess " + " ".join(map(str, self.numbers))


@dataclass(frozen=True)
class Deduction:
    """Everything the Marshal can conclude from her view."""

    belief: ExactBelief
    counts: Counts

    @classmethod
    def from_events(cls, events: Sequence[Event]) -> Deduction:
        """Deduce from the Marshal's events; a contradiction names its event (E5)."""
        belief = ExactBelief.from_events(events)
        return cls(belief, belief.counts())

    def face_up(self) -> set[int]:
        return {s.value for s in self.belief.timeline.slots if s.value is not None}

    def guessable(self) -> list[int]:
        """Numbers the Marshal may name now (F20)."""
        face_up = self.face_up()
        return [n for n in GUESSABLE if n not in face_up]

    def hideout_probabilities(self) -> dict[int, Fraction]:
        """P(number is a face-down hideout now), for every number she may name."""
        return {n: self.counts.hideout_probability(n) for n in self.guessable()}

    def not_hideouts(self) -> list[int]:
        """Numbers she may name that are a face-down hideout in no consistent world."""
        return [n for n, p in self.hideout_probabilities().items() if p == 0]

    def advice(self) -> Advice | None:
        """Name every certain hideout if there is one (a sure hit that reveals them all; one
        number during the Manhunt), else the most likely number (the highest on ties, which
        also guards against the 42 escape).  None when nothing is face down."""
        if not self.counts.by_position:
            return None
        certain = self.counts.certain()
        if certain:
            numbers = tuple(certain[-1:] if self.belief.timeline.manhunt else certain)
            return Advice(numbers, Fraction(1), "certain")
        probabilities = self.hideout_probabilities()
        best = max(probabilities, key=lambda n: (probabilities[n], n))
        return Advice((best,), probabilities[best], "most likely")

    def to_json(self) -> dict[str, JSON]:
        """The notepad as JSON (the format of ``sleuth infer fugitive --json``)."""
        positions: list[JSON] = []
        probabilities = self.counts.probabilities()
        for slot in self.belief.timeline.slots:
            if slot.value is not None:
                positions.append(
                    {
                        "position": slot.position,
                        "sprints": slot.sprints,
                        "face_up": True,
                        "value": slot.value,
                        "sprint_cards": None if slot.stack is None else list(slot.stack),
                    }
                )
                continue
            values = probabilities[slot.position]
            positions.append(
                {
                    "position": slot.position,
                    "sprints": slot.sprints,
                    "face_up": False,
                    "values": {str(v): float(p) for v, p in values.items()},
                    "sprint_totals": self.counts.sprint_totals.get(slot.position, []),
                }
            )
        advice = self.advice()
        return {
            "game": "fugitive",
            "worlds": self.counts.total,
            "assumption": ASSUMPTION,
            "positions": positions,
            "certain": self.counts.certain(),
            "not_hideouts": self.not_hideouts(),
            "recommended": None
            if advice is None
            else {
                "numbers": list(advice.numbers),
                "probability": float(advice.probability),
                "reason": advice.reason,
            },
            "manhunt": self.belief.timeline.manhunt,
            "over": self.belief.timeline.over,
        }
