"""The exact posterior of a :class:`~.constraints.Knowledge`: counts, marginals, the envelope's
distribution and exactly uniform samples.

Every deal satisfying the facts is equally likely; with ``responder="uniform"`` each deal
weighs the product, over the observer's seen refutations, of ``1 / |refuter's hand ∩
suggested cards|`` (the refuter picks a card at random).  The counting itself (the spec's
exact DP over owners, with interchangeable cards counted by binomials) is in
:mod:`~.units` and :mod:`~.dp`; this module turns its tables into answers:

* a card whose owner the simple rules know counts the whole total for that owner;
* a unit's cards share the unit's count equally (they are interchangeable);
* the envelope (the first owner) takes a shape per category; each of the triples behind a
  shape gets the shape's count divided by the number of triples;
* a sample draws each owner's shape in proportion to its completions, then the cards of
  each unit uniformly: every consistent deal exactly in proportion to its weight.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Literal

import numpy as np
import numpy.typing as npt

from sleuth.core.bitsets import members
from sleuth.core.compiled import COMPILED
from sleuth.games.cluedo.deduction.constraints import (
    ENVELOPE,
    TABLE,
    Deck,
    Infeasible,
    Knowledge,
    Owner,
    close,
)
from sleuth.games.cluedo.deduction.dp import BINOM, Tables, Terms, tables, terms
from sleuth.games.cluedo.deduction.units import Problem

__all__ = ["Deal", "Posterior", "Responder", "warm_up"]

Responder = Literal["any", "uniform"]
"""How a refuter chooses among its cards: ``any`` says nothing about the deal (every
consistent deal equally likely), ``uniform`` at random among the cards it holds."""


@dataclass(frozen=True)
class Deal:
    """A complete deal: ``hands[p]`` the cards of seat ``p`` (bitset), ``envelope`` one card
    per category in category order, ``table`` the face-up cards (bitset)."""

    hands: tuple[int, ...]
    envelope: tuple[int, ...]
    table: int

    def owner(self, card: int) -> Owner:
        """Who holds ``card``."""
        if card in self.envelope:
            return ENVELOPE
        if self.table >> card & 1:
            return TABLE
        for seat, hand in enumerate(self.hands):
            if hand >> card & 1:
                return seat
        raise ValueError(f"card {card} is not dealt")


Takes = tuple[tuple[int, int], ...]
"""A shape's (unit, count) pairs with a positive count."""

DrawTable = tuple[list[int], list[Takes], list[int]]
"""The shapes an owner may take in a state (:meth:`Posterior._draw`): running sums of their
weights, their :data:`Takes` and the states they leave."""


