"""Read-only lazy sequences of Fugitive actions that are too many to list.

A hand of 20 cards has about a million legal ways to place a hideout with sprint cards, and
the Marshal may name any non-empty set of up to 41 numbers.  :class:`Placements`,
:class:`OpeningPlacements` (with F14's dead-end check) and :class:`Guesses` behave like
tuples of those actions (``len``, indexing, iteration, ``in``), in a fixed order, but compute
each item on demand: counting uses binomial coefficients and indexing unranks combinations,
so ``rng.choice(legal)`` costs microseconds.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import cached_property
from itertools import combinations
from math import comb
from typing import NamedTuple, overload

from sleuth.games.fugitive.engine.actions import Guess, Place
from sleuth.games.fugitive.engine.cards import SPRINT, sprint_total


def unrank_combination(items: Sequence[int], size: int, index: int) -> tuple[int, ...]:
    """The ``index``-th ``size``-combination of ``items`` in lexicographic order."""
    out = []
    start = 0
    for slot in range(size):
        for i in range(start, len(items)):
            block = comb(len(items) - i - 1, size - slot - 1)
            if index < block:
                out.append(items[i])
                start = i + 1
                break
            index -= block
    return tuple(out)


class _Block(NamedTuple):
    """All placements of ``hideout`` with ``odd`` odd and ``even`` even sprint cards."""

    hideout: int
    odd: int
    even: int
    size: int


class Placements(Sequence[Place]):
    """Every legal placement of one hideout from ``hand`` after hideout ``last`` (F8).

    A placement is a hideout ``h`` in the hand (``h > last``) and a set ``S`` of other hand
    cards (never 42) whose sprint values reach ``h - last - 3``; any larger ``S`` is legal too
    (F9).  Order: by hideout, then by the number of sprint cards worth 1 and worth 2, then
    lexicographically.
    """

    def __init__(self, hand: Sequence[int], last: int) -> None:
        self.hand = tuple(sorted(hand))
        self.last = last
        self._hideout_blocks: dict[int, list[_Block]] = {}

    @cached_property
    def _blocks(self) -> list[_Block]:
        return [block for h in self.hideouts() for block in self._blocks_of(h)]

    def _blocks_of(self, hideout: int) -> list[_Block]:
        """The blocks of ``hideout``, in this sequence's order (empty if it cannot be placed)."""
        found = self._hideout_blocks.get(hideout)
        if found is None:
            found = []
            if hideout in self._in_hand and hideout > self.last:
                odd, even = self._sprint_cards(hideout)
                need = hideout - self.last - 3
                for a in range(len(odd) + 1):
                    for b in range(len(even) + 1):
                        if a + 2 * b >= need:
                            found.append(
                                _Block(hideout, a, b, comb(len(odd), a) * comb(len(even), b))
                            )
            self._hideout_blocks[hideout] = found
        return found

    @cached_property
    def _in_hand(self) -> frozenset[int]:
        return frozenset(self.hand)

    @cached_property
    def _sprint_hand(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The hand's cards worth 1 and worth 2 footprints as sprint cards (never 42)."""
        return (
            tuple(c for c in self.hand if SPRINT[c] == 1),
            tuple(c for c in self.hand if SPRINT[c] == 2),
        )

    def _sprint_cards(self, hideout: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The hand's possible sprint cards worth 1 and worth 2 footprints for ``hideout``."""
        odd, even = self._sprint_hand
        if SPRINT[hideout] == 1:
            odd = tuple(c for c in odd if c != hideout)
        elif SPRINT[hideout] == 2:
            even = tuple(c for c in even if c != hideout)
        return odd, even

    def __len__(self) -> int:
        return sum(b.size for b in self._blocks)

    def hideouts(self) -> list[int]:
        """The hideouts that can be placed (with some sprint set), in increasing order."""
        odd, even = self._sprint_hand
        total = len(odd) + 2 * len(even)  # the footprints of every sprint card in the hand
        return [h for h in self.hand if h > self.last and h - self.last - 3 <= total - SPRINT[h]]

    def sizes(self, hideout: int) -> list[int]:
        """The numbers of sprint cards ``hideout`` can be placed with, in increasing order."""
        return sorted({b.odd + b.even for b in self._blocks_of(hideout)})

    def of(self, hideout: int, size: int) -> Iterator[Place]:
        """The placements of ``hideout`` with ``size`` sprint cards, in this sequence's order."""
        odd, even = self._sprint_cards(hideout)
        for block in self._blocks_of(hideout):
            if block.odd + block.even == size:
                for first in combinations(odd, block.odd):
                    for second in combinations(even, block.even):
                        yield Place(hideout, first + second)

    def cheapest(self, hideout: int, rng: random.Random, extra: int = 0) -> Place:
        """A random placement of ``hideout`` with as few sprint cards as possible, plus
        ``extra`` more when the hand has them (a bluff)."""
        blocks = self._blocks_of(hideout)
        if not blocks:
            raise ValueError(f"hideout {hideout} cannot be placed")
        fewest = min(b.odd + b.even for b in blocks)
        sizes = {b.odd + b.even for b in blocks}
        size = max(s for s in sizes if s <= fewest + extra)
        block = rng.choice([b for b in blocks if b.odd + b.even == size])
        ones, twos = self._sprint_cards(hideout)
        return Place(hideout, (*rng.sample(ones, block.odd), *rng.sample(twos, block.even)))

    @overload
    def __getitem__(self, index: int) -> Place: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Place]: ...
    def __getitem__(self, index: int | slice) -> Place | Sequence[Place]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if index < 0:
            raise IndexError("placement index out of range")
        for block in self._blocks:
            if index < block.size:
                odd, even = self._sprint_cards(block.hideout)
                per_odd = comb(len(even), block.even)
                chosen = unrank_combination(odd, block.odd, index // per_odd)
                chosen += unrank_combination(even, block.even, index % per_odd)
                return Place(block.hideout, chosen)
            index -= block.size
        raise IndexError("placement index out of range")

    def __iter__(self) -> Iterator[Place]:
        for block in self._blocks:
            odd, even = self._sprint_cards(block.hideout)
            for first in combinations(odd, block.odd):
                for second in combinations(even, block.even):
                    yield Place(block.hideout, first + second)

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Place):
            return False
        h, sprints = action.hideout, action.sprints
        hand = self._in_hand
        return (
            h in hand
            and h > self.last
            and len(set(sprints)) == len(sprints)
            and all(c in hand and c != h and SPRINT[c] for c in sprints)
            and h - self.last <= 3 + sprint_total(sprints)
        )


class Guesses(Sequence[Guess]):
    """Every non-empty set of the ``numbers`` (F19-F20); item ``i`` is the set whose members
    are given by the binary digits of ``i + 1``."""

    def __init__(self, numbers: Sequence[int]) -> None:
        self.numbers = tuple(sorted(numbers))

    def __len__(self) -> int:
        return (1 << len(self.numbers)) - 1

    @overload
    def __getitem__(self, index: int) -> Guess: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Guess]: ...
    def __getitem__(self, index: int | slice) -> Guess | Sequence[Guess]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("guess index out of range")
        bits = index + 1
        return Guess(tuple(n for i, n in enumerate(self.numbers) if bits >> i & 1))

    def __iter__(self) -> Iterator[Guess]:
        for i in range(len(self)):
            yield self[i]

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Guess) or not action.numbers:
            return False
        allowed = set(self.numbers)
        return len(set(action.numbers)) == len(action.numbers) and all(
            n in allowed for n in action.numbers
        )


