"""The lazy sequences of placements and guesses against brute-force enumeration."""

from __future__ import annotations

import random
from itertools import chain, combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.games.fugitive.engine.actions import Guess, Place
from sleuth.games.fugitive.engine.moves import Guesses, Placements, unrank_combination


def brute_placements(hand: list[int], last: int) -> set[Place]:
    """F8 read literally: a hideout above ``last`` and any sprint subset that pays for it."""
    out = set()
    for h in hand:
        others = [c for c in hand if c not in (h, 42)]
        subsets = chain.from_iterable(combinations(others, r) for r in range(len(others) + 1))
        for s in subsets:
            if h > last and h - last <= 3 + sum(1 if c % 2 else 2 for c in s):
                out.add(Place(h, s))
    return out


@settings(max_examples=80, deadline=None)
@given(
    hand=st.lists(st.integers(1, 42), min_size=1, max_size=9, unique=True),
    last=st.integers(0, 30),
)
def test_placements_match_brute_force(hand: list[int], last: int) -> None:
    lazy = Placements(hand, last)
    listed = list(lazy)
    assert len(listed) == len(set(listed)) == len(lazy)
    assert set(listed) == brute_placements(hand, last)
    assert [lazy[i] for i in range(len(lazy))] == listed
    if listed:
        assert lazy[-1] == listed[-1]
    for place in listed:
        assert place in lazy
    outsiders = [Place(h, s) for h in range(44) for s in ((), (1,), (42,), (h,))]
    for candidate in outsiders:
        assert (candidate in lazy) == (candidate in set(listed))
    assert lazy.hideouts() == sorted({p.hideout for p in listed})
    rng = random.Random(0)
    for h in lazy.hideouts():
        cheapest = lazy.cheapest(h, rng)
        assert cheapest in lazy
        assert len(cheapest.sprints) == min(len(p.sprints) for p in listed if p.hideout == h)


def test_placements_of_a_large_hand_are_counted_not_listed() -> None:
    hand = [*range(1, 21), 42]
    lazy = Placements(hand, 0)
    assert len(lazy) > 1_000_000
    assert lazy[len(lazy) - 1] in lazy and lazy[123_456] in lazy


def test_unrank_combination_is_lexicographic() -> None:
    items = [3, 5, 8, 13, 21]
    assert [unrank_combination(items, 2, i) for i in range(10)] == list(combinations(items, 2))


def test_guesses_are_every_non_empty_subset() -> None:
    lazy = Guesses([9, 4, 7])
    assert len(lazy) == 7
    assert {g.numbers for g in lazy} == {s for r in (1, 2, 3) for s in combinations((4, 7, 9), r)}
    assert Guess((4, 9)) in lazy and Guess((4, 5)) not in lazy and Guess(()) not in lazy
    assert len(Guesses(list(range(1, 42)))) == 2**41 - 1
