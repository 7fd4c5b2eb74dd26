"""The Marshal's odds when she knows the Fugitive's mix of strategies, with a floor.

A *mix* is a few :class:`~sleuth.games.fugitive.players.fugitives.Strategy` with their prior
weights: one of them is drawn before the game and played for all of it (as the robust
Fugitive does).  :class:`MixtureBelief` keeps one exact :class:`StrategyBelief` per member:
each weighs every hand and route by the probability that its strategy played it, so the
posterior of a route is the sum over members of the prior weight times that member's weight
of the route (the chance moves weigh the same in every member, so the members' weights add
up).  A member whose strategy cannot show the view is dropped for the rest of the game.

The posterior is exact for the mix.  A Fugitive who plays otherwise (off the mix) may show a
view the mix can show with a route the mix never plays; so that the truth is never excluded,
:func:`floored` mixes the posterior with the counting belief's (every world consistent with the
view, weighed by its own model): ``FLOOR`` of the odds are the counting belief's, the rest the
mix's, and every consistent world keeps a positive weight.  When no member can show the view,
the odds are the counting belief's alone.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from math import lcm

from sleuth.core.errors import SleuthError, SolverLimitError
from sleuth.core.events import Event, thaw
from sleuth.games.fugitive.belief import Counts
from sleuth.games.fugitive.deduction.advice import Deduction
from sleuth.games.fugitive.deduction.opponent import StrategyBelief
from sleuth.games.fugitive.engine.cards import LAST
from sleuth.games.fugitive.players.fugitives import Strategy
from sleuth.games.fugitive.rules import MARSHAL, FugitiveGame

FLOOR = Fraction(1, 100)
"""The share of the counting belief's odds in :func:`floored` (a world the mix never plays
keeps this share of its weight there)."""

Values = tuple[tuple[int, int], ...]
"""The face-down hideouts of a route (42 aside): (position, value) pairs by position."""


OPENINGS_KEPT = 8
"""Members' beliefs after an opening kept per process (see :class:`MixtureBelief`)."""
_openings: dict[tuple[object, ...], StrategyBelief] = {}


class MixtureBelief:
    """The posterior over the face-down hideouts under a mix (see the module docstring), read
    from a growing view of the Marshal (:meth:`update`)."""

    def __init__(
        self,
        game: FugitiveGame,
        mix: Sequence[tuple[float, Strategy]],
        max_states: int,
        name: str | None = None,
    ) -> None:
        if not mix or any(w <= 0 for w, _ in mix):
            raise ValueError(f"a mix needs members of positive weight, not {mix!r}")
        self.game = game
        self.name = name
        """What names the mix in this game (its strategies included), or None: when named,
        each member's belief after the opening (the events before the Marshal's first move,
        none of her cards among them; the costliest reading, over every hand the setup
        deals) is kept per process for the :data:`OPENINGS_KEPT` latest openings, and read
        on from a copy in the next game with the same opening."""
        self.members: list[tuple[float, StrategyBelief | None]] = [
            (w, StrategyBelief(game, s, max_states)) for w, s in mix
        ]
        """Each member's prior weight and belief; None once the view shows he does not play
        it."""
        self.events: list[Event] = []
        """The events read so far."""

    def update(self, events: Sequence[Event]) -> None:
        """Read ``events``, the whole view so far (those read must be its beginning: a
        :class:`SleuthError` otherwise).  A member that cannot show it is dropped; a
        :class:`~sleuth.core.errors.SolverLimitError` of a member leaves the members that
        have not read the new events as they were (so it may be raised again)."""
        if list(events[: len(self.events)]) != self.events:
            raise SleuthError("the events already read are not the beginning of this view")
        for i, (weight, belief) in enumerate(self.members):
            if belief is None:
                continue
            try:
                belief = self._after_opening(belief, i, events)
                self.members[i] = (weight, belief)
                belief.update(events)
            except SolverLimitError:
                raise
            except SleuthError:
                self.members[i] = (weight, None)
        self.events = list(events)

    def _after_opening(
        self, belief: StrategyBelief, member: int, events: Sequence[Event]
    ) -> StrategyBelief:
        """``belief`` (member ``member``'s), or a copy of its reading of the opening of
        ``events`` kept for the next game, when it has read nothing yet, the mix is named
        and ``events`` hold the Marshal's first move (the opening: the events before it)."""
        if self.name is None or belief.events:
            return belief
        first = next((i for i, e in enumerate(events) if e.public.get("seat") == MARSHAL), None)
        if first is None:
            return belief
        opening = tuple(
            (e.kind, json.dumps(thaw(e.public), sort_keys=True)) for e in events[:first]
        )
        key = (repr(self.game), self.name, member, opening)
        if key not in _openings:
            belief.update(events[:first])
            _openings[key] = belief.copy()
            while len(_openings) > OPENINGS_KEPT:
                del _openings[next(iter(_openings))]
        return _openings[key].copy()

    def posterior(self) -> dict[Values, Fraction]:
        """The probability of each set of face-down hideouts with their positions, exactly
        (the branches' weights taken as exact binary fractions); empty when no member can
        show the view."""
        weights: dict[Values, Fraction] = {}
        for prior, belief in self.members:
            if belief is None:
                continue
            for state, weight in belief.states:
                route = tuple(
                    (position, h.value)
                    for position, h in enumerate(state.route)
                    if position and not h.face_up and h.value != LAST
                )
                weights[route] = weights.get(route, Fraction(0)) + Fraction(prior * weight)
        total = sum(weights.values(), Fraction(0))
        return {route: w / total for route, w in weights.items() if w > 0} if total else {}