class Choices(Sequence[object]):
    """A few listed actions followed by a lazy sequence (``pass`` then every placement)."""

    def __init__(self, listed: tuple[object, ...], rest: Sequence[object]) -> None:
        self.listed = listed
        self.rest = rest

    def __len__(self) -> int:
        return len(self.listed) + len(self.rest)

    @overload
    def __getitem__(self, index: int) -> object: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[object]: ...
    def __getitem__(self, index: int | slice) -> object | Sequence[object]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if 0 <= index < len(self.listed):
            return self.listed[index]
        return self.rest[index - len(self.listed)]

    def __iter__(self) -> Iterator[object]:
        yield from self.listed
        yield from self.rest

    def __contains__(self, action: object) -> bool:
        return action in self.listed or action in self.rest


def has_follow_up(hand: list[int], first: Place) -> bool:
    """F14: after ``first``, the rest of the hand still has a legal second placement: a card
    above ``first`` within reach when every other card (but 42) is spent on the sprint."""
    used = {first.hideout, *first.sprints}
    rest = [c for c in hand if c not in used]
    budget = 3 + sprint_total(rest)
    return any(h > first.hideout and h - first.hideout <= budget - SPRINT[h] for h in rest)


def with_follow_up(hand: list[int], placements: list[Place]) -> list[Place]:
    """The opening placements that pass F14 (:func:`has_follow_up`), checked together: per
    hideout ``x`` the cards above it are ranked once by what a second placement on them costs
    (``h - x`` plus the card's own sprint value, which it no longer adds to the budget)."""
    total = sprint_total(hand)
    ranked: dict[int, list[tuple[int, int]]] = {}
    kept: list[Place] = []
    for first in placements:
        x = first.hideout
        if x not in ranked:
            ranked[x] = sorted((h - x + SPRINT[h], h) for h in hand if h > x)
        budget = 3 + total - SPRINT[x] - sprint_total(first.sprints)
        for cost, h in ranked[x]:
            if cost > budget:
                break
            if h not in first.sprints:
                kept.append(first)
                break
    return kept


