"""The Marshal's exact deduction (rules E1-E6 of ``docs/fugitive.md``).

A *world* assigns every card the Fugitive drew (in order, from the recorded piles, never one of
the Marshal's cards), every hideout value and every sprint card.  :class:`ExactBelief` counts
the worlds consistent with the Marshal's view exactly, and per face-down position how many
give each value, so its candidate sets are sound and complete (E1) and its probabilities are
exact ratios of integers under a uniform shuffle and a Fugitive whose every legal choice has
weight 1 (E3), or under a Fugitive model that weighs his choices (:data:`MODELS`).
:meth:`ExactBelief.sample` draws complete worlds in proportion to their weights.
:class:`MarshalBelief` gives it the core's belief protocol (:mod:`sleuth.core.belief`): built
from the Marshal's view, updated event by event, counted when asked.  No world consistent with
the events is a :class:`~sleuth.core.errors.ContradictionError` naming the first event after
which none remains (E5).

How the count factorises.  Fix the route (hideouts and stacks).  For one pile, the route cards
from it must be among the Fugitive's draws from that pile made before each was placed.  Taken
in placement order, the t-th such card placed when ``a`` cards had been drawn from the pile
has ``a - (t - 1)`` possible draw slots; the other draws are any ordered choice of the pile's
remaining cards.  So a route's weight is a product of per-card factors, known as soon as the
card is placed, times a final factor per pile.  Sprint cards are counted by *type* (pile and
sprint value, :mod:`~sleuth.games.fugitive.deduction.compositions`): their identities only matter
for
being distinct from each other and from the hideouts, which a final falling factorial per type
counts.

A dynamic programme over the route positions sums all routes at once.  Its state after a
position is a :data:`Key`; each position is two steps, so that stacks and hideouts are not
multiplied together: first the stack (a count of cards per type, giving the *reach*, the
highest hideout its footprints allow), then the hideout.  Backward values and forward flows
give the per-position counts.

The constraints used are D1-D9 of ``docs/fugitive.md``: monotone route; the sprint budget with
the stack's real cards (no lower bound); one place per card, never a Marshal card, 0 or 42
(except 42's own slot); single misses for the positions placed before them; multi-number
misses as clauses; pile provenance and draw timing; sprint cards using the same cards;
revealed values and stacks.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property
from itertools import combinations, pairwise
from math import factorial
from typing import Any, TypeVar, cast

import numpy as np

from sleuth.core.belief import contradiction, read_events
from sleuth.core.compiled import COMPILED, compile_elsewhere, ready
from sleuth.core.errors import ContradictionError, SleuthError, SolverLimitError
from sleuth.core.events import Event, View
from sleuth.core.game import Game, State
from sleuth.games.fugitive.catalogue import DEFAULT_MODEL as DEFAULT_MODEL
from sleuth.games.fugitive.catalogue import MODELS as MODELS
from sleuth.games.fugitive.deduction import _counting
from sleuth.games.fugitive.deduction.compositions import (
    CARDS_OF_TYPE,
    TYPE_OF,
    TYPES,
    card_type,
    composition,
    route_compositions,
    stack_facts,
    type_counts,
)
from sleuth.games.fugitive.deduction.timeline import Miss, Slot, Timeline, read_view
from sleuth.games.fugitive.engine.cards import LAST, PILE_OF, PILES, SPRINT, pile_of
from sleuth.games.fugitive.rules import MARSHAL, FugitiveGame, FugitiveState

MAX_STATES = 2_000_000
"""States the dynamic programme may visit before it gives up (SolverLimitError)."""

SLACK_CAP = 8
"""Slack beyond which a placement weighs least (see :data:`MODELS`)."""
Key = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""(last hideout, route cards per pile 1-3, sprint cards per type, face-down hideouts per type,
progress per clause).  A key keeps only what a later step reads, exactly like the compiled
programme's packed state (:mod:`~sleuth.games.fugitive.deduction._counting`), so that both visit
the same
states and a state budget (``max_states``) stops both at the same positions: the last hideout
is 0 after the last position, and a missed guess's progress is 0 once every hideout it was
about is placed."""
Mid = tuple[Key, int]
"""A key whose next stack is chosen (its taken and used counts updated), and the reach."""

T = TypeVar("T")


_TYPE_ARRAY = np.array([max(t, 0) for t in TYPE_OF], dtype=np.int64)
_PILE_ARRAY = np.array(PILE_OF, dtype=np.int64)
_SLACK_WEIGHTS = {
    base: np.array([base ** (SLACK_CAP - min(s, SLACK_CAP)) for s in range(LAST + 1)], np.int64)
    for base in MODELS.values()
}
"""Per model base, the weight of a hideout ``s`` footprints short of its reach."""
_NO_EXTRA = np.full(LAST + 1, -1, dtype=np.int64)
"""The compiled programme's ``extra_bit`` when no extra numbers are tracked."""
_NO_MISSES = np.zeros((0, 3), dtype=np.int64)
"""The compiled programme's ``misses`` when every guess hit."""


def _falling(n: int, k: int) -> int:
    if k > n:
        return 0
    out = 1
    for i in range(k):
        out *= n - i
    return out


