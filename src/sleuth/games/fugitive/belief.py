"""The Marshal's exact deduction (section 9.2 of ``shared/rules/fugitive.md``).

A *world* assigns every card the Fugitive drew (in order, from the recorded piles, never one of
the Marshal's cards), every hideout value and every sprint card.  :class:`ExactBelief` counts
the worlds consistent with the Marshal's view exactly, and per face-down position how many
give each value, so its candidate sets are sound and complete (E1) and its probabilities are
exact ratios of integers under a uniform shuffle and a Fugitive whose every legal choice has
weight 1 (E3).

How the count factorises.  Fix the route (hideouts and stacks).  For one pile, the route cards
from it must be among the Fugitive's draws from that pile made before each was placed.  Taken
in placement order, the t-th such card placed when ``a`` cards had been drawn from the pile
has ``a - (t - 1)`` possible draw slots; the other draws are any ordered choice of the pile's
remaining cards.  So a route's weight is a product of per-card factors, known as soon as the
card is placed, times a final factor per pile.  A dynamic programme over the route positions
then sums all routes at once; its state is (last hideout, the cards used so far that a later
position could still use, route cards taken from each pile, progress on each multi-number
miss).  Forward and backward sums give the per-position counts.

The constraints used are D1-D9 of the rules document: monotone route; the sprint budget with
the stack's real cards (no lower bound); one place per card, never a Marshal card, 0 or 42
(except 42's own slot); single misses for the positions placed before them; multi-number
misses as clauses; pile provenance and draw timing; sprint cards using the same cards;
revealed values and stacks.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from math import factorial

from sleuth.core.errors import SleuthError, SolverLimitError
from sleuth.core.events import Event
from sleuth.games.fugitive.cards import LAST, SPRINT, pile_of
from sleuth.games.fugitive.timeline import Miss, Timeline, read_view

MAX_STATES = 2_000_000
"""States the dynamic programme may visit before it gives up (SolverLimitError)."""

TYPES = 8
"""Sprint cards are counted by type, ``2 * pile + (value - 1)``: pile 0 (the start hand) to 3,
sprint value 1 or 2.  Their identities only matter for being distinct, which a final factor
counts, so the programme never tracks which cards a stack holds."""

Key = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""(last hideout, route cards per pile, sprint cards per type, unknown hideouts per type,
progress per clause)."""


def _type(card: int) -> int:
    return 2 * pile_of(card) + SPRINT[card] - 1


class ContradictionError(SleuthError):
    """No world is consistent with the events (an entry error at the table, E5)."""


def _falling(n: int, k: int) -> int:
    if k > n:
        return 0
    out = 1
    for i in range(k):
        out *= n - i
    return out


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every tuple of ``parts`` non-negative integers summing to ``total``."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


@dataclass(frozen=True)
class _Stack:
    """One choice of sprint cards for a position, as the programme sees it."""

    footprints: int
    per_pile: tuple[int, ...]
    """Cards from the start hand and from piles 1, 2, 3."""
    used: tuple[int, ...]
    """Sprint cards per type after this stack."""
    ways: int
    """Orderings of the stack's types (1 for a revealed stack)."""


@dataclass(frozen=True)
class Counts:
    """Exact world counts: ``total`` worlds; ``by_position[p][v]`` of them have value ``v`` at
    face-down position ``p``."""

    total: int
    by_position: dict[int, dict[int, int]]

    def candidates(self) -> dict[int, list[int]]:
        return {p: sorted(values) for p, values in self.by_position.items()}

    def probabilities(self) -> dict[int, dict[int, Fraction]]:
        return {
            p: {v: Fraction(n, self.total) for v, n in sorted(values.items())}
            for p, values in self.by_position.items()
        }