class OpeningPlacements(Sequence[Place]):
    """The opening placements (F13) of ``hand`` after ``last``, without those that leave no
    legal second hideout when ``follow_up`` is set (F14), in :class:`Placements` order.

    ``in`` and the random policy's questions (:meth:`hideouts`, :meth:`fewest_sprints`) are
    answered without listing them; ``len``, indexing and iteration list them once (a few
    hundred)."""

    def __init__(self, hand: list[int], last: int, follow_up: bool) -> None:
        self.hand = hand
        self.follow_up = follow_up
        self.placements = Placements(hand, last)
        self._cheapest: dict[int, list[Place]] = {}

    @cached_property
    def _listed(self) -> list[Place]:
        placements = list(self.placements)
        if self.follow_up:
            return with_follow_up(self.hand, placements)
        return placements

    def __len__(self) -> int:
        return len(self._listed)

    @overload
    def __getitem__(self, index: int) -> Place: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Place]: ...
    def __getitem__(self, index: int | slice) -> Place | Sequence[Place]:
        return self._listed[index]

    def __iter__(self) -> Iterator[Place]:
        return iter(self._listed)

    def __contains__(self, action: object) -> bool:
        return action in self.placements and self._kept(action)  # type: ignore[arg-type]

    def _kept(self, place: Place) -> bool:
        return not self.follow_up or has_follow_up(self.hand, place)

    def hideouts(self) -> list[int]:
        """The hideouts of these placements, in increasing order."""
        return [h for h in self.placements.hideouts() if self.fewest_sprints(h)]

    def of_hideout(self, hideout: int) -> list[Place]:
        """Every placement of ``hideout``, fewest sprint cards first (without listing the
        others)."""
        sizes = self.placements.sizes(hideout)
        return [p for n in sizes for p in self.placements.of(hideout, n) if self._kept(p)]

    def fewest_sprints(self, hideout: int) -> list[Place]:
        """The placements of ``hideout`` with the fewest sprint cards, in this order."""
        found = self._cheapest.get(hideout)
        if found is None:
            found = []
            for size in self.placements.sizes(hideout):
                found = [p for p in self.placements.of(hideout, size) if self._kept(p)]
                if found:
                    break
            self._cheapest[hideout] = found
        return found