class Posterior:
    """The exact posterior over the deals a knowledge allows.  Raises
    :class:`~.constraints.Infeasible` when no deal satisfies it.

    :attr:`total` is the (scaled) weight of every consistent deal and :meth:`count` the part
    of it where an owner holds a card; without weights both are plain deal counts.  The
    forward pass runs at construction; marginals and samples run the backward pass once, on
    first use.  ``compiled`` chooses the DP's implementation (None: the compiled one when it
    can, see :func:`~.dp.tables`).

    ``reuse``, an earlier posterior (of the same game), lends its tables when the simple rules
    leave the counting problem as it was: a fact they already implied (a pass on cards known
    to lie elsewhere, say) changes the knowledge but not a single count, so nothing is
    counted again.
    """

    def __init__(
        self,
        knowledge: Knowledge,
        responder: Responder = "any",
        compiled: bool | None = None,
        reuse: Posterior | None = None,
    ) -> None:
        self.knowledge = knowledge
        self.responder = responder
        self.closure = close(knowledge)
        self._weighted = responder == "uniform" and bool(knowledge.shown)
        self._compiled = compiled
        self._problem: Problem
        self._tables: Tables
        self._deals: int | None
        self._draws: dict[tuple[int, int], DrawTable]
        """Cached :meth:`_draw` tables by (position, state)."""
        self._shape_takes: dict[int, Takes]
        """Cached :meth:`_takes` by shape."""
        self._shape_lists: dict[int, list[tuple[int, int, Terms, Takes]]]
        """Cached :meth:`_shapes` by position."""
        self._units: list[list[int]] | None
        if reuse is not None and reuse._signature() == self._signature():
            self._problem, self._tables = reuse._problem, reuse._tables
            self._deals, self._draws, self._units = reuse._deals, reuse._draws, reuse._units
            self._shape_takes, self._shape_lists = reuse._shape_takes, reuse._shape_lists
        else:
            self._problem = Problem(self.closure, self._weighted)
            self._tables = tables(self._problem, self._weighted, compiled)
            self._deals = None if self._weighted else self._tables.total
            self._draws, self._shape_takes, self._shape_lists, self._units = {}, {}, {}, None
        self.total = self._tables.total
        self._entropy: float | None = None
        """The weighted total (the deal count when unweighted): ``weight * scale``."""
        if not self.total:
            raise Infeasible("no deal satisfies every fact")

    def _signature(self) -> tuple[object, ...]:
        """What the counting problem depends on: equal signatures, equal tables."""
        c = self.closure
        shown = c.knowledge.shown if self._weighted else ()
        return (
            c.knowledge.deck,
            c.knowledge.hand_sizes,
            c.knowledge.table,
            c.known,
            c.allowed,
            c.clauses,
            c.failed,
            shown,
            self._weighted,
            self._compiled,
        )

    # --- counts ---------------------------------------------------------------------------

    @property
    def deals(self) -> int:
        """The exact number of consistent deals, whatever the weighting."""
        if self._deals is None:
            self._deals = tables(Problem(self.closure, False), False, self._compiled).total
        return self._deals

    @property
    def weight(self) -> Fraction:
        """The total weight of the consistent deals (their number when unweighted)."""
        return Fraction(self.total, self._problem.scale)

    def count(self, card: int, owner: Owner) -> int:
        """The part of :attr:`total` in which ``owner`` holds ``card``."""
        o = self.knowledge.index(owner)
        known = self.closure.owner_of(card)
        if known is not None:
            return self.total if known == o else 0
        problem = self._problem
        if o not in problem.owners:
            return 0
        j = problem.unit_of[card]
        return self._unit_counts()[problem.owners.index(o)][j] // problem.units[j].size

    def _unit_counts(self) -> list[list[int]]:
        """For each owner position and unit, the total times the unit's cards the owner
        takes (a unit's cards share it equally)."""
        if self._units is None:
            units = [(u.shift, u.mask) for u in self._problem.units]
            self._units = []
            for taken in self._tables.taken():
                sums = [0] * len(units)
                for packed, count in taken.items():
                    for j, (shift, mask) in enumerate(units):
                        n = (packed >> shift) & mask
                        if n:
                            sums[j] += count * n
                self._units.append(sums)
            for sums in self._units:
                for j, u in enumerate(self._problem.units):
                    assert sums[j] % u.size == 0, "interchangeable cards share their count"
        return self._units

    def fraction(self, card: int, owner: Owner) -> Fraction:
        """The exact probability that ``owner`` holds ``card``."""
        return Fraction(self.count(card, owner), self.total)

    def probability(self, card: int, owner: Owner) -> float:
        return self.count(card, owner) / self.total

    def owners(self, card: int) -> dict[Owner, float]:
        """The probability of each possible owner of ``card`` (only owners above 0)."""
        k = self.knowledge
        out: dict[Owner, float] = {}
        for o in range(k.players + 2):
            count = self.count(card, k.owner(o))
            if count:
                out[k.owner(o)] = count / self.total
        return out

    def matrix(self) -> npt.NDArray[np.float64]:
        """P(owner holds card) by card (rows) and owner index (seats, envelope, table); each
        row sums to 1.  Entry by entry :meth:`count` over :attr:`total`, read off the tables
        once per card rather than once per entry (an observation for learning agents takes
        it at every event)."""
        k = self.knowledge
        problem = self._problem
        out = np.zeros((k.deck.size, k.players + 2))
        for card in range(k.deck.size):
            known = self.closure.owner_of(card)
            if known is not None:
                out[card, known] = 1.0
                continue
            j, counts = problem.unit_of[card], self._unit_counts()
            size = problem.units[j].size
            for position, o in enumerate(problem.owners):
                out[card, o] = counts[position][j] // size / self.total
        return out

    def certain(self) -> list[tuple[int, Owner]]:
        """Every (card, owner) true in every consistent deal (complete), by card."""
        k = self.knowledge
        return [
            (card, k.owner(o))
            for card in range(k.deck.size)
            for o in range(k.players + 2)
            if self.count(card, k.owner(o)) == self.total
        ]

    # --- the envelope -----------------------------------------------------------------------

    def solution_counts(self) -> dict[tuple[int, ...], int]:
        """The part of :attr:`total` of each possible envelope (positive parts only)."""
        problem = self._problem
        k = self.knowledge
        fixed = [tuple(members(self.closure.known[k.envelope] & c)) for c in k.deck.categories]
        if k.envelope not in problem.owners:
            return {tuple(f[0] for f in fixed): self.total}
        out: dict[tuple[int, ...], int] = {}
        for packed, count in self._tables.taken()[problem.owners.index(k.envelope)].items():
            chosen = [u for u in problem.units if u.take(packed)]
            share = count // math.prod(u.size for u in chosen)
            options = list(fixed)
            for u in chosen:
                options[u.category] = u.cards
            for triple in product(*options):
                out[triple] = out.get(triple, 0) + share
        return out

    def solution_probabilities(self) -> npt.NDArray[np.float64]:
        """P(envelope) by solution index (:meth:`~.constraints.Deck.solution_index`)."""
        deck = self.knowledge.deck
        out = np.zeros(deck.solutions)
        for triple, count in self.solution_counts().items():
            out[deck.solution_index(triple)] = count / self.total
        return out

    def category_marginals(self) -> list[dict[int, float]]:
        """For each category, P(the envelope holds it) for each of its cards."""
        return [
            {c: self.probability(c, ENVELOPE) for c in members(mask)}
            for mask in self.knowledge.deck.categories
        ]

    def entropy(self) -> float:
        """The entropy of the envelope's distribution, in nats (computed once)."""
        if self._entropy is None:
            self._entropy = self._envelope_entropy()
        return self._entropy

    def _envelope_entropy(self) -> float:
        """``-sum p log p`` over :meth:`solution_counts` without listing the envelopes: the
        envelopes of one envelope shape are as many as the product of its units' sizes and
        share its count equally, and no envelope comes from two shapes (their units differ),
        so each shape's term is subtracted once per envelope, in the order of
        :meth:`solution_counts` (the same float to the bit)."""
        problem = self._problem
        k = self.knowledge
        if k.envelope not in problem.owners:
            return 0.0 - 1.0 * math.log(1.0)
        units = problem.units
        h = 0.0
        for packed, count in self._tables.taken()[problem.owners.index(k.envelope)].items():
            envelopes = math.prod(units[j].size for j, _ in self._takes(packed))
            p = count // envelopes / self.total
            term = p * math.log(p)
            for _ in range(envelopes):
                h -= term
        return h

    def top(self, k: int = 5) -> list[tuple[tuple[int, ...], float]]:
        """The ``k`` most likely envelopes with their probabilities (ties in card order)."""
        counts = sorted(self.solution_counts().items(), key=lambda item: (-item[1], item[0]))
        return [(triple, count / self.total) for triple, count in counts[:k]]

    # --- samples --------------------------------------------------------------------------

    def sample(self, rng: random.Random) -> Deal:
        """One consistent deal, drawn exactly in proportion to its weight.

        The draws are those of ``rng.randrange`` (a shape) and ``rng.sample`` (a unit's
        cards) made in a fixed order, taken through :func:`_below` and :func:`_pick`, which
        make the same calls on ``rng``: the same seed, the same deal."""
        hands, triple = self._deal(_below(rng))
        return Deal(hands, triple, self.knowledge.table)

    def samples(self, rng: random.Random, n: int) -> list[Deal]:
        """``n`` independent draws of :meth:`sample`."""
        below, table = _below(rng), self.knowledge.table
        return [Deal(*self._deal(below), table) for _ in range(n)]

    def _deal(self, below: Callable[[int], int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The hands and the envelope of one deal drawn with ``below`` (:meth:`sample`)."""
        problem = self._problem
        k = self.knowledge
        known = self.closure.known
        hands = list(known[: k.players])
        envelope = known[k.envelope]
        left = [list(u.cards) for u in problem.units]
        state = problem.full
        last = len(problem.owners) - 1
        draws = self._draws
        for position, owner in enumerate(problem.owners):
            if position < last:
                table = draws.get((position, state)) or self._draw(position, state)
                cumulative, picks, nexts = table
                i = bisect.bisect_right(cumulative, below(cumulative[-1]))
                taken, state = picks[i], nexts[i]
            else:
                taken = self._takes(state)
            got = 0
            for j, n in taken:
                cards = left[j]
                if n == 1:
                    got |= 1 << cards.pop(below(len(cards)))
                    continue
                for card in _pick(below, cards, n):
                    cards.remove(card)
                    got |= 1 << card
            if owner == k.envelope:
                envelope |= got
            else:
                hands[owner] |= got
        triple = tuple((envelope & c & -(envelope & c)).bit_length() - 1 for c in k.deck.categories)
        return tuple(hands), triple

    def _takes(self, packed: int) -> tuple[tuple[int, int], ...]:
        """The (unit, count) pairs of a shape with a positive count, in unit order (cached)."""
        got = self._shape_takes.get(packed)
        if got is None:
            got = tuple((j, n) for j, u in enumerate(self._problem.units) if (n := u.take(packed)))
            self._shape_takes[packed] = got
        return got

    def _draw(self, position: int, state: int) -> DrawTable:
        """The shapes the owner at ``position`` may take in ``state``, for a draw in
        proportion to each one's weight times its completions (cached): the running sums of
        those weights, each shape's :meth:`_takes` and the state it leaves."""
        key = (position, state)
        table = self._draws.get(key)
        if table is None:
            guard = self._problem.guard
            after = self._tables.completions(position + 1)
            cumulative: list[int] = []
            picks: list[Takes] = []
            nexts: list[int] = []
            running = 0
            s = state | guard
            for packed, static, shape_terms, takes in self._shapes(position):
                t = s - packed
                if t & guard != guard:
                    continue
                w = after.get(t ^ guard, 0)
                if not w:
                    continue
                w *= static
                for shift, mask, n in shape_terms:
                    w *= BINOM[(state >> shift) & mask][n]
                if w:
                    running += w
                    cumulative.append(running)
                    picks.append(takes)
                    nexts.append(t ^ guard)
            table = (cumulative, picks, nexts)
            self._draws[key] = table
        return table

    def _shapes(self, position: int) -> list[tuple[int, int, Terms, Takes]]:
        """The shapes of the owner at ``position``: (packed counts, weight, binomial terms,
        :meth:`_takes`), the weight 1 when unweighted (cached)."""
        got = self._shape_lists.get(position)
        if got is None:
            problem = self._problem
            weighted = self._weighted
            got = [
                (packed, static if weighted else 1, terms(problem, packed), self._takes(packed))
                for packed, static in problem.shapes[position]
            ]
            self._shape_lists[position] = got
        return got


def _below(rng: random.Random) -> Callable[[int], int]:
    """``rng``'s draw of a number in ``[0, n)`` for ``n >= 1``: what ``rng.randrange(n)`` and
    ``rng.sample`` call (``random.Random._randbelow``; a test checks that both still draw
    through it)."""
    return rng._randbelow  # type: ignore[attr-defined,no-any-return]


def _pick(below: Callable[[int], int], cards: list[int], n: int) -> list[int]:
    """``rng.sample(cards, n)`` for ``1 <= n <= len(cards) <= 21`` with ``below`` the rng's
    :func:`_below`: the same calls, the same cards in the same order (the standard library's
    algorithm for a population of at most 21, which swaps each pick out of a copy)."""
    size = len(cards)
    if n == 1:
        return [cards[below(size)]]
    pool = list(cards)
    out = []
    for i in range(n):
        j = below(size - i)
        out.append(pool[j])
        pool[j] = pool[size - i - 1]
    return out


def warm_up() -> None:
    """Load the compiled kernels (or compile them, once after an install) by counting a tiny
    problem with them, so that the first large count does not pay for it; nothing to do
    without Numba."""
    if COMPILED:
        Posterior(Knowledge((2, 1), Deck((2, 2, 2))), compiled=True).matrix()
