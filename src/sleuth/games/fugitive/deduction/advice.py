"""The Marshal's notepad: what the exact belief says, and which guess to make.

:class:`Deduction` wraps a belief and its counts with the questions a Marshal asks: which
values each face-down hideout can have and how likely each is, which numbers are certain
hideouts (a sure multi-number hit, E2), which numbers cannot be hideouts, and the suggested
guess.  ``sleuth infer fugitive``, the assistant and the belief Marshal all read it.

Probabilities weigh the consistent worlds by a Fugitive model (:data:`ASSUMPTIONS`): under
``uniform`` every world is equally likely, a uniform shuffle and a Fugitive whose every legal
choice is equally likely (E3); ``thrifty`` and ``frugal`` (the bots' default) favour worlds
where his sprint cards are not wasted.  The model is labelled wherever odds are shown.  Under
the relaxed belief (long routes) the odds are approximate; the candidate sets stay sound.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import combinations

from sleuth.core.errors import SolverLimitError
from sleuth.core.events import JSON, Event
from sleuth.games.fugitive.belief import MAX_STATES, Counts, ExactBelief, RelaxedBelief
from sleuth.games.fugitive.catalogue import GUESS_MODES as GUESS_MODES
from sleuth.games.fugitive.deduction.endgame import (
    BEFORE_42_ROUTES,
    Route,
    Routes,
    best_before_42,
    reaches,
    routes_of,
)
from sleuth.games.fugitive.engine.cards import GUESSABLE, LAST

ASSUMPTIONS = {
    "uniform": "every consistent world equally likely (uniform shuffle, uninformed Fugitive model)",
    "thrifty": "a thrifty Fugitive: each footprint a hideout falls short of its sprint cards' "
    "reach halves a world's weight (uniform shuffle)",
    "frugal": "a frugal Fugitive: each footprint a hideout falls short of its sprint cards' "
    "reach quarters a world's weight (uniform shuffle)",
}
"""What the odds assume, by Fugitive model (:data:`~sleuth.games.fugitive.belief.MODELS`)."""


LOOKAHEAD_MODES = ("gamble", "reveal")
"""The modes that weigh the whole route and look ahead before 42 (see :meth:`Deduction.advice`)."""

REVEAL_POOL = 3
"""The ``reveal`` mode considers adding up to two of this many most likely numbers."""

ROUTE_POOL = 14
"""The whole-route guess is weighed only when the face-down hideouts have at most this many
candidate values in all (beyond that a whole route is a long shot, and costly to weigh)."""


@dataclass(frozen=True)
class Advice:
    """A suggested guess and the chance that every number in it is a hideout; no
    numbers means: make no guess this turn."""

    numbers: tuple[int, ...]
    probability: Fraction
    """Under the deduction's model; approximate when the belief is the relaxed one."""
    reason: str

    def __str__(self) -> str:
        if not self.numbers:
            return "no guess"
        return "guess " + " ".join(map(str, self.numbers))