@dataclass(frozen=True)
class Counts:
    """Exact world counts: ``total`` worlds; ``by_position[p][v]`` of them have value ``v`` at
    face-down position ``p``; ``sprint_totals[p]`` lists the footprint totals the hidden stack
    at position ``p`` can have (E4; 42's stack included)."""

    total: int
    by_position: dict[int, dict[int, int]]
    sprint_totals: dict[int, list[int]]

    def candidates(self) -> dict[int, list[int]]:
        return {p: sorted(values) for p, values in self.by_position.items()}

    def probabilities(self) -> dict[int, dict[int, Fraction]]:
        return {
            p: {v: Fraction(n, self.total) for v, n in sorted(values.items())}
            for p, values in self.by_position.items()
        }

    def hideout_probability(self, number: int) -> Fraction:
        """P(``number`` is a face-down hideout now)."""
        hits = sum(values.get(number, 0) for values in self.by_position.values())
        return Fraction(hits, self.total)

    def certain(self) -> list[int]:
        """Numbers that are face-down hideouts in every consistent world (E2): naming any set
        of them is a sure hit."""
        hits: dict[int, int] = defaultdict(int)
        for values in self.by_position.values():
            for v, n in values.items():
                hits[v] += n
        return sorted(v for v, n in hits.items() if n == self.total)

    def fixed_positions(self) -> dict[int, int]:
        """Face-down positions with a single candidate, and its value (E2)."""
        return {p: next(iter(v)) for p, v in self.by_position.items() if len(v) == 1}


@dataclass(frozen=True)
class _Run:
    """The weighted counts of one compiled run of the programme (before the divisor)."""

    total: int
    by_index: list[dict[int, int]]
    """Per position index, the weighted count of each hideout value with any, in increasing
    order of value, divided by the divisor (unlike the other counts)."""
    footprints: list[list[int]]
    """Per position index, the footprint totals of its stack in consistent worlds."""
    by_mask: dict[int, int]
    """Weighted counts by the bitset of ``extra`` numbers that are face-down hideouts."""


@dataclass(frozen=True)
class World:
    """One complete world: the route and the Fugitive's draws, card by card."""

    hideouts: tuple[int, ...]
    """The value at every position, face-up ones included."""
    stacks: tuple[tuple[int, ...], ...]
    """The sprint cards under every position."""
    draws: tuple[tuple[int, ...], ...]
    """The cards the Fugitive drew from piles 1, 2 and 3, in order (setup draws first)."""


class _Tables:
    """The memo tables of one dynamic programme, per position index."""

    def __init__(self, positions: int) -> None:
        self.ahead: list[dict[Key, int]] = [{} for _ in range(positions + 1)]
        self.mid: list[dict[Mid, int]] = [{} for _ in range(positions)]
        self.stack_edges: list[dict[Key, list[tuple[int, Mid, int]]]] = [
            {} for _ in range(positions)
        ]
        self.hideout_edges: list[dict[Mid, list[tuple[int, int, Key]]]] = [
            {} for _ in range(positions)
        ]
        self.draws: dict[tuple[int, Key | Mid], tuple[list[int], list[Any]]] = {}
        """The sampler's choices after a key or a mid at a position index: the cumulative
        weights of its options (stacks, or hideouts with their next keys), and the options."""
        self.states = 0