class ExactBelief:
    """Exact counts of the worlds consistent with a Marshal's :class:`Timeline`."""

    def __init__(self, timeline: Timeline, max_states: int = MAX_STATES) -> None:
        self.timeline = timeline
        self.max_states = max_states
        slots = timeline.slots
        known: set[int] = set()
        for slot in slots:
            if slot.value is not None:
                known.add(slot.value)
            known.update(slot.stack or ())
        self.blocked = timeline.marshal_cards | known | {0, LAST}
        """Cards no unknown part of the route can be (they are elsewhere or face up)."""
        self.free = [0] * TYPES
        """Unblocked cards of each sprint type."""
        for card in range(1, LAST):
            if card not in self.blocked:
                self.free[_type(card)] += 1
        self.singles: list[set[int]] = [set() for _ in slots]
        self.clauses: list[Miss] = []
        for miss in timeline.misses:
            if len(miss.numbers) == 1:
                for i in range(miss.placed):
                    self.singles[i].add(miss.numbers[0])
            else:
                self.clauses.append(miss)
        self.divisor = 1
        """The product of k! over unknown stacks (the programme counts ordered stacks)."""
        for slot in slots:
            if slot.stack is None:
                self.divisor *= factorial(slot.sprints)
        self._memo: dict[tuple[int, Key], int] = {}
        self._extra: tuple[int, ...] = ()

    @classmethod
    def from_events(cls, events: Iterable[Event], max_states: int = MAX_STATES) -> ExactBelief:
        return cls(read_view(events), max_states)

    # --- the transitions of one position ----------------------------------------------------

    def _hideouts(self, i: int, last: int) -> Iterator[int]:
        slot = self.timeline.slots[i]
        if slot.value is not None:
            if slot.value > last:
                yield slot.value
            return
        for h in range(last + 1, LAST):
            if h not in self.blocked and h not in self.singles[i]:
                yield h

    def _stacks(self, i: int, used: tuple[int, ...]) -> Iterator[_Stack]:
        """Every possible stack at index ``i``: the revealed one, or sprint-type counts."""
        slot = self.timeline.slots[i]
        if slot.stack is not None:
            per_pile = [0, 0, 0, 0]
            for c in slot.stack:
                per_pile[pile_of(c)] += 1
            yield _Stack(sum(SPRINT[c] for c in slot.stack), tuple(per_pile), used, 1)
            return
        for counts in _compositions(slot.sprints, TYPES):
            if any(used[t] + counts[t] > self.free[t] for t in range(TYPES) if counts[t]):
                continue
            ways = factorial(slot.sprints)
            for n in counts:
                ways //= factorial(n)
            yield _Stack(
                footprints=sum(n * (t % 2 + 1) for t, n in enumerate(counts)),
                per_pile=tuple(counts[2 * j] + counts[2 * j + 1] for j in range(4)),
                used=tuple(u + n for u, n in zip(used, counts, strict=True)),
                ways=ways,
            )

    def _moves(self, i: int, key: Key) -> Iterator[tuple[int, int, Key]]:
        """Every (hideout, weight, next key) from ``key`` at position index ``i``."""
        last, taken, used, hidden, progress = key
        slot = self.timeline.slots[i]
        stacks = list(self._stacks(i, used))
        for h in self._hideouts(i, last):
            new_progress = list(progress)
            ok = True
            for c, clause in enumerate(self.clauses):
                if i < clause.placed and h in clause.numbers:
                    new_progress[c] += 1
                if clause.placed == i + 1 and new_progress[c] >= len(clause.numbers):
                    ok = False  # every number of the missed guess would be a hideout
            if not ok:
                continue
            if self._extra and h in self._extra:
                new_progress[-1] += 1
            new_hidden = hidden
            if slot.value is None:
                new_hidden = tuple(n + (t == _type(h)) for t, n in enumerate(hidden))
            for stack in stacks:
                if h - last > 3 + stack.footprints:
                    continue
                weight = stack.ways
                counts = list(taken)
                cards = list(stack.per_pile)
                cards[pile_of(h)] += 1
                for pile in (1, 2, 3):
                    for _ in range(cards[pile]):
                        weight *= slot.draws[pile - 1] - counts[pile - 1]
                        counts[pile - 1] += 1
                if weight <= 0:
                    continue
                nxt = (
                    h,
                    (counts[0], counts[1], counts[2]),
                    stack.used,
                    new_hidden,
                    tuple(new_progress),
                )
                yield h, weight, nxt

    def _final(self, key: Key) -> int:
        _, taken, used, hidden, progress = key
        if self._extra and progress[-1] != len(self._extra):
            return 0
        out = 1
        for t in range(TYPES):
            out *= _falling(self.free[t] - hidden[t], used[t])
        for pile in (1, 2, 3):
            drawn = self.timeline.fugitive_draws[pile - 1]
            pool = self.timeline.pool(pile)
            if taken[pile - 1] > drawn or drawn > pool:
                return 0
            out *= _falling(pool - taken[pile - 1], drawn - taken[pile - 1])
        return out

    # --- counting -------------------------------------------------------------------------

    def _start(self) -> Key:
        zeros = (0,) * TYPES
        return (0, (0, 0, 0), zeros, zeros, (0,) * (len(self.clauses) + bool(self._extra)))

    def _ahead(self, i: int, key: Key) -> int:
        """Weighted number of completions of the route from position index ``i``."""
        if i == len(self.timeline.slots):
            return self._final(key)
        memo_key = (i, key)
        found = self._memo.get(memo_key)
        if found is not None:
            return found
        if len(self._memo) >= self.max_states:
            raise SolverLimitError(f"the exact belief needs more than {self.max_states} states")
        total = sum(w * self._ahead(i + 1, nxt) for _, w, nxt in self._moves(i, key))
        self._memo[memo_key] = total
        return total

    def total(self) -> int:
        """The number of consistent worlds."""
        return self._ahead(0, self._start()) // self.divisor

    def counts(self) -> Counts:
        """Exact counts per face-down position and value (E1, E3)."""
        layer: dict[Key, int] = {self._start(): 1}
        by_position: dict[int, dict[int, int]] = {}
        slots = self.timeline.slots
        for i, slot in enumerate(slots):
            counts: dict[int, int] = defaultdict(int)
            following: dict[Key, int] = defaultdict(int)
            for key, before in layer.items():
                for h, w, nxt in self._moves(i, key):
                    after = self._ahead(i + 1, nxt)
                    if after:
                        counts[h] += before * w * after
                        following[nxt] += before * w
            if slot.value is None:
                by_position[slot.position] = {v: n // self.divisor for v, n in counts.items()}
            layer = following
        total = self.total()
        if total == 0:
            raise ContradictionError("no world is consistent with these events")
        return Counts(total, by_position)

    def joint(self, numbers: Iterable[int]) -> Fraction:
        """P(every number is a face-down hideout now): n(G) / N, never a product (E3, M6)."""
        numbers = tuple(sorted(set(numbers)))
        total = self.total()
        if total == 0:
            raise ContradictionError("no world is consistent with these events")
        face_up = {s.value for s in self.timeline.slots if s.value is not None}
        if not numbers or face_up & set(numbers):
            return Fraction(0)
        saved = self._memo, self._extra
        self._memo, self._extra = {}, numbers
        try:
            hits = self._ahead(0, self._start()) // self.divisor
        finally:
            self._memo, self._extra = saved
        return Fraction(hits, total)