@dataclass(frozen=True)
class Deduction:
    """Everything the Marshal can conclude from her view.  ``threshold`` is the game's
    ``manhunt_threshold``: a face-up hideout at or above it lets 42 win at once (F26)."""

    belief: ExactBelief
    counts: Counts
    threshold: int = 30

    @classmethod
    def from_events(
        cls,
        events: Sequence[Event],
        threshold: int = 30,
        max_states: int = MAX_STATES,
        model: str = "uniform",
    ) -> Deduction:
        """Deduce from the Marshal's events; a contradiction names its event (E5).  ``model``
        weighs the worlds (:data:`~sleuth.games.fugitive.belief.MODELS`); the candidate sets
        do not depend on it, only the odds."""
        belief = ExactBelief.from_events(events, max_states, model)
        return cls(belief, belief.counts(), threshold)

    @classmethod
    def within(
        cls, events: Sequence[Event], threshold: int, max_states: int, model: str = "uniform"
    ) -> Deduction | None:
        """The exact deduction if it needs at most ``max_states`` states, else the relaxed
        one (:class:`RelaxedBelief`: sound, approximate odds) within as many, else None; for
        players on a clock."""
        try:
            return cls.from_events(events, threshold, max_states, model)
        except SolverLimitError:
            pass
        try:
            belief = RelaxedBelief.from_events(events, max_states, model)
            return cls(belief, belief.counts(), threshold)
        except SolverLimitError:
            return None

    @property
    def assumption(self) -> str:
        """What the odds assume (labelled wherever they are shown)."""
        return ASSUMPTIONS[self.belief.model]

    @property
    def exact(self) -> bool:
        return not isinstance(self.belief, RelaxedBelief)

    def face_up(self) -> set[int]:
        return {s.value for s in self.belief.timeline.slots if s.value is not None}

    def guessable(self) -> list[int]:
        """Numbers the Marshal may name now (F20): not face-up hideouts or sprint cards (the
        sprint cards under 42 stay face down)."""
        face_up = self.face_up()
        for slot in self.belief.timeline.slots:
            if slot.stack is not None and slot.value != LAST:
                face_up.update(slot.stack)
        return [n for n in GUESSABLE if n not in face_up]

    def hideout_probabilities(self) -> dict[int, Fraction]:
        """P(number is a face-down hideout now), for every number she may name."""
        return {n: self.counts.hideout_probability(n) for n in self.guessable()}

    def not_hideouts(self) -> list[int]:
        """Numbers she may name that are a face-down hideout in no consistent world."""
        return [n for n, p in self.hideout_probabilities().items() if p == 0]

    def advice(
        self, mode: str = "gamble", lookahead: bool = True, routes: Routes | None = None
    ) -> Advice | None:
        """The guess to make; None when nothing is face down or the game is over.

        Every mode names the whole route when every face-down hideout is certain (a win, F25),
        and in the Manhunt names one number, certain if possible, else the most likely
        (``gamble`` and ``reveal``: the most likely number of the most likely whole route,
        since the Manhunt is won only by naming a whole route; a number on many unlikely
        routes can be likelier than any number of a likely one).
        Otherwise numbers at or above the threshold are left alone: revealing one would let 42
        win at once instead of starting the Manhunt.  (When no number below it may be a
        hideout and every pile is empty, waiting could last forever, so they are named too.)
        Among the rest:

        - ``certain``: every certain hideout, else no guess (the most likely number once the
          piles are empty, as waiting could then last forever);
        - ``argmax``: the single most likely number;
        - ``gamble``: every certain hideout plus the most likely other number;
        - ``reveal``: the set with the most hideouts revealed on average (size times the
          joint probability): certain hideouts plus up to two of the most likely others
          (the ``gamble`` choice when the joint pass would exceed the belief's state budget).

        ``gamble`` and ``reveal`` also weigh the *whole route*: naming every face-down hideout
        at once wins when it hits and costs only the turn when it misses.  They name the most
        likely whole route instead of their own choice when that would be no guess, would
        reveal a number at or above the threshold, or is no more likely to hit.

        With ``lookahead`` (the default), ``gamble`` and ``reveal`` then look one turn ahead
        while some face-down hideout may be at or above the threshold, since 42 may then come
        next: their choice gives way to the guess that wins most often if 42 comes right
        after it (:func:`~sleuth.games.fugitive.deduction.endgame.best_before_42`: whole routes, the
        sure step, the single gambles).  ``routes`` are the odds it uses, by default hers
        (:meth:`routes`); a Marshal who knows her opponent passes his
        (:meth:`~sleuth.games.fugitive.deduction.opponent.StrategyBelief.routes`).

        Ties go to the lower number (for the look ahead, see
        :func:`~sleuth.games.fugitive.deduction.endgame.best_before_42`).
        """
        if mode not in GUESS_MODES:
            raise ValueError(f"unknown guess mode {mode!r} (modes: {', '.join(GUESS_MODES)})")
        if self.belief.timeline.over:
            return None
        choice = self._advice(mode)
        if choice is None or mode not in LOOKAHEAD_MODES or self.belief.timeline.manhunt:
            return choice
        choice = self._whole_route(choice)
        return self._before_42(choice, routes) if lookahead else choice

    def _whole_route(self, choice: Advice) -> Advice:
        """``choice``, or the most likely whole route instead (see :meth:`advice`)."""
        risky = any(n >= self.threshold for n in choice.numbers)
        if choice.numbers and not risky and choice.probability == 1:
            return choice  # a sure step forward
        route = self.likeliest_route()
        if route is not None and (
            not choice.numbers or risky or route.probability >= choice.probability
        ):
            return route
        return choice

    def near_42(self) -> bool:
        """Before the Manhunt, some face-down hideout is uncertain and may be at or above the
        threshold, and none face up is (else 42 would win at once, F26): 42 may come next,
        and what she has not pinned down then is left to the Manhunt."""
        timeline = self.belief.timeline
        if timeline.manhunt or any(
            slot.value is not None and self.threshold <= slot.value < LAST
            for slot in timeline.slots
        ):
            return False
        candidates = self.counts.candidates()
        return len(self.counts.certain()) < len(candidates) and any(
            v >= self.threshold for values in candidates.values() for v in values
        )

    def _before_42(self, choice: Advice, routes: Routes | None) -> Advice:
        """``choice``, or the guess that wins most often if 42 comes next when some
        face-down hideout may be at or above the threshold (see :meth:`advice`)."""
        if not self.near_42():
            return choice
        known = routes is not None
        try:
            sets = self.face_down_sets
            if routes is None:
                routes = self.routes()
            if len(routes) > BEFORE_42_ROUTES or not reaches(routes, self.threshold):
                return choice
            best, chance = best_before_42(routes, self.threshold, choice.numbers)
        except SolverLimitError:
            return choice  # too long to weigh on a clock
        if best == choice.numbers:
            return choice
        hit = sum((p for values, p in sets.items() if values.issuperset(best)), Fraction(0))
        odds = " by his strategy" if known else ""
        return Advice(best, hit, f"wins most often if 42 comes next ({chance:.0%}{odds})")

    def likeliest_route(self) -> Advice | None:
        """Every face-down hideout of the most likely route, with its exact probability; None
        when their candidates number more than :data:`ROUTE_POOL` or the pass is too big."""
        candidates = self.counts.candidates().values()
        if len(set().union(*candidates)) > ROUTE_POOL:
            return None
        try:
            sets = self.face_down_sets
        except SolverLimitError:
            return None
        best = min(sets, key=lambda s: (-sets[s], sorted(s)))
        return Advice(tuple(sorted(best)), sets[best], "the most likely whole route (wins if hit)")

    @cached_property
    def face_down_sets(self) -> dict[frozenset[int], Fraction]:
        """The belief's :meth:`~ExactBelief.face_down_sets` for these counts, computed once:
        the whole-route gamble and the look ahead both need it.  A :class:`SolverLimitError`
        (not remembered) when the pass over the candidates is too big."""
        return self.belief.face_down_sets(self.counts)

    def routes(self) -> Routes:
        """Her odds of each set of face-down hideouts, as the end of the hunt weighs them
        (:mod:`~sleuth.games.fugitive.deduction.endgame`; their sprint cards unknown).  A
        :class:`SolverLimitError` when the pass over the candidates is too big."""
        positions = sorted(self.counts.by_position)
        sets = self.face_down_sets
        routes: dict[Route, float] = {}
        for values, p in sets.items():
            route = zip(positions, sorted(values), strict=True)
            routes[tuple((position, value, ()) for position, value in route)] = float(p)
        return routes_of(routes)

    def joints(self, pool: Sequence[int]) -> dict[frozenset[int], Fraction]:
        """P(every number of S is a face-down hideout now) for every non-empty S within
        ``pool`` (:meth:`~sleuth.games.fugitive.belief.ExactBelief.joints`)."""
        return self.belief.joints(pool)

    def _advice(self, mode: str) -> Advice | None:
        """The choice of ``mode`` alone (see :meth:`advice`)."""
        face_down = len(self.counts.by_position)
        if not face_down:
            return None
        certain = self.counts.certain()
        probabilities = self.hideout_probabilities()
        ranked = sorted(
            (n for n, p in probabilities.items() if p > 0 and n not in certain),
            key=lambda n: (-probabilities[n], n),
        )
        if self.belief.timeline.manhunt:
            if certain:
                return Advice((certain[0],), Fraction(1), "certain")
            route = self.likeliest_route() if mode in LOOKAHEAD_MODES else None
            if route is not None:  # follow the likeliest whole route, surest number first
                surest = min(route.numbers, key=lambda n: (-probabilities[n], n))
                return Advice((surest,), probabilities[surest], "on the likeliest whole route")
            return Advice((ranked[0],), probabilities[ranked[0]], "most likely")
        if len(certain) == face_down:
            return Advice(tuple(certain), Fraction(1), "uncovers the whole route")
        sure = [n for n in certain if n < self.threshold]
        others = [n for n in ranked if n < self.threshold]
        if not sure and self.belief.timeline.piles_empty():
            # the hand can no longer change: waiting (for a certainty, or for 42) may be forever
            others = others or ranked
            if mode == "certain":
                mode = "argmax"
        if mode == "certain" or (mode != "argmax" and not others):
            if sure:
                return Advice(tuple(sure), Fraction(1), "certain")
            return Advice((), Fraction(0), "nothing certain below the threshold")
        if mode == "argmax":
            top = sorted(sure + others[:1], key=lambda n: (-probabilities[n], n))
            if not top:
                return Advice((), Fraction(0), "no likely number below the threshold")
            return Advice((top[0],), probabilities[top[0]], "most likely")
        gamble = Advice(
            tuple(sorted([*sure, others[0]])),
            probabilities[others[0]],  # the rest is certain
            "certain plus the most likely" if sure else "most likely",
        )
        if mode == "gamble":
            return gamble
        pool = others[:REVEAL_POOL]
        try:
            joints = self.joints(pool)  # certain numbers never change a joint
        except SolverLimitError:
            return gamble  # the joint pass is over budget: the single-number odds are known
        options = [(a,) for a in pool] + [(a, b) for a, b in combinations(pool, 2)]
        best_value, best = Fraction(-1), Advice((), Fraction(0), "")
        for extra in options:
            numbers = tuple(sorted([*sure, *extra]))
            p = joints[frozenset(extra)]
            value = len(numbers) * p
            if value > best_value or (value == best_value and len(numbers) < len(best.numbers)):
                best_value, best = value, Advice(numbers, p, "most hideouts revealed on average")
        if sure and len(sure) >= best_value:
            return Advice(tuple(sure), Fraction(1), "certain")
        return best

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
            "model": self.belief.model,
            "assumption": self.assumption,
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