class ExactBelief:
    """Exact counts of the worlds consistent with a Marshal's :class:`Timeline`.

    Build it with :meth:`from_events` to have contradictions name the event that caused them.
    """

    track_identities = True
    """Count sprint cards by type across the route, so that no card is in two places."""
    label = "exact"
    """How messages name this belief."""

    def __init__(
        self,
        timeline: Timeline,
        max_states: int = MAX_STATES,
        events: Sequence[Event] | None = None,
        model: str = "uniform",
    ) -> None:
        if model not in MODELS:
            raise SleuthError(f"unknown Fugitive model {model!r} (models: {', '.join(MODELS)})")
        self.model = model
        self.slack_base = MODELS[model]
        """World weights (see :data:`MODELS`); 1 counts every world once."""
        self.timeline = timeline
        self.max_states = max_states
        self.events = events
        slots = timeline.slots
        known: set[int] = set()
        for slot in slots:
            if slot.value is not None:
                known.add(slot.value)
            known.update(slot.stack or ())
        self.blocked = timeline.marshal_cards | known | {0, LAST}
        """Cards no unknown part of the route can be (they are elsewhere or face up)."""
        self.free = list(CARDS_OF_TYPE)
        """Unblocked cards of each sprint type."""
        for card in self.blocked:
            if 0 < card < LAST:
                self.free[TYPE_OF[card]] -= 1
        self.clauses = [miss for miss in timeline.misses if len(miss.numbers) > 1]
        """The missed multi-number guesses (single misses rule values out, see _allowed)."""
        self.divisor = 1
        """The product of k! over unknown stacks (the programme counts ordered stacks)."""
        for slot in slots:
            if slot.stack is None:
                self.divisor *= factorial(slot.sprints)
        self._extra: tuple[int, ...] = ()
        self._pools = timeline.pools()
        """Per pile: the cards the Fugitive could have drawn from it."""
        self._run: _Run | None = None
        """The compiled programme's counts, once computed."""
        self._first: tuple[float, Any, Any, Any] | None = None
        """The compiled programme's floating-point run, once made (see :meth:`_float_run`)."""

    @classmethod
    def from_events(
        cls, events: Iterable[Event], max_states: int = MAX_STATES, model: str = "uniform"
    ) -> ExactBelief:
        events = list(events)
        return cls(read_view(events), max_states, events, model)

    # --- the plain programme's memo tables (the compiled one needs none) --------------------

    @cached_property
    def _tables(self) -> _Tables:
        return _Tables(len(self.timeline.slots))

    @cached_property
    def _choice_memo(self) -> list[dict[tuple[tuple[int, ...], ...], list[Any]]]:
        """Stack choices per position and (taken, used, hidden): shared by every count."""
        return [{} for _ in self.timeline.slots]

    @cached_property
    def _final_memo(self) -> dict[tuple[tuple[int, ...], ...], int]:
        """:meth:`_final` by (taken, used, hidden): shared by every count."""
        return {}

    # --- the two steps of one position ------------------------------------------------------

    @cached_property
    def _allowed(self) -> list[list[int]]:
        """Per position index, the values its hideout may take, ignoring the route: not
        blocked, and not missed by a single-number guess made once it was placed."""
        singles: list[set[int]] = [set() for _ in self.timeline.slots]
        for miss in self.timeline.misses:
            if len(miss.numbers) == 1:
                for i in range(miss.placed):
                    singles[i].add(miss.numbers[0])
        return [
            [slot.value]
            if slot.value is not None
            else [h for h in range(1, LAST) if h not in self.blocked and h not in excluded]
            for slot, excluded in zip(self.timeline.slots, singles, strict=True)
        ]

    def _stacks(self, i: int, key: Key) -> list[tuple[int, Mid, int]]:
        """(weight, mid, footprints) for every stack at position index ``i`` after ``key``."""
        found = self._tables.stack_edges[i].get(key)
        if found is not None:
            return found
        last, taken, used, hidden, progress = key
        edges = [
            (weight, ((last, after, new_used, hidden, progress), min(last + 3 + fp, LAST)), fp)
            for weight, after, new_used, fp in self._stack_choices(i, taken, used, hidden)
        ]
        self._tables.stack_edges[i][key] = edges
        return edges

    def _stack_choices(
        self, i: int, taken: tuple[int, ...], used: tuple[int, ...], hidden: tuple[int, ...]
    ) -> list[tuple[int, tuple[int, ...], tuple[int, ...], int]]:
        """(weight, route cards per pile after, sprint cards per type after, footprints) for
        every stack at position index ``i``; independent of the last hideout."""
        cache_key = (taken, used, hidden)
        found = self._choice_memo[i].get(cache_key)
        if found is not None:
            return found
        slot = self.timeline.slots[i]
        choices: list[tuple[int, tuple[int, ...], tuple[int, ...], int]] = []
        if slot.stack is not None:
            per_pile = [0, 0, 0, 0]
            for c in slot.stack:
                per_pile[PILE_OF[c]] += 1
            weight = 1
            for p in (1, 2, 3):
                weight *= _falling(slot.draws[p - 1] - taken[p - 1], per_pile[p])
            if weight:
                after = tuple(t + n for t, n in zip(taken, per_pile[1:], strict=True))
                choices.append((weight, after, used, sum(SPRINT[c] for c in slot.stack)))
        else:
            room = [self.free[t] - used[t] - hidden[t] for t in range(TYPES)]
            merged: dict[tuple[tuple[int, ...], int], int] = defaultdict(int)
            draws = [slot.sprints, *(d - t for d, t in zip(slot.draws, taken, strict=True))]
            for counts in type_counts(slot.sprints, room, draws):
                weight, footprints, piles = composition(counts)
                for p, n in enumerate(piles):
                    weight *= _falling(slot.draws[p] - taken[p], n)
                new_taken = (taken[0] + piles[0], taken[1] + piles[1], taken[2] + piles[2])
                if self.track_identities:
                    new_used = tuple(u + n for u, n in zip(used, counts, strict=True))
                    choices.append((weight, new_taken, new_used, footprints))
                else:  # this stack's own identities; merged by what the programme still needs
                    for t, n in enumerate(counts):
                        weight *= _falling(self.free[t], n)
                    merged[(new_taken, footprints)] += weight
            choices += [(w, after, used, fp) for (after, fp), w in merged.items() if w]
        self._choice_memo[i][cache_key] = choices
        return choices

    def _hideouts(self, i: int, mid: Mid) -> list[tuple[int, int, Key]]:
        """(hideout, weight, next key) for every hideout at position index ``i`` after ``mid``;
        none whose type has no free card left (like the compiled programme: see :data:`Key`)."""
        found = self._tables.hideout_edges[i].get(mid)
        if found is not None:
            return found
        (last, taken, used, hidden, progress), reach = mid
        slot = self.timeline.slots[i]
        allowed = self._allowed[i]
        values = allowed[bisect_right(allowed, last) : bisect_right(allowed, reach)]
        room = (1, *(d - t for d, t in zip(slot.draws, taken, strict=True)))
        after_pile = (
            taken,
            (taken[0] + 1, taken[1], taken[2]),
            (taken[0], taken[1] + 1, taken[2]),
            (taken[0], taken[1], taken[2] + 1),
        )
        face_down = slot.value is None and self.track_identities
        last_position = i == len(self.timeline.slots) - 1
        edges: list[tuple[int, int, Key]] = []
        for h in values:
            if face_down and used[TYPE_OF[h]] + hidden[TYPE_OF[h]] >= self.free[TYPE_OF[h]]:
                continue  # every free card of its type is already on the route
            pile = PILE_OF[h]
            weight = room[pile]
            if weight <= 0:
                continue
            if self.slack_base != 1:
                weight *= self.slack_base ** (SLACK_CAP - min(reach - h, SLACK_CAP))
            new_progress = progress
            if self.clauses or self._extra:
                advanced = self._advance(i, h, progress)
                if advanced is None:
                    continue
                new_progress = advanced
            new_hidden = hidden
            if face_down:
                t = TYPE_OF[h]
                new_hidden = (*hidden[:t], hidden[t] + 1, *hidden[t + 1 :])
            nxt = (0 if last_position else h, after_pile[pile], used, new_hidden, new_progress)
            edges.append((h, weight, nxt))
        self._tables.hideout_edges[i][mid] = edges
        return edges

    def _advance(self, i: int, h: int, progress: tuple[int, ...]) -> tuple[int, ...] | None:
        """Clause progress after hideout ``h`` at position index ``i``; None when a missed
        multi-number guess would have hit."""
        new_progress = list(progress)
        for c, clause in enumerate(self.clauses):
            if i < clause.placed and h in clause.numbers:
                new_progress[c] += 1
            if clause.placed == i + 1:
                if new_progress[c] >= len(clause.numbers):
                    return None  # every number of the missed guess would be a hideout
                new_progress[c] = 0  # the guess is settled: no later step reads its progress
        if h in self._extra and self.timeline.slots[i].value is None:
            new_progress[-1] |= 1 << self._extra.index(h)  # which pool numbers are hideouts
        return tuple(new_progress)

    def _final(self, key: Key) -> int:
        """Ways to complete a whole route ending in ``key``: the identities of its sprint
        cards, and the Fugitive's draws that are no route card."""
        _, taken, used, hidden, _ = key
        memo = (taken, used, hidden)
        found = self._final_memo.get(memo)
        if found is not None:
            return found
        out = 1
        if self.track_identities:
            for t in range(TYPES):
                out *= _falling(self.free[t] - hidden[t], used[t])
        for drawn, pool, t in zip(self.timeline.fugitive_draws, self._pools, taken, strict=True):
            if t > drawn or drawn > pool:
                out = 0
                break
            out *= _falling(pool - t, drawn - t)
        self._final_memo[memo] = out
        return out

    # --- backward values --------------------------------------------------------------------

    def _start(self) -> Key:
        zeros = (0,) * TYPES
        return (0, (0, 0, 0), zeros, zeros, (0,) * (len(self.clauses) + bool(self._extra)))

    def _count_state(self) -> None:
        self._tables.states += 1
        if self._tables.states > self.max_states:
            raise SolverLimitError(
                f"the {self.label} belief needs more than {self.max_states} states"
            )

    def _ahead(self, i: int, key: Key) -> int:
        """Weighted number of completions of the route from position index ``i``."""
        memo = self._tables.ahead[i]
        found = memo.get(key)
        if found is not None:
            return found
        self._count_state()
        if i == len(self.timeline.slots):
            total = self._final(key)
        else:
            total = sum(w * self._after_stack(i, mid) for w, mid, _ in self._stacks(i, key))
        memo[key] = total
        return total

    def _after_stack(self, i: int, mid: Mid) -> int:
        memo = self._tables.mid[i]
        found = memo.get(mid)
        if found is not None:
            return found
        self._count_state()
        total = sum(w * self._ahead(i + 1, nxt) for _, w, nxt in self._hideouts(i, mid))
        memo[mid] = total
        return total

    def _weighted_total(self) -> int:
        run = self._compiled()
        if run is not None:
            return run.total
        return self._ahead(0, self._start())

    # --- the compiled programme -------------------------------------------------------------

    def _compiled(self, pool: tuple[int, ...] = ()) -> _Run | None:
        """The programme's counts from :mod:`~sleuth.games.fugitive.deduction._counting`, with
        ``pool``
        as the extra numbers; None without Numba or when the state would not pack (then the
        plain programme runs).  The run without extras is kept.

        The first run is in floating point only (:meth:`_float_run`): when its total is below
        2**52 every count and every partial sum is an integer below 2**53 (each is at most the
        total), so all of them are exact, and so is their division by :attr:`divisor`, which
        divides them all.  Otherwise it runs again modulo enough primes."""
        if not pool and self._run is not None:
            return self._run
        first = self._float_run(pool)
        if first is None:
            return None
        total_float, layout, floats, residues = first
        moduli = _counting.primes(0)
        if total_float >= 2.0**52:  # again modulo primes whose product far exceeds the total
            moduli = _counting.primes(math.ceil((math.log2(total_float) + 16) / 31))
            _, _, layout, floats, residues = self._kernel(self._kernel_inputs(pool), moduli)
        exact_floats = not len(moduli)
        n = len(self.timeline.slots)
        shape = layout.tolist()  # see count_worlds for the layout
        cells = shape[n]
        values = shape[n + 1 : n + 1 + cells]
        masks = shape[2 * n + 2 + cells :]  # the extra masks some world has, increasing
        if exact_floats:
            exact_total = int(total_float)
            found = (floats[:cells] / self.divisor).astype(np.int64).tolist()  # exact: see above
            if not pool:  # every world has no pool number: mask 0 holds the total
                by_pool = {0: exact_total} if exact_total else {}
            else:
                by_pool = dict(zip(masks, floats[cells:].astype(np.int64).tolist(), strict=True))
        else:
            crt = _counting.Recombination(moduli)
            exact_total = crt(residues[0])
            found = [crt(row) // self.divisor for row in residues[1 : 1 + cells]]
            by_pool = {m: crt(residues[1 + cells + j]) for j, m in enumerate(masks)}
        run = _Run(
            exact_total,
            [dict(zip(values[a:b], found[a:b], strict=True)) for a, b in pairwise(shape[: n + 1])],
            [list(_bits(mask)) for mask in shape[n + 1 + cells : 2 * n + 1 + cells]],
            by_pool,
        )
        if not pool:
            self._run = run
        return run

    def _float_run(self, pool: tuple[int, ...]) -> tuple[float, Any, Any, Any] | None:
        """The compiled programme's floating-point run with ``pool`` as the extra numbers:
        (total, layout, floats, residues) as
        :func:`~sleuth.games.fugitive.deduction._counting.count_worlds`
        returns them; None when the plain programme must run instead (no Numba, or its kernel
        still compiling in the background: :func:`~sleuth.core.compiled.ready`; a state that
        would not pack, or counts beyond floating point).  Which counts are zero is exact
        whatever their size.  The run without extras is kept."""
        if not pool and self._first is not None:
            return self._first
        if not (COMPILED and ready()) or not self._packs(pool):
            return None
        _, total_float, layout, floats, residues = self._kernel(
            self._kernel_inputs(pool), _counting.primes(0)
        )
        if not math.isfinite(total_float):
            return None
        first = (total_float, layout, floats, residues)
        if not pool:
            self._first = first
        return first

    def _kernel(self, arrays: list[Any], moduli: Any) -> _counting.Result:
        """One run of the compiled programme; more than :attr:`max_states` states is a
        :class:`SolverLimitError`."""
        found = _counting.count_worlds(*[*arrays, moduli, self.max_states])
        if found[0] == _counting.TOO_MANY_STATES:
            raise SolverLimitError(
                f"the {self.label} belief needs more than {self.max_states} states"
            )
        return found

    def fits_kernel(self) -> bool:
        """Whether the compiled programme can count this belief (its missed guesses pack); if
        not, the plain programme always runs, however many states it needs (a caller on a
        budget may allow it fewer)."""
        return self._packs(())

    def _packs(self, pool: tuple[int, ...]) -> bool:
        """Whether the clauses and ``pool`` fit the compiled programme's packed state."""
        return (
            len(self.clauses) <= _counting.MAX_CLAUSES
            and all(len(c.numbers) <= _counting.MAX_CLAUSE_SIZE for c in self.clauses)
            and len(pool) <= _counting.MAX_EXTRA
        )

    def _kernel_inputs(self, pool: tuple[int, ...]) -> list[Any]:
        """The arguments of :func:`~sleuth.games.fugitive.deduction._counting.count_worlds` but the
        last two, in order."""
        free = tuple(self.free)
        # A stack of no card is known even face down: it is empty.
        hidden_stacks = tuple(
            (slot.sprints, slot.draws)
            for slot in self.timeline.slots
            if slot.stack is None and slot.sprints
        )
        comps, comp_mult, comp_fp, sizes = route_compositions(hidden_stacks, free)
        rows: list[int] = []
        start = 0
        hidden = iter(sizes)
        for slot in self.timeline.slots:
            value = -1 if slot.value is None else slot.value
            if slot.stack is None and slot.sprints:
                end = start + next(hidden)
                rows += (*slot.draws, value, 0, 0, 0, 0, 0, start, end)
                start = end
            else:
                rows += (*slot.draws, value, 1, *stack_facts(slot.stack or ()), start, start)
        extra_bit = _NO_EXTRA
        if pool:
            extra_bit = np.full(LAST + 1, -1, dtype=np.int64)
            extra_bit[list(pool)] = np.arange(len(pool))
        misses: list[int] = []
        for miss in self.timeline.misses:  # the bitset of its numbers, their count, when
            misses += (sum(1 << n for n in miss.numbers), len(miss.numbers), miss.placed)
        return [
            np.array(rows, dtype=np.int64).reshape(-1, _counting.SLOT_COLUMNS),
            np.array(misses, dtype=np.int64).reshape(-1, 3) if misses else _NO_MISSES,
            sum(map((1).__lshift__, self.blocked)),
            np.array(self.free, dtype=np.int64),
            np.array((self.timeline.fugitive_draws, self._pools), dtype=np.int64),
            _SLACK_WEIGHTS[self.slack_base],
            extra_bit,
            comps,
            comp_mult,
            comp_fp,
            _PILE_ARRAY,
            _TYPE_ARRAY,
            self.track_identities,
        ]

    # --- results ----------------------------------------------------------------------------

    def total(self) -> int:
        """The number of consistent worlds, weighted by the model (:data:`MODELS`; each world
        counts once under ``uniform``)."""
        return self._weighted_total() // self.divisor

    def _require_worlds(self) -> int:
        total = self.total()
        if total == 0:
            raise self._contradiction()
        return total

    def counts(self) -> Counts:
        """Exact counts per face-down position and value (E1, E3), with E2 and E4 helpers."""
        total = self._require_worlds()
        run = self._compiled()
        if run is not None:
            return Counts(
                total,
                {
                    slot.position: dict(found)
                    for slot, found in zip(self.timeline.slots, run.by_index, strict=True)
                    if slot.value is None
                },
                {
                    slot.position: footprints
                    for slot, footprints in zip(self.timeline.slots, run.footprints, strict=True)
                    if slot.stack is None
                },
            )
        layer: dict[Key, int] = {self._start(): 1}
        by_position: dict[int, dict[int, int]] = {}
        sprint_totals: dict[int, list[int]] = {}
        for i, slot in enumerate(self.timeline.slots):
            mids: dict[Mid, int] = defaultdict(int)
            footprints: set[int] = set()
            for key, before in layer.items():
                for w, mid, fp in self._stacks(i, key):
                    if self._after_stack(i, mid):
                        mids[mid] += before * w
                        footprints.add(fp)
            counts: dict[int, int] = defaultdict(int)
            following: dict[Key, int] = defaultdict(int)
            for mid, before in mids.items():
                for h, w, nxt in self._hideouts(i, mid):
                    after = self._ahead(i + 1, nxt)
                    if after:
                        counts[h] += before * w * after
                        following[nxt] += before * w
            if slot.value is None:
                by_position[slot.position] = {
                    v: n // self.divisor for v, n in sorted(counts.items())
                }
            if slot.stack is None:
                sprint_totals[slot.position] = sorted(footprints)
            layer = following
        return Counts(total, by_position, sprint_totals)

    def candidates(self) -> dict[int, list[int]]:
        """Per face-down position, the values it has in some consistent world, in increasing
        order (E1): ``counts().candidates()``, read from the compiled programme's
        floating-point run without turning its counts into integers."""
        first = self._float_run(())
        if first is None:
            return self.counts().candidates()
        total_float, layout, _, _ = first
        if not total_float:
            raise self._contradiction()
        n = len(self.timeline.slots)
        shape = layout.tolist()  # see count_worlds for the layout
        values = shape[n + 1 : n + 1 + shape[n]]
        return {
            slot.position: values[a:b]
            for slot, (a, b) in zip(self.timeline.slots, pairwise(shape[: n + 1]), strict=True)
            if slot.value is None
        }

    def joint(self, numbers: Iterable[int]) -> Fraction:
        """P(every number is a face-down hideout now): n(G) / N, never a product (E3, M6)."""
        numbers = tuple(sorted(set(numbers)))
        if not numbers:
            return Fraction(0)
        return self.joints(numbers)[frozenset(numbers)]

    def joints(self, pool: Iterable[int]) -> dict[frozenset[int], Fraction]:
        """P(every number of S is a face-down hideout now) for every non-empty S within
        ``pool``, from one pass of the programme that also tracks which pool numbers are
        hideouts."""
        pool = tuple(sorted(set(pool)))
        total = self._require_worlds()
        by_mask = self._pool_hits(pool)
        out: dict[frozenset[int], Fraction] = {}
        for size in range(1, len(pool) + 1):
            for subset in combinations(range(len(pool)), size):
                need = sum(1 << j for j in subset)
                hits = sum(n for mask, n in by_mask.items() if mask & need == need)
                out[frozenset(pool[j] for j in subset)] = Fraction(hits // self.divisor, total)
        return out

    def face_down_sets(self, counts: Counts | None = None) -> dict[frozenset[int], Fraction]:
        """The distribution of the set of face-down hideout values: P(they are exactly S) for
        every S with a consistent world.  Naming all of S is a multi-guess that wins at once
        when it hits (F25).  Costs one pass that tracks every candidate value (``counts``:
        this belief's :meth:`counts`, if already computed)."""
        total = self._require_worlds()
        candidates = (counts or self.counts()).candidates().values()
        pool = tuple(sorted(set().union(*candidates)))
        return {
            frozenset(n for j, n in enumerate(pool) if mask >> j & 1): Fraction(
                count // self.divisor, total
            )
            for mask, count in self._pool_hits(pool).items()
            if count
        }

    def _pool_hits(self, pool: tuple[int, ...]) -> dict[int, int]:
        """Weighted world counts by the bitset of ``pool`` numbers that are face-down
        hideouts (bit j for ``pool[j]``): the non-zero ones, by increasing bitset, from either
        programme."""
        run = self._compiled(pool)
        if run is not None:
            return run.by_mask
        saved = self._tables
        self._extra, self._tables = pool, _Tables(len(self.timeline.slots))
        try:
            by_mask: dict[int, int] = defaultdict(int)
            for key, flow in self._forward_flows().items():
                by_mask[key[4][-1]] += flow * self._final(key)
        finally:
            self._extra, self._tables = (), saved
        return {mask: n for mask, n in sorted(by_mask.items()) if n}

    def _forward_flows(self) -> dict[Key, int]:
        """Weighted number of ways to reach each state after the last position.  Counts every
        state and mid it reaches, the start included, as the compiled programme does."""
        self._count_state()
        layer: dict[Key, int] = {self._start(): 1}
        for i in range(len(self.timeline.slots)):
            mids: dict[Mid, int] = defaultdict(int)
            for key, before in layer.items():
                for w, mid, _ in self._stacks(i, key):
                    if mid not in mids:
                        self._count_state()
                    mids[mid] += before * w
            following: dict[Key, int] = defaultdict(int)
            for mid, before in mids.items():
                for _, w, nxt in self._hideouts(i, mid):
                    if nxt not in following:
                        self._count_state()
                    following[nxt] += before * w
            layer = following
        return layer

    def sample(self, rng: random.Random) -> World:
        """A complete world drawn from the consistent ones in proportion to their weights
        (uniformly under the ``uniform`` model)."""
        self._require_worlds()
        slots = self.timeline.slots
        key = self._start()
        hideouts: list[int] = []
        type_counts: list[tuple[int, ...]] = []
        draws = self._tables.draws
        for i in range(len(slots)):
            used_before = key[2]
            choice = draws.get((i, key))
            if choice is None:
                choice = draws[i, key] = _cumulative(
                    (w * self._after_stack(i, mid), mid) for w, mid, _ in self._stacks(i, key)
                )
            mid = _pick(rng, *choice)
            type_counts.append(tuple(a - b for a, b in zip(mid[0][2], used_before, strict=True)))
            choice = draws.get((i, mid))
            if choice is None:
                choice = draws[i, mid] = _cumulative(
                    (w * self._ahead(i + 1, nxt), (h, nxt)) for h, w, nxt in self._hideouts(i, mid)
                )
            h, key = _pick(rng, *choice)
            hideouts.append(h)
        return self._world(rng, hideouts, type_counts)

    def witness(self, rng: random.Random) -> World:
        """Some consistent world, found by a depth-first search that tries the stacks and
        hideouts in a random order and forgets the states with no completion.  Consistent, but
        not drawn in proportion to the weights (:meth:`sample` is): it serves to check that a
        view can be replayed, and it stops at the first complete route, so it stays quick
        where :meth:`sample`, which needs every state's weight, does not."""
        self._require_worlds()
        slots = self.timeline.slots
        dead_keys: set[tuple[int, Key]] = set()
        dead_mids: set[tuple[int, Mid]] = set()
        steps: list[tuple[Key, Mid, int]] = []  # filled from the last position back

        def completes(i: int, key: Key) -> bool:
            if i == len(slots):
                return self._final(key) > 0
            if (i, key) in dead_keys:
                return False
            self._count_state()
            for weight, mid, _ in _shuffled(rng, self._stacks(i, key)):
                if weight <= 0 or (i, mid) in dead_mids:
                    continue
                for h, _, nxt in _shuffled(rng, self._hideouts(i, mid)):
                    if completes(i + 1, nxt):
                        steps.append((key, mid, h))
                        return True
                dead_mids.add((i, mid))
            dead_keys.add((i, key))
            return False

        if not completes(0, self._start()):  # the counts said some world exists
            raise SleuthError("no consistent world found: the belief's counts disagree")
        steps.reverse()
        type_counts = [
            tuple(a - b for a, b in zip(mid[0][2], key[2], strict=True)) for key, mid, _ in steps
        ]
        return self._world(rng, [h for _, _, h in steps], type_counts)

    def _world(
        self, rng: random.Random, hideouts: list[int], type_counts: list[tuple[int, ...]]
    ) -> World:
        """The world with this route and these sprint-card types per stack, its card
        identities and the Fugitive's draw order filled in uniformly."""
        stacks = self._sample_stacks(rng, hideouts, type_counts)
        return World(tuple(hideouts), stacks, self._sample_draws(rng, hideouts, stacks))

    def _sample_stacks(
        self, rng: random.Random, hideouts: list[int], type_counts: list[tuple[int, ...]]
    ) -> tuple[tuple[int, ...], ...]:
        """Card identities for the stacks: per type, distinct cards off the route, uniformly."""
        route = set(hideouts)
        pools: list[list[int]] = [[] for _ in range(TYPES)]
        for card in range(1, LAST):
            if card not in self.blocked and card not in route:
                pools[card_type(card)].append(card)
        for pool in pools:
            rng.shuffle(pool)
        stacks: list[tuple[int, ...]] = []
        for slot, counts in zip(self.timeline.slots, type_counts, strict=True):
            if slot.stack is not None:
                stacks.append(slot.stack)
                continue
            cards = [pools[t].pop() for t, n in enumerate(counts) for _ in range(n)]
            rng.shuffle(cards)
            stacks.append(tuple(sorted(cards)))
        return tuple(stacks)

    def _sample_draws(
        self, rng: random.Random, hideouts: list[int], stacks: tuple[tuple[int, ...], ...]
    ) -> tuple[tuple[int, ...], ...]:
        """The Fugitive's draw sequence per pile: each route card in a draw slot made before it
        was placed, uniformly, then the other slots from the rest of the pile."""
        route = set(hideouts).union(*stacks)
        out: list[tuple[int, ...]] = []
        for p in (1, 2, 3):
            drawn = self.timeline.fugitive_draws[p - 1]
            sequence: list[int | None] = [None] * drawn
            for slot, h, stack in zip(self.timeline.slots, hideouts, stacks, strict=True):
                cards = [c for c in (h, *stack) if pile_of(c) == p]
                rng.shuffle(cards)
                for card in cards:
                    open_slots = [j for j in range(slot.draws[p - 1]) if sequence[j] is None]
                    sequence[rng.choice(open_slots)] = card
            rest = [
                c for c in PILES[p - 1] if c not in route and c not in self.timeline.marshal_cards
            ]
            rng.shuffle(rest)
            out.append(tuple(c if c is not None else rest.pop() for c in sequence))
        return tuple(out)

    # --- contradictions (E5) ----------------------------------------------------------------

    def _contradiction(self) -> ContradictionError:
        """The error for an empty belief, naming the first event after which no world remains
        (found by bisection: once no world is consistent with a prefix, none is with a longer
        one)."""
        if self.events is None:
            return ContradictionError("no world is consistent with these events")
        low, high = 0, len(self.events)  # the prefix of length low has worlds, high has none
        while high - low > 1:
            middle = (low + high) // 2
            if type(self)(read_view(self.events[:middle]), self.max_states).total():
                low = middle
            else:
                high = middle
        event = self.events[high - 1]
        return ContradictionError(
            f"no world is consistent with event {high} ({event.kind} {event.public}): "
            "check what was entered"
        )


def warm_up() -> None:
    """Run the compiled programme once on a small position (a hidden stack, a missed
    multi-number guess, tracked numbers), so that Numba compiles it, or loads it from its
    cache, now rather than in a timed move."""
    if not COMPILED:
        return
    draws = (3, 2, 0)
    timeline = Timeline(fugitive_draws=list(draws))
    timeline.slots = [Slot(1, 0, draws), Slot(2, 1, draws)]
    timeline.misses = [Miss((4, 5), 2)]
    ExactBelief(timeline).joints((4, 5))
    RelaxedBelief(timeline).counts()


def start_warm_up() -> None:
    """The warm-up of the bots and of ``sleuth infer``: :func:`warm_up` run in a process of its
    own (:func:`~sleuth.core.compiled.compile_elsewhere`), returning at once.  Until the kernel
    is loaded the plain programme answers, with the same counts after the same states, so that
    a player plays the same moves and no first run waits for the compilation."""
    compile_elsewhere(warm_up)


@cache
def _bits(mask: int) -> tuple[int, ...]:
    """The positions of the set bits of ``mask``, in increasing order."""
    return tuple(bit for bit in range(mask.bit_length()) if mask >> bit & 1)


def _cumulative(options: Iterable[tuple[int, T]]) -> tuple[list[int], list[T]]:
    """The running totals of the options' integer weights, and the options."""
    totals: list[int] = []
    items: list[T] = []
    running = 0
    for weight, option in options:
        running += weight
        totals.append(running)
        items.append(option)
    return totals, items


def _shuffled(rng: random.Random, items: Sequence[T]) -> list[T]:
    """A shuffled copy of ``items``."""
    out = list(items)
    rng.shuffle(out)
    return out


def _pick(rng: random.Random, totals: list[int], items: list[T]) -> T:
    """One option, with probability proportional to its integer weight (``totals`` are the
    running totals, as :func:`_cumulative` gives them; zero weights are never picked)."""
    return items[bisect_right(totals, rng.randrange(totals[-1]))]


class RelaxedBelief(ExactBelief):
    """A fast, sound relaxation of :class:`ExactBelief`, labelled as such (E6).

    It forgets which sprint cards earlier stacks used: each stack's cards are counted as if
    every unblocked card were still available, so a world where a card sits in two places is
    counted too.  Every real world is still counted exactly once, so candidate sets contain
    the exact ones (sound, perhaps not complete) and probabilities are approximations.  Every
    other constraint (monotone route, budgets with real sprint values, misses, pile provenance
    and timing, reveals) is kept.  Its state is only (last hideout, route cards per pile,
    clause progress), so it stays fast when long routes with many sprint cards make the exact
    programme slow.  :meth:`sample` is not offered: a sample could put a card in two places.
    """

    track_identities = False
    label = "relaxed"

    def sample(self, rng: random.Random) -> World:
        raise SleuthError("the relaxed belief cannot sample worlds; use ExactBelief")


class MarshalBelief:
    """The Marshal's belief in the shape of the core's protocol (:mod:`sleuth.core.belief`).

    :meth:`update` checks each event of her view as the :class:`Timeline` reads it (a malformed
    or impossible event raises ``ContradictionError`` naming it); the worlds are counted when
    first asked for, by :meth:`exact` (an :class:`ExactBelief` of the events read, whose
    contradiction names the first event after which no world remains)."""

    def __init__(self, max_states: int = MAX_STATES, model: str = "uniform") -> None:
        self.max_states = max_states
        self.model = model
        self.events: list[Event] = []
        self._timeline = Timeline()
        self._exact: ExactBelief | None = None

    @classmethod
    def from_view(cls, game: Game[Any], view: View) -> MarshalBelief:
        """The belief after every event of the Marshal's ``view``."""
        if not isinstance(game, FugitiveGame):
            raise TypeError(f"a MarshalBelief needs a Fugitive game, not {game.name}")
        if view.seat != MARSHAL:
            seat = view.seat
            raise SleuthError(f"the Marshal's belief reads seat {MARSHAL}'s view, not {seat}'s")
        belief = cls()
        read_events(belief, view.events)
        return belief

    @property
    def events_read(self) -> int:
        return len(self.events)

    def update(self, event: Event) -> None:
        index = len(self.events)
        try:
            self._timeline.apply(event)
        except (SleuthError, KeyError, TypeError, ValueError, IndexError) as exc:
            raise contradiction(index, event, str(exc)) from None
        self.events.append(event)
        self._exact = None

    def exact(self) -> ExactBelief:
        """The exact counts of the worlds consistent with the events read so far."""
        if self._exact is None:
            self._exact = ExactBelief.from_events(self.events, self.max_states, self.model)
        return self._exact

    def sample(self, rng: random.Random) -> World:
        """One world consistent with the events read, in proportion to its weight."""
        return self.exact().sample(rng)

    def admits(self, state: State[Any]) -> bool:
        """True if the true route of ``state`` is possible: every face-down hideout's value is
        a candidate of its position, and the set of them has a consistent world."""
        route = cast(FugitiveState, state).route
        exact = self.exact()
        counts = exact.counts()
        for position, values in counts.by_position.items():
            if position >= len(route) or route[position].value not in values:
                return False
        hidden = frozenset(route[p].value for p in counts.by_position)
        return not hidden or exact.face_down_sets(counts).get(hidden, 0) > 0
