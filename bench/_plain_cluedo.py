"""The spec's exact counting of Cluedo deals done plainly: the benchmark's baseline.

The dynamic programme exactly as the deduction spec first states it, in plain Python with
Python ints and none of Sleuth's refinements (no grouping of interchangeable cards into
binomials, no packed shape counts, no compiled kernels):

1. cards with a known owner (facts "has", the face-up cards) are set aside; each owner's
   allowed cards are the unknown cards it is not known to lack;
2. each owner's feasible hands are enumerated: subsets of its allowed cards of the size it
   still needs that meet each of its "at least one of" sets; the envelope's also take one
   card of each open category and avoid every wrong accusation;
3. forward over the owners (envelope first, the owner with most hands last), a dict from the
   bitmask of cards used so far to its number of ways; the last owner's hand is what is left,
   looked up in the set of its feasible hands;
4. backward over the same layers for the card marginals (deals in which each owner holds
   each card).

It reads a :class:`~sleuth.games.cluedo.deduction.constraints.Knowledge` (the facts only,
not Sleuth's closure of them) and knows nothing of weighting.
"""

from __future__ import annotations

from itertools import combinations

from sleuth.core.bitsets import members
from sleuth.games.cluedo.deduction.constraints import Knowledge


def feasible_hands(k: Knowledge) -> tuple[int, list[int], dict[int, list[int]]]:
    """(unknown cards, owner indices with cards to take, each one's feasible hands)."""
    env = k.envelope
    known = 0
    for has in k.has:
        known |= has
    unknown = k.deck.full & ~known & ~k.table
    hands: dict[int, list[int]] = {}
    for o in range(env + 1):
        allowed = unknown & ~k.lacks[o]
        clauses = [m for p, m in k.clauses if p == o and not m & k.has[o]]
        if o == env:
            options = []
            for category in k.deck.categories:
                if k.has[env] & category:
                    continue
                options.append([1 << c for c in members(allowed & category)])
            found = [0]
            for option in options:
                found = [h | c for h in found for c in option]
            hands[o] = [
                h
                for h in found
                if all(h & m for m in clauses) and all((h | k.has[env]) & m != m for m in k.failed)
            ]
        else:
            need = k.hand_sizes[o] - k.has[o].bit_count()
            hands[o] = [
                h
                for h in (
                    sum(1 << c for c in combo) for combo in combinations(members(allowed), need)
                )
                if all(h & m for m in clauses)
            ]
    return unknown, [o for o in range(env + 1) if hands[o] != [0]], hands


def plain_marginals(k: Knowledge) -> tuple[int, dict[tuple[int, int], int]]:
    """(number of consistent deals, deals in which owner index ``o`` holds card ``c`` for every
    unknown card and possible owner, keyed (c, o))."""
    unknown, owners, hands = feasible_hands(k)
    env = k.envelope
    rest = sorted((o for o in owners if o != env), key=lambda o: len(hands[o]))
    order = ([env] if env in owners else []) + rest
    if not order:
        return 1, {}
    layers: list[dict[int, int]] = [{0: 1}]
    for o in order[:-1]:
        new: dict[int, int] = {}
        for used, count in layers[-1].items():
            for hand in hands[o]:
                if not hand & used:
                    new[used | hand] = new.get(used | hand, 0) + count
        layers.append(new)
    last = set(hands[order[-1]])
    back = {used: 1 for used in layers[-1] if unknown & ~used in last}
    total = sum(layers[-1][used] for used in back)
    marginals: dict[tuple[int, int], int] = {}
    for used in back:
        for c in members(unknown & ~used):
            key = (c, order[-1])
            marginals[key] = marginals.get(key, 0) + layers[-1][used]
    for position in range(len(order) - 2, -1, -1):
        o = order[position]
        new = {}
        for used, count in layers[position].items():
            completions = 0
            for hand in hands[o]:
                if hand & used:
                    continue
                b = back.get(used | hand, 0)
                if b:
                    completions += b
                    for c in members(hand):
                        marginals[c, o] = marginals.get((c, o), 0) + count * b
            if completions:
                new[used] = completions
        back = new
    return total, marginals