@dataclass(frozen=True)
class FlooredCounts(Counts):
    """:class:`Counts` of a floored posterior (:func:`floored`): every consistent world has a
    positive share, but :meth:`certain` names the numbers that are hideouts in every route
    the mix plays (``sure``), the numbers she names at once as certain under her model."""

    sure: tuple[int, ...] = ()

    def certain(self) -> list[int]:
        return list(self.sure)


@dataclass(frozen=True)
class FlooredDeduction(Deduction):
    """A :class:`Deduction` whose odds are :func:`floored`: ``own`` are the counting belief's
    counts, ``sets`` the mix's odds of each set of face-down hideout values."""

    own: Counts | None = None
    sets: Mapping[frozenset[int], Fraction] | None = None
    floor: Fraction = FLOOR

    @cached_property
    def face_down_sets(self) -> dict[frozenset[int], Fraction]:
        """The floored odds of each set of face-down hideout values (the counting belief's
        pass: a :class:`~sleuth.core.errors.SolverLimitError` when it is too big)."""
        assert self.own is not None and self.sets is not None
        out = {s: self.floor * p for s, p in self.belief.face_down_sets(self.own).items()}
        for values, p in self.sets.items():
            out[values] = out.get(values, Fraction(0)) + (1 - self.floor) * p
        return out

    def joints(self, pool: Sequence[int]) -> dict[frozenset[int], Fraction]:
        """P(every number of S is a face-down hideout) for every non-empty S within ``pool``,
        floored as the rest."""
        assert self.sets is not None
        own = self.belief.joints(pool)
        return {
            subset: self.floor * p
            + (1 - self.floor)
            * sum((q for values, q in self.sets.items() if subset <= values), Fraction(0))
            for subset, p in own.items()
        }


def floored(deduction: Deduction, posterior: Mapping[Values, Fraction]) -> Deduction:
    """``deduction`` with the odds of the mix's ``posterior`` (:meth:`MixtureBelief.posterior`),
    floored by its own (see the module docstring); ``deduction`` itself when the posterior is
    empty.  Every value and set of values with a consistent world keeps a positive
    probability, and no other gets one."""
    if not posterior:
        return deduction
    own = deduction.counts
    shares: dict[int, dict[int, Fraction]] = {
        p: {v: FLOOR * Fraction(n, own.total) for v, n in values.items()}
        for p, values in own.by_position.items()
    }
    sets: dict[frozenset[int], Fraction] = {}
    for route, q in posterior.items():
        for position, value in route:
            at = shares[position]
            at[value] = at.get(value, Fraction(0)) + (1 - FLOOR) * q
        values = frozenset(v for _, v in route)
        sets[values] = sets.get(values, Fraction(0)) + q
    scale = lcm(*(f.denominator for at in shares.values() for f in at.values()))
    hits = set.intersection(*(set(values) for values in sets)) if sets else set()
    counts = FlooredCounts(
        scale,
        {p: {v: int(f * scale) for v, f in sorted(at.items())} for p, at in shares.items()},
        own.sprint_totals,
        tuple(sorted(hits)),
    )
    return FlooredDeduction(deduction.belief, counts, deduction.threshold, own, sets)
